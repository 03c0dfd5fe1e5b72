// Store subscriptions (relay's RelayStoreSubscriptions), indexed: a publish re-reads only the
// subscriptions that saw an updated record, found through a map from record to subscriptions, so
// its cost follows the updated records and the subscriptions they touch, not how many there are.

/// A handle that ends a subscription; ending it twice does nothing (relay's `dispose`).
public struct SubscriptionID: Hashable, Sendable, Comparable {
    let raw: Int
    public static func < (a: SubscriptionID, b: SubscriptionID) -> Bool { a.raw < b.raw }
}

/// The subscriptions of one store. Not thread-safe: its owner (the environment, an actor; the
/// command line's replay) calls it from one place at a time, after each publish.
public final class StoreSubscriptions {
    public typealias Callback = (ReadResult) -> Void

    struct Entry {
        var selector: ReadSelector
        var snapshot: ReadResult
        let callback: Callback
        /// The seen records that exist in the store, as its symbols (what the index holds).
        var symbols: [UInt32]
        /// Seen data IDs the store has no symbol for yet: re-read when any of them appears.
        var absent: [String]
    }

    public let store: RecordStore
    private var entries: [Int: Entry] = [:]
    private var nextID = 0
    /// Store symbol of a seen record → the subscriptions that saw it.
    private var bySymbol: [UInt32: [Int]] = [:]
    /// Seen data IDs not yet in the store → the subscriptions that saw them.
    private var byAbsentID: [String: Set<Int>] = [:]
    /// Subscriptions whose selector changed since the last `notify` (relay's `stale`).
    private var stalled: Set<Int> = []
    /// The store's symbol numbering the index was built with (a publish into an empty store
    /// adopts the payload's numbering).
    private var numbering: Int

    public init(store: RecordStore) {
        self.store = store
        numbering = store.symbolNumbering
    }

    public var count: Int { entries.count }

    /// How many subscriptions the last `notify` re-read (what its cost follows).
    public private(set) var lastReReadCount = 0

    /// Reads `selector` and subscribes to it in one step (relay's lookup then subscribe, with no
    /// publish in between to miss); returns the first snapshot.
    public func subscribe(_ selector: ReadSelector, _ callback: @escaping Callback) -> (ReadResult, SubscriptionID) {
        let id = nextID
        nextID += 1
        let entry = store.withSnapshot { s -> Entry in
            let snapshot = selector.read(s)
            let (symbols, absent) = Self.resolve(snapshot.seenRecords, s)
            return Entry(selector: selector, snapshot: snapshot, callback: callback, symbols: symbols, absent: absent)
        }
        entries[id] = entry
        index(id, entry)
        return (entry.snapshot, SubscriptionID(raw: id))
    }

    public func unsubscribe(_ id: SubscriptionID) {
        guard let entry = entries.removeValue(forKey: id.raw) else { return }
        stalled.remove(id.raw)
        unindex(id.raw, entry)
    }

    /// Points a subscription at another selector (a refetch answered: the refetch query is the
    /// owner now, maybe another record) keeping its place in the order: the next `notify`
    /// re-reads it with the new selector whatever that publish updated, and calls it if its data
    /// changed (relay's re-render with the new fragment reference).
    public func repoint(_ id: SubscriptionID, to selector: ReadSelector) {
        guard entries[id.raw] != nil else { return }
        entries[id.raw]!.selector = selector
        stalled.insert(id.raw)
    }

    /// The selector a subscription reads now.
    public func selector(_ id: SubscriptionID) -> ReadSelector? { entries[id.raw]?.selector }

    /// The latest snapshot of a subscription.
    public func snapshot(_ id: SubscriptionID) -> ReadResult? { entries[id.raw]?.snapshot }

    /// After a publish: re-reads each subscription that saw one of `updated` (or a record that was
    /// absent and now exists, or was repointed), in the order they were made, and calls those whose data changed.
    /// Returns the subscriptions called, in order.
    @discardableResult
    public func notify(_ updated: UpdatedRecordIDs) -> [SubscriptionID] {
        if store.symbolNumbering != numbering { reindexAll() }
        var affected = stalled
        stalled.removeAll()
        let symbols = updated.symbols
        for i in 0..<symbols.count {
            if let ids = bySymbol[symbols[i]] { affected.formUnion(ids) }
        }
        if !byAbsentID.isEmpty {
            store.withSnapshot { s in
                for (dataID, ids) in byAbsentID where s.symbol(dataID) != nil { affected.formUnion(ids) }
            }
        }
        lastReReadCount = affected.count
        guard !affected.isEmpty else { return [] }
        var changed: [(Int, ReadResult)] = []
        store.withSnapshot { s in
            for id in affected.sorted() {
                guard var entry = entries[id] else { continue }
                let next = entry.selector.read(s)
                let dataChanged = next.data != entry.snapshot.data
                if next.seenRecords != entry.snapshot.seenRecords {
                    unindex(id, entry)
                    (entry.symbols, entry.absent) = Self.resolve(next.seenRecords, s)
                    index(id, entry)
                }
                // Replaced even when equal (relay keeps the newest snapshot: isMissingData may differ).
                entry.snapshot = next
                entries[id] = entry
                if dataChanged { changed.append((id, next)) }
            }
        }
        // Called after the read lock is released: a callback may read the store.
        var called: [SubscriptionID] = []
        for (id, snapshot) in changed {
            guard let entry = entries[id] else { continue }  // ended by an earlier callback
            entry.callback(snapshot)
            called.append(SubscriptionID(raw: id))
        }
        return called
    }

    private static func resolve(_ seen: Set<String>, _ s: StoreSnapshot) -> ([UInt32], [String]) {
        var symbols: [UInt32] = []
        var absent: [String] = []
        symbols.reserveCapacity(seen.count)
        for dataID in seen {
            if let sym = s.symbol(dataID) { symbols.append(sym.raw) } else { absent.append(dataID) }
        }
        return (symbols, absent)
    }

    private func index(_ id: Int, _ entry: Entry) {
        for sym in entry.symbols { bySymbol[sym, default: []].append(id) }
        for dataID in entry.absent { byAbsentID[dataID, default: []].insert(id) }
    }

    private func unindex(_ id: Int, _ entry: Entry) {
        for sym in entry.symbols {
            guard var ids = bySymbol[sym] else { continue }
            if let i = ids.lastIndex(of: id) { ids.remove(at: i) }
            bySymbol[sym] = ids.isEmpty ? nil : ids
        }
        for dataID in entry.absent {
            guard var ids = byAbsentID[dataID] else { continue }
            ids.remove(id)
            byAbsentID[dataID] = ids.isEmpty ? nil : ids
        }
    }

    private func reindexAll() {
        numbering = store.symbolNumbering
        bySymbol.removeAll(keepingCapacity: true)
        byAbsentID.removeAll()
        store.withSnapshot { s in
            for (id, var entry) in entries {
                (entry.symbols, entry.absent) = Self.resolve(entry.snapshot.seenRecords, s)
                entries[id] = entry
                index(id, entry)
            }
        }
    }
}
