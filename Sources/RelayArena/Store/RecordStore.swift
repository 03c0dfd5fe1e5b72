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
    public var unusedSlotBytes: Int {
        source.withReadLock { source.unusedSlotBytes }
    }

    /// How many record shapes the store holds: a shape is the field keys (and their values' kinds)
    /// that records with the same fields share, so that a record keeps its values alone. It grows
    /// with the kinds of records, not with their number; at most 65,536 (the first has no field).
    public var shapeCount: Int {
        source.withReadLock { source.shapeCount }
    }

    /// Merges a normalized payload (relay's `publish`): returns the data IDs whose record is new
    /// or had some field change. Atomic: on error nothing changed.
    @discardableResult
    public func publish(_ payload: NormalizedPayload) throws -> UpdatedRecordIDs {
        try merge(payload, consuming: false)
    }

    /// Runs one merge under the write lock and collects the data IDs it marked updated.
    private func merge(_ payload: NormalizedPayload, consuming: Bool) throws -> UpdatedRecordIDs {
        try source.withWriteLock {
            if consuming && source.recordCount <= 1 { numbering &+= 1 }
            try source.publish(payload.delta, consuming: consuming)
            // Taken, not copied: the store's list for a million records is 8 MB (4 a symbol).
            return UpdatedRecordIDs(store: self, symbols: source.takeUpdated())
        }
    }

    /// Normalizes a whole response held in memory and publishes it. Into a new store the arena
    /// the response normalized into becomes the store's (no second copy).
    @discardableResult
    public func commit(
        response: some Collection<UInt8>, plan: NormalizationPlan, rootID: String = RecordStore.rootID,
        limits: NormalizationLimits = .init()
    ) throws -> UpdatedRecordIDs {
        let normalizer = try ResponseNormalizer(
            plan: plan, rootID: rootID, limits: limits, expectedBytes: response.count)
        try normalizer.feed(response)
        return try publishConsuming(normalizer.finish())
    }

    /// Streams a response file in `chunkSize` pieces and publishes it (as `commit(response:)`).
    @discardableResult
    public func commit(
        fileAt path: String, plan: NormalizationPlan, rootID: String = RecordStore.rootID,
        limits: NormalizationLimits = .init(), chunkSize: Int = 64 * 1024
    ) throws -> UpdatedRecordIDs {
        try publishConsuming(
            ResponseNormalizer.normalize(
                fileAt: path, plan: plan, rootID: rootID, limits: limits,
                chunkSize: chunkSize))
    }

    /// Streams a response from a file handle (stdin, a pipe) and publishes it.
    @discardableResult
    public func commit(
        handle: FileHandle, plan: NormalizationPlan, rootID: String = RecordStore.rootID,
        limits: NormalizationLimits = .init(), chunkSize: Int = 64 * 1024
    ) throws -> UpdatedRecordIDs {
        try publishConsuming(
            ResponseNormalizer.normalize(
                handle: handle, plan: plan, rootID: rootID, limits: limits,
                chunkSize: chunkSize))
    }

    /// Publishes a payload no one else holds: a new store takes its arena instead of copying it.
    package func publishConsuming(_ payload: NormalizedPayload) throws -> UpdatedRecordIDs {
        try merge(payload, consuming: true)
    }

    /// Changes when symbols held from an earlier snapshot may name other things now.
    var symbolNumbering: Int { source.withReadLock { numbering } }

    func lockedSymbolText(_ sym: UInt32) -> String {
        source.withReadLock { source.symbolString(sym) }
    }
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
