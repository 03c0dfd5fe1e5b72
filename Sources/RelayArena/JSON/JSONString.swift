// JSON string literals as JavaScript's JSON.stringify writes them: the escaping storage keys and
// printed reads use, shared with the compiler.

/// JSON.stringify's string escaping: short escapes where JSON has them, other C0 controls as
/// lowercase `\u00xx`, everything else (`/`, DEL, non-ASCII) raw. Shared with the compiler.
package enum JSONString {
    package static func escape(_ s: String, into out: inout String) {
        out += "\""
        // Most texts (IDs, keys) need no escape: appended whole.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out += s
            out += "\""
            return
        }
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
