// JSON.stringify for argument and variable values, as relay-runtime formats storage keys:
// object keys sorted (stableCopy), no whitespace, JavaScript number and string formatting.

extension JSONValue {
    /// The JSON text JavaScript's `JSON.stringify(stableCopy(value))` produces.
    public var stableJSON: String {
        var out = ""
        writeStable(into: &out)
        return out
    }

    func writeStable(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += JSNumber.format(d)
        case .string(let s): JSONString.escape(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.writeStable(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            // Later duplicates win, as in a JavaScript object literal.
            var byKey: [String: JSONValue] = [:]
            for m in members { byKey[m.key] = m.value }
            for (i, key) in byKey.keys.sorted(by: { Array($0.utf16).lexicographicallyPrecedes(Array($1.utf16)) }).enumerated() {
                if i > 0 { out += "," }
                JSONString.escape(key, into: &out)
                out += ":"
                byKey[key]!.writeStable(into: &out)
            }
            out += "}"
        }
    }

    /// JavaScript truthiness (`Boolean(value)`), used for `@include` / `@skip` variables.
    public var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let b): return b
        case .int(let i): return i != 0
        case .double(let d): return d != 0 && !d.isNaN
        case .string(let s): return !s.isEmpty
        case .array, .object: return true
        }
    }
}

/// JSON.stringify's string escaping: short escapes where JSON has them, other C0 controls as
/// lowercase `\u00xx`, everything else (`/`, DEL, non-ASCII) raw. Shared with the compiler.
package enum JSONString {
    package static func escape(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}

/// JavaScript's Number.prototype.toString for finite doubles (shortest round-trip digits).
enum JSNumber {
    static func format(_ d: Double) -> String {
        if d.isNaN || d.isInfinite { return "null" }
        if d == 0 { return "0" }
        let negative = d < 0
        // Swift's description gives the shortest round-trip digits; re-lay them out JS's way.
        var text = "\(abs(d))"
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...])!
            text = String(text[..<e])
        }
        var intPart = text, fracPart = ""
        if let dot = text.firstIndex(of: ".") {
            intPart = String(text[..<dot])
            fracPart = String(text[text.index(after: dot)...])
        }
        var digits = intPart + fracPart
        var n = intPart.count + exponent  // value = 0.digits × 10^n
        while digits.hasPrefix("0") && digits.count > 1 {
            digits.removeFirst()
            n -= 1
        }
        while digits.hasSuffix("0") && digits.count > 1 { digits.removeLast() }
        let k = digits.count
        var out = negative ? "-" : ""
        if k <= n && n <= 21 {
            out += digits + String(repeating: "0", count: n - k)
        } else if 0 < n && n <= 21 {
            out += String(digits.prefix(n)) + "." + String(digits.dropFirst(n))
        } else if -6 < n && n <= 0 {
            out += "0." + String(repeating: "0", count: -n) + digits
        } else {
            let e = n - 1
            out += String(digits.prefix(1)) + (k > 1 ? "." + String(digits.dropFirst()) : "")
            out += "e" + (e >= 0 ? "+" : "-") + String(abs(e))
        }
        return out
    }
}
