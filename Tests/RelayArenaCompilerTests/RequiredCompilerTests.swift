// `@required`'s compile-time checks, ported from relay-compiler's `required_directive` fixtures:
// not in `@inline` fragments, not directly in an unaliased inline fragment on an abstract type,
// one `@required` declaration per response path, and no child less severe than its `@required`
// parent; relay's messages and positions, and the valid neighbours that must still compile.
import RelayArena
import RelayArenaCompiler
import XCTest

final class RequiredCompilerTests: XCTestCase {
    /// The part of relay's test schema these fixtures use.
    static let schema = """
        interface Node { id: ID! }
        interface Actor { id: ID! name: String address: StreetAddress }
        type StreetAddress { city: String street: String }
        type User implements Node & Actor { id: ID! name: String address: StreetAddress actor: Actor hometown: Page }
        type Page implements Node & Actor { id: ID! name: String address: StreetAddress }
        type Comment implements Node { id: ID! actor: Actor }
        union UserOrPage = User | Page
        type Query { me: User node(id: ID): Node }
        """

    private func compile(_ document: String) throws -> CompiledDocuments {
        let compiler = try Compiler(schema: GraphQLSourceFile(name: "schema.graphql", text: Self.schema))
        return try compiler.compile([GraphQLSourceFile(name: "doc.graphql", text: document)])
    }

    /// The error compiling `document` throws, checked against `message` and its `[line, column]`.
    private func assertError(
        _ document: String, _ message: String, at position: [Int], file: StaticString = #filePath,
        line: UInt = #line
    ) {
        do {
            _ = try compile(document)
            XCTFail("expected a CompilerError", file: file, line: line)
        } catch let error as CompilerError {
            XCTAssertEqual(error.message, message, file: file, line: line)
            XCTAssertEqual([error.line, error.column], position, file: file, line: line)
            XCTAssertEqual(error.file, "doc.graphql", file: file, line: line)
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
        }
    }

    static let abstractMessage =
        "Unexpected @required within inline fragment on an abstract type. At runtime we cannot know if this field is null, or if it's missing because the inline fragment did not match. Consider using `@alias` to give your inline fragment a name."
    static let mismatchMessage =
        "All references to a field must have matching @required declarations. The field 'name` is @required here"

    static func nestingMessage(_ action: String) -> String {
        "A @required field may not have an `action` less severe than that of its @required parent. This @required directive should probably have `action: \(action)`"
    }

    // MARK: @inline fragments

    func testRequiredWithinAnInlineFragmentDefinitionIsRefused() {
        // inline-directive.invalid
        assertError(
            """
            fragment EnabledFragment on User @inline {
              id
              name @required(action: LOG)
            }
            """, "@required is not supported within @inline fragments.", at: [3, 8])
        // Anywhere in the fragment, not only at its top.
        assertError(
            "fragment F on User @inline {\n  address {\n    city @required(action: THROW)\n  }\n}\n",
            "@required is not supported within @inline fragments.", at: [3, 10])
    }

    func testRequiredInAFragmentSpreadingAnInlineFragmentCompiles() throws {
        let docs = try compile(
            """
            fragment Inlined on User @inline { id }
            fragment F on User { ...Inlined name @required(action: LOG) }
            """)
        XCTAssertEqual(try docs.fragments["F"]?.selections.scalar("name").required, .log)
    }

    // MARK: Unaliased inline fragments on abstract types

    func testRequiredInAnInlineFragmentOnAnInterfaceIsRefused() {
        // inline-fragment-on-interface.invalid
        assertError(
            "fragment EnabledFoo on Node {\n  ... on Actor {\n    name @required(action: LOG)\n  }\n}\n",
            Self.abstractMessage, at: [3, 10])
        // inline-fragment-on-interface-with-linked-field.invalid: a linked field's own @required too.
        assertError(
            "fragment EnabledFoo on Node {\n  ... on Actor {\n    address @required(action: LOG) {\n      __typename\n    }\n  }\n}\n",
            Self.abstractMessage, at: [3, 13])
    }

    func testRequiredInAnInlineFragmentOnAUnionIsRefused() {
        assertError(
            "fragment Foo on Node {\n  ... on UserOrPage {\n    __typename @required(action: LOG)\n  }\n}\n",
            Self.abstractMessage, at: [3, 16])
    }

    func testAConcreteInlineFragmentDoesNotLiftAnEnclosingAbstractOne() {
        // inline-fragment-on-concrete-in-interface.invalid
        assertError(
            "fragment EnabledFoo on Node {\n  ... on Actor {\n    ... on User {\n      name @required(action: LOG)\n    }\n  }\n}\n",
            Self.abstractMessage, at: [4, 12])
        // inline-fragment-on-interface-in-concrete.invalid: User implements Actor, still refused.
        assertError(
            "fragment EnabledFoo on Node {\n  ... on User {\n    ... on Actor {\n      name @required(action: LOG)\n    }\n  }\n}\n",
            Self.abstractMessage, at: [4, 12])
        // Also in an operation.
        assertError(
            "query Q {\n  node(id: \"1\") {\n    ... on Actor {\n      name @required(action: NONE)\n    }\n  }\n}\n",
            Self.abstractMessage, at: [4, 12])
    }

    func testRequiredUnderALinkedFieldOrAnAliasedFragmentOrAConcreteTypeCompiles() throws {
        // inline-fragment-on-interface-within-linked-field: the linked field reads its own object.
        let withinLinked = try compile(
            "fragment EnabledFoo on Node { ... on Actor { address { city @required(action: LOG) } } }")
        let actor = try XCTUnwrap(withinLinked.fragments["EnabledFoo"]).selections.inlineFragment("Actor")
        XCTAssertEqual(try actor.selections.linked("address").selections.scalar("city").required, .log)
        // An aliased inline fragment reads as null when it does not match.
        let aliased = try compile(
            "fragment EnabledFoo on Node { ... on Actor @alias { name @required(action: LOG) } }")
        XCTAssertEqual(aliased.fragments["EnabledFoo"]?.selections.summary, ["Actor: on Actor"])
        // A concrete type condition (and no type condition) is not refused.
        _ = try compile(
            "fragment EnabledFoo on Node { ... on User { name @required(action: LOG) } ... { id @required(action: LOG) } }"
        )
    }

    // MARK: One @required declaration per response path

    func testDifferentActionsAtOnePathAreRefusedAtTheFirstAction() {
        // duplicate-field-different-actions.invalid
        assertError(
            "fragment EnabledFoo on User {\n  name @required(action: NONE)\n  ... on User {\n    name @required(action: LOG)\n  }\n}\n",
            "All references to a @required field must have matching `action` arguments. The `action` used for 'name'",
            at: [2, 26])
    }

    func testRequiredAndNotRequiredAtOnePathAreRefusedAtTheRequiredField() {
        // duplicate-field.invalid: the later one is @required.
        assertError(
            "fragment EnabledFoo on User {\n  name\n  ... on User {\n    name @required(action: LOG)\n  }\n}\n",
            Self.mismatchMessage, at: [4, 5])
        // duplicate-field-include-directive.invalid
        assertError(
            "fragment EnabledFoo on User {\n  ... on User @include(if: true) {\n    name\n  }\n  ... on User {\n    name @required(action: THROW)\n  }\n}\n",
            Self.mismatchMessage, at: [6, 5])
        // The earlier one is @required.
        assertError(
            "fragment EnabledFoo on User {\n  name @required(action: LOG)\n  ... on User {\n    name\n  }\n}\n",
            Self.mismatchMessage, at: [2, 3])
        // Under a field repeated in an operation, and reported at an alias.
        assertError(
            "query Q {\n  me { id }\n  me {\n    name: name @required(action: LOG)\n  }\n  me { name }\n}\n",
            Self.mismatchMessage, at: [4, 5])
    }

    func testMatchingDeclarationsAndDistinctPathsCompile() throws {
        // duplicate-field-ussage-alias: different response keys are different paths.
        let aliases = try compile(
            "fragment EnabledFoo on User { name @required(action: THROW) my_name: name @required(action: LOG) }")
        let selections = try XCTUnwrap(aliases.fragments["EnabledFoo"]).selections
        XCTAssertEqual(try selections.scalar("name").required, .throw)
        XCTAssertEqual(try selections.scalar("my_name").required, .log)
        // conflicting-required-status-across-aliased-inline-fragments: the alias is in the path.
        _ = try compile(
            "fragment Foo on Actor { ... on Actor @alias(as: \"named_fragment\") { name @required(action: NONE) } name }"
        )
        // fragments-are-isolated: each fragment is checked on its own.
        _ = try compile(
            "fragment FragA on User { id name }\nfragment EnabledFragB on User { id name @required(action: LOG) }")
        // The same declaration twice, and one field under two different parents.
        _ = try compile(
            """
            query Q {
              me { name @required(action: LOG) ... on User { name @required(action: LOG) } }
              node(id: "1") { ... on User { name } }
            }
            """)
    }

    // MARK: A child no less severe than its @required parent

    func testAChildLessSevereThanItsRequiredParentIsRefusedAtTheParentsAction() {
        // log-action-bubble-to-throw.invalid
        assertError(
            "fragment EnabledFoo on User {\n  address @required(action: THROW) {\n    city @required(action: LOG)\n  }\n}\n",
            Self.nestingMessage("LOG"), at: [2, 29])
        // none-action-bubble-to-log.invalid
        assertError(
            "fragment EnabledFoo on User {\n  address @required(action: LOG) {\n    city @required(action: NONE)\n  }\n}\n",
            Self.nestingMessage("NONE"), at: [2, 29])
        // none-action-bubble-to-throw.invalid
        assertError(
            "fragment EnabledFoo on User {\n  address @required(action: THROW) {\n    city @required(action: NONE)\n  }\n}\n",
            Self.nestingMessage("NONE"), at: [2, 29])
    }

    func testAChildInAnUnaliasedInlineFragmentIsTheParentsChild() {
        // none-action-bubble-to-log-across-inline-fragment.invalid
        assertError(
            "fragment EnabledFoo on Comment {\n  actor @required(action: LOG) {\n    ... on User {\n      name @required(action: NONE)\n    }\n  }\n}\n",
            Self.nestingMessage("NONE"), at: [2, 27])
    }

    func testEquallyOrMoreSevereChildrenAndOtherNullableParentsCompile() throws {
        // linked-field-log / linked-field-throw: equal actions.
        let equal = try compile(
            "fragment EnabledFoo on User { address @required(action: LOG) { city @required(action: LOG) } }")
        let address = try XCTUnwrap(equal.fragments["EnabledFoo"]).selections.linked("address")
        XCTAssertEqual(address.required, .log)
        XCTAssertEqual(try address.selections.scalar("city").required, .log)
        // A more severe child.
        _ = try compile(
            "fragment EnabledFoo on User { address @required(action: NONE) { city @required(action: THROW) } }")
        // A grandchild bubbles to its own (not @required) parent first.
        _ = try compile(
            "fragment EnabledFoo on Comment { actor @required(action: THROW) { address { city @required(action: NONE) } } }"
        )
        // An aliased inline fragment is the nullable parent of its fields.
        _ = try compile(
            "fragment EnabledFoo on Comment { actor @required(action: THROW) { ... on User @alias { name @required(action: NONE) } } }"
        )
        // A child that is not @required.
        _ = try compile("fragment EnabledFoo on User { address @required(action: THROW) { city } }")
    }
}
