// Files the command line writes are replaced whole through a temporary beside them; a writer
// killed mid-write leaves its temporary, and the next write of the same file removes it.
import Foundation
import RelayArena
import RelayArenaTestSupport
import RelayArenaWorkloads
import XCTest

final class AtomicWriteCLITests: CLITestCase {
    func normalizeArgs(_ extra: [String]) -> [String] {
        ["normalize", "--schema", schema, "--document", query, "--variables", #"{"first":1}"#] + extra
    }

    func temporaries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
            $0.contains(".tmp-") || $0.contains("nosync")
        }
        .sorted()
    }

    /// A process that ran and is gone: its ID names no process (for the moment the test needs).
    func deadPID() throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/true")
        try p.run()
        p.waitUntilExit()
        return p.processIdentifier
    }

    /// A real child is SIGKILLed while it writes the store and the snapshot; what it left is
    /// removed by the next write of the same files, and that write leaves no temporary.
    func testTemporariesOfAKilledWriterAreRemovedByTheNextWrite() throws {
        let response = try write("long.json", LongTextWorkload.response(textBytes: 48 << 20))
        let store = path("store.json")
        let snapshot = path("store.snapshot")
        var killedMidWrite = false
        for _ in 0..<5 where !killedMidWrite {
            let child = Process()
            child.executableURL = CLI.executable
            child.arguments = normalizeArgs([
                "--max-bytes", "\(64 << 20)", "--write-snapshot", snapshot, "--write-store", store, response,
            ])
            child.standardOutput = FileHandle.nullDevice
            child.standardError = FileHandle.nullDevice
            try child.run()
            while child.isRunning {
                if try !temporaries().isEmpty {
                    kill(child.processIdentifier, SIGKILL)
                    killedMidWrite = true
                    break
                }
                usleep(200)
            }
            child.waitUntilExit()
        }
        XCTAssertTrue(killedMidWrite, "the child was never caught mid-write")
        // And temporaries of a dead writer laid down by hand, one in each writer's naming; a live
        // process's (this test's) stays.
        let dead = try deadPID()
        for name in [
            ".store.snapshot.tmp-\(dead)-1f-0", ".store.json.tmp-\(dead)-abc", ".store.json.tmp-\(getpid())-live",
        ] {
            _ = FileManager.default.createFile(atPath: path(name), contents: Data("x".utf8))
        }
        XCTAssertFalse(try temporaries().isEmpty)

        let small = try write("small.json", TodoListWorkload(todos: 1).response())
        let r = try CLI.run(normalizeArgs(["--write-snapshot", snapshot, "--write-store", store, small]))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try temporaries(), [".store.json.tmp-\(getpid())-live"], "only the live writer's is left")
        XCTAssertTrue(RecordStore.isSnapshot(Array(try Data(contentsOf: URL(fileURLWithPath: snapshot)))))
        XCTAssertNoThrow(try JSONCompare.parse(Data(contentsOf: URL(fileURLWithPath: store))))
    }

    /// `generate` and `--updated-ids` write through the same temporaries: none left, no
    /// Foundation `.dat.nosync…` either.
    func testEveryWriterLeavesNoTemporary() throws {
        let response = try write("r.json", TodoListWorkload(todos: 1).response())
        let dead = try deadPID()
        _ = FileManager.default.createFile(atPath: path(".ids.json.tmp-\(dead)-0"), contents: nil)
        let r = try CLI.run(normalizeArgs(["--updated-ids", path("ids.json"), "--quiet", response]))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try temporaries(), [])
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("nosync") }, [])
    }
}
