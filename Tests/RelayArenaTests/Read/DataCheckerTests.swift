// store.check(operation): relay's DataChecker over real stores, filled by committing responses to
// compiled documents (or loaded from relay store JSON where a response cannot make the state: an
// unknown record behind a link, a tombstone, a server record without its `id`).
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import XCTest

final class DataCheckerTests: XCTestCase {
    static let todo = try! Compiler(
        schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql")))
    static let starwars = try! Compiler(
        schema: GraphQLSourceFile(name: "starwars.graphql", text: Fixtures.text("starwars.graphql")))

    func operation(_ compiler: Compiler, _ doc: String) throws -> OperationArtifact {
        let docs = try compiler.compile([GraphQLSourceFile(name: "test.graphql", text: doc)])
        return try XCTUnwrap(docs.operations.values.first)
    }

    /// Commits `data` (the response's `data` object) as the response to `operation`.
    @discardableResult
    func commit(
        _ store: RecordStore, _ operation: OperationArtifact, _ data: String, _ variables: Variables = [:]
    ) throws -> RecordStore {
        try store.commit(
            response: Array(#"{"data":\#(data)}"#.utf8),
            plan: NormalizationPlan(operation: operation, variables: variables))
        return store
    }

    static let userQuery = """
        query UserQuery($n: Int) {
          user(id: "me") {
            name
            bestFriend { name }
            settings { theme }
            todos(first: $n) { edges { cursor node { text complete } } }
          }
        }
        """
    static let fullUser =
        #"{"user":{"id":"me","name":"Me","bestFriend":{"id":"pal","name":"Pal"},"settings":{"theme":"dark"},"todos":{"edges":[{"cursor":"a","node":{"id":"T1","text":"one","complete":false}}]}}}"#

    func testAFullResponseIsAvailable() throws {
        let op = try operation(Self.todo, Self.userQuery)
        let store = try commit(RecordStore(), op, Self.fullUser, ["n": .int(1)])
        XCTAssertEqual(store.check(operation: op, variables: ["n": .int(1)]), .available)
        store.withSnapshot { s in
            XCTAssertEqual(s.check(operation: op, variables: ["n": .int(1)]), .available)
        }
        // Another root that is the same record: the user itself.
        let userOnly = try operation(Self.todo, #"query UserName { user(id: "me") { name } }"#)
        XCTAssertEqual(store.check(operation: userOnly), .available)
        // A root no one stored.
        XCTAssertEqual(store.check(operation: op, variables: ["n": .int(1)], dataID: "nobody"), .missing)
    }

    func testAnAbsentFieldIsMissing() throws {
        let op = try operation(Self.todo, Self.userQuery)
        // The todo's `complete` absent, deep in the list: every level is walked.
        let noComplete = Self.fullUser.replacingOccurrences(of: #","complete":false"#, with: "")
        XCTAssertNotEqual(noComplete, Self.fullUser)
        let store = try commit(RecordStore(), op, noComplete, ["n": .int(1)])
        XCTAssertEqual(store.check(operation: op, variables: ["n": .int(1)]), .missing)
        // The same store answers the query without that field.
        let withoutComplete = try operation(
            Self.todo,
            Self.userQuery.replacingOccurrences(of: " complete }", with: " }"))
        XCTAssertEqual(store.check(operation: withoutComplete, variables: ["n": .int(1)]), .available)

        // A linked field never fetched on an existing record.
        let moreFields = try operation(Self.todo, #"query Avatar { user(id: "me") { name avatar(size: 8) { url } } }"#)
        XCTAssertEqual(store.check(operation: moreFields), .missing)
    }

    func testALinkedRecordNeverFetchedIsMissingATombstoneIsNot() throws {
        let op = try operation(Self.todo, #"query Friend { user(id: "me") { bestFriend { name } } }"#)
        func store(pal: String) throws -> RecordStore {
            try RecordStore(
                relayJSON: Array(
                    #"{"client:root":{"__id":"client:root","__typename":"__Root","user(id:\"me\")":{"__ref":"me"}},"me":{"__id":"me","__typename":"User","id":"me","bestFriend":{"__ref":"pal"}}\#(pal)}"#
                        .utf8))
        }
        XCTAssertEqual(try store(pal: "").check(operation: op), .missing, "pal is unknown")
        XCTAssertEqual(try store(pal: #","pal":null"#).check(operation: op), .available, "pal is deleted")
        XCTAssertEqual(
            try store(pal: #","pal":{"__id":"pal","__typename":"User","id":"pal","name":"Pal"}"#).check(operation: op),
            .available)
        XCTAssertEqual(
            try store(pal: #","pal":{"__id":"pal","__typename":"User","id":"pal"}"#).check(operation: op), .missing,
            "pal without a name")
    }

    func testExplicitNullsAreAvailable() throws {
        let op = try operation(Self.todo, Self.userQuery)
        let store = try commit(
            RecordStore(), op,
            #"{"user":{"id":"me","name":null,"bestFriend":null,"settings":{"theme":null},"todos":null}}"#,
            ["n": .int(1)])
        XCTAssertEqual(store.check(operation: op, variables: ["n": .int(1)]), .available)
        // The field with another argument was never fetched.
        XCTAssertEqual(store.check(operation: op, variables: ["n": .int(2)]), .missing)
    }

    func testOtherVariablesAreAnotherStorageKey() throws {
        let op = try operation(Self.todo, Self.userQuery)
        let store = try commit(RecordStore(), op, Self.fullUser, ["n": .int(1)])
        XCTAssertEqual(store.check(operation: op, variables: ["n": .int(2)]), .missing)
        XCTAssertEqual(store.check(operation: op), .missing, "no `first`: the key `todos`")
        try commit(store, op, Self.fullUser, [:])
        XCTAssertEqual(store.check(operation: op), .available)
        XCTAssertEqual(store.check(operation: op, variables: ["n": .null]), .available, "null is no argument")
        XCTAssertEqual(store.check(operation: op, variables: ["n": .int(2)]), .missing)
    }

    /// The reader sees a spread as a pointer; the check walks the fragment's fields, inlined in
    /// the normalization selections.
    func testFragmentFieldsAreChecked() throws {
        let op = try operation(
            Self.todo,
            """
            query Spread { user(id: "me") { name ...UserContact } }
            fragment UserContact on User { email settings { language } }
            """)
        let store = try commit(
            RecordStore(), try operation(Self.todo, #"query Name { user(id: "me") { name settings { language } } }"#),
            #"{"user":{"id":"me","name":"Me","settings":{"language":"fi"}}}"#)
        XCTAssertFalse(store.read(operation: op).isMissingData, "the operation's own fields are there")
        XCTAssertEqual(store.check(operation: op), .missing, "the fragment's email is not")
        try commit(store, op, #"{"user":{"id":"me","name":"Me","email":"me@x","settings":{"language":"fi"}}}"#)
        XCTAssertEqual(store.check(operation: op), .available)
    }

    func testAbstractInlineFragments() throws {
        let character = try operation(
            Self.starwars, #"query CharacterName($id: ID!) { node(id: $id) { ... on Character { name } } }"#)
        let human = try operation(
            Self.starwars, #"query HumanName($id: ID!) { node(id: $id) { ... on Human { name } } }"#)
        // Luke stored by a query that says nothing of Character: his name is there, but whether
        // a Human is a Character is not known.
        let store = try commit(
            RecordStore(), human, #"{"node":{"__typename":"Human","id":"1000","name":"Luke"}}"#, ["id": .string("1000")]
        )
        XCTAssertEqual(store.check(operation: human, variables: ["id": .string("1000")]), .available)
        XCTAssertEqual(
            store.check(operation: character, variables: ["id": .string("1000")]), .missing, "unknown conformance")
        try commit(
            store, character, #"{"node":{"__typename":"Human","id":"1000","__isCharacter":"Human","name":"Luke"}}"#,
            ["id": .string("1000")])
        XCTAssertEqual(store.check(operation: character, variables: ["id": .string("1000")]), .available)

        // A Starship is known not to be a Character: its (absent) name is not expected; nor by the
        // concrete fragment on Human.
        try commit(store, character, #"{"node":{"__typename":"Starship","id":"3000"}}"#, ["id": .string("3000")])
        XCTAssertEqual(store.check(operation: character, variables: ["id": .string("3000")]), .available)
        let starship = try operation(
            Self.starwars, #"query Ship($id: ID!) { node(id: $id) { ... on Human { name } ... on Starship { name } } }"#
        )
        XCTAssertEqual(store.check(operation: human, variables: ["id": .string("3000")]), .available, "not a Human")
        XCTAssertEqual(store.check(operation: human, variables: ["id": .string("2001")]), .missing, "unfetched")
        XCTAssertEqual(
            store.check(operation: starship, variables: ["id": .string("3000")]), .missing, "a Starship's name")
    }

    /// A fragment on an abstract type spread on a field of that type is flattened to a type
    /// discriminator: the `__isNode` marker must be known.
    func testTypeDiscriminatorNeedsTheMarker() throws {
        let spread = try operation(
            Self.starwars,
            """
            query NodeSpread { node(id: "1000") { ...NodeID } }
            fragment NodeID on Node { id }
            """)
        guard case .linkedField(let node)? = spread.normalization.first,
            node.selections.contains(.typeDiscriminator(abstractKey: "__isNode"))
        else { return XCTFail("expected a type discriminator: \(spread.normalization)") }
        let plain = try operation(Self.starwars, #"query Plain { node(id: "1000") { id } }"#)
        let store = try commit(RecordStore(), plain, #"{"node":{"__typename":"Human","id":"1000"}}"#)
        XCTAssertEqual(store.check(operation: plain), .available)
        XCTAssertEqual(store.check(operation: spread), .missing)
        try commit(store, spread, #"{"node":{"__typename":"Human","__isNode":"Human","id":"1000"}}"#)
        XCTAssertEqual(store.check(operation: spread), .available)
    }

    func testConditionsFollowTheVariables() throws {
        let op = try operation(
            Self.todo,
            """
            query Cond($withEmail: Boolean!, $brief: Boolean!) {
              user(id: "me") { name email @include(if: $withEmail) settings @skip(if: $brief) { theme } }
            }
            """)
        let vars: Variables = ["withEmail": .bool(false), "brief": .bool(true)]
        let store = try commit(RecordStore(), op, #"{"user":{"id":"me","name":"Me"}}"#, vars)
        XCTAssertEqual(store.check(operation: op, variables: vars), .available)
        XCTAssertEqual(
            store.check(operation: op, variables: ["withEmail": .bool(true), "brief": .bool(true)]), .missing)
        XCTAssertEqual(
            store.check(operation: op, variables: ["withEmail": .bool(false), "brief": .bool(false)]), .missing)
        try commit(
            store, op, #"{"user":{"id":"me","name":"Me","email":"e","settings":{"theme":"t"}}}"#,
            [
                "withEmail": .bool(true), "brief": .bool(false),
            ])
        XCTAssertEqual(
            store.check(operation: op, variables: ["withEmail": .bool(true), "brief": .bool(false)]), .available)
    }

    /// A record that got a client ID (its response had no `id`) is not expected to hold one; a
    /// server record is.
    func testAClientIDRecordNeedsNoID() throws {
        let op = try operation(
            Self.todo, #"query Todos { user(id: "me") { todos(first: 1) { edges { node { text } } } } }"#)
        let store = try commit(RecordStore(), op, #"{"user":{"id":"me","todos":{"edges":[{"node":{"text":"t"}}]}}}"#)
        store.withSnapshot { s in
            guard case .record(let node) = s.record("client:me:todos(first:1):edges:0:node") else {
                return XCTFail("the node has a client ID")
            }
            XCTAssertNil(s.field(node, "id"))
        }
        XCTAssertEqual(store.check(operation: op), .available)

        let userID = try operation(Self.todo, #"query UserID { user(id: "me") { name } }"#)
        let noID = try RecordStore(
            relayJSON: Array(
                #"{"client:root":{"__id":"client:root","__typename":"__Root","user(id:\"me\")":{"__ref":"me"}},"me":{"__id":"me","__typename":"User","name":"Me"}}"#
                    .utf8))
        XCTAssertEqual(noID.check(operation: userID), .missing, "a server record's `id` is a field like any other")
    }

    func testPluralListsWithNullItems() throws {
        let op = try operation(Self.todo, #"query Friends { user(id: "me") { friends(first: 3) { name } } }"#)
        let store = try commit(
            RecordStore(), op,
            #"{"user":{"id":"me","friends":[{"id":"f1","name":"A"},null,{"id":"f2","name":"B"}]}}"#)
        XCTAssertEqual(store.check(operation: op), .available)
        // The item after the null hole lacks its name: the walk goes on past the hole.
        try commit(
            store, try operation(Self.todo, #"query FriendIDs { user(id: "me") { friends(first: 3) { id } } }"#),
            #"{"user":{"id":"me","friends":[{"id":"f1"},null,{"id":"f3"}]}}"#)
        XCTAssertEqual(store.check(operation: op), .missing)

        let edges = try operation(
            Self.todo, #"query Edges { user(id: "me") { todos(first: 3) { edges { cursor node { text } } } } }"#)
        try commit(
            store, edges,
            #"{"user":{"id":"me","todos":{"edges":[null,{"cursor":"b","node":null},{"cursor":"c","node":{"id":"T3","text":"x"}}]}}}"#
        )
        XCTAssertEqual(store.check(operation: edges), .available)
    }
}
