// Reader ASTs, @include/@skip handling, operation variables, scalar value shapes and fragment
// artifacts (type condition, abstract key, @argumentDefinitions, @arguments, @relay(plural:)).
import RelayArena
import RelayArenaCompiler
import XCTest

final class ReaderAndConditionTests: XCTestCase {
    func testReaderHasNoGeneratedFields() throws {
        let operation = try TestCompiler.operation(
            "starwars.graphql", "Q", "query Q { hero { name friends { name } } }")
        let hero = try operation.reader.linked("hero")
        XCTAssertEqual(hero.selections.summary, ["name", "friends{}"])
        XCTAssertEqual(try hero.selections.linked("friends").selections.summary, ["name"])
    }

    func testScalarValueShapes() throws {
        let operation = try TestCompiler.operation(
            "todo.graphql", "Q",
            #"""
            query Q { user(id: "me") {
              name nicknames scores __typename
              avatar(size: 1) { format }
              searchTodos(first: 1) { meta priority tags }
            } }
            """#)
        let user = try operation.normalization.linked("user").selections
        let shapes = try ["id", "name", "nicknames", "scores", "__typename"].map { try user.scalar($0).shape }
        XCTAssertEqual(shapes, [.scalar, .scalar, .list, .list, .scalar])
        XCTAssertEqual(try user.linked("avatar").selections.scalar("format").shape, .scalar, "enums are strings")
        let todo = try user.linked("searchTodos").selections
        XCTAssertEqual(try todo.scalar("meta").shape, .any, "custom scalar JSON holds anything")
        XCTAssertEqual(try todo.scalar("priority").shape, .scalar)
        XCTAssertEqual(try todo.scalar("tags").shape, .list)
    }

    func testLiteralConditionsRemovedOrUnwrapped() throws {
        let operation = try TestCompiler.operation(
            "todo.graphql", "Q",
            #"""
            query Q { user(id: "me") {
              a: name @include(if: false)
              b: name @skip(if: true)
              c: name @include(if: true)
              d: name @skip(if: false)
              ... on User @include(if: false) { email }
            } }
            """#)
        XCTAssertEqual(try operation.reader.linked("user").selections.summary, ["c:name", "d:name"])
        XCTAssertEqual(try operation.normalization.linked("user").selections.summary, ["id", "c:name", "d:name"])
    }

    func testVariableConditionsBecomeConditionNodes() throws {
        let operation = try TestCompiler.operation(
            "todo.graphql", "Q",
            #"""
            query Q($withEmail: Boolean!, $hideName: Boolean = false) { user(id: "me") {
              email @include(if: $withEmail)
              name @skip(if: $hideName)
              bestFriend @include(if: $withEmail) { name }
            } }
            """#)
        for selections in [
            try operation.reader.linked("user").selections, try operation.normalization.linked("user").selections,
        ] {
            let include = try selections.condition("withEmail")
            XCTAssertTrue(include.passingValue)
            XCTAssertEqual(include.selections.summary, ["email", "bestFriend{}"], "same conditions merge")
            let skip = try selections.condition("hideName")
            XCTAssertFalse(skip.passingValue)
            XCTAssertEqual(skip.selections.summary, ["name"])
        }
        // A conditional `id` is not the unconditional `id` the store needs.
        XCTAssertEqual(
            try operation.normalization.linked("user").selections.summary, ["id", "if $withEmail", "unless $hideName"])
        XCTAssertEqual(
            operation.variables,
            [
                VariableDefinition(name: "withEmail", type: "Boolean!"),
                VariableDefinition(name: "hideName", type: "Boolean", defaultValue: .bool(false)),
            ])
    }

    func testVariableDefaults() throws {
        let operation = try TestCompiler.operation(
            "todo.graphql", "Q",
            #"""
            query Q($first: Int! = 10, $status: TodoStatus = ACTIVE, $ids: [ID!] = ["a", "b"],
                    $filter: TodoFilter = {status: COMPLETED, tags: ["x"], minPriority: null}, $p: Int = -3) {
              user(id: "me") { todos(first: $first) { edges { cursor } } searchTodos(filter: $filter) { text } s: searchTodos(filter: {status: $status, minPriority: $p}) { text } }
              nodes(ids: $ids) { id }
              viewer { locale @include(if: true) }
            }
            """#)
        XCTAssertEqual(
            operation.variables,
            [
                VariableDefinition(name: "first", type: "Int!", defaultValue: .int(10)),
                VariableDefinition(name: "status", type: "TodoStatus", defaultValue: .string("ACTIVE")),
                VariableDefinition(name: "ids", type: "[ID!]", defaultValue: .array([.string("a"), .string("b")])),
                VariableDefinition(
                    name: "filter", type: "TodoFilter",
                    defaultValue: .object([
                        JSONMember("status", .string("COMPLETED")), JSONMember("tags", .array([.string("x")])),
                        JSONMember("minPriority", .null),
                    ])),
                VariableDefinition(name: "p", type: "Int", defaultValue: .int(-3)),
            ])
    }

    func testFragmentArtifacts() throws {
        let compiled = try TestCompiler.compile(
            "starwars.graphql",
            """
            fragment CharacterName on Character { name ... on Human { homePlanet } ... on Character { id } }
            fragment HumanList on Human @relay(plural: true) { name }
            """)
        let character = try XCTUnwrap(compiled.fragments["CharacterName"])
        XCTAssertEqual(character.typeCondition, "Character")
        XCTAssertEqual(character.abstractKey, "__isCharacter")
        XCTAssertFalse(character.plural)
        XCTAssertEqual(
            character.selections.summary, ["name", "on Human", "id"], "no __typename/discriminator in readers")
        let humans = try XCTUnwrap(compiled.fragments["HumanList"])
        XCTAssertNil(humans.abstractKey)
        XCTAssertTrue(humans.plural)
        XCTAssertEqual(humans.selections.summary, ["name"])
        XCTAssertTrue(compiled.operations.isEmpty)
    }

    func testFragmentArgumentsBoundWhenInlining() throws {
        let compiled = try TestCompiler.compile(
            "todo.graphql",
            #"""
            fragment Friends on User @argumentDefinitions(count: {type: "Int", defaultValue: 3}, withEmail: {type: "Boolean!"}) {
              friends(first: $count) { name email @include(if: $withEmail) }
            }
            """#,
            #"""
            query Q($n: Int) {
              five: user(id: "5") { ...Friends @arguments(count: 5, withEmail: true) }
              dflt: user(id: "d") { ...Friends }
              vari: user(id: "v") { ...Friends @arguments(count: $n) }
            }
            """#)
        let fragment = try XCTUnwrap(compiled.fragments["Friends"])
        XCTAssertEqual(
            fragment.argumentDefinitions,
            [
                VariableDefinition(name: "count", type: "Int", defaultValue: .int(3)),
                VariableDefinition(name: "withEmail", type: "Boolean!"),
            ])
        XCTAssertEqual(
            try fragment.selections.linked("friends").args, [Argument(name: "first", value: .variable("count"))])

        let operation = try XCTUnwrap(compiled.operations["Q"])
        let five = try operation.normalization.linked("five").selections.linked("friends")
        XCTAssertEqual(five.storageKey, "friends(first:5)")
        XCTAssertEqual(five.selections.summary, ["id", "name", "email"], "literal true condition unwrapped")
        let dflt = try operation.normalization.linked("dflt").selections.linked("friends")
        XCTAssertEqual(dflt.storageKey, "friends(first:3)")
        XCTAssertEqual(dflt.selections.summary, ["id", "name"], "unbound condition variable is null: false")
        let vari = try operation.normalization.linked("vari").selections.linked("friends")
        XCTAssertNil(vari.storageKey)
        XCTAssertEqual(vari.args, [Argument(name: "first", value: .variable("n"))])

        let spreads = try operation.reader.linked("five").selections
        XCTAssertEqual(
            spreads,
            [
                .fragmentSpread(
                    FragmentSpread(
                        name: "Friends",
                        args: [
                            Argument(name: "count", value: .literal(.int(5))),
                            Argument(name: "withEmail", value: .literal(.bool(true))),
                        ]))
            ])
        XCTAssertEqual(
            try operation.reader.linked("dflt").selections, [.fragmentSpread(FragmentSpread(name: "Friends"))])
        XCTAssertFalse(operation.text.contains("$count"), operation.text)
        XCTAssertTrue(operation.text.contains("friends(first: 5)"), operation.text)
    }

    func testNestedFragmentArgumentsAndOperationVariablePassedThrough() throws {
        let compiled = try TestCompiler.compile(
            "todo.graphql",
            #"""
            query Q($n: Int, $dir: Boolean) { user(id: "me") { ...Outer @arguments(outerCount: $n, showText: $dir) } }
            fragment Outer on User @argumentDefinitions(outerCount: {type: "Int"}, showText: {type: "Boolean", defaultValue: true}) {
              bestFriend { ...Inner @arguments(count: $outerCount) }
              todos(first: 1) { edges { node { text @include(if: $showText) } } }
            }
            fragment Inner on User @argumentDefinitions(count: {type: "Int", defaultValue: 2}) { friends(first: $count) { name } }
            """#)
        let operation = try XCTUnwrap(compiled.operations["Q"])
        let user = try operation.normalization.linked("user").selections
        let friends = try user.linked("bestFriend").selections.linked("friends")
        XCTAssertEqual(friends.args, [Argument(name: "first", value: .variable("n"))], "bound through two spreads")
        let node = try user.linked("todos").selections.linked("edges").selections.linked("node")
        XCTAssertEqual(node.selections.summary, ["id", "if $dir"])
        XCTAssertEqual(try XCTUnwrap(compiled.fragments["Outer"]).selections.summary, ["bestFriend{}", "todos{}"])
    }

    func testOperationKindsAndSpreadOnRoot() throws {
        let compiled = try TestCompiler.compile(
            "todo.graphql",
            #"""
            mutation Rename($input: RenameTodoInput!) { renameTodo(input: $input) { todo { text } } }
            query Root { ...RootFields }
            fragment RootFields on Query { viewer { locale } }
            """#)
        let mutation = try XCTUnwrap(compiled.operations["Rename"])
        XCTAssertEqual(mutation.kind, .mutation)
        XCTAssertEqual(
            try mutation.normalization.linked("renameTodo").selections.linked("todo").selections.summary,
            ["id", "text"])
        XCTAssertTrue(mutation.text.hasPrefix("mutation Rename($input: RenameTodoInput!) {"), mutation.text)
        let root = try XCTUnwrap(compiled.operations["Root"])
        XCTAssertEqual(root.reader.summary, ["...RootFields"])
        XCTAssertEqual(root.normalization.summary, ["viewer{}"])
    }
}
