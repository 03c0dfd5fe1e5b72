// The to-do schema and the benchmark query, read from this target's resources: the one copy of
// each, shared with the tests (Fixtures) and Benchmarks/callgrind.sh.
import Foundation
import RelayArena
import RelayArenaCompiler

public enum TodoListDocuments {
    /// `todo.graphql`: the to-do schema.
    public static var schemaURL: URL { url("todo.graphql") }
    /// `todo-list-query.graphql`: TodoListQuery, the benchmark query.
    public static var queryURL: URL { url("todo-list-query.graphql") }

    /// The document called `name` in Documents/, `nil` when there is none.
    public static func url(ifPresent name: String) -> URL? {
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Documents")
    }

    static func url(_ name: String) -> URL {
        guard let url = url(ifPresent: name) else {
            fatalError("RelayArenaWorkloads: resource Documents/\(name) missing")
        }
        return url
    }

    static func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    /// The operation `name` of `document` (its text, named `file` in errors), compiled against
    /// the to-do schema.
    static func operation(_ name: String, in document: String, file: String) throws -> OperationArtifact {
        let schema = try text(schemaURL)
        let compiler = try Compiler(schema: GraphQLSourceFile(name: "todo.graphql", text: schema))
        let docs = try compiler.compile([GraphQLSourceFile(name: file, text: document)])
        guard let operation = docs.operations[name] else {
            throw RelayArenaError(code: .unknownOperation, message: "\(name) missing from \(file)")
        }
        return operation
    }
}
