// relay's roots, release buffer, write epochs, invalidation and query-cache expiry
// (RelayModernStore: retain, _recordSourceOperation, check), over a real store.
import RelayArena
import RelayArenaTestSupport
import XCTest

final class OperationRootsTests: XCTestCase {
    static let docs = try! Fixtures.compile(
        """
        query Q1 { user(id: "4") { id name } }
        query Q2 { user(id: "4") { id } }
        query Q9 { user(id: "9") { id name } }
        query TodoQuery($id: ID!) { node(id: $id) { ... on Todo { id text complete } } }
        mutation M($input: ChangeTodoStatusInput!) { changeTodoStatus(input: $input) { todo { id complete } } }
        fragment Name_user on User { name }
        """)

    static func op(_ name: String) -> OperationArtifact { docs.operations[name]! }

    final class Clock { var now: Milliseconds = 0 }

    /// Commits `data` for `op` and does what notify does after it: the epoch moves on, the
    /// operation's root is stamped (or a query parked).
    func write(
        _ store: RecordStore, _ roots: OperationRoots, _ op: String, _ data: String, variables: Variables = [:]
    ) throws {
        try store.commit(
            response: Array(#"{"data":\#(data)}"#.utf8),
            plan: NormalizationPlan(operation: Self.op(op), variables: variables))
        roots.didNotify(source: (Self.op(op), variables))
    }

    func names(_ roots: OperationRoots) -> [String] { roots.all.map(\.operation.name) }

    /// relay's worked example with a buffer of 1: released roots stay until the buffer overflows,
    /// then the oldest goes; retaining a buffered root takes it out of the buffer.
    func testReleaseBufferKeepsTheNewestReleased() {
        let roots = OperationRoots(releaseBufferSize: 1)
        let q1 = roots.retain(Self.op("Q1"), variables: [:])
        let q2 = roots.retain(Self.op("Q2"), variables: [:])
        q1.dispose()
        XCTAssertEqual(names(roots), ["Q1", "Q2"])
        XCTAssertEqual(roots.releaseBuffer.count, 1)
        q2.dispose()
        XCTAssertEqual(names(roots), ["Q2"])  // Q1, the oldest released, is no root now
        q2.dispose()  // twice: nothing
        XCTAssertEqual(names(roots), ["Q2"])
        let again = roots.retain(Self.op("Q2"), variables: [:])
        XCTAssertEqual(roots.releaseBuffer, [])
        XCTAssertEqual(roots.root(Self.op("Q2"), variables: [:])?.refCount, 1)
        again.dispose()
        XCTAssertEqual(roots.releaseBuffer.count, 1)
    }

    /// A query written with no retain is parked in a free slot of the buffer, with its epoch and
    /// time; a mutation never is, nor anything when the buffer is full or of size 0.
    func testUnretainedQueryWritesAreParked() throws {
        let store = RecordStore()
        let roots = OperationRoots(releaseBufferSize: 1)
        try write(store, roots, "Q1", #"{"user":{"id":"4","name":"Zuck"}}"#)
        XCTAssertEqual(names(roots), ["Q1"])
        XCTAssertEqual(roots.root(Self.op("Q1"), variables: [:])?.epoch, 1)
        try write(store, roots, "Q2", #"{"user":{"id":"4"}}"#)  // the buffer is full
        XCTAssertEqual(names(roots), ["Q1"])
        roots.didNotify(source: (Self.op("M"), ["input": .object([])]))
        XCTAssertEqual(names(roots), ["Q1"])
        let none = OperationRoots(releaseBufferSize: 0)
        none.didNotify(source: (Self.op("Q1"), [:]))
        XCTAssertEqual(names(none), [])
        XCTAssertEqual(none.currentWriteEpoch, 1)
    }

    /// `invalidate` writes the coming epoch into the records it finds (relay's toJSON shows it),
    /// leaves unknown and deleted ones alone, and changes nothing a reader sees.
    func testInvalidateWritesTheEpochAndChangesNoRead() throws {
        let store = RecordStore()
        let roots = OperationRoots()
        try write(store, roots, "Q1", #"{"user":{"id":"4","name":"Zuck"}}"#)
        try write(store, roots, "Q9", #"{"user":null}"#)
        let subscriptions = StoreSubscriptions(store: store)
        var calls = 0
        let selector = ReadSelector(
            node: .fragment(Self.docs.fragments["Name_user"]!), dataID: "4", variables: [:], owner: nil)
        let (before, _) = subscriptions.subscribe(selector) { _ in calls += 1 }
        XCTAssertEqual(roots.nextWriteEpoch, 3)
        let written = try store.invalidate(records: ["4", "nowhere", "4"], epoch: roots.nextWriteEpoch)
        XCTAssertEqual(written, ["4"])
        subscriptions.notify(.none(in: store))
        roots.didNotify()
        XCTAssertEqual(calls, 0)
        XCTAssertEqual(selector.read(store).data, before.data)
        let json = String(decoding: store.relayJSON(), as: UTF8.self)
        XCTAssertTrue(
            json.contains(#""4":{"__id":"4","__typename":"User","id":"4","name":"Zuck","__invalidated_at":3}"#), json)
        XCTAssertEqual(try store.invalidate(records: [], epoch: 9), [])
    }

    /// relay's order: a store invalidated since the operation's last write is stale (so is one
    /// never written); then a record reached that was invalidated after that write, even when
    /// something is missing; then missing; then expiry; else available.
    func testCheckOrder() throws {
        let store = RecordStore()
        let clock = Clock()
        let roots = OperationRoots(queryCacheExpiration: 1_000, now: { clock.now })
        let q1 = Self.op("Q1")
        let q2 = Self.op("Q2")
        XCTAssertEqual(roots.check(q1, in: store), .missing)
        try write(store, roots, "Q2", #"{"user":{"id":"4"}}"#)
        XCTAssertEqual(roots.check(q2, in: store), .available)
        XCTAssertEqual(roots.check(q1, in: store), .missing)  // no name yet

        // A record Q1 reaches is invalidated: stale though Q1 misses `name` (invalidation first).
        try store.invalidate(records: ["4"], epoch: roots.nextWriteEpoch)
        roots.didNotify()
        XCTAssertEqual(roots.check(q1, in: store), .stale)
        XCTAssertEqual(roots.check(q2, in: store), .stale)  // written before the invalidation
        try write(store, roots, "Q2", #"{"user":{"id":"4"}}"#)
        XCTAssertEqual(roots.check(q2, in: store), .available)  // written after it
        XCTAssertEqual(roots.check(q1, in: store), .stale)  // never written: stale

        // Missing beats expiry: Q9 reaches nothing, however old.
        clock.now = 5_000
        XCTAssertEqual(roots.check(Self.op("Q9"), in: store), .missing)
        XCTAssertEqual(roots.check(q2, in: store), .stale)  // written at 0, expired at 1000
        try write(store, roots, "Q2", #"{"user":{"id":"4"}}"#)
        clock.now = 5_999
        XCTAssertEqual(roots.check(q2, in: store), .available)

        // The whole store invalidated: stale until written again.
        roots.didNotify(invalidateStore: true)
        XCTAssertEqual(roots.globalInvalidationEpoch, roots.currentWriteEpoch)
        XCTAssertEqual(roots.check(q2, in: store), .stale)
        try write(store, roots, "Q2", #"{"user":{"id":"4"}}"#)
        XCTAssertEqual(roots.check(q2, in: store), .available)
    }

    /// Releasing the last retain of a root the clock says expired drops it at once (it does not
    /// wait in the buffer).
    func testReleasingAnExpiredRootDropsIt() throws {
        let store = RecordStore()
        let clock = Clock()
        let roots = OperationRoots(releaseBufferSize: 5, queryCacheExpiration: 100, now: { clock.now })
        let retain = roots.retain(Self.op("Q1"), variables: [:])
        try write(store, roots, "Q1", #"{"user":{"id":"4","name":"Zuck"}}"#)
        let fresh = roots.retain(Self.op("Q2"), variables: [:])
        try write(store, roots, "Q2", #"{"user":{"id":"4"}}"#)
        clock.now = 100
        retain.dispose()
        XCTAssertEqual(names(roots), ["Q2"])
        XCTAssertEqual(roots.releaseBuffer, [])
        clock.now = 50  // (a clock may be set back in tests) not expired: buffered
        fresh.dispose()
        XCTAssertEqual(names(roots), ["Q2"])
        XCTAssertEqual(roots.releaseBuffer.count, 1)
    }
}
