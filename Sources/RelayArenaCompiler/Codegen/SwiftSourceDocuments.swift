// GraphQL documents from `graphql("""…""")` literals in Swift sources (as Relay.swift users write
// them). Everything outside the literals is blanked, so GraphQL positions are Swift positions.
import RelayArena

package enum SwiftSourceDocuments {
    static let call = "graphql("
    static let delimiter = "\"\"\""

    /// One GraphQL document holding every `graphql("""…""")` literal of `file` (a Swift source),
    /// named like the Swift file, or `nil` when it has none. Each character outside a literal
    /// becomes a space (newlines stay), so an error's line and column point into the Swift file.
    /// Escapes inside the literal are left as written (GraphQL's are the same for `\"`, `\\`).
    /// An opener with `//` before it on its line is in a comment and skipped.
    package static func extract(_ file: GraphQLSourceFile) throws -> GraphQLSourceFile? {
        let text = file.text
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var found = false
        var cursor = text.startIndex
        var searchFrom = text.startIndex
        while let open = nextOpener(in: text, from: searchFrom) {
            // An opener after `//` on its line is in a comment (e.g. a doc comment mentioning it).
            let lineStart =
                text[..<open.lowerBound].lastIndex(where: \.isNewline).map { text.index(after: $0) } ?? text.startIndex
            if text[max(lineStart, cursor)..<open.lowerBound].contains("//") {
                searchFrom = open.upperBound
                continue
            }
            blank(text[cursor..<open.upperBound], into: &out)
            // The literal's content starts on the line after the opening delimiter.
            guard let lineEnd = text[open.upperBound...].firstIndex(where: \.isNewline) else {
                throw positioned(file, at: open.lowerBound, "unterminated graphql(\"\"\" literal")
            }
            blank(text[open.upperBound...lineEnd], into: &out)
            let contentStart = text.index(after: lineEnd)
            guard let close = text.range(of: delimiter, range: contentStart..<text.endIndex) else {
                throw positioned(file, at: open.lowerBound, "unterminated graphql(\"\"\" literal")
            }
            out += text[contentStart..<close.lowerBound]
            cursor = close.lowerBound
            searchFrom = close.upperBound
            found = true
        }
        guard found else { return nil }
        blank(text[cursor...], into: &out)
        return GraphQLSourceFile(name: file.name, text: out)
    }

    /// The next `graphql("""`, whitespace and line breaks allowed between `(` and `"""` (as
    /// swift-format writes a call whose only argument is a multi-line string).
    private static func nextOpener(in text: String, from: String.Index) -> Range<String.Index>? {
        var searchFrom = from
        while let call = text.range(of: call, range: searchFrom..<text.endIndex) {
            let literal = text[call.upperBound...].firstIndex { !$0.isWhitespace } ?? text.endIndex
            if text[literal...].hasPrefix(delimiter) {
                return call.lowerBound..<text.index(literal, offsetBy: delimiter.count)
            }
            searchFrom = call.upperBound
        }
        return nil
    }

    private static func blank(_ s: Substring, into out: inout String) {
        for c in s { out += c.isNewline ? String(c) : " " }
    }

    private static func positioned(_ file: GraphQLSourceFile, at index: String.Index, _ message: String)
        -> CompilerError
    {
        let before = file.text[..<index]
        let line = before.reduce(1) { $1.isNewline ? $0 + 1 : $0 }
        let lineStart = before.lastIndex(where: \.isNewline).map { before.index(after: $0) } ?? before.startIndex
        return CompilerError(
            file: file.name, line: line, column: before.distance(from: lineStart, to: index) + 1, message: message)
    }
}
