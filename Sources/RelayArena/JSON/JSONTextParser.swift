// JSON text → JSONValue, members in the order written (JSONDecoder's keyed containers do not keep
// it, and relay's values — variables, custom scalars, stored errors — are ordered objects).
// Depth-bounded, so text nested to hurt cannot exhaust the stack.

struct JSONTextParser {
    private let bytes: [UInt8]
    private var at = 0
    static let maxDepth = 512

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var offset: Int
        var description: String { "\(message) at byte \(offset)" }
    }

    init(_ text: String) { bytes = Array(text.utf8) }

    static func parse(_ text: String) throws -> JSONValue {
        var parser = JSONTextParser(text)
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.at == parser.bytes.count else { throw parser.fail("text after the value") }
        return value
    }

    private func fail(_ message: String) -> Failure { Failure(message: message, offset: at) }

    private mutating func skipSpace() {
        while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 {
            at += 1
        }
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws -> JSONValue {
        let w = Array(word.utf8)
        guard bytes.count - at >= w.count, Array(bytes[at..<at + w.count]) == w else { throw fail("unexpected text") }
        at += w.count
        return value
    }

    private mutating func value(depth: Int) throws -> JSONValue {
        guard depth < Self.maxDepth else { throw fail("nested more than \(Self.maxDepth) levels") }
        skipSpace()
        guard at < bytes.count else { throw fail("unexpected end") }
        switch bytes[at] {
        case UInt8(ascii: "{"):
            at += 1
            var members: [JSONMember] = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
                at += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                let key = try string()
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw fail("expected `:`") }
                at += 1
                members.append(JSONMember(key, try value(depth: depth + 1)))
                skipSpace()
                guard at < bytes.count else { throw fail("unexpected end") }
                if bytes[at] == UInt8(ascii: ",") {
                    at += 1
                    continue
                }
                guard bytes[at] == UInt8(ascii: "}") else { throw fail("expected `,` or `}`") }
                at += 1
                return .object(members)
            }
        case UInt8(ascii: "["):
            at += 1
            var items: [JSONValue] = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
                at += 1
                return .array(items)
            }
            while true {
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard at < bytes.count else { throw fail("unexpected end") }
                if bytes[at] == UInt8(ascii: ",") {
                    at += 1
                    continue
                }
                guard bytes[at] == UInt8(ascii: "]") else { throw fail("expected `,` or `]`") }
                at += 1
                return .array(items)
            }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return try number()
        }
    }

    private mutating func number() throws -> JSONValue {
        let start = at
        var integral = true
        if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
        var digits = 0
        while at < bytes.count {
            let b = bytes[at]
            if b >= 0x30 && b <= 0x39 {
                digits += 1
            } else if b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
                || ((b == UInt8(ascii: "+") || b == UInt8(ascii: "-")) && at > start)
            {
                integral = false
            } else {
                break
            }
            at += 1
        }
        guard digits > 0 else { throw fail("unexpected text") }
        let text = String(decoding: bytes[start..<at], as: UTF8.self)
        if integral, let i = Int64(text) { return .int(i) }
        guard let d = Double(text), d.isFinite else { throw Failure(message: "not a number", offset: start) }
        return .double(d)
    }

    private mutating func hex4() throws -> UInt32 {
        guard bytes.count - at >= 4 else { throw fail("short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[at]
            let d: UInt8
            switch b {
            case 0x30...0x39: d = b - 0x30
            case 0x41...0x46: d = b - 0x41 + 10
            case 0x61...0x66: d = b - 0x61 + 10
            default: throw fail("bad \\u escape")
            }
            v = v << 4 | UInt32(d)
            at += 1
        }
        return v
    }

    /// At the opening quote; unescapes, refusing raw control characters as JSON does.
    private mutating func string() throws -> String {
        at += 1
        var out: [UInt8] = []
        while true {
            guard at < bytes.count else { throw fail("unterminated string") }
            let b = bytes[at]
            at += 1
            switch b {
            case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard at < bytes.count else { throw fail("unterminated string") }
                let e = bytes[at]
                at += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if scalar >= 0xD800 && scalar < 0xDC00, bytes.count - at >= 6, bytes[at] == UInt8(ascii: "\\"),
                        bytes[at + 1] == UInt8(ascii: "u")
                    {
                        let save = at
                        at += 2
                        let low = try hex4()
                        if low >= 0xDC00 && low < 0xE000 {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            at = save
                        }
                    }
                    out.append(contentsOf: Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8))
                default: throw fail("bad escape")
                }
            case 0x00..<0x20: throw fail("control character in a string")
            default: out.append(b)
            }
        }
    }
}
