// Typed inputs (Relay.swift's generated input structs): the schema's input objects used by an
// operation's variables become structs — required fields required, nullable ones optional and left
// out of the JSON when nil, enums and nested inputs typed — and read back from variables.
import Foundation
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import XCTest

final class TypedInputTests: XCTestCase {
    func testGeneratedInputsWriteTheServersJSON() throws {
        let add = AddTodoInput(text: "Milk", userId: "me")
        XCTAssertEqual(
            add.jsonValue, .object([JSONMember("text", .string("Milk")), JSONMember("userId", .string("me"))]))
        XCTAssertEqual(AddTodoInput._fromJSON(add.jsonValue), add)
        XCTAssertNil(AddTodoInput._fromJSON(.object([JSONMember("text", .string("Milk"))])), "userId is required")
        let mutation = AddTodoMutation(
            input: AddTodoInput(clientMutationId: "m1", text: "Milk", userId: "me"), connections: [])
        XCTAssertEqual(
            mutation.variables.asJSON["input"],
            .object([
                JSONMember("clientMutationId", .string("m1")), JSONMember("text", .string("Milk")),
                JSONMember("userId", .string("me")),
            ]))
    }

    func testNestedInputsAndEnumsAreGeneratedOnce() throws {
        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: try Fixtures.text("todo.graphql")))
        let files = try SwiftGenerator(compiler: compiler).generate([
            GraphQLSourceFile(
                name: "q.graphql",
                text: """
                    query A($f: TodoFilter) { user(id: "me") { searchTodos(filter: $f, first: 1) { id } } }
                    query B($f: TodoFilter!) { user(id: "me") { searchTodos(filter: $f, first: 2) { id } } }
                    """)
        ])
        let names = files.map(\.name)
        XCTAssertEqual(names.filter { $0 == "TodoFilter.graphql.swift" }.count, 1, "\(names)")
        XCTAssertTrue(names.contains("TodoStatus.graphql.swift"), "the input's enum field brings its enum: \(names)")
        let filter = try XCTUnwrap(files.first { $0.name == "TodoFilter.graphql.swift" }?.contents)
        // `status` has a default in the schema, so it may be left out: optional.
        for line in [
            "public var status: TodoStatus?", "public var textContains: String?", "public var tags: [String]?",
        ] {
            XCTAssertTrue(filter.contains(line), "\(line) missing from\n\(filter)")
        }
        let a = try XCTUnwrap(files.first { $0.name == "A.graphql.swift" }?.contents)
        XCTAssertTrue(a.contains("public var f: TodoFilter?"), a)
    }
}
