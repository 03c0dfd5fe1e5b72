// relay's client field `__id`: selectable on every type, read as the record's data ID, never
// sent and never written from a response; the IDs it reads feed the declarative directives.
// The cases of relay-compiler's `relay-client-id-field` fixture (the root, an object, a
// connection, an abstract type; never printed) and of relay's declarative connection mutations.
import Foundation
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import XCTest

@MainActor
final class ClientIDFieldTests: XCTestCase {
    nonisolated static let docs = try! Fixtures.compile(
        """
        query ClientIDQuery($count: Int!, $nodeID: ID!) {
          __id
          me: user(id: "me") {
            __id
            id
            todos(first: $count) @connection(key: "ClientID_todos") {
              __id
              edges { node { __id id text } }
            }
          }
          node(id: $nodeID) { __id ... on Todo { text } }
        }
        mutation ClientIDAddMutation($input: AddTodoInput!, $connections: [ID!]!) {
          addTodo(input: $input) { todoEdge @appendEdge(connections: $connections) { cursor node { __id id text } } }
        }
        """)
    static let query = docs.operations["ClientIDQuery"]!
    static let variables: Variables = ["count": .int(2), "nodeID": .string("t1")]
    static let connection = "client:me:__ClientID_todos_connection"

    /// The server answers with an `__id` of its own: it is not a field, so nothing of it is kept.
    static let response = Array(
        #"""
        {"data":{"__id":"evil","me":{"__id":"evil","id":"me","todos":{"__id":"evil","edges":[
          {"cursor":"c1","node":{"__typename":"Todo","id":"t1","text":"one"}},
          {"cursor":"c2","node":{"__typename":"Todo","id":"t2","text":"two"}}],
          "pageInfo":{"endCursor":"c2","hasNextPage":false,"hasPreviousPage":false,"startCursor":"c1"}}},
         "node":{"__typename":"Todo","__id":"evil","id":"t1","text":"one"}}}
        """#.utf8)

    static func data(_ result: ReadResult) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(result.jsonText.utf8)) as! [String: Any]
        return object["data"] as! [String: Any]
    }

    func testTheRequestNeverAsksForIt() async {
        XCTAssertFalse(Self.query.text.contains("__id"), Self.query.text)
        XCTAssertFalse(Self.docs.operations["ClientIDAddMutation"]!.text.contains("__id"))
    }

    func testReadsTheDataIDAndIsNeverWrittenFromData() async throws {
        let (environment, _) = Environment.mock()
        try environment.commitPayload(Self.query, variables: Self.variables, response: Self.response)
        let json = String(decoding: try environment.store.relayJSON(), as: UTF8.self)
        // relay's toJSON records carry their ID as `__id`; the response's own `__id` is not kept.
        XCTAssertFalse(json.contains("evil"), json)

        let result = environment.store.read(operation: Self.query, variables: Self.variables)
        XCTAssertFalse(result.isMissingData)
        let data = try Self.data(result)
        XCTAssertEqual(data["__id"] as? String, RecordStore.rootID)
        let me = data["me"] as! [String: Any]
        XCTAssertEqual(me["__id"] as? String, "me")
        let todos = me["todos"] as! [String: Any]
        // On a @connection field, the client connection record the handle points at.
        XCTAssertEqual(todos["__id"] as? String, Self.connection)
        let nodes = (todos["edges"] as! [[String: Any]]).map { ($0["node"] as! [String: Any])["__id"] as? String }
        XCTAssertEqual(nodes, ["t1", "t2"])
        XCTAssertEqual((data["node"] as! [String: Any])["__id"] as? String, "t1")
    }

    /// The list screen's `__id` of its connection is what `@appendEdge(connections:)` takes.
    func testTheConnectionsIDFeedsAppendEdge() async throws {
        let (environment, network) = Environment.mock()
        try environment.commitPayload(Self.query, variables: Self.variables, response: Self.response)
        let read = environment.store.read(operation: Self.query, variables: Self.variables)
        let data = try Self.data(read)
        let id = ((data["me"] as! [String: Any])["todos"] as! [String: Any])["__id"] as! String

        let input: JSONValue = .object([JSONMember("text", .string("three")), JSONMember("userId", .string("me"))])
        async let added = environment.commitMutation(
            Self.docs.operations["ClientIDAddMutation"]!,
            variables: ["input": input, "connections": .array([.string(id)])])
        let request = await network.nextRequest()
        XCTAssertTrue(
            network.resolve(
                request,
                json:
                    #"{"data":{"addTodo":{"todoEdge":{"cursor":"c3","node":{"__typename":"Todo","id":"t3","text":"three"}}}}}"#
            ))
        _ = try await added
        let after = environment.store.read(operation: Self.query, variables: Self.variables)
        let again = try Self.data(after)
        let edges = ((again["me"] as! [String: Any])["todos"] as! [String: Any])["edges"] as! [[String: Any]]
        XCTAssertEqual(edges.map { ($0["node"] as! [String: Any])["__id"] as? String }, ["t1", "t2", "t3"])
    }

    /// relay's `disallow_reserved_aliases`, and `__id` takes no arguments or selections.
    func testReservedAliasAndMisuseAreErrors() async throws {
        XCTAssertThrowsError(try Fixtures.compile(#"query A { user(id: "me") { __id: id } }"#)) { error in
            XCTAssertTrue("\(error)".contains("Relay does not allow aliasing fields to `__id`."), "\(error)")
        }
        XCTAssertThrowsError(try Fixtures.compile(#"query B { user(id: "me") { __id { id } } }"#))
        XCTAssertThrowsError(try Fixtures.compile(#"query C { user(id: "me") { __id(x: 1) } }"#))
        // Any other alias of `__id` is fine.
        let docs = try Fixtures.compile(#"query D { user(id: "me") { key: __id id } }"#)
        XCTAssertFalse(docs.operations["D"]!.text.contains("__id"))
    }
}
