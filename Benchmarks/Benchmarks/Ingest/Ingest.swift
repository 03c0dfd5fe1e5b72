// Ingest of a generated to-do list into an empty store (normalize + publish), from memory and
// streamed from a file in 64 KiB chunks, beside comparators on the same bytes in the same run:
// memcpy, yajl with no-op callbacks, JSONDecoder, and a JSONSerialization dictionary normalizer.
import Benchmark
import Foundation
import RelayArena
import RelayArenaWorkloads

/// 1k, 10k and 100k todos; set RELAY_ARENA_BENCH_LARGE=1 to add 1M (a 121 MB response).
let sizes = [1_000, 10_000, 100_000] + (ProcessInfo.processInfo.environment["RELAY_ARENA_BENCH_LARGE"] != nil ? [1_000_000] : [])

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
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
            for _ in benchmark.scaledIterations {
                let store = RecordStore()
                blackHole(try store.commit(response: bytes, plan: plan).count)
            }
        }

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("relay-arena-bench-\(todos).json")
        try! data.write(to: file)
        Benchmark("RelayArena ingest streamed from a file, 64 KiB chunks (\(tag))") { benchmark in
            for _ in benchmark.scaledIterations {
                let store = RecordStore()
                blackHole(try store.publish(try ResponseNormalizer.normalize(fileAt: file.path, plan: plan)).count)
            }
        }

        Benchmark("Comparator: memcpy (\(tag))") { benchmark in
            var copy = [UInt8](repeating: 0, count: bytes.count)
            for _ in benchmark.scaledIterations {
                copy.withUnsafeMutableBytes { dst in bytes.withUnsafeBytes { src in dst.copyMemory(from: src) } }
                blackHole(copy[copy.count / 2])
            }
        }

        Benchmark("Comparator: yajl no-op callbacks (\(tag))") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(bytes.withUnsafeBytes { Baseline.yajlNoop($0, chunkSize: 64 * 1024) })
            }
        }

        Benchmark("Comparator: JSONDecoder into Codable structs (\(tag))") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try JSONDecoder().decode(TodoListResponse.self, from: data))
            }
        }

        if todos <= 100_000 {
            Benchmark("Comparator: JSONSerialization + dictionary normalizer (\(tag))") { benchmark in
                for _ in benchmark.scaledIterations {
                    let source = DictionaryRecordSource()
                    blackHole(try source.commit(response: data, operation: operation, variables: ["first": .int(Int64(todos))]))
                }
            }
        }
    }
}
