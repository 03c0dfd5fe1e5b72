// Which fragments relay-compiler can make `@refetchable`, ported from relay's
// `refetchable_fragment` fixtures: `node` with any one argument (`id: ID` included), Viewer,
// `@fetchable` types and `preferFetchable`, the connection rules, name conflicts, and relay's texts.
import RelayArena
import RelayArenaCompiler
import XCTest

final class RefetchableValidityTests: XCTestCase {
    /// relay's own test schema shape: a Node interface, `node(id: ID)` (nullable), a Viewer, a
    /// `@fetchable` type that does not implement Node and one that does.
    static let schema = """
        directive @fetchable(field_name: String!) on OBJECT | INTERFACE
        directive @owner(name: String!) on QUERY
        interface Node { id: ID! }
        type User implements Node {
          id: ID!
          name: String
          friends(first: Int, after: String, last: Int, before: String): FriendsConnection
          groups: [Group]
        }
        type Group { members(first: Int, after: String): FriendsConnection }
        type FriendsConnection { edges: [FriendsEdge] pageInfo: PageInfo }
        type FriendsEdge { cursor: String node: User }
        type PageInfo { hasNextPage: Boolean hasPreviousPage: Boolean startCursor: String endCursor: String }
        type Viewer { actor: User }
        type NonNodeStory @fetchable(field_name: "fetch_id") { fetch_id: ID! title: String }
        type FetchableType implements Node @fetchable(field_name: "fetch_id") { id: ID! fetch_id: ID! }
        type BadStory @fetchable(field_name: "title") { title: String }
        type LostStory @fetchable(field_name: "fetch_id") { fetch_id: ID! }
        interface NoImplementation { id: ID! }
        interface Named { name: String }
        type Pet implements Named { name: String }
        type Query {
          node(id: ID): Node
          viewer: Viewer
          fetch__NonNodeStory(input_fetch_id: ID!): NonNodeStory
          fetch__FetchableType(id: ID!): FetchableType
          fetch__BadStory(id: ID!): BadStory
        }
        """

    private func compile(_ document: String, schema: String = schema) throws -> CompilationResult {
        try Compiler(schema: GraphQLSourceFile(name: "schema.graphql", text: schema)).compileWithMetadata([
            GraphQLSourceFile(name: "doc.graphql", text: document)
        ])
    }

    private func error(_ document: String, schema: String = schema, line: UInt = #line) throws -> CompilerError {
        do {
            _ = try compile(document, schema: schema)
        } catch let error as CompilerError {
            return error
        }
        XCTFail("expected a CompilerError", line: line)
        throw LookupFailure()
    }

    func testNodeQueryTakesANullableIDArgumentAndDeclaresItNonNull() throws {
        let result = try compile(
            """
            fragment RefetchableFragment on User @refetchable(queryName: "RefetchableFragmentQuery") { name }
            """)
        let query = try XCTUnwrap(result.documents.operations["RefetchableFragmentQuery"])
        XCTAssertTrue(
            query.text.hasPrefix("query RefetchableFragmentQuery($id: ID!) {\n  node(id: $id) {\n"), query.text)
        XCTAssertEqual(result.refetch["RefetchableFragment"]?.fragmentPathInResult, ["node"])
        XCTAssertEqual(result.refetch["RefetchableFragment"]?.identifierField, "id")
        // `id` is added to the fragment, as relay adds it.
        XCTAssertEqual(result.documents.fragments["RefetchableFragment"]?.selections.summary, ["name", "id"])
    }

    func testNodeQueryUsesTheOneArgumentWhateverItsName() throws {
        let schema = Self.schema.replacingOccurrences(of: "node(id: ID): Node", with: "node(nodeID: ID!): Node")
        let result = try compile(
            "fragment F on User @refetchable(queryName: \"FQuery\") { name }", schema: schema)
        let text = try XCTUnwrap(result.documents.operations["FQuery"]?.text)
        XCTAssertTrue(text.hasPrefix("query FQuery($id: ID!) {\n  node(nodeID: $id) {\n"), text)
    }

    func testNodeFieldWithTwoArgumentsIsAnError() throws {
        let schema = Self.schema.replacingOccurrences(of: "node(id: ID): Node", with: "node(id: ID, other: Int): Node")
        let error = try error("fragment F on User @refetchable(queryName: \"FQuery\") { name }", schema: schema)
        XCTAssertEqual(
            error.message,
            "Invalid use of @refetchable on fragment 'F', check that your schema defines a `Node { id: ID }` interface and has a `node(id: ID): Node` field on the query type (the id argument may also be non-null)."
        )
        XCTAssertEqual("\(error.line):\(error.column)", "1:10")
    }

    func testViewerNeedsAnArgumentFreeViewerField() throws {
        let schema = Self.schema.replacingOccurrences(of: "viewer: Viewer", with: "viewer(as: ID): Viewer")
        let error = try error(
            "fragment V on Viewer @refetchable(queryName: \"VQuery\") { actor { name } }", schema: schema)
        XCTAssertEqual(
            error.message,
            "Invalid use of @refetchable on fragment 'V', check that your schema defines a 'Viewer' object type and has a 'viewer: Viewer' field on the query type."
        )
    }

    func testInterfacesQualifyOnlyWhenEveryImplementationIsANode() throws {
        // relay's lines, joined as every error of the command line is.
        let unsupported =
            "Invalid use of @refetchable on fragment 'RefetchableFragment', only supported are fragments on: - the Viewer type - the Query type - the Node interface, object types that implement the Node interface, interfaces whose implementing objects all implement Node, and unions whose members all implement Node - server objects and interfaces with the @fetchable directive"
        // fragment-on-interface-without-implementations.invalid
        let none = try error(
            "fragment RefetchableFragment on NoImplementation @refetchable(queryName: \"RefetchableFragmentQuery\") { id }"
        )
        XCTAssertEqual(none.message, unsupported)
        // fragment-on-interface-which-implementations-not-implement-node.invalid
        let notNodes = try error(
            "fragment RefetchableFragment on Named @refetchable(queryName: \"RefetchableFragmentQuery\") { name }")
        XCTAssertEqual(notNodes.message, unsupported)
    }

    func testFetchableTypeIsRefetchedThroughItsFetchField() throws {
        // fragment-on-non-node-fetchable-type: the field's own argument name, `$id` last, the
        // identifying field added to the fragment.
        let result = try compile(
            """
            fragment RefetchableFragment on NonNodeStory @refetchable(queryName: "RefetchableFragmentQuery") {
              title
              ...Sized
            }
            fragment Sized on NonNodeStory { title @include(if: $withTitle) }
            """)
        let query = try XCTUnwrap(result.documents.operations["RefetchableFragmentQuery"])
        XCTAssertTrue(
            query.text.hasPrefix(
                "query RefetchableFragmentQuery($withTitle: Boolean!, $id: ID!) {\n  fetch__NonNodeStory(input_fetch_id: $id) {\n"
            ), query.text)
        XCTAssertEqual(result.refetch["RefetchableFragment"]?.fragmentPathInResult, ["fetch__NonNodeStory"])
        XCTAssertEqual(
            result.documents.fragments["RefetchableFragment"]?.selections.summary, ["title", "...Sized", "fetch_id"])
    }

    func testPreferFetchablePicksTheFetchFieldOverNode() throws {
        func path(_ directive: String) throws -> [String]? {
            try compile("fragment F on FetchableType \(directive) { fetch_id }").refetch["F"]?.fragmentPathInResult
        }
        XCTAssertEqual(try path("@refetchable(queryName: \"FQuery\")"), ["node"])
        XCTAssertEqual(try path("@refetchable(queryName: \"FQuery\", preferFetchable: false)"), ["node"])
        XCTAssertEqual(try path("@refetchable(queryName: \"FQuery\", preferFetchable: true)"), ["fetch__FetchableType"])
        // refetchable-prefer-fetchable-non-constant.invalid
        let error = try error(
            """
            fragment F on FetchableType @refetchable(queryName: "FQuery", preferFetchable: $prefer) \
            @argumentDefinitions(prefer: {type: "Boolean!"}) { fetch_id }
            """)
        XCTAssertEqual(
            error.message,
            "Expected the 'preferFetchable' argument of @refetchable to be a literal Boolean value, got '$prefer'")
    }

    func testFetchableSchemaErrors() throws {
        let badField = try error("fragment B on BadStory @refetchable(queryName: \"BQuery\") { title }")
        XCTAssertEqual(
            badField.message,
            "Invalid use of @refetchable on fragment 'B', the type 'BadStory' is @fetchable but the identifying field 'title' does not have type 'ID'."
        )
        let noFetchField = try error("fragment L on LostStory @refetchable(queryName: \"LQuery\") { fetch_id }")
        XCTAssertEqual(
            noFetchField.message,
            "Invalid use of @refetchable on fragment 'L', the type 'LostStory' is @fetchable but there is no corresponding 'fetch__LostStory' field or it is invalid (expected 'fetch__LostStory(id: ID!): $LostStory')."
        )
    }

    func testConnectionRules() throws {
        // refetchable-fragment-with-connection-literal-count.invalid
        let literal = try error(
            """
            fragment PaginationFragment on Node @refetchable(queryName: "RefetchableFragmentQuery")
              @argumentDefinitions(cursor: {type: "String"}) {
              id
              ... on User {
                friends(after: $cursor, first: 10) @connection(key: "PaginationFragment_friends") {
                  edges { node { id } }
                }
              }
            }
            """)
        XCTAssertEqual(
            literal.message,
            "Invalid use of @refetchable with @connection in fragment 'PaginationFragment', refetchable connections must use variables for the after and first arguments."
        )
        XCTAssertEqual("\(literal.line):\(literal.column)", "1:10")
        // refetchable-fragment-with-connection-no-cursor.invalid: a backward connection without `before`.
        let noCursor = try error(
            """
            fragment P on User @refetchable(queryName: "PQuery") {
              friends(last: $count) @connection(key: "P_friends") { edges { node { id } } }
            }
            """)
        XCTAssertEqual(
            noCursor.message,
            "Invalid use of @refetchable with @connection in fragment 'P', refetchable connections must use variables for the before and last arguments."
        )
        // refetchable-fragment-with-connection-unstable-path.invalid: under a plural field.
        let plural = try error(
            """
            fragment P on User @refetchable(queryName: "PQuery") {
              groups {
                members(first: $count, after: $cursor) @connection(key: "P_members") { edges { node { id } } }
              }
            }
            """)
        XCTAssertEqual(
            plural.message,
            "Invalid use of @refetchable with @connection in fragment 'P', refetchable connections cannot appear inside plural fields."
        )
        let two = try error(
            """
            fragment P on User @refetchable(queryName: "PQuery") {
              a: friends(first: $count, after: $cursor) @connection(key: "P_friends") { edges { node { id } } }
              b: friends(last: $last, before: $before) @connection(key: "Q_friends") { edges { node { id } } }
            }
            """)
        XCTAssertEqual(
            two.message,
            "Invalid use of @refetchable with @connection in fragment 'P', at most once @connection can appear in a refetchable fragment."
        )
        // refetchable-fragment-with-connection-bidirectional: both directions, each with variables.
        let both = try compile(
            """
            fragment P on User @refetchable(queryName: "PQuery") {
              friends(first: $first, after: $after, last: $last, before: $before) @connection(key: "P_friends") {
                edges { node { id } }
              }
            }
            """)
        XCTAssertEqual(
            both.refetch["P"]?.connection,
            ConnectionMetadata(
                path: ["friends"], forward: PageVariables(count: "first", cursor: "after"),
                backward: PageVariables(count: "last", cursor: "before")))
    }

    func testNameConflictsUseRelaysTexts() throws {
        let duplicate = try error(
            """
            fragment Zed on User @refetchable(queryName: "SameQuery") { name }
            fragment Abe on User @refetchable(queryName: "SameQuery") { id }
            """)
        XCTAssertEqual(
            duplicate.message,
            "Duplicate definition for @refetchable operation 'SameQuery' from fragments 'Abe' and 'Zed'")
        // A fragment's name is taken too, not only an operation's.
        let fragmentName = try error(
            """
            fragment Other on User { name }
            fragment F on User @refetchable(queryName: "Other") { id }
            """)
        XCTAssertEqual(
            fragmentName.message,
            "The `queryName` specified in `@refetchable` must be unique, a definition with the name `Other` already exists."
        )
        let notString = try error("fragment F on User @refetchable(queryName: FQuery) { id }")
        XCTAssertEqual(
            notString.message, "Expected the 'queryName' argument of @refetchable to be a string, got 'FQuery")
    }

    func testAFragmentArgumentMayNotShadowAGlobalVariableOfASpread() throws {
        let error = try error(
            """
            fragment F on User @refetchable(queryName: "FQuery") @argumentDefinitions(count: {type: "Int"}) {
              ...Friends
            }
            fragment Friends on User { friends(first: $count) { edges { cursor } } }
            """)
        XCTAssertEqual(
            error.message,
            "Fragment variable `$count` conflicts with a global variable generated by the @refetchable generated query")
    }

    func testDirectivesArgumentIsPrintedOnTheQuery() throws {
        let result = try compile(
            #"fragment F on User @refetchable(queryName: "FQuery", directives: ["@owner(name: \"growth\")"]) { name }"#
        )
        let text = try XCTUnwrap(result.documents.operations["FQuery"]?.text)
        XCTAssertTrue(text.hasPrefix("query FQuery($id: ID!) @owner(name: \"growth\") {\n"), text)
        let error = try error(#"fragment F on User @refetchable(queryName: "FQuery", directives: [1]) { name }"#)
        XCTAssertTrue(
            error.message.hasPrefix(
                "When provided, the `directives` argument to `@refetchable` needs to be a list of literal strings."),
            error.message)
    }
}
