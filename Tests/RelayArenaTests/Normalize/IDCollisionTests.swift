// relay's `idCollision.typename` (RelayResponseNormalizer's "warns in __DEV__ if payload contains
// inconsistent types for a record" and "does not warn … for a client record"): one response
// giving one strong ID two types is told to the log, as a warning with relay's text; client IDs
// and consistent responses are not. Records close children first here, so the pairs come
// bottom-up (relay, walking top-down, names `User`→`Actor` then `Actor`→`Actors`).
import RelayArena
import RelayArenaCompiler
import XCTest

final class IDCollisionTests: XCTestCase {
    static let schema = """
        interface Node { id: ID! }
        type User implements Node { id: ID! actor: Node actors: [Node] }
        type Page implements Node { id: ID! }
        type Query { node(id: ID): Node }
        """
    static let docs = try! Compiler(schema: GraphQLSourceFile(name: "schema.graphql", text: schema)).compile([
        GraphQLSourceFile(
            name: "q.graphql",
            text: """
                query BarQuery($id: ID) {
                  node(id: $id) {
                    id
                    __typename
                    ... on User {
                      actor { id __typename }
                      actors { id __typename }
                    }
                  }
                }
                """)
    ])
    static let variables: Variables = ["id": .string("1")]

    static func response(id: String) -> [UInt8] {
        Array(
            #"""
            {"data":{"node":{"id":"\#(id)","__typename":"User",
              "actor":{"id":"\#(id)","__typename":"Actor"},
              "actors":[{"id":"\#(id)","__typename":"Actors"}]}}}
            """#.utf8)
    }

    func commit(_ response: [UInt8]) throws -> [LogEvent] {
        let plan = try NormalizationPlan(operation: Self.docs.operations["BarQuery"]!, variables: Self.variables)
        var events: [LogEvent] = []
        try RecordStore().commit(response: response, plan: plan) { events.append($0) }
        return events
    }

    func testAStrongIDGivenTwoTypesIsLoggedWithRelaysText() throws {
        let events = try commit(Self.response(id: "1"))
        XCTAssertEqual(
            events,
            [
                .idCollision(dataID: "1", previousTypename: "Actor", newTypename: "Actors"),
                .idCollision(dataID: "1", previousTypename: "Actors", newTypename: "User"),
            ])
        XCTAssertTrue(events.allSatisfy(\.isWarning))
        XCTAssertEqual(events[0].name, "idCollision.typename")
        XCTAssertEqual(
            events[0].message,
            "RelayResponseNormalizer: Invalid record `1`. Expected __typename to be consistent, but the record was assigned conflicting types `Actor` and `Actors`. The GraphQL server likely violated the globally unique id requirement by returning the same id for different objects."
        )
    }

    func testAClientIDIsNeverACollision() throws {
        XCTAssertEqual(try commit(Self.response(id: "client:1")), [])
    }

    func testTheSameRecordReachedTwiceAsOneTypeIsNone() throws {
        let response = Array(
            #"""
            {"data":{"node":{"id":"1","__typename":"User",
              "actor":{"id":"1","__typename":"User"},"actors":[{"id":"2","__typename":"Page"},{"id":"1","__typename":"User"}]}}}
            """#.utf8)
        XCTAssertEqual(try commit(response), [])
    }

    func testOnlyTheFirstSixteenAreKept() throws {
        // Seventeen strong IDs each reached as two types: the log hears of sixteen.
        var items: [String] = []
        for i in 0..<17 {
            items.append(#"{"id":"u\#(i)","__typename":"User"}"#)
            items.append(#"{"id":"u\#(i)","__typename":"Page"}"#)
        }
        let response = Array(
            #"{"data":{"node":{"id":"1","__typename":"User","actors":[\#(items.joined(separator: ","))]}}}"#.utf8)
        let events = try commit(response)
        XCTAssertEqual(events.count, 16)
        XCTAssertEqual(events.first, .idCollision(dataID: "u0", previousTypename: "User", newTypename: "Page"))
    }

    @MainActor func testTheEnvironmentLogsIt() async throws {
        final class Heard { var events: [LogEvent] = [] }
        let heard = Heard()
        let environment = Environment(network: MockNetwork(), log: { heard.events.append($0) })
        try environment.commitPayload(
            Self.docs.operations["BarQuery"]!, variables: Self.variables, response: Self.response(id: "1"))
        XCTAssertEqual(heard.events.filter { $0.name == "idCollision.typename" }.count, 2)
    }
}
