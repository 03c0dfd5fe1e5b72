// A plain mutation through the environment: its response is rooted at a fresh client ID, merges
// into the records it names, and notifies only the subscriptions of those records.
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import XCTest

@MainActor
final class EnvironmentMutationTests: XCTestCase {
    nonisolated static let docs = try! Compiler(
        schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql"))
    ).compile([
        GraphQLSourceFile(
            name: "m.graphql",
            text: """
                query ListQuery { user(id: "me") { id todos(first: 2) { edges { node { id ...Item } } } } }
                fragment Item on Todo { text complete }
                mutation ChangeTodoStatusMutation($input: ChangeTodoStatusInput!) {
                  changeTodoStatus(input: $input) { todo { id complete } }
                }
                """)
    ])

    func testMutationUpdatesOnlyItsItem() async throws {
        let (environment, network) = Environment.mock()
        try environment.commitPayload(
            Self.docs.operations["ListQuery"]!,
            response: Array(
                #"{"data":{"user":{"id":"me","todos":{"edges":[{"node":{"id":"t1","text":"a","complete":false}},{"node":{"id":"t2","text":"b","complete":false}}]}}}}"#
                    .utf8))
        let item = Self.docs.fragments["Item"]!
        var calls: [String] = []
        for id in ["t1", "t2"] {
            _ = environment.subscribe(ReadSelector(node: .fragment(item), dataID: id, variables: [:], owner: nil)) {
                calls.append("\(id): \($0.data?["complete"].map(\.jsonText) ?? "-")")
            }
        }
        let mutation = Self.docs.operations["ChangeTodoStatusMutation"]!
        let input: Variables = [
            "input": .object([
                JSONMember("id", .string("t2")), JSONMember("complete", .bool(true)),
                JSONMember("userId", .string("me")),
            ])
        ]
        async let result = environment.commitMutation(mutation, variables: input)
        let request = await network.nextRequest()
        XCTAssertEqual(request.name, "ChangeTodoStatusMutation")
        XCTAssertTrue(request.variablesJSON.contains(#""id":"t2""#), request.variablesJSON)
        network.resolve(request, json: #"{"data":{"changeTodoStatus":{"todo":{"id":"t2","complete":true}}}}"#)
        let data = try await result
        XCTAssertEqual(data.data?["changeTodoStatus"]?["todo"]?["complete"], .bool(true))
        XCTAssertEqual(calls, ["t2: true"])
        // Rooted at its own client ID: the store's root gained no `changeTodoStatus` field.
        let json = String(decoding: environment.store.relayJSON(), as: UTF8.self)
        XCTAssertTrue(json.contains(#""client:local:1""#), json)
        XCTAssertFalse(json.contains(#""client:root":{"__id":"client:root","__typename":"__Root","changeTodoStatus"#))
        // A failed mutation publishes nothing.
        let before = environment.store.relayJSON()
        async let failed = environment.commitMutation(mutation, variables: input)
        _ = await network.nextRequest()
        network.resolve(with: .status(500, []))
        do {
            _ = try await failed
            XCTFail("no failure")
        } catch let error as FetchError {
            XCTAssertEqual(error.kind, .status(500))
        }
        XCTAssertEqual(environment.store.relayJSON(), before)
        XCTAssertEqual(calls.count, 1)
    }
}
