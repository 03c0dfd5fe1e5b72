// Batch ingestion: many responses normalized on several threads, published in input order —
// the same store as one-by-one commits; a bad response named (with its line), or skipped.
import Foundation
import RelayArena
import RelayArenaTestSupport
import RelayArenaWorkloads
import XCTest

final class BatchIngestTests: XCTestCase {
    /// Responses of 200 todos each; consecutive ones overlap (a refetch changes 10% of the last),
    /// so publish order matters.
    func responses(_ count: Int) -> [[UInt8]] {
        (0..<count).map { i in
            let workload = TodoListWorkload(todos: 200, seed: UInt64(i / 2 + 1))
            return i % 2 == 0 ? workload.response() : workload.response(changedPercent: 10)
        }
    }

    func testParallelIngestIsTheStoreOfOneByOne() async throws {
        let plan = try TodoListSetup.plan(todos: 200)
        let bodies = responses(24)
        let one = RecordStore()
        for body in bodies { try one.commit(response: body, plan: plan) }
        for jobs in [1, 2, 4] {
            let batch = RecordStore()
            var seen: [Int] = []
            let report = try await batch.ingest(
                bodies.enumerated().map { IngestResponse(bytes: $1, name: "r\($0)") }, plan: plan, jobs: jobs
            ) { seen.append($0.published) }
            XCTAssertEqual(report.published, 24)
            // One report a publish, in order, on the caller's task.
            XCTAssertEqual(seen, Array(1...24), "jobs \(jobs)")
            XCTAssertEqual(report.bytes, bodies.map(\.count).reduce(0, +))
            XCTAssertEqual(batch.relayJSON(), one.relayJSON(), "jobs \(jobs)")
            XCTAssertEqual(batch.arenaBytes, one.arenaBytes, "jobs \(jobs)")
        }
    }

    func testFilesAreStreamedFromDisk() async throws {
        let plan = try TodoListSetup.plan(todos: 200)
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bodies = responses(5)
        var paths: [String] = []
        for (i, body) in bodies.enumerated() {
            let url = dir.appendingPathComponent("r\(i).json")
            try Data(body).write(to: url)
            paths.append(url.path)
        }
        let batch = RecordStore()
        try await batch.ingest(paths.map(IngestResponse.init(fileAt:)), plan: plan, jobs: 2)
        let one = RecordStore()
        for path in paths { try one.commit(fileAt: path, plan: plan) }
        XCTAssertEqual(batch.relayJSON(), one.relayJSON())
        // A file that is not there is an error naming it.
        do {
            try await RecordStore().ingest(
                [IngestResponse(fileAt: dir.appendingPathComponent("none.json").path)], plan: plan)
            XCTFail("a missing file was ingested")
        } catch let error as IngestError {
            XCTAssertTrue(error.description.contains("none.json"), error.description)
        }
    }

    /// A bad response stops the batch naming it and its line, with the byte offset; with
    /// `keepGoing` it is skipped and reported, the others published (one job or several).
    func testABadResponseIsNamedOrSkipped() async throws {
        let plan = try TodoListSetup.plan(todos: 200)
        var inputs = responses(6).enumerated().map { IngestResponse(bytes: $1, name: "batch.ndjson", line: $0 + 1) }
        inputs[3] = IngestResponse(bytes: Array(#"{"data":{"user":{"id":5}}}"#.utf8), name: "batch.ndjson", line: 4)
        for jobs in [1, 3] {
            do {
                try await RecordStore().ingest(inputs, plan: plan, jobs: jobs)
                XCTFail("a bad response was ingested (jobs \(jobs))")
            } catch let error as IngestError {
                XCTAssertEqual(error.response, "batch.ndjson:4")
                XCTAssertNotNil(error.error.offset)
            }
            let store = RecordStore()
            let report = try await store.ingest(inputs, plan: plan, jobs: jobs, keepGoing: true)
            XCTAssertEqual(report.published, 5)
            XCTAssertEqual(report.skipped.map(\.response), ["batch.ndjson:4"])
            let one = RecordStore()
            for (i, input) in inputs.enumerated() where i != 3 {
                guard case .bytes(let body) = input.body else { continue }
                try one.commit(response: body, plan: plan)
            }
            XCTAssertEqual(store.relayJSON(), one.relayJSON())
        }
    }

    /// A cancelled batch stops: it throws `CancellationError`, and the store holds the responses
    /// published before it stopped, in order (the store of one-by-one commits of a prefix).
    func testACancelledBatchStopsAfterAPrefix() async throws {
        let plan = try TodoListSetup.plan(todos: 200)
        // Many responses: the cancel, made from the third report on the caller's task, lands long
        // before the workers could finish them all.
        let bodies = responses(400)
        var prefixes = [RecordStore().relayJSON()]
        let one = RecordStore()
        for body in bodies {
            try one.commit(response: body, plan: plan)
            prefixes.append(one.relayJSON())
        }
        for jobs in [1, 2, 3] {
            let store = RecordStore()
            let inputs = bodies.enumerated().map { IngestResponse(bytes: $1, name: "r\($0)") }
            // A task of its own: a cancelled task stays cancelled.
            let batch = Task {
                try await store.ingest(inputs, plan: plan, jobs: jobs) { report in
                    if report.published == 3 { withUnsafeCurrentTask { $0?.cancel() } }
                }
            }
            switch await batch.result {
            case .success: XCTFail("a cancelled batch finished (jobs \(jobs))")
            case .failure(let error): XCTAssertTrue(error is CancellationError, "\(error)")
            }
            let held = prefixes.firstIndex(of: store.relayJSON())
            XCTAssertNotNil(held, "the store is no prefix of the batch (jobs \(jobs))")
            XCTAssertGreaterThanOrEqual(held ?? 0, 3)
            XCTAssertLessThan(held ?? 400, 400)
            // One job runs on the caller's task: it stops right after the publish that cancelled.
            if jobs == 1 { XCTAssertEqual(held, 3) }
        }
    }
}
