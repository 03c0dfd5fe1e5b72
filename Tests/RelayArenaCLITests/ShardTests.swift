// A batch job beyond one process: the input split into shards run by GNU parallel (as the README
// shows; with --sshlogin the same command runs them on other hosts), each shard writing a
// snapshot, then `merge` — byte for byte the snapshot of one job over all the input.
import Foundation
import RelayArenaTestSupport
import XCTest

final class ShardTests: XCTestCase {
    func testShardsRunByGNUParallelMergeToTheSnapshotOfOneJob() throws {
        guard
            let parallel = ["/usr/bin/parallel", "/usr/local/bin/parallel"].first(
                where: FileManager.default.isExecutableFile)
        else {
            throw XCTSkip("GNU parallel is not installed (Debian: apt-get install parallel; .ci/run installs it)")
        }
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        // Three shards of four responses: each a user's list, one todo shared by all users, and
        // every response writing a field of the root record.
        var shards: [String] = []
        for shard in 0..<3 {
            let shardDir = dir.appendingPathComponent("shard\(shard)")
            try fm.createDirectory(at: shardDir, withIntermediateDirectories: true)
            for i in 0..<4 {
                let user = shard * 4 + i
                var edges = (0..<50).map {
                    #"{"node":{"id":"t\#(user)_\#($0)","text":"todo \#($0)","complete":\#($0 % 2 == 0)}}"#
                }
                edges.append(#"{"node":{"id":"shared","text":"from \#(user)","complete":false}}"#)
                let body = #"{"data":{"user":{"id":"u\#(user)","todos":{"edges":[\#(edges.joined(separator: ","))]}}}}"#
                try Data(body.utf8).write(to: shardDir.appendingPathComponent("r\(i).json"))
            }
            shards.append(shardDir.path)
        }
        let schema = Fixtures.url("todo.graphql").path
        let document = dir.appendingPathComponent("q.graphql")
        try Data(
            #"query L($id: String!) { user(id: $id) { id todos(first: 51) { edges { node { id text complete } } } } }"#
                .utf8
        ).write(to: document)
        // Every response is for user u<N>, but the variables must be one set for the whole job:
        // the query takes the user from the response, and $id only names the root field's key.
        let common = ["--schema", schema, "--document", document.path, "--variables", #"{"id":"me"}"#]

        let one = dir.appendingPathComponent("one.snapshot").path
        // (One hash key for every process: their snapshots are compared byte for byte.)
        let all = try CLI.run(
            ["ingest"] + common + ["--jobs", "2", "--output", one] + shards, environment: CLI.fixedHashKey)
        XCTAssertEqual(all.status, 0, all.stderr)

        // GNU parallel runs the same `ingest` once a shard: {#} is the job's number.
        let binary = CLI.executable.path
        let run = Process()
        run.executableURL = URL(fileURLWithPath: parallel)
        run.environment = ProcessInfo.processInfo.environment.merging(CLI.fixedHashKey) { $1 }
        run.arguments =
            ["--will-cite", "--quote", "--halt", "now,fail=1", "--jobs", "2", binary, "ingest"] + common
            + ["--jobs", "1", "--output", dir.appendingPathComponent("part{#}.snapshot").path, "{}", ":::"] + shards
        try run.run()
        run.waitUntilExit()
        XCTAssertEqual(run.terminationStatus, 0)

        let merged = dir.appendingPathComponent("merged.snapshot").path
        let parts = (1...3).map { dir.appendingPathComponent("part\($0).snapshot").path }
        let merge = try CLI.run(["merge", "--output", merged] + parts, environment: CLI.fixedHashKey)
        XCTAssertEqual(merge.status, 0, merge.stderr)
        let a = try Data(contentsOf: URL(fileURLWithPath: one))
        let b = try Data(contentsOf: URL(fileURLWithPath: merged))
        XCTAssertGreaterThan(a.count, 0)
        XCTAssertEqual(a, b, "the merged shards are not byte for byte the one job's snapshot")
    }
}
