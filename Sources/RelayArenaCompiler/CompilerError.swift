// Public input/error types of the compiler and the mapping from GraphQLSwift errors and AST
// locations to `FILE:LINE:COLUMN` positions in the file each node came from.
import Foundation
import GraphQL

/// A named GraphQL text (schema SDL or executable document). `name` is what errors report.
public struct GraphQLSourceFile: Sendable {
    public var name: String
    public var text: String
    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }
}

/// A compile error at a position in a source file; `description` is `FILE:LINE:COLUMN: error: MESSAGE`.
/// Line and column are 1-based; the column counts characters from the start of the line. The
/// message is one line: line breaks (GraphQLSwift prints wide literals over several) become spaces.
public struct CompilerError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = Self.oneLine(message)
    }

    public var description: String { "\(file):\(line):\(column): error: \(message)" }
}

extension CompilerError {
    /// Each line break and the indentation after it become one space.
    static func oneLine(_ message: String) -> String {
        guard message.contains(where: \.isNewline) else { return message }
        return message.split(whereSeparator: \.isNewline)
            .map { $0.drop(while: \.isWhitespace) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
    }

    /// Position of an AST node; nodes always carry their `Source`, which names the file, so this
    /// stays right when definitions from many files are validated as one document.
    init(node: any GraphQL.Node, fallbackFile: String, message: String) {
        if let loc = node.loc {
            let (line, column) = lineAndColumn(body: loc.source.body, utf8Offset: loc.start)
            self.init(file: loc.source.name, line: line, column: column, message: message)
        } else {
            self.init(file: fallbackFile, line: 1, column: 1, message: message)
        }
    }

    /// A GraphQLSwift parse or validation error. Syntax errors carry a source and a position; their
    /// message repeats the position and an excerpt, which is trimmed to keep one line.
    init(_ error: GraphQLError, fallbackFile: String) {
        if let node = error.nodes.first(where: { $0.loc != nil }) {
            self.init(node: node, fallbackFile: fallbackFile, message: error.message)
        } else if let source = error.source, let position = error.positions.first {
            let (line, column) = lineAndColumn(body: source.body, utf8Offset: position)
            self.init(
                file: source.name, line: line, column: column,
                message: Self.trimSyntaxMessage(error.message, sourceName: source.name))
        } else if let location = error.locations.first {
            self.init(file: fallbackFile, line: location.line, column: location.column, message: error.message)
        } else {
            self.init(file: fallbackFile, line: 1, column: 1, message: error.message)
        }
    }

    /// "Syntax Error NAME (3:7) Expected Name, found }.\n\n<excerpt>" → "Syntax Error: Expected Name, found }."
    static func trimSyntaxMessage(_ message: String, sourceName: String) -> String {
        let firstLine =
            message.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
            ?? message
        // The file name may itself contain ") ", so skip it before looking for the position's end.
        let prefix = "Syntax Error \(sourceName) ("
        guard firstLine.hasPrefix(prefix),
            let close = firstLine.range(
                of: ") ", range: firstLine.index(firstLine.startIndex, offsetBy: prefix.count)..<firstLine.endIndex)
        else { return firstLine }
        return "Syntax Error: " + firstLine[close.upperBound...]
    }
}

/// GraphQLSwift's lexer counts positions in UTF-8 bytes; columns are reported in characters.
func lineAndColumn(body: String, utf8Offset: Int) -> (line: Int, column: Int) {
    let utf8 = body.utf8
    let target = utf8.index(utf8.startIndex, offsetBy: min(max(utf8Offset, 0), utf8.count))
    var line = 1
    var lineStart = body.startIndex
    var index = body.startIndex
    while index < target {
        let character = body[index]
        index = body.index(after: index)
        // "\r\n" is one Character in Swift, so it counts as a single line break here too.
        if character == "\n" || character == "\r" || character == "\r\n" {
            line += 1
            lineStart = index
        }
    }
    let column = body[lineStart..<min(target, body.endIndex)].count + 1
    return (line, column)
}

/// GraphQLSwift's SDL checks (unknown type, duplicate names, …) throw one error joining all
/// messages without a location. The first message is reported where the definition it names is
/// written: a second definition of a type at that second definition, a field (enum value, input
/// field) defined twice at the second one inside its type, anything else at the first token
/// spelling the name it quotes (for an unknown type, its first use), else at 1:1.
enum SchemaErrorLocator {
    private static let definers: Set<String> = ["type", "interface", "union", "enum", "input", "scalar"]

    static func locate(_ error: GraphQLError, in document: Document, file: String) -> CompilerError {
        if !error.nodes.isEmpty || !error.positions.isEmpty || !error.locations.isEmpty {
            return CompilerError(error, fallbackFile: file)
        }
        let message = error.message.components(separatedBy: "\n\n").first ?? error.message
        let quoted = message.split(separator: "\"", omittingEmptySubsequences: false)
        guard quoted.count >= 3, let loc = document.loc else {
            return CompilerError(file: file, line: 1, column: 1, message: message)
        }
        var tokens: [Token] = []
        var current: Token? = loc.startToken
        while let token = current {
            if token.kind != .comment { tokens.append(token) }
            current = token.next
        }
        func at(_ token: Token) -> CompilerError {
            let (line, column) = lineAndColumn(body: loc.source.body, utf8Offset: token.start)
            return CompilerError(file: file, line: line, column: column, message: message)
        }
        let name = String(quoted[1]).trimmingCharacters(in: ["@"])
        // `type T` (not `extend type T`): where each definition of `T` names it.
        func definitions(of type: String) -> [Int] {
            tokens.indices.filter { i in
                guard i > 0, tokens[i].kind == .name, tokens[i].value == type,
                    let keyword = tokens[i - 1].value, definers.contains(keyword)
                else { return false }
                return i < 2 || tokens[i - 2].value != "extend"
            }
        }
        if message.hasPrefix("There can be only one type named") {
            let found = definitions(of: name)
            if found.count > 1 { return at(tokens[found[1]]) }
        } else if let dot = name.firstIndex(of: ".") {
            // "Type.member" or "Type.field(arg:)": the member's second spelling at the top level
            // of the type's bodies (definitions and extensions).
            let type = String(name[..<dot])
            let member = String(name[name.index(after: dot)...].prefix { $0 != "(" })
            var seen: [Token] = []
            for i in tokens.indices
            where tokens[i].kind == .name && tokens[i].value == type && i > 0
                && definers.contains(tokens[i - 1].value ?? "")
            {
                var j = i + 1
                while j < tokens.count, tokens[j].kind != .openingBrace, tokens[j].kind != .eof {
                    // A union or scalar has no body: the next definition starts.
                    if tokens[j].kind == .name, definers.contains(tokens[j].value ?? "") || tokens[j].value == "extend"
                    {
                        break
                    }
                    j += 1
                }
                guard j < tokens.count, tokens[j].kind == .openingBrace else { continue }
                var depth = 0
                while j < tokens.count {
                    switch tokens[j].kind {
                    case .openingBrace, .openingParenthesis, .openingBracket: depth += 1
                    case .closingBrace, .closingParenthesis, .closingBracket: depth -= 1
                    case .name
                    where depth == 1 && tokens[j].value == member && tokens[j - 1].kind != .colon
                        && tokens[j - 1].kind != .at:
                        seen.append(tokens[j])
                    default: break
                    }
                    if depth == 0 { break }
                    j += 1
                }
            }
            if let token = seen.dropFirst().first ?? seen.first { return at(token) }
        }
        if let token = tokens.first(where: { $0.kind == .name && $0.value == name }) { return at(token) }
        return CompilerError(file: file, line: 1, column: 1, message: message)
    }
}
