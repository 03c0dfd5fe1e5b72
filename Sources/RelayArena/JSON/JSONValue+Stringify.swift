// JSON.stringify for argument and variable values, as relay-runtime formats storage keys:
// object keys sorted (stableCopy), no whitespace, JavaScript number and string formatting.

extension JSONValue {
    /// The JSON text JavaScript's `JSON.stringify(stableCopy(value))` produces.
    public var stableJSON: String {
        var out = ""
        writeStable(into: &out)
        return out
    }

    /// JSON text with object members in their order (a response, as given).
    public var jsonText: String {
        var out = ""
        write(into: &out)
        return out
    }

    func write(into out: inout String) {
        switch self {
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, m) in members.enumerated() {
                if i > 0 { out += "," }
                JSONString.escape(m.key, into: &out)
                out += ":"
                m.value.write(into: &out)
            }
            out += "}"
        default: writeStable(into: &out)
        }
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
            for (i, key) in byKey.keys.sorted(by: { Array($0.utf16).lexicographicallyPrecedes(Array($1.utf16)) })
                .enumerated()
            {
                if i > 0 { out += "," }
                JSONString.escape(key, into: &out)
                out += ":"
                byKey[key]!.writeStable(into: &out)
            }
            out += "}"
        }
    }

    /// JavaScript truthiness (`Boolean(value)`), used for `@include` / `@skip` variables.
    package var isTruthy: Bool {
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
