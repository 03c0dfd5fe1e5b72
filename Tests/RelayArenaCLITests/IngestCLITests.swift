// `relay-arena ingest` as batch jobs run it: files, directories and NDJSON (a file or stdin), the
// same snapshot as `normalize` one response after another, and a bad response named by file and
// line with nothing written (or skipped with --keep-going, exit status 2).
import Foundation
import RelayArenaTestSupport
import XCTest

final class IngestCLITests: XCTestCase {
    var dir: URL!
    override func setUpWithError() throws { dir = try CLI.tempDir() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func response(_ user: Int) -> String {
        let edges = (0..<20).map { #"{"node":{"id":"t\#(user)_\#($0)","text":"todo \#($0)","complete":false}}"# }
        return #"{"data":{"user":{"id":"u\#(user)","todos":{"edges":[\#(edges.joined(separator: ","))]}}}}"#
    }

    func common() throws -> [String] {
        let document = dir.appendingPathComponent("q.graphql")
        try Data(
            #"query L($id: String!) { user(id: $id) { id todos(first: 20) { edges { node { id text complete } } } } }"#
                .utf8
        ).write(to: document)
        return [
            "--schema", Fixtures.url("todo.graphql").path, "--document", document.path, "--variables", #"{"id":"me"}"#,
        ]
    }

    func testIngestIsNormalizeOneAfterAnother() throws {
        let args = try common()
        var files: [String] = []
        for i in 0..<4 {
            let url = dir.appendingPathComponent("r\(i).json")
            try Data(response(i).utf8).write(to: url)
            files.append(url.path)
        }
        // normalize, one response after another, each into the last one's snapshot
        var previous: String?
        for (i, file) in files.enumerated() {
            let out = dir.appendingPathComponent("step\(i).snapshot").path
            let r = try CLI.run(
                ["normalize"] + args + (previous.map { ["--store", $0] } ?? []) + [
                    "--write-snapshot", out, "--quiet", file,
                ], environment: CLI.fixedHashKey)
            XCTAssertEqual(r.status, 0, r.stderr)
            previous = out
        }
        let expected = try Data(contentsOf: URL(fileURLWithPath: previous!))
        // the same four as files, as NDJSON on stdin, and as an NDJSON file
        let ndjson = (0..<4).map(response).joined(separator: "\n") + "\n"
        let ndjsonFile = dir.appendingPathComponent("all.ndjson")
        try Data(ndjson.utf8).write(to: ndjsonFile)
        let runs: [([String], [UInt8]?)] = [
            (files, nil), (["-"], Array(ndjson.utf8)), ([ndjsonFile.path], nil), ([dir.path], nil),
        ]
        for (index, (inputs, stdin)) in runs.enumerated() {
            let out = dir.appendingPathComponent("ingest\(index).snapshot").path
            let r = try CLI.run(
                ["ingest"] + args + ["--jobs", "2", "--no-progress", "--output", out] + inputs, stdin: stdin,
                environment: CLI.fixedHashKey)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out)), expected, "\(inputs)")
        }
        // Without a fixed key each process draws its own: the bytes differ (the key, the index laid
        // out under it), the store does not.
        let own = dir.appendingPathComponent("own.snapshot").path
        let r = try CLI.run(["ingest"] + args + ["--jobs", "2", "--no-progress", "--output", own] + files)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: own)), expected)
        let dumps = try [own, previous!].map { try CLI.run(["dump", $0]) }
        XCTAssertEqual(dumps[0].status, 0, dumps[0].stderr)
        XCTAssertEqual(dumps[0].stdout, dumps[1].stdout)
        XCTAssertGreaterThan(dumps[0].stdout.count, 100)
    }

    func testABadResponseIsNamedByFileAndLineAndNothingIsWritten() throws {
        let args = try common()
        let lines = [response(0), #"{"data":{"user":{"id":7}}}"#, response(2)]
        let file = dir.appendingPathComponent("batch.ndjson")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        let out = dir.appendingPathComponent("out.snapshot").path
        let r = try CLI.run(["ingest"] + args + ["--output", out, file.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("batch.ndjson:2"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        let going = try CLI.run(["ingest"] + args + ["--keep-going", "--output", out, file.path])
        XCTAssertEqual(going.status, 2, going.stderr)
        XCTAssertTrue(going.stderr.contains("skipped") && going.stderr.contains("batch.ndjson:2"), going.stderr)
        let dump = try CLI.run(["dump", out])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertTrue(dump.stdoutText.contains(#""u2""#))
        XCTAssertFalse(dump.stdoutText.contains(#""u1""#))
        let missing = try CLI.run(["ingest"] + args + ["--output", out, dir.appendingPathComponent("none.json").path])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("none.json"), missing.stderr)
    }
}
