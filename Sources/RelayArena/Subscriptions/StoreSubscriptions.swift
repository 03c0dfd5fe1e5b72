// Store subscriptions (relay's RelayStoreSubscriptions), indexed: a publish re-reads only the
// subscriptions that saw an updated record, found through a map from record to subscriptions, so
// its cost follows the updated records and the subscriptions they touch, not how many there are.

/// A handle that ends a subscription; ending it twice does nothing (relay's `dispose`).
public struct SubscriptionID: Hashable, Sendable, Comparable {
    let raw: Int
    public static func < (a: SubscriptionID, b: SubscriptionID) -> Bool { a.raw < b.raw }
}

/// What a subscription calls when its data changes: an object, so that a notification reaches
/// it in one step (a closure is a context to load and retain on the way, and with many
/// subscriptions each step is a cache miss).
protocol StoreSubscriber: AnyObject {
    func storeDidChange(_ result: ReadResult)
    /// Memory besides the object that `storeDidChange` touches (its observation storage), to
    /// ask for ahead of time; asking for memory never faults, so a stale address costs nothing.
    var changeAddress: UnsafeRawPointer? { get }
}

/// A subscriber that calls a closure.
private final class ClosureSubscriber: StoreSubscriber {
    let callback: StoreSubscriptions.Callback
    init(_ callback: @escaping StoreSubscriptions.Callback) { self.callback = callback }
    func storeDidChange(_ result: ReadResult) { callback(result) }
    var changeAddress: UnsafeRawPointer? { nil }
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
        var result: ReadResult
        let subscriber: any StoreSubscriber
        let changeAddress: UnsafeRawPointer?
        /// The seen records that exist in the store, as its symbols (what the index holds).
        var symbols: [UInt32]
        /// Seen data IDs the store has no symbol for yet: re-read when any of them appears.
        var absent: [String]
        /// The notification that last called it.
        var calledInRound = 0
        /// What its next re-read and change touch besides the entry (see `Hints`).
        fileprivate var hints = Hints()

        init(
            id: Int, selector: ReadSelector, result: ReadResult, subscriber: any StoreSubscriber,
            symbols: [UInt32], absent: [String]
        ) {
            self.id = id
            self.selector = selector
            self.result = result
            self.subscriber = subscriber
            changeAddress = subscriber.changeAddress
            self.symbols = symbols
            self.absent = absent
            hints = Hints(self)
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
    /// Set while `notify` calls subscribers, with the subscriptions they end meanwhile (so that
    /// one ended by an earlier callback is not called, without looking each up again).
    private var notifying = 0
    private var endedWhileNotifying: Set<Int> = []
    /// Notifications so far (a callback's publish makes one inside another).
    private var rounds = 0
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
    /// publish in between to miss); returns the first read.
    public func subscribe(_ selector: ReadSelector, _ callback: @escaping Callback) -> (ReadResult, SubscriptionID) {
        subscribe(selector, ClosureSubscriber(callback))
    }

    /// The same, calling an object (what the environment's models subscribe with).
    func subscribe(_ selector: ReadSelector, _ subscriber: any StoreSubscriber) -> (ReadResult, SubscriptionID) {
        let id = entries.count
        let selector = selector.withOwnDataID()
        let entry = store.withSnapshot { s -> Entry in
            let result = selector.read(s)
            let (symbols, absent) = Self.resolve(result.seenRecords, s)
            return Entry(
                id: id, selector: selector, result: result, subscriber: subscriber, symbols: symbols,
                absent: absent)
        }
        entries.append(entry)
        live += 1
        index(id, entry)
        return (entry.result, SubscriptionID(raw: id))
    }

    public func unsubscribe(_ id: SubscriptionID) {
        guard id.raw >= 0, id.raw < entries.count, let entry = entries[id.raw] else { return }
        entries[id.raw] = nil
        live -= 1
        if notifying > 0 { endedWhileNotifying.insert(id.raw) }
        stalled.remove(id.raw)
        unindex(id.raw, entry)
    }

    /// Points a subscription at another selector (a refetch answered: the refetch query is the
    /// owner now, maybe another record) keeping its place in the order: the next `notify`
    /// re-reads it with the new selector whatever that publish updated, and calls it if its data
    /// changed (relay's re-render with the new fragment reference).
    public func repoint(_ id: SubscriptionID, to selector: ReadSelector) {
        guard id.raw >= 0, id.raw < entries.count, let entry = entries[id.raw] else { return }
        entry.selector = selector.withOwnDataID()
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
        for case let entry? in entries { seen.formUnion(entry.result.seenRecords) }
        return seen
    }

    /// The latest read of a subscription.
    public func result(_ id: SubscriptionID) -> ReadResult? {
        id.raw >= 0 && id.raw < entries.count ? entries[id.raw]?.result : nil
    }

    @available(*, deprecated, renamed: "result(_:)")
    public func snapshot(_ id: SubscriptionID) -> ReadResult? { result(id) }

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
        let ahead = Self.prefetchDistance
        // The first ones' memory before the first re-read: batches from 3 × `ahead` before it.
        for i in stride(from: -3 * ahead, to: 0, by: Self.prefetchBatch) { prefetch(order, batch: i) }
        rounds += 1
        let round = rounds
        // The entries whose data changed (an entry's result is `next` until a callback's publish
        // re-reads it), with the addresses of what calling it releases: its last data, which the
        // model holds too.
        var changed: [(entry: Entry, released: Hints)] = []
        changed.reserveCapacity(order.count)
        store.withSnapshot { s in
            for (i, id) in order.enumerated() {
                if i % Self.prefetchBatch == 0 { prefetch(order, batch: i) }
                guard let entry = entries[id] else { continue }
                let next = entry.selector.read(s, previouslySeen: entry.result.seenRecords)
                let dataChanged = next.data != entry.result.data
                if next.seenRecords != entry.result.seenRecords {
                    unindex(id, entry)
                    (entry.symbols, entry.absent) = Self.resolve(next.seenRecords, s)
                    index(id, entry)
                }
                // Replaced even when equal (relay keeps the newest read: isMissingData may differ).
                entry.result = next
                let released = entry.hints
                entry.hints = Hints(entry)
                if dataChanged { changed.append((entry, released)) }
            }
        }
        // Called after the read lock is released: a callback may read the store.
        var called: [SubscriptionID] = []
        called.reserveCapacity(changed.count)
        notifying += 1  // a callback may publish, and so notify, in turn
        defer {
            notifying -= 1
            if notifying == 0 { endedWhileNotifying.removeAll() }
        }
        // The entries and models were last touched a thousand re-reads ago: asked for again,
        // a window ahead, with what each call releases.
        for (i, (entry, _)) in changed.enumerated() {
            if i + ahead < changed.count { Self.prefetch(changed[i + ahead]) }
            // Ended by an earlier callback: not called.
            if !endedWhileNotifying.isEmpty, endedWhileNotifying.contains(entry.id) { continue }
            // An earlier callback published, and that round re-read this one: it was called then
            // if its data changed, and otherwise gets the newest read (its result), never an older one.
            if rounds != round, entry.calledInRound > round { continue }
            entry.calledInRound = round
            entry.subscriber.storeDidChange(entry.result)
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

    /// How many subscriptions ahead of its re-read a notification asks for one's memory: the
    /// line of `entries` holding its reference three times as far ahead, the entry twice as far
    /// (its reference read by then), what its hints point at once (read from the entry by then).
    static let prefetchDistance = 16
    /// How many subscriptions' memory is asked for in a row. Each lies on pages of its own, and
    /// asking for a page the TLB does not map holds everything up until the page is walked
    /// (long in a virtual machine); asked for in a row, several pages are walked together.
    static let prefetchBatch = 4

    /// Asks for the memory of the batch of subscriptions starting at `order[i]`, at each stage
    /// (see `prefetchDistance`); `i` may be negative, to start the stages.
    @inline(__always)
    private func prefetch(_ order: [Int], batch i: Int) {
        let ahead = Self.prefetchDistance
        let batch = i..<(i + Self.prefetchBatch)
        for j in batch where order.indices.contains(j + 3 * ahead) { prefetchSlot(order[j + 3 * ahead]) }
        for j in batch where order.indices.contains(j + 2 * ahead) { prefetchEntry(order[j + 2 * ahead]) }
        for j in batch where order.indices.contains(j + ahead) { prefetchHints(order[j + ahead]) }
    }

    /// Asks for the first four lines of an object (an entry's fields and hints).
    @inline(__always)
    private static func prefetchLines(_ object: UnsafeRawPointer?) {
        for line in 0..<4 { prefetchCacheLine(object.map { $0 + line * 64 }) }
    }

    /// Asks for the line of `entries` that holds an entry's reference.
    @inline(__always)
    private func prefetchSlot(_ id: Int) {
        entries.withUnsafeBytes { prefetchCacheLine($0.baseAddress.map { $0 + id * MemoryLayout<Entry?>.stride }) }
    }

    /// Asks for an entry's first lines (where its fields and hints are).
    @inline(__always)
    private func prefetchEntry(_ id: Int) {
        guard MemoryLayout<Entry?>.size == MemoryLayout<UInt>.size else { return }
        Self.prefetchLines(
            entries.withUnsafeBytes {
                UnsafeRawPointer(bitPattern: $0.load(fromByteOffset: id * MemoryLayout<Entry?>.stride, as: UInt.self))
            })
    }

    /// Asks for a changed subscription's entry and what its call touches and releases.
    @inline(__always)
    private static func prefetch(_ changed: (entry: Entry, released: Hints)) {
        prefetchLines(UnsafeRawPointer(Unmanaged.passUnretained(changed.entry).toOpaque()))
        changed.released.prefetch()
    }

    /// Asks for what an entry's hints point at: with many subscriptions it lies far apart (its
    /// record's ID, its last data, the model it calls and that model's observation storage), and
    /// fetching each piece when first touched is most of what re-reading a thousand
    /// subscriptions of a hundred thousand costs over a thousand of a thousand.
    @inline(__always)
    private func prefetchHints(_ id: Int) {
        entries[id]?.hints.prefetch()
    }

    private func reindexAll() {
        numbering = store.symbolNumbering
        bySymbol.removeAll(keepingCapacity: true)
        moreBySymbol.removeAll()
        byAbsentID.removeAll()
        store.withSnapshot { s in
            for id in entries.indices {
                guard let entry = entries[id] else { continue }
                (entry.symbols, entry.absent) = Self.resolve(entry.result.seenRecords, s)
                index(id, entry)
            }
        }
    }
}

/// The addresses one subscription's re-read and change touch besides its entry, kept in the entry
/// so that a notification can ask for all of them before touching any: the subscriber and its
/// change address, the storage of the record ID it reads (hashed to find the record) and of its
/// last data and seen records (compared with the new read, then released).
/// Only ever prefetched, never dereferenced: an address that went stale costs a wasted fetch.
private struct Hints {
    static let count = 6
    var addresses: (UInt, UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0, 0)

    init() {}

    /// Asks for two lines from each address: an object's header and what follows it.
    @inline(__always)
    func prefetch() {
        withUnsafeBytes(of: addresses) { raw in
            for i in 0..<Self.count {
                let p = UnsafeRawPointer(bitPattern: raw.load(fromByteOffset: i * 8, as: UInt.self))
                prefetchCacheLine(p)
                prefetchCacheLine(p.map { $0 + 64 })
            }
        }
    }

    init(_ entry: StoreSubscriptions.Entry) {
        var n = 0
        func add(_ pointer: UnsafeRawPointer?) {
            guard let pointer, n < Self.count else { return }
            withUnsafeMutableBytes(of: &addresses) {
                $0.storeBytes(of: UInt(bitPattern: pointer), toByteOffset: n * 8, as: UInt.self)
            }
            n += 1
        }
        // Native storage (a string's, an array's) keeps its header, with the reference count
        // every copy and release writes, in the 32 bytes before the first byte or element.
        let header = 32
        func add(_ string: String) {
            // Up to 15 bytes a string is held inline, so there is no storage to ask for.
            guard string.utf8.count > 15 else { return }
            _ = string.utf8.withContiguousStorageIfAvailable {
                add(UnsafeRawPointer($0.baseAddress).map { $0 - header })
            }
        }
        add(UnsafeRawPointer(Unmanaged.passUnretained(entry.subscriber as AnyObject).toOpaque()))
        add(entry.changeAddress)
        add(entry.selector.dataID)
        // A set is one reference to its storage.
        withUnsafeBytes(of: entry.result.seenRecords) { raw in
            if raw.count == MemoryLayout<UInt>.size { add(UnsafeRawPointer(bitPattern: raw.load(as: UInt.self))) }
        }
        switch entry.result.data {
        case .object(let members)?:
            members.withUnsafeBufferPointer { add(UnsafeRawPointer($0.baseAddress).map { $0 - header }) }
            for (_, value) in members {
                if case .string(let s) = value { add(s) }
            }
        case .array(let items)?:
            items.withUnsafeBufferPointer { add(UnsafeRawPointer($0.baseAddress).map { $0 - header }) }
        default:
            break
        }
    }
}

extension ReadSelector {
    /// The same selector with a data ID of its own, allocated now: next to the subscription's
    /// entry, model and last data, made at the same time. The caller's ID usually lies among
    /// thousands of others (a list's IDs, read together), and a notification re-reading a
    /// thousand subscriptions of a hundred thousand would find each one's on a page of its own,
    /// another address translation to miss (the hashed lookup and the seen records read it).
    fileprivate func withOwnDataID() -> ReadSelector {
        let count = dataID.utf8.count
        // Up to 15 bytes a string is held inline, in the selector itself.
        guard count > 15 else { return self }
        let own = String(unsafeUninitializedCapacity: count) { $0.initialize(fromContentsOf: dataID.utf8) }
        return ReadSelector(node: node, dataID: own, variables: variables, owner: owner)
    }
}
