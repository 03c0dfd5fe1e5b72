// `@alias` in generated views: an aliased spread is an optional `FragmentPointer` member, an aliased
// inline fragment an optional view of its own, each `nil` when the record is of another type; one
// that always matches (no type condition, no condition) is not optional.
import RelayArena
import XCTest

@MainActor
final class FragmentAliasViewTests: XCTestCase {
    static let todo = #"{"data":{"node":{"__typename":"Todo","id":"t1","text":"Taste JavaScript","complete":true}}}"#
    static let user = #"{"data":{"node":{"__typename":"User","id":"me","name":"Me"}}}"#

    func environment(_ id: String, _ response: String) throws -> Environment {
        let (environment, _) = Environment.mock()
        try environment.commitPayload(
            ToDoNodeQuery.artifact, variables: ToDoNodeQuery(id: id).variables.asJSON, response: Array(response.utf8))
        return environment
    }

    func testATodoReadsItsRowThroughTheAliasedPointer() async throws {
        let environment = try environment("t1", Self.todo)
        XCTAssertEqual(ToDoNodeScreen(environment: environment, id: "t1").render(), "todo t1: Taste JavaScript")
        try environment.store.withSnapshot { snapshot in
            let node = try XCTUnwrap(snapshot.read(ToDoNodeQuery(id: "t1")).data?.node)
            XCTAssertEqual(node.todo?.dataID, "t1")
            XCTAssertNil(node.owner)
        }
    }

    func testAUserReadsTheAliasedInlineFragmentAndNoPointer() async throws {
        let environment = try environment("me", Self.user)
        XCTAssertEqual(ToDoNodeScreen(environment: environment, id: "me").render(), "user me: Me")
        try environment.store.withSnapshot { snapshot in
            let node = try XCTUnwrap(snapshot.read(ToDoNodeQuery(id: "me")).data?.node)
            XCTAssertNil(node.todo)
            XCTAssertEqual(node.owner?.name, "Me")
        }
    }

    func testMembersAreOptionalOnlyWhereTheyMightNotMatch() {
        // Compile-time checks: the types the generator gave the members.
        let _: (ToDoNodeQuery.Data.Node) -> ToDoNodeQuery.Data.Node.Base = { $0.base }
        let _: (ToDoNodeQuery.Data.Node) -> FragmentPointer<ToDoItem_todo>? = { $0.todo }
        let _: (ToDoNodeQuery.Data.Node) -> ToDoNodeQuery.Data.Node.Owner? = { $0.owner }
    }

    func testTheUntypedReadHasRelaysShapes() async throws {
        let environment = try environment("t1", Self.todo)
        let result = environment.store.read(
            operation: ToDoNodeQuery.artifact, variables: ToDoNodeQuery(id: "t1").variables.asJSON)
        XCTAssertFalse(result.isMissingData)
        XCTAssertEqual(
            result.data?.jsonText,
            #"{"node":{"base":{"id":"t1"},"todo":{"__id":"t1","__fragments":{"ToDoItem_todo":{}},"#
                + #""__fragmentOwner":{"name":"ToDoNodeQuery","variables":{"id":"t1"}}},"owner":null}}"#)
    }
}
