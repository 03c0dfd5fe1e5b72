// The store: one arena-backed record source behind a readers-writer lock. Publishing merges a
// normalized payload field by field; reads see either the state before or after a publish.
import Foundation
internal import CRelayArena

/// A normalized record store (relay-runtime's RecordSource + publish), held in one arena.
///
/// One writer and any number of concurrent readers: `publish` takes the write lock, reads take
/// the read lock, so a reader never sees half a payload.
public final class RecordStore: @unchecked Sendable {
    let raw: OpaquePointer

    public static let rootID = "client:root"

    /// A new store holding only the root record `{"__id": "client:root", "__typename": "__Root"}`.
    public init() {
        guard let raw = ra_source_create() else { fatalError("RelayArena: out of memory creating a store") }
        self.raw = raw
        let status = Self.rootID.withCString { id in "__Root".withCString { t in ra_source_ensure_record(raw, id, strlen(id), t, 6) } }
        precondition(status == RA_OK, "RelayArena: out of memory creating a store")
    }

    /// Loads relay `RecordSource.toJSON()` JSON (tombstones as `null`).
    public init(relayJSON bytes: some Collection<UInt8>, maxDepth: UInt32 = 1000) throws {
        var err = ra_error()
        let contiguous = Array(bytes)
        let raw = contiguous.withUnsafeBufferPointer { ra_source_import_json($0.baseAddress, $0.count, maxDepth, &err) }
        guard let raw else { throw RelayArenaError(err) }
        self.raw = raw
    }

    deinit { ra_source_destroy(raw) }

    /// relay `RecordSource.toJSON()` JSON of every record, in their data IDs' order: the order the store first saw
    /// each ID (a loaded file's own order, then what later payloads added).
    public func relayJSON() -> [UInt8] {
        ra_source_read_lock(raw)
        defer { ra_source_unlock(raw) }
        var out: UnsafeMutablePointer<UInt8>? = nil
        var len = 0
        guard ra_source_export_json(raw, &out, &len) == RA_OK, let out else {
            fatalError("RelayArena: out of memory exporting a store")
        }
        defer { ra_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: len))
    }

    /// Number of data IDs held (records and tombstones).
    public var recordCount: Int {
        ra_source_read_lock(raw)
        defer { ra_source_unlock(raw) }
        return Int(ra_source_record_count(raw))
    }

    /// Bytes the arena holds (symbols, records, fields, values), garbage included.
    public var arenaBytes: Int {
        ra_source_read_lock(raw)
        defer { ra_source_unlock(raw) }
        return Int(ra_source_arena_bytes(raw))
    }

    /// Of `arenaBytes`, the field values that hold no record's field: the values a record left
    /// behind when a refetch gave it more fields than it had room for, and those of a record a
    /// payload made and then dropped (one that gave its fields to the general path while it was
    /// normalized). A store written out and
    /// loaded again (`relayJSON()`, `init(relayJSON:)`) has none. Walks the symbol table (a record is in its ID's entry).
    public var unusedSlotBytes: Int {
        ra_source_read_lock(raw)
        defer { ra_source_unlock(raw) }
        return Int(ra_source_unused_slot_bytes(raw))
    }

    /// How many record shapes the store holds: a shape is the field keys (and their values' kinds)
    /// that records with the same fields share, so that a record keeps its values alone. It grows
    /// with the kinds of records, not with their number; at most 65,536 (the first has no field).
    public var shapeCount: Int {
        ra_source_read_lock(raw)
        defer { ra_source_unlock(raw) }
        return Int(ra_source_shape_count(raw))
    }

    /// Merges a normalized payload (relay's `publish`): returns the data IDs whose record is new
    /// or had some field change. Atomic: on error nothing changed.
    @discardableResult
    public func publish(_ payload: NormalizedPayload) throws -> UpdatedRecordIDs {
        try merge { ra_source_publish(raw, payload.delta, &$0) }
    }

    /// Runs one C merge under the write lock and collects the data IDs it marked updated.
    private func merge(_ body: (inout ra_error) -> ra_status) throws -> UpdatedRecordIDs {
        ra_source_write_lock(raw)
        defer { ra_source_unlock(raw) }
        var err = ra_error()
        guard body(&err) == RA_OK else { throw RelayArenaError(err, aboutInput: false) }
        // Taken, not copied: the store's list for a million records is 8 MB (4 a symbol).
        var n: UInt32 = 0
        let taken = ra_source_take_updated(raw, &n)
        return UpdatedRecordIDs(store: self, symbols: UpdatedSymbols(base: taken, count: Int(n)))
    }

    /// Normalizes a whole response held in memory and publishes it. Into a new store the arena
    /// the response normalized into becomes the store's (no second copy).
    @discardableResult
    public func commit(response: some Collection<UInt8>, plan: NormalizationPlan, rootID: String = RecordStore.rootID,
                       limits: NormalizationLimits = .init()) throws -> UpdatedRecordIDs {
        let normalizer = try ResponseNormalizer(plan: plan, rootID: rootID, limits: limits, expectedBytes: response.count)
        try normalizer.feed(response)
        return try publishConsuming(normalizer.finish())
    }

    /// Streams a response file in `chunkSize` pieces and publishes it (as `commit(response:)`).
    @discardableResult
    public func commit(fileAt path: String, plan: NormalizationPlan, rootID: String = RecordStore.rootID,
                       limits: NormalizationLimits = .init(), chunkSize: Int = 64 * 1024) throws -> UpdatedRecordIDs {
        try publishConsuming(ResponseNormalizer.normalize(fileAt: path, plan: plan, rootID: rootID, limits: limits,
                                                          chunkSize: chunkSize))
    }

    /// Streams a response from a file handle (stdin, a pipe) and publishes it.
    @discardableResult
    public func commit(handle: FileHandle, plan: NormalizationPlan, rootID: String = RecordStore.rootID,
                       limits: NormalizationLimits = .init(), chunkSize: Int = 64 * 1024) throws -> UpdatedRecordIDs {
        try publishConsuming(ResponseNormalizer.normalize(handle: handle, plan: plan, rootID: rootID, limits: limits,
                                                          chunkSize: chunkSize))
    }

    /// Publishes a payload no one else holds: a new store takes its arena instead of copying it.
    func publishConsuming(_ payload: NormalizedPayload) throws -> UpdatedRecordIDs {
        try merge { ra_source_publish_consuming(raw, payload.delta, &$0) }
    }

    func lockedSymbolText(_ sym: UInt32) -> String {
        ra_source_read_lock(raw)
        defer { ra_source_unlock(raw) }
        return symbolText(sym)
    }

    func symbolText(_ sym: UInt32) -> String {
        let r = ra_source_symbol_text(raw, sym)
        guard let p = r.ptr else { return "" }
        return String(decoding: UnsafeBufferPointer(start: p, count: r.len), as: UTF8.self)
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

/// The symbols a publish updated, in the array the store handed over (ra_source_take_updated),
/// freed with the last UpdatedRecordIDs that holds them. Never written after it is made.
final class UpdatedSymbols: @unchecked Sendable {
    private let base: UnsafeMutablePointer<UInt32>?
    let count: Int
    init(base: UnsafeMutablePointer<UInt32>?, count: Int) {
        self.base = base
        self.count = count
    }
    subscript(i: Int) -> UInt32 {
        precondition(i >= 0 && i < count, "index out of range")
        return base![i]
    }
    deinit { ra_free(base) }
}
