// relay's reader on `@alias`, ported from RelayReader-AliasedFragments-test.js: an aliased spread
// or inline fragment reads into its own member — a pointer, an `@inline` fragment's data, or the
// fields — `null` when the record is known not to match, absent (and missing data) when an abstract
// type's implementations are unknown, absent under a false condition. The stores are relay's
// records, loaded from their toJSON form. (The `@required` cases wait for field errors.)
import RelayArena
import RelayArenaCompiler
import XCTest

final class FragmentAliasReaderTests: XCTestCase {
    static let schema = """
        interface Node { id: ID! }
        interface MaybeNodeInterface { name: String }
        type User implements Node { id: ID! name: String }
        type Comment implements Node { id: ID! name: String }
        type Story implements Node & MaybeNodeInterface { id: ID! name: String }
        type Query { me: User node(id: ID): Node }
        """

    static let documents = """
        fragment F_user on User { name }
        fragment F_query on Query { me { name } }
        fragment F_maybe on MaybeNodeInterface { name }
        fragment F_inline on User @inline { name }

        query MeQuery { me { ...F_user @alias(as: "aliased_fragment") } }
        query InlineQuery { me { ...F_inline @alias(as: "aliased_fragment") } }
        query NodeInlineQuery($id: ID!) { node(id: $id) { ...F_inline @alias(as: "aliased_fragment") } }
        query SkipQuery($someCondition: Boolean!) {
          me { ...F_user @alias(as: "aliased_fragment") @skip(if: $someCondition) }
        }
        query SkipFirstQuery($someCondition: Boolean!) {
          me { ...F_user @skip(if: $someCondition) @alias(as: "aliased_fragment") }
        }
        query RootQuery { ...F_query @alias }
        query NodeUserQuery($id: ID!) { node(id: $id) { ...F_user @alias(as: "aliased_fragment") } }
        query NodeMaybeQuery($id: ID!) { node(id: $id) { ...F_maybe @alias(as: "aliased_fragment") } }

        query InlineUserQuery { me { ... on User @alias(as: "aliased_fragment") { name } } }
        query InlineOnQueryQuery { ... on Query @alias(as: "aliased_fragment") { me { name } } }
        query InlineNoTypeQuery { me { ... @alias(as: "aliased_fragment") { name } } }
        query NodeInlineUserQuery($id: ID!) { node(id: $id) { ... on User @alias(as: "aliased_fragment") { name } } }
        query NodeInlineMaybeQuery($id: ID!) {
          node(id: $id) { ... on MaybeNodeInterface @alias(as: "aliased_fragment") { name } }
        }
        """

    static let docs = try! Compiler(schema: GraphQLSourceFile(name: "schema.graphql", text: schema)).compile([
        GraphQLSourceFile(name: "doc.graphql", text: documents)
    ])

    /// relay's source: `client:root` with `me` → `1` and `node(id:"1")` → `1`, record `1` of
    /// `typename`, and its type record with `__isMaybeNodeInterface` when given.
    func store(typename: String, name: String? = nil, isMaybeNode: Bool? = nil) throws -> RecordStore {
        var record = #""1":{"__id":"1","id":"1","__typename":"\#(typename)""#
        if let name { record += #","name":"\#(name)""# }
        record += "}"
        var typeRecord =
            #""client:__type:\#(typename)":{"__id":"client:__type:\#(typename)","__typename":"__TypeSchema""#
        if let isMaybeNode { typeRecord += #","__isMaybeNodeInterface":\#(isMaybeNode)"# }
        typeRecord += "}"
        let json = #"""
            {"client:root":{"__id":"client:root","__typename":"__Root","me":{"__ref":"1"},"node(id:\"1\")":{"__ref":"1"}},
             \#(record),\#(typeRecord)}
            """#
        return try RecordStore(relayJSON: Array(json.utf8))
    }

    func read(_ store: RecordStore, _ operation: String, _ variables: Variables = [:]) -> (String, Bool) {
        let result = store.read(operation: Self.docs.operations[operation]!, variables: variables)
        return (result.data?.jsonText ?? "undefined", result.isMissingData)
    }

    func owner(_ operation: String, _ variables: String = "{}") -> String {
        #""__fragmentOwner":{"name":"\#(operation)","variables":\#(variables)}"#
    }

    // MARK: Fragment spreads

    func testReadsAnAliasedFragmentAsItsOwnType() throws {
        let (data, missing) = read(try store(typename: "User"), "MeQuery")
        XCTAssertFalse(missing)
        XCTAssertEqual(
            data, #"{"me":{"aliased_fragment":{"__id":"1","__fragments":{"F_user":{}},\#(owner("MeQuery"))}}}"#)
    }

    func testReadsAnAliasedInlineDataFragment() throws {
        let (data, missing) = read(try store(typename: "User", name: "Elizabeth"), "InlineQuery")
        XCTAssertFalse(missing)
        XCTAssertEqual(
            data, #"{"me":{"aliased_fragment":{"__id":"1","__fragments":{"F_inline":{"name":"Elizabeth"}}}}}"#)
    }

    func testAnAliasedInlineDataFragmentThatDoesNotMatchIsNull() throws {
        let (data, missing) = read(try store(typename: "Comment"), "NodeInlineQuery", ["id": .string("1")])
        XCTAssertFalse(missing)
        XCTAssertEqual(data, #"{"node":{"aliased_fragment":null}}"#)
    }

    func testAConditionalAliasedFragmentIsAbsentWhenSkipped() throws {
        let store = try store(typename: "User")
        for operation in ["SkipQuery", "SkipFirstQuery"] {
            let (skipped, skippedMissing) = read(store, operation, ["someCondition": .bool(true)])
            XCTAssertFalse(skippedMissing)
            XCTAssertEqual(skipped, #"{"me":{}}"#, operation)
            let (data, missing) = read(store, operation, ["someCondition": .bool(false)])
            XCTAssertFalse(missing)
            XCTAssertEqual(
                data,
                #"{"me":{"aliased_fragment":{"__id":"1","__fragments":{"F_user":{}},\#(owner(operation, #"{"someCondition":false}"#))}}}"#
            )
        }
    }

    func testReadsAnUnconditionalFragmentOnQueryAtTheRoot() throws {
        let (data, missing) = read(try store(typename: "User"), "RootQuery")
        XCTAssertFalse(missing)
        XCTAssertEqual(
            data, #"{"F_query":{"__id":"client:root","__fragments":{"F_query":{}},\#(owner("RootQuery"))}}"#)
    }

    func testAConcreteFragmentThatDoesNotMatchTheAbstractSelectionIsNull() throws {
        let (data, missing) = read(try store(typename: "Comment"), "NodeUserQuery", ["id": .string("1")])
        XCTAssertFalse(missing)
        XCTAssertEqual(data, #"{"node":{"aliased_fragment":null}}"#)
    }

    func testAnAbstractFragmentThatDoesNotMatchIsNull() throws {
        let (data, missing) = read(
            try store(typename: "Comment", isMaybeNode: false), "NodeMaybeQuery", ["id": .string("1")])
        XCTAssertFalse(missing)
        XCTAssertEqual(data, #"{"node":{"aliased_fragment":null}}"#)
    }

    func testAnAbstractFragmentWhoseMatchIsUnknownIsAbsentAndMissing() throws {
        let (data, missing) = read(try store(typename: "Comment"), "NodeMaybeQuery", ["id": .string("1")])
        XCTAssertTrue(missing)
        XCTAssertEqual(data, #"{"node":{}}"#)
    }

    func testAnAbstractFragmentThatMatchesIsAPointer() throws {
        let (data, missing) = read(
            try store(typename: "Story", isMaybeNode: true), "NodeMaybeQuery", ["id": .string("1")])
        XCTAssertFalse(missing)
        XCTAssertEqual(
            data,
            #"{"node":{"aliased_fragment":{"__id":"1","__fragments":{"F_maybe":{}},\#(owner("NodeMaybeQuery", #"{"id":"1"}"#))}}}"#
        )
    }

    // MARK: Inline fragments

    func testReadsAnAliasedInlineFragmentAsItsOwnField() throws {
        let (data, missing) = read(try store(typename: "User", name: "Chelsea"), "InlineUserQuery")
        XCTAssertFalse(missing)
        XCTAssertEqual(data, #"{"me":{"aliased_fragment":{"name":"Chelsea"}}}"#)
    }

    func testReadsAnAliasedInlineFragmentOnQuery() throws {
        let (data, missing) = read(try store(typename: "User", name: "Chelsea"), "InlineOnQueryQuery")
        XCTAssertFalse(missing)
        XCTAssertEqual(data, #"{"aliased_fragment":{"me":{"name":"Chelsea"}}}"#)
    }

    func testReadsAnAliasedInlineFragmentWithoutATypeCondition() throws {
        let (data, missing) = read(try store(typename: "User", name: "Chelsea"), "InlineNoTypeQuery")
        XCTAssertFalse(missing)
        XCTAssertEqual(data, #"{"me":{"aliased_fragment":{"name":"Chelsea"}}}"#)
    }

    func testAnAliasedInlineFragmentThatDoesNotMatchIsNull() throws {
        let concrete = read(try store(typename: "Comment"), "NodeInlineUserQuery", ["id": .string("1")])
        XCTAssertEqual(concrete.0, #"{"node":{"aliased_fragment":null}}"#)
        XCTAssertFalse(concrete.1)
        let abstract = read(
            try store(typename: "Comment", isMaybeNode: false), "NodeInlineMaybeQuery", ["id": .string("1")])
        XCTAssertEqual(abstract.0, #"{"node":{"aliased_fragment":null}}"#)
        XCTAssertFalse(abstract.1)
    }

    func testAnAliasedInlineFragmentWhoseMatchIsUnknownIsAbsentAndMissing() throws {
        let (data, missing) = read(try store(typename: "Comment"), "NodeInlineMaybeQuery", ["id": .string("1")])
        XCTAssertTrue(missing)
        XCTAssertEqual(data, #"{"node":{}}"#)
    }

    func testAnAliasedInlineFragmentsMissingFieldIsMissingData() throws {
        // Matched, so its fields are expected: `name` was never fetched.
        let (data, missing) = read(try store(typename: "User"), "InlineUserQuery")
        XCTAssertTrue(missing)
        XCTAssertEqual(data, #"{"me":{"aliased_fragment":{}}}"#)
    }
}
