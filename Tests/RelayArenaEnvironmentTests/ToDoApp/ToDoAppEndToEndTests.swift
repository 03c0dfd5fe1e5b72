// The seeds' to-do app end to end: the screen's environment fetches over HTTP from the to-do
// schema executed by GraphQLSwift on loopback, a plain `changeTodoStatus` mutation notifies only
// the changed item's model, and one item refetches itself.
#if HTTP
    import Foundation
    import RelayArena
    import RelayArenaCompiler
    import RelayArenaHTTP
    import RelayArenaTestSupport
    import TodoServer
    import XCTest

    @MainActor
    final class ToDoAppEndToEndTests: XCTestCase {
        nonisolated static let mutations = try! Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql"))
        ).compile([
            GraphQLSourceFile(
                name: "mutations.graphql",
                text: """
                    mutation ChangeTodoStatusMutation($input: ChangeTodoStatusInput!) {
                      changeTodoStatus(input: $input) { todo { id complete } }
                    }
                    mutation RenameTodoMutation($input: RenameTodoInput!) {
                      renameTodo(input: $input) { todo { id } }
                    }
                    mutation RemoveTodoMutation($input: RemoveTodoInput!) {
                      removeTodo(input: $input) { deletedTodoId }
                    }
                    """)
        ]).operations

        /// The server with the seeds' two to-dos, and the screen loaded from it.
        func twoTodoScreen() async throws -> (TodoServer, Environment, ToDoScreen) {
            let server = try await TodoServer.start(
                data: TodoData(users: [
                    .init(
                        userId: "me",
                        todos: [
                            .init(key: 0, text: "Taste JavaScript", complete: true),
                            .init(key: 1, text: "Buy a unicorn", complete: false),
                        ])
                ]))
            let environment = Environment(network: HTTPNetwork(endpoint: server.url))
            let screen = ToDoScreen(environment: environment)
            await screen.load()
            return (server, environment, screen)
        }

        func testToDoAppAgainstTheServer() async throws {
            let (server, environment, screen) = try await twoTodoScreen()
            XCTAssertEqual(screen.render(), ["[x] Taste JavaScript", "[ ] Buy a unicorn"])

            // changeTodoStatus on the second item: its model, and only its, hears of it.
            let change = try XCTUnwrap(Self.mutations["ChangeTodoStatusMutation"])
            let input: JSONValue = .object([
                JSONMember("id", .string("VG9kbzox")), JSONMember("complete", .bool(true)),
                JSONMember("userId", .string("me")),
            ])
            let result = try await environment.commitMutation(change, variables: ["input": input])
            XCTAssertEqual(result.data?["changeTodoStatus"]?["todo"]?["complete"], .bool(true))
            XCTAssertEqual(screen.rows.map(\.updates), [0, 1])
            XCTAssertEqual(screen.render(), ["[x] Taste JavaScript", "[x] Buy a unicorn"])

            // The server renames the first item (the response selects only its id: the store
            // does not know); a refetch of that item brings the new text, to its model alone.
            let rename = try XCTUnwrap(Self.mutations["RenameTodoMutation"])
            _ = try await environment.commitMutation(
                rename,
                variables: [
                    "input": .object([
                        JSONMember("id", .string("VG9kbzow")), JSONMember("text", .string("Taste Swift")),
                    ])
                ])
            XCTAssertEqual(screen.rows.map(\.updates), [0, 1])
            let item = RefetchableFragmentModel(
                environment: environment,
                pointer: FragmentPointer<ToDoRefetch_todo>(
                    dataID: "VG9kbzow", owner: FragmentOwner(operation: ToDoItemPreviewQuery.artifact, variables: [:])))
            XCTAssertEqual(item.data?["text"], .string("Taste JavaScript"))
            try await item.refetch(fetchPolicy: .networkOnly)
            XCTAssertEqual(item.data?["text"], .string("Taste Swift"))
            XCTAssertEqual(item.fragment.pointer.owner?.name, "ToDoRefetchQuery")
            XCTAssertEqual(screen.rows.map(\.updates), [1, 1])
            XCTAssertEqual(screen.render(), ["[x] Taste Swift", "[x] Buy a unicorn"])

            // What went over the wire: the list query, the two mutations, the refetch query.
            let names = server.requests.compactMap { request -> String? in
                let body = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
                return body?["operationName"] as? String
            }
            XCTAssertEqual(
                names, ["ToDoItemPreviewQuery", "ChangeTodoStatusMutation", "RenameTodoMutation", "ToDoRefetchQuery"])
            await server.stop()
        }
        /// Optimistic toggles against the server: one it accepts (the row is ticked once, and
        /// the answer agrees), one it refuses (the to-do was removed meanwhile by another client:
        /// the row is ticked, then rolled back). The other row never hears of either.
        func testOptimisticTogglesAgainstTheServer() async throws {
            let (server, environment, screen) = try await twoTodoScreen()
            try await setComplete(true, todoID: "VG9kbzox", userID: "me", in: environment)
            XCTAssertEqual(screen.render(), ["[x] Taste JavaScript", "[x] Buy a unicorn"])
            XCTAssertEqual(screen.rows.map(\.updates), [0, 1], "ticked once: the answer agreed with the guess")

            // Another client removes the first to-do; unticking it here is refused by the server.
            let other = Environment(network: HTTPNetwork(endpoint: server.url))
            _ = try await other.commitMutation(
                try XCTUnwrap(Self.mutations["RemoveTodoMutation"]),
                variables: [
                    "input": .object([JSONMember("id", .string("VG9kbzow")), JSONMember("userId", .string("me"))])
                ])
            try await setComplete(false, todoID: "VG9kbzow", userID: "me", in: environment)
            XCTAssertEqual(screen.rows.map(\.updates), [2, 1], "unticked, then rolled back")
            XCTAssertEqual(screen.render(), ["[x] Taste JavaScript", "[x] Buy a unicorn"])
            await server.stop()
        }

        /// A server that fails one todo's `text` (non-null: GraphQL nulls that todo in the list and
        /// says why in `errors`): the list's `node @catch` shows that row's error, the others render,
        /// and the row fragment's `text @required(action: THROW)` throws for nothing.
        func testAFailedTodoShowsItsErrorAndTheOthersRender() async throws {
            let server = try await TodoServer.start(
                data: TodoData(users: [
                    .init(
                        userId: "me",
                        todos: [
                            .init(key: 0, text: "Taste JavaScript", complete: true),
                            .init(key: 1, text: "Walk the unicorn", complete: false, textError: "text failed"),
                            .init(key: 2, text: "Buy a unicorn", complete: false),
                        ])
                ]))
            let environment = Environment(network: HTTPNetwork(endpoint: server.url))
            let model = QueryModel(environment: environment, operation: ToDoCaughtListQuery())
            await model.load()
            XCTAssertNil(model.state.fieldErrorFailure)
            environment.store.withSnapshot { snapshot in
                XCTAssertEqual(
                    caughtRows(snapshot), ["[x] Taste JavaScript", "failed: text failed", "[ ] Buy a unicorn"])
            }
            await server.stop()
        }

        /// Each fault of a real server, through the environment: a FetchError saying what, the
        /// store as it was, no model notified, and no request left in flight.
        func testServerFaultsPublishNothing() async throws {
            let server = try await TodoServer.start(
                data: TodoData(users: [.init(userId: "me", todos: [.init(key: 0, text: "Milk", complete: false)])]))
            let good = Environment(network: HTTPNetwork(endpoint: server.url))
            let screen = ToDoScreen(environment: good)
            await screen.load()
            XCTAssertEqual(screen.render(), ["[ ] Milk"])
            let before = good.store.relayJSON()
            let faults: [(URL, (FetchError) -> Bool)] = [
                (server.url("status/500"), { $0.kind == .status(500) }),
                (server.url("not-json"), { $0.kind == .invalidResponse && $0.offset != nil }),
                (server.url("graphql-errors"), { $0.kind == .graphQLErrors }),
                (server.faultURL(.drop), { $0.kind == .transport }),
                (server.faultURL(.cutOff), { $0.kind == .transport || $0.kind == .invalidResponse }),
                (server.faultURL(.trickle), { $0.kind == .timeout }),
                (URL(string: "http://127.0.0.1:1/graphql")!, { $0.kind == .transport }),
            ]
            for (url, expected) in faults {
                // Same store, another network: what a failed request would have published.
                let environment = Environment(
                    network: HTTPNetwork(endpoint: url), store: good.store,
                    requestOptions: RequestOptions(timeout: .milliseconds(500)))
                var notified = 0
                let (_, id) = environment.subscribe(
                    .operation(ToDoItemPreviewQuery.artifact, variables: [:])
                ) { _ in notified += 1 }
                do {
                    _ = try await environment.fetchQuery(ToDoItemPreviewQuery(), fetchPolicy: .networkOnly)
                    XCTFail("\(url) did not fail")
                } catch let error as FetchError {
                    XCTAssertTrue(expected(error), "\(url): \(error)")
                }
                environment.unsubscribe(id)
                XCTAssertEqual(notified, 0, "\(url)")
                XCTAssertEqual(environment.requestsInFlight, 0, "\(url)")
                XCTAssertEqual(good.store.relayJSON(), before, "\(url) changed the store")
            }
            XCTAssertEqual(screen.rows.map(\.updates), [0])
            await server.stop()
        }
    }
#endif
