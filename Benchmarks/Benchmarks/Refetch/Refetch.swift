// Refetch merge into a store that already holds the first response: identical, 1%, 10% and 100%
// changed, shrunk by half, grown by 10%; the updated data IDs are reported beside the time. Also
// merging 1k todos into stores of 10k and of 1M records: the cost must not grow with the store.
import Benchmark
import Foundation
import RelayArena
import RelayArenaWorkloads

let updatedIDs = BenchmarkMetric.custom("updated data IDs", polarity: .prefersSmaller, useScalingFactor: false)
let megabytesPerSecond = BenchmarkMetric.custom("MB/s", polarity: .prefersLarger, useScalingFactor: false)
let todosPerSecond = BenchmarkMetric.custom("todos/s", polarity: .prefersLarger, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, megabytesPerSecond, todosPerSecond, .mallocCountTotal, .peakMemoryResident, updatedIDs],
        warmupIterations: 1,
        maxDuration: .seconds(3),
        maxIterations: 30
    )
    let todos = ProcessInfo.processInfo.environment["RELAY_ARENA_BENCH_LARGE"] != nil ? 1_000_000 : 100_000
    let workload = TodoListWorkload(todos: todos)
    let first = workload.response()
    let plan = try! TodoListSetup.plan(todos: todos)
    let variants: [(String, [UInt8])] = [
        ("identical", first),
        ("1% changed", workload.response(changedPercent: 1)),
        ("10% changed", workload.response(changedPercent: 10)),
        ("100% changed", workload.response(changedPercent: 100)),
        ("shrunk by half", workload.response(count: todos / 2)),
        ("grown by 10%", workload.response(count: todos + todos / 10)),
    ]
    for (name, bytes) in variants {
        let count = name == "shrunk by half" ? todos / 2 : name == "grown by 10%" ? todos + todos / 10 : todos
        Benchmark("Refetch \(todos / 1000)k todos, \(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                let store = RecordStore()
                try store.commit(response: first, plan: plan)
                let start = DispatchTime.now().uptimeNanoseconds
                benchmark.startMeasurement()
                let updated = try store.commit(response: bytes, plan: plan)
                benchmark.stopMeasurement()
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                benchmark.measurement(updatedIDs, updated.count)
                benchmark.measurement(megabytesPerSecond, Int(Double(bytes.count) / 1e6 / seconds))
                benchmark.measurement(todosPerSecond, Int(Double(count) / seconds))
            }
        }
    }

    // 1k todos (other IDs than the store's) merged into stores of ≈10k and ≈1M records: each todo
    // is two records (its edge and the todo), so 5k and 500k todos, whatever
    // RELAY_ARENA_BENCH_LARGE says. The name prints the store's actual record count. Two versions
    // of the 1k todos (texts from different seeds) alternate, so every timed merge really rewrites
    // them (a merge of what the store already holds would only compare) and the store keeps its size.
    let smallPlan = try! TodoListSetup.plan(todos: 1_000)
    let smallVersions = [99, 100].map { seed in
        Array(
            String(decoding: TodoListWorkload(todos: 1_000, seed: UInt64(seed)).response(), as: UTF8.self)
                .replacingOccurrences(of: "VG9kbz", with: "T3RoZX").utf8)  // other todo IDs than the store holds
    }
    for storeTodos in [5_000, 500_000] {
        let big = TodoListWorkload(todos: storeTodos).response()
        let bigPlan = try! TodoListSetup.plan(todos: storeTodos)
        let store = RecordStore()
        try! store.commit(response: big, plan: bigPlan)
        try! store.commit(response: smallVersions[0], plan: smallPlan)
        let recordCount = store.recordCount
        var next = 1
        Benchmark("Merge 1k todos into a store of \(recordCount) records") { benchmark in
            for _ in benchmark.scaledIterations {
                let updated = try store.commit(response: smallVersions[next], plan: smallPlan).count
                next ^= 1
                benchmark.measurement(updatedIDs, updated)
                blackHole(updated)
            }
        }
    }
}
