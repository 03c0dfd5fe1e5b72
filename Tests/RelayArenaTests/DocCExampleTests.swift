// The example of the DocC article "Snapshots and batch jobs"
// (RelayArena.docc/SnapshotsAndBatchJobs.md), compiled and run; a second test checks that the
// article shows exactly this code (between the DocC markers), so the two cannot drift apart.
import Foundation
import RelayArena
import RelayArenaTestSupport
import RelayArenaWorkloads
import XCTest

final class DocCExampleTests: XCTestCase {
    func testSnapshotsAndBatchJobsExample() async throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let query = try TodoListSetup.operation()
        var files: [String] = []
        for i in 0..<4 {
            let path = dir.appendingPathComponent("r\(i).json").path
            try Data(TodoListWorkload(todos: 500, seed: UInt64(i + 1)).response()).write(to: URL(fileURLWithPath: path))
            files.append(path)
        }
        let path = dir.appendingPathComponent("lists.snapshot").path
        var printed: [String] = []
        func print(_ s: String) { printed.append(s) }

        // DocC:begin
        let plan = try NormalizationPlan(operation: query, variables: ["first": .int(500)])
        let store = RecordStore()
        // The files are streamed from disk, normalized on 2 threads, published in their order.
        let report = try await store.ingest(files.map(IngestResponse.init(fileAt:)), plan: plan, jobs: 2)
        print("published \(report.published) responses, \(report.bytes) bytes")
        try store.writeSnapshot(to: path)  // atomic: a crash leaves the previous file whole

        // Later, or in another process: the file is read and verified, not parsed.
        let reopened = try RecordStore(snapshotAt: path)
        let merged = RecordStore()
        let updated = try merged.publish(contentsOf: reopened)  // as `relay-arena merge` does
        print("merged \(updated.count) records")
        // DocC:end

        let bytes = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)).count }.reduce(0, +)
        XCTAssertEqual(printed.first, "published 4 responses, \(bytes) bytes")
        XCTAssertEqual(printed.count, 2)
        XCTAssertEqual(reopened.relayJSON(), store.relayJSON())
        XCTAssertEqual(merged.relayJSON(), store.relayJSON())
    }

    func testSnapshotsArticleShowsThisExample() throws {
        let here = URL(fileURLWithPath: #filePath)
        let article = try String(
            contentsOf: here.deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(
                    "Sources/RelayArena/RelayArena.docc/SnapshotsAndBatchJobs.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let begin = try XCTUnwrap(source.range(of: "// DocC:begin\n"), "markers missing")
        let end = try XCTUnwrap(
            source.range(of: "        // DocC:end", range: begin.upperBound..<source.endIndex), "markers missing")
        let body = source[begin.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }.joined(separator: "\n")
        XCTAssertTrue(
            article.contains(body), "SnapshotsAndBatchJobs.md must contain the example exactly as tested:\n\(body)")
    }
}
