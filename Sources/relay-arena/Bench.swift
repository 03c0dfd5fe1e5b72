// `relay-arena bench`: the quick suite on a generated to-do list — ingest, refetch merge, reads —
// beside yajl alone and Foundation's decoders, all measured in this run on the same bytes.
import ArgumentParser
import Foundation
import RelayArena
import RelayArenaCompiler
import RelayArenaWorkloads
import YajlBaseline

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the quick benchmark: ingest and refetch a generated to-do list, with comparators.")

    @Option(help: "Number of todos in the generated list.")
    var todos: Int = 100_000

    @Option(help: "table or json")
    var format: String = "table"

    @Option(help: "Timed repetitions per figure (the best is kept).")
    var repetitions: Int = 5

    @Option(
        name: .customLong("long-text-mb"),
        help: "Size of the one long text of the long-token figure, in MB (0: skip it).")
    var longTextMB: Int = 200

    /// The child that counts the allocation rows (BenchAllocations.swift), run with the allocation
    /// counter preloaded; not part of the command line's surface.
    @Flag(name: .customLong("allocations-only"), help: .private)
    var allocationsOnly = false

    func validate() throws {
        guard todos >= 1 else { throw ValidationError("--todos must be at least 1") }
        guard format == "table" || format == "json" else { throw ValidationError("--format must be table or json") }
        guard repetitions >= 1 else { throw ValidationError("--repetitions must be at least 1") }
        guard (0...900).contains(longTextMB) else { throw ValidationError("--long-text-mb must be from 0 to 900") }
    }

    func progress(_ s: String) { FileHandle.standardError.write(Data("bench: \(s)\n".utf8)) }

    func timed(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// The fewest paired rounds a figure's median ratio is taken over: per round, a ratio on this
    /// shared machine kind ranges about ±40% around its median, and with 15 rounds the median
    /// itself still moved ±8% from run to run.
    static let pairedRounds = 31

    /// Runs `a` and `b`, `a` first when `aFirst`; their results in that order (a, b). Paired
    /// figures alternate which side goes first, as the suite does.
    func alternately<A, B>(_ aFirst: Bool, _ a: () throws -> A, _ b: () throws -> B) rethrows -> (A, B) {
        if aFirst {
            let x = try a()
            return (x, try b())
        }
        let y = try b()
        return (try a(), y)
    }

    /// The median of paired rounds' ratios (the suite's statistic).
    func median(_ ratios: [Double]) -> Double { ratios.sorted()[ratios.count / 2] }

    func best(_ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<repetitions {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return best
    }

    func run() throws {
        if allocationsOnly { return try printAllocationCounts() }
        progress("streaming the response from a file in a child process (peak RSS)")
        let peakRSS = try streamingPeakRSS()
        let operation = try TodoListSetup.operation()
        let plan = try NormalizationPlan(operation: operation, variables: ["first": .int(Int64(todos))])
        let workload = TodoListWorkload(todos: todos)
        progress("generating \(todos) todos")
        let first = workload.response()
        let changed10 = workload.response(changedPercent: 10)
        let limits = NormalizationLimits(maxBytes: max(NormalizationLimits.defaultMaxBytes, UInt64(changed10.count)))
        let mb = Double(first.count) / 1e6

        // The figures whose ratios matter most are timed round-robin, one of each per round, so
        // that a slow spell of this shared machine hits them all alike; the best round of each is kept.
        progress(
            "yajl alone, RelayArena ingest, refetch (identical, 10% changed) and JSONDecoder: \(repetitions) rounds, round-robin"
        )
        let decoderData = Data(first)
        var yajl = Double.infinity
        var ingest = Double.infinity
        var refetchIdentical = Double.infinity
        var refetch10 = Double.infinity
        var decoder = Double.infinity
        var store = RecordStore()
        var identicalUpdated = 0
        var changedUpdated = 0
        for _ in 0..<repetitions {
            yajl = min(
                yajl,
                try timed {
                    try first.withUnsafeBytes {
                        guard Baseline.yajlNoop($0, chunkSize: 64 * 1024) else {
                            throw RelayArenaError(code: .malformedJSON, message: "generated JSON is invalid")
                        }
                    }
                })
            // Ingest: normalize + publish into an empty store. The last round's store is freed
            // first, before the clock starts, as a batch job that replaces its store would: its
            // teardown is not part of this ingest, and its pages (up to the retained-memory limit)
            // are there for this one. Holding it through the ingest instead kept a 1M-todo round
            // from reusing any (two such stores exceed the 256 MiB limit).
            store = RecordStore()
            let fresh = RecordStore()
            ingest = min(ingest, try timed { try fresh.commit(response: first, plan: plan, limits: limits) })
            store = fresh
            // Refetches into that store: the identical payload changes nothing, so the store still
            // holds exactly the first response when the 10% variant merges into it.
            refetchIdentical = min(
                refetchIdentical,
                try timed { identicalUpdated = try store.commit(response: first, plan: plan, limits: limits).count })
            refetch10 = min(
                refetch10,
                try timed { changedUpdated = try store.commit(response: changed10, plan: plan, limits: limits).count })
            decoder = min(decoder, try timed { _ = try JSONDecoder().decode(TodoListResponse.self, from: decoderData) })
        }
        // Reads and the size are of the first response's store, without the 10% variant's garbage.
        store = RecordStore()
        try store.commit(response: first, plan: plan, limits: limits)

        progress("reads: one field (text of one todo, \(Self.fieldReads) reads)")
        let nsPerField = try oneFieldRead(store, rounds: repetitions).nsPerRead

        progress("reads: text and complete of every todo")
        var fields = 0
        let readTodos = best { fields = TodoListReads.textAndComplete(store, first: todos) }
        guard fields == 2 * todos else {
            throw RelayArenaError(code: .misuse, message: "reads found \(fields) fields, expected \(2 * todos)")
        }
        progress(
            "reads: relay's reader over the list; its todos holding server errors for a field it does not select, or not"
        )
        let errorReads = try fieldErrorReadFigures(first: first, operation: operation, limits: limits)
        let allocations = try allocationCounts(store)

        progress("snapshots: write (vs write + fsync of as many bytes), open + verify + first read, first write's copy")
        let snap = try snapshotFigures(store)

        progress("JSONSerialization")
        let serialization = try best { _ = try JSONSerialization.jsonObject(with: decoderData) }

        progress("dictionary normalizer (JSONSerialization + [String: Any] records, as Relay.swift)")
        var dictionary = Double.infinity
        for _ in 0..<repetitions {
            let source = DictionaryRecordSource()
            let start = DispatchTime.now().uptimeNanoseconds
            try source.commit(response: decoderData, operation: operation, variables: ["first": .int(Int64(todos))])
            dictionary = min(dictionary, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            if source.records.count != store.recordCount {
                throw RelayArenaError(
                    code: .misuse,
                    message: "comparator disagrees: \(source.records.count) records vs \(store.recordCount)")
            }
        }

        let long = longTextMB > 0 ? try longText() : nil

        #if HTTP
            progress("fetch over loopback HTTP vs normalize from a file (child processes, \(repetitions) rounds)")
            let fetched = try fetchFigures(first)
        #endif

        progress("notifications: a fragment model per todo, refetches with 1% and 10% changed and identical")
        let notes = try MainActor.assumeIsolated { try notifications(first: first, changed10: changed10) }

        let life = try lifecycle()

        let flood = try floodFigures()

        var rows: [(String, String, Double?)] = [
            ("todos", String(todos), nil),
            ("input_bytes", String(first.count), nil),
            ("ingest_seconds", fmt(ingest), nil),
            ("ingest_mb_per_s", fmt(mb / ingest), mb / ingest),
            ("yajl_noop_mb_per_s", fmt(mb / yajl), mb / yajl),
            ("jsondecoder_mb_per_s", fmt(mb / decoder), mb / decoder),
            ("jsonserialization_mb_per_s", fmt(mb / serialization), mb / serialization),
            ("dictionary_normalizer_mb_per_s", fmt(mb / dictionary), mb / dictionary),
            ("refetch_identical_seconds", fmt(refetchIdentical), nil),
            ("refetch_identical_updated_ids", String(identicalUpdated), nil),
            ("refetch_10pct_seconds", fmt(refetch10), nil),
            ("refetch_10pct_updated_ids", String(changedUpdated), nil),
            ("store_bytes", String(store.arenaBytes), nil),
            ("stream_peak_rss_bytes", peakRSS.map { String($0.peak) } ?? "null", nil),
            ("stream_rss_growth_bytes", peakRSS.map { String($0.peak - $0.baseline) } ?? "null", nil),
            ("read_ns_per_field", fmt(nsPerField), nil),
            ("read_allocations", allocations.readAllocations.map { String($0) } ?? "null", nil),
            ("read_todos_seconds", fmt(readTodos), nil),
            ("read_todos_allocations", allocations.readTodosAllocations.map { String($0) } ?? "null", nil),
            ("reader_list_seconds", fmt(errorReads.clean), nil),
            ("reader_list_errors_elsewhere_seconds", fmt(errorReads.withErrors), nil),
            ("reader_errors_elsewhere_ratio_median", fmt(errorReads.ratio), nil),
            ("reader_list_allocations", allocations.readerListAllocations.map { String($0) } ?? "null", nil),
            (
                "reader_list_errors_elsewhere_allocations",
                allocations.readerListErrorsElsewhereAllocations.map { String($0) } ?? "null", nil
            ),
        ]
        rows += [
            ("snapshot_bytes", String(snap.bytes), nil),
            ("snapshot_write_seconds", fmt(snap.write), nil),
            ("write_fsync_same_bytes_seconds", fmt(snap.plainWrite), nil),
            ("snapshot_open_read_seconds", fmt(snap.open), nil),
            ("snapshot_first_write_copy_seconds", fmt(snap.firstWrite), nil),
        ]
        rows += [
            ("notify_1pct_all_models_seconds", fmt(notes.notify1All), nil),
            ("notify_1pct_changed_models_seconds", fmt(notes.notify1Changed), nil),
            ("notify_1pct_models_called", String(notes.called1), nil),
            ("refetch_10pct_all_models_seconds", fmt(notes.refetch10All), nil),
            ("refetch_10pct_no_models_seconds", fmt(notes.refetch10None), nil),
            ("refetch_identical_all_models_seconds", fmt(notes.identicalAll), nil),
            ("refetch_identical_no_models_seconds", fmt(notes.identicalNone), nil),
            ("refetch_identical_models_called", String(notes.identicalCalled), nil),
            ("notify_1pct_ratio_median", fmt(notes.ratios.notify1), nil),
            ("refetch_10pct_ratio_median", fmt(notes.ratios.refetch10), nil),
            ("refetch_identical_ratio_median", fmt(notes.ratios.identical), nil),
        ]
        #if HTTP
            rows += [
                ("fetch_in_process_seconds", fmt(fetched.inProcessSeconds), nil),
                ("fetch_from_memory_seconds", fmt(fetched.fromMemorySeconds), nil),
                ("fetch_in_process_ratio_median", fmt(fetched.inProcessRatio), nil),
                ("fetch_seconds", fmt(fetched.fetchSeconds), nil),
                ("fetch_normalize_file_seconds", fmt(fetched.normalizeSeconds), nil),
                ("fetch_peak_rss_growth_bytes", fetched.peakGrowth.map { String($0) } ?? "null", nil),
            ]
        #endif
        rows += [
            ("gc_store_records", String(life.records), nil),
            ("gc_ingest_seconds", fmt(life.ingest), nil),
            ("gc_half_released_seconds", fmt(life.collect), nil),
            ("gc_removed_records", String(life.removed), nil),
            ("gc_compact_seconds", fmt(life.compact), nil),
            ("refetches_compacted_seconds", fmt(life.compacted.seconds), nil),
            ("refetches_uncompacted_seconds", fmt(life.uncompacted.seconds), nil),
            ("refetches_arena_vs_fresh", fmt(life.compacted.arenaRatio), nil),
            ("batch_ingest_1_job_seconds", fmt(life.oneJob), nil),
            ("batch_ingest_2_jobs_seconds", fmt(life.twoJobs), nil),
        ]
        rows += [
            ("flood_random_ids_seconds", fmt(flood.randomIDsSeconds), nil),
            ("flood_ids_old_hash_ratio_median", fmt(flood.idsOld), nil),
            ("flood_ids_known_key_ratio_median", fmt(flood.idsLeaked), nil),
            ("flood_keys_old_hash_ratio_median", fmt(flood.keysOld), nil),
            ("flood_keys_known_key_ratio_median", fmt(flood.keysLeaked), nil),
            ("flood_store_old_hash_ratio_median", fmt(flood.storeOld), nil),
            ("flood_store_known_key_ratio_median", fmt(flood.storeLeaked), nil),
        ]
        if let long {
            rows += [
                ("long_text_bytes", String(long.textBytes), nil),
                ("long_text_seconds", fmt(long.seconds), nil),
                ("long_text_yajl_one_call_seconds", fmt(long.yajlSeconds), nil),
                ("long_text_peak_rss_growth_bytes", long.rssGrowth.map { String($0) } ?? "null", nil),
            ]
        }
        if format == "json" {
            var out = "{"
            for (i, row) in rows.enumerated() {
                out += (i > 0 ? "," : "") + "\"\(row.0)\":\(row.1)"
            }
            out += "}"
            print(out)
            return
        }
        print(
            "RelayArena quick bench: \(todos) todos, \(first.count) bytes (\(ProcessInfo.processInfo.activeProcessorCount) cores)"
        )
        print(pad("figure", 32) + pad("value", 16) + pad("× yajl no-op", 14) + "× JSONDecoder")
        for row in rows {
            let ratios = row.2.map { (pad(fmt($0 / (mb / yajl)), 14), fmt($0 / (mb / decoder))) } ?? (pad("", 14), "")
            print(pad(row.0, 32) + pad(row.1, 16) + ratios.0 + ratios.1)
        }
        print(
            "refetch 10% / first ingest: \(fmt(refetch10 / ingest))×; store bytes / input bytes: \(fmt(Double(store.arenaBytes) / Double(first.count)))×"
        )
        if let peakRSS {
            print(
                "streaming from a file: peak RSS above the process's own \(peakRSS.baseline / 1_000_000) MB / store bytes: \(fmt(Double(peakRSS.peak - peakRSS.baseline) / Double(store.arenaBytes)))×"
            )
        }
        #if HTTP
            print(
                "fetch over loopback HTTP / ingest from memory (median of \(fetched.rounds) paired rounds): \(fmt(fetched.inProcessRatio))×; "
                    + "relay-arena fetch / normalize of a file (whole processes): \(fmt(fetched.fetchSeconds / fetched.normalizeSeconds))×"
                    + (fetched.peakGrowth.map {
                        "; fetch peak RSS growth / store bytes: \(fmt(Double($0) / Double(store.arenaBytes)))×"
                    } ?? "")
            )
        #endif
        print(
            "relay's reader over the list, every todo holding a server error for a field it does not select / none "
                + "(median of \(Self.pairedRounds) paired rounds): \(fmt(errorReads.ratio))×; allocations "
                + "\(allocations.readerListErrorsElsewhereAllocations.map { String($0) } ?? "-") / "
                + "\(allocations.readerListAllocations.map { String($0) } ?? "-")"
        )
        print(
            "snapshot open + verify + first read / ingest: \(fmt(snap.open / ingest))×; snapshot write / write + fsync of as many bytes: \(fmt(snap.write / snap.plainWrite))×; first write's copy / ingest: \(fmt(snap.firstWrite / ingest))×"
        )
        print(
            "median of \(notes.rounds) paired rounds: notification work, 1% changed: \(todos) models / the \(notes.called1) on changed todos: \(fmt(notes.ratios.notify1))×; "
                + "refetch 10% end to end, \(todos) models / none: \(fmt(notes.ratios.refetch10))×; "
                + "identical refetch, \(todos) models / none: \(fmt(notes.ratios.identical))× (\(notes.identicalCalled) called)"
        )
        print(
            "GC of \(life.records) records, half the roots released / their ingest: \(fmt(life.collect / life.ingest))× "
                + "(+ compaction \(fmt(life.compact / life.ingest))×); \(life.refetches) refetches, 10% changed each: "
                + "arena / fresh ingest \(fmt(life.compacted.arenaRatio))× (\(fmt(life.uncompacted.arenaRatio))× without compaction), "
                + "time with compaction / without \(fmt(life.compacted.seconds / life.uncompacted.seconds))×; "
                + "batch ingest of \(life.batch) responses, 1 job / 2 jobs: \(fmt(life.oneJob / life.twoJobs))×"
        )
        if let long {
            let memory =
                long.rssGrowth.map { ", peak RSS growth / text bytes: \(fmt(Double($0) / Double(long.textBytes)))×" }
                ?? ""
            print(
                "one \(long.textBytes / 1_000_000) MB text streamed in 64 KiB chunks / yajl over the same bytes in one call: \(fmt(long.seconds / long.yajlSeconds))×\(memory)"
            )
        }
    }

    struct LifecycleFigures {
        var records = 0, removed = 0, refetches = 0, batch = 0
        var ingest = Double.infinity, collect = Double.infinity, compact = Double.infinity
        var compacted = (seconds: Double.infinity, arenaRatio: 0.0)
        var uncompacted = (seconds: Double.infinity, arenaRatio: 0.0)
        var oneJob = Double.infinity, twoJobs = Double.infinity
    }

    /// The store lifecycle's figures (LifecycleWorkload), scaled to `todos`: a collection of a
    /// store of 10 × todos records with half its roots released, against its ingest; refetches
    /// with and without automatic compaction; a batch ingest on 1 and on 2 jobs.
    func lifecycle() throws -> LifecycleFigures {
        var f = LifecycleFigures()
        let users = max(2, todos / 100)
        progress(
            "store lifecycle: GC of \(users * 500 * 2) records with half the roots released, refetches with and without compaction, batch ingest on 1 and 2 jobs"
        )
        let roots = try LifecycleWorkload.Roots(users: users, todos: 500)
        var best = Double.infinity
        for _ in 0..<min(repetitions, 3) {
            let round = try LifecycleWorkload.collect(roots)
            if round.collect / round.ingest < best {
                best = round.collect / round.ingest
                (f.ingest, f.collect, f.compact, f.removed) = round
            }
        }
        f.records = users * 1_002 + 1  // a user, its connection, 500 edges and todos; the root
        f.refetches = 100
        f.compacted = try LifecycleWorkload.refetches(todos: todos, count: f.refetches, threshold: 0.125)
        f.uncompacted = try LifecycleWorkload.refetches(todos: todos, count: f.refetches, threshold: nil)
        f.batch = 200
        let batch = LifecycleWorkload.batch(count: f.batch, todos: max(1, todos / 20))
        let perResponse = max(1, todos / 20)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var times: (Double, Double) = (.infinity, .infinity)
        nonisolated(unsafe) var failure: (any Error)?
        Task.detached {
            do {
                for _ in 0..<min(repetitions, 3) {
                    times.0 = min(times.0, try await LifecycleWorkload.ingest(batch, todos: perResponse, jobs: 1))
                    times.1 = min(times.1, try await LifecycleWorkload.ingest(batch, todos: perResponse, jobs: 2))
                }
            } catch {
                failure = error
            }
            done.signal()
        }
        done.wait()
        if let failure { throw failure }
        (f.oneJob, f.twoJobs) = times
        return f
    }

    /// Snapshot figures of `store`, best of `repetitions`, round-robin: writing its snapshot (temporary
    /// file, fsync, rename, directory fsync) against writing as many bytes to a file with `write`
    /// and `fsync`; opening it (map, verify header, checksum and bounds) and reading one field; and
    /// the first write into an opened store (a publish that changes nothing), which copies the
    /// mapped arrays out. The file is in the page cache when opened, as the ingest's input is in memory.
    func snapshotFigures(_ store: RecordStore) throws -> (
        bytes: Int, write: Double, plainWrite: Double, open: Double, firstWrite: Double
    ) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "relay-arena-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("store.snapshot").path
        let plainPath = dir.appendingPathComponent("plain.bin").path
        try store.writeSnapshot(to: path)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let empty = RecordStore()
        var write = Double.infinity
        var plainWrite = Double.infinity
        var open = Double.infinity
        var firstWrite = Double.infinity
        for _ in 0..<repetitions {
            write = min(write, try timed { try store.writeSnapshot(to: path) })
            plainWrite = min(
                plainWrite,
                try timed {
                    let fd = Foundation.open(plainPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                    guard fd >= 0 else { throw RelayArenaError(code: .io, message: "cannot write \(plainPath)") }
                    defer { close(fd) }
                    var done = 0
                    try bytes.withUnsafeBytes { b in
                        while done < b.count {
                            let n = Foundation.write(fd, b.baseAddress! + done, b.count - done)
                            guard n > 0 else { throw RelayArenaError(code: .io, message: "cannot write \(plainPath)") }
                            done += n
                        }
                    }
                    guard fsync(fd) == 0 else { throw RelayArenaError(code: .io, message: "cannot fsync \(plainPath)") }
                })
            var opened: RecordStore?
            open = min(
                open,
                try timed {
                    let loaded = try RecordStore(snapshotAt: path)
                    let found = loaded.withSnapshot { s in
                        if case .record(let root) = s.record(RecordStore.rootID),
                            s.field(root, #"user(id:"me")"#) != nil
                        {
                            return true
                        }
                        return false
                    }
                    guard found else {
                        throw RelayArenaError(code: .misuse, message: "the opened snapshot has no user")
                    }
                    opened = loaded
                })
            guard let opened else { continue }
            firstWrite = min(firstWrite, try timed { try opened.publish(contentsOf: empty) })
        }
        return (bytes.count, write, plainWrite, open, firstWrite)
    }

    /// The environment's notification figures (NotificationWorkload), measured as the suite's
    /// Environment benchmarks measure them: a fragment model on every todo against models on only
    /// the todos a 1% refetch changes (the notification work should follow what changed, not who
    /// listens), and whole refetches (normalize, publish, notify, re-read) with a model per todo
    /// against none. The three environments are built once; each round refetches into both sides
    /// of a figure (which first alternates), then refetches the first response into each again,
    /// untimed, so that every timed refetch meets a store holding the first response and models
    /// that have been through publishes, as an app's have. Each side's best time of
    /// `repetitions` rounds (at least `pairedRounds`), and each figure's median ratio of a round's two sides
    /// (the suite's statistic: a round's two sides meet the same state of a shared, noisy machine).
    @MainActor
    func notifications(first: [UInt8], changed10: [UInt8]) throws -> (
        notify1All: Double, notify1Changed: Double, called1: Int, refetch10All: Double, refetch10None: Double,
        identicalAll: Double, identicalNone: Double, identicalCalled: Int,
        ratios: (notify1: Double, refetch10: Double, identical: Double), rounds: Int
    ) {
        let changed1 = TodoListWorkload(todos: todos).response(changedPercent: 1)
        let changedIDs = try NotificationWorkload.changedTodoIDs(first: first, changed: changed1, todos: todos)
        let (every, everyModels) = try NotificationWorkload.environment(
            first: first, todos: todos, models: NotificationWorkload.todoIDs(todos))
        let (few, fewModels) = try NotificationWorkload.environment(first: first, todos: todos, models: changedIDs)
        let (none, _) = try NotificationWorkload.environment(first: first, todos: todos, models: [])
        defer { withExtendedLifetime((everyModels, fewModels)) {} }
        var r = (
            notify1All: Double.infinity, notify1Changed: Double.infinity, called1: 0, refetch10All: Double.infinity,
            refetch10None: Double.infinity, identicalAll: Double.infinity, identicalNone: Double.infinity,
            identicalCalled: 0, ratios: (notify1: 0.0, refetch10: 0.0, identical: 0.0),
            rounds: max(repetitions, Self.pairedRounds)
        )
        var ratios: (notify1: [Double], refetch10: [Double], identical: [Double]) = ([], [], [])
        typealias Refetch = (notify: Double, total: Double, called: Int)
        /// `response` refetched into `a` and `b` (`a` first when `aFirst`), then the first response
        /// into each again, untimed.
        func pair(_ response: [UInt8], _ a: Environment, _ b: Environment, aFirst: Bool) throws -> (Refetch, Refetch) {
            let result = try alternately(
                aFirst, { try NotificationWorkload.refetch(a, response, todos: todos) },
                { try NotificationWorkload.refetch(b, response, todos: todos) })
            for e in [a, b] { _ = try NotificationWorkload.refetch(e, first, todos: todos) }
            return result
        }
        for round in 0..<r.rounds {
            let everyFirst = round % 2 == 0
            let (one, oneFew) = try pair(changed1, every, few, aFirst: everyFirst)
            r.notify1All = min(r.notify1All, one.notify)
            r.notify1Changed = min(r.notify1Changed, oneFew.notify)
            r.called1 = one.called
            ratios.notify1.append(one.notify / oneFew.notify)
            guard one.called == changedIDs.count, oneFew.called == changedIDs.count else {
                throw RelayArenaError(
                    code: .misuse,
                    message:
                        "a 1% refetch called \(one.called) and \(oneFew.called) models, expected \(changedIDs.count)")
            }
            let (ten, tenNone) = try pair(changed10, every, none, aFirst: everyFirst)
            r.refetch10All = min(r.refetch10All, ten.total)
            r.refetch10None = min(r.refetch10None, tenNone.total)
            ratios.refetch10.append(ten.total / tenNone.total)
            let (same, sameNone) = try pair(first, every, none, aFirst: everyFirst)
            r.identicalAll = min(r.identicalAll, same.total)
            r.identicalNone = min(r.identicalNone, sameNone.total)
            r.identicalCalled = max(r.identicalCalled, same.called)
            ratios.identical.append(same.total / sameNone.total)
        }
        r.ratios = (median(ratios.notify1), median(ratios.refetch10), median(ratios.identical))
        return r
    }

    /// A response whose one todo's text is `longTextMB` MB: normalize + publish streamed from memory
    /// in 64 KiB chunks against yajl over the same bytes in one call (round-robin, best of each),
    /// and the peak memory of a child `relay-arena normalize` streaming it from a file.
    func longText() throws -> (textBytes: Int, seconds: Double, yajlSeconds: Double, rssGrowth: Int?) {
        let textBytes = longTextMB * 1_000_000
        progress("one \(longTextMB) MB text: streamed in 64 KiB chunks, yajl in one call, peak RSS (child)")
        let response = LongTextWorkload.response(textBytes: textBytes)
        let plan = try NormalizationPlan(operation: try TodoListSetup.operation(), variables: ["first": .int(1)])
        var seconds = Double.infinity
        var yajlSeconds = Double.infinity
        for _ in 0..<repetitions {
            seconds = min(
                seconds,
                try timed {
                    guard try LongTextWorkload.ingest(response, plan: plan) == 6 else {
                        throw RelayArenaError(
                            code: .misuse, message: "the long-text response did not make its six records")
                    }
                })
            yajlSeconds = min(
                yajlSeconds,
                try timed {
                    try response.withUnsafeBytes {
                        guard Baseline.yajlNoop($0, chunkSize: 0) else {
                            throw RelayArenaError(code: .malformedJSON, message: "the long-text response is invalid")
                        }
                    }
                })
        }
        let growth = try childPeakRSS(response, variables: #"{"first":1}"#).map { max(0, $0.peak - $0.baseline) }
        return (textBytes, seconds, yajlSeconds, growth)
    }

    static let fieldReads = 1_000_000

    /// relay's reader over TodoListQuery's selection on the list's store and on the same store
    /// after a second response failed every todo's `notes` (not selected): best seconds of each,
    /// and the median of paired rounds' ratios (errors / none).
    func fieldErrorReadFigures(first: [UInt8], operation: OperationArtifact, limits: NormalizationLimits) throws
        -> (clean: Double, withErrors: Double, ratio: Double)
    {
        let (clean, withErrors) = try FieldErrorReads.stores(todos: todos, first: first, limits: limits)
        var best = (clean: Double.infinity, withErrors: Double.infinity)
        var ratios: [Double] = []
        for round in 0..<Self.pairedRounds {
            var read = (0, 0)
            let (a, b) = alternately(
                round % 2 == 0,
                { timed { read.0 = FieldErrorReads.readList(clean, operation: operation, todos: todos) } },
                { timed { read.1 = FieldErrorReads.readList(withErrors, operation: operation, todos: todos) } })
            guard read == (todos, todos) else {
                throw RelayArenaError(
                    code: .misuse,
                    message: "the reader read \(read.0) and \(read.1) todos without errors, expected \(todos)")
            }
            best = (min(best.clean, a), min(best.withErrors, b))
            ratios.append(b / a)
        }
        return (best.clean, best.withErrors, median(ratios))
    }

    /// The cost of one field read, as Benchmarks/Reads "One field read (text of one todo)": under
    /// one snapshot, the todo's record and the `text` key symbol are resolved once, then
    /// `fieldReads` reads of `s.field(todo, key)` are timed (best of `rounds`). Returns ns per
    /// read and, with `count` (the allocation counter, in the child that counts), the allocations
    /// of one more such loop.
    func oneFieldRead(_ store: RecordStore, rounds: Int, count: AllocationCounter.Count? = nil) throws -> (
        nsPerRead: Double, allocations: Int?
    ) {
        try store.withSnapshot { s in
            // Todo:1 as in Reads.swift; Todo:0 when the list holds a single todo.
            let ids = ["VG9kbzox", "VG9kbzow"]
            guard
                let todo = ids.lazy.compactMap({ id -> RecordRef? in
                    if case .record(let r) = s.record(id) { return r } else { return nil }
                }).first,
                let key = s.symbol("text"), case .string(let text)? = s.field(todo, key)
            else {
                throw RelayArenaError(code: .misuse, message: "the store holds no todo with a text to read")
            }
            let expected = Self.fieldReads &* text.count
            // The byte counts are summed and checked, so the reads cannot be optimized away.
            func loop() -> Int {
                var checksum = 0
                for _ in 0..<Self.fieldReads {
                    if case .string(let t)? = s.field(todo, key) { checksum &+= t.count }
                }
                return checksum
            }
            var bestSeconds = Double.infinity
            for _ in 0..<rounds {
                let start = DispatchTime.now().uptimeNanoseconds
                let checksum = loop()
                bestSeconds = min(bestSeconds, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                guard checksum == expected else {
                    throw RelayArenaError(
                        code: .misuse, message: "field reads summed \(checksum) bytes, expected \(expected)")
                }
            }
            guard let count else { return (bestSeconds * 1e9 / Double(Self.fieldReads), nil) }
            let before = count()
            let checksum = loop()
            let allocations = Int(count() - before)
            guard checksum == expected else {
                throw RelayArenaError(
                    code: .misuse, message: "field reads summed \(checksum) bytes, expected \(expected)")
            }
            return (bestSeconds * 1e9 / Double(Self.fieldReads), allocations)
        }
    }

    /// Peak resident memory of `relay-arena normalize --quiet` streaming the generated response
    /// from a file in 64 KiB chunks, and of the same with a one-todo response (the process's own
    /// baseline). Each child reports its own VmHWM (per address space; getrusage's figure would
    /// include whatever spawned it, e.g. `swift run`). nil when a child fails.
    func streamingPeakRSS() throws -> (peak: Int, baseline: Int)? {
        try childPeakRSS(TodoListWorkload(todos: todos).response(), variables: "{\"first\":\(todos)}")
    }

    /// Peak resident memory of a child `relay-arena normalize --quiet` streaming `response` from a
    /// file, and of the same with a one-todo response (the process's own baseline).
    func childPeakRSS(_ response: [UInt8], variables: String) throws -> (peak: Int, baseline: Int)? {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("relay-arena-bench-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let schema = TodoListDocuments.schemaURL
        let query = TodoListDocuments.queryURL
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        func normalize(_ name: String, _ bytes: [UInt8], _ variables: String) throws -> Int? {
            let file = dir.appendingPathComponent("response-\(name).json")
            try Data(bytes).write(to: file)
            let errURL = dir.appendingPathComponent("stderr-\(name)")
            _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
            let child = Process()
            child.executableURL = exe
            child.arguments = [
                "normalize", "--schema", schema.path, "--document", query.path,
                "--variables", variables, "--max-bytes", String(max(bytes.count, 1)), "--quiet",
                "--print-peak-rss", file.path,
            ]
            child.standardError = try FileHandle(forWritingTo: errURL)
            try child.run()
            child.waitUntilExit()
            let text = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
            guard child.terminationStatus == 0,
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("peak_rss_bytes: ") }),
                let bytes = Int(line.dropFirst("peak_rss_bytes: ".count)), bytes > 0
            else { return nil }
            return bytes
        }
        guard let baseline = try normalize("baseline", TodoListWorkload(todos: 1).response(), #"{"first":1}"#),
            let peak = try normalize("measured", response, variables)
        else { return nil }
        return (peak, baseline)
    }

    func fmt(_ d: Double) -> String { String(format: d >= 100 ? "%.1f" : "%.4g", d) }
    func pad(_ s: String, _ n: Int) -> String {
        s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count)
    }
}
