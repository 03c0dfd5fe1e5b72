// A store's life past one ingest, every figure a ratio of two sides timed in the same iteration:
// - garbage collection of a 1M-record store (1,000 roots of 500 todos) after releasing every
//   second root, vs the ingest of that store; and the compaction after it, vs the same ingest;
// - 1,000 refetches of a 100k-todo list, 10% changed each: the arena at the end vs a fresh ingest
//   of the last response (automatic compaction at the default threshold), and the time vs the
//   same refetches with `compactionThreshold = nil`;
// - batch ingest of 200 responses of 5k todos: 1 job vs 2 jobs, and the cores 2 jobs got (CPU
//   time / wall: a second core taken by another process shows as 1000, not a slow ingest);
// - the records of a 100k-todo store written out and loaded back, vs a SQLite normalized cache as
//   Apollo iOS keeps one (GRDB: one row a record, `key TEXT PRIMARY KEY, record BLOB` holding
//   the record's fields as JSON; a temp file, SQLite's default rollback journal, synchronous=FULL,
//   so its commit is as durable as RelayArena's write + fsync);
// - a 1M-todo store as a snapshot: open + verify + a first read vs the ingest of its JSON
//   (normalize + publish into an empty store), the write (temporary file, fsync, rename) vs
//   `write` + `fsync` of as many bytes in the same directory, and the first write into the opened
//   store (it copies the whole arena out of the mapping) vs the same ingest.
// Ratios are ×1000 (1000 = as fast, or as large); times in ms, sizes in kB.
import Benchmark
import Foundation
import GRDB
import RelayArena
import RelayArenaWorkloads

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let quick = ProcessInfo.processInfo.environment["RELAY_ARENA_BENCH_QUICK"] != nil

func ratio(_ name: String) -> BenchmarkMetric {
    .custom(name + " ×1000", polarity: .prefersSmaller, useScalingFactor: false)
}
func milliseconds(_ name: String) -> BenchmarkMetric {
    .custom(name + " ms", polarity: .prefersSmaller, useScalingFactor: false)
}
func count(_ name: String) -> BenchmarkMetric {
    .custom(name, polarity: .prefersSmaller, useScalingFactor: false)
}

/// Runs `body` and returns its wall time in nanoseconds beside its result.
func timed<T>(_ body: () throws -> T) rethrows -> (T, UInt64) {
    let start = DispatchTime.now().uptimeNanoseconds
    let result = try body()
    return (result, DispatchTime.now().uptimeNanoseconds - start)
}
func timedAsync<T>(_ body: () async throws -> T) async rethrows -> (T, UInt64) {
    let start = DispatchTime.now().uptimeNanoseconds
    let result = try await body()
    return (result, DispatchTime.now().uptimeNanoseconds - start)
}

/// Wall clock beside `metrics`, shown as recorded (no K or M scaling), iterations up to
/// `maxIterations` whatever they take.
func configuration(_ metrics: [BenchmarkMetric], maxIterations: Int) -> Benchmark.Configuration {
    .init(
        metrics: [.wallClock] + metrics, units: Dictionary(uniqueKeysWithValues: metrics.map { ($0, .count) }),
        warmupIterations: 0, maxDuration: .seconds(600), maxIterations: maxIterations)
}

/// The process's CPU time (all threads) in nanoseconds.
func cpuNanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

extension Benchmark {
    func record(_ metric: BenchmarkMetric, nanoseconds: UInt64) { measurement(metric, Int(nanoseconds / 1_000_000)) }
    func record(_ metric: BenchmarkMetric, _ numerator: UInt64, over denominator: UInt64) {
        measurement(metric, Int((Double(numerator) / Double(max(denominator, 1)) * 1000).rounded()))
    }
}

// MARK: GC

func registerCollection() {
    let roots = 1_000
    let todos = 500
    Benchmark(
        "GC of a \(roots)-root store (\(todos) todos each) after releasing every second root, vs its ingest",
        configuration: configuration(
            [
                ratio("GC / ingest"), ratio("compaction / ingest"), milliseconds("ingest"), milliseconds("GC"),
                milliseconds("compaction"), count("records before"), count("records removed"),
                count("arena kB before compaction"), count("arena kB after compaction"),
            ], maxIterations: 3)
    ) { benchmark in
        let workload = try LifecycleWorkload.Roots(users: roots, todos: todos)
        let plans = try workload.variables.map { try NormalizationPlan(operation: workload.operation, variables: $0) }
        let responses = workload.responses
        for _ in benchmark.scaledIterations {
            let store = RecordStore()
            let (_, ingest) = try timed {
                for i in 0..<roots { try store.commit(response: responses[i], plan: plans[i]) }
            }
            let before = store.recordCount
            // The collection alone: its sweep would compact at once (half the store is garbage
            // past the default 1/8), and the compaction is timed apart below.
            store.compactionThreshold = nil
            let (removed, collection) = try timed { try store.collectGarbage(roots: workload.half).count }
            let arenaBefore = store.arenaBytes
            let (_, compaction) = try timed { try store.compact() }
            benchmark.record(ratio("GC / ingest"), collection, over: ingest)
            benchmark.record(ratio("compaction / ingest"), compaction, over: ingest)
            benchmark.record(milliseconds("ingest"), nanoseconds: ingest)
            benchmark.record(milliseconds("GC"), nanoseconds: collection)
            benchmark.record(milliseconds("compaction"), nanoseconds: compaction)
            benchmark.measurement(count("records before"), before)
            benchmark.measurement(count("records removed"), removed)
            benchmark.measurement(count("arena kB before compaction"), arenaBefore / 1000)
            benchmark.measurement(count("arena kB after compaction"), store.arenaBytes / 1000)
        }
    }
}

// MARK: Refetches

func registerRefetches() {
    let todos = 100_000
    let refetches = quick ? 100 : 1_000
    Benchmark(
        "\(refetches) refetches of \(todos / 1000)k todos, 10% changed each: compaction vs none",
        configuration: configuration(
            [
                ratio("arena at the end / fresh ingest"), ratio("no compaction: arena / fresh ingest"),
                ratio("time with compaction / without"), milliseconds("with compaction"),
                milliseconds("without compaction"), count("refetches/s with compaction"),
                count("refetches/s without compaction"), count("fresh ingest arena kB"),
            ], maxIterations: 1)
    ) { benchmark in
        let workload = TodoListWorkload(todos: todos)
        let plan = try TodoListSetup.plan(todos: todos)
        // Alternating the two makes every refetch change 10% of the todos (text and complete).
        let versions = [workload.response(), workload.response(changedPercent: 10)]
        for _ in benchmark.scaledIterations {
            // Two stores refetched in turn, one with automatic compaction at the default
            // threshold, one with none, so that a slow spell of the shared machine hits both.
            let compacted = RecordStore()
            let uncompacted = RecordStore()
            uncompacted.compactionThreshold = nil
            var with: UInt64 = 0
            var without: UInt64 = 0
            for store in [compacted, uncompacted] { try store.commit(response: versions[0], plan: plan) }
            for k in 1...refetches {
                with += try timed { try compacted.commit(response: versions[k % 2], plan: plan) }.1
                without += try timed { try uncompacted.commit(response: versions[k % 2], plan: plan) }.1
            }
            let fresh = RecordStore()
            try fresh.commit(response: versions[refetches % 2], plan: plan)
            let freshBytes = UInt64(fresh.arenaBytes)
            benchmark.record(ratio("arena at the end / fresh ingest"), UInt64(compacted.arenaBytes), over: freshBytes)
            benchmark.record(
                ratio("no compaction: arena / fresh ingest"), UInt64(uncompacted.arenaBytes), over: freshBytes)
            benchmark.record(ratio("time with compaction / without"), with, over: without)
            benchmark.record(milliseconds("with compaction"), nanoseconds: with)
            benchmark.record(milliseconds("without compaction"), nanoseconds: without)
            benchmark.measurement(count("refetches/s with compaction"), Int(Double(refetches) * 1e9 / Double(with)))
            benchmark.measurement(
                count("refetches/s without compaction"), Int(Double(refetches) * 1e9 / Double(without)))
            benchmark.measurement(count("fresh ingest arena kB"), fresh.arenaBytes / 1000)
        }
    }
}

// MARK: Batch ingest

func registerBatchIngest() {
    let responses = 200
    let todos = 5_000
    let speedup = BenchmarkMetric.custom(
        "2 jobs speedup over 1 ×1000", polarity: .prefersLarger, useScalingFactor: false)
    Benchmark(
        "Batch ingest of \(responses) responses of \(todos / 1000)k todos: 2 jobs vs 1",
        configuration: configuration(
            // Nine iterations: on a shared machine one run's 1-job side alone moves by half.
            [speedup, milliseconds("1 job"), milliseconds("2 jobs"), ratio("2 jobs: CPU / wall")], maxIterations: 9)
    ) { benchmark async throws in
        let plan = try TodoListSetup.plan(todos: todos)
        let inputs = (0..<responses).map {
            IngestResponse(bytes: TodoListWorkload(todos: todos, seed: UInt64($0 + 1)).response(), name: "r\($0)")
        }
        for _ in benchmark.scaledIterations {
            // 1, 2, 2, 1 jobs, each summed over its two runs: a slow spell of the shared machine
            // hits both alike.
            var times: [Int: UInt64] = [1: 0, 2: 0]
            // The cores 2 jobs had: 2000 when both worked throughout, 1000 when the machine gave one.
            var cpu2: UInt64 = 0
            for jobs in [1, 2, 2, 1] {
                let store = RecordStore()
                let cpu = cpuNanoseconds()
                let (report, time) = try await timedAsync { try await store.ingest(inputs, plan: plan, jobs: jobs) }
                if jobs == 2 { cpu2 += cpuNanoseconds() - cpu }
                precondition(report.published == responses)
                times[jobs]! += time
            }
            benchmark.record(ratio("2 jobs: CPU / wall"), cpu2, over: times[2]!)
            benchmark.record(speedup, times[1]!, over: times[2]!)
            benchmark.record(milliseconds("1 job"), nanoseconds: times[1]! / 2)
            benchmark.record(milliseconds("2 jobs"), nanoseconds: times[2]! / 2)
        }
    }
}

// MARK: vs SQLite

/// Writes the store out durably: a snapshot (temporary file, fsync, rename, directory fsync).
func writeStore(_ store: RecordStore, to path: String) throws {
    try store.writeSnapshot(to: path)
}

/// Opens a store that `writeStore` wrote (mapped, verified, read in place).
func loadStore(from path: String) throws -> RecordStore {
    try RecordStore(snapshotAt: path)
}

/// The store's records as Apollo's SQLite cache rows: data ID → the record's fields as JSON.
func recordRows(of store: RecordStore) throws -> [(key: String, record: Data)] {
    let all = try JSONSerialization.jsonObject(with: Data(store.relayJSON())) as! [String: Any]
    return try all.compactMap { key, value in
        guard let fields = value as? [String: Any] else { return nil }  // a tombstone: no row
        return (key, try JSONSerialization.data(withJSONObject: fields))
    }
}

func registerSQLite() {
    let todos = 100_000
    let sqliteMetrics = [
        "write: RelayArena / SQLite", "load: RelayArena / SQLite", "load: RelayArena / SQLite rows + JSON decode",
    ]
    Benchmark(
        "\(todos / 1000)k-todo store written and loaded (snapshot) vs a SQLite cache of one row a record",
        configuration: configuration(
            sqliteMetrics.map(ratio) + [
                milliseconds("RelayArena write"), milliseconds("SQLite write"), milliseconds("RelayArena load"),
                milliseconds("SQLite load rows"), milliseconds("SQLite load rows + JSON decode"), count("rows"),
                count("RelayArena file kB"), count("SQLite file kB"),
            ], maxIterations: 3)
    ) { benchmark in
        let store = RecordStore()
        try store.commit(response: TodoListWorkload(todos: todos).response(), plan: TodoListSetup.plan(todos: todos))
        let rows = try recordRows(of: store)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "relay-arena-lifecycle-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let arenaPath = directory.appendingPathComponent("store.json").path
        let sqlitePath = directory.appendingPathComponent("cache.sqlite").path
        for _ in benchmark.scaledIterations {
            for path in [arenaPath, sqlitePath] { try? FileManager.default.removeItem(atPath: path) }

            let (_, arenaWrite) = try timed { try writeStore(store, to: arenaPath) }
            // Opened, the table made, every row inserted in one transaction, closed.
            let (_, sqliteWrite) = try timed {
                let queue = try DatabaseQueue(path: sqlitePath)
                try queue.write { db in
                    try db.execute(sql: "CREATE TABLE records (key TEXT PRIMARY KEY, record BLOB NOT NULL)")
                    let insert = try db.makeStatement(sql: "INSERT INTO records (key, record) VALUES (?, ?)")
                    for row in rows { try insert.execute(arguments: [row.key, row.record]) }
                }
                try queue.close()
            }

            let (loaded, arenaLoad) = try timed { try loadStore(from: arenaPath) }
            precondition(loaded.recordCount == store.recordCount)
            /// Every row into a dictionary keyed by data ID (as Apollo's cache loads records);
            /// `decode`: each record's JSON parsed into its fields too, as Apollo reads a record.
            func sqliteLoad(decode: Bool) throws -> Int {
                let queue = try DatabaseQueue(path: sqlitePath)
                defer { try? queue.close() }
                return try queue.read { db in
                    var records: [String: Data] = [:]
                    var fields: [String: [String: Any]] = [:]
                    let cursor = try Row.fetchCursor(db, sql: "SELECT key, record FROM records")
                    while let row = try cursor.next() {
                        let key: String = row[0]
                        let record: Data = row[1]
                        if decode {
                            fields[key] = try JSONSerialization.jsonObject(with: record) as? [String: Any]
                        } else {
                            records[key] = record
                        }
                    }
                    return decode ? fields.count : records.count
                }
            }
            let (loadedRows, sqliteRows) = try timed { try sqliteLoad(decode: false) }
            let (decodedRows, sqliteDecoded) = try timed { try sqliteLoad(decode: true) }
            precondition(loadedRows == rows.count && decodedRows == rows.count)

            benchmark.record(ratio(sqliteMetrics[0]), arenaWrite, over: sqliteWrite)
            benchmark.record(ratio(sqliteMetrics[1]), arenaLoad, over: sqliteRows)
            benchmark.record(ratio(sqliteMetrics[2]), arenaLoad, over: sqliteDecoded)
            benchmark.record(milliseconds("RelayArena write"), nanoseconds: arenaWrite)
            benchmark.record(milliseconds("SQLite write"), nanoseconds: sqliteWrite)
            benchmark.record(milliseconds("RelayArena load"), nanoseconds: arenaLoad)
            benchmark.record(milliseconds("SQLite load rows"), nanoseconds: sqliteRows)
            benchmark.record(milliseconds("SQLite load rows + JSON decode"), nanoseconds: sqliteDecoded)
            benchmark.measurement(count("rows"), rows.count)
            let size = { (path: String) in
                ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1000
            }
            benchmark.measurement(count("RelayArena file kB"), size(arenaPath))
            benchmark.measurement(count("SQLite file kB"), size(sqlitePath))
        }
    }
}

// MARK: Snapshots

/// Writes `bytes` to the file at `path` (created or truncated) with `write`, then `fsync`s it.
func writeAndSync(_ bytes: [UInt8], to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { throw RelayArenaError(code: .io, message: "cannot open \(path)") }
    defer { close(fd) }
    try bytes.withUnsafeBytes { b in
        var done = 0
        while done < b.count {
            let n = write(fd, b.baseAddress! + done, b.count - done)
            guard n > 0 else { throw RelayArenaError(code: .io, message: "cannot write \(path)") }
            done += n
        }
    }
    guard fsync(fd) == 0 else { throw RelayArenaError(code: .io, message: "cannot fsync \(path)") }
}

/// Opens the snapshot at `path` and reads Todo:1's text through it (the open a cold start pays
/// before its first screen); the text's length.
func openAndRead(_ path: String) throws -> (store: RecordStore, textBytes: Int) {
    let store = try RecordStore(snapshotAt: path)
    let textBytes = store.withSnapshot { s -> Int? in
        guard case .record(let todo) = s.record("VG9kbzox"), case .string(let text)? = s.field(todo, "text") else {
            return nil
        }
        return text.count
    }
    guard let textBytes else {
        throw RelayArenaError(code: .misuse, message: "the opened snapshot has no text for Todo:1")
    }
    return (store, textBytes)
}

func registerSnapshots() {
    let todos = 1_000_000
    let snapshotMetrics = [
        "snapshot open + first read / ingest", "snapshot write / write + fsync of as many bytes",
        "first write into the opened store / ingest",
    ]
    Benchmark(
        "Snapshot of a \(todos / 1_000_000)M-todo store: open + first read and first write vs its ingest, write vs write + fsync",
        configuration: configuration(
            snapshotMetrics.map(ratio) + [
                milliseconds("ingest"), milliseconds("snapshot open + first read"), milliseconds("snapshot write"),
                milliseconds("write + fsync"), milliseconds("first write (copy)"), count("snapshot kB"),
                count("JSON kB"),
            ], maxIterations: 5)
    ) { benchmark in
        let response = TodoListWorkload(todos: todos).response()
        let plan = try TodoListSetup.plan(todos: todos)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "relay-arena-lifecycle-snapshot-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let snapshotPath = directory.appendingPathComponent("store.snapshot").path
        let plainPath = directory.appendingPathComponent("plain.bin").path
        let empty = RecordStore()
        for _ in benchmark.scaledIterations {
            let store = RecordStore()
            let (_, ingest) = try timed { try store.commit(response: response, plan: plan) }

            // Both writes make a new file in the same directory (the last iteration's removed
            // first, untimed); the plain one writes the snapshot's own bytes.
            for path in [snapshotPath, plainPath] { try? FileManager.default.removeItem(atPath: path) }
            let (_, write) = try timed { try store.writeSnapshot(to: snapshotPath) }
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: snapshotPath)))
            let (_, plainWrite) = try timed { try writeAndSync(bytes, to: plainPath) }

            // The file is in the page cache, as the ingest's JSON is in memory.
            let (opened, open) = try timed { try openAndRead(snapshotPath) }
            precondition(opened.store.recordCount == store.recordCount && opened.textBytes > 0)
            // A publish that changes nothing: the first write copies the mapped arrays out.
            let (_, firstWrite) = try timed { try opened.store.publish(contentsOf: empty) }

            benchmark.record(ratio(snapshotMetrics[0]), open, over: ingest)
            benchmark.record(ratio(snapshotMetrics[1]), write, over: plainWrite)
            benchmark.record(ratio(snapshotMetrics[2]), firstWrite, over: ingest)
            benchmark.record(milliseconds("ingest"), nanoseconds: ingest)
            benchmark.record(milliseconds("snapshot open + first read"), nanoseconds: open)
            benchmark.record(milliseconds("snapshot write"), nanoseconds: write)
            benchmark.record(milliseconds("write + fsync"), nanoseconds: plainWrite)
            benchmark.record(milliseconds("first write (copy)"), nanoseconds: firstWrite)
            benchmark.measurement(count("snapshot kB"), bytes.count / 1000)
            benchmark.measurement(count("JSON kB"), response.count / 1000)
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    registerCollection()
    registerRefetches()
    registerBatchIngest()
    registerSQLite()
    registerSnapshots()
}
