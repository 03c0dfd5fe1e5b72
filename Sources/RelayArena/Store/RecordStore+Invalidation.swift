// relay's record invalidation: `invalidateRecord()` writes `__invalidated_at = <epoch>` into the
// record, a field like any other (relay's toJSON shows it), read back by `check`.

extension RecordStore {
    /// The field an invalidated record carries: the write epoch of its invalidation.
    static let invalidatedAtKey = "__invalidated_at"

    /// Writes `__invalidated_at = epoch` into each of `dataIDs` the store holds as a record (an
    /// unknown or deleted one is left alone, as relay leaves it). Returns the data IDs written.
    /// Nothing a reader selects changes, so no subscription needs re-reading: the caller
    /// notifies with no updated records (relay adds these to its invalidated IDs, not its updated
    /// ones).
    @discardableResult
    package func invalidate(records dataIDs: [String], epoch: Int) throws -> [String] {
        var written: [String] = []
        var text = RelayJSONWriter()
        withSnapshot { s in
            for dataID in dataIDs {
                guard let symbol = s.symbol(dataID), case .record(let record) = s.record(symbol),
                    !written.contains(dataID)
                else { continue }
                text.record(
                    dataID, typename: s.typename(of: record).string,
                    fields: [(Self.invalidatedAtKey, .value(.int(Int64(epoch))))])
                written.append(dataID)
            }
        }
        guard !written.isEmpty else { return [] }
        _ = try publish(text.payload())
        return written
    }
}
