// Zero-copy access to records under the store's read lock: one lookup primitive (a record's
// field by storage key) and values that borrow the arena's bytes.
internal import CRelayArena

/// UTF-8 (or JSON / number text) borrowed from the arena, valid inside `withSnapshot` only.
public struct BorrowedUTF8: Equatable, CustomStringConvertible {
    public let bytes: UnsafeRawBufferPointer
    /// Makes a `String` (one allocation); the hot path can compare or scan `bytes` instead.
    public var string: String { String(decoding: bytes, as: UTF8.self) }
    public var description: String { string }
    public static func == (a: BorrowedUTF8, b: BorrowedUTF8) -> Bool { a.bytes.elementsEqual(b.bytes) }
    public static func == (a: BorrowedUTF8, b: String) -> Bool {
        var s = b
        return s.withUTF8 { a.bytes.elementsEqual(UnsafeRawBufferPointer($0)) }
    }
}

/// An interned name (data ID or storage key) of one store.
public struct StoreSymbol: Hashable, Sendable {
    let raw: UInt32
}

/// A record's position in the arena.
public struct RecordRef: Hashable, Sendable {
    let index: UInt32
}

public enum RecordState {
    case unknown
    case deleted
    case record(RecordRef)
}

/// A field value as stored.
public enum FieldValue {
    case null
    case bool(Bool)
    case int(Int64)
    /// A number that is not an integer of up to 17 digits, as received.
    case number(BorrowedUTF8)
    case string(BorrowedUTF8)
    /// A list of scalars or a custom scalar, as minified JSON text.
    case json(BorrowedUTF8)
    case link(StoreSymbol)
    case links(LinkList)
}

public struct LinkList: RandomAccessCollection {
    let source: OpaquePointer
    let value: UInt64
    public let count: Int
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    /// The linked data ID, `nil` for a null entry.
    public subscript(i: Int) -> StoreSymbol? {
        precondition(i >= 0 && i < count, "LinkList index out of range")
        let s = ra_source_refs_at(source, value, UInt32(i))
        return s == 0 ? nil : StoreSymbol(raw: s)
    }
}

/// Read access to a store while its read lock is held (see `RecordStore.withSnapshot`).
public struct StoreSnapshot {
    let source: OpaquePointer

    public func symbol(_ text: String) -> StoreSymbol? {
        var t = text
        let s = t.withUTF8 { u -> UInt32 in
            guard let base = u.baseAddress else { return "".withCString { ra_source_find_symbol(source, $0, 0) } }
            return base.withMemoryRebound(to: CChar.self, capacity: u.count) { ra_source_find_symbol(source, $0, u.count) }
        }
        return s == 0 ? nil : StoreSymbol(raw: s)
    }

    public func text(_ symbol: StoreSymbol) -> BorrowedUTF8 {
        let r = ra_source_symbol_text(source, symbol.raw)
        return BorrowedUTF8(bytes: UnsafeRawBufferPointer(start: r.ptr, count: r.len))
    }

    public func record(_ id: StoreSymbol) -> RecordState {
        let i = ra_source_record_for_symbol(source, id.raw)
        guard i >= 0 else { return .unknown }
        var idSym: UInt32 = 0, typeSym: UInt32 = 0, count: UInt32 = 0
        guard ra_source_record_at(source, UInt32(i), &idSym, &typeSym, &count) != 0 else { return .unknown }
        return typeSym == 0 ? .deleted : .record(RecordRef(index: UInt32(i)))
    }

    public func record(_ id: String) -> RecordState {
        guard let s = symbol(id) else { return .unknown }
        return record(s)
    }

    public func id(of record: RecordRef) -> StoreSymbol {
        var idSym: UInt32 = 0, typeSym: UInt32 = 0, count: UInt32 = 0
        _ = ra_source_record_at(source, record.index, &idSym, &typeSym, &count)
        return StoreSymbol(raw: idSym)
    }

    public func typename(of record: RecordRef) -> BorrowedUTF8 {
        var idSym: UInt32 = 0, typeSym: UInt32 = 0, count: UInt32 = 0
        _ = ra_source_record_at(source, record.index, &idSym, &typeSym, &count)
        return text(StoreSymbol(raw: typeSym))
    }

    /// The value stored under `key`, `nil` when the field is absent (never fetched).
    public func field(_ record: RecordRef, _ key: StoreSymbol) -> FieldValue? {
        decode(ra_source_record_field(source, record.index, key.raw))
    }

    public func field(_ record: RecordRef, _ key: String) -> FieldValue? {
        guard let k = symbol(key) else { return nil }
        return field(record, k)
    }

    /// An integer of up to 17 digits: the arena keeps those outside 32 bits as their text (a field
    /// slot's payload is 32 bits), and they read as `.int` all the same.
    static func integer(_ text: UnsafeRawBufferPointer) -> Int64? {
        var i = 0
        if text.first == UInt8(ascii: "-") { i = 1 }
        guard (1...17).contains(text.count - i) else { return nil }
        var v: Int64 = 0
        for c in text[i...] {
            let d = c &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            v = v * 10 + Int64(d)
        }
        return i == 1 ? -v : v
    }

    func decode(_ v: UInt64) -> FieldValue? {
        func bytes() -> BorrowedUTF8 {
            let r = ra_source_value_bytes(source, v)
            return BorrowedUTF8(bytes: UnsafeRawBufferPointer(start: r.ptr, count: r.len))
        }
        switch UInt32(v >> 60) {
        case UInt32(RA_TAG_NULL): return .null
        case UInt32(RA_TAG_TRUE): return .bool(true)
        case UInt32(RA_TAG_FALSE): return .bool(false)
        case UInt32(RA_TAG_INT): return .int(Int64(bitPattern: v << 4) >> 4)
        case UInt32(RA_TAG_NUMBER):
            let text = bytes()
            return Self.integer(text.bytes).map(FieldValue.int) ?? .number(text)
        case UInt32(RA_TAG_STRING), UInt32(RA_TAG_IDSTR): return .string(bytes())
        case UInt32(RA_TAG_JSON): return .json(bytes())
        case UInt32(RA_TAG_REF): return .link(StoreSymbol(raw: UInt32(truncatingIfNeeded: v & 0x0FFF_FFFF_FFFF_FFFF)))
        case UInt32(RA_TAG_REFS): return .links(LinkList(source: source, value: v, count: Int(ra_source_refs_count(source, v))))
        default: return nil
        }
    }
}

extension RecordStore {
    /// Runs `body` with read access; values borrowed from the snapshot must not escape it.
    public func withSnapshot<R>(_ body: (StoreSnapshot) throws -> R) rethrows -> R {
        ra_source_read_lock(raw)
        defer { ra_source_unlock(raw) }
        return try body(StoreSnapshot(source: raw))
    }
}
