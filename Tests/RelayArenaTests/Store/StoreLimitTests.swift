// The store's table limits: a record past the field limit, typenames past the table, a payload past
// the shape limit are limit errors that change nothing.
import Foundation
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import RelayArenaWorkloads
import XCTest

final class StoreLimitTests: XCTestCase {
    /// A record past 32,767 fields is refused as the arena's limit, in a store file and in a
    /// payload, not as a lack of memory.
    func testARecordPastTheFieldLimitIsALimitError() throws {
        let fields = (0..<32_768).map { #""f\#($0)":\#($0)"# }.joined(separator: ",")
        let file = #"{"R":{"__id":"R","__typename":"T",\#(fields)}}"#
        XCTAssertThrowsError(try RecordStore(relayJSON: Array(file.utf8))) { error in
            guard let e = error as? RelayArenaError else { return XCTFail("\(error)") }
            XCTAssertEqual(e.code, .limit, e.description)
            XCTAssertTrue(e.message.contains("32767 fields"), e.message)
        }
        let fine = (0..<32_767).map { #""f\#($0)":\#($0)"# }.joined(separator: ",")
        let store = try RecordStore(relayJSON: Array(#"{"R":{"__id":"R","__typename":"T",\#(fine)}}"#.utf8))
        XCTAssertEqual(store.unusedSlotBytes, 0)
    }

    /// A record keeps its typename as an index into its source's type table, of at most 32,767
    /// typenames: a payload or store file past that is refused as the arena's limit, and the
    /// store is unchanged. Up to it, every record reads back its own typename.
    func testTypenamesPastTheTableLimitAreALimitError() throws {
        let docs = try Fixtures.compile(#"query Q { nodes(ids: ["x"]) { id } }"#)
        let plan = try NormalizationPlan(operation: docs.operations["Q"]!)
        func payload(_ types: Int) -> [UInt8] {
            let nodes = (0..<types).map { #"{"__typename":"T\#($0)","id":"n\#($0)"}"# }.joined(separator: ",")
            return Array(#"{"data":{"nodes":[\#(nodes)]}}"#.utf8)
        }
        // The root's `__Root` is a typename too: 32,766 nodes fill the table.
        let store = RecordStore()
        try store.commit(response: payload(32_766), plan: plan)
        store.withSnapshot { s in
            for i in [0, 1, 16, 32_765] {
                guard case .record(let r) = s.record("n\(i)") else { return XCTFail("n\(i)") }
                XCTAssertEqual(s.typename(of: r).string, "T\(i)")
            }
        }
        let file = store.relayJSON()
        XCTAssertEqual(try RecordStore(relayJSON: file).relayJSON(), file)

        XCTAssertThrowsError(try RecordStore().commit(response: payload(32_767), plan: plan)) { error in
            XCTAssertEqual((error as? RelayArenaError)?.code, .limit, "\(error)")
            XCTAssertTrue("\(error)".contains("32767 typenames"), "\(error)")
        }
        // Into a store holding other typenames: the publish fails, and nothing changes.
        let other = Array(#"{"data":{"nodes":[{"__typename":"Other","id":"o"}]}}"#.utf8)
        let full = try RecordStore(relayJSON: file)
        XCTAssertThrowsError(try full.commit(response: other, plan: plan)) { error in
            XCTAssertEqual((error as? RelayArenaError)?.code, .limit, "\(error)")
        }
        XCTAssertEqual(full.relayJSON(), file)

        var text = String(decoding: file, as: UTF8.self)
        text.removeLast()
        text += #","o":{"__id":"o","__typename":"Other"}}"#
        XCTAssertThrowsError(try RecordStore(relayJSON: Array(text.utf8))) { error in
            XCTAssertEqual((error as? RelayArenaError)?.code, .limit, "\(error)")
            XCTAssertTrue("\(error)".contains("32767 typenames"), "\(error)")
        }
    }

    /// A publish that fails takes none of the typename table: the store, one entry short of full,
    /// refuses a payload with a new typename for another reason (a record past the field limit),
    /// then still takes a payload with another new typename.
    func testAFailedPublishTakesNoTypenameEntry() throws {
        let docs = try Fixtures.compile(#"query Q { nodes(ids: ["x"]) { id ... on Todo { text } } }"#)
        let plan = try NormalizationPlan(operation: docs.operations["Q"]!)
        func nodes(_ list: [String]) -> [UInt8] { Array(#"{"data":{"nodes":[\#(list.joined(separator: ","))]}}"#.utf8) }
        // `__Root`, T0…T32763 and `Todo`: 32,766 of the 32,767 typenames.
        let filled = RecordStore()
        try filled.commit(response: nodes((0..<32_764).map { #"{"__typename":"T\#($0)","id":"n\#($0)"}"# }), plan: plan)
        var text = String(decoding: filled.relayJSON(), as: UTF8.self)
        text.removeLast()
        let keys = (0..<32_767).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        text += #","big":{"__id":"big","__typename":"Todo","id":"big",\#(keys)}}"#
        let store = try RecordStore(relayJSON: Array(text.utf8))
        let file = store.relayJSON()

        // `big` would take a 32,768th field: refused, after `Fresh` was seen.
        let fresh = nodes([#"{"__typename":"Fresh","id":"f"}"#, #"{"__typename":"Todo","id":"big","text":"x"}"#])
        XCTAssertThrowsError(try store.commit(response: fresh, plan: plan)) { error in
            XCTAssertEqual((error as? RelayArenaError)?.code, .limit, "\(error)")
            XCTAssertTrue("\(error)".contains("32767 fields"), "\(error)")
        }
        XCTAssertEqual(store.relayJSON(), file)
        // Two new typenames where one entry is free: refused whole, neither added.
        let retyped = nodes([#"{"__typename":"Renamed","id":"n0"}"#, #"{"__typename":"Later","id":"l"}"#])
        XCTAssertThrowsError(try store.commit(response: retyped, plan: plan)) { error in
            XCTAssertTrue("\(error)".contains("32767 typenames"), "\(error)")
        }
        XCTAssertEqual(store.relayJSON(), file)
        // The last entry is still free.
        let updated = try store.commit(
            response: nodes([#"{"__typename":"Other","id":"o"}"#, #"{"__typename":"T5","id":"n5"}"#]), plan: plan)
        XCTAssertEqual(Set(updated), ["client:root", "o"])
        store.withSnapshot { s in
            guard case .record(let r) = s.record("o") else { return XCTFail("o") }
            XCTAssertEqual(s.typename(of: r).string, "Other")
        }
        XCTAssertThrowsError(try store.commit(response: nodes([#"{"__typename":"Last","id":"z"}"#]), plan: plan)) {
            error in
            XCTAssertTrue("\(error)".contains("32767 typenames"), "\(error)")
        }
    }

    /// A payload whose records take more than 65,535 shapes (the same fields in every order and
    /// with values of every kind: 720 orders of six fields, 96 mixes of kinds) is refused with
    /// the limit named, and the store keeps what it had.
    func testAPayloadPastTheShapeLimitIsALimitError() throws {
        let docs = try Fixtures.compile(
            """
            query Q { user(id: "me") { id todos(first: 70000) { edges { node {
                id complete text priority estimateHours notes tags } } } } }
            """)
        let plan = try NormalizationPlan(operation: docs.operations["Q"]!)
        func permutation(_ k: Int, _ items: [String]) -> [String] {
            var rest = items
            var k = k
            var out: [String] = []
            while !rest.isEmpty {
                let f = (1..<rest.count).reduce(1, *)
                out.append(rest.remove(at: k / f))
                k %= f
            }
            return out
        }
        func todos(_ count: Int) -> [UInt8] {
            let edges = (0..<count).map { i -> String in
                var m = i / 720  // which kinds: 2 × 2 × 2 × 3 × 2 × 2 = 96 mixes
                func pick(_ options: [String]) -> String {
                    defer { m /= options.count }
                    return options[m % options.count]
                }
                let values = [
                    #""complete":\#(pick(["true", "null"]))"#, #""text":\#(pick([#""t""#, "null"]))"#,
                    #""priority":\#(pick(["1", "null"]))"#, #""estimateHours":\#(pick(["2", "2.5", "null"]))"#,
                    #""notes":\#(pick([#""n""#, "null"]))"#, #""tags":\#(pick([#"["a"]"#, "null"]))"#,
                ]
                let members = [#""id":"t\#(i)""#] + permutation(i % 720, values)
                return #"{"node":{\#(members.joined(separator: ","))}}"#
            }
            return Array(#"{"data":{"user":{"id":"me","todos":{"edges":[\#(edges.joined(separator: ","))]}}}}"#.utf8)
        }
        let store = RecordStore()
        try store.commit(response: todos(100), plan: plan)
        let before = store.relayJSON()
        XCTAssertThrowsError(try store.commit(response: todos(66_000), plan: plan)) { error in
            XCTAssertEqual((error as? RelayArenaError)?.code, .limit, "\(error)")
            XCTAssertTrue("\(error)".contains("65535 record shapes"), "\(error)")
        }
        XCTAssertEqual(store.relayJSON(), before)
    }
}
