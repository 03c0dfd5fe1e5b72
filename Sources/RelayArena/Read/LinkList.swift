// A plural link's data IDs, read from the arena on access (no array is built); like the rest of a
// snapshot's values, it traps when used after its snapshot ended.

/// The data IDs of a plural link, read from the arena on access.
public struct LinkList: RandomAccessCollection {
    let reader: SnapshotReader
    let value: UInt64
    public let count: Int
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The linked data ID, `nil` for a null entry.
    public subscript(i: Int) -> StoreSymbol? {
        precondition(i >= 0 && i < count, "LinkList index out of range")
        let s = reader.link(value, at: i)
        return s == 0 ? nil : StoreSymbol(raw: s)
    }
}
