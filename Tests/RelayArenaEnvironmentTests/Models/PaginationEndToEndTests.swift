// The seeds' list paged against the loopback server: a 10k-todo list by 100 through a pagination
// fragment (`@refetchable` + `@connection`), each page merged into the same connection by the
// handler, the fragment's data growing; relay's guards and page variables.
#if HTTP
    import Foundation
    import RelayArena
    import RelayArenaCompiler
    import RelayArenaHTTP
    import RelayArenaTestSupport
    import TodoServer
    import XCTest

    @MainActor
    final class PaginationEndToEndTests: XCTestCase {
        nonisolated static let mutations = try! Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql"))
        ).compile([
            GraphQLSourceFile(
                name: "mutations.graphql",
                text: """
                    mutation AddTodoMutation($input: AddTodoInput!, $connections: [ID!]!) {
                      addTodo(input: $input) { todoEdge @appendEdge(connections: $connections) { cursor node { id text complete } } }
                    }
                    mutation MarkAllTodosMutation($input: MarkAllTodosInput!) {
                      markAllTodos(input: $input) { changedTodos { id complete } }
                    }
                    mutation RemoveCompletedTodosMutation($input: RemoveCompletedTodosInput!) {
                      removeCompletedTodos(input: $input) { deletedTodoIds @deleteRecord }
                    }
                    """)
        ]).operations

        /// The seeds' list against the server: add a todo (optimistic, @appendEdge), mark all,
        /// remove the completed ones (@deleteRecord).
        func testAddMarkAllAndRemoveCompleted() async throws {
            let todos = (0..<3).map { TodoData.Todo(key: $0, text: "todo \($0)", complete: $0 == 1) }
            let server = try await TodoServer.start(data: TodoData(users: [.init(userId: "me", todos: todos)]))
            let (environment, pointer, list) = try await paginated(server)
            XCTAssertEqual(texts(list), ["todo 0", "todo 1", "todo 2"])
            let connection = ConnectionHandler.connectionID(pointer.dataID, key: "ToDoPagination_todos")

            // Added at once under a client ID, then the server's to-do in its place.
            let node: JSONValue = .object([
                JSONMember("id", .string("client:new")), JSONMember("text", .string("Write tests")),
                JSONMember("complete", .bool(false)),
            ])
            let optimistic: JSONValue = .object([
                JSONMember(
                    "addTodo",
                    .object([
                        JSONMember("todoEdge", .object([JSONMember("cursor", .string("")), JSONMember("node", node)]))
                    ]))
            ])
            _ = try await environment.commitMutation(
                try XCTUnwrap(Self.mutations["AddTodoMutation"]),
                variables: [
                    "input": .object([JSONMember("text", .string("Write tests")), JSONMember("userId", .string("me"))]),
                    "connections": .array([.string(connection)]),
                ],
                optimisticResponse: optimistic)
            XCTAssertEqual(texts(list), ["todo 0", "todo 1", "todo 2", "Write tests"])
            XCTAssertEqual(list.refetchable.fragment.updates, 2, "the optimistic edge, then the server's")
            XCTAssertFalse(String(decoding: environment.store.relayJSON(), as: UTF8.self).contains("client:new\""))

            _ = try await environment.commitMutation(
                try XCTUnwrap(Self.mutations["MarkAllTodosMutation"]),
                variables: [
                    "input": .object([JSONMember("complete", .bool(true)), JSONMember("userId", .string("me"))])
                ])
            guard case .array(let edges)? = list.data?["todos"]?["edges"] else { return XCTFail("no edges") }
            XCTAssertEqual(edges.map { $0["node"]?["complete"] }, Array(repeating: .bool(true), count: 4))

            _ = try await environment.commitMutation(
                try XCTUnwrap(Self.mutations["RemoveCompletedTodosMutation"]),
                variables: ["input": .object([JSONMember("userId", .string("me"))])])
            XCTAssertEqual(texts(list), [], "every node deleted (relay's reader reads them as null)")
            await server.stop()
        }

        /// The list query loaded from `server`, and a pagination model on its user.
        func paginated(_ server: TodoServer) async throws
            -> (Environment, FragmentPointer<ToDoPagination_user>, PaginationFragmentModel<ToDoPagination_user>)
        {
            let environment = Environment(network: HTTPNetwork(endpoint: server.url))
            let query = QueryModel(environment: environment, operation: ToDoPaginationListQuery())
            await query.load()
            let pointer = try XCTUnwrap(query.withData { $0.user?.asFragment() } ?? nil)
            let list = PaginationFragmentModel(environment: environment, pointer: pointer)
            return (environment, pointer, list)
        }

        func texts(_ list: PaginationFragmentModel<ToDoPagination_user>) -> [String] {
            guard case .array(let edges)? = list.data?["todos"]?["edges"] else { return [] }
            return edges.compactMap { edge in
                guard case .string(let text)? = edge["node"]?["text"] else { return nil }
                return text
            }
        }

        func testPagesATenThousandTodoListByAHundred() async throws {
            let todos = (0..<10_000).map { TodoData.Todo(key: $0, text: "todo \($0)", complete: $0 % 3 == 0) }
            let server = try await TodoServer.start(data: TodoData(users: [.init(userId: "me", todos: todos)]))
            let (environment, pointer, list) = try await paginated(server)
            XCTAssertEqual(texts(list).count, 100)
            XCTAssertTrue(list.hasNext)
            XCTAssertFalse(list.hasPrevious)

            // relay's page variables: the count, the end cursor, the user's ID.
            let variables = list.pageVariables(count: 100, forward: true)
            XCTAssertEqual(variables["count"], .int(100))
            XCTAssertEqual(variables["id"], .string(pointer.dataID))
            guard case .string? = variables["cursor"] else { return XCTFail("no cursor: \(variables)") }

            // Two loads at once: one request (the second finds one in flight).
            let before = server.requests.count
            async let first: Void = list.loadNext(100)
            async let second: Void = list.loadNext(100)
            _ = try await (first, second)
            XCTAssertEqual(server.requests.count, before + 1)
            XCTAssertEqual(texts(list).count, 200)
            XCTAssertEqual(list.refetchable.fragment.updates, 1)

            // The README's paged list, scrolled to the end.
            let paged = ToDoPagedList(environment: environment, user: pointer)
            XCTAssertEqual(paged.texts, texts(list))
            while list.hasNext { try await paged.reachedEnd() }
            XCTAssertEqual(paged.texts, todos.map(\.text))
            XCTAssertEqual(server.requests.count, before + 99)
            XCTAssertFalse(list.isLoadingNext)
            // Forward only: loadPrevious sends nothing.
            try await list.loadPrevious(100)
            XCTAssertEqual(server.requests.count, before + 99)
            await server.stop()
        }
    }
#endif
