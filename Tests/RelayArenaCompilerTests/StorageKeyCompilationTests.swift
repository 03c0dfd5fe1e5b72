// Storage keys and argument values as compiled from real documents against the fixture schemas:
// every static row of the semantics doc's §2.2 table, plus the variable rows' argument shapes.
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import XCTest

final class StorageKeyCompilationTests: XCTestCase {
    private static let keysQuery = #"""
        query Keys {
          user(id: "me") {
            name
            t1: todos(first: 100) { edges { cursor } }
            t2: todos(first: 2, after: "YXJyYXk6MQ==") { edges { cursor } }
            t3: todos(first: 2, after: null) { edges { cursor } }
            t4: todos(after: null) { edges { cursor } }
            a1: avatar(format: JPEG, size: 64) { url }
            a2: avatar(size: 64) { url }
            s1: searchTodos(includeArchived: true, first: 0) { text }
            s2: searchTodos(orderBy: [PRIORITY, TEXT]) { text }
            s3: searchTodos(filter: {textContains: "milk", status: ACTIVE}) { text }
            s4: searchTodos(filter: {status: ANY, minPriority: null}) { text }
            s5: searchTodos(orderBy: PRIORITY) { text }
          }
          u2: user(id: "a\"b\\c") { name }
          u3: user(id: "José") { name }
          node(id: "7") { id }
        }
        """#

    func testStaticStorageKeysOfTheSemanticsTable() throws {
        let operation = try TestCompiler.operation("todo.graphql", "Keys", Self.keysQuery)
        let root = operation.normalization
        XCTAssertEqual(try root.linked("user").storageKey, #"user(id:"me")"#)
        XCTAssertEqual(try root.linked("u2").storageKey, #"user(id:"a\"b\\c")"#)
        XCTAssertEqual(try root.linked("u3").storageKey, #"user(id:"José")"#)
        XCTAssertEqual(try root.linked("node").storageKey, #"node(id:"7")"#)

        let user = try root.linked("user").selections
        XCTAssertNil(try user.scalar("name").storageKey, "no arguments: the runtime uses the name")
        let expected: [(String, String?)] = [
            ("t1", "todos(first:100)"),
            ("t2", #"todos(after:"YXJyYXk6MQ==",first:2)"#),
            ("t3", "todos(first:2)"),
            ("t4", nil),
            ("a1", #"avatar(format:"JPEG",size:64)"#),
            ("a2", "avatar(size:64)"),
            ("s1", "searchTodos(first:0,includeArchived:true)"),
            ("s2", #"searchTodos(orderBy:["PRIORITY","TEXT"])"#),
            ("s3", #"searchTodos(filter:{"status":"ACTIVE","textContains":"milk"})"#),
            ("s4", #"searchTodos(filter:{"minPriority":null,"status":"ANY"})"#),
            ("s5", #"searchTodos(orderBy:"PRIORITY")"#),
        ]
        for (alias, key) in expected {
            XCTAssertEqual(try user.linked(alias).storageKey, key, alias)
        }
    }

    func testLiteralNullArgumentsAreDroppedAndArgumentsSorted() throws {
        let operation = try TestCompiler.operation("todo.graphql", "Keys", Self.keysQuery)
        let user = try operation.normalization.linked("user").selections
        XCTAssertEqual(try user.linked("t3").args, [Argument(name: "first", value: .literal(.int(2)))])
        XCTAssertEqual(try user.linked("t4").args, [])
        XCTAssertEqual(try user.linked("t2").args.map(\.name), ["after", "first"])
        XCTAssertEqual(
            try user.linked("a1").args,
            [
                Argument(name: "format", value: .literal(.string("JPEG"))),
                Argument(name: "size", value: .literal(.int(64))),
            ])
    }

    func testEnumArgumentOnStarWarsField() throws {
        let operation = try TestCompiler.operation(
            "starwars.graphql", "H", #"query H { human(id: "1") { height(unit: FOOT) } }"#)
        let human = try operation.normalization.linked("human")
        XCTAssertEqual(try human.selections.scalar("height").storageKey, #"height(unit:"FOOT")"#)
    }

    func testVariableArgumentsHaveNoStaticKey() throws {
        let operation = try TestCompiler.operation(
            "todo.graphql", "V",
            #"""
            query V($n: Int, $c: String, $q: String, $a: ID!) {
              user(id: "me") {
                todos(first: $n, after: $c) { edges { cursor } }
                searchTodos(filter: {textContains: $q, status: ACTIVE, tags: ["x"]}) { text }
              }
              nodes(ids: [$a, "T2"]) { id }
            }
            """#)
        let user = try operation.normalization.linked("user")
        let todos = try user.selections.linked("todos")
        XCTAssertNil(todos.storageKey)
        XCTAssertEqual(
            todos.args,
            [Argument(name: "after", value: .variable("c")), Argument(name: "first", value: .variable("n"))])

        let search = try user.selections.linked("searchTodos")
        XCTAssertNil(search.storageKey)
        XCTAssertEqual(
            search.args,
            [
                Argument(
                    name: "filter",
                    value: .object([
                        ArgumentMember("textContains", .variable("q")),
                        ArgumentMember("status", .literal(.string("ACTIVE"))),
                        ArgumentMember("tags", .literal(.array([.string("x")]))),
                    ]))
            ])

        let nodes = try operation.normalization.linked("nodes")
        XCTAssertNil(nodes.storageKey)
        XCTAssertEqual(nodes.args, [Argument(name: "ids", value: .list([.variable("a"), .literal(.string("T2"))]))])
    }

    func testFloatsAndCustomScalarObjectsInStaticKeys() throws {
        let schema = """
            scalar JSON
            type Query { scaled(factor: Float, ratio: Float, data: JSON, big: JSON): Int }
            """
        let compiler = try Compiler(schema: GraphQLSourceFile(name: "inline.graphql", text: schema))
        let compiled = try compiler.compile([
            GraphQLSourceFile(
                name: "q.graphql",
                text: #"""
                    query F {
                      a: scaled(factor: 2.0, ratio: 0.5)
                      b: scaled(factor: 1.5e-7)
                      c: scaled(data: {z: [1, null, "\u00e9"], a: {y: true, x: 1e3}})
                      d: scaled(factor: 3)
                    }
                    """#)
        ])
        let root = try XCTUnwrap(compiled.operations["F"]).normalization
        XCTAssertEqual(try root.scalar("a").storageKey, "scaled(factor:2.0,ratio:0.5)")
        XCTAssertEqual(try root.scalar("b").storageKey, "scaled(factor:1.5e-7)")
        XCTAssertEqual(try root.scalar("c").storageKey, #"scaled(data:{"a":{"x":1000.0,"y":true},"z":[1,null,"é"]})"#)
        XCTAssertEqual(
            try root.scalar("d").storageKey, "scaled(factor:3)", "an Int literal stays an Int (no input coercion)")
        XCTAssertEqual(try root.scalar("a").args.first?.value, .literal(.double(2.0)))
    }

    func testTodoListQueryFixture() throws {
        let compiled = try TestCompiler.compile("todo.graphql", Fixtures.text("todo-list-query.graphql"))
        let operation = try XCTUnwrap(compiled.operations["TodoListQuery"])
        XCTAssertEqual(operation.kind, .query)
        XCTAssertEqual(operation.variables, [VariableDefinition(name: "first", type: "Int!")])
        let user = try operation.normalization.linked("user")
        XCTAssertEqual(user.concreteType, "User")
        XCTAssertFalse(user.plural)
        let todos = try user.selections.linked("todos")
        XCTAssertEqual(todos.args, [Argument(name: "first", value: .variable("first"))])
        let edges = try todos.selections.linked("edges")
        XCTAssertTrue(edges.plural)
        XCTAssertEqual(edges.concreteType, "TodoEdge")
        XCTAssertEqual(try edges.selections.linked("node").selections.summary, ["id", "text", "complete"])
        XCTAssertEqual(
            try todos.selections.linked("pageInfo").selections.summary,
            ["hasNextPage", "hasPreviousPage", "startCursor", "endCursor"])
    }
}
