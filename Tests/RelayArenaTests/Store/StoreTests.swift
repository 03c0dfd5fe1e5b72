// The store on its own: a new store, publishes and their updated IDs, a refetch writing only what
// differs, and readers running while a writer publishes (a reader sees a payload entirely or not at
// all).
import Foundation
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import RelayArenaWorkloads
import XCTest

final class StoreTests: XCTestCase {
    func testNewStoreHoldsOnlyTheRoot() {
        XCTAssertEqual(
            String(decoding: RecordStore().relayJSON(), as: UTF8.self),
            #"{"client:root":{"__id":"client:root","__typename":"__Root"}}"#)
    }

    /// A publish's updated IDs are handed over, not copied: they stay as they were through the
    /// store's later publishes, and each list is its own.
    func testUpdatedIDsOutliveLaterPublishes() throws {
        let plan = try TodoListSetup.plan(todos: 3)
        let workload = TodoListWorkload(todos: 3)
        let store = RecordStore()
        let first = try store.commit(response: workload.response(), plan: plan)
        let firstIDs = Array(first)
        XCTAssertEqual(firstIDs.count, store.recordCount)
        let changed = try store.commit(response: workload.response(changedPercent: 100), plan: plan)
        let none = try store.commit(response: workload.response(changedPercent: 100), plan: plan)
        XCTAssertEqual(Array(first), firstIDs)
        XCTAssertEqual(changed.count, 3)
        XCTAssertTrue(Set(changed).isSubset(of: Set(firstIDs)))
        XCTAssertEqual(Array(none), [])
    }

    /// A refetch writes exactly the fields whose values differ, on records of more than 64 fields
    /// too (publish remembers which of a record's first 64 differ and compares the rest again), and
    /// whether the payload lists the fields in the store's order or another: values read back as
    /// merged, the store grows by the changed values alone, and the same payload again changes
    /// nothing.
    func testARefetchWritesTheFieldsThatDifferAndNoOthers() throws {
        let compiler = try Compiler(
            schema: GraphQLSourceFile(
                name: "s.graphql",
                text: """
                    interface Node { id: ID! }
                    type Query { thing(id: ID!): Thing }
                    type Thing implements Node { id: ID! f(i: Int): String }
                    """))
        func plan(fields: Int) throws -> NormalizationPlan {
            let selections = (0..<fields).map { "f\($0): f(i: \($0))" }.joined(separator: " ")
            let docs = try compiler.compile([
                GraphQLSourceFile(name: "q.graphql", text: #"query Q { thing(id: "T") { id \#(selections) } }"#)
            ])
            return try NormalizationPlan(operation: docs.operations["Q"]!)
        }
        func payload(_ values: [String], reversed: Bool = false) -> [UInt8] {
            var fields = values.enumerated().map { #""f\#($0.offset)":"\#($0.element)""# }
            if reversed { fields.reverse() }
            return Array(#"{"data":{"thing":{"id":"T",\#(fields.joined(separator: ","))}}}"#.utf8)
        }
        func read(_ store: RecordStore, _ count: Int) -> [String?] {
            store.withSnapshot { s in
                guard case .record(let t) = s.record("T") else { return [] }
                return (0..<count).map { k in
                    if case .string(let v)? = s.field(t, "f(i:\(k))") { return v.string }
                    return nil
                }
            }
        }
        let seventy = try plan(fields: 70)
        var values = (0..<70).map { "value \($0)" }
        for reversed in [false, true] {
            let store = RecordStore()
            try store.commit(response: payload(values), plan: seventy)
            var changed = values
            changed[3] = "three"  // among the first 64
            changed[67] = "sixty-seven"  // past them
            let before = store.arenaBytes
            XCTAssertEqual(
                Array(try store.commit(response: payload(changed, reversed: reversed), plan: seventy)), ["T"])
            XCTAssertEqual(read(store, 70), changed, "reversed: \(reversed)")
            // A string under 255 bytes takes its length byte and its bytes on the heap.
            XCTAssertEqual(
                store.arenaBytes - before, 1 + "three".utf8.count + 1 + "sixty-seven".utf8.count,
                "only the two changed values were written (reversed: \(reversed))")
            XCTAssertEqual(Array(try store.commit(response: payload(changed, reversed: !reversed), plan: seventy)), [])
            XCTAssertEqual(read(store, 70), changed)
        }
        // New keys past the first 64 and a changed one before them: the record moves once, with
        // the new fields after the old.
        let store = RecordStore()
        try store.commit(response: payload(Array(values.prefix(60))), plan: try plan(fields: 60))
        values[5] = "five"
        XCTAssertEqual(Array(try store.commit(response: payload(values, reversed: true), plan: seventy)), ["T"])
        XCTAssertEqual(read(store, 70), values)
        XCTAssertEqual(Array(try store.commit(response: payload(values), plan: seventy)), [])
    }

    /// differ (that would be half a payload).
    func testReadersNeverSeeHalfAPayload() throws {
        let docs = try Fixtures.compile(
            #"query Q { a: node(id: "A") { id ... on Todo { text } } b: node(id: "B") { id ... on Todo { text } } }"#)
        let plan = try NormalizationPlan(operation: docs.operations["Q"]!)
        let store = RecordStore()
        @Sendable func payload(_ i: Int) -> [UInt8] {
            Array(
                #"{"data":{"a":{"__typename":"Todo","id":"A","text":"v\#(i)"},"b":{"__typename":"Todo","id":"B","text":"v\#(i)"}}}"#
                    .utf8)
        }
        try store.commit(response: payload(0), plan: plan)
        let writes = 300
        let torn = Counter()
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            if worker == 0 {
                for i in 1...writes { try! store.commit(response: payload(i), plan: plan) }
                return
            }
            for _ in 0..<2000 {
                store.withSnapshot { s in
                    guard case .record(let a) = s.record("A"), case .record(let b) = s.record("B"),
                        case .string(let ta)? = s.field(a, "text"), case .string(let tb)? = s.field(b, "text")
                    else {
                        torn.add()
                        return
                    }
                    if ta != tb { torn.add() }
                }
            }
        }
        XCTAssertEqual(torn.value, 0)
        store.withSnapshot { s in
            guard case .record(let a) = s.record("A"), case .string(let t)? = s.field(a, "text") else {
                return XCTFail()
            }
            XCTAssertEqual(t.string, "v\(writes)")
        }
    }
}
