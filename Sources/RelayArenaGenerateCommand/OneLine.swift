// Error messages as the command line prints them: one line each, whatever the message holds (a
// compiler diagnostic with its source excerpt, a name or a path with a line break in it).

/// `message` on one line: each line break (CR, LF, and the other Unicode newlines) written as its
/// escape (`\n`, `\r`, `\u{2028}`), so that nothing is lost and a script reads one line per error.
package func oneLine(_ message: String) -> String {
    guard message.unicodeScalars.contains(where: isLineBreak) else { return message }
    var out = ""
    out.unicodeScalars.reserveCapacity(message.unicodeScalars.count + 8)
    for scalar in message.unicodeScalars {
        switch scalar {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case _ where isLineBreak(scalar): out += "\\u{\(String(scalar.value, radix: 16))}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}

/// LF, VT, FF, CR, NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR: what terminals or readers may take
/// as the end of a line.
private func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
    default: return false
    }
}
