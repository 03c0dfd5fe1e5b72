// HTTPNetwork against a real GraphQL server on loopback: what it sends, and a response streamed
// into the normalizer as it arrives giving the same store as the same bytes committed whole.
#if HTTP
    import Foundation
    import RelayArena
    import RelayArenaHTTP
    import RelayArenaTestSupport
    import RelayArenaWorkloads
    import TodoServer
    import XCTest

    final class HTTPNetworkTests: HTTPTestCase {
        func testTodoListQueryStreamsIntoTheStore() async throws {
            let request = listRequest()
            let plan = try NormalizationPlan(operation: request.operation, variables: request.variables)
            let response = try await HTTPNetwork(endpoint: server.url).execute(request, options: .init())
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(
                response.headers.first { $0.name.lowercased() == "content-type" }?.value, "application/json")

            let normalizer = try ResponseNormalizer(plan: plan)
            let (bytes, _) = try await stream(response, into: normalizer)
            let store = RecordStore()
            let updated = try store.publish(normalizer.finish())

            let whole = RecordStore()
            try whole.commit(response: bytes, plan: plan)
            XCTAssertEqual(
                String(decoding: store.relayJSON(), as: UTF8.self), String(decoding: whole.relayJSON(), as: UTF8.self))
            // The server executed the query over the workload's data: the workload's own response
            // gives the same store.
            let workload = RecordStore()
            try workload.commit(response: TodoListWorkload(todos: 20).response(), plan: plan)
            XCTAssertEqual(
                String(decoding: store.relayJSON(), as: UTF8.self),
                String(decoding: workload.relayJSON(), as: UTF8.self))
            // root, user, connection, pageInfo, 20 edges, 20 todos
            XCTAssertEqual(updated.count, 44)
        }

        func testLargeResponseArrivesInManyChunks() async throws {
            let bytes = TodoListWorkload(todos: 2000).response()
            server.register(canned: bytes, as: "list")
            let request = listRequest(first: 2000)
            let plan = try NormalizationPlan(operation: request.operation, variables: request.variables)
            let network = HTTPNetwork(endpoint: server.url("canned/list?chunk=4096"))
            let response = try await network.execute(request, options: .init(timeout: .seconds(30)))
            let normalizer = try ResponseNormalizer(plan: plan)
            let (received, chunks) = try await stream(response, into: normalizer)
            XCTAssertEqual(received, bytes)
            XCTAssertGreaterThan(chunks, 1, "the body streams in pieces, not as one buffer")
            let store = RecordStore()
            try store.publish(normalizer.finish())
            let whole = RecordStore()
            try whole.commit(response: bytes, plan: plan)
            XCTAssertEqual(store.relayJSON(), whole.relayJSON())
        }

        func testTheServerReceivesTheRequestBodyExactly() async throws {
            // `extra` is not declared: GraphQLRequest drops it.
            let request = GraphQLRequest(
                operation: ToDoDocuments.operation("TodoListQuery"), variables: ["first": .int(2), "extra": .int(1)])
            let response = try await HTTPNetwork(endpoint: server.url).execute(request, options: .init())
            for try await _ in response.body {}
            let received = try XCTUnwrap(server.requests.last)
            XCTAssertEqual(received.method, "POST")
            XCTAssertEqual(received.path, "/graphql")
            XCTAssertEqual(received.body, request.body)
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(received.body)) as? [String: Any])
            XCTAssertEqual(json.keys.sorted(), ["operationName", "query", "variables"])
            XCTAssertEqual(json["query"] as? String, request.operation.text)
            XCTAssertEqual(json["operationName"] as? String, "TodoListQuery")
            XCTAssertEqual(json["variables"] as? [String: Int], ["first": 2])
        }

        func testHeadersSent() async throws {
            let network = HTTPNetwork(endpoint: server.url.absoluteString, headers: [("Authorization", "Bearer t0k3n")])
            let response = try await network.execute(
                listRequest(), options: .init(headers: [(name: "X-Request-ID", value: "42")]))
            for try await _ in response.body {}
            let received = try XCTUnwrap(server.requests.last)
            XCTAssertEqual(received.header("Content-Type"), "application/json")
            XCTAssertEqual(received.header("Accept"), "application/json")
            XCTAssertEqual(received.header("Authorization"), "Bearer t0k3n")
            XCTAssertEqual(received.header("X-Request-ID"), "42")
        }

        func testNodeAndMutationsOverHTTP() async throws {
            let network = HTTPNetwork(endpoint: server.url)
            let store = RecordStore()
            func send(_ name: String, _ variables: Variables) async throws -> UpdatedRecordIDs {
                let request = GraphQLRequest(operation: ToDoDocuments.operation(name), variables: variables)
                let response = try await network.execute(request, options: .init(timeout: .seconds(10)))
                XCTAssertEqual(response.status, 200, name)
                let normalizer = try ResponseNormalizer(
                    plan: NormalizationPlan(operation: request.operation, variables: request.variables))
                _ = try await stream(response, into: normalizer)
                return try store.publish(normalizer.finish())
            }
            func input(_ members: [(String, JSONValue)]) -> Variables {
                ["input": .object(members.map { JSONMember($0.0, $0.1) })]
            }
            func text(_ id: String) -> String? {
                store.withSnapshot { snapshot in
                    guard case .record(let todo) = snapshot.record(id),
                        case .string(let text)? = snapshot.field(todo, "text")
                    else { return nil }
                    return text.string
                }
            }
            func complete(_ id: String) -> Bool? {
                store.withSnapshot { snapshot in
                    guard case .record(let todo) = snapshot.record(id),
                        case .bool(let done)? = snapshot.field(todo, "complete")
                    else { return nil }
                    return done
                }
            }
            let todo1 = "VG9kbzox"  // Todo:1

            _ = try await send("NodeQuery", ["id": .string(todo1)])
            XCTAssertEqual(text(todo1)?.hasSuffix("#1"), true)

            _ = try await send(
                "RenameTodoMutation", input([("id", .string(todo1)), ("text", .string("renamed over HTTP"))]))
            XCTAssertEqual(text(todo1), "renamed over HTTP")

            _ = try await send(
                "AddTodoMutation", input([("text", .string("a new one")), ("userId", .string("me"))]))
            XCTAssertEqual(text("VG9kbzoyMA=="), "a new one")  // Todo:20, the next key

            _ = try await send(
                "ChangeTodoStatusMutation",
                input([
                    ("id", .string(todo1)), ("complete", .bool(!(complete(todo1) ?? true))), ("userId", .string("me")),
                ]))
            let before = try XCTUnwrap(complete("VG9kbzoyMA=="))
            _ = try await send(
                "ChangeTodoStatusMutation",
                input([("id", .string("VG9kbzoyMA==")), ("complete", .bool(!before)), ("userId", .string("me"))]))
            XCTAssertEqual(complete("VG9kbzoyMA=="), !before)
            _ = try await send("RemoveTodoMutation", input([("id", .string(todo1)), ("userId", .string("me"))]))

            // The server's data now: 20 todos (one added, one removed), Todo:1 gone, Todo:20 there.
            let list = listRequest(first: 100)
            let response = try await network.execute(list, options: .init())
            var body: [UInt8] = []
            for try await chunk in response.body { chunk.withUnsafeBytes { body += $0 } }
            let textBody = String(decoding: body, as: UTF8.self)
            XCTAssertTrue(textBody.contains(#""totalCount":20"#), textBody)
            XCTAssertFalse(textBody.contains(#""id":"VG9kbzox""#), textBody)
            XCTAssertTrue(textBody.contains(#""text":"a new one""#), textBody)
        }
    }
#endif
