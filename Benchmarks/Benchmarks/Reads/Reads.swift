// Reads through the zero-copy snapshot API: text and complete of every todo, and the cost of one
// field read (symbols resolved once, as generated views will).
import Benchmark
import Foundation
import RelayArena
import RelayArenaWorkloads

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        warmupIterations: 1,
        maxDuration: .seconds(3),
        maxIterations: 100
    )
    let todos = ProcessInfo.processInfo.environment["RELAY_ARENA_BENCH_LARGE"] != nil ? 1_000_000 : 100_000
    let store = RecordStore()
    try! store.commit(response: TodoListWorkload(todos: todos).response(), plan: TodoListSetup.plan(todos: todos))

    Benchmark("Read text and complete of \(todos / 1000)k todos") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(TodoListReads.textAndComplete(store, first: todos))
        }
    }

    Benchmark(
        "Typed field read through a generated view (complete of one todo)", configuration: .init(scalingFactor: .mega)
    ) { benchmark in
        store.withSnapshot { s in
            guard let item = s.read(BenchItem_todo.self, FragmentPointer(dataID: "VG9kbzox")).data else { return }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(item.complete) }
            benchmark.stopMeasurement()
        }
    }

    Benchmark(
        "Typed String read through a generated view (text of one todo)", configuration: .init(scalingFactor: .mega)
    ) { benchmark in
        store.withSnapshot { s in
            guard let item = s.read(BenchItem_todo.self, FragmentPointer(dataID: "VG9kbzox")).data else { return }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(item.textUTF8.count) }
            benchmark.stopMeasurement()
        }
    }

    Benchmark("One field read (text of one todo)", configuration: .init(scalingFactor: .mega)) { benchmark in
        store.withSnapshot { s in
            guard case .record(let todo) = s.record("VG9kbzox"), let key = s.symbol("text") else { return }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                if case .string(let t)? = s.field(todo, key) { blackHole(t.count) }
            }
            benchmark.stopMeasurement()
        }
    }
}
