// `relay-arena fetch` against the loopback to-do server: what it sends, what it writes, and that
// every failure is one line on stderr, exit status 1 and no file touched.
#if HTTP
    import Foundation
    import RelayArena
    import RelayArenaTestSupport
    import RelayArenaWorkloads
    import TodoServer
    import XCTest

    final class FetchCLITests: XCTestCase {
        var dir: URL!
        var server: TodoServer!

        override func setUp() async throws {
            dir = try CLI.tempDir()
            server = try await TodoServer.start(data: .workload(todos: 3))
        }

        override func tearDown() async throws {
            await server?.stop()
            try? FileManager.default.removeItem(at: dir)
        }

        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

        func fetchArgs(_ endpoint: URL, _ extra: [String] = []) -> [String] {
            [
                "fetch", "--endpoint", endpoint.absoluteString, "--schema", Fixtures.url("todo.graphql").path,
                "--document", Fixtures.url("todo-list-query.graphql").path, "--variables", #"{"first":3,"extra":1}"#,
            ] + extra
        }

        /// Runs the CLI off the cooperative pool: it blocks until the process exits, and the
        /// server it talks to answers on the pool.
        func run(_ args: [String]) async throws -> CLIResult {
            try await withCheckedThrowingContinuation { continuation in
                Thread { continuation.resume(with: Result { try CLI.run(args) }) }.start()
            }
        }

        func testFetchWritesTheStoreAndUpdatedIDs() async throws {
            let r = try await run(
                fetchArgs(
                    server.url,
                    [
                        "--header", "Authorization: Bearer t0k3n", "--write-store", path("store.json"), "--updated-ids",
                        path("ids.json"),
                        "--timeout", "20",
                    ]))
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.isEmpty)

            // The same store as `normalize` of the workload's response (the server's data).
            let response = dir.appendingPathComponent("response.json")
            try Data(TodoListWorkload(todos: 3).response()).write(to: response)
            let normalized = try CLI.run(
                [
                    "normalize", "--schema", Fixtures.url("todo.graphql").path, "--document",
                    Fixtures.url("todo-list-query.graphql").path, "--variables", #"{"first":3}"#, response.path,
                ])
            XCTAssertEqual(normalized.status, 0, normalized.stderr)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("store.json"))), Data(normalized.stdout))
            let ids = try JSONCompare.parse(Data(contentsOf: URL(fileURLWithPath: path("ids.json"))))
            guard case .array(let list) = ids else { return XCTFail("ids not a list") }
            XCTAssertEqual(list.count, 10)

            // What went over the wire: the operation's text, its declared variables, its name.
            let received = try XCTUnwrap(server.requests.last)
            XCTAssertEqual(received.header("Authorization"), "Bearer t0k3n")
            XCTAssertEqual(received.header("Content-Type"), "application/json")
            let body = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(received.body)) as? [String: Any])
            XCTAssertEqual(body["operationName"] as? String, "TodoListQuery")
            XCTAssertEqual(body["variables"] as? [String: Int], ["first": 3])
            XCTAssertTrue((body["query"] as? String)?.hasPrefix("query TodoListQuery") == true)

            // Again into the stored store: nothing changed; printed on stdout without --write-store.
            let again = try await run(
                fetchArgs(server.url, ["--store", path("store.json"), "--updated-ids", path("ids.json")]))
            XCTAssertEqual(again.status, 0, again.stderr)
            XCTAssertEqual(try String(contentsOfFile: path("ids.json"), encoding: .utf8), "[]\n")
            XCTAssertEqual(Data(again.stdout), Data(normalized.stdout))

            let quiet = try await run(fetchArgs(server.url, ["--quiet"]))
            XCTAssertEqual(quiet.status, 0, quiet.stderr)
            XCTAssertTrue(quiet.stdout.isEmpty, "--quiet prints nothing")
            XCTAssertEqual(server.requests.count, 3)
        }

        /// Each failure: exit 1, one line on stderr containing `expected`, the output files untouched.
        func assertFails(_ endpoint: URL, _ expected: String, _ extra: [String] = [], line: UInt = #line) async throws {
            let store = path("store.json")
            let ids = path("ids.json")
            try Data("old".utf8).write(to: URL(fileURLWithPath: store))
            try? FileManager.default.removeItem(atPath: ids)
            let r = try await run(fetchArgs(endpoint, ["--write-store", store, "--updated-ids", ids] + extra))
            XCTAssertEqual(r.status, 1, r.stderr, line: line)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr, line: line)
            XCTAssertTrue(r.stderr.contains(expected), "\(r.stderr) lacks \(expected)", line: line)
            XCTAssertEqual(try String(contentsOfFile: store, encoding: .utf8), "old", line: line)
            XCTAssertFalse(FileManager.default.fileExists(atPath: ids), line: line)
        }

        func testNonOKStatus() async throws {
            try await assertFails(server.url("status/500"), "HTTP status 500: {\"errors\"")
        }

        func testRefusedConnection() async throws {
            try await assertFails(
                URL(string: "http://127.0.0.1:1/graphql")!, "POST http://127.0.0.1:1/graphql: Connection refused")
        }

        func testDroppedConnection() async throws {
            try await assertFails(server.faultURL(.drop), "closed the connection")
        }

        func testCutOffBody() async throws {
            try await assertFails(
                server.faultURL(.cutOff),
                "closed the connection before the response ended (byte \(Fault.cutOffBody.count))")
        }

        func testBodyThatIsNotJSON() async throws {
            try await assertFails(server.url("not-json"), "byte \(TodoServer.notJSONOffset))")
        }

        func testErrorsWithNullData() async throws {
            try await assertFails(server.url("graphql-errors"), "the server sent errors and no data: user not found")
        }

        func testTimeoutBoundsTheWholeRequest() async throws {
            let start = ContinuousClock.now
            try await assertFails(server.faultURL(.trickle), "timed out after 0.5 s", ["--timeout", "0.5"])
            XCTAssertLessThan(ContinuousClock.now - start, .seconds(10), "the trickle would take a minute")
        }

        func testBadHeaderIsAnArgumentError() async throws {
            try await assertFails(server.url, "--header must be 'Name: value'", ["--header", "no colon"])
            XCTAssertTrue(server.requests.isEmpty, "nothing was sent")
        }
    }
#endif
