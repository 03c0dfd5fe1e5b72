// Line and column of a UTF-8 offset in one source text, from the line starts found once: a binary
// search instead of a scan from the start, so positioning every field stays linear overall.

/// The starts of a text's lines (after "\n", "\r" or "\r\n", as `lineAndColumn` counts them).
struct SourceLineIndex: Sendable {
    let text: String
    /// UTF-8 offset of each line's first byte; `lineStarts[0] == 0`.
    private let lineStarts: [Int]
    /// Lines holding only ASCII, whose columns are byte distances (no character count needed).
    private let asciiLines: [Bool]

    init(_ text: String) {
        self.text = text
        var starts = [0]
        var ascii = [true]
        let utf8 = Array(text.utf8)
        var offset = 0
        while offset < utf8.count {
            let byte = utf8[offset]
            offset += 1
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                if byte == UInt8(ascii: "\r"), offset < utf8.count, utf8[offset] == UInt8(ascii: "\n") { offset += 1 }
                starts.append(offset)
                ascii.append(true)
            } else if byte >= 0x80 {
                ascii[ascii.count - 1] = false
            }
        }
        lineStarts = starts
        asciiLines = ascii
    }

    /// 1-based line and column (in characters) of a UTF-8 offset, clamped to the text.
    func lineAndColumn(utf8Offset: Int) -> (line: Int, column: Int) {
        let utf8 = text.utf8
        let offset = min(max(utf8Offset, 0), utf8.count)
        // The last line start at or before `offset`.
        var low = 0
        var high = lineStarts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle }
        }
        let start = lineStarts[low]
        if asciiLines[low] { return (low + 1, offset - start + 1) }
        let from = utf8.index(utf8.startIndex, offsetBy: start)
        let to = utf8.index(from, offsetBy: offset - start)
        return (low + 1, text[from..<to].count + 1)
    }
}
