// The to-do app's add: the list's connection is named by its `__id`, and `@appendEdge` puts the
// server's new edge at the end of it, with no updater (relay's declarative connection mutations).
import RelayArena
import XCTest

@MainActor
final class ToDoAddTests: XCTestCase {
    func testAnAddedToDoIsAppendedToTheListNamedByItsID() async throws {
        let (environment, network) = Environment.mock()
        let query = QueryModel(environment: environment, operation: ToDoPaginationListQuery())
        async let loaded: Void = query.load()
        let first = await network.nextRequest()
        XCTAssertFalse(first.text.contains("__id"), first.text)
        XCTAssertTrue(
            network.resolve(
                first,
                json: #"""
                    {"data":{"user":{"__typename":"User","id":"me","todos":{"edges":[
                      {"cursor":"c1","node":{"__typename":"Todo","id":"t1","text":"one","complete":false}}],
                      "pageInfo":{"endCursor":"c1","hasNextPage":false}}}}}
                    """#))
        await loaded
        let pointer = try XCTUnwrap(query.withData { $0.user?.asFragment() } ?? nil)
        let list = ToDoPagedList(environment: environment, user: pointer)
        XCTAssertEqual(list.connectionID, #"client:me:__ToDoPagination_todos_connection"#)
        XCTAssertEqual(list.texts, ["one"])

        async let added: Void = addTodo("two", userID: "me", to: list, in: environment)
        let mutation = await network.nextRequest()
        XCTAssertEqual(
            mutation.variables["connections"], .array([.string("client:me:__ToDoPagination_todos_connection")]))
        XCTAssertTrue(
            network.resolve(
                mutation,
                json: #"""
                    {"data":{"addTodo":{"todoEdge":{"cursor":"c2",
                      "node":{"__typename":"Todo","id":"t2","text":"two","complete":false}}}}}
                    """#))
        try await added
        XCTAssertEqual(list.texts, ["one", "two"])
    }
}
