// Every way a response reaches a store runs relay's connection handler: `RecordStore.commit`
// (what the command line's `normalize` calls), a batch job's `ingest` on one job or several, and
// the environment. Each gives the same store, and reading the operation back (through the handle
// key) finds the edges of both pages; a page that does not follow its connection is dropped and
// told, on each path.
import Foundation
import RelayArena
import RelayArenaTestSupport
import XCTest

@MainActor
final class ConnectionWritePathTests: XCTestCase {
    static let list = ConnectionTests.docs.operations["ListQuery"]!
    let first = ConnectionWritePathTests.page([("c1", "t1"), ("c2", "t2")], end: "c2", hasNext: true)
    let second = ConnectionWritePathTests.page([("c3", "t3")], end: "c3", hasNext: false)

    static func page(_ edges: [(cursor: String, id: String)], end: String, hasNext: Bool) -> [UInt8] {
        let e = edges.map {
            #"{"cursor":"\#($0.cursor)","node":{"id":"\#($0.id)","text":"\#($0.id) text","__typename":"Todo"}}"#
        }
        return Array(
            (#"{"data":{"user":{"id":"me","todos":{"edges":["# + e.joined(separator: ",")
                + #"],"pageInfo":{"endCursor":"\#(end)","hasNextPage":\#(hasNext),"hasPreviousPage":false,"startCursor":null}}}}}"#)
                .utf8)
    }

    static func variables(_ cursor: String?) -> Variables {
        ["count": .int(2), "cursor": cursor.map { .string($0) } ?? .null, "status": .string("any")]
    }

    static func plan(_ cursor: String?) throws -> NormalizationPlan {
        try NormalizationPlan(operation: list, variables: variables(cursor))
    }

    /// The node IDs the operation reads under `todos`, first-page variables.
    static func readNodes(_ store: RecordStore) throws -> [String] {
        let result = ReadSelector.operation(list, variables: variables(nil)).read(store)
        XCTAssertFalse(result.isMissingData)
        let text = try XCTUnwrap(result.data?.jsonText)
        let root = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let todos = (root?["user"] as? [String: Any])?["todos"] as? [String: Any]
        let edges = try XCTUnwrap(todos?["edges"] as? [[String: Any]], text)
        return edges.map { ($0["node"] as? [String: Any])?["id"] as? String ?? "?" }
    }

    func testEveryWritePathMergesPagesAsTheEnvironmentDoes() async throws {
        let environment = Environment(network: MockNetwork())
        try environment.commitPayload(Self.list, variables: Self.variables(nil), response: first, reverting: nil)
        try environment.commitPayload(Self.list, variables: Self.variables("c2"), response: second, reverting: nil)
        let expected = String(decoding: environment.store.relayJSON(), as: UTF8.self)
        XCTAssertEqual(try Self.readNodes(environment.store), ["t1", "t2", "t3"])

        let committed = RecordStore()
        try committed.commit(response: first, plan: Self.plan(nil))
        try committed.commit(response: second, plan: Self.plan("c2"))
        XCTAssertEqual(String(decoding: committed.relayJSON(), as: UTF8.self), expected)
        XCTAssertEqual(try Self.readNodes(committed), ["t1", "t2", "t3"])

        for jobs in [1, 2] {
            let ingested = RecordStore()
            try await ingested.ingest([IngestResponse(bytes: first, name: "first")], plan: Self.plan(nil), jobs: jobs)
            let report = try await ingested.ingest(
                [IngestResponse(bytes: second, name: "second")], plan: Self.plan("c2"), jobs: jobs)
            XCTAssertTrue(report.warnings.isEmpty)
            XCTAssertEqual(String(decoding: ingested.relayJSON(), as: UTF8.self), expected, "jobs \(jobs)")
        }
    }

    func testAPageAfterAnotherCursorIsToldOnEveryPath() async throws {
        let stale = Self.page([("c9", "t9")], end: "c9", hasNext: false)
        let store = RecordStore()
        try store.commit(response: first, plan: Self.plan(nil))
        var told: [LogEvent] = []
        try store.commit(response: stale, plan: Self.plan("c1")) { told.append($0) }
        XCTAssertEqual(told.map(\.name), ["connection.unexpectedCursor"])
        XCTAssertEqual(try Self.readNodes(store), ["t1", "t2"])  // edges as they were
        let ingested = RecordStore()
        try await ingested.ingest([IngestResponse(bytes: first, name: "first")], plan: Self.plan(nil), jobs: 1)
        let report = try await ingested.ingest(
            [IngestResponse(bytes: stale, name: "stale.json")], plan: Self.plan("c1"), jobs: 2)
        XCTAssertEqual(report.warnings.map(\.response), ["stale.json"])
        XCTAssertEqual(report.warnings.first?.event, told.first)
    }
}
