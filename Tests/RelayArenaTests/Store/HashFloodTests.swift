// Hash flooding: data IDs and unselected keys chosen so that their hashes collide. The interning
// hash used to be fixed and invertible (200k such IDs were found in seconds, and each lookup then
// walked past all the earlier ones); it is keyed now, by a random key no input can learn
// (ra_hash.h), and a source whose inserts probe further than any random key makes is rekeyed
// (ra_symbols.c). The generators (HashFloodWorkload) make IDs that collide under the old fixed
// hash, and under the keyed hash when its key is known (setHashKey plays the attacker who learned it).
import Foundation
import RelayArenaCompiler
import RelayArenaTestSupport
import RelayArenaWorkloads
import XCTest

@testable import RelayArena

final class HashFloodTests: XCTestCase {
    static let todo = try! Compiler(
        schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql")))
    static let plan: NormalizationPlan = {
        let doc = #"query Q { nodes(ids: ["x"]) { __typename id ... on Todo { text } } }"#
        let docs = try! todo.compile([GraphQLSourceFile(name: "flood.graphql", text: doc)])
        return try! NormalizationPlan(operation: docs.operations.values.first!, variables: [:])
    }()

    /// The key the attacker learned (HashFloodWorkload's), and the count of IDs of each flood.
    static let leakedKey = HashFloodWorkload.leakedKey
    static let leaked = HashFloodKind.knownKey(leakedKey.0, leakedKey.1)
    static let count = 5000

    override func tearDown() {
        // Sources made from now on take a random key again (no test knows it).
        SourceHandle.setHashKey(UInt64.random(in: .min ... .max), UInt64.random(in: .min ... .max))
    }

    static func json(_ text: [UInt8]) -> String { HashFloodWorkload.json(text) }

    static func response(_ ids: [[UInt8]]) -> [UInt8] {
        let items = ids.enumerated().map { #"{"__typename":"Todo","id":\#(json($1)),"text":"t\#($0)"}"# }
        return Array(#"{"data":{"nodes":[\#(items.joined(separator: ","))]}}"#.utf8)
    }

    /// Every ID has its own record, with its own text.
    func assertAllFound(_ store: RecordStore, _ ids: [[UInt8]], file: StaticString = #filePath, line: UInt = #line) {
        store.withSnapshot { s in
            for (i, id) in ids.enumerated() {
                guard case .record(let r) = s.record(String(decoding: id, as: UTF8.self)),
                    case .string(let t)? = s.field(r, "text"), t == "t\(i)"
                else { return XCTFail("ID \(i) is not found with its text", file: file, line: line) }
            }
        }
    }

    // MARK: Data IDs

    /// IDs that all collide under the old fixed hash are just IDs under a random key: their
    /// inserts pass a few slots each, not all the earlier IDs' (N²/2, 12.5 million here).
    func testIDsCraftedForTheOldHashProbeAsRandomOnesDo() throws {
        let ids = HashFloodWorkload.texts(Self.count, .oldFixedHash)
        let store = RecordStore()
        try store.commit(response: Self.response(ids), plan: Self.plan)
        XCTAssertEqual(store.recordCount, ids.count + 1)
        let stats = store.source.hashStats
        XCTAssertLessThan(stats.probes, UInt64(8 * ids.count), "slots passed by \(ids.count) inserts")
        XCTAssertEqual(stats.rekeys, 0, "a random key needs no rekey")
        assertAllFound(store, ids)
    }

    /// With the key known, IDs that collide under it are flooding: the probe bound rekeys the
    /// payload's delta after about a thousand of them, and the rest are inserted as random IDs.
    /// Published into a store that has the leaked key still (the delta's key differs now), the
    /// store's own inserts trip its bound too; every ID is found in both.
    func testALeakedKeyIsRekeyedAwayByTheProbeBound() throws {
        SourceHandle.setHashKey(Self.leakedKey.0, Self.leakedKey.1)
        let ids = HashFloodWorkload.texts(Self.count, Self.leaked)
        let fresh = RecordStore()
        try fresh.commit(response: Self.response(ids), plan: Self.plan)
        XCTAssertEqual(fresh.recordCount, ids.count + 1)
        XCTAssertGreaterThanOrEqual(fresh.source.hashStats.rekeys, 1)
        XCTAssertLessThan(fresh.source.hashStats.probes, 1_000_000, "not N²/2 = 12.5 million")
        assertAllFound(fresh, ids)

        let used = RecordStore()
        try used.commit(response: Self.response([Array("first".utf8)]), plan: Self.plan)
        try used.commit(response: Self.response(ids), plan: Self.plan)
        XCTAssertEqual(used.recordCount, ids.count + 2)
        XCTAssertGreaterThanOrEqual(used.source.hashStats.rekeys, 1)
        XCTAssertLessThan(used.source.hashStats.probes, 1_000_000)
        assertAllFound(used, ids)
        // Later payloads (the process's key, not the store's) still merge into the same records.
        try used.commit(response: Self.response(Array(ids.prefix(100))), plan: Self.plan)
        XCTAssertEqual(used.recordCount, ids.count + 2)
        assertAllFound(used, Array(ids.prefix(100)))
    }

    // MARK: Unselected keys

    /// One object with 5,000 unselected keys that collide under the leaked key: the duplicate check's
    /// table is hashed anew under a fresh key once a probe runs long, and still finds the one
    /// duplicate at the end.
    func testUnselectedKeysThatCollideUnderALeakedKeyStillFindTheirDuplicate() throws {
        SourceHandle.setHashKey(Self.leakedKey.0, Self.leakedKey.1)
        let keys = HashFloodWorkload.texts(Self.count, Self.leaked)
        let members = keys.map { "\(Self.json($0)):1" }.joined(separator: ",")
        let clean = #"{"data":{"nodes":[{"__typename":"Todo","id":"a","text":"t",\#(members)}]}}"#
        let store = RecordStore()
        try store.commit(response: Array(clean.utf8), plan: Self.plan)
        XCTAssertEqual(store.recordCount, 2)
        let duplicated = #"{"data":{"nodes":[{"__typename":"Todo","id":"a",\#(members),\#(Self.json(keys[7])):2}]}}"#
        XCTAssertThrowsError(try RecordStore().commit(response: Array(duplicated.utf8), plan: Self.plan)) { error in
            XCTAssertTrue("\(error)".contains("duplicate key"), "\(error)")
        }
    }
}
