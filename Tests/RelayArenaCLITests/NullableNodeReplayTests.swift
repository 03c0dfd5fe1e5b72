// relay's useRefetchableFragment / usePaginationFragment cases on relay's own test-schema shape,
// whose `Query.node` takes a nullable `id: ID`: the refetch query declares `$id: ID!`, the
// refetch follows the record, and a page merges into the connection. Run through `replay`.
import Foundation
import RelayArenaTestSupport
import XCTest

final class NullableNodeReplayTests: XCTestCase {
    var dir: URL!
    override func setUpWithError() throws { dir = try CLI.tempDir() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func write(_ name: String, _ text: String) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static let schema = """
        interface Node { id: ID! }
        type User implements Node {
          id: ID!
          name: String
          profilePicture(size: Int): Image
          friends(first: Int, after: String): FriendsConnection
        }
        type Image { uri: String }
        type FriendsConnection { edges: [FriendsEdge] pageInfo: PageInfo }
        type FriendsEdge { cursor: String node: User }
        type PageInfo { hasNextPage: Boolean hasPreviousPage: Boolean startCursor: String endCursor: String }
        type Query { node(id: ID): Node }
        """

    // The spreads on `User` under `node` may not match: relay v19's tests mark them as here.
    static let documents = """
        query UserQuery($id: ID!, $size: Int) {
          node(id: $id) { ...UserFragment @dangerously_unaliased_fixme ...FriendsFragment @dangerously_unaliased_fixme }
        }
        fragment UserFragment on User @refetchable(queryName: "UserFragmentRefetchQuery") {
          id
          name
          profilePicture(size: $size) { uri }
        }
        fragment FriendsFragment on User @refetchable(queryName: "FriendsPaginationQuery")
          @argumentDefinitions(count: {type: "Int", defaultValue: 1}, cursor: {type: "String"}) {
          friends(first: $count, after: $cursor) @connection(key: "FriendsFragment_friends") {
            edges { node { id name } }
          }
        }
        """

    func run(_ steps: [String]) throws -> [String] {
        let r = try CLI.run([
            "replay", "--schema", try write("schema.graphql", Self.schema), "--document",
            try write("documents.graphql", Self.documents),
            try write("script.json", "[" + steps.joined(separator: ",\n") + "]"),
        ])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdoutText.split(separator: "\n").map(String.init)
    }

    func user(_ operation: String, _ variables: String, uri: String) -> String {
        #"{"step":"publish","operation":"\#(operation)","variables":\#(variables),"response":{"data":{"node":"#
            + #"{"__typename":"User","id":"4","name":"Zuck","profilePicture":{"uri":"\#(uri)"},"#
            + #""friends":{"edges":[{"cursor":"c1","node":{"__typename":"User","id":"5","name":"Ann"}}],"#
            + #""pageInfo":{"endCursor":"c1","hasNextPage":true}}}}}}"#
    }

    func testRefetchWithNewVariablesOnANullableNodeID() throws {
        let owner = #"{"id":"4","size":1}"#
        let out = try run([
            user("UserQuery", owner, uri: "small"),
            #"{"step":"subscribe","name":"u","fragment":"UserFragment","operation":"UserQuery","variables":\#(owner),"id":"4"}"#,
            #"{"step":"refetch","name":"u","variables":{"size":2}}"#,
            #"{"step":"publish","operation":"UserFragmentRefetchQuery","variables":{"size":2,"id":"4"},"response":{"data":{"node":{"__typename":"User","id":"4","name":"Zuck","profilePicture":{"uri":"big"}}}}}"#,
        ])
        XCTAssertEqual(out.count, 3, out.joined(separator: "\n"))
        XCTAssertTrue(out[0].contains(#""profilePicture":{"uri":"small"}"#), out[0])
        XCTAssertEqual(
            out[1],
            #"{"event":"request","name":"u","operation":"UserFragmentRefetchQuery","variables":{"id":"4","size":2}}"#)
        XCTAssertTrue(out[2].hasPrefix(#"{"event":"notify","name":"u""#), out[2])
        XCTAssertTrue(out[2].contains(#""profilePicture":{"uri":"big"}"#), out[2])
    }

    func testLoadNextOnANullableNodeID() throws {
        let owner = #"{"id":"4","size":1}"#
        let out = try run([
            user("UserQuery", owner, uri: "small"),
            #"{"step":"subscribe","name":"f","fragment":"FriendsFragment","operation":"UserQuery","variables":\#(owner),"id":"4"}"#,
            #"{"step":"load_next","name":"f","count":1}"#,
            #"{"step":"publish","operation":"FriendsPaginationQuery","variables":{"count":1,"cursor":"c1","id":"4"},"response":{"data":{"node":{"__typename":"User","id":"4","friends":{"edges":[{"cursor":"c2","node":{"__typename":"User","id":"6","name":"Bo"}}],"pageInfo":{"endCursor":"c2","hasNextPage":false}}}}}}"#,
        ])
        XCTAssertEqual(out.count, 3, out.joined(separator: "\n"))
        XCTAssertEqual(
            out[1],
            #"{"event":"request","name":"f","operation":"FriendsPaginationQuery","variables":{"count":1,"cursor":"c1","id":"4"}}"#
        )
        XCTAssertTrue(out[2].contains(#""name":"Ann""#) && out[2].contains(#""name":"Bo""#), out[2])
    }

    /// relay v19's `@alias` enforcement, with relay's message at the spread; the flag accepts
    /// documents written before it.
    func testUnmarkedSpreadsUnderNodeNeedTheFlag() throws {
        let unmarked = Self.documents.replacingOccurrences(of: " @dangerously_unaliased_fixme", with: "")
        let arguments = [
            "replay", "--schema", try write("schema.graphql", Self.schema), "--document",
            try write("unmarked.graphql", unmarked), try write("script.json", "[]"),
        ]
        let refused = try CLI.run(arguments)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(
            refused.stderr.contains(
                "unmarked.graphql:2:22: Expected `@alias` directive. `UserFragment` is defined on `User` which might not match this selection type of `Node`."
            ), refused.stderr)
        let accepted = try CLI.run(arguments + ["--no-enforce-fragment-alias"])
        XCTAssertEqual(accepted.status, 0, accepted.stderr)
    }
}
