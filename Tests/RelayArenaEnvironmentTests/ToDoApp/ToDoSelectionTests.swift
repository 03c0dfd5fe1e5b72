// The to-do app's client-only `isSelected` (a client schema extension of `Todo`): never in the
// request, unset without making the list missing, set by a local update and observed like a
// server field, kept when the server's fields are fetched again, collected with its record.
import RelayArena
import XCTest

@MainActor
final class ToDoSelectionTests: XCTestCase {
    static let list = #"""
        {"data":{"user":{"id":"me","todos":{"edges":[
          {"node":{"id":"t1","text":"Taste JavaScript"}},{"node":{"id":"t2","text":"Buy a unicorn"}}]}}}}
        """#

    func load(_ environment: Environment, _ network: MockNetwork, _ policy: FetchPolicy = .storeOrNetwork) async throws
        -> [ToDoSelection]
    {
        async let result = environment.fetchQuery(ToDoSelectionListQuery(), fetchPolicy: policy)
        let request = await network.nextRequest()
        XCTAssertFalse(request.text.contains("isSelected"), request.text)
        XCTAssertTrue(network.resolve(request, json: Self.list))
        let data = try await result
        XCTAssertFalse(data.isMissingData)
        return try environment.store.withSnapshot { snapshot in
            let view = try XCTUnwrap(snapshot.read(ToDoSelectionListQuery()).data)
            guard let edges = view.user?.todos?.edges else { return [] }
            return edges.compactMap { $0?.node?.asFragment() }.map { ToDoSelection(environment: environment, todo: $0) }
        }
    }

    func testSelectionIsClientStateKeptAcrossRefetches() async throws {
        let (environment, network) = Environment.mock()
        let rows = try await load(environment, network)
        XCTAssertEqual(rows.map { $0.render() }, ["  Taste JavaScript", "  Buy a unicorn"])
        // Unset client fields are not missing data: the query is available, nothing is sent.
        XCTAssertEqual(environment.check(ToDoSelectionListQuery.artifact), .available)

        var heard: [String] = []
        _ = environment.subscribe(.fragment(rows[1].todo)) { heard.append($0.data?.jsonText ?? "null") }
        try rows[1].select(true)
        XCTAssertEqual(rows.map { $0.render() }, ["  Taste JavaScript", "* Buy a unicorn"])
        XCTAssertEqual(heard, [#"{"text":"Buy a unicorn","isSelected":true}"#])

        // The server's answer again: its fields are written, the selection stays.
        let again = try await load(environment, network, .networkOnly)
        XCTAssertEqual(again.map { $0.render() }, ["  Taste JavaScript", "* Buy a unicorn"])
        XCTAssertEqual(heard.count, 1, "nothing the row reads changed")
    }

    func testTheClientFieldGoesWithItsRecord() async throws {
        let (environment, network) = Environment.mock(roots: OperationRoots(releaseBufferSize: 0))
        // Retained while the screen shows it (as a query model does): with no release buffer an
        // unretained answer may be collected as soon as its request ends.
        let shown = environment.retain(ToDoSelectionListQuery.artifact)
        let rows = try await load(environment, network)
        try rows[0].select(true)
        XCTAssertEqual(rows[0].render(), "* Taste JavaScript")
        shown.dispose()
        await environment.collectionFinished()
        XCTAssertTrue(environment.lastCollected.contains("t1"), "\(environment.lastCollected)")
        XCTAssertNil(rows[0].render())
    }
}
