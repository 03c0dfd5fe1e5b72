// The HTTP example of the DocC article "The environment" (RelayArena.docc/TheEnvironment.md), run
// against the loopback server; a second test checks that the article shows exactly this code
// (between the DocC markers), so the two cannot drift apart.
#if HTTP
    import Foundation
    import RelayArena
    import RelayArenaHTTP
    import TodoServer
    import XCTest

    final class ReadmeHTTPExampleTests: HTTPTestCase {
        override var data: TodoData { .workload(todos: 60) }

        func testFetchingExample() async throws {
            let endpoint = server.url.absoluteString
            let token = "t0k3n"
            let query = ToDoDocuments.operation("TodoListQuery")
            let store = RecordStore()

            // DocC:begin
            let network = HTTPNetwork(endpoint: endpoint, headers: [("Authorization", "Bearer \(token)")])
            let request = GraphQLRequest(operation: query, variables: ["first": .int(50)])
            let response = try await network.execute(request, options: RequestOptions(timeout: .seconds(30)))
            guard (200..<300).contains(response.status) else {  // the status is the caller's to judge
                throw FetchError(kind: .status(response.status), operation: request.name, message: "HTTP error")
            }
            let plan = try NormalizationPlan(operation: query, variables: request.variables)
            // Sized once up front when the server announced a Content-Length.
            let normalizer = try ResponseNormalizer(plan: plan, expectedBytes: response.contentLength)
            for try await chunk in response.body {  // the buffers as they arrive
                try chunk.withUnsafeBytes { try normalizer.feed($0) }
            }
            let updated = try store.publish(normalizer.finish())
            // DocC:end

            // root, user, connection, pageInfo, 50 edges and 50 todos of the 60
            XCTAssertEqual(updated.count, 104)
            XCTAssertEqual(server.requests.last?.header("Authorization"), "Bearer t0k3n")
        }

        func testEnvironmentArticleShowsThisExample() throws {
            let here = URL(fileURLWithPath: #filePath)
            let article = try String(
                contentsOf: here.deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().appendingPathComponent(
                        "Sources/RelayArena/RelayArena.docc/TheEnvironment.md"), encoding: .utf8)
            let source = try String(contentsOf: here, encoding: .utf8)
            let begin = try XCTUnwrap(source.range(of: "// DocC:begin\n"), "markers missing")
            let end = try XCTUnwrap(
                source.range(of: "            // DocC:end", range: begin.upperBound..<source.endIndex),
                "markers missing")
            let body = source[begin.upperBound..<end.lowerBound].split(
                separator: "\n", omittingEmptySubsequences: false
            )
            .map { $0.hasPrefix("            ") ? String($0.dropFirst(12)) : String($0) }.joined(separator: "\n")
            XCTAssertTrue(
                article.contains(body), "TheEnvironment.md must contain the HTTP example exactly as tested:\n\(body)")
        }
    }
#endif
