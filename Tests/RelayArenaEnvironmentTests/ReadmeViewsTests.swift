// The README and the DocC articles quote the seeds' views (App/ToDo/); these keep each quote equal
// to the code the tests compile and run. The README's short environment example is compiled and
// run here too, and checked against the README between the README markers.
import Foundation
import RelayArena
import XCTest

final class ReadmeViewsTests: XCTestCase {
    func testReadmeQuotesTheCompiledViews() throws {
        try assertQuotes("README.md", ["ToDoItem.swift", "ToDoAdd.swift"])
    }

    func testDocCArticlesQuoteTheCompiledViews() throws {
        let catalog = "Sources/RelayArena/RelayArena.docc/"
        try assertQuotes(catalog + "TheEnvironment.md", ["ToDoScreen.swift"])
        try assertQuotes(catalog + "FieldErrorsAndNullability.md", ["ToDoCaught.swift"])
        try assertQuotes(
            catalog + "PaginationAndMutations.md", ["ToDoToggle.swift", "ToDoPagination.swift", "ToDoAdd.swift"])
    }

    func testReadmeShowsTheEnvironmentExample() throws {
        let here = URL(fileURLWithPath: #filePath)
        let readme = try String(
            contentsOf: here.deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let begin = try XCTUnwrap(source.range(of: "// README:begin\n"), "markers missing")
        let end = try XCTUnwrap(
            source.range(of: "        // README:end", range: begin.upperBound..<source.endIndex), "markers missing")
        let body = source[begin.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }.joined(separator: "\n")
        XCTAssertTrue(
            readme.contains(body), "README.md must contain the environment example exactly as tested:\n\(body)")
    }

    /// Fails unless the document at `path` (from the repository's root) quotes each of `names`
    /// (files of App/ToDo/) whole, without their leading comment.
    private func assertQuotes(_ path: String, _ names: [String]) throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let document = try String(
            contentsOf: here.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(path),
            encoding: .utf8)
        for name in names {
            let source = try String(contentsOf: here.appendingPathComponent("App/ToDo/\(name)"), encoding: .utf8)
            let body = source.split(separator: "\n", omittingEmptySubsequences: false)
                .drop { $0.hasPrefix("//") }.joined(separator: "\n")
                .trimmingCharacters(in: .newlines)
            XCTAssertTrue(document.contains(body), "\(path) must quote \(name) exactly as compiled")
        }
    }
}

/// The README's environment example over a mock network (`ReadmeViewsTests` checks that the README
/// shows it).
@MainActor
final class ReadmeEnvironmentExampleTests: XCTestCase {
    func testEnvironmentExample() async throws {
        let response = Payloads.preview
        var printed: [[String]] = []
        func print(_ lines: [String]) { printed.append(lines) }

        // README:begin
        let (environment, network) = Environment.mock()  // an app: Environment(network: HTTPNetwork(endpoint: url))
        let list = QueryModel(environment: environment, operation: ToDoItemPreviewQuery())
        async let loaded: Void = list.load()  // store-or-network: not in the store yet, so it is sent
        network.resolve(await network.nextRequest(), json: response)  // the test answers it
        await loaded

        // The list's data holds a pointer per row; a model per row reads the row's own fields and
        // is told when that to-do changes, and only then.
        let pointers =
            list.withData { data -> [FragmentPointer<ToDoItem_todo>] in
                data.user?.todos?.edges?.compactMap { $0?.node?.asFragment() } ?? []
            } ?? []
        let rows = pointers.map { FragmentModel(environment: environment, pointer: $0) }
        print(rows.compactMap { row in row.withData { ($0.complete ? "[x] " : "[ ] ") + $0.text } })
        // ["[x] Taste JavaScript", "[ ] Buy a unicorn"]
        // README:end

        XCTAssertEqual(printed, [["[x] Taste JavaScript", "[ ] Buy a unicorn"]])
        XCTAssertEqual(network.requests.map(\.name), ["ToDoItemPreviewQuery"])
        guard case .success = list.state else { return XCTFail("the query did not load: \(list.state)") }
    }
}
