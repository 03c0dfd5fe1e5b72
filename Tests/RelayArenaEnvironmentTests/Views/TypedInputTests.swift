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

    /// A custom scalar mapped by the configuration: to a built-in type it reads and writes as that
    /// type; to the user's own `GraphQLCustomScalar` through its `_fromJSON` and `jsonValue`.
    func testCustomScalarsFollowTheConfiguration() throws {
        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: try Fixtures.text("todo.graphql")))
        let document = GraphQLSourceFile(
            name: "q.graphql", text: "query M { node(id: \"t1\") { ... on Todo { meta } } }")
        func view(_ scalars: [String: String]) throws -> String {
            try XCTUnwrap(
                SwiftGenerator(compiler: compiler, customScalars: scalars).generate([document])
                    .first { $0.name == "M.graphql.swift" }?.contents)
        }
        let plain = try view([:])
        XCTAssertTrue(plain.contains("public var meta: JSONValue? { __view.json("), plain)
        let string = try view(["JSON": "String"])
        XCTAssertTrue(string.contains("public var meta: String? { __view.string("), string)
        let mapped = try view(["JSON": "Meta"])
        XCTAssertTrue(
            mapped.contains("public var meta: Meta? { __view.json(K(1, \"meta\")).flatMap(Meta._fromJSON) }"), mapped)
        // What that accessor calls, on a type of the user's.
        XCTAssertEqual(Meta._fromJSON(.object([JSONMember("k", .int(1))])), Meta(k: 1))
        XCTAssertEqual(Meta(k: 2).jsonValue, .object([JSONMember("k", .int(2))]))
        XCTAssertEqual([Meta]._fromJSON(.array([.object([JSONMember("k", .int(3))])])), [Meta(k: 3)])
    }
}

/// A custom scalar type of the app's own.
struct Meta: GraphQLCustomScalar {
    var k: Int64
    static let missingValue = Meta(k: 0)
    var jsonValue: JSONValue { .object([JSONMember("k", .int(k))]) }
    static func _fromJSON(_ value: JSONValue) -> Meta? {
        guard case .object(let members) = value, case .int(let k)? = members.first(where: { $0.key == "k" })?.value
        else { return nil }
        return Meta(k: k)
    }
}
