// The symbols a publish updated, in the array the store handed over (ra_source_take_updated),
// freed with the last `UpdatedRecordIDs` that holds them.
internal import CRelayArena

/// Never written after it is made, hence Sendable.
final class UpdatedSymbols: @unchecked Sendable {
    private let base: UnsafeMutablePointer<UInt32>?
    /// Symbols gathered in Swift (a rollback's, a union of writes), when there is no C array.
    private let gathered: [UInt32]
    let count: Int

    init(base: UnsafeMutablePointer<UInt32>?, count: Int) {
        self.base = base
        self.count = count
        gathered = []
    }

    init(_ symbols: [UInt32]) {
        base = nil
        gathered = symbols
        count = symbols.count
    }

    subscript(i: Int) -> UInt32 {
        precondition(i >= 0 && i < count, "index out of range")
        return base?[i] ?? gathered[i]
    }

    deinit { ra_free(base) }
}
