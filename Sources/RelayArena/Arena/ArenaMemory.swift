// Process-wide figures and knobs of the C core's allocator: freed arena blocks kept for reuse,
// and the count of live blocks the leak tests compare.
internal import CRelayArena

enum ArenaMemory {
    static var retainedBytes: Int { Int(ra_retained_memory_bytes()) }
    static func releaseRetained() { ra_release_retained_memory() }
    static func setRetainedLimit(_ bytes: Int) { ra_set_retained_memory_limit(UInt64(max(0, bytes))) }
}

/// Test hook: blocks the C core and yajl hold right now (see ra_alloc.c).
package enum _CAllocations {
    package static var live: Int64 { ra_live_allocations() }
}
