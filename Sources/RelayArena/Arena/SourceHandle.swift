// The C record source (`ra_source`, a store or a payload's delta) behind one handle: every call
// into it from Swift is here, so the rest of the runtime holds no C pointer.
internal import CRelayArena
import Foundation

/// Owns nothing by itself: its owner (`RecordStore`, `NormalizedPayload`) calls `destroy()` once.
struct SourceHandle {
    private let raw: OpaquePointer

    private init(_ raw: OpaquePointer) { self.raw = raw }

    /// An empty source; `nil` when out of memory.
    static func create() -> SourceHandle? { ra_source_create().map(SourceHandle.init) }

    /// A source loaded from relay toJSON text.
    static func importJSON(_ bytes: [UInt8], maxDepth: UInt32) throws -> SourceHandle {
        var err = ra_error()
        let raw = bytes.withUnsafeBufferPointer { ra_source_import_json($0.baseAddress, $0.count, maxDepth, &err) }
        guard let raw else { throw RelayArenaError(err) }
        return SourceHandle(raw)
    }

    /// A source opened from a snapshot file (read into memory it owns, verified, its arrays used there).
    static func openSnapshot(_ path: String) throws -> SourceHandle {
        var err = ra_error()
        guard let raw = ra_source_open_snapshot(path, &err) else { throw RelayArenaError(snapshot: err, path: path) }
        return SourceHandle(raw)
    }

    /// Writes the source as a snapshot file, atomically (caller holds the lock when shared).
    /// Whether `prefix` begins as a snapshot file does (its magic number).
    static func isSnapshot(_ prefix: [UInt8]) -> Bool {
        prefix.withUnsafeBufferPointer { ra_snapshot_sniff($0.baseAddress, $0.count) }
    }

    /// Rewrites a snapshot's checksum after its bytes were changed (tests: the checks past it).
    static func fixSnapshotChecksum(_ bytes: inout [UInt8]) {
        _ = bytes.withUnsafeMutableBufferPointer { ra_snapshot_fix_checksum($0.baseAddress!, $0.count) }
    }

    func writeSnapshot(_ path: String) throws {
        var err = ra_error()
        guard ra_source_write_snapshot(raw, path, &err) == RA_OK else {
            throw RelayArenaError(snapshot: err, path: path)
        }
    }

    /// Wraps the delta a normalizer handed over (see `NormalizerHandle.finish`).
    static func adopting(_ raw: OpaquePointer) -> SourceHandle { SourceHandle(raw) }

    func destroy() { ra_source_destroy(raw) }

    /// How often the probe bound gave the source a fresh hash key, and the index slots its
    /// inserts passed in all (tests of hash flooding).
    var hashStats: (rekeys: UInt32, probes: UInt64) { (ra_source_rekey_count(raw), ra_source_probe_count(raw)) }

    /// Fixes the hash key that sources made from now on take (tests and benchmarks that play an
    /// attacker who knows it).
    static func setHashKey(_ k0: UInt64, _ k1: UInt64) { ra_set_hash_key(k0, k1) }

    /// Adds (or keeps) a record; false when out of memory or past a limit.
    func ensureRecord(id: String, typename: String) -> Bool {
        var id = id
        var typename = typename
        return id.withUTF8 { i in
            typename.withUTF8 { t in
                i.withMemoryRebound(to: CChar.self) { i in
                    t.withMemoryRebound(to: CChar.self) { t in
                        ra_source_ensure_record(raw, i.baseAddress!, i.count, t.baseAddress!, t.count) == RA_OK
                    }
                }
            }
        }
    }

    // MARK: Locks (the store's; a payload's source is never shared)

    func withReadLock<R>(_ body: () throws -> R) rethrows -> R {
        ra_source_read_lock(raw)
        defer { ra_source_unlock(raw) }
        return try body()
    }

    func withWriteLock<R>(_ body: () throws -> R) rethrows -> R {
        ra_source_write_lock(raw)
        defer { ra_source_unlock(raw) }
        return try body()
    }

    /// Runs `body` under the read lock with a reader whose values trap once `body` returned.
    func withSnapshotReader<R>(_ body: (SnapshotReader) throws -> R) rethrows -> R {
        ra_source_read_lock(raw)
        let (lease, token) = SnapshotLease.open()
        defer {
            SnapshotLease.close(lease)
            ra_source_unlock(raw)
        }
        return try body(SnapshotReader(raw: raw, token: token))
    }

    // MARK: Figures (callers hold the lock when the source is shared)

    var recordCount: Int { Int(ra_source_record_count(raw)) }
    var arenaBytes: Int { Int(ra_source_arena_bytes(raw)) }
    var unusedSlotBytes: Int { Int(ra_source_unused_slot_bytes(raw)) }
    var shapeCount: Int { Int(ra_source_shape_count(raw)) }

    /// relay toJSON text of the whole source; traps when out of memory.
    func exportJSON() -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>? = nil
        var len = 0
        guard ra_source_export_json(raw, &out, &len) == RA_OK, let out else {
            fatalError("RelayArena: out of memory exporting a store")
        }
        defer { ra_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: len))
    }

    /// Writes relay toJSON text of the whole source and a newline to `fd`, a buffer at a time
    /// (caller holds the lock when shared).
    func writeJSON(to fd: Int32) throws {
        var error: Int32 = 0
        let status = ra_source_write_json(raw, fd, &error)
        if status == RA_ERR_IO {
            throw RelayArenaError(code: .io, message: "cannot write: \(String(cString: strerror(error)))")
        }
        guard status == RA_OK else {
            throw RelayArenaError(code: .outOfMemory, message: "out of memory writing a store")
        }
    }

    /// The text of a symbol as a `String` (caller holds the lock when shared).
    func symbolString(_ symbol: UInt32) -> String {
        let r = ra_source_symbol_text(raw, symbol)
        guard let p = r.ptr else { return "" }
        return String(decoding: UnsafeBufferPointer(start: p, count: r.len), as: UTF8.self)
    }

    // MARK: Publish (caller holds the write lock)

    /// Merges `delta` field by field; with `consuming`, a store holding only its root takes the
    /// delta's arena instead of copying it.
    func publish(_ delta: SourceHandle, consuming: Bool) throws {
        var err = ra_error()
        let status =
            consuming ? ra_source_publish_consuming(raw, delta.raw, &err) : ra_source_publish(raw, delta.raw, &err)
        guard status == RA_OK else { throw RelayArenaError(err, aboutInput: false) }
    }

    // MARK: Lifecycle (caller holds the write lock; liveBytes: the read lock)

    /// Symbols are 1 ..< symbolBound.
    var symbolBound: Int { Int(ra_source_symbol_bound(raw)) }

    /// Removes the record of every data ID whose bit is not set; returns their symbols.
    func removeUnmarked(_ marked: [UInt64]) throws -> UpdatedSymbols {
        var removed: UnsafeMutablePointer<UInt32>? = nil
        var count: UInt32 = 0
        let status = marked.withUnsafeBufferPointer { words in
            ra_source_remove_unmarked(
                raw, words.baseAddress ?? UnsafePointer(bitPattern: 8)!, UInt32(words.count), &removed, &count)
        }
        guard status == RA_OK else {
            throw RelayArenaError(code: .outOfMemory, message: "out of memory collecting garbage")
        }
        return UpdatedSymbols(base: removed, count: Int(count))
    }

    /// The symbol of `text`, 0 when never interned (caller holds the lock when shared).
    func findSymbol(_ text: String) -> UInt32 {
        var text = text
        return text.withUTF8 { t in
            t.withMemoryRebound(to: CChar.self) { c in
                guard let base = c.baseAddress else { return ra_source_find_symbol(raw, "", 0) }
                return ra_source_find_symbol(raw, base, c.count)
            }
        }
    }

    /// The data IDs of every record (and tombstone), in data-ID order.
    func recordIDs() -> [String] {
        var ids: [String] = []
        let bound = ra_source_symbol_bound(raw)
        var symbol: UInt32 = 1
        while symbol < bound {
            var id: UInt32 = 0
            var type: UInt32 = 0
            var count: UInt32 = 0
            if ra_source_record_at(raw, symbol, &id, &type, &count) != 0 { ids.append(symbolString(id)) }
            symbol += 1
        }
        return ids
    }

    /// The value word of a record's field (0: none; caller holds the lock when shared).
    func fieldWord(_ record: UInt32, _ key: UInt32) -> UInt64 { ra_source_record_field(raw, record, key) }

    /// Writes the record's link list `key` as `front`, its items, `back` (the caller holds the
    /// write lock): a page merged into a connection, in place when the list has room.
    func spliceLinks(_ record: UInt32, _ key: UInt32, front: [UInt32], back: [UInt32]) throws {
        let status = front.withUnsafeBufferPointer { f in
            back.withUnsafeBufferPointer { b in
                ra_source_splice_refs(raw, record, key, f.baseAddress, UInt32(f.count), b.baseAddress, UInt32(b.count))
            }
        }
        switch status {
        case RA_OK: return
        case RA_ERR_NOMEM: throw RelayArenaError(code: .outOfMemory, message: "out of memory merging a page")
        case RA_ERR_LIMIT:
            throw RelayArenaError(code: .limit, message: "merging a page would take the store's heap past 4 GiB")
        default: throw RelayArenaError(code: .misuse, message: "no link list to merge a page into")
        }
    }

    /// Removes the records of `symbols` (their IDs become unknown, their values garbage).
    func removeRecords(_ symbols: [UInt32]) throws {
        let status = symbols.withUnsafeBufferPointer { ra_source_remove_records(raw, $0.baseAddress, UInt32($0.count)) }
        guard status == RA_OK else {
            throw RelayArenaError(code: .outOfMemory, message: "out of memory removing records")
        }
    }

    /// relay toJSON text of the records of `symbols` alone (caller holds the lock when shared).
    func exportJSON(records symbols: [UInt32]) throws -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>? = nil
        var len = 0
        let status = symbols.withUnsafeBufferPointer {
            ra_source_export_records_json(raw, $0.baseAddress, UInt32($0.count), &out, &len)
        }
        guard status == RA_OK, let out else {
            throw RelayArenaError(code: .outOfMemory, message: "out of memory copying records")
        }
        defer { ra_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: len))
    }

    /// Bytes of the values array and the heap as they are, garbage included.
    var arrayBytes: (vals: Int, heap: Int) {
        var vals: UInt64 = 0
        var heap: UInt64 = 0
        ra_source_array_bytes(raw, &vals, &heap)
        return (Int(vals), Int(heap))
    }

    /// Bytes of values and heap values that records hold.
    var liveBytes: (vals: Int, heap: Int) {
        var vals: UInt64 = 0
        var heap: UInt64 = 0
        ra_source_live_bytes(raw, &vals, &heap)
        return (Int(vals), Int(heap))
    }

    func compact() throws {
        guard ra_source_compact(raw) == RA_OK else {
            throw RelayArenaError(code: .outOfMemory, message: "out of memory compacting the store")
        }
    }

    /// The data IDs the last publishes marked updated, taken (not copied) from the store.
    func takeUpdated() -> UpdatedSymbols {
        var n: UInt32 = 0
        let taken = ra_source_take_updated(raw, &n)
        return UpdatedSymbols(base: taken, count: Int(n))
    }
}
