// Test hook: the C core's live allocation count (see ra_alloc.c).
internal import CRelayArena

package enum _CAllocations {
    /// Blocks the C core and yajl hold right now.
    package static var live: Int64 { ra_live_allocations() }
}
