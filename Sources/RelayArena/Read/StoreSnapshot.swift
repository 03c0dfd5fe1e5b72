// Zero-copy access to records under the store's read lock: one lookup primitive (a record's
// field by storage key) and values that borrow the arena's bytes.

/// Read access to a store while its read lock is held (see `RecordStore.withSnapshot`). Using it,
/// or a value borrowed from it, after that closure returned traps.
public struct StoreSnapshot {
    let reader: SnapshotReader

    public func symbol(_ text: String) -> StoreSymbol? {
        let s = reader.findSymbol(text)
        return s == 0 ? nil : StoreSymbol(raw: s)
    }

    public func text(_ symbol: StoreSymbol) -> BorrowedUTF8 { reader.symbolText(symbol.raw) }

    public func record(_ id: StoreSymbol) -> RecordState {
        guard let r = reader.record(for: id.raw) else { return .unknown }
        return r.type == 0 ? .deleted : .record(RecordRef(index: r.index))
    }

    public func record(_ id: String) -> RecordState {
        guard let s = symbol(id) else { return .unknown }
        return record(s)
    }

    public func id(of record: RecordRef) -> StoreSymbol {
        StoreSymbol(raw: reader.record(at: record.index)?.id ?? 0)
    }

    /// The record's `__typename`; empty for a record that has none (relay allows one: an
    /// updater's, an older store file's), since no GraphQL type name is empty.
    public func typename(of record: RecordRef) -> BorrowedUTF8 {
        text(StoreSymbol(raw: reader.record(at: record.index)?.type ?? 0))
    }

    /// The symbol of the record's `__typename`.
    func typeSymbol(of record: RecordRef) -> StoreSymbol {
        StoreSymbol(raw: reader.record(at: record.index)?.type ?? 0)
    }

    /// The value stored under `key`, `nil` when the field is absent (never fetched).
    @inline(__always)
    public func field(_ record: RecordRef, _ key: StoreSymbol) -> FieldValue? {
        reader.field(record.index, key.raw)
    }

    /// The storage keys of a record's fields, in its order.
    func fieldKeys(_ record: RecordRef) -> [String] {
        reader.fieldKeys(record.index).map { text(StoreSymbol(raw: $0)).string }
    }

    public func field(_ record: RecordRef, _ key: String) -> FieldValue? {
        guard let k = symbol(key) else { return nil }
        return field(record, k)
    }
}

extension RecordStore {
    /// Runs `body` with read access; values borrowed from the snapshot must not escape it (they
    /// trap if used after it returned).
    public func withSnapshot<R>(_ body: (StoreSnapshot) throws -> R) rethrows -> R {
        try source.withSnapshotReader { try body(StoreSnapshot(reader: $0)) }
    }
}
