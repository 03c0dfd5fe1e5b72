// The limits a document must stay within, checked by one flat pass over its bytes before
// GraphQLSwift sees it: its parser and validation recurse (a deep document overflows the stack)
// and its printer doubles its work for every nested literal too wide for one line.

/// What the compiler refuses before parsing, so no document can crash it or keep it busy for
/// long. Each limit is far above anything a real document needs.
public enum DocumentLimits {
    /// Brackets `{`, `[` and `(` open at once (selection sets, argument lists, list and object
    /// literals and list types together).
    public static let nesting = 128
    /// List and object literals (and list types) inside one another.
    public static let literalNesting = 32
    /// Literals wider than a line (80 characters printed) enclosing one another. GraphQLSwift's
    /// printer prints such a literal twice (on one line, then as a block) when a validation
    /// message quotes it, so each one nested in another doubles the work.
    public static let wideLiteralNesting = 10
    /// Fragment spreads inside one another: an operation spreading a fragment that spreads
    /// another is a chain of two.
    public static let spreadChain = 100
    /// Selections nested inside one another once fragment spreads are replaced by the fragments'
    /// selections (an operation's normalization tree).
    public static let inlinedNesting = 1_000
    /// Selections of one operation once fragments are inlined (spreads of one fragment at
    /// different places are copies, so this bounds what doubles at every level).
    public static let inlinedSelections = 250_000
}

/// The lexical pre-scan: tokens are told apart only as far as brackets need (strings, block
/// strings and comments are skipped whole), so it runs in one pass and uses no recursion.
enum DocumentPreScan {
    private struct Bracket {
        var byte: UInt8
        var offset: Int
        /// A list or object literal (or a list type), as opposed to a selection set or arguments.
        var isLiteral: Bool
        /// What GraphQLSwift's printer writes for what is inside, on one line, without separators.
        var content = 0
        /// Values of a list, fields (`:`) of an object: each adds a separator when printed.
        var items = 0
        /// The most wide literals enclosing one another inside.
        var wideInside = 0
    }

    static func check(_ file: GraphQLSourceFile, lineIndex: SourceLineIndex) throws {
        var text = file.text
        let refusal: (offset: Int, message: String)? = text.withUTF8 { scan($0) }
        guard let refusal else { return }
        let (line, column) = lineIndex.lineAndColumn(utf8Offset: refusal.offset)
        throw CompilerError(file: file.name, line: line, column: column, message: refusal.message)
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (offset: Int, message: String)? {
        var stack: [Bracket] = []
        var literals = 0
        // The last punctuator (0 after a name, number or string): `{` after `:` or `=` is an object.
        var previous: UInt8 = 0
        var index = 0
        let count = bytes.count
        @inline(__always) func byte(_ at: Int) -> UInt8 { at < count ? bytes[at] : 0 }
        /// A token directly inside the innermost literal; `startsValue` counts a list's items.
        func token(width: Int, startsValue: Bool) {
            guard literals > 0, let top = stack.indices.last, stack[top].isLiteral else { return }
            stack[top].content += width
            if startsValue, stack[top].byte == UInt8(ascii: "[") { stack[top].items += 1 }
        }
        while index < count {
            let start = index
            let current = bytes[index]
            index += 1
            switch current {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ","), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                continue
            case UInt8(ascii: "#"):
                while index < count, bytes[index] != UInt8(ascii: "\n"), bytes[index] != UInt8(ascii: "\r") {
                    index += 1
                }
                continue
            case UInt8(ascii: "\""):
                if byte(index) == UInt8(ascii: "\""), byte(index + 1) == UInt8(ascii: "\"") {
                    // Block string: ends at the first `"""` not escaped as `\"""`.
                    index += 2
                    while index < count {
                        if bytes[index] == UInt8(ascii: "\\"), byte(index + 1) == UInt8(ascii: "\""),
                            byte(index + 2) == UInt8(ascii: "\""), byte(index + 3) == UInt8(ascii: "\"")
                        {
                            index += 4
                        } else if bytes[index] == UInt8(ascii: "\""), byte(index + 1) == UInt8(ascii: "\""),
                            byte(index + 2) == UInt8(ascii: "\"")
                        {
                            index += 3
                            break
                        } else {
                            index += 1
                        }
                    }
                } else {
                    // String: ends at an unescaped `"`, or (unterminated, the parser reports it) at a line end.
                    while index < count {
                        let inner = bytes[index]
                        if inner == UInt8(ascii: "\\") {
                            index += 2
                        } else if inner == UInt8(ascii: "\"") {
                            index += 1
                            break
                        } else if inner == UInt8(ascii: "\n") || inner == UInt8(ascii: "\r") {
                            break
                        } else {
                            index += 1
                        }
                    }
                    index = min(index, count)
                }
                // Printing may escape what the source wrote raw (a tab), so count strings twice.
                token(width: 2 * (index - start), startsValue: true)
                previous = 0
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "("):
                if stack.count == DocumentLimits.nesting {
                    return (
                        start, "Document nested too deeply: more than \(DocumentLimits.nesting) brackets open at once."
                    )
                }
                let isLiteral =
                    current == UInt8(ascii: "[")
                    || (current == UInt8(ascii: "{")
                        && (previous == UInt8(ascii: ":") || previous == UInt8(ascii: "=")
                            || stack.last?.byte == UInt8(ascii: "[")))
                if isLiteral {
                    if literals == DocumentLimits.literalNesting {
                        return (
                            start,
                            "List or object literal nested too deeply: more than \(DocumentLimits.literalNesting) inside one another."
                        )
                    }
                    token(width: 0, startsValue: true)
                    literals += 1
                }
                stack.append(Bracket(byte: current, offset: start, isLiteral: isLiteral))
                previous = current
            case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")"):
                previous = current
                // A mismatched bracket is a syntax error the parser reports; only the depth matters here.
                guard let closed = stack.popLast(), closed.isLiteral else { continue }
                literals -= 1
                // As GraphQLSwift prints: `[a, b]`, `{ k: v, k: v }`.
                let separators = 2 * max(closed.items - 1, 0)
                let width =
                    closed.byte == UInt8(ascii: "[")
                    ? 2 + closed.content + separators : 4 + closed.content + closed.items + separators
                let wide = closed.wideInside + (width > 80 ? 1 : 0)
                if wide > DocumentLimits.wideLiteralNesting {
                    // Reported at the outermost literal: the argument value to make smaller.
                    let outermost = stack.first(where: \.isLiteral)?.offset ?? closed.offset
                    return (
                        outermost,
                        "List or object literal too wide and too deeply nested: more than \(DocumentLimits.wideLiteralNesting) literals wider than a line inside one another."
                    )
                }
                if literals > 0, let top = stack.indices.last, stack[top].isLiteral {
                    stack[top].content += width
                    stack[top].wideInside = max(stack[top].wideInside, wide)
                }
            case UInt8(ascii: ":"):
                if literals > 0, let top = stack.indices.last, stack[top].byte == UInt8(ascii: "{") {
                    stack[top].items += 1
                }
                token(width: 1, startsValue: false)
                previous = current
            default:
                if isPunctuator(current) {
                    // `$` starts a variable value; the name after it does not start another.
                    token(width: 1, startsValue: current == UInt8(ascii: "$"))
                    previous = current
                } else {
                    // Names and numbers: one run of bytes that are neither separator, punctuator nor quote.
                    while index < count, !isPunctuator(bytes[index]), !isSeparator(bytes[index]) { index += 1 }
                    token(width: index - start, startsValue: previous != UInt8(ascii: "$"))
                    previous = 0
                }
            }
        }
        return nil
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ","), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
            UInt8(ascii: "#"), UInt8(ascii: "\""):
            return true
        default: return false
        }
    }

    private static func isPunctuator(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "="), UInt8(ascii: "@"), UInt8(ascii: "["),
            UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
            return true
        default: return false
        }
    }
}
