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
                "id: ID!", "status: TodoStatus", "tag: String!", "first: Int", "avatarSize: Int", "format: ImageFormat",
                "noFriend: Boolean!",
            ])
        XCTAssertTrue(
            query.text.hasPrefix(
                "query ProfileRefetchQuery($id: ID!, $status: TodoStatus, $tag: String!, $first: Int, $avatarSize: Int, $format: ImageFormat, $noFriend: Boolean!) {\n  node(id: $id) {\n"
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
        XCTAssertEqual(error.file, "a.graphql")
        XCTAssertEqual(error.line, 1)
        XCTAssertEqual(error.column, 35)
        XCTAssertTrue(error.message.hasPrefix("Invalid use of @refetchable on fragment \"A_conn\""), error.message)
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
        XCTAssertTrue(error.message.contains("cannot declare an argument named \"id\""), error.message)
    }

    func testQueryNameTakenIsAnError() throws {
        let error = try TestCompiler.error(
            "todo.graphql",
            [
                GraphQLSourceFile(name: "a.graphql", text: "query AQuery { viewer { locale } }\n"),
                GraphQLSourceFile(
                    name: "b.graphql", text: "fragment A_todo on Todo @refetchable(queryName: \"AQuery\") { text }\n"),
            ])
        XCTAssertEqual("\(error.file):\(error.line):\(error.column)", "b.graphql:1:25")
        XCTAssertEqual(
            error.message, "There can be only one operation named \"AQuery\" (@refetchable on A_todo synthesizes it).")
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
        XCTAssertEqual(plural.message, "@refetchable is not supported on plural fragment \"A_todos\".")
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
