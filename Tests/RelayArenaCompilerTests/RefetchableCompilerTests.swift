// @refetchable synthesis in the compiler (reference §9): which types qualify, what the query's
// variables are (fragment arguments with defaults, global variables typed from their use), errors.
import RelayArena
import RelayArenaCompiler
import XCTest

final class RefetchableCompilerTests: XCTestCase {
    func testGlobalVariablesAreTypedFromTheirUseIncludingSpreadFragments() throws {
        let result = try TestCompiler.make("todo.graphql").compileWithMetadata([
            GraphQLSourceFile(
                name: "doc.graphql",
                text: """
                    fragment Avatar_user on User @argumentDefinitions(size: {type: "Int", defaultValue: 32}) {
                      avatar(size: $size, format: $format) { url }
                    }
                    fragment Profile_user on User @refetchable(queryName: "ProfileRefetchQuery") {
                      name
                      searchTodos(filter: {status: $status, tags: [$tag]}, first: $first) { id }
                      ...Avatar_user @arguments(size: $avatarSize)
                      bestFriend @skip(if: $noFriend) { id }
                    }
                    """)
        ])
        let query = try XCTUnwrap(result.documents.operations["ProfileRefetchQuery"])
        XCTAssertEqual(
            query.variables.map { "\($0.name): \($0.type)" },
            [
                "avatarSize: Int", "first: Int", "format: ImageFormat", "noFriend: Boolean!", "status: TodoStatus",
                "tag: String!", "id: ID!",
            ])
        XCTAssertTrue(
            query.text.hasPrefix(
                "query ProfileRefetchQuery($avatarSize: Int, $first: Int, $format: ImageFormat, $noFriend: Boolean!, $status: TodoStatus, $tag: String!, $id: ID!) {\n  node(id: $id) {\n"
            ), query.text)
        // The local `size` of Avatar_user is bound by @arguments, not an operation variable.
        XCTAssertTrue(query.text.contains("avatar(format: $format, size: $avatarSize)"), query.text)
    }

    func testAbstractTypeWithoutIDGetsIDInsideNode() throws {
        // A union whose members all implement Node has no `id` field itself.
        let compiler = try Compiler(
            schema: GraphQLSourceFile(
                name: "s.graphql",
                text: """
                    interface Node { id: ID! }
                    type A implements Node { id: ID! a: Int }
                    type B implements Node { id: ID! b: Int }
                    union AB = A | B
                    type Query { node(id: ID!): Node }
                    """))
        let result = try compiler.compileWithMetadata([
            GraphQLSourceFile(
                name: "d.graphql",
                text: """
                    fragment F_ab on AB @refetchable(queryName: "FRefetchQuery") { ... on A { a } }
                    """)
        ])
        let fragment = try XCTUnwrap(result.documents.fragments["F_ab"])
        XCTAssertEqual(fragment.selections.summary, ["on A", "on Node [__isNode]"])
        XCTAssertEqual(result.refetch["F_ab"]?.fragmentPathInResult, ["node"])
    }

    func testTypeThatCannotBeRefetchedIsAnErrorAtTheDirective() throws {
        let error = try TestCompiler.error(
            "todo.graphql",
            [
                GraphQLSourceFile(
                    name: "a.graphql",
                    text: """
                        fragment A_conn on TodoConnection @refetchable(queryName: "AQuery") {
                          edges { cursor }
                        }
                        """)
            ])
        // relay reports it at the fragment's name, with one line per kind of type it can refetch
        // (one line here, as every error of the command line is).
        XCTAssertEqual("\(error.file):\(error.line):\(error.column)", "a.graphql:1:10")
        XCTAssertEqual(
            error.message,
            "Invalid use of @refetchable on fragment 'A_conn', only supported are fragments on: - the Viewer type - the Query type - the Node interface, object types that implement the Node interface, interfaces whose implementing objects all implement Node, and unions whose members all implement Node - server objects and interfaces with the @fetchable directive"
        )
    }

    func testArgumentNamedIDIsAnError() throws {
        let error = try TestCompiler.error(
            "todo.graphql",
            [
                GraphQLSourceFile(
                    name: "a.graphql",
                    text: """
                        fragment A_todo on Todo @refetchable(queryName: "AQuery") @argumentDefinitions(id: {type: "ID"}) { text }
                        """)
            ])
        XCTAssertEqual(
            error.message,
            "Invalid use of @refetchable on fragment `A_todo`, this fragment already has an `$id` variable in scope.")
    }

    func testQueryNameTakenIsAnError() throws {
        let error = try TestCompiler.error(
            "todo.graphql",
            [
                GraphQLSourceFile(name: "a.graphql", text: "query AQuery { viewer { locale } }\n"),
                GraphQLSourceFile(
                    name: "b.graphql", text: "fragment A_todo on Todo @refetchable(queryName: \"AQuery\") { text }\n"),
            ])
        // At the queryName's value, as relay reports it.
        XCTAssertEqual("\(error.file):\(error.line):\(error.column)", "b.graphql:1:49")
        XCTAssertEqual(
            error.message,
            "The `queryName` specified in `@refetchable` must be unique, a definition with the name `AQuery` already exists."
        )
    }

    func testPluralAndMissingQueryNameAreErrors() throws {
        let plural = try TestCompiler.error(
            "todo.graphql",
            [
                GraphQLSourceFile(
                    name: "a.graphql",
                    text: """
                        fragment A_todos on Todo @relay(plural: true) @refetchable(queryName: "AQuery") { text }
                        """)
            ])
        XCTAssertEqual(
            plural.message,
            "Invalid use of @refetchable on fragment `A_todos`, fragments cannot be annotated with both @refetchable and @relay(plural: true)."
        )
        let unnamed = try TestCompiler.error(
            "todo.graphql",
            [
                GraphQLSourceFile(
                    name: "a.graphql",
                    text: """
                        fragment A_todo on Todo @refetchable { text }
                        """)
            ])
        XCTAssertEqual(unnamed.message, "@refetchable needs a queryName: String argument.")
    }

    func testPlainCompileStillListsTheSynthesizedQuery() throws {
        let compiled = try TestCompiler.compile(
            "todo.graphql", "fragment A_viewer on Viewer @refetchable(queryName: \"AQuery\") { locale }")
        XCTAssertEqual(compiled.operations["AQuery"]?.reader.summary, ["viewer{}"])
        XCTAssertEqual(try compiled.operations["AQuery"]?.reader.linked("viewer").selections.summary, ["...A_viewer"])
    }
}
