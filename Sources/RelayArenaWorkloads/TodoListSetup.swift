// The compiled benchmark query, ready to normalize with: one place for the CLI's quick bench
// and the Benchmarks package to get the same operation and plan from the same documents.
import RelayArena
import RelayArenaCompiler

public enum TodoListSetup {
    /// TodoListQuery compiled against the to-do schema (both from this target's resources).
    public static func operation() throws -> OperationArtifact {
        let schema = try TodoListDocuments.text(TodoListDocuments.schemaURL)
        let query = try TodoListDocuments.text(TodoListDocuments.queryURL)
        let compiler = try Compiler(schema: GraphQLSourceFile(name: "todo.graphql", text: schema))
        let docs = try compiler.compile([GraphQLSourceFile(name: "todo-list-query.graphql", text: query)])
        guard let operation = docs.operations["TodoListQuery"] else {
            throw RelayArenaError(
                code: .unknownOperation, message: "TodoListQuery missing from the workload's documents")
        }
        return operation
    }

    /// The plan for `todos(first: todos)`.
    public static func plan(todos: Int) throws -> NormalizationPlan {
        try NormalizationPlan(operation: operation(), variables: ["first": .int(Int64(todos))])
    }
}
