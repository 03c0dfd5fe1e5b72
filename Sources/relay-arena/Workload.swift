// `relay-arena workload`: write a generated to-do list response (the benchmark's input) to stdout,
// so it can be normalized, profiled or compared outside the quick bench.
import ArgumentParser
import Foundation
import RelayArenaWorkloads

struct Workload: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a generated TodoListQuery response (seeded, deterministic).")

    @Option(help: "Number of todos the query asks for ($first).")
    var todos: Int = 1000

    @Option(
        name: .customLong("changed-percent"),
        help: "Percent of todos with a changed text and complete flag (a refetch variant).")
    var changedPercent: Int = 0

    @Option(help: "Number of todos actually returned (shrunk or grown list); defaults to --todos.")
    var count: Int?

    @Option(help: "Seed of the generator.")
    var seed: UInt64 = 0x5EED

    func validate() throws {
        guard todos >= 0, (count ?? 0) >= 0 else { throw ValidationError("counts must not be negative") }
        guard (0...100).contains(changedPercent) else { throw ValidationError("--changed-percent must be 0...100") }
    }

    func run() throws {
        let bytes = TodoListWorkload(todos: todos, seed: seed).response(changedPercent: changedPercent, count: count)
        FileHandle.standardOutput.write(Data(bytes))
    }
}
