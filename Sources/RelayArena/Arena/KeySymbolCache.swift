// A read's cache from storage-key slot to store symbol: a plain buffer, since views hit it on every
// field read. Bounds are asserted in debug builds; generated code only asks for its own slots.

/// Owned by one `ReadScope`, which calls `deallocate()` in its deinit.
struct KeySymbolCache {
    private let base: UnsafeMutablePointer<UInt32>
    let count: Int

    /// `count` slots, all 0 (not looked up yet).
    init(count: Int) {
        self.count = count
        base = .allocate(capacity: max(count, 1))
        base.initialize(repeating: 0, count: max(count, 1))
    }

    func deallocate() { base.deallocate() }

    subscript(slot: Int) -> UInt32 {
        @inline(__always) get {
            assert(slot >= 0 && slot < count, "storage key slot out of range: regenerate the views")
            return base[slot]
        }
        @inline(__always) nonmutating set {
            assert(slot >= 0 && slot < count, "storage key slot out of range: regenerate the views")
            base[slot] = newValue
        }
    }
}
