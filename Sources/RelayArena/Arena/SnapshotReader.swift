// The read side of a source under its read lock: lookups and field values for `StoreSnapshot`,
// each checked against the snapshot's lifetime first, so an escaped snapshot traps.
internal import CRelayArena

struct SnapshotReader {
    private let raw: OpaquePointer
    let token: SnapshotToken

    init(raw: OpaquePointer, token: SnapshotToken) {
        self.raw = raw
        self.token = token
    }

    /// The symbol of `text`, 0 when it was never interned.
    func findSymbol(_ text: String) -> UInt32 {
        token.check()
        var t = text
        return t.withUTF8 { u in
            u.withMemoryRebound(to: CChar.self) { c in
                // An empty buffer may have no address; "" is never a symbol anyway.
                guard let base = c.baseAddress else { return "".withCString { ra_source_find_symbol(raw, $0, 0) } }
                return ra_source_find_symbol(raw, base, c.count)
            }
        }
    }

    /// The symbol of a literal storage key, 0 when it was never interned.
    func findSymbol(_ literal: StaticString) -> UInt32 {
        token.check()
        return literal.withUTF8Buffer { u in
            u.withMemoryRebound(to: CChar.self) { c in
                guard let base = c.baseAddress else { return 0 }
                return ra_source_find_symbol(raw, base, c.count)
            }
        }
    }

    func symbolText(_ symbol: UInt32) -> BorrowedUTF8 {
        token.check()
        let r = ra_source_symbol_text(raw, symbol)
        return BorrowedUTF8(base: UnsafeRawPointer(r.ptr), count: r.len, token: token)
    }

    /// The record index of a data ID's symbol, nil when unknown.
    func recordIndex(for symbol: UInt32) -> UInt32? {
        token.check()
        let i = ra_source_record_for_symbol(raw, symbol)
        return i >= 0 ? UInt32(i) : nil
    }

    /// The record of a data ID's symbol and its type symbol (0: a tombstone), nil when unknown:
    /// `recordIndex(for:)` and `record(at:)` with one check, for the per-record read path.
    @inline(__always)
    func record(for symbol: UInt32) -> (index: UInt32, type: UInt32)? {
        token.check()
        let i = ra_source_record_for_symbol(raw, symbol)
        guard i >= 0 else { return nil }
        var idSym: UInt32 = 0
        var typeSym: UInt32 = 0
        var count: UInt32 = 0
        guard ra_source_record_at(raw, UInt32(i), &idSym, &typeSym, &count) != 0 else { return nil }
        return (UInt32(i), typeSym)
    }

    /// A record's data ID and type symbols (type 0: a tombstone); nil when there is no record.
    func record(at index: UInt32) -> (id: UInt32, type: UInt32)? {
        token.check()
        var idSym: UInt32 = 0
        var typeSym: UInt32 = 0
        var count: UInt32 = 0
        guard ra_source_record_at(raw, index, &idSym, &typeSym, &count) != 0 else { return nil }
        return (idSym, typeSym)
    }

    /// The value stored under `key` on the record, nil when absent.
    @inline(__always)
    func field(_ index: UInt32, _ key: UInt32) -> FieldValue? {
        token.check()
        return decode(ra_source_record_field(raw, index, key))
    }

    /// The storage-key symbols of a record's fields, in its order (its own `id` aside).
    func fieldKeys(_ index: UInt32) -> [UInt32] {
        token.check()
        var idSym: UInt32 = 0
        var typeSym: UInt32 = 0
        var count: UInt32 = 0
        guard ra_source_record_at(raw, index, &idSym, &typeSym, &count) != 0 else { return [] }
        return (0..<count).map { i in
            var key: UInt32 = 0
            var value: UInt64 = 0
            ra_source_record_field_at(raw, index, i, &key, &value)
            return key
        }
    }

    /// The `i`th data ID symbol of a link list value (0 for a null entry).
    func link(_ value: UInt64, at i: Int) -> UInt32 {
        token.check()
        return ra_source_refs_at(raw, value, UInt32(i))
    }

    /// The one place a value word is decoded (its tag and payload through the C core's helpers).
    @inline(__always)
    private func decode(_ v: UInt64) -> FieldValue? {
        func bytes() -> BorrowedUTF8 {
            let r = ra_source_value_bytes(raw, v)
            return BorrowedUTF8(base: UnsafeRawPointer(r.ptr), count: r.len, token: token)
        }
        switch Int(ra_value_tag(v)) {
        case Int(RA_TAG_NULL): return .null
        case Int(RA_TAG_TRUE): return .bool(true)
        case Int(RA_TAG_FALSE): return .bool(false)
        case Int(RA_TAG_INT): return .int(ra_value_int(v))
        case Int(RA_TAG_NUMBER):
            let text = bytes()
            return text.integer.map(FieldValue.int) ?? .number(text)
        case Int(RA_TAG_STRING), Int(RA_TAG_IDSTR): return .string(bytes())
        case Int(RA_TAG_JSON): return .json(bytes())
        case Int(RA_TAG_REF): return .link(StoreSymbol(raw: UInt32(truncatingIfNeeded: ra_value_payload(v))))
        case Int(RA_TAG_REFS): return .links(LinkList(reader: self, value: v, count: Int(ra_source_refs_count(raw, v))))
        default: return nil
        }
    }
}
