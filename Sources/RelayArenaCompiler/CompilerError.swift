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
/// messages without a location. Best effort: report the first message at the first token spelling
/// the name it quotes (for an unknown type that is its first use), else at 1:1.
enum SchemaErrorLocator {
    static func locate(_ error: GraphQLError, in document: Document, file: String) -> CompilerError {
        if !error.nodes.isEmpty || !error.positions.isEmpty || !error.locations.isEmpty {
            return CompilerError(error, fallbackFile: file)
        }
        let message = error.message.components(separatedBy: "\n\n").first ?? error.message
        let quoted = message.split(separator: "\"", omittingEmptySubsequences: false)
        guard quoted.count >= 3, let loc = document.loc else {
            return CompilerError(file: file, line: 1, column: 1, message: message)
        }
        let name = String(quoted[1]).trimmingCharacters(in: ["@"])
        var token: Token? = loc.startToken
        while let current = token {
            if current.kind == .name, current.value == name {
                let (line, column) = lineAndColumn(body: loc.source.body, utf8Offset: current.start)
                return CompilerError(file: file, line: line, column: column, message: message)
            }
            token = current.next
        }
        return CompilerError(file: file, line: 1, column: 1, message: message)
    }
}
