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
    /// By subscription number (numbers are never reused; an ended one is nil).
    private var entries: [Entry?] = []
    private var live = 0
    /// Store symbol of a seen record → the subscriptions that saw it (symbols are dense small
    /// integers, so an array, not a hash table).
    private var bySymbol: [[Int]] = []
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

    public var count: Int { live }

    /// How many subscriptions the last `notify` re-read (what its cost follows).
    public private(set) var lastReReadCount = 0

    /// Reads `selector` and subscribes to it in one step (relay's lookup then subscribe, with no
    /// publish in between to miss); returns the first snapshot.
    public func subscribe(_ selector: ReadSelector, _ callback: @escaping Callback) -> (ReadResult, SubscriptionID) {
        let id = entries.count
        let entry = store.withSnapshot { s -> Entry in
            let snapshot = selector.read(s)
            let (symbols, absent) = Self.resolve(snapshot.seenRecords, s)
            return Entry(selector: selector, snapshot: snapshot, callback: callback, symbols: symbols, absent: absent)
        }
        entries.append(entry)
        live += 1
        index(id, entry)
        return (entry.snapshot, SubscriptionID(raw: id))
    }

    public func unsubscribe(_ id: SubscriptionID) {
        guard id.raw >= 0, id.raw < entries.count, let entry = entries[id.raw] else { return }
        entries[id.raw] = nil
        live -= 1
        stalled.remove(id.raw)
        unindex(id.raw, entry)
    }

    /// Points a subscription at another selector (a refetch answered: the refetch query is the
    /// owner now, maybe another record) keeping its place in the order: the next `notify`
    /// re-reads it with the new selector whatever that publish updated, and calls it if its data
    /// changed (relay's re-render with the new fragment reference).
    public func repoint(_ id: SubscriptionID, to selector: ReadSelector) {
        guard id.raw >= 0, id.raw < entries.count, entries[id.raw] != nil else { return }
        entries[id.raw]!.selector = selector
        stalled.insert(id.raw)
    }

    /// The selector a subscription reads now.
    public func selector(_ id: SubscriptionID) -> ReadSelector? {
        id.raw >= 0 && id.raw < entries.count ? entries[id.raw]?.selector : nil
    }

    /// The latest snapshot of a subscription.
    public func snapshot(_ id: SubscriptionID) -> ReadResult? {
        id.raw >= 0 && id.raw < entries.count ? entries[id.raw]?.snapshot : nil
    }

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
            let sym = Int(symbols[i])
            if sym < bySymbol.count, !bySymbol[sym].isEmpty { affected.formUnion(bySymbol[sym]) }
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
                // In place: copying an entry out and back retains and releases all it holds.
                guard let selector = entries[id]?.selector else { continue }
                let next = selector.read(s)
                let dataChanged = next.data != entries[id]!.snapshot.data
                if next.seenRecords != entries[id]!.snapshot.seenRecords {
                    unindex(id, entries[id]!)
                    (entries[id]!.symbols, entries[id]!.absent) = Self.resolve(next.seenRecords, s)
                    index(id, entries[id]!)
                }
                // Replaced even when equal (relay keeps the newest snapshot: isMissingData may differ).
                entries[id]!.snapshot = next
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
        for sym in entry.symbols {
            let i = Int(sym)
            if i >= bySymbol.count { bySymbol.append(contentsOf: repeatElement([], count: i + 1 - bySymbol.count)) }
            bySymbol[i].append(id)
        }
        for dataID in entry.absent { byAbsentID[dataID, default: []].insert(id) }
    }

    private func unindex(_ id: Int, _ entry: Entry) {
        for sym in entry.symbols where Int(sym) < bySymbol.count {
            if let i = bySymbol[Int(sym)].lastIndex(of: id) { bySymbol[Int(sym)].remove(at: i) }
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
            for id in entries.indices {
                guard var entry = entries[id] else { continue }
                (entry.symbols, entry.absent) = Self.resolve(entry.snapshot.seenRecords, s)
                entries[id] = entry
                index(id, entry)
            }
        }
    }
}
