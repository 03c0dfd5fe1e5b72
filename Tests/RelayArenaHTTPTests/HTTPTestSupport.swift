// Shared by the HTTP tests: the to-do documents compiled once, a fresh server per test, and the
// body streamed into a normalizer chunk by chunk.
#if HTTP
    import Foundation
    import RelayArena
    import RelayArenaCompiler
    import RelayArenaHTTP
    import RelayArenaTestSupport
    import TodoServer
    import XCTest

    enum ToDoDocuments {
        /// TodoListQuery, NodeQuery and the mutations the tests send, compiled against todo.graphql.
        static let compiled: CompiledDocuments = {
            do {
                let compiler = try Compiler(
                    schema: GraphQLSourceFile(name: "todo.graphql", text: try Fixtures.text("todo.graphql")))
                return try compiler.compile([
                    GraphQLSourceFile(
                        name: "todo-list-query.graphql", text: try Fixtures.text("todo-list-query.graphql")),
                    GraphQLSourceFile(
                        name: "Operations.graphql",
                        text: """
                            query NodeQuery($id: ID!) { node(id: $id) { id ... on Todo { text complete } } }
                            mutation AddTodoMutation($input: AddTodoInput!) {
                              addTodo(input: $input) { todoEdge { cursor node { id text complete } } user { id totalCount } }
                            }
                            mutation ChangeTodoStatusMutation($input: ChangeTodoStatusInput!) {
                              changeTodoStatus(input: $input) { todo { id complete } user { id completedCount } }
                            }
                            mutation RenameTodoMutation($input: RenameTodoInput!) {
                              renameTodo(input: $input) { todo { id text } }
                            }
                            mutation RemoveTodoMutation($input: RemoveTodoInput!) {
                              removeTodo(input: $input) { deletedTodoId user { id totalCount } }
                            }
                            """),
                ])
            } catch {
                fatalError("the test documents do not compile: \(error)")
            }
        }()

        static func operation(_ name: String) -> OperationArtifact { compiled.operations[name]! }
    }

    class HTTPTestCase: XCTestCase {
        var server: TodoServer!

        /// The server's data; a test that wants other data overrides it.
        var data: TodoData { .workload(todos: 20) }

        override func setUp() async throws {
            server = try await TodoServer.start(data: data)
        }

        override func tearDown() async throws {
            await server?.stop()
            server = nil
        }

        func listRequest(first: Int = 20) -> GraphQLRequest {
            GraphQLRequest(
                operation: ToDoDocuments.operation("TodoListQuery"), variables: ["first": .int(Int64(first))])
        }

        /// The response's body fed to a normalizer as it arrives; the bytes and the chunk count.
        func stream(_ response: NetworkResponse, into normalizer: ResponseNormalizer) async throws -> (
            bytes: [UInt8], chunks: Int
        ) {
            var bytes: [UInt8] = []
            var chunks = 0
            for try await chunk in response.body {
                try chunk.withUnsafeBytes { raw in
                    bytes += raw
                    try normalizer.feed(raw)
                }
                chunks += 1
            }
            return (bytes, chunks)
        }

        /// Polls `condition` until it holds or `timeout` passes.
        func eventually(within timeout: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
            let end = ContinuousClock.now + timeout
            while ContinuousClock.now < end {
                if condition() { return true }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return condition()
        }
    }

    /// The FetchError `body` throws, failing the test when it throws none or another error.
    func fetchError(
        _ body: () async throws -> Void, file: StaticString = #filePath, line: UInt = #line
    ) async -> FetchError? {
        do {
            try await body()
            XCTFail("expected a FetchError, got none", file: file, line: line)
        } catch let error as FetchError {
            return error
        } catch {
            XCTFail("expected a FetchError, got \(error)", file: file, line: line)
        }
        return nil
    }
#endif
