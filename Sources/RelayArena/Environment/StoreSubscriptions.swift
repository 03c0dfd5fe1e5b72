// Store subscriptions (relay's RelayStoreSubscriptions), indexed: a publish re-reads only the
// subscriptions that saw an updated record, found through a map from record to subscriptions, so
// its cost follows the updated records and the subscriptions they touch, not how many there are.

internal import CRelayArena

/// A handle that ends a subscription; ending it twice does nothing (relay's `dispose`).
public struct SubscriptionID: Hashable, Sendable, Comparable {
    let raw: Int
    public static func < (a: SubscriptionID, b: SubscriptionID) -> Bool { a.raw < b.raw }
}

/// The subscriptions of one store. Not thread-safe: its owner (the environment, an actor; the
/// command line's replay) calls it from one place at a time, after each publish.
public final class StoreSubscriptions {
    public typealias Callback = (ReadResult) -> Void

    /// An object, not a struct in the array: a notification touches it in place, where copying
    /// a struct out of the array retains and releases everything it holds (with 100k
    /// subscriptions, each of those a cache miss).
    final class Entry {
        let id: Int
        var selector: ReadSelector
        var snapshot: ReadResult
        let callback: Callback
        /// The seen records that exist in the store, as its symbols (what the index holds).
        var symbols: [UInt32]
        /// Seen data IDs the store has no symbol for yet: re-read when any of them appears.
        var absent: [String]

        init(
            id: Int, selector: ReadSelector, snapshot: ReadResult, callback: @escaping Callback, symbols: [UInt32],
            absent: [String]
        ) {
            self.id = id
            self.selector = selector
            self.snapshot = snapshot
            self.callback = callback
            self.symbols = symbols
            self.absent = absent
        }
    }

    public let store: RecordStore
    /// By subscription number (numbers are never reused; an ended one is nil).
    private var entries: [Entry?] = []
    private var live = 0
    /// Store symbol of a seen record → the first subscription that saw it, or -1 (symbols are
    /// dense small integers, so a flat array: one cache line to find a record's subscriber, not an
    /// array object a symbol); further subscriptions that saw it are in `moreBySymbol`.
    private var bySymbol: [Int32] = []
    private var moreBySymbol: [UInt32: [Int]] = [:]
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
            return Entry(
                id: id, selector: selector, snapshot: snapshot, callback: callback, symbols: symbols, absent: absent)
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
        guard id.raw >= 0, id.raw < entries.count, let entry = entries[id.raw] else { return }
        entry.selector = selector
        stalled.insert(id.raw)
    }

    /// The selector a subscription reads now.
    public func selector(_ id: SubscriptionID) -> ReadSelector? {
        id.raw >= 0 && id.raw < entries.count ? entries[id.raw]?.selector : nil
    }

    /// Every record a live subscription saw (what a collection keeps besides its roots, so that
    /// a model on screen never reads its data half collected).
    public var seenRecords: Set<String> {
        var seen: Set<String> = []
        for case let entry? in entries { seen.formUnion(entry.snapshot.seenRecords) }
        return seen
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
            guard sym < bySymbol.count, bySymbol[sym] >= 0 else { continue }
            affected.insert(Int(bySymbol[sym]))
            if !moreBySymbol.isEmpty, let more = moreBySymbol[symbols[i]] { affected.formUnion(more) }
        }
        if !byAbsentID.isEmpty {
            store.withSnapshot { s in
                for (dataID, ids) in byAbsentID where s.symbol(dataID) != nil { affected.formUnion(ids) }
            }
        }
        lastReReadCount = affected.count
        guard !affected.isEmpty else { return [] }
        let order = affected.sorted()
        prefetch(order)
        var changed: [(Entry, ReadResult)] = []
        store.withSnapshot { s in
            for id in order {
                guard let entry = entries[id] else { continue }
                let next = entry.selector.read(s)
                let dataChanged = next.data != entry.snapshot.data
                if next.seenRecords != entry.snapshot.seenRecords {
                    unindex(id, entry)
                    (entry.symbols, entry.absent) = Self.resolve(next.seenRecords, s)
                    index(id, entry)
                }
                // Replaced even when equal (relay keeps the newest snapshot: isMissingData may differ).
                entry.snapshot = next
                if dataChanged { changed.append((entry, next)) }
            }
        }
        // Called after the read lock is released: a callback may read the store.
        var called: [SubscriptionID] = []
        for (entry, snapshot) in changed {
            guard entries[entry.id] != nil else { continue }  // ended by an earlier callback
            entry.callback(snapshot)
            called.append(SubscriptionID(raw: entry.id))
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
            if i >= bySymbol.count { bySymbol.append(contentsOf: repeatElement(-1, count: i + 1 - bySymbol.count)) }
            if bySymbol[i] < 0 { bySymbol[i] = Int32(id) } else { moreBySymbol[sym, default: []].append(id) }
        }
        for dataID in entry.absent { byAbsentID[dataID, default: []].insert(id) }
    }

    private func unindex(_ id: Int, _ entry: Entry) {
        for sym in entry.symbols where Int(sym) < bySymbol.count {
            let i = Int(sym)
            if bySymbol[i] == Int32(id) {
                if var more = moreBySymbol[sym] {
                    bySymbol[i] = Int32(more.removeLast())
                    moreBySymbol[sym] = more.isEmpty ? nil : more
                } else {
                    bySymbol[i] = -1
                }
            } else if var more = moreBySymbol[sym], let at = more.lastIndex(of: id) {
                more.remove(at: at)
                moreBySymbol[sym] = more.isEmpty ? nil : more
            }
        }
        for dataID in entry.absent {
            guard var ids = byAbsentID[dataID] else { continue }
            ids.remove(id)
            byAbsentID[dataID] = ids.isEmpty ? nil : ids
        }
    }

    /// Asks for the entries about to be re-read, all at once: with many subscriptions they lie far
    /// apart in memory, and fetching them one at a time, each when first touched, is most of what
    /// re-reading a thousand of a hundred thousand costs over a thousand of a thousand.
    private func prefetch(_ ids: [Int]) {
        guard MemoryLayout<Entry?>.size == MemoryLayout<UInt>.size else { return }
        entries.withUnsafeBytes { raw in
            for id in ids {
                let object = UnsafeRawPointer(
                    bitPattern: raw.load(fromByteOffset: id * MemoryLayout<Entry?>.stride, as: UInt.self))
                ra_prefetch(object)
                ra_prefetch(object.map { $0 + 64 })
                ra_prefetch(object.map { $0 + 128 })
            }
        }
    }

    private func reindexAll() {
        numbering = store.symbolNumbering
        bySymbol.removeAll(keepingCapacity: true)
        moreBySymbol.removeAll()
        byAbsentID.removeAll()
        store.withSnapshot { s in
            for id in entries.indices {
                guard let entry = entries[id] else { continue }
                (entry.symbols, entry.absent) = Self.resolve(entry.snapshot.seenRecords, s)
                index(id, entry)
            }
        }
    }
}
