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
}

/// A subscriber that calls a closure.
private final class ClosureSubscriber: StoreSubscriber {
    let callback: StoreSubscriptions.Callback
    init(_ callback: @escaping StoreSubscriptions.Callback) { self.callback = callback }
    func storeDidChange(_ result: ReadResult) { callback(result) }
}

/// The subscriptions of one store. Not thread-safe: its owner (the environment, an actor; the
/// command line's replay) calls it from one place at a time, after each publish.
///
/// A table of its own, a row a subscription number in columns: the row's plain values (where its
/// seen records lie in one pool of symbols, the round that last called it, the addresses its next
/// re-read touches), its selector, its latest read and its subscriber. A notification asks for
/// the memory of the subscriptions a window ahead of the one it re-reads: the rows and column
/// slots by their index, what a row's hints name and its subscriber. Every address asked for is
/// one the table owns or one a documented API handed out (an array's elements, a string's UTF-8,
/// an object's `Unmanaged.toOpaque()`); nothing reads the bits of a standard-library or
/// Observation value.
public final class StoreSubscriptions {
    public typealias Callback = (ReadResult) -> Void

    /// A subscription's plain values.
    fileprivate struct Row {
        /// Its seen records that exist in the store, as symbols: `seenPool[seenStart..<seenStart + seenCount]`.
        var seenStart = 0
        var seenCount = 0
        /// The notification that last called it.
        var calledInRound = 0
        /// What its next re-read and change touch besides the table (see `Hints`).
        var hints = Hints()
        /// Its subscriber's address (`Unmanaged.toOpaque`), which a call touches first.
        var subscriber: UInt = 0
    }

    public let store: RecordStore
    /// The columns, by subscription number (numbers are never reused; an ended one's row is
    /// blank and its other columns are nil: a live one is one with a selector).
    private var rows: [Row] = []
    private var selectors: [ReadSelector?] = []
    private var results: [ReadResult?] = []
    private var subscribers: [(any StoreSubscriber)?] = []
    /// The rows' seen symbols, run after run; a run replaced by a re-read is garbage until the
    /// pool is packed again (when garbage is more than half of it).
    private var seenPool: [UInt32] = []
    private var seenGarbage = 0
    /// Seen data IDs the store has no symbol for yet, by subscription: re-read when any appears.
    private var absentBySubscription: [Int: [String]] = [:]
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
    /// Notifications so far (a callback's publish makes one inside another).
    private var rounds = 0
    /// The store's symbol numbering the index was built with (a publish into an empty store
    /// adopts the payload's numbering).
    private var numbering: Int

    /// relay's `relayFieldLogger`: told each field error of a read a subscriber is handed (its
    /// first read, and each one whose data changed). The environment sets it to its `log`.
    public var fieldErrorLog: ((FieldError) -> Void)?

    public init(store: RecordStore) {
        self.store = store
        numbering = store.symbolNumbering
    }

    @inline(__always)
    private func reportFieldErrors(_ result: ReadResult) {
        guard let fieldErrorLog, !result.fieldErrors.isEmpty else { return }
        for event in result.fieldErrors { fieldErrorLog(event) }
    }

    public var count: Int { live }

    /// How many subscriptions the last `notify` re-read (what its cost follows).
    package private(set) var lastReReadCount = 0

    /// Reads `selector` and subscribes to it in one step (relay's lookup then subscribe, with no
    /// publish in between to miss); returns the first read.
    public func subscribe(_ selector: ReadSelector, _ callback: @escaping Callback) -> (ReadResult, SubscriptionID) {
        subscribe(selector, ClosureSubscriber(callback))
    }

    /// The same, calling an object (what the environment's models subscribe with).
    func subscribe(_ selector: ReadSelector, _ subscriber: any StoreSubscriber) -> (ReadResult, SubscriptionID) {
        let id = rows.count
        let selector = selector.withOwnDataID()
        let (result, symbols, absent) = store.withSnapshot { s in
            let result = selector.read(s)
            let (symbols, absent) = Self.resolve(result.seen, s)
            return (result, symbols, absent)
        }
        rows.append(
            Row(
                hints: Hints(selector, result),
                subscriber: UInt(bitPattern: Unmanaged.passUnretained(subscriber as AnyObject).toOpaque())))
        selectors.append(selector)
        results.append(result)
        subscribers.append(subscriber)
        live += 1
        index(id, symbols: symbols, absent: absent)
        reportFieldErrors(result)
        return (result, SubscriptionID(raw: id))
    }

    public func unsubscribe(_ id: SubscriptionID) {
        guard isLive(id) else { return }
        unindex(id.raw)
        rows[id.raw] = Row()
        selectors[id.raw] = nil
        results[id.raw] = nil
        subscribers[id.raw] = nil
        live -= 1
        stalled.remove(id.raw)
    }

    /// Points a subscription at another selector (a refetch answered: the refetch query is the
    /// owner now, maybe another record) keeping its place in the order: the next `notify`
    /// re-reads it with the new selector whatever that publish updated, and calls it if its data
    /// changed (relay's re-render with the new fragment reference).
    public func repoint(_ id: SubscriptionID, to selector: ReadSelector) {
        guard isLive(id) else { return }
        selectors[id.raw] = selector.withOwnDataID()
        stalled.insert(id.raw)
    }

    private func isLive(_ id: SubscriptionID) -> Bool {
        id.raw >= 0 && id.raw < selectors.count && selectors[id.raw] != nil
    }

    /// The selector a subscription reads now.
    public func selector(_ id: SubscriptionID) -> ReadSelector? {
        id.raw >= 0 && id.raw < selectors.count ? selectors[id.raw] : nil
    }

    /// Every record a live subscription saw (what a collection keeps besides its roots, so that
    /// a model on screen never reads its data half collected).
    public var seenRecords: Set<String> {
        var seen: Set<String> = []
        for case let result? in results { result.seen.forEachID { seen.insert($0) } }
        return seen
    }

    /// The latest read of a subscription.
    public func result(_ id: SubscriptionID) -> ReadResult? {
        id.raw >= 0 && id.raw < results.count ? results[id.raw] : nil
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
        // The first ones' memory before the first re-read: batches from 2 × `ahead` before it.
        for i in stride(from: -2 * ahead, to: 0, by: Self.prefetchBatch) { prefetch(order, batch: i) }
        rounds += 1
        let round = rounds
        // The subscriptions whose data changed (a subscription's result is `next` until a
        // callback's publish re-reads it), with the hints of what calling it releases: its last
        // data, which the model holds too.
        var changed: [(id: Int, released: Hints)] = []
        changed.reserveCapacity(order.count)
        store.withSnapshot { s in
            for (i, id) in order.enumerated() {
                if i % Self.prefetchBatch == 0 { prefetch(order, batch: i) }
                guard let selector = selectors[id], let last = results[id] else { continue }
                let next = selector.read(s, previouslySeen: last.seen.count)
                let dataChanged = next.data != last.data
                if next.seen != last.seen {
                    unindex(id)
                    let (symbols, absent) = Self.resolve(next.seen, s)
                    index(id, symbols: symbols, absent: absent)
                }
                // Replaced even when equal (relay keeps the newest read: isMissingData may differ).
                results[id] = next
                let released = rows[id].hints
                rows[id].hints = Hints(selector, next)
                if dataChanged { changed.append((id, released)) }
            }
        }
        // Called after the read lock is released: a callback may read the store.
        var called: [SubscriptionID] = []
        called.reserveCapacity(changed.count)
        // The rows and models were last touched a thousand re-reads ago: asked for again, a
        // window ahead, with what each call releases.
        for (i, (id, _)) in changed.enumerated() {
            if i + ahead < changed.count {
                let next = changed[i + ahead].id
                prefetchColumns(next)
                prefetchLines(UnsafeRawPointer(bitPattern: rows[next].subscriber))
                changed[i + ahead].released.prefetch()
            }
            // Ended by an earlier callback: not called.
            guard let subscriber = subscribers[id], let result = results[id] else { continue }
            // An earlier callback published, and that round re-read this one: it was called then
            // if its data changed, and otherwise gets the newest read (its result), never an older one.
            if rounds != round, rows[id].calledInRound > round { continue }
            rows[id].calledInRound = round
            reportFieldErrors(result)
            subscriber.storeDidChange(result)
            called.append(SubscriptionID(raw: id))
        }
        return called
    }

    private static func resolve(_ seen: SeenRecordIDs, _ s: StoreSnapshot) -> ([UInt32], [String]) {
        var symbols: [UInt32] = []
        var absent: [String] = []
        symbols.reserveCapacity(seen.count)
        seen.forEachID { dataID in
            if let sym = s.symbol(dataID) { symbols.append(sym.raw) } else { absent.append(dataID) }
        }
        return (symbols, absent)
    }

    /// Records a subscription's seen records: its run of symbols in the pool, and the index.
    private func index(_ id: Int, symbols: [UInt32], absent: [String]) {
        if seenGarbage > 1024, seenGarbage > seenPool.count / 2 { packSeenPool() }
        rows[id].seenStart = seenPool.count
        rows[id].seenCount = symbols.count
        seenPool.append(contentsOf: symbols)
        for sym in symbols {
            let i = Int(sym)
            if i >= bySymbol.count { bySymbol.append(contentsOf: repeatElement(-1, count: i + 1 - bySymbol.count)) }
            if bySymbol[i] < 0 { bySymbol[i] = Int32(id) } else { moreBySymbol[sym, default: []].append(id) }
        }
        if !absent.isEmpty { absentBySubscription[id] = absent }
        for dataID in absent { byAbsentID[dataID, default: []].insert(id) }
    }

    /// Forgets a subscription's seen records (its run becomes garbage).
    private func unindex(_ id: Int) {
        let run = rows[id].seenStart..<(rows[id].seenStart + rows[id].seenCount)
        for sym in seenPool[run] where Int(sym) < bySymbol.count {
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
        seenGarbage += run.count
        rows[id].seenCount = 0
        guard let absent = absentBySubscription.removeValue(forKey: id) else { return }
        for dataID in absent {
            guard var ids = byAbsentID[dataID] else { continue }
            ids.remove(id)
            byAbsentID[dataID] = ids.isEmpty ? nil : ids
        }
    }

    /// Copies the live runs into a new pool, in subscription order.
    private func packSeenPool() {
        var packed: [UInt32] = []
        packed.reserveCapacity(seenPool.count - seenGarbage)
        for id in rows.indices where selectors[id] != nil {
            let start = rows[id].seenStart
            rows[id].seenStart = packed.count
            packed.append(contentsOf: seenPool[start..<(start + rows[id].seenCount)])
        }
        seenPool = packed
        seenGarbage = 0
    }

    /// How many subscriptions ahead of its re-read a notification asks for one's memory: its row
    /// and column slots twice as far ahead, what its hints name once (read from the row by then).
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
        for j in batch where order.indices.contains(j + 2 * ahead) { prefetchColumns(order[j + 2 * ahead]) }
        for j in batch where order.indices.contains(j + ahead) { rows[order[j + ahead]].hints.prefetch() }
    }

    /// Asks for a subscription's row and its slots in the other columns.
    @inline(__always)
    private func prefetchColumns(_ id: Int) {
        rows.withUnsafeBufferPointer { prefetchElement($0, id) }
        selectors.withUnsafeBufferPointer { prefetchElement($0, id) }
        results.withUnsafeBufferPointer { prefetchElement($0, id) }
        subscribers.withUnsafeBufferPointer { prefetchElement($0, id) }
    }

    /// Asks for every line of element `i` (a row spans two; its hints are in the second).
    @inline(__always)
    private func prefetchElement<T>(_ column: UnsafeBufferPointer<T>, _ i: Int) {
        guard let base = column.baseAddress, i < column.count else { return }
        let start = UnsafeRawPointer(base + i)
        let end = start + MemoryLayout<T>.stride
        var line = start - (Int(bitPattern: start) & 63)
        while line < end {
            prefetchCacheLine(line)
            line += 64
        }
    }

    private func reindexAll() {
        numbering = store.symbolNumbering
        bySymbol.removeAll(keepingCapacity: true)
        moreBySymbol.removeAll()
        byAbsentID.removeAll()
        absentBySubscription.removeAll()
        seenPool.removeAll(keepingCapacity: true)
        seenGarbage = 0
        store.withSnapshot { s in
            for id in rows.indices {
                guard let result = results[id] else { continue }
                let (symbols, absent) = Self.resolve(result.seen, s)
                index(id, symbols: symbols, absent: absent)
            }
        }
    }
}

/// The addresses one subscription's re-read and change touch besides the table, kept in its row
/// so that a notification can ask for all of them before touching any: the UTF-8 of the record
/// ID it reads (hashed to find the record), its last data's members and long strings (compared
/// with the new read, then released). Each address comes from a documented API
/// (`withUnsafeBufferPointer`, `withContiguousStorageIfAvailable`) while the value is alive; only
/// ever prefetched, never dereferenced: an address that went stale costs a wasted fetch.
private struct Hints {
    private var a0: UInt = 0, a1: UInt = 0, a2: UInt = 0, a3: UInt = 0

    init() {}

    init(_ selector: ReadSelector, _ result: ReadResult) {
        var n = 0
        func add(_ pointer: UnsafeRawPointer?) {
            guard let pointer else { return }
            let address = UInt(bitPattern: pointer)
            switch n {
            case 0: a0 = address
            case 1: a1 = address
            case 2: a2 = address
            case 3: a3 = address
            default: return
            }
            n += 1
        }
        func add(_ string: String) {
            _ = string.utf8.withContiguousStorageIfAvailable { add(UnsafeRawPointer($0.baseAddress)) }
        }
        add(selector.dataID)
        switch result.data {
        case .object(let members)?:
            members.withUnsafeBufferPointer { add(UnsafeRawPointer($0.baseAddress)) }
            for (_, value) in members {
                if case .string(let s) = value { add(s) }
            }
        case .array(let items)?:
            items.withUnsafeBufferPointer { add(UnsafeRawPointer($0.baseAddress)) }
        default:
            break
        }
    }

    /// Asks for the line at each address.
    @inline(__always)
    func prefetch() {
        prefetchCacheLine(UnsafeRawPointer(bitPattern: a0))
        prefetchLines(UnsafeRawPointer(bitPattern: a1))
        prefetchCacheLine(UnsafeRawPointer(bitPattern: a2))
        prefetchCacheLine(UnsafeRawPointer(bitPattern: a3))
    }
}

/// Asks for the line at `address` and the next (a model's fields, a two-member object's members).
@inline(__always)
private func prefetchLines(_ address: UnsafeRawPointer?) {
    prefetchCacheLine(address)
    prefetchCacheLine(address.map { $0 + 64 })
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
