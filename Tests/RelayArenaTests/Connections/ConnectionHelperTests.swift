// The connection helpers updaters use (relay's ConnectionHandler.js: getConnection, createEdge,
// insertEdgeAfter/Before, deleteNode), on a store holding a connection as relay writes one (the
// reference's worked example: `client:4:__F_friends_connection(orderby:["name"])`).
import Foundation
import RelayArena
import XCTest

@MainActor
final class ConnectionHelperTests: XCTestCase {
    static let connection = #"client:4:__F_friends_connection(orderby:["name"])"#

    func environment() throws -> Environment {
        let c = Self.connection.replacingOccurrences(of: "\"", with: "\\\"")
        let json = """
            {"client:root":{"__id":"client:root","__typename":"__Root","me":{"__ref":"4"}},
             "4":{"__id":"4","__typename":"User","id":"4","__F_friends_connection(orderby:[\\"name\\"])":{"__ref":"\(c)"}},
             "\(c)":{"__id":"\(c)","__typename":"FriendsConnection","__connection_next_edge_index":2,
               "edges":{"__refs":["\(c):edges:0","\(c):edges:1"]},"pageInfo":{"__ref":"\(c):pageInfo"}},
             "\(c):edges:0":{"__id":"\(c):edges:0","__typename":"FriendsEdge","cursor":"c1","node":{"__ref":"1"}},
             "\(c):edges:1":{"__id":"\(c):edges:1","__typename":"FriendsEdge","cursor":"c2","node":{"__ref":"2"}},
             "\(c):pageInfo":{"__id":"\(c):pageInfo","__typename":"PageInfo","endCursor":"c2","hasNextPage":true},
             "1":{"__id":"1","__typename":"User","id":"1"},
             "2":{"__id":"2","__typename":"User","id":"2"},
             "3":{"__id":"3","__typename":"User","id":"3"}}
            """
        return Environment(network: MockNetwork(), store: try RecordStore(relayJSON: Array(json.utf8)))
    }

    /// The connection's edges, each as the ID of its node (`-` for a null edge).
    func edgeNodes(_ environment: Environment) throws -> [String] {
        let all = try JSONSerialization.jsonObject(with: Data(environment.store.relayJSON())) as! [String: Any]
        let edges = ((all[Self.connection] as! [String: Any])["edges"] as! [String: Any])["__refs"] as! [Any]
        return edges.map { edge in
            guard let id = edge as? String, let record = all[id] as? [String: Any] else { return "-" }
            return (record["node"] as? [String: Any])?["__ref"] as? String ?? "-"
        }
    }

    func testFindsTheConnectionByKeyAndFilters() async throws {
        let environment = try environment()
        try environment.commitLocalUpdate { store in
            let user = store.get("4")!
            let found = ConnectionHandler.getConnection(
                user, key: "F_friends", filters: ["orderby": .array([.string("name")])])
            XCTAssertEqual(found?.dataID, Self.connection)
            XCTAssertNil(ConnectionHandler.getConnection(user, key: "F_friends"))
            XCTAssertEqual(
                ConnectionHandler.connectionID("4", key: "F_friends", filters: ["orderby": .array([.string("name")])]),
                Self.connection)
        }
    }

    func testCreateEdgeAndInsertAfterACursorBeforeAnUnknownOneAndAtTheEnds() async throws {
        let environment = try environment()
        try environment.commitLocalUpdate { store in
            let connection = store.get(Self.connection)!
            let edge = try ConnectionHandler.createEdge(
                store, connection: connection, node: store.get("3")!, edgeType: "FriendsEdge")
            XCTAssertEqual(edge.dataID, "\(Self.connection):3")
            XCTAssertEqual(edge.value("cursor"), .null)  // present, so not missing to a reader
            XCTAssertEqual(edge.linkedRecord("node")?.dataID, "3")
            ConnectionHandler.insertEdgeAfter(connection, edge, cursor: "c1")
        }
        XCTAssertEqual(try edgeNodes(environment), ["1", "3", "2"])
        try environment.commitLocalUpdate { store in
            let connection = store.get(Self.connection)!
            let edge = try ConnectionHandler.createEdge(
                store, connection: connection, node: store.get("3")!, edgeType: "FriendsEdge")
            ConnectionHandler.insertEdgeBefore(connection, edge, cursor: "no such cursor")  // prepended
            ConnectionHandler.insertEdgeAfter(connection, edge)  // appended
        }
        XCTAssertEqual(try edgeNodes(environment), ["3", "1", "3", "2", "3"])
    }

    func testDeleteNodeRemovesEveryEdgeOfItAndWritesNothingOtherwise() async throws {
        let environment = try environment()
        try environment.commitLocalUpdate { store in
            let connection = store.get(Self.connection)!
            let edge = try ConnectionHandler.createEdge(
                store, connection: connection, node: store.get("2")!, edgeType: "FriendsEdge")
            ConnectionHandler.insertEdgeBefore(connection, edge)
        }
        XCTAssertEqual(try edgeNodes(environment), ["2", "1", "2"])
        try environment.commitLocalUpdate { ConnectionHandler.deleteNode($0.get(Self.connection)!, nodeID: "2") }
        XCTAssertEqual(try edgeNodes(environment), ["1"])
        let before = environment.store.relayJSON()
        try environment.commitLocalUpdate { ConnectionHandler.deleteNode($0.get(Self.connection)!, nodeID: "9") }
        XCTAssertEqual(environment.store.relayJSON(), before)
    }

    /// Under an optimistic update the helpers' writes roll back like any other.
    func testAnOptimisticEdgeRollsBack() async throws {
        let environment = try environment()
        let before = environment.store.relayJSON()
        let update = try environment.applyUpdate { store in
            let connection = store.get(Self.connection)!
            let node = try store.create("client:new", typename: "User")
            let edge = try ConnectionHandler.createEdge(
                store, connection: connection, node: node, edgeType: "FriendsEdge")
            ConnectionHandler.insertEdgeAfter(connection, edge)
        }
        XCTAssertEqual(try edgeNodes(environment), ["1", "2", "client:new"])
        environment.revert(update)
        XCTAssertEqual(environment.store.relayJSON(), before)
    }
}
