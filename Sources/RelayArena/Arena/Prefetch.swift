// A cache-line prefetch hint for Swift code outside the arena (the notification's re-reads ask
// for the memory of subscriptions a window ahead). A hint only: an address never dereferenced.
internal import CRelayArena

/// Asks the processor to bring the cache line at `address` in; `nil` does nothing.
@inline(__always)
func prefetchCacheLine(_ address: UnsafeRawPointer?) { ra_prefetch(address) }
