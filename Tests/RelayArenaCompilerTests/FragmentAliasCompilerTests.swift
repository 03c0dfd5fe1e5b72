// `@alias` on spreads and inline fragments, ported from relay-compiler's
// `fragment_alias_directive` fixtures: the default names, relay's errors and their positions,
// v19's enforcement where a spread may not match (and its exemptions), and that aliasing changes
// neither the request's text nor the normalization AST.
import RelayArena
import RelayArenaCompiler
import XCTest

final class FragmentAliasCompilerTests: XCTestCase {
    /// The shape of relay's test schema these fixtures use.
    static let schema = """
        interface Node { id: ID! }
        interface MaybeNodeInterface { name: String }
        type User implements Node { id: ID! name: String }
        type Story implements Node & MaybeNodeInterface { id: ID! name: String }
        type Query { me: User node(id: ID): Node nodes(ids: [ID!]): [Node] }
        """

    private func compile(_ document: String, enforcing: Bool = true) throws -> CompiledDocuments {
        var compiler = try Compiler(schema: GraphQLSourceFile(name: "schema.graphql", text: Self.schema))
        compiler.enforcesFragmentAlias = enforcing
        return try compiler.compile([GraphQLSourceFile(name: "doc.graphql", text: document)])
    }

    private func error(_ document: String, line: UInt = #line) throws -> CompilerError {
        do {
            _ = try compile(document)
        } catch let error as CompilerError {
            return error
        }
        XCTFail("expected a CompilerError", line: line)
        throw LookupFailure()
    }

    static let userFragment = "fragment F_user on User { name }\n"

    func testASpreadsDefaultAliasIsTheFragmentsName() throws {
        let docs = try compile(Self.userFragment + "query Q { me { ...F_user @alias } }")
        let me = try docs.operations["Q"]!.reader.linked("me")
        XCTAssertEqual(me.selections.summary, ["F_user: on User"])
        guard case .aliasedInlineFragment(let alias) = me.selections[0] else { return XCTFail("not aliased") }
        XCTAssertEqual(alias.selections.summary, ["...F_user"])
        XCTAssertNil(alias.abstractKey)
    }

    func testAnInlineFragmentsDefaultAliasIsItsTypeAndAnAbstractTypeHasItsKey() throws {
        let docs = try compile(
            "query Q { node(id: \"1\") { ... on User @alias { name } ... on MaybeNodeInterface @alias(as: \"named\") { name } } }"
        )
        let node = try docs.operations["Q"]!.reader.linked("node")
        XCTAssertEqual(node.selections.summary, ["User: on User", "named: on MaybeNodeInterface"])
        guard case .aliasedInlineFragment(let named) = node.selections[1] else { return XCTFail("not aliased") }
        XCTAssertEqual(named.abstractKey, "__isMaybeNodeInterface")
    }

    func testAnInlineFragmentWithoutATypeConditionNeedsAName() throws {
        let docs = try compile("query Q { me { ... @alias(as: \"aliased_fragment\") { name } } }")
        XCTAssertEqual(try docs.operations["Q"]!.reader.linked("me").selections.summary, ["aliased_fragment: on _"])

        let e = try error("fragment Foo on Node {\n    ... @alias {\n        id\n    }\n}\n")
        XCTAssertEqual(
            e.message,
            "Missing required argument `as`. The `as` argument of the @alias directive is required on inline fragments without a type condition."
        )
        XCTAssertEqual([e.line, e.column], [2, 9])
    }

    func testAnEmptyAliasIsRefused() throws {
        let e = try error(
            "query Q {\n  me {\n    id\n    ... on User @alias(as: \"\") {\n      name\n    }\n  }\n}\n")
        XCTAssertEqual(
            e.message,
            "Unexpected empty string supplied for `as` argument of the @alias directive. If provided, the `as` argument of the `@alias` directive must be a non-empty string literal."
        )
        XCTAssertEqual([e.line, e.column], [4, 28])
    }

    func testAPluralFragmentIsNotAliasedInAList() throws {
        let plural = "fragment P_user on User @relay(plural: true) { name }\n"
        let e = try error(plural + "query Q {\n  nodes {\n    ...P_user @alias\n  }\n}\n")
        XCTAssertEqual(
            e.message,
            "Unexpected `@alias` on spread of plural fragment. @alias may not be used on fragments marked as `@relay(plural: true)`."
        )
        XCTAssertEqual([e.line, e.column], [4, 16])
        // In a single selection it may (and, as it might not match, must) be aliased.
        _ = try compile(plural + "query Q { node(id: \"1\") { ...P_user @alias } }")
        let unaliased = try error(plural + "query Q {\n  node(id: \"1\") {\n    ...P_user\n  }\n}\n")
        XCTAssertEqual(
            unaliased.message,
            "Expected `@alias` directive. `P_user` is defined on `User` which might not match this selection type of `Node`. Add `@alias` to this spread to expose the fragment reference as a nullable property."
        )
        XCTAssertEqual([unaliased.line, unaliased.column], [4, 8])
        // A plural fragment in a list reads its own nullability: no alias needed.
        _ = try compile(plural + "query Q { nodes { ...P_user } }")
    }

    func testAConditionalSpreadNeedsAnAlias() throws {
        let e = try error(
            Self.userFragment + "query Q($c: Boolean!) {\n  me {\n    ...F_user @skip(if: $c)\n  }\n}\n")
        XCTAssertEqual(
            e.message,
            "Expected `@alias` directive. Fragment spreads with (or within an inline fragment with) `@skip` are conditionally fetched. Add `@alias` to this spread to expose the fragment reference as a nullable property."
        )
        XCTAssertEqual([e.line, e.column], [4, 8])
        // Also inside an inline fragment that carries the condition, however deep.
        let within = try error(
            Self.userFragment + """
                query Q($someCondition: Boolean!) {
                  me {
                    ... @include(if: $someCondition) {
                      ... on User {
                        ...F_user
                      }
                    }
                  }
                }
                """)
        XCTAssertTrue(within.message.contains("`@include` are conditionally fetched"), within.message)
        XCTAssertEqual([within.line, within.column], [6, 12])
        // Aliased, with the condition either side of it, or exempted, it compiles.
        _ = try compile(
            Self.userFragment + "query Q($c: Boolean!) { me { ...F_user @alias(as: \"a\") @skip(if: $c) } }")
        _ = try compile(
            Self.userFragment + "query Q($c: Boolean!) { me { ...F_user @skip(if: $c) @alias(as: \"a\") } }")
        _ = try compile(
            Self.userFragment + "query Q($c: Boolean!) { me { ...F_user @skip(if: $c) @dangerously_unaliased_fixme } }")
        // A linked field starts afresh: its own spreads are not conditional.
        _ = try compile(Self.userFragment + "query Q($c: Boolean!) { ... @include(if: $c) { me { ...F_user } } }")
    }

    func testASpreadThatMightNotMatchItsSelectionsTypeNeedsAnAlias() throws {
        let e = try error(Self.userFragment + "query Q {\n  node(id: \"1\") {\n    ...F_user\n  }\n}\n")
        XCTAssertEqual(
            e.message,
            "Expected `@alias` directive. `F_user` is defined on `User` which might not match this selection type of `Node`. Add `@alias` to this spread to expose the fragment reference as a nullable property."
        )
        // An unaliased inline fragment does not refine the selection's type…
        let refined = try error(
            Self.userFragment + "query Q {\n  node(id: \"1\") {\n    ... on User {\n      ...F_user\n    }\n  }\n}\n")
        XCTAssertTrue(
            refined.message.hasSuffix(
                " NOTE: The selection type inferred here does not include inline fragments because Relay does not always model inline fragment type refinements in its generated types."
            ), refined.message)
        XCTAssertEqual([refined.line, refined.column], [5, 10])
        // … an aliased one does.
        _ = try compile(
            Self.userFragment + "query Q { node(id: \"1\") { ... on User @alias(as: \"user\") { ...F_user } } }")
        // Inline fragments themselves never need one; a subtype needs none; nor an exempted spread.
        _ = try compile("query Q { node(id: \"1\") { ... on User { name } } }")
        _ = try compile("fragment N on Node { id }\nquery Q { me { ...N } }")
        _ = try compile(Self.userFragment + "query Q { node(id: \"1\") { ...F_user @dangerously_unaliased_fixme } }")
        // With enforcement off, documents written before relay v19 compile as they did.
        _ = try compile(
            Self.userFragment + "query Q($c: Boolean!) { node(id: \"1\") { ...F_user @include(if: $c) } }",
            enforcing: false)
    }

    func testAliasingChangesNeitherTheRequestNorTheNormalization() throws {
        let aliased = try compile(
            Self.userFragment + """
                query Q($c: Boolean!) {
                  node(id: "1") {
                    ...F_user @alias(as: "user") @include(if: $c)
                    ... on Story @alias(as: "story") { name }
                    ... @alias(as: "any") { id }
                  }
                }
                """
        ).operations["Q"]!
        let plain = try compile(
            Self.userFragment + """
                query Q($c: Boolean!) {
                  node(id: "1") {
                    ...F_user @include(if: $c)
                    ... on Story { name }
                    id
                  }
                }
                """, enforcing: false
        ).operations["Q"]!
        XCTAssertEqual(aliased.text, plain.text)
        XCTAssertEqual(aliased.normalization, plain.normalization)
        XCTAssertNotEqual(aliased.reader, plain.reader)
    }
}
