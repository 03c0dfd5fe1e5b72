// The normalization AST transforms: generated `id`/`__typename`, `... on Node { id }` for abstract
// fields, `__isX` abstract keys, type discriminators, and fragment spreads inlined/flattened.
import RelayArena
import RelayArenaCompiler
import XCTest

final class NormalizationTransformTests: XCTestCase {
    func testIDAddedFirstToLinkedFieldsWithAnIDButNotToTheRoot() throws {
        let operation = try TestCompiler.operation(
            "todo.graphql", "Q",
            #"""
            query Q { user(id: "me") { name bestFriend { email } avatar(size: 1) { url } } viewer { unreadCount } }
            """#)
        XCTAssertEqual(operation.normalization.summary, ["user{}", "viewer{}"])
        let user = try operation.normalization.linked("user")
        XCTAssertEqual(user.selections.summary, ["id", "name", "bestFriend{}", "avatar{}"])
        XCTAssertEqual(try user.selections.linked("bestFriend").selections.summary, ["id", "email"])
        XCTAssertEqual(try user.selections.linked("avatar").selections.summary, ["url"], "Image has no id")
        XCTAssertEqual(try operation.normalization.linked("viewer").selections.summary, ["unreadCount"])
    }

    func testExistingIDNotDuplicatedButAliasedIDDoesNotCount() throws {
        let operation = try TestCompiler.operation(
            "todo.graphql", "Q",
            #"""
            query Q { a: user(id: "a") { name id } b: user(id: "b") { myId: id name } }
            """#)
        XCTAssertEqual(try operation.normalization.linked("a").selections.summary, ["name", "id"])
        XCTAssertEqual(try operation.normalization.linked("b").selections.summary, ["id", "myId:id", "name"])
    }

    func testAbstractFieldGetsTypenameAndID() throws {
        let operation = try TestCompiler.operation(
            "starwars.graphql", "Q",
            """
            query Q { hero { name friends { name } } again: hero(episode: JEDI) { __typename id name } }
            """)
        let hero = try operation.normalization.linked("hero")
        XCTAssertNil(hero.concreteType)
        XCTAssertEqual(hero.selections.summary, ["__typename", "id", "name", "friends{}"])
        let friends = try hero.selections.linked("friends")
        XCTAssertTrue(friends.plural)
        XCTAssertEqual(friends.selections.summary, ["__typename", "id", "name"])
        XCTAssertEqual(try operation.normalization.linked("again").selections.summary, ["__typename", "id", "name"])
        XCTAssertEqual(try operation.normalization.linked("again").storageKey, #"hero(episode:"JEDI")"#)
    }

    func testUnionWithoutIDGetsNodeFragmentOnly() throws {
        // Human, Droid and Starship implement Node; Planet has no id: only `... on Node { id }`.
        let operation = try TestCompiler.operation(
            "starwars.graphql", "S",
            """
            query S { search(text: "x") { ... on Planet { name } } }
            """)
        let search = try operation.normalization.linked("search")
        XCTAssertNil(search.concreteType)
        XCTAssertTrue(search.plural)
        XCTAssertEqual(search.selections.summary, ["__typename", "on Planet", "on Node [__isNode]"])
        XCTAssertEqual(try search.selections.inlineFragment("Node").selections.summary, ["id"])
        XCTAssertTrue(operation.text.contains("__isNode: __typename"), operation.text)
    }

    func testIDFragmentsForMembersOutsideNode() throws {
        let schema = """
            interface Node { id: ID! }
            type A implements Node { id: ID! }
            type C { id: ID, x: Int }
            type B { id: ID! }
            type D { x: Int }
            union U = A | B | C | D
            union V = B | D
            type Query { u: U, v: V }
            """
        let compiler = try Compiler(schema: GraphQLSourceFile(name: "ids.graphql", text: schema))
        let compiled = try compiler.compile([
            GraphQLSourceFile(name: "q.graphql", text: "query Q { u { __typename } v { __typename } }")
        ])
        let root = try XCTUnwrap(compiled.operations["Q"]).normalization
        XCTAssertEqual(try root.linked("u").selections.summary, ["__typename", "on Node [__isNode]", "on B", "on C"])
        XCTAssertEqual(try root.linked("v").selections.summary, ["__typename", "on B"])
    }

    func testAbstractInlineFragmentsCarryAbstractKey() throws {
        let operation = try TestCompiler.operation(
            "starwars.graphql", "Q",
            #"""
            query Q { search(text: "x") { ... on Character { name } ... on Starship { length } } }
            """#)
        let search = try operation.normalization.linked("search")
        XCTAssertEqual(
            search.selections.summary,
            ["__typename", "on Character [__isCharacter]", "on Starship", "on Node [__isNode]"])
        XCTAssertEqual(try search.selections.inlineFragment("Character").selections.summary, ["name"])
        XCTAssertEqual(operation.reader.summary, ["search{}"])
        XCTAssertEqual(
            try operation.reader.linked("search").selections.summary, ["on Character [__isCharacter]", "on Starship"])
    }

    func testSameTypeInlineFragmentsFlattenAndFieldsMerge() throws {
        let operation = try TestCompiler.operation(
            "todo.graphql", "Q",
            #"""
            query Q { user(id: "me") { name ... on User { email bestFriend { name } } ... { bestFriend { email } name } } }
            """#)
        let user = try operation.normalization.linked("user")
        XCTAssertEqual(user.selections.summary, ["id", "name", "email", "bestFriend{}"])
        XCTAssertEqual(try user.selections.linked("bestFriend").selections.summary, ["id", "name", "email"])
        XCTAssertEqual(try operation.reader.linked("user").selections.summary, ["name", "email", "bestFriend{}"])
    }

    func testAbstractFragmentFlattenedIntoSameAbstractFieldLeavesTypeDiscriminator() throws {
        let operation = try TestCompiler.operation(
            "starwars.graphql", "Q",
            """
            query Q { hero { ...CharacterName } }
            fragment CharacterName on Character { name }
            """)
        let hero = try operation.normalization.linked("hero")
        XCTAssertEqual(hero.selections.summary, ["__typename", "id", "disc __isCharacter", "name"])
        XCTAssertEqual(try operation.reader.linked("hero").selections.summary, ["...CharacterName"])
        XCTAssertTrue(operation.text.contains("__isCharacter: __typename"), operation.text)
    }

    func testSpreadsInlinedInNormalizationAndKeptInReader() throws {
        let compiled = try TestCompiler.compile(
            "starwars.graphql",
            """
            query Q { hero { ...HumanInfo @dangerously_unaliased_fixme ...NodeID @dangerously_unaliased_fixme } human(id: "1") { ...HumanInfo } }
            """,
            """
            fragment HumanInfo on Human { homePlanet starships { name } }
            fragment NodeID on Node { id }
            """)
        let operation = try XCTUnwrap(compiled.operations["Q"])
        let hero = try operation.normalization.linked("hero")
        XCTAssertEqual(hero.selections.summary, ["__typename", "id", "on Human", "on Node [__isNode]"])
        let human = try hero.selections.inlineFragment("Human")
        XCTAssertNil(human.abstractKey)
        XCTAssertEqual(human.selections.summary, ["homePlanet", "starships{}"])
        XCTAssertEqual(try human.selections.linked("starships").selections.summary, ["id", "name"])
        // A concrete fragment on the field's own type is merged into the field.
        XCTAssertEqual(
            try operation.normalization.linked("human").selections.summary, ["id", "homePlanet", "starships{}"])
        XCTAssertEqual(try operation.reader.linked("hero").selections.summary, ["...HumanInfo", "...NodeID"])
        XCTAssertEqual(try operation.reader.linked("human").selections.summary, ["...HumanInfo"])
    }

    func testQueryTextIsValidAndCarriesGeneratedFields() throws {
        let operation = try TestCompiler.operation(
            "starwars.graphql", "Q",
            """
            query Q($ep: Episode = JEDI, $withFriends: Boolean!) {
              hero(episode: $ep) { ...CharacterName friends @include(if: $withFriends) { name } }
              search(text: "x") { ... on Planet { name } }
            }
            fragment CharacterName on Character { name }
            """)
        XCTAssertTrue(
            operation.text.hasPrefix("query Q($ep: Episode = JEDI, $withFriends: Boolean!) {"), operation.text)
        for expected in [
            "__typename", "id", "__isNode: __typename", "__isCharacter: __typename", "@include(if: $withFriends)",
        ] {
            XCTAssertTrue(operation.text.contains(expected), "\(expected) missing from\n\(operation.text)")
        }
        // The printed text is itself a valid document for the schema (fragments inlined, so no
        // fragment-local variables are left in it).
        XCTAssertNoThrow(try TestCompiler.operation("starwars.graphql", "Q", operation.text))
    }

    /// Shopify's `@inContext(country:)` shape: an operation's own server directive stays in the
    /// text with the variable it uses, which would otherwise be dropped as unused.
    func testOperationDirectivesAndTheirVariablesAreSent() throws {
        let compiler = try Compiler(
            schema: GraphQLSourceFile(
                name: "s.graphql",
                text: """
                    enum CountryCode { CA US }
                    directive @inContext(country: CountryCode, language: String) on QUERY | MUTATION
                    type Product { id: ID! title: String }
                    type Query { product(id: ID!): Product }
                    """))
        let compiled = try compiler.compile([
            GraphQLSourceFile(
                name: "d.graphql",
                text: """
                    query Q($id: ID!, $country: CountryCode) @inContext(country: $country, language: "fr") {
                      product(id: $id) { title }
                    }
                    """)
        ])
        let text = try XCTUnwrap(compiled.operations["Q"]?.text)
        XCTAssertTrue(
            text.hasPrefix(
                "query Q($id: ID!, $country: CountryCode) @inContext(country: $country, language: \"fr\") {\n"), text)
        XCTAssertEqual(compiled.operations["Q"]?.variables.map(\.name), ["id", "country"])
        // relay's own directives on an operation are never sent.
        let relayOnly = try compiler.compile([
            GraphQLSourceFile(name: "d.graphql", text: "query R @relay_test_operation { product(id: \"1\") { title } }")
        ])
        XCTAssertEqual(relayOnly.operations["R"]?.text.hasPrefix("query R {\n"), true)
    }
}
