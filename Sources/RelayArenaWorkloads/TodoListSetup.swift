// The compiled benchmark query, ready to normalize with: one place for the CLI's quick bench
// and the Benchmarks package to get the same operation and plan from the same documents.
import RelayArena

public enum TodoListSetup {
    /// TodoListQuery compiled against the to-do schema (both from this target's resources).
    public static func operation() throws -> OperationArtifact {
        try TodoListDocuments.operation(
            "TodoListQuery", in: TodoListDocuments.text(TodoListDocuments.queryURL), file: "todo-list-query.graphql")
    }

    /// The plan for `todos(first: todos)`.
    public static func plan(todos: Int) throws -> NormalizationPlan {
        try NormalizationPlan(operation: operation(), variables: ["first": .int(Int64(todos))])
    }
}
