// What optimistic updates are written over: the records as they were before the first optimistic
// write touched them, kept as relay toJSON text of those records alone, and rolled back by
// removing what the layers left and publishing the text again. A layer is written into the store
// itself (readers need no overlay), so applying and rolling it back cost what it touches, not
// the store's size.

/// The records optimistic writes changed, as they were before the first of them (relay's store
/// snapshot, kept record by record).
struct RecordBackup {
    /// Every data ID kept, in the order first touched.
    private(set) var dataIDs: [String] = []
    private var kept: Set<String> = []
    /// toJSON text of the kept IDs that were records (or deleted) then; the others were unknown.
    private var texts: [[UInt8]] = []

    var isEmpty: Bool { dataIDs.isEmpty }

    /// Keeps the records of `ids` not kept yet, as `store` holds them now.
    mutating func keep(_ ids: some Sequence<String>, of store: RecordStore) throws {
        let fresh = ids.filter { kept.insert($0).inserted }
        guard !fresh.isEmpty else { return }
        dataIDs += fresh
        let text = try store.source.withReadLock {
            let symbols = fresh.map { store.source.findSymbol($0) }.filter { $0 != 0 }
            return symbols.isEmpty ? nil : try store.source.exportJSON(records: symbols)
        }
        if let text, text.count > 2 { texts.append(text) }
    }

    /// Puts every kept record back as it was (removing those that did not exist) and forgets
    /// them; returns the data IDs whose records it changed. On error (out of memory) the store
    /// is as it was.
    func restore(into store: RecordStore) throws -> UpdatedRecordIDs {
        guard !isEmpty else { return .none(in: store) }
        let payloads = try texts.map { try NormalizedPayload(relayJSON: $0) }
        return try store.write { w in
            let symbols = dataIDs.map { w.source.findSymbol($0) }.filter { $0 != 0 }
            try w.source.removeRecords(symbols)
            w.dropIndexes()
            // What the rollback changed is the kept records, whatever the merges mark.
            for payload in payloads { try w.merge(payload.delta, consuming: false, reporting: false) }
            let restored = UpdatedSymbols(symbols)
            w.report(restored)
            return UpdatedRecordIDs(store: store, symbols: restored)
        }
    }
}

extension RecordStore {
    /// Nesting of a record's values in toJSON text: a record, a field, a custom scalar's JSON.
    static let backupDepth: UInt32 = 1000

    /// The data IDs of a payload's records, in its order.
    static func dataIDs(of payload: NormalizedPayload) -> [String] {
        payload.delta.withReadLock { payload.delta.recordIDs() }
    }
}
