// Store files as relay writes them: a record with no `__typename` (an updater's, a fixture's, an
// older client's) loads, reads as relay's reader reads it, writes back byte for byte and merges
// as relay's RelayModernRecord.update does; a record whose `__id` is not its key is refused.
import Foundation
import RelayArenaCompiler
import RelayArenaTestSupport
import XCTest

@testable import RelayArena

final class UntypedRecordTests: XCTestCase {
    /// `1000` and `client:1` have no `__typename`; `client:__type:` would be the type record of
    /// the empty typename, which an untyped record must never consult.
    static let file =
        #"{"client:root":{"__id":"client:root","__typename":"__Root","hero":{"__ref":"1000"}},"#
        + #""1000":{"__id":"1000","id":"1000","name":"Luke","homePlanet":"Tatooine"},"#
        + #""2001":{"__id":"2001","__typename":"Droid","id":"2001","name":"R2"},"#
        + #""client:1":{"__id":"client:1","x":1,"l":{"__refs":["2001",null]}},"gone":null,"#
        + #""client:__type:":{"__id":"client:__type:","__typename":"__TypeSchema","__isNode":true}}"#

    func json(_ store: RecordStore) -> String { String(decoding: store.relayJSON(), as: UTF8.self) }

    func payload(_ text: String) throws -> NormalizedPayload {
        NormalizedPayload(delta: try SourceHandle.importJSON(Array(text.utf8), maxDepth: 100))
    }

    func testAnUntypedRecordLoadsAndWritesBackTheSame() throws {
        let store = try RecordStore(relayJSON: Array(Self.file.utf8))
        XCTAssertEqual(json(store), Self.file, "no `__typename` written for a record that had none")
        XCTAssertEqual(store.recordCount, 6)
        store.withSnapshot { s in
            guard case .record(let luke) = s.record("1000"), case .record(let c1) = s.record("client:1"),
                case .record(let r2) = s.record("2001")
            else { return XCTFail("untyped records are records") }
            XCTAssertTrue(s.typename(of: luke).isEmpty)
            XCTAssertEqual(s.typename(of: c1).string, "")
            XCTAssertEqual(s.typename(of: r2).string, "Droid")
            if case .int(1)? = s.field(c1, "x") {} else { XCTFail("x") }
            if case .string(let t)? = s.field(luke, "name") {
                XCTAssertEqual(t.string, "Luke")
            } else {
                XCTFail("name")
            }
            if case .deleted = s.record("gone") {} else { XCTFail("a tombstone is not an untyped record") }
        }
        // Loaded again from its own output: the same bytes.
        XCTAssertEqual(json(try RecordStore(relayJSON: store.relayJSON())), Self.file)
        // A store of untyped records only, the root too.
        let bare = #"{"client:root":{"__id":"client:root"},"a":{"__id":"a","v":null}}"#
        XCTAssertEqual(json(try RecordStore(relayJSON: Array(bare.utf8))), bare)
    }

    /// relay's reader takes `__typename` from the record (`getValue(record, '__typename')`):
    /// undefined here, so missing and omitted; a concrete refinement does not match, an abstract
    /// one finds no type record (unknown: missing).
    func testReadersTreatAnUntypedRecordAsRelayDoes() throws {
        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: "starwars.graphql", text: try Fixtures.text("starwars.graphql")))
        let docs = try compiler.compile([
            GraphQLSourceFile(
                name: "F.graphql",
                text: """
                    query Typename { hero { __typename name } }
                    query Concrete { hero { name ... on Human { homePlanet } } }
                    query Abstract { hero { name ... on Node { id } } }
                    fragment Concrete_human on Human { name }
                    """)
        ])
        let store = try RecordStore(relayJSON: Array(Self.file.utf8))
        func hero(_ operation: String) -> (ReadValue?, Bool) {
            let r = store.read(operation: docs.operations[operation]!)
            return (r.data?["hero"], r.isMissingData)
        }
        let typename = hero("Typename")
        XCTAssertEqual(typename.0, .object([("name", .string("Luke"))]), "no `__typename` in the data")
        XCTAssertTrue(typename.1, "`__typename` is undefined: missing")

        let concrete = hero("Concrete")
        XCTAssertEqual(concrete.0, .object([("name", .string("Luke"))]), "`... on Human` does not match no type")
        XCTAssertFalse(concrete.1)

        // `client:__type:` (the empty typename's type record) says `__isNode`: not consulted.
        let abstract = hero("Abstract")
        XCTAssertEqual(abstract.0, .object([("name", .string("Luke")), ("id", .string("1000"))]), "fields still read")
        XCTAssertTrue(abstract.1, "no type, no type record: whether it is a Node is unknown")

        // A fragment on a concrete type read from a record with none: not of its type, as relay's
        // getType(record) !== node.type: no data expected, nothing missing.
        let fragment = store.read(fragment: docs.fragments["Concrete_human"]!, dataID: "1000")
        XCTAssertEqual(fragment.data, .object([("name", .string("Luke"))]))
        XCTAssertFalse(fragment.isMissingData)
    }

    func testAnUntypedDeltaRecordKeepsTheStoresType() throws {
        let store = try RecordStore(relayJSON: Array(Self.file.utf8))
        let updated = try store.publish(try payload(#"{"2001":{"__id":"2001","name":"Artoo"}}"#))
        XCTAssertEqual(updated.count, 1)
        store.withSnapshot { s in
            guard case .record(let r2) = s.record("2001") else { return XCTFail() }
            XCTAssertEqual(
                s.typename(of: r2).string, "Droid", "relay's update copies the delta's fields: it has no `__typename`")
            if case .string(let t)? = s.field(r2, "name") { XCTAssertEqual(t.string, "Artoo") } else { XCTFail("name") }
        }
        // The same fields, no type: nothing changes.
        XCTAssertEqual(try store.publish(try payload(#"{"2001":{"__id":"2001","name":"Artoo"}}"#)).count, 0)
        XCTAssertTrue(
            json(store).contains(#""2001":{"__id":"2001","__typename":"Droid","id":"2001","name":"Artoo"}"#),
            json(store))
        // Untyped over untyped stays untyped; over a tombstone it comes back untyped.
        _ = try store.publish(try payload(#"{"client:1":{"__id":"client:1","y":2},"gone":{"__id":"gone","z":3}}"#))
        XCTAssertTrue(
            json(store).contains(
                #""client:1":{"__id":"client:1","x":1,"l":{"__refs":["2001",null]},"y":2},"gone":{"__id":"gone","z":3}"#
            ), json(store))
    }

    func testATypedDeltaRecordTypesAnUntypedOne() throws {
        let store = try RecordStore(relayJSON: Array(Self.file.utf8))
        let updated = try store.publish(try payload(#"{"1000":{"__id":"1000","__typename":"Human","name":"Luke"}}"#))
        XCTAssertEqual(updated.count, 1, "the type alone is a change")
        store.withSnapshot { s in
            guard case .record(let luke) = s.record("1000") else { return XCTFail() }
            XCTAssertEqual(s.typename(of: luke).string, "Human")
        }
        XCTAssertTrue(
            json(store).contains(
                #""1000":{"__id":"1000","__typename":"Human","id":"1000","name":"Luke","homePlanet":"Tatooine"}"#),
            json(store))
        // With new fields too (the record's shape changes).
        _ = try store.publish(try payload(#"{"client:1":{"__id":"client:1","__typename":"T","y":2}}"#))
        XCTAssertTrue(
            json(store).contains(
                #""client:1":{"__id":"client:1","__typename":"T","x":1,"l":{"__refs":["2001",null]},"y":2}"#),
            json(store))
    }

    /// A new store takes a payload's arena whole (ra_publish_adopt.c): an untyped root in it
    /// keeps the store root's type, as a merge would; other untyped records stay so.
    func testAnUntypedRootPublishedIntoANewStoreKeepsItsType() throws {
        let store = RecordStore()
        _ = try store.publish(
            try payload(#"{"client:root":{"__id":"client:root","me":{"__ref":"u"}},"u":{"__id":"u","n":1}}"#))
        XCTAssertEqual(
            json(store),
            #"{"client:root":{"__id":"client:root","__typename":"__Root","me":{"__ref":"u"}},"u":{"__id":"u","n":1}}"#)
        let plain = RecordStore()
        XCTAssertEqual(
            try plain.publish(try payload(#"{"client:root":{"__id":"client:root"}}"#)).count, 0,
            "nothing new for the root")
        XCTAssertEqual(json(plain), json(RecordStore()))
    }

    func testARecordWhoseIDIsNotItsKeyIsRefused() {
        let bad =
            #"{"client:root":{"__id":"client:root","__typename":"__Root"},"a":{"__id":"b","__typename":"T","x":1}}"#
        XCTAssertThrowsError(try RecordStore(relayJSON: Array(bad.utf8))) { error in
            XCTAssertTrue(
                "\(error)".contains("record `a` has `__id` `b`: a record's `__id` must be its key"), "\(error)")
        }
        XCTAssertThrowsError(try RecordStore(relayJSON: Array(#"{"client:x:0":{"__id":"client:x:1"}}"#.utf8)))
        // No `__id` at all: its key is its ID; a derived ID matches its own text.
        XCTAssertNoThrow(
            try RecordStore(
                relayJSON: Array(#"{"a":{"__typename":"T"},"client:x:edges:0":{"__id":"client:x:edges:0"}}"#.utf8)))
        // An empty `__typename` would write back as none: refused.
        XCTAssertThrowsError(try RecordStore(relayJSON: Array(#"{"a":{"__id":"a","__typename":""}}"#.utf8))) { error in
            XCTAssertTrue("\(error)".contains("record `a` has an empty `__typename`"), "\(error)")
        }
    }

    /// The empty typename is an untyped record's: a response giving it is refused (selected,
    /// aliased, or read for an abstract field), the store unchanged.
    func testAnEmptyTypenameInAResponseIsRefused() throws {
        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: "starwars.graphql", text: try Fixtures.text("starwars.graphql")))
        let docs = try compiler.compile([
            GraphQLSourceFile(
                name: "Q.graphql",
                text: """
                    query Selected { human(id: "1000") { __typename name } }
                    query Aliased { human(id: "1000") { t: __typename name } }
                    query Abstract { hero { name } }
                    """)
        ])
        let responses = [
            "Selected": #"{"data":{"human":{"__typename":"","name":"x","id":"1000"}}}"#,
            "Aliased": #"{"data":{"human":{"t":"","name":"x","id":"1000"}}}"#,
            "Abstract": #"{"data":{"hero":{"__typename":"","name":"x","id":"1000"}}}"#,
        ]
        for (name, response) in responses {
            let store = try RecordStore(relayJSON: Array(Self.file.utf8))
            let plan = try NormalizationPlan(operation: docs.operations[name]!)
            XCTAssertThrowsError(try store.commit(response: Array(response.utf8), plan: plan), name) { error in
                XCTAssertEqual((error as? RelayArenaError)?.code, .missingTypename, "\(name): \(error)")
            }
            XCTAssertEqual(json(store), Self.file, "\(name): the store unchanged")
        }
    }
}
