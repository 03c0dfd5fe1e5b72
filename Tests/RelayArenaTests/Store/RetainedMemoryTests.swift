// Freed arena blocks are kept and handed to the next store (ra_alloc.c). Reused pages hold the
// previous arena's bytes, so a store built in them must come out exactly as one built in fresh,
// zeroed pages; the knobs must do what they say.
import CRelayArena
import RelayArena
import RelayArenaWorkloads
import XCTest

final class RetainedMemoryTests: XCTestCase {
    override func tearDown() {
        RecordStore.setRetainedMemoryLimit(256 << 20)
        super.tearDown()
    }

    func testAStoreBuiltInReusedMemoryEqualsOneBuiltInFreshMemory() throws {
        // 100k todos: every array of the arena, the symbol index included (zeroed memory), is past
        // the 256 KiB at which blocks are mapped.
        let plan = try TodoListSetup.plan(todos: 100_000)
        let workload = TodoListWorkload(todos: 100_000)
        let response = workload.response()
        let other = workload.response(changedPercent: 100)

        RecordStore.setRetainedMemoryLimit(0)
        XCTAssertEqual(RecordStore.retainedMemoryBytes, 0)
        let fresh = RecordStore()
        try fresh.commit(response: response, plan: plan)
        let expected = fresh.relayJSON()

        RecordStore.setRetainedMemoryLimit(256 << 20)
        do {
            let dirty = RecordStore()
            try dirty.commit(response: other, plan: plan)
            XCTAssertNotEqual(dirty.relayJSON(), expected)
        }
        let kept = RecordStore.retainedMemoryBytes
        XCTAssertGreaterThan(kept, 1 << 20, "the dropped store's blocks are kept")

        let reused = RecordStore()
        try reused.commit(response: response, plan: plan)
        XCTAssertLessThan(RecordStore.retainedMemoryBytes, kept, "the new store took kept blocks")
        XCTAssertEqual(reused.relayJSON(), expected)
        // And it merges like any store: a refetch with changes updates the same records.
        XCTAssertEqual(
            Array(try reused.commit(response: other, plan: plan)), Array(try fresh.commit(response: other, plan: plan)))
        XCTAssertEqual(reused.relayJSON(), fresh.relayJSON())
    }

    func testTheLimitCountsWrittenBytesNotReservedAddressSpace() throws {
        // A payload's arrays are reserved from a guess at its size, generously; the unwritten rest
        // must not count against the budget, or a 1M-todo refetch's delta (about 240 MB written,
        // over 350 MB reserved) could never be kept for the next one.
        let plan = try TodoListSetup.plan(todos: 100_000)
        let response = TodoListWorkload(todos: 100_000).response()
        RecordStore.setRetainedMemoryLimit(1 << 30)
        RecordStore.releaseRetainedMemory()
        var store: RecordStore? = RecordStore()
        try store!.commit(response: response, plan: plan)
        // The arena, and the list of the data IDs the publish updated (one per record).
        let arena = store!.arenaBytes + 4 * store!.recordCount
        let before = RecordStore.retainedMemoryBytes  // the normalizer's staging, freed already
        store = nil
        let kept = RecordStore.retainedMemoryBytes - before
        // Each of the eight arrays rounds up to whole pages, its block header included.
        XCTAssertGreaterThan(kept, arena / 2, "the store's blocks are kept")
        XCTAssertLessThanOrEqual(kept, arena + 8 * 8192, "kept \(kept) bytes for an arena of \(arena)")
    }

    /// Past the limit, kept blocks give back pages, not mappings: the next payload asks for blocks
    /// of the same sizes, and a block unmapped whole would leave it none of the size it needs. A
    /// store built in such blocks (some pages kept, some given back) is still the same store.
    func testPastTheLimitKeptBlocksGiveBackPagesNotTheirMappings() throws {
        let plan = try TodoListSetup.plan(todos: 100_000)
        let response = TodoListWorkload(todos: 100_000).response()
        RecordStore.setRetainedMemoryLimit(0)
        XCTAssertEqual(ra_retained_memory_blocks(), 0)
        let fresh = RecordStore()
        try fresh.commit(response: response, plan: plan)
        let expected = fresh.relayJSON()

        RecordStore.setRetainedMemoryLimit(3 << 20)  // less than any one of the arena's arrays holds
        do {
            let dropped = RecordStore()
            try dropped.commit(response: response, plan: plan)
        }
        XCTAssertLessThanOrEqual(RecordStore.retainedMemoryBytes, 3 << 20)
        XCTAssertGreaterThan(RecordStore.retainedMemoryBytes, 0)
        // Symbol bytes, symbols, index, records, slots, heap, the updated list, and the
        // normalizer's staging: each stays mapped.
        XCTAssertGreaterThanOrEqual(ra_retained_memory_blocks(), 7)

        let reused = RecordStore()
        try reused.commit(response: response, plan: plan)
        XCTAssertEqual(reused.relayJSON(), expected)
        RecordStore.releaseRetainedMemory()
        XCTAssertEqual(ra_retained_memory_blocks(), 0, "release unmaps blocks that hold no pages too")
    }

    func testReleaseAndLimit() throws {
        let plan = try TodoListSetup.plan(todos: 20_000)
        let response = TodoListWorkload(todos: 20_000).response()
        RecordStore.setRetainedMemoryLimit(256 << 20)
        do {
            let store = RecordStore()
            try store.commit(response: response, plan: plan)
        }
        XCTAssertGreaterThan(RecordStore.retainedMemoryBytes, 0)
        RecordStore.releaseRetainedMemory()
        XCTAssertEqual(RecordStore.retainedMemoryBytes, 0)

        do {
            let store = RecordStore()
            try store.commit(response: response, plan: plan)
        }
        let kept = RecordStore.retainedMemoryBytes
        XCTAssertGreaterThan(kept, 2 << 20)
        RecordStore.setRetainedMemoryLimit(kept / 2)
        XCTAssertLessThanOrEqual(RecordStore.retainedMemoryBytes, kept / 2)
        XCTAssertGreaterThan(RecordStore.retainedMemoryBytes, 0, "only what is past the limit goes")
        RecordStore.setRetainedMemoryLimit(0)
        XCTAssertEqual(RecordStore.retainedMemoryBytes, 0)
    }
}
