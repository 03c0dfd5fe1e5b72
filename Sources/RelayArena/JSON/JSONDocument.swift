// The one JSON text parser: object members in their order, each value's byte range kept (a
// `replay` script's `response` goes to the normalizer as the very bytes written), numbers as
// written, depth-bounded, syntax errors at a byte offset. `JSONValue(parsing:)` reads through it.

/// A parsed JSON value and where it is in the text.
package struct JSONDocument {
    package indirect enum Kind {
        case null
        case bool(Bool)
        /// The number's text as written.
        case number(String)
        case string(String)
        case array([JSONDocument])
        case object([(key: String, value: JSONDocument)])
    }

    package var kind: Kind
    /// Byte range of the value in the text parsed.
    package var range: Range<Int>

    package subscript(key: String) -> JSONDocument? {
        if case .object(let members) = kind { return members.last { $0.key == key }?.value }
        return nil
    }

    package var string: String? {
        if case .string(let s) = kind { return s }
        return nil
    }

    /// As a variables or argument value: integers that fit in 64 bits as `.int`, other numbers
    /// as `.double` (as JavaScript holds them).
    package var jsonValue: JSONValue {
        switch kind {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let text):
            if let i = Int64(text) { return .int(i) }
            return .double(Double(text) ?? .nan)
        case .string(let s): return .string(s)
        case .array(let items): return .array(items.map(\.jsonValue))
        case .object(let members): return .object(members.map { JSONMember($0.key, $0.value.jsonValue) })
        }
    }

    /// The largest nesting of arrays and objects accepted.
    package static let maxDepth = 512

    /// Parses `bytes`; a syntax error says "malformed JSON in `what`" and where.
    package static func parse(_ bytes: [UInt8], what: String = "the script") throws -> JSONDocument {
        var parser = Parser(bytes: bytes, what: what)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.at == bytes.count else { throw parser.error("unexpected text after \(what)") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        let what: String
        var at = 0

        func error(_ message: String) -> RelayArenaError {
            RelayArenaError(code: .malformedJSON, message: "malformed JSON in \(what): \(message)", offset: UInt64(at))
        }

        mutating func skipSpace() {
            while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
        }

        mutating func literal(_ word: String, _ kind: Kind) throws -> JSONDocument {
            let start = at
            for byte in word.utf8 {
                guard at < bytes.count, bytes[at] == byte else { throw error("invalid literal") }
                at += 1
            }
            return JSONDocument(kind: kind, range: start..<at)
        }

        mutating func value(depth: Int) throws -> JSONDocument {
            guard depth < JSONDocument.maxDepth else { throw error("nested more than \(JSONDocument.maxDepth) levels") }
            guard at < bytes.count else { throw error("unexpected end") }
            let start = at
            switch bytes[at] {
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "\""): return JSONDocument(kind: .string(try string()), range: start..<at)
            case UInt8(ascii: "["):
                at += 1
                var items: [JSONDocument] = []
                skipSpace()
                if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
                    at += 1
                    return JSONDocument(kind: .array(items), range: start..<at)
                }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard at < bytes.count else { throw error("unexpected end") }
                    if bytes[at] == UInt8(ascii: ",") {
                        at += 1
                    } else if bytes[at] == UInt8(ascii: "]") {
                        at += 1
                        return JSONDocument(kind: .array(items), range: start..<at)
                    } else {
                        throw error("expected `,` or `]`")
                    }
                }
            case UInt8(ascii: "{"):
                at += 1
                var members: [(key: String, value: JSONDocument)] = []
                skipSpace()
                if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
                    at += 1
                    return JSONDocument(kind: .object(members), range: start..<at)
                }
                while true {
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw error("expected a key") }
                    let key = try string()
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw error("expected `:`") }
                    at += 1
                    skipSpace()
                    members.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    guard at < bytes.count else { throw error("unexpected end") }
                    if bytes[at] == UInt8(ascii: ",") {
                        at += 1
                    } else if bytes[at] == UInt8(ascii: "}") {
                        at += 1
                        return JSONDocument(kind: .object(members), range: start..<at)
                    } else {
                        throw error("expected `,` or `}`")
                    }
                }
            default:
                return JSONDocument(kind: .number(try number()), range: start..<at)
            }
        }

        mutating func digits() -> Int {
            let start = at
            while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) { at += 1 }
            return at - start
        }

        /// JSON's number grammar exactly.
        mutating func number() throws -> String {
            let start = at
            if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
            let intStart = at
            let n = digits()
            guard n > 0 else { throw error("unexpected character") }
            if n > 1, bytes[intStart] == UInt8(ascii: "0") { throw error("leading zero in a number") }
            if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
                at += 1
                guard digits() > 0 else { throw error("digits expected after `.`") }
            }
            if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
                at += 1
                if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
                guard digits() > 0 else { throw error("digits expected in an exponent") }
            }
            return String(decoding: bytes[start..<at], as: UTF8.self)
        }

        mutating func hex4() throws -> UInt32 {
            guard at + 4 <= bytes.count else { throw error("unexpected end in `\\u`") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[at]
                let d: UInt8
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
                default: throw error("invalid `\\u` escape")
                }
                v = v << 4 | UInt32(d)
                at += 1
            }
            return v
        }

        mutating func string() throws -> String {
            at += 1  // the opening quote
            var out: [UInt8] = []
            while true {
                guard at < bytes.count else { throw error("unterminated string") }
                let c = bytes[at]
                if c == UInt8(ascii: "\"") {
                    at += 1
                    break
                }
                guard c >= 0x20 else { throw error("control character in a string") }
                if c != UInt8(ascii: "\\") {
                    out.append(c)
                    at += 1
                    continue
                }
                at += 1
                guard at < bytes.count else { throw error("unterminated string") }
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
                    if (0xD800..<0xDC00).contains(scalar), at + 6 <= bytes.count, bytes[at] == UInt8(ascii: "\\"),
                        bytes[at + 1] == UInt8(ascii: "u")
                    {
                        let save = at
                        at += 2
                        let low = try hex4()
                        if (0xDC00..<0xE000).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            at = save
                        }
                    }
                    out.append(contentsOf: String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
                default: throw error("invalid escape")
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
