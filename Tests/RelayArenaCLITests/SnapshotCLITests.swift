// Snapshots on the command line: `--store` takes one wherever it takes relay toJSON (told apart by
// content), `dump` prints one as toJSON, `merge` publishes several into the first; a bad snapshot
// is exit 1, one line, nothing written.
import Foundation
import RelayArena
import RelayArenaTestSupport
import RelayArenaWorkloads
import XCTest

final class SnapshotCLITests: CLITestCase {
    func normalize(_ response: String, _ extra: [String]) throws -> CLIResult {
        try CLI.run(
            ["normalize", "--schema", schema, "--document", query, "--variables", #"{"first":3}"#] + extra + [response])
    }

    func text(_ p: String) throws -> String { try String(contentsOfFile: p, encoding: .utf8) }

    func testNormalizeWritesASnapshotThatDumpsAndLoadsAsItsJSON() throws {
        let response = try write("r1.json", TodoListWorkload(todos: 3).response())
        // A snapshot named .json: `--store` tells it apart by its content.
        let snapshot = path("store.json")
        let r = try normalize(response, ["--write-snapshot", snapshot, "--write-store", path("store-text.json")])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(RecordStore.isSnapshot(Array(try Data(contentsOf: URL(fileURLWithPath: snapshot)))))

        let dumped = try CLI.run(["dump", snapshot])
        XCTAssertEqual(dumped.status, 0, dumped.stderr)
        XCTAssertEqual(dumped.stdoutText, try text(path("store-text.json")))
        let toFile = try CLI.run(["dump", snapshot, "--write-store", path("dumped.json")])
        XCTAssertEqual(toFile.status, 0, toFile.stderr)
        XCTAssertTrue(toFile.stdout.isEmpty)
        XCTAssertEqual(try text(path("dumped.json")), try text(path("store-text.json")))

        // The same response into the snapshot: nothing changes.
        let again = try normalize(response, ["--store", snapshot, "--updated-ids", path("ids.json")])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdoutText, try text(path("store-text.json")))
        XCTAssertEqual(try text(path("ids.json")), "[]\n")

        // read takes one too.
        let read = try CLI.run([
            "read", "--schema", schema, "--document", query, "--operation", "TodoListQuery", "--variables",
            #"{"first":3}"#, "--store", snapshot, "--fragment", "TodoListQuery", "--id", "client:root",
        ])
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertTrue(read.stdoutText.contains(#""isMissingData":false"#), read.stdoutText)
    }

    func testMergeEqualsNormalizingBothResponsesOneAfterAnother() throws {
        let r1 = try write("r1.json", TodoListWorkload(todos: 3).response())
        let r2 = try write("r2.json", TodoListWorkload(todos: 3).response(changedPercent: 100))
        XCTAssertEqual(
            try normalize(r1, ["--write-snapshot", path("a.snapshot"), "--write-store", path("a.json")]).status, 0)
        XCTAssertEqual(try normalize(r2, ["--write-snapshot", path("b.snapshot"), "--quiet"]).status, 0)
        let sequential = try normalize(r2, ["--store", path("a.json")])
        XCTAssertEqual(sequential.status, 0, sequential.stderr)

        let merged = try CLI.run(["merge", "--output", path("m.snapshot"), path("a.snapshot"), path("b.snapshot")])
        XCTAssertEqual(merged.status, 0, merged.stderr)
        XCTAssertTrue(merged.stdout.isEmpty)
        let dumped = try CLI.run(["dump", path("m.snapshot")])
        XCTAssertEqual(dumped.status, 0, dumped.stderr)
        XCTAssertEqual(dumped.stdoutText, sequential.stdoutText)
        XCTAssertNotEqual(dumped.stdoutText, try text(path("a.json")), "the second response changed todos")

        // One input: a copy. The output may be an input.
        XCTAssertEqual(try CLI.run(["merge", "--output", path("c.snapshot"), path("a.snapshot")]).status, 0)
        XCTAssertEqual(try CLI.run(["dump", path("c.snapshot")]).stdoutText, try text(path("a.json")))
        XCTAssertEqual(
            try CLI.run(["merge", "--output", path("a.snapshot"), path("a.snapshot"), path("b.snapshot")]).status, 0)
        XCTAssertEqual(try CLI.run(["dump", path("a.snapshot")]).stdoutText, sequential.stdoutText)
    }

    func testBadSnapshotsAreOneLineErrorsAndWriteNothing() throws {
        let response = try write("r1.json", TodoListWorkload(todos: 3).response())
        XCTAssertEqual(try normalize(response, ["--write-snapshot", path("good.snapshot"), "--quiet"]).status, 0)
        let good = Array(try Data(contentsOf: URL(fileURLWithPath: path("good.snapshot"))))
        var corrupt = good
        corrupt[good.count / 2] ^= 0x01
        var newer = good
        newer[8] = 9
        RecordStore.fixSnapshotChecksum(&newer)
        let bad: [(String, [UInt8], String)] = [
            ("truncated.snapshot", Array(good.prefix(good.count - 1)), "truncated"),
            ("corrupt.snapshot", corrupt, "checksum mismatch"),
            ("newer.snapshot", newer, "version 9 is newer"),
            ("toJSON.snapshot", Array(try text(response).utf8), "not a snapshot"),
        ]
        for (name, bytes, says) in bad {
            let p = try write(name, bytes)
            for args in [
                ["dump", p], ["dump", p, "--write-store", path("out.json")],
                ["merge", "--output", path("out.snapshot"), path("good.snapshot"), p],
                ["merge", "--output", path("out.snapshot"), p],
            ] {
                let r = try CLI.run(args)
                XCTAssertEqual(r.status, 1, "\(args)")
                XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
                XCTAssertTrue(r.stderr.contains(says), r.stderr)
                XCTAssertTrue(r.stdout.isEmpty)
                XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.json")))
                XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.snapshot")))
            }
        }
        // A corrupt snapshot given as --store: the same one line.
        let r = try normalize(response, ["--store", path("corrupt.snapshot"), "--write-store", path("out.json")])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("checksum mismatch"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.json")))
        // merge needs an input.
        XCTAssertEqual(try CLI.run(["merge", "--output", path("out.snapshot")]).status, 1)
        // Only this directory's files: no temporary file left by any of these.
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(),
            ["corrupt.snapshot", "good.snapshot", "newer.snapshot", "r1.json", "toJSON.snapshot", "truncated.snapshot"])
    }
}
