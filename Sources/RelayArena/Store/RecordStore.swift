// The store: one arena-backed record source behind a readers-writer lock. Publishing merges a
// normalized payload field by field; reads see either the state before or after a publish.
import Foundation

/// A normalized record store (relay-runtime's RecordSource + publish), held in one arena.
///
/// One writer and any number of concurrent readers: `publish` takes the write lock, reads take
/// the read lock, so a reader never sees half a payload.
public final class RecordStore: @unchecked Sendable {
    let source: SourceHandle
    /// Bumped (under the write lock) by a publish that may have renumbered the store's symbols:
    /// one into a store holding only its root takes the payload's arena and numbering whole.
    private var numbering = 0
    /// Bumped (under the write lock) by every write: a collection whose marking saw an older
    /// value starts again.
    private var writes = 0
    /// Open `holdCollection()` holds (under the write lock): while any is open, a collection
    /// removes nothing.
    private var collectionHolds = 0
    /// Automatic compaction: the garbage known at the last measure, and the arena's size then
    /// (garbage only grows with the arena, so it is measured again only once the arena has grown
    /// enough that it could have passed the threshold).
    private var knownGarbage = 0
    private var measuredAt = 0
    /// The node indexes of the connections pages were merged into (ConnectionIndex.swift).
    let connectionIndexes = ConnectionIndexes()

    /// The share of the arena that may be garbage (values and heap values no record holds: what
    /// a refetch overwrote, what a collection removed) before a write compacts the store; `nil`:
    /// never automatically (`compact()` still does on demand). Default 1/8: the arena stays
    /// within about 1.15× what its records hold.
    public var compactionThreshold: Double? {
        get { source.withReadLock { threshold } }
        set { source.withWriteLock { threshold = newValue.map { min(max($0, 0), 1) } } }
    }
    private var threshold: Double? = 0.125

    public static let rootID = "client:root"

    /// A new store holding only the root record `{"__id": "client:root", "__typename": "__Root"}`.
    public init() {
        guard let source = SourceHandle.create() else { fatalError("RelayArena: out of memory creating a store") }
        self.source = source
        precondition(
            source.ensureRecord(id: Self.rootID, typename: "__Root"), "RelayArena: out of memory creating a store")
    }

    /// Loads relay `RecordSource.toJSON()` JSON (tombstones as `null`).
    public init(relayJSON bytes: some Collection<UInt8>, maxDepth: UInt32 = 1000) throws {
        self.source = try SourceHandle.importJSON(Array(bytes), maxDepth: maxDepth)
    }

    /// Takes a source it then owns (one opened from a snapshot, see Snapshot.swift).
    init(source: SourceHandle) { self.source = source }

    deinit { source.destroy() }

    /// relay `RecordSource.toJSON()` JSON of every record, in their data IDs' order: the order the store first saw
    /// each ID (a loaded file's own order, then what later payloads added).
    public func relayJSON() -> [UInt8] {
        source.withReadLock { source.exportJSON() }
    }

    /// `relayJSON()` and a newline written to `fd` a buffer at a time, never held whole: how the
    /// command line writes a store whose values may be long. Throws `io` when a write fails.
    package func writeRelayJSON(to fd: Int32) throws {
        try source.withReadLock { try source.writeJSON(to: fd) }
    }

    /// Number of data IDs held (records and tombstones).
    public var recordCount: Int {
        source.withReadLock { source.recordCount }
    }

    /// Bytes the arena holds (symbols, records, fields, values), garbage included.
    public var arenaBytes: Int {
        source.withReadLock { source.arenaBytes }
    }

    /// Of `arenaBytes`, the field values that hold no record's field: the values a record left
    /// behind when a refetch gave it more fields than it had room for, and those of a record a
    /// payload made and then dropped (one that gave its fields to the general path while it was
    /// normalized). A store written out and
    /// loaded again (`relayJSON()`, `init(relayJSON:)`) has none. Walks the symbol table (a record is in its ID's entry).
    package var unusedSlotBytes: Int {
        source.withReadLock { source.unusedSlotBytes }
    }

    /// How many record shapes the store holds: a shape is the field keys (and their values' kinds)
    /// that records with the same fields share, so that a record keeps its values alone. It grows
    /// with the kinds of records, not with their number; at most 65,536 (the first has no field).
    package var shapeCount: Int {
        source.withReadLock { source.shapeCount }
    }

    /// Merges a normalized payload (relay's `publish`): returns the data IDs whose record is new
    /// or had some field change. Atomic: on error nothing changed.
    @discardableResult
    public func publish(_ payload: NormalizedPayload) throws -> UpdatedRecordIDs {
        try merge(payload, consuming: false)
    }

    private func merge(_ payload: NormalizedPayload, consuming: Bool) throws -> UpdatedRecordIDs {
        try write { w in
            try w.merge(payload.delta, consuming: consuming)
            return UpdatedRecordIDs(store: self, symbols: w.updated)
        }
    }

    // MARK: The one write

    /// What one write changes, for `write`'s bookkeeping: the merges it made (`merge`, which
    /// reports the records the C merge marked updated) and the other records it changed
    /// (`report`).
    struct Write {
        fileprivate let store: RecordStore
        fileprivate var reported: [UpdatedSymbols] = []
        /// Reported one at a time, after the merges' lists.
        fileprivate var more: [UInt32] = []
        /// Whether anything was written: a write that changed nothing counts for nothing.
        fileprivate(set) var changed = false

        var source: SourceHandle { store.source }

        /// Merges `delta` field by field (relay's publish of a record source). With `consuming`,
        /// a store holding only its root takes the delta's arena (and its symbols' numbering).
        /// The records it marked updated drop the connection indexes that read them and are
        /// reported unless `reporting` is false. Atomic: on error the merge wrote nothing.
        mutating func merge(_ delta: SourceHandle, consuming: Bool, reporting: Bool = true) throws {
            if consuming && source.recordCount <= 1 {
                store.numbering &+= 1
                store.connectionIndexes.dropAll()
            }
            try source.publish(delta, consuming: consuming)
            changed = true
            // Taken, not copied: the store's list for a million records is 8 MB (4 a symbol).
            let updated = source.takeUpdated()
            store.connectionIndexes.observe(updated)
            if reporting { reported.append(updated) }
        }

        /// Says that the write changed the records of `symbols` outside `merge`.
        mutating func report(_ symbols: UpdatedSymbols) {
            guard symbols.count > 0 else { return }
            changed = true
            reported.append(symbols)
        }

        /// Says that the write changed the record of `symbol` outside `merge`.
        mutating func report(_ symbol: UInt32) {
            changed = true
            more.append(symbol)
        }

        /// Says that the write changed records in a way no index can follow (a rollback).
        mutating func dropIndexes() {
            changed = true
            store.connectionIndexes.dropAll()
        }

        /// Every symbol reported so far, in order.
        var updated: UpdatedSymbols {
            if more.isEmpty && reported.count <= 1 { return reported.first ?? UpdatedSymbols(base: nil, count: 0) }
            var all: [UInt32] = []
            all.reserveCapacity(reported.reduce(more.count) { $0 + $1.count })
            for part in reported { for i in 0..<part.count { all.append(part[i]) } }
            all.append(contentsOf: more)
            return UpdatedSymbols(all)
        }
    }

    /// Every write of the store runs here: a merge, a publish with page splices, a rollback, the
    /// publish of another store, an invalidation, an updater's writes, a collection's sweep.
    /// Under the write lock, `body` changes the source through `Write` and says what it
    /// changed; then, once, whether it returned or threw after writing part of it: the write
    /// counter moves on (a collection that marked before it starts again) and the store compacts
    /// when its garbage passed the threshold.
    func write<R>(_ body: (inout Write) throws -> R) throws -> R {
        try source.withWriteLock {
            var w = Write(store: self)
            defer {
                if w.changed {
                    writes &+= 1
                    compactIfPastThreshold()
                }
            }
            return try body(&w)
        }
    }

    /// Normalizes a whole response held in memory and publishes it, its `@connection` fields
    /// merged by relay's connection handler as the environment merges them (`log` hears of a
    /// page dropped because it does not follow its connection). Into a new store the arena the
    /// response normalized into becomes the store's (no second copy).
    @discardableResult
    public func commit(
        response: some Collection<UInt8>, plan: NormalizationPlan, rootID: String = RecordStore.rootID,
        limits: NormalizationLimits = .init(), log: (LogEvent) -> Void = { _ in }
    ) throws -> UpdatedRecordIDs {
        try publishResponse(
            ResponseNormalizer.normalize(response: response, plan: plan, rootID: rootID, limits: limits),
            plan: plan, rootID: rootID, log: log)
    }

    /// Streams a response file in `chunkSize` pieces and publishes it (as `commit(response:)`).
    @discardableResult
    public func commit(
        fileAt path: String, plan: NormalizationPlan, rootID: String = RecordStore.rootID,
        limits: NormalizationLimits = .init(), chunkSize: Int = 64 * 1024, log: (LogEvent) -> Void = { _ in }
    ) throws -> UpdatedRecordIDs {
        try publishResponse(
            ResponseNormalizer.normalize(
                fileAt: path, plan: plan, rootID: rootID, limits: limits,
                chunkSize: chunkSize),
            plan: plan, rootID: rootID, log: log)
    }

    /// Streams a response from a file handle (stdin, a pipe) and publishes it.
    @discardableResult
    public func commit(
        handle: FileHandle, plan: NormalizationPlan, rootID: String = RecordStore.rootID,
        limits: NormalizationLimits = .init(), chunkSize: Int = 64 * 1024, log: (LogEvent) -> Void = { _ in }
    ) throws -> UpdatedRecordIDs {
        try publishResponse(
            ResponseNormalizer.normalize(
                handle: handle, plan: plan, rootID: rootID, limits: limits,
                chunkSize: chunkSize),
            plan: plan, rootID: rootID, log: log)
    }

    /// Publishes a payload no one else holds: a new store takes its arena instead of copying it.
    package func publishConsuming(_ payload: NormalizedPayload) throws -> UpdatedRecordIDs {
        try merge(payload, consuming: true)
    }

    // MARK: Garbage and compaction

    /// Bytes of the arena that no record holds: values a refetch overwrote or moved, and those of
    /// records a collection removed. Walks every record.
    public var garbageBytes: Int {
        source.withReadLock { garbage() }
    }

    private func garbage() -> Int {
        let live = source.liveBytes
        let (vals, heap) = source.arrayBytes
        return max(0, vals - live.vals) + max(0, heap - live.heap)
    }

    /// Rewrites the arena to hold only what records hold; returns the bytes given back. What any
    /// reader sees does not change (it runs under the write lock, as a publish does, and keeps
    /// every symbol's number). Out of memory: an error, the store as it was.
    @discardableResult
    public func compact() throws -> Int {
        try source.withWriteLock { try compactLocked() }
    }

    private func compactLocked() throws -> Int {
        let before = source.arenaBytes
        let edges = source.findSymbol("edges")
        connectionIndexes.revalidate({ source.fieldWord($0, edges) }, moved: false)
        try source.compact()
        connectionIndexes.revalidate({ source.fieldWord($0, edges) }, moved: true)
        writes &+= 1
        knownGarbage = 0
        measuredAt = source.arenaBytes
        return before - measuredAt
    }

    /// After a write (the write lock held): compacts when the garbage passed the threshold.
    /// Measuring walks every record, so it is done only once the arena grew enough since the last
    /// measure for the garbage to have passed it: the check costs what the growth did.
    private func compactIfPastThreshold() {
        guard let threshold else { return }
        let size = source.arenaBytes
        let limit = Int(threshold * Double(size))
        guard knownGarbage + max(0, size - measuredAt) > limit else { return }
        knownGarbage = garbage()
        measuredAt = size
        // Out of memory is no error of the write that finished: the garbage stays until the next.
        if knownGarbage > limit { _ = try? compactLocked() }
    }

    /// relay's garbage collection (`_collect`): marks every record that `roots` reach through
    /// their operations' normalization selections (and the records of `keeping`), then removes
    /// every other record: their data IDs become unknown (not deleted). Marking runs under a read
    /// snapshot, so readers go on meanwhile; the sweep takes the write lock as briefly as a small
    /// publish, and a write that landed in between starts the marking again. Returns the data IDs
    /// removed, in the store's order (made into strings only when read). With no roots and nothing kept, every record goes (relay's
    /// rule: `client:root` is no exception).
    /// While an optimistic update is applied (or anything else holds it), a collection removes
    /// nothing (relay's `__gc()` returns at once while optimistic updates are applied): records
    /// only the layer reaches would otherwise go, and its rollback would bring back records whose
    /// referents were collected. The environment holds it for its optimistic updates.
    public func holdCollection() -> Disposable {
        source.withWriteLock { collectionHolds += 1 }
        return Disposable { self.source.withWriteLock { self.collectionHolds -= 1 } }
    }

    @discardableResult
    public func collectGarbage(
        roots: [(operation: OperationArtifact, variables: Variables)], keeping kept: [String] = []
    ) throws -> RemovedRecordIDs {
        while true {
            if let removed = try sweep(mark(roots: roots, keeping: kept)) { return removed }
        }
    }

    /// What a collection keeps, marked under a read snapshot (`collectGarbage`'s first half, for a
    /// caller that marks on one thread and sweeps on another).
    public func mark(
        roots: [(operation: OperationArtifact, variables: Variables)], keeping kept: [String] = []
    ) -> CollectionMark {
        withSnapshot { s in
            var marker = ReferenceMarker(snapshot: s, symbolBound: source.symbolBound)
            for root in roots { marker.mark(operation: root.operation, variables: root.variables) }
            for dataID in kept { if let symbol = s.symbol(dataID) { marker.mark(symbol) } }
            return CollectionMark(marked: marker.marked, version: writes)
        }
    }

    /// Removes every record `mark` did not keep, unless the store was written since it was made:
    /// then `nil` (mark again). Returns the data IDs removed, in the store's order.
    public func sweep(_ mark: CollectionMark) throws -> RemovedRecordIDs? {
        try write { (w: inout Write) -> RemovedRecordIDs? in
            guard writes == mark.version else { return nil }
            guard collectionHolds == 0 else {
                return RemovedRecordIDs(store: self, symbols: UpdatedSymbols(base: nil, count: 0))
            }
            let symbols = try w.source.removeUnmarked(mark.marked)
            connectionIndexes.observe(symbols)
            w.report(symbols)
            // The removed IDs stay interned (symbols are kept), so their texts are there to read.
            return RemovedRecordIDs(store: self, symbols: symbols)
        }
    }

    /// Whether a page merged into a connection is decided by the connection's node index (the
    /// default) or by reading its edges, as relay does (the tests compare the two).
    package var mergesPagesByIndex: Bool {
        get { connectionIndexes.enabled }
        set { connectionIndexes.enabled = newValue }
    }
    /// How many connections have a node index now.
    package var indexedConnectionCount: Int { connectionIndexes.count }

    /// Publishes an updater's writes (`delta`) and the pages the connection handler merged in the
    /// arena (`splices`: each list becomes the splice's `front`, its items, then `back`), as one
    /// write. A list may have moved since its merge was decided (a collection or compaction
    /// on another thread: they move values, they do not change this list), so the page goes
    /// where the list is now. With `extendingIndexes`, a list's node index (if it described the
    /// list) takes the page's edges and nodes; without (an updater ran after the merge and may
    /// have changed them), the index is dropped.
    func publish(_ delta: NormalizedPayload?, splices: [ConnectionSplice], extendingIndexes: Bool) throws
        -> UpdatedRecordIDs
    {
        try write { w in
            var lists: [(record: UInt32, key: UInt32)] = []
            for splice in splices {
                let record = source.findSymbol(splice.dataID)
                let key = source.findSymbol(splice.key)
                guard record != 0, key != 0, source.fieldWord(record, key) != 0 else {
                    throw RelayArenaError(
                        code: .misuse,
                        message: "the connection \(splice.dataID) lost its edges while a page was merged into it: "
                            + "nothing was written")
                }
                lists.append((record, key))
            }
            if let delta { try w.merge(delta.delta, consuming: false) }
            for (splice, list) in zip(splices, lists) {
                // (The page's edges are the delta's records.)
                let front = splice.front.map { source.findSymbol($0) }
                let back = splice.back.map { source.findSymbol($0) }
                guard !front.contains(0), !back.contains(0) else {
                    throw RelayArenaError(
                        code: .misuse, message: "a page merged into \(splice.dataID) names records the store lacks")
                }
                let before = source.fieldWord(list.record, list.key)
                try source.spliceLinks(list.record, list.key, front: front, back: back)
                w.report(list.record)
                if extendingIndexes {
                    connectionIndexes.extend(
                        list.record, from: before, to: source.fieldWord(list.record, list.key),
                        edges: front + back, nodes: splice.nodes.map { source.findSymbol($0) }.filter { $0 != 0 })
                } else {
                    connectionIndexes.drop(list.record)
                }
            }
            return UpdatedRecordIDs(store: self, symbols: w.updated)
        }
    }

    /// Changes when symbols held from an earlier snapshot may name other things now.
    var symbolNumbering: Int { source.withReadLock { numbering } }

    func lockedSymbolText(_ sym: UInt32) -> String {
        source.withReadLock { source.symbolString(sym) }
    }
}

/// The data IDs a collection removed, in the store's order; strings are made on access.
public typealias RemovedRecordIDs = UpdatedRecordIDs

/// The records a collection keeps (`RecordStore.mark`), and the write it saw last.
public struct CollectionMark: Sendable {
    let marked: [UInt64]
    let version: Int
}

extension UpdatedRecordIDs {
    /// No data ID: what a write that changes nothing a reader selects (an invalidation) notifies with.
    public static func none(in store: RecordStore) -> UpdatedRecordIDs {
        UpdatedRecordIDs(store: store, symbols: UpdatedSymbols(base: nil, count: 0))
    }
}

/// The data IDs a publish marked updated, in publish order. Strings are made on access, so a
/// large ingest pays for none it does not look at.
public struct UpdatedRecordIDs: RandomAccessCollection, Sendable, CustomStringConvertible {
    let store: RecordStore
    let symbols: UpdatedSymbols
    public var startIndex: Int { 0 }
    public var endIndex: Int { symbols.count }
    public subscript(i: Int) -> String { store.lockedSymbolText(symbols[i]) }
    public var description: String { Array(self).description }
}
