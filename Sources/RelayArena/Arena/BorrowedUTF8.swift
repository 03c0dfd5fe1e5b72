// Text borrowed from the arena without copying. Its bytes are reachable only through closures
// and checked against the snapshot's lifetime, so safe code cannot read them once it ended.

/// UTF-8 (or JSON / number text) borrowed from the arena, valid inside `withSnapshot` only:
/// reading it after the closure returned traps.
public struct BorrowedUTF8: Equatable, CustomStringConvertible {
    private let base: UnsafeRawPointer?
    /// Number of bytes (reading it touches no arena memory).
    public let count: Int
    private let token: SnapshotToken

    init(base: UnsafeRawPointer?, count: Int, token: SnapshotToken) {
        self.base = base
        self.count = count
        self.token = token
    }

    /// No bytes: what a non-null string field that is missing reads as.
    public static var empty: BorrowedUTF8 { BorrowedUTF8(base: nil, count: 0, token: .permanent) }

    public var isEmpty: Bool { count == 0 }

    /// Runs `body` with the bytes; they must not escape it (the hot path can compare or scan here).
    @inline(__always)
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        token.check()
        return try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Makes a `String` (one allocation).
    public var string: String { withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }
    public var description: String { string }

    public static func == (a: BorrowedUTF8, b: BorrowedUTF8) -> Bool {
        a.withUnsafeBytes { x in b.withUnsafeBytes { y in x.elementsEqual(y) } }
    }

    public static func == (a: BorrowedUTF8, b: String) -> Bool {
        var s = b
        return s.withUTF8 { u in a.withUnsafeBytes { $0.elementsEqual(UnsafeRawBufferPointer(u)) } }
    }

    /// Compares with a literal (a type condition) without making a `String`.
    func equals(_ literal: StaticString) -> Bool {
        literal.withUTF8Buffer { u in withUnsafeBytes { $0.elementsEqual(UnsafeRawBufferPointer(u)) } }
    }

    /// An integer of up to 17 digits: the arena keeps those outside 32 bits as their text (a
    /// field slot's payload is 32 bits), and they read as `.int` all the same.
    var integer: Int64? {
        withUnsafeBytes { text in
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
    }
}
