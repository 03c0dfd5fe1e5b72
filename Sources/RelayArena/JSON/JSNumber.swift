// Numbers as JavaScript prints them (Number.prototype.toString): how relay formats a Double in a
// storage key or a printed read.

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
        var intPart = text
        var fracPart = ""
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
