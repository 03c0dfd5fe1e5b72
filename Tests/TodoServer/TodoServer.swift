// A GraphQL server for the tests, on loopback: Hummingbird serving the to-do schema (GraphQLSwift
// executing it over TodoData), routes for benchmarks and faults, and a raw listener for the faults
// a real server cannot be made to commit. Started and stopped by each test; it records the
// requests it got.
#if HTTP
    import Foundation
    import GraphQL
    import Hummingbird
    import Logging
    import NIOConcurrencyHelpers
    import NIOCore
    import RelayArenaWorkloads

    /// One request as the server received it.
    public struct ReceivedRequest: Sendable {
        public var method: String
        public var path: String
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        /// The first value of a header, by case-insensitive name.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// The running server. Routes (all POST, as a GraphQL client sends):
    /// - `/graphql`: executes `{"query", "variables", "operationName"}` against the to-do schema.
    /// - `/canned/NAME?chunk=N`: the bytes registered as NAME, written N bytes at a time, so that a
    ///   benchmark measures the client rather than GraphQL execution.
    /// - `/status/CODE`: that status with a short JSON body.
    /// - `/not-json`: a 200 whose body stops being JSON at byte ``notJSONOffset``.
    /// - `/graphql-errors`: `{"errors":[…],"data":null}`.
    /// - ``faultURL(_:)``: the raw listener's ``Fault``s (dropped connection, cut-off body, trickle).
    public final class TodoServer: Sendable {
        /// The body `/not-json` sends, and where it stops being JSON.
        public static let notJSONBody = Array(#"{"data":{"user":<html>oops</html>}}"#.utf8)
        public static let notJSONOffset = 17
        /// The body `/graphql-errors` sends.
        public static let graphQLErrorsBody = Array(
            #"{"errors":[{"message":"user not found","path":["user"]}],"data":null}"#.utf8)

        /// The Hummingbird server's port.
        public let port: Int
        private let task: Task<Void, any Error>
        private let faults: FaultListener
        private let recorded: NIOLockedValueBox<[ReceivedRequest]>
        private let canned: NIOLockedValueBox<[String: [UInt8]]>

        /// `http://127.0.0.1:PORT/graphql`.
        public var url: URL { url("graphql") }

        public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(path)")! }

        /// The raw listener's URL for `fault`.
        public func faultURL(_ fault: Fault) -> URL {
            URL(string: "http://127.0.0.1:\(faults.port)/\(fault.rawValue)")!
        }

        /// What the raw listener saw (trickles the client closed, bytes trickled).
        public var faultLog: FaultLog { faults.log }

        /// Requests received so far by the Hummingbird routes, in order.
        public var requests: [ReceivedRequest] { recorded.withLockedValue { $0 } }

        /// Serves `bytes` at `/canned/NAME`.
        public func register(canned bytes: [UInt8], as name: String) {
            canned.withLockedValue { $0[name] = bytes }
        }

        /// Starts on 127.0.0.1, ephemeral ports; returns once both listeners accept connections.
        public static func start(data: TodoData) async throws -> TodoServer {
            let state = TodoState(data)
            let schema = try TodoSchema.make(state)
            let recorded = NIOLockedValueBox<[ReceivedRequest]>([])
            let canned = NIOLockedValueBox<[String: [UInt8]]>([:])
            let router = Routes(schema: schema, recorded: recorded, canned: canned).router()
            var logger = Logger(label: "TodoServer")
            logger.logLevel = .critical  // stopping logs the cancelled connections as errors
            let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
            let app = Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in
                    portContinuation.yield(channel.localAddress?.port ?? 0)
                    portContinuation.finish()
                }, logger: logger)
            let task = Task { try await app.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else {
                task.cancel()
                _ = await task.result
                throw GraphQLError(message: "TodoServer: the server did not start")
            }
            let faults: FaultListener
            do {
                faults = try await FaultListener.start(trickleBody: TodoListWorkload(todos: 3).response())
            } catch {
                task.cancel()
                _ = await task.result
                throw error
            }
            return TodoServer(port: port, task: task, faults: faults, recorded: recorded, canned: canned)
        }

        private init(
            port: Int, task: Task<Void, any Error>, faults: FaultListener,
            recorded: NIOLockedValueBox<[ReceivedRequest]>, canned: NIOLockedValueBox<[String: [UInt8]]>
        ) {
            self.port = port
            self.task = task
            self.faults = faults
            self.recorded = recorded
            self.canned = canned
        }

        /// Stops both listeners and waits until the server's task has ended.
        public func stop() async {
            await faults.stop()
            task.cancel()
            _ = await task.result
        }
    }
#endif
