// Ingest of a generated to-do list into an empty store (normalize + publish), from memory and
// streamed from a file in 64 KiB chunks, beside comparators on the same bytes in the same run:
// memcpy, yajl with no-op callbacks, JSONDecoder, and a JSONSerialization dictionary normalizer.
// Each reports wall clock, MB/s and todos/s, allocations and peak resident memory.
import Benchmark
import Foundation
@_spi(HashFlooding) import RelayArena
import RelayArenaWorkloads
import YajlBaseline

/// 1k, 10k and 100k todos; set RELAY_ARENA_BENCH_LARGE=1 to add 1M (a 121 MB response).
let sizes =
    [1_000, 10_000, 100_000]
    + (ProcessInfo.processInfo.environment["RELAY_ARENA_BENCH_LARGE"] != nil ? [1_000_000] : [])

let megabytesPerSecond = BenchmarkMetric.custom("MB/s", polarity: .prefersLarger, useScalingFactor: false)
let todosPerSecond = BenchmarkMetric.custom("todos/s", polarity: .prefersLarger, useScalingFactor: false)

/// Runs `body` once per scaled iteration and records MB/s and todos/s for each run.
func measured(_ benchmark: Benchmark, bytes: Int, todos: Int, _ body: () throws -> Void) rethrows {
    for _ in benchmark.scaledIterations {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        benchmark.measurement(megabytesPerSecond, Int(Double(bytes) / 1e6 / seconds))
        benchmark.measurement(todosPerSecond, Int(Double(todos) / seconds))
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, megabytesPerSecond, todosPerSecond, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 1,
        maxDuration: .seconds(3),
        maxIterations: 50
    )
    for todos in sizes {
        let bytes = TodoListWorkload(todos: todos).response()
        let data = Data(bytes)
        let plan = try! TodoListSetup.plan(todos: todos)
        let operation = try! TodoListSetup.operation()
        let tag = "\(todos / 1000)k todos, \(bytes.count / 1000) kB"

        Benchmark("RelayArena ingest from memory (\(tag))") { benchmark in
            try measured(benchmark, bytes: bytes.count, todos: todos) {
                let store = RecordStore()
                blackHole(try store.commit(response: bytes, plan: plan).count)
            }
        }

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("relay-arena-bench-\(todos).json")
        try! data.write(to: file)
        Benchmark("RelayArena ingest streamed from a file, 64 KiB chunks (\(tag))") { benchmark in
            try measured(benchmark, bytes: bytes.count, todos: todos) {
                let store = RecordStore()
                blackHole(try store.commit(fileAt: file.path, plan: plan).count)
            }
        }

        Benchmark("Comparator: memcpy (\(tag))") { benchmark in
            var copy = [UInt8](repeating: 0, count: bytes.count)
            measured(benchmark, bytes: bytes.count, todos: todos) {
                copy.withUnsafeMutableBytes { dst in bytes.withUnsafeBytes { src in dst.copyMemory(from: src) } }
                blackHole(copy[copy.count / 2])
            }
        }

        Benchmark("Comparator: yajl no-op callbacks (\(tag))") { benchmark in
            measured(benchmark, bytes: bytes.count, todos: todos) {
                blackHole(bytes.withUnsafeBytes { Baseline.yajlNoop($0, chunkSize: 64 * 1024) })
            }
        }

        Benchmark("Comparator: JSONDecoder into Codable structs (\(tag))") { benchmark in
            try measured(benchmark, bytes: bytes.count, todos: todos) {
                blackHole(try JSONDecoder().decode(TodoListResponse.self, from: data))
            }
        }

        if todos <= 100_000 {
            Benchmark("Comparator: JSONSerialization + dictionary normalizer (\(tag))") { benchmark in
                try measured(benchmark, bytes: bytes.count, todos: todos) {
                    let source = DictionaryRecordSource()
                    blackHole(
                        try source.commit(
                            response: data, operation: operation, variables: ["first": .int(Int64(todos))]))
                }
            }
        }
    }

    // Hash flooding: 200k data IDs crafted to collide under the old fixed hash, and under the keyed
    // hash with its key known (the probe bound rekeys), beside 200k random IDs of the same length
    // and bytes; the quick bench reports their ratios (`flood_*`).
    let floodCount = 200_000
    let floodPlan = try! TodoListSetup.plan(todos: floodCount)
    let leaked = HashFloodWorkload.leakedKey
    for (name, kind) in [
        ("random IDs", HashFloodKind.random), ("IDs colliding under the old fixed hash", .oldFixedHash),
        ("IDs colliding under a known key", .knownKey(leaked.0, leaked.1)),
    ] {
        let response = HashFloodWorkload.response(ids: HashFloodWorkload.texts(floodCount, kind))
        Benchmark("RelayArena ingest of 200k \(name) (hash flooding)") { benchmark in
            if case .knownKey = kind { RecordStore.setHashKey(leaked.0, leaked.1) }
            defer { RecordStore.setHashKey(UInt64.random(in: .min ... .max), UInt64.random(in: .min ... .max)) }
            try measured(benchmark, bytes: response.count, todos: floodCount) {
                blackHole(try RecordStore().commit(response: response, plan: floodPlan).count)
            }
        }
    }

    // One long token: a todo whose text is 200 MB, streamed in 64 KiB chunks (yajl holds the
    // token across ~3,000 chunks), beside yajl over the same bytes in one call.
    let longText = LongTextWorkload.response(textBytes: 200_000_000)
    let longPlan = try! TodoListSetup.plan(todos: 1)
    let longTag = "one 200 MB text, \(longText.count / 1_000_000) MB"
    Benchmark("RelayArena ingest streamed in 64 KiB chunks (\(longTag))", configuration: .init(maxIterations: 10)) {
        benchmark in
        try measured(benchmark, bytes: longText.count, todos: 1) {
            blackHole(try LongTextWorkload.ingest(longText, plan: longPlan))
        }
    }
    Benchmark("Comparator: yajl no-op callbacks in one call (\(longTag))", configuration: .init(maxIterations: 10)) {
        benchmark in
        measured(benchmark, bytes: longText.count, todos: 1) {
            blackHole(longText.withUnsafeBytes { Baseline.yajlNoop($0, chunkSize: 0) })
        }
    }
}
