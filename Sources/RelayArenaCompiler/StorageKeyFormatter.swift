// Static storage keys, byte-for-byte what relay-compiler precomputes: `name(arg:JSON,…)` with
// JSON.stringify-style strings, sorted object keys, and serde_json (ryu) number formatting.
import RelayArena

enum StorageKeyFormatter {
    /// `name` when no argument survives, else `name(a:…,b:…)`. Null arguments are skipped like
    /// relay's formatStorageKey; arguments are sorted by name (code units) whatever the input order.
    static func format(name: String, args: [(String, JSONValue)]) -> String {
        let kept = args.filter { $0.1 != .null }.sorted { codeUnitLess($0.0, $1.0) }
        guard !kept.isEmpty else { return name }
        return name + "(" + kept.map { "\($0.0):\(stringify($0.1))" }.joined(separator: ",") + ")"
    }

    /// JSON without whitespace; object keys sorted (relay's stableCopy), array order and nulls kept.
    static func stringify(_ value: JSONValue) -> String {
        var output = ""
        write(value, to: &output)
        return output
    }

    private static func write(_ value: JSONValue, to output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let bool): output += bool ? "true" : "false"
        case .int(let int): output += String(int)
        case .double(let double): output += formatDouble(double)
        case .string(let string): writeString(string, to: &output)
        case .array(let items):
            output += "["
            for (offset, item) in items.enumerated() {
                if offset > 0 { output += "," }
                write(item, to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (offset, member) in members.sorted(by: { codeUnitLess($0.key, $1.key) }).enumerated() {
                if offset > 0 { output += "," }
                writeString(member.key, to: &output)
                output += ":"
                write(member.value, to: &output)
            }
            output += "}"
        }
    }

    /// JSON.stringify's escaping, shared with the runtime's storage keys.
    private static func writeString(_ string: String, to output: inout String) {
        JSONString.escape(string, into: &output)
    }

    /// serde_json's float output (ryu's `format_finite`): shortest round-trip digits; integral
    /// values keep `.0`; scientific notation (`1e16`, `1.5e-7`, no `+`) outside 1e-5 ≤ |v| < 1e16.
    /// Non-finite values have no JSON form; serde_json writes `null`.
    static func formatDouble(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == 0 { return value.sign == .minus ? "-0.0" : "0.0" }
        let (negative, digits, exponent) = decompose(value)
        let length = digits.count
        let kk = length + exponent  // the value is 0.DIGITS × 10^kk
        var text: String
        if exponent >= 0 && kk <= 16 {
            text = digits + String(repeating: "0", count: exponent) + ".0"
        } else if kk > 0 && kk <= 16 {
            let split = digits.index(digits.startIndex, offsetBy: kk)
            text = String(digits[..<split]) + "." + String(digits[split...])
        } else if kk > -5 && kk <= 0 {
            text = "0." + String(repeating: "0", count: -kk) + digits
        } else if length == 1 {
            text = digits + "e" + String(kk - 1)
        } else {
            text = String(digits.prefix(1)) + "." + String(digits.dropFirst()) + "e" + String(kk - 1)
        }
        if negative { text = "-" + text }
        return text
    }

    /// Shortest round-trip decimal digits (from Swift's own shortest formatting) and the power of
    /// ten of the last digit: value = ±DIGITS × 10^exponent, DIGITS without leading/trailing zeros.
    private static func decompose(_ value: Double) -> (negative: Bool, digits: String, exponent: Int) {
        var text = value.magnitude.description  // e.g. "12.5", "1e-07", "1.2345e+20"
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(String(text[text.index(after: e)...].filter { $0 != "+" })) ?? 0
            text = String(text[..<e])
        }
        if let dot = text.firstIndex(of: ".") {
            exponent -= text.distance(from: dot, to: text.endIndex) - 1
            text.remove(at: dot)
        }
        var digits = Substring(text).drop { $0 == "0" }
        while digits.last == "0" {
            digits = digits.dropLast()
            exponent += 1
        }
        return (value.sign == .minus, String(digits), exponent)
    }
}
