// Snapshots: a store written to a file and opened again reads and publishes as the original; a
// truncated, corrupt, foreign or newer file is a clear error (never a crash); a failed write leaves
// the previous file whole and no temporary file behind.
import Foundation
import RelayArenaTestSupport
import RelayArenaWorkloads
import XCTest

@testable import RelayArena

final class SnapshotTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws { dir = try CLI.tempDir() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// Every value kind, a tombstone, an untyped record, a derived client ID (a list's items).
    static let valueKinds =
        #"{"client:root":{"__id":"client:root","__typename":"__Root","me":{"__ref":"U"},"list":{"__refs":["U",null]},"items":{"__refs":["client:root:items:0","client:root:items:1","client:root:items:2"]}},"U":{"__id":"U","__typename":"User","id":"U","s":"a\"b\\c\n\u0001é","i":-9007199254740991,"f":1.50,"big":123456789012345678901234567890,"t":true,"n":null,"scalars":[1,"x",null,[2]],"obj":{"b":1,"a":{"__ref":"not-a-link-here","x":1}},"__errors":{"s":[{"message":"m"}]}},"gone":null,"w":{"__id":"w","name":"no type"},"client:root:items:0":{"__id":"client:root:items:0","__typename":"Item","n":0},"client:root:items:1":{"__id":"client:root:items:1","__typename":"Item","n":1},"client:root:items:2":{"__id":"client:root:items:2","__typename":"Item","n":2}}"#

    func todoStore(_ todos: Int) throws -> RecordStore {
        let store = RecordStore()
        try store.commit(response: TodoListWorkload(todos: todos).response(), plan: TodoListSetup.plan(todos: todos))
        return store
    }

    func snapshotBytes(_ store: RecordStore) throws -> [UInt8] {
        let p = path("bytes-\(UUID().uuidString).snapshot")
        try store.writeSnapshot(to: p)
        defer { try? FileManager.default.removeItem(atPath: p) }
        return Array(try Data(contentsOf: URL(fileURLWithPath: p)))
    }

    /// Opens `bytes` as a snapshot file; the error it throws (nil: it loaded).
    func loadError(_ bytes: [UInt8], name: String = "probe.snapshot") -> RelayArenaError? {
        let p = path(name)
        XCTAssertTrue(FileManager.default.createFile(atPath: p, contents: Data(bytes)), "wrote \(p)")
        do {
            _ = try RecordStore(snapshotAt: p)
            return nil
        } catch let error as RelayArenaError {
            return error
        } catch {
            XCTFail("not a RelayArenaError: \(error)")
            return nil
        }
    }

    // MARK: Round trips

    func testRoundTripReadsAndExportsTheSame() throws {
        for original in [try todoStore(50), try RecordStore(relayJSON: Array(Self.valueKinds.utf8)), RecordStore()] {
            let p = path("s.snapshot")
            try original.writeSnapshot(to: p)
            let loaded = try RecordStore(snapshotAt: p)
            XCTAssertEqual(
                String(decoding: loaded.relayJSON(), as: UTF8.self),
                String(decoding: original.relayJSON(), as: UTF8.self))
            XCTAssertEqual(loaded.recordCount, original.recordCount)
            XCTAssertEqual(loaded.shapeCount, original.shapeCount)
            XCTAssertEqual(
                TodoListReads.textAndComplete(loaded, first: 50), TodoListReads.textAndComplete(original, first: 50))
            // A loaded store writes the same file again.
            XCTAssertEqual(try snapshotBytes(loaded), try snapshotBytes(original))
        }
        try RecordStore(relayJSON: Array(Self.valueKinds.utf8)).writeSnapshot(to: path("v.snapshot"))
        let loaded = try RecordStore(snapshotAt: path("v.snapshot"))
        loaded.withSnapshot { s in
            guard case .record(let u) = s.record("U") else { return XCTFail("U") }
            if case .int(let i)? = s.field(u, "i") { XCTAssertEqual(i, -9_007_199_254_740_991) } else { XCTFail("i") }
            if case .number(let t)? = s.field(u, "big") {
                XCTAssertEqual(t.string, "123456789012345678901234567890")
            } else {
                XCTFail("big")
            }
            guard case .record(let root) = s.record("client:root"), case .links(let list)? = s.field(root, "list")
            else { return XCTFail("root") }
            XCTAssertEqual(list.count, 2)
            XCTAssertNil(list[1])
            if case .deleted = s.record("gone") {} else { XCTFail("tombstone") }
            if case .record = s.record("client:root:items:2") {} else { XCTFail("a derived client ID") }
            if case .unknown = s.record("never") {} else { XCTFail("unknown") }
        }
    }

    func testPublishIntoALoadedStoreEqualsPublishingIntoTheOriginal() throws {
        let todos = 200
        let plan = try TodoListSetup.plan(todos: todos)
        let changed = TodoListWorkload(todos: todos).response(changedPercent: 10)
        for original in [try todoStore(todos), RecordStore()] {
            let p = path("s.snapshot")
            try original.writeSnapshot(to: p)
            let loaded = try RecordStore(snapshotAt: p)
            let a = try original.commit(response: changed, plan: plan)
            let b = try loaded.commit(response: changed, plan: plan)
            XCTAssertEqual(Array(a), Array(b))
            XCTAssertEqual(
                String(decoding: loaded.relayJSON(), as: UTF8.self),
                String(decoding: original.relayJSON(), as: UTF8.self))
            // The file is untouched by the loaded store's write (it copied the arena first).
            XCTAssertEqual(try RecordStore(snapshotAt: p).recordCount, try RecordStore(snapshotAt: p).recordCount)
            XCTAssertNil(loadError(Array(try Data(contentsOf: URL(fileURLWithPath: p)))))
        }
    }

    func testPublishingOneStoreIntoAnother() throws {
        let plan = try TodoListSetup.plan(todos: 20)
        let first = TodoListWorkload(todos: 20).response()
        let second = TodoListWorkload(todos: 20).response(changedPercent: 50)
        let sequential = RecordStore()
        try sequential.commit(response: first, plan: plan)
        try sequential.commit(response: second, plan: plan)

        let a = RecordStore()
        try a.commit(response: first, plan: plan)
        let b = RecordStore()
        try b.commit(response: second, plan: plan)
        try a.writeSnapshot(to: path("a.snapshot"))
        try b.writeSnapshot(to: path("b.snapshot"))
        let merged = try RecordStore(snapshotAt: path("a.snapshot"))
        let updated = try merged.publish(contentsOf: RecordStore(snapshotAt: path("b.snapshot")))
        XCTAssertFalse(updated.isEmpty)
        XCTAssertEqual(
            String(decoding: merged.relayJSON(), as: UTF8.self), String(decoding: sequential.relayJSON(), as: UTF8.self)
        )
    }

    // MARK: Bad files

    func testTruncationAtEveryOffsetIsAClearError() throws {
        let bytes = try snapshotBytes(RecordStore(relayJSON: Array(Self.valueKinds.utf8)))
        XCTAssertLessThan(bytes.count, 8192, "a small file")
        for n in 0..<bytes.count {
            guard let error = loadError(Array(bytes.prefix(n))) else { return XCTFail("\(n) bytes loaded") }
            XCTAssertEqual(error.code, .invalidSnapshot, "\(n): \(error)")
            XCTAssertTrue(
                n == 0 ? error.message.contains("not a snapshot") : error.message.contains("truncated"),
                "\(n): \(error)")
        }
        XCTAssertNil(loadError(bytes))
    }

    func testEveryFlippedByteIsAClearError() throws {
        let bytes = try snapshotBytes(RecordStore(relayJSON: Array(Self.valueKinds.utf8)))
        var checksum = 0
        for i in bytes.indices {
            var bad = bytes
            bad[i] ^= 0xFF
            guard let error = loadError(bad) else { return XCTFail("byte \(i) flipped loaded") }
            XCTAssertEqual(error.code, .invalidSnapshot, "\(i): \(error)")
            XCTAssertNotNil(error.offset, "\(i): \(error)")
            if error.message.contains("checksum mismatch") { checksum += 1 }
        }
        XCTAssertGreaterThan(checksum, bytes.count - 128, "past the header, the checksum tells")
    }

    /// The arrays' offsets, as the format lays them out (the header's counts, each array at the next
    /// multiple of 64).
    func layout(_ b: [UInt8]) -> [String: Int] {
        func u32(_ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24 }
        func u64(_ at: Int) -> Int { u32(at) | u32(at + 4) << 32 }
        let sizes: [(String, Int)] = [
            ("sym_bytes", u64(32)), ("syms", u32(48) * 16), ("index", u32(56) * 4), ("dtabs", u32(64) * 24),
            ("dslots", u32(68) * 4), ("vals", u32(76) * 4), ("shapes", u32(80) * 12), ("words", u32(84) * 4),
            ("types", u32(88) * 4), ("heap", u64(40)),
        ]
        var at = 128
        var out: [String: Int] = [:]
        for (name, size) in sizes {
            at = (at + 63) & ~63
            out[name] = at
            at += size
        }
        return out
    }

    func put32(_ b: inout [UInt8], _ at: Int, _ v: UInt32) {
        for k in 0..<4 { b[at + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(k))) }
    }
    func get32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }

    // MARK: Hash keys (format version 2)

    /// A version 1 file (the fixed hash of before, no key in its header) still opens: its texts
    /// are hashed anew under a fresh key, and it reads, finds and merges as it did.
    func testVersion1FilesStillOpenRekeyed() throws {
        let original = try todoStore(200)
        var bytes = try snapshotBytes(original)
        XCTAssertEqual(get32(bytes, 8), 2, "written as version 2")
        put32(&bytes, 8, 1)
        for at in 96..<112 { bytes[at] = 0 }
        RecordStore.fixSnapshotChecksum(&bytes)
        let p = path("v1.snapshot")
        XCTAssertTrue(FileManager.default.createFile(atPath: p, contents: Data(bytes)))
        let loaded = try RecordStore(snapshotAt: p)
        XCTAssertEqual(loaded.source.hashStats.rekeys, 1)
        XCTAssertEqual(
            String(decoding: loaded.relayJSON(), as: UTF8.self), String(decoding: original.relayJSON(), as: UTF8.self))
        let records = loaded.recordCount
        try loaded.commit(response: TodoListWorkload(todos: 200).response(), plan: TodoListSetup.plan(todos: 200))
        XCTAssertEqual(loaded.recordCount, records, "the same IDs found, not added again")
    }

    /// The same list merged into `loaded` finds every ID (adds no record), and `loaded` exports
    /// as `original` does.
    func assertMergesAsTheOriginal(
        _ loaded: RecordStore, _ original: RecordStore, todos: Int, _ message: String, line: UInt = #line
    ) throws {
        let records = loaded.recordCount
        try loaded.commit(response: TodoListWorkload(todos: todos).response(), plan: TodoListSetup.plan(todos: todos))
        XCTAssertEqual(loaded.recordCount, records, message, line: line)
        XCTAssertEqual(
            String(decoding: loaded.relayJSON(), as: UTF8.self), String(decoding: original.relayJSON(), as: UTF8.self),
            line: line)
    }

    /// A file may bring a key chosen with its records: here every used index slot is moved into one
    /// run at the start (still a valid index of the right count, a checksum that fits). No random
    /// key lays an index out so; the opener rekeys it, and every record is found.
    func testAnIndexLaidOutAsOneLongRunIsRekeyed() throws {
        let original = try todoStore(3000)
        var bytes = try snapshotBytes(original)
        let l = layout(bytes)
        let slots = stride(from: l["index"]!, to: l["index"]! + Int(get32(bytes, 56)) * 4, by: 4).map {
            get32(bytes, $0)
        }
        let used = slots.filter { $0 != 0 }
        XCTAssertGreaterThan(used.count, 1024)
        for (i, v) in (used + Array(repeating: 0, count: slots.count - used.count)).enumerated() {
            put32(&bytes, l["index"]! + 4 * i, v)
        }
        RecordStore.fixSnapshotChecksum(&bytes)
        let p = path("run.snapshot")
        XCTAssertTrue(FileManager.default.createFile(atPath: p, contents: Data(bytes)))
        let loaded = try RecordStore(snapshotAt: p)
        XCTAssertEqual(loaded.source.hashStats.rekeys, 1)
        try assertMergesAsTheOriginal(loaded, original, todos: 3000, "every ID found through the rebuilt index")
    }

    /// A store made in another process (another key) opens as it is and merges this process's
    /// payloads: the publish hashes each text under the store's key, not the payload's.
    func testAStoreOfAnotherKeyMergesCorrectly() throws {
        SourceHandle.setHashKey(0x1111_2222_3333_4444, 0x5555_6666_7777_8888)
        let original = try todoStore(300)
        let p = path("other.snapshot")
        try original.writeSnapshot(to: p)
        SourceHandle.setHashKey(UInt64.random(in: .min ... .max), UInt64.random(in: .min ... .max))
        let loaded = try RecordStore(snapshotAt: p)
        XCTAssertEqual(loaded.source.hashStats.rekeys, 0, "a consistent file of another key opens as it is")
        try assertMergesAsTheOriginal(loaded, original, todos: 300, "every ID found under the file's key")
    }

    // MARK: Files changed by someone else

    /// Another process truncates the file to sizes all through it, copies other snapshots over it
    /// in place and rewrites it, thousands of times, while this one opens it, reads every record,
    /// merges into what it read and writes the file anew. A store reads its own copy of the bytes (never a mapping
    /// of the file), checked once: each open either fails with a clear error or gives one of the
    /// stores written, and nothing kills the process.
    func testAFileTruncatedAndRewrittenUnderReadersAndWritersNeverCrashes() throws {
        let small = try todoStore(50)
        let large = try todoStore(2000)
        let a = path("a.snapshot")
        let b = path("b.snapshot")
        let target = path("target.snapshot")
        try small.writeSnapshot(to: a)
        try large.writeSnapshot(to: b)
        try large.writeSnapshot(to: target)
        let size = try FileManager.default.attributesOfItem(atPath: b)[.size] as! Int
        let expected = Set([small, large].map { String(decoding: $0.relayJSON(), as: UTF8.self) })
        let script = """
            end=$(( $(date +%s) + 4 )); i=0
            while [ "$(date +%s)" -lt "$end" ]; do
              truncate -s $(( (i * 7919) % \(size) )) '\(target)'
              cat '\(a)' > '\(target)'
              truncate -s $(( (i * 104729) % \(size) )) '\(target)'
              cat '\(b)' > '\(target)'
              i=$((i + 1))
            done
            echo "$i"
            """
        let other = Process()
        other.executableURL = URL(fileURLWithPath: "/bin/sh")
        other.arguments = ["-c", script]
        let out = Pipe()
        other.standardOutput = out
        try other.run()
        var opened = 0
        var refused = 0
        while other.isRunning {
            do {
                let store = try RecordStore(snapshotAt: target)
                let json = String(decoding: store.relayJSON(), as: UTF8.self)
                XCTAssertTrue(expected.contains(json), "an open gives one of the stores written")
                try store.commit(response: TodoListWorkload(todos: 50).response(), plan: TodoListSetup.plan(todos: 50))
                try (opened % 2 == 0 ? small : large).writeSnapshot(to: target)
                opened += 1
            } catch let error as RelayArenaError {
                XCTAssertTrue([.invalidSnapshot, .io].contains(error.code), "\(error)")
                refused += 1
            }
        }
        other.waitUntilExit()
        let rounds =
            Int(
                String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        XCTAssertGreaterThan(rounds, 20, "the other process changed the file many times")
        XCTAssertGreaterThan(opened + refused, 20, "opened \(opened), refused \(refused)")
    }

    func testBrokenBoundsWithAFittingChecksumAreClearErrors() throws {
        let bytes = try snapshotBytes(RecordStore(relayJSON: Array(Self.valueKinds.utf8)))
        let l = layout(bytes)
        let root = l["syms"]! + 16  // symbol 1: client:root, the first record
        let rootFields = Int(get32(bytes, root + 8))
        let firstIndexSlot = stride(from: l["index"]!, to: l["dtabs"]!, by: 4).first { get32(bytes, $0) != 0 }!
        let cases: [(String, Int, (inout [UInt8]) -> Void)] = [
            ("text (offset", root, { self.put32(&$0, root, 0x7FFF_FFF0) }),
            ("derived symbol", root, { self.put32(&$0, root, 0x8000_0000 | 0x0FFF_FFF0) }),
            (
                "'s type", root + 12,
                {
                    $0[root + 12] = 0xFF
                    $0[root + 13] |= 0x7F
                }
            ),
            (
                "'s shape", root + 14,
                {
                    $0[root + 14] = 0xFF
                    $0[root + 15] = 0xFF
                }
            ),
            ("values from", root + 8, { self.put32(&$0, root + 8, 0xFFFF_FFF0) }),
            (
                "links symbol", l["vals"]! + 4 * rootFields,
                { self.put32(&$0, l["vals"]! + 4 * rootFields, 0x0FFF_FFFF) }
            ),
            (
                "heap", l["vals"]! + 4 * rootFields + 4,
                { self.put32(&$0, l["vals"]! + 4 * rootFields + 4, 0xFFFF_FFF0) }
            ),
            // U's values on the root's:
            ("overlap", root + 16 + 8, { self.put32(&$0, root + 16 + 8, UInt32(rootFields)) }),
            ("index slot", firstIndexSlot, { self.put32(&$0, firstIndexSlot, 0x0FFF_FFFF) }),
            // (A slot with its tag bits and symbol 0.)
            ("index slot", firstIndexSlot, { self.put32(&$0, firstIndexSlot, 0x1000_0000) }),
            ("shape word", l["words"]!, { self.put32(&$0, l["words"]!, 0) }),
            ("type 1", l["types"]! + 4, { self.put32(&$0, l["types"]! + 4, 0x00FF_FFFF) }),
            ("records counted", 72, { self.put32(&$0, 72, self.get32($0, 72) + 1) }),
            ("add up", 24, { self.put32(&$0, 48, self.get32($0, 48) + 4) }),  // (64 bytes more: past the padding)
        ]
        for (what, offset, corrupt) in cases {
            var bad = bytes
            corrupt(&bad)
            RecordStore.fixSnapshotChecksum(&bad)
            guard let error = loadError(bad) else {
                XCTFail("\(what): loaded")
                continue
            }
            XCTAssertEqual(error.code, .invalidSnapshot, "\(what): \(error)")
            XCTAssertTrue(error.message.contains("bad bound"), "\(what): \(error)")
            XCTAssertTrue(error.message.contains(what), "\(what): \(error)")
            XCTAssertEqual(error.offset, UInt64(offset), "\(what): \(error)")
        }
    }

    func testNewerVersionAndForeignFilesAreClearErrors() throws {
        var newer = try snapshotBytes(RecordStore())
        put32(&newer, 8, 3)
        RecordStore.fixSnapshotChecksum(&newer)
        let e = loadError(newer)
        XCTAssertEqual(e?.code, .invalidSnapshot)
        XCTAssertTrue(e?.message.contains("version 3 is newer") == true, "\(String(describing: e))")
        XCTAssertEqual(e?.offset, 8)

        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 200)
        for foreign in [png, Array(Self.valueKinds.utf8), [], Array("{}".utf8)] {
            let e = loadError(foreign)
            XCTAssertEqual(e?.code, .invalidSnapshot)
            XCTAssertTrue(e?.message.contains("not a snapshot") == true, "\(String(describing: e))")
        }
        XCTAssertFalse(RecordStore.isSnapshot(Array(Self.valueKinds.utf8)))
        XCTAssertTrue(RecordStore.isSnapshot(try snapshotBytes(RecordStore())))

        XCTAssertThrowsError(try RecordStore(snapshotAt: path("missing.snapshot"))) {
            XCTAssertEqual(($0 as? RelayArenaError)?.code, .io, "\($0)")
        }
        XCTAssertThrowsError(try RecordStore(snapshotAt: dir.path)) {
            XCTAssertEqual(($0 as? RelayArenaError)?.code, .io, "\($0)")
        }
    }

    /// A file of 8 MB or more is checked on two threads (the checksum and the last fifth of the
    /// symbols on the second): its errors are the same.
    func testALargeSnapshotIsCheckedOnTwoThreadsAlike() throws {
        let store = try todoStore(80_000)
        let bytes = try snapshotBytes(store)
        XCTAssertGreaterThan(bytes.count, 8 << 20)
        XCTAssertNil(loadError(bytes))
        XCTAssertEqual(
            String(decoding: try RecordStore(snapshotAt: path("probe.snapshot")).relayJSON(), as: UTF8.self),
            String(decoding: store.relayJSON(), as: UTF8.self))

        let l = layout(bytes)
        let nsyms = Int(get32(bytes, 48))
        // A record near the end and one near the start: in runs of symbols far apart, which either
        // thread may check.
        let late = (l["syms"]! + 16 * (nsyms - 3)...l["syms"]! + 16 * (nsyms - 1)).first {
            ($0 - l["syms"]!) % 16 == 0 && get32(bytes, $0 + 8) != 0xFFFF_FFFF && bytes[$0 + 14] | bytes[$0 + 15] != 0
        }!
        let early = stride(from: l["syms"]! + 32, to: l["syms"]! + 16 * 100, by: 16).first {
            get32(bytes, $0 + 8) != 0xFFFF_FFFF && bytes[$0 + 14] | bytes[$0 + 15] != 0
        }!
        var corrupt = bytes
        corrupt[late + 8] ^= 1
        XCTAssertTrue(loadError(corrupt)?.message.contains("checksum mismatch") == true)
        var type = bytes
        type[late + 12] = 0xFF
        type[late + 13] |= 0x7F
        RecordStore.fixSnapshotChecksum(&type)
        XCTAssertTrue(loadError(type)?.message.contains("'s type") == true, "\(String(describing: loadError(type)))")
        XCTAssertEqual(loadError(type)?.offset, UInt64(late + 12))
        var overlap = bytes
        put32(&overlap, late + 8, get32(bytes, early + 8))  // its values on an early record's
        RecordStore.fixSnapshotChecksum(&overlap)
        let e = loadError(overlap)
        XCTAssertTrue(e?.message.contains("overlap") == true, "\(String(describing: e))")
        // Both broken: the earlier one is reported, as one thread checking in order would.
        var both = type
        both[early + 12] = 0xFF
        both[early + 13] |= 0x7F
        RecordStore.fixSnapshotChecksum(&both)
        for _ in 0..<20 { XCTAssertEqual(loadError(both)?.offset, UInt64(early + 12)) }
    }

    // MARK: Atomic writes

    func testAFailedWriteLeavesThePreviousFileWholeAndNoTemporaryFile() throws {
        let old = try todoStore(5)
        let new = try todoStore(50)
        let target = path("s.snapshot")
        try old.writeSnapshot(to: target)
        let before = try Data(contentsOf: URL(fileURLWithPath: target))

        // A directory that does not exist.
        XCTAssertThrowsError(try new.writeSnapshot(to: path("nowhere/s.snapshot"))) {
            XCTAssertEqual(($0 as? RelayArenaError)?.code, .io, "\($0)")
        }
        // A target the rename cannot replace (a directory): the temporary file was written in full,
        // then removed.
        let blocked = path("blocked.snapshot")
        try FileManager.default.createDirectory(atPath: blocked + "/inside", withIntermediateDirectories: true)
        XCTAssertThrowsError(try new.writeSnapshot(to: blocked)) { error in
            XCTAssertEqual((error as? RelayArenaError)?.code, .io, "\(error)")
            XCTAssertTrue("\(error)".contains("rename"), "\(error)")
        }
        // A directory it may not write into (not for root, whom permissions do not stop).
        if geteuid() != 0 {
            let locked = path("locked")
            try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
            try old.writeSnapshot(to: locked + "/s.snapshot")
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked) }
            XCTAssertThrowsError(try new.writeSnapshot(to: locked + "/s.snapshot"))
            XCTAssertEqual(try RecordStore(snapshotAt: locked + "/s.snapshot").recordCount, old.recordCount)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: locked), ["s.snapshot"])
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target)), before)
        XCTAssertEqual(try RecordStore(snapshotAt: target).recordCount, old.recordCount)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["blocked.snapshot", "s.snapshot"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: blocked), ["inside"])

        // A successful write replaces it whole.
        try new.writeSnapshot(to: target)
        XCTAssertEqual(try RecordStore(snapshotAt: target).recordCount, new.recordCount)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["blocked.snapshot", "s.snapshot"])
    }

    // MARK: Memory

    /// Opening, reading, the first write's copy, every refused file and a failed write give back
    /// every block of the C core.
    func testSnapshotsFreeEverything() throws {
        let plan = try TodoListSetup.plan(todos: 30)
        let before = _CAllocations.live
        do {
            let store = try todoStore(30)
            try store.writeSnapshot(to: path("s.snapshot"))
            let bytes = try snapshotBytes(store)
            let loaded = try RecordStore(snapshotAt: path("s.snapshot"))
            _ = TodoListReads.textAndComplete(loaded, first: 30)
            _ = loaded.relayJSON()
            try loaded.commit(response: TodoListWorkload(todos: 30).response(changedPercent: 20), plan: plan)
            let other = try RecordStore(snapshotAt: path("s.snapshot"))
            try other.publish(contentsOf: loaded)
            var corrupt = bytes
            corrupt[200] ^= 1
            var bounds = bytes
            put32(&bounds, layout(bytes)["types"]! + 4, 0x00FF_FFFF)
            RecordStore.fixSnapshotChecksum(&bounds)
            for bad in [Array(bytes.prefix(100)), Array(bytes.prefix(1000)), corrupt, bounds, []] {
                XCTAssertNotNil(loadError(bad))
            }
            XCTAssertThrowsError(try store.writeSnapshot(to: path("nowhere/s.snapshot")))
        }
        XCTAssertEqual(_CAllocations.live, before)
    }
}
