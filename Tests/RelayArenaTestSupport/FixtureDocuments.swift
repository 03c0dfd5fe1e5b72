// Compiling a test's GraphQL against a fixture schema, so that the store tests that keep their
// operations in one document spell the schema and the compile step once.
import RelayArena
import RelayArenaCompiler

extension Fixtures {
    /// `text`, one document named `name`, compiled against the fixture schema `schema`.
    public static func compile(
        _ text: String, schema: String = "todo.graphql", name: String = "q.graphql"
    ) throws -> CompiledDocuments {
        try Compiler(schema: GraphQLSourceFile(name: schema, text: Fixtures.text(schema))).compile([
            GraphQLSourceFile(name: name, text: text)
        ])
    }
}
