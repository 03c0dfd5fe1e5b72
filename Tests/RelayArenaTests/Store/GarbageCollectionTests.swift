// relay's garbage collection (RelayModernStore's retain / release buffer / _collect and
// RelayReferenceMarker) and compaction, over a real store: cases after relay's own
// RelayModernStore GC tests.
import RelayArena
import RelayArenaTestSupport
import RelayArenaWorkloads
import XCTest

final class GarbageCollectionTests: XCTestCase {
    static let docs = try! Fixtures.compile(
        """
        query Q1 { user(id: "4") { id name bestFriend { id } } }
        query Q2 { user(id: "4") { id } }
        query Cond($withTodos: Boolean!) {
          user(id: "4") { id todos(first: 1) @include(if: $withTodos) { edges { node { id text } } } }
        }
        query Abstract { node(id: "t1") { id ... on Todo { text } } }
        """)

    static func op(_ name: String) -> OperationArtifact { docs.operations[name]! }

    func commit(_ store: RecordStore, _ op: String, _ data: String, _ variables: Variables = [:]) throws {
        try store.commit(
            response: Array(#"{"data":\#(data)}"#.utf8),
            plan: NormalizationPlan(operation: Self.op(op), variables: variables))
    }

    func ids(_ store: RecordStore) throws -> [String] {
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(store.relayJSON())) as? [String: Any])
        return object.keys.sorted()
    }

    /// relay's worked example (release buffer of 1): Q1 and Q2 share "4", Q1 alone reaches "9".
    /// Releasing both drops Q1's root; the collection keeps what Q2 reaches and removes "9".
    func testReleaseBufferWorkedExample() throws {
        let store = RecordStore()
        let roots = OperationRoots(releaseBufferSize: 1)
        var dropped = 0
        roots.onRootDropped = { dropped += 1 }
        let q1 = roots.retain(Self.op("Q1"), variables: [:])
        let q2 = roots.retain(Self.op("Q2"), variables: [:])
        try commit(
            store, "Q1", #"{"user":{"id":"4","name":"Zuck","bestFriend":{"id":"9"}}}"#)
        q1.dispose()
        XCTAssertEqual(dropped, 0)  // fits in the buffer: no collection scheduled
        XCTAssertEqual(Array(try roots.collect(in: store)), [])  // both still roots: nothing goes
        q2.dispose()
        XCTAssertEqual(dropped, 1)
        XCTAssertEqual(Array(try roots.collect(in: store)), ["9"])
        XCTAssertEqual(try ids(store), ["4", "client:root"])
        // "9" is unknown now, not deleted: a read of it is missing data.
        XCTAssertEqual(store.check(operation: Self.op("Q1")), .missing)
        XCTAssertEqual(store.check(operation: Self.op("Q2")), .available)
    }

    /// A held store (an optimistic update applied) collects nothing, however it is asked; the
    /// collection after the last hold is disposed removes as before.
    func testHeldCollectionRemovesNothing() throws {
        let store = RecordStore()
        try commit(store, "Q1", #"{"user":{"id":"4","name":"Zuck","bestFriend":{"id":"9"}}}"#)
        let first = store.holdCollection()
        let second = store.holdCollection()
        XCTAssertEqual(Array(try store.collectGarbage(roots: [])), [])
        first.dispose()
        first.dispose()  // twice does nothing: the other hold still counts
        XCTAssertEqual(Array(try store.collectGarbage(roots: [])), [])
        XCTAssertEqual(try ids(store), ["4", "9", "client:root"])
        second.dispose()
        XCTAssertEqual(Array(try store.collectGarbage(roots: [])).sorted(), ["4", "9", "client:root"])
    }

    /// With no roots at all every record goes, the root record too (relay's rule).
    func testNoRootsRemovesEverything() throws {
        let store = RecordStore()
        try commit(store, "Q2", #"{"user":{"id":"4"}}"#)
        XCTAssertEqual(try store.collectGarbage(roots: []).sorted(), ["4", "client:root"])
        XCTAssertEqual(store.recordCount, 0)
        XCTAssertEqual(String(decoding: store.relayJSON(), as: UTF8.self), "{}")
        // The store goes on: a write after it holds the root again.
        try commit(store, "Q2", #"{"user":{"id":"4"}}"#)
        XCTAssertEqual(try ids(store), ["4", "client:root"])
    }

    /// Marking follows the normalization selections with the root's variables: a condition's
    /// passing branch only.
    func testConditionsFollowTheRootsVariables() throws {
        let store = RecordStore()
        try commit(
            store, "Cond",
            #"{"user":{"id":"4","todos":{"edges":[{"node":{"id":"t1","text":"a"}}]}}}"#, ["withTodos": .bool(true)])
        let kept = Array(try store.collectGarbage(roots: [(Self.op("Cond"), ["withTodos": .bool(false)])]))
        XCTAssertEqual(kept.count, 3)  // the connection, its edge and "t1"
        XCTAssertTrue(kept.contains("t1"))
        XCTAssertEqual(try ids(store), ["4", "client:root"])
    }

    /// An abstract selection keeps the type's record (`client:__type:Todo`) with the node.
    func testAbstractSelectionsKeepTheTypeRecord() throws {
        let store = RecordStore()
        try commit(store, "Abstract", #"{"node":{"__typename":"Todo","id":"t1","text":"a"}}"#)
        try commit(store, "Q2", #"{"user":{"id":"4"}}"#)
        let before = try ids(store)
        XCTAssertTrue(before.contains("client:__type:Todo") || !before.contains { $0.hasPrefix("client:__type") })
        XCTAssertEqual(Array(try store.collectGarbage(roots: [(Self.op("Abstract"), [:])])), ["4"])
        XCTAssertEqual(try ids(store), before.filter { $0 != "4" })
    }

    /// A write between marking and sweeping makes the sweep refuse (mark again): what the write
    /// added is never swept unmarked.
    func testAWriteBetweenMarkAndSweepRestarts() throws {
        let store = RecordStore()
        try commit(store, "Q2", #"{"user":{"id":"4"}}"#)
        let mark = store.mark(roots: [])
        try commit(store, "Q1", #"{"user":{"id":"4","name":"Zuck","bestFriend":{"id":"9"}}}"#)
        XCTAssertNil(try store.sweep(mark).map(Array.init))
        XCTAssertEqual(try ids(store), ["4", "9", "client:root"])
        XCTAssertEqual(try store.sweep(store.mark(roots: [(Self.op("Q2"), [:])])).map(Array.init), ["9"])
    }

    /// The same for a publish of another store (`relay-arena merge`): a collection that marked
    /// before it must not sweep the records it linked. (Before every write went through one
    /// primitive, this publish did not move the write counter on, and "9" was swept while Q1's
    /// user linked it.)
    func testAPublishOfAnotherStoreBetweenMarkAndSweepRestarts() throws {
        let store = RecordStore()
        try commit(store, "Q2", #"{"user":{"id":"4"}}"#)
        let mark = store.mark(roots: [(Self.op("Q1"), [:])])
        let other = RecordStore()
        try commit(other, "Q1", #"{"user":{"id":"4","name":"Zuck","bestFriend":{"id":"9"}}}"#)
        try store.publish(contentsOf: other)
        XCTAssertNil(try store.sweep(mark).map(Array.init))
        XCTAssertEqual(try ids(store), ["4", "9", "client:root"])
        XCTAssertEqual(Array(try store.collectGarbage(roots: [(Self.op("Q1"), [:])])), [])
        XCTAssertEqual(store.check(operation: Self.op("Q1")), .available)
    }

    /// Every other write moves the counter on too: an invalidation, and a sweep that removed
    /// something (a second sweep of the same mark is refused).
    func testInvalidationsAndSweepsCountAsWrites() throws {
        let store = RecordStore()
        try commit(store, "Q1", #"{"user":{"id":"4","name":"Zuck","bestFriend":{"id":"9"}}}"#)
        let beforeInvalidation = store.mark(roots: [(Self.op("Q1"), [:])])
        XCTAssertEqual(try store.invalidate(records: ["4"], epoch: 1), ["4"])
        XCTAssertNil(try store.sweep(beforeInvalidation))
        let mark = store.mark(roots: [(Self.op("Q2"), [:])])
        XCTAssertEqual(try store.sweep(mark).map(Array.init), ["9"])
        XCTAssertNil(try store.sweep(mark))
        // A sweep that removes nothing writes nothing: the same mark sweeps again.
        let clean = store.mark(roots: [(Self.op("Q2"), [:])])
        XCTAssertEqual(try store.sweep(clean).map(Array.init), [])
        XCTAssertEqual(try store.sweep(clean).map(Array.init), [])
    }

    /// A store opened from a snapshot (its arrays read in place) is collected and compacted as
    /// any: the first such write copies the arrays out.
    func testASnapshotOpenedStoreIsCollectedAndCompacted() throws {
        let store = RecordStore()
        try commit(store, "Q1", #"{"user":{"id":"4","name":"Zuck","bestFriend":{"id":"9"}}}"#)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gc-\(UUID().uuidString).snapshot")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try store.writeSnapshot(to: path)
        let opened = try RecordStore(snapshotAt: path)
        opened.compactionThreshold = nil
        XCTAssertEqual(Array(try opened.collectGarbage(roots: [(Self.op("Q2"), [:])])), ["9"])
        try opened.compact()
        XCTAssertEqual(opened.garbageBytes, 0)
        XCTAssertEqual(try ids(opened), ["4", "client:root"])
        let reopened = try RecordStore(snapshotAt: path)  // the file is untouched
        XCTAssertEqual(try ids(reopened), ["4", "9", "client:root"])
    }

    /// Records kept by data ID (a live subscription's) stay though no root reaches them.
    func testKeptDataIDsStay() throws {
        let store = RecordStore()
        try commit(store, "Q1", #"{"user":{"id":"4","name":"Zuck","bestFriend":{"id":"9"}}}"#)
        XCTAssertEqual(try store.collectGarbage(roots: [], keeping: ["9", "nowhere"]).sorted(), ["4", "client:root"])
        XCTAssertEqual(try ids(store), ["9"])
    }

    /// Compaction gives back what refetches overwrote and what collection removed: the arena
    /// comes within 1.05× of a fresh ingest of the same records; reads and toJSON do not change.
    func testCompactionGivesBackGarbageAndChangesNoRead() throws {
        let todos = 2_000
        let workload = TodoListWorkload(todos: todos)
        let plan = try TodoListSetup.plan(todos: todos)
        let store = RecordStore()
        store.compactionThreshold = nil
        try store.commit(response: workload.response(), plan: plan)
        for percent in [10, 50, 100] {
            try store.commit(response: workload.response(changedPercent: percent), plan: plan)
        }
        let fresh = RecordStore()
        try fresh.commit(response: workload.response(changedPercent: 100), plan: plan)
        XCTAssertEqual(store.relayJSON(), fresh.relayJSON())
        XCTAssertGreaterThan(store.garbageBytes, 0)
        XCTAssertGreaterThan(store.arenaBytes, fresh.arenaBytes + store.garbageBytes / 2)
        let json = store.relayJSON()
        let given = try store.compact()
        XCTAssertGreaterThan(given, 0)
        XCTAssertEqual(store.garbageBytes, 0)
        XCTAssertEqual(store.relayJSON(), json)
        XCTAssertLessThanOrEqual(Double(store.arenaBytes), 1.05 * Double(fresh.arenaBytes))
        XCTAssertEqual(
            TodoListReads.textAndComplete(store, first: todos), TodoListReads.textAndComplete(fresh, first: todos))
        // A publish into the compacted store works as into any.
        try store.commit(response: workload.response(changedPercent: 10), plan: plan)
        try fresh.commit(response: workload.response(changedPercent: 10), plan: plan)
        XCTAssertEqual(store.relayJSON(), fresh.relayJSON())
    }

    /// Past the threshold a write compacts by itself: refetch after refetch, the arena stays near
    /// what its records hold.
    func testAutomaticCompactionKeepsUp() throws {
        let todos = 2_000
        let workload = TodoListWorkload(todos: todos)
        let plan = try TodoListSetup.plan(todos: todos)
        let store = RecordStore()
        XCTAssertEqual(store.compactionThreshold, 0.125)
        try store.commit(response: workload.response(), plan: plan)
        let versions = [workload.response(changedPercent: 10), workload.response()]
        for round in 0..<30 {
            try store.commit(response: versions[round % 2], plan: plan)
            XCTAssertLessThanOrEqual(Double(store.garbageBytes), 0.125 * Double(store.arenaBytes) + 1, "\(round)")
        }
        let fresh = try RecordStore(relayJSON: store.relayJSON())
        XCTAssertLessThanOrEqual(Double(store.arenaBytes), 1.2 * Double(fresh.arenaBytes))
    }
}
