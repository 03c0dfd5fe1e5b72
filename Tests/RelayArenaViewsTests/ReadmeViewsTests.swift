// The README quotes the seeds' item view; this keeps the quote equal to the code the tests compile
// and run.
import Foundation
import XCTest

final class ReadmeViewsTests: XCTestCase {
    func testReadmeQuotesTheCompiledViews() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let readme = try String(
            contentsOf: here.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("README.md"), encoding: .utf8)
        for name in ["ToDoItem.swift", "ToDoScreen.swift", "ToDoToggle.swift", "ToDoPagination.swift"] {
            let source = try String(contentsOf: here.appendingPathComponent("App/ToDo/\(name)"), encoding: .utf8)
            let body = source.split(separator: "\n", omittingEmptySubsequences: false)
                .drop { $0.hasPrefix("//") }.joined(separator: "\n")
                .trimmingCharacters(in: .newlines)
            XCTAssertTrue(readme.contains(body), "README.md must quote \(name) exactly as compiled")
        }
    }
}
