// The quick bench's allocation rows. No executable links the allocation counter
// (CSources/CAllocationCounter, the RelayArenaAllocationCounter shared library), so nobody's
// normalize, fetch or ingest allocates through it: `relay-arena bench` re-executes itself with the
// library preloaded (LD_PRELOAD) and the hidden `--allocations-only` flag, and that child builds the
// same store, counts the reads' allocations and prints them as JSON. Every time is the parent's.
import Foundation
import RelayArena
import RelayArenaWorkloads

#if canImport(Glibc)
    import Glibc
#endif

/// The allocation rows; nil where they were not counted.
struct AllocationCounts: Codable {
    var readAllocations: Int?
    var readTodosAllocations: Int?
    var readerListAllocations: Int?
    var readerListErrorsElsewhereAllocations: Int?

    enum CodingKeys: String, CodingKey {
        case readAllocations = "read_allocations"
        case readTodosAllocations = "read_todos_allocations"
        case readerListAllocations = "reader_list_allocations"
        case readerListErrorsElsewhereAllocations = "reader_list_errors_elsewhere_allocations"
    }
}

enum AllocationCounter {
    typealias Count = @convention(c) () -> Int64

    static let product = "RelayArenaAllocationCounter"
    static let library = "lib\(product).so"

    /// The loaded counter's `ra_process_allocations`; nil when this process does not count (the
    /// library is not preloaded, or its counting is compiled out, as under a sanitizer).
    static func inProcess() -> Count? {
        guard let symbol = dlsym(nil, "ra_process_allocations") else { return nil }
        let count = unsafeBitCast(symbol, to: Count.self)
        return count() < 0 ? nil : count
    }

    /// The sanitizer this process runs under, if any: its runtime interposes the allocator itself
    /// (the counter compiles its own out), and would not share the process with a preloaded one.
    static var sanitizer: String? {
        [("__asan_init", "AddressSanitizer"), ("__tsan_init", "ThreadSanitizer"), ("__msan_init", "MemorySanitizer")]
            .first { dlsym(nil, $0.0) != nil }?.1
    }
}

extension Bench {
    /// The allocation rows of `store`'s reads: counted here when this process counts (the child,
    /// or a run with the counter preloaded by hand), else by a child `relay-arena bench
    /// --allocations-only` with the counter preloaded. Null rows, and a line on stderr saying why,
    /// when neither can count.
    func allocationCounts(_ store: RecordStore) throws -> AllocationCounts {
        if let count = AllocationCounter.inProcess() { return try countAllocations(store, count) }
        if let sanitizer = AllocationCounter.sanitizer {
            progress("allocations: not counted under \(sanitizer) (it brings its own allocator); the rows are null")
            return AllocationCounts()
        }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let library = exe.deletingLastPathComponent().appendingPathComponent(AllocationCounter.library)
        guard FileManager.default.fileExists(atPath: library.path) else {
            progress(
                "allocations: no \(AllocationCounter.library) beside \(exe.path), so the allocation rows are null; "
                    + "build it with `swift build -c release --product \(AllocationCounter.product)` "
                    + "(without `-c release` for a debug relay-arena)")
            return AllocationCounts()
        }
        progress("allocations: counted in a child process with \(AllocationCounter.library) preloaded")
        let child = Process()
        child.executableURL = exe
        child.arguments = ["bench", "--allocations-only", "--todos", String(todos)]
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = [library.path, environment["LD_PRELOAD"]].compactMap { $0 }.joined(separator: " ")
        child.environment = environment
        let out = Pipe()
        child.standardOutput = out
        try child.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        let command = "LD_PRELOAD=\(library.path) \(exe.path) bench --allocations-only --todos \(todos)"
        guard child.terminationReason == .exit, child.terminationStatus == 0 else {
            let how =
                child.terminationReason == .exit
                ? "exited with status \(child.terminationStatus)" : "was killed by signal \(child.terminationStatus)"
            progress("error: the allocation-counting child (\(command)) \(how); the allocation rows are null")
            return AllocationCounts()
        }
        guard let counts = try? JSONDecoder().decode(AllocationCounts.self, from: output) else {
            progress(
                "error: the allocation-counting child (\(command)) printed no counts "
                    + "(\(String(decoding: output, as: UTF8.self).prefix(200))); the allocation rows are null")
            return AllocationCounts()
        }
        return counts
    }

    /// `--allocations-only`, the child of `allocationCounts`: the store of the first response, as
    /// the parent reads it, and its reads' allocation counts as one JSON object on stdout.
    func printAllocationCounts() throws {
        guard let count = AllocationCounter.inProcess() else {
            throw RelayArenaError(
                code: .misuse,
                message:
                    "bench --allocations-only: this process counts no allocations (preload \(AllocationCounter.library))"
            )
        }
        let plan = try NormalizationPlan(
            operation: try TodoListSetup.operation(), variables: ["first": .int(Int64(todos))])
        let first = TodoListWorkload(todos: todos).response()
        let limits = NormalizationLimits(maxBytes: max(NormalizationLimits.defaultMaxBytes, UInt64(first.count)))
        let store = RecordStore()
        try store.commit(response: first, plan: plan, limits: limits)
        let encoded = try JSONEncoder().encode(try countAllocations(store, count))
        FileHandle.standardOutput.write(encoded)
    }

    /// The allocations of one loop of one-field reads and of one walk of every todo's text and
    /// complete, each after a warm-up run, as the parent's timed rounds come before its counts.
    func countAllocations(_ store: RecordStore, _ count: AllocationCounter.Count) throws -> AllocationCounts {
        let read = try oneFieldRead(store, rounds: 1, count: count).allocations
        var fields = TodoListReads.textAndComplete(store, first: todos)
        let before = count()
        fields = TodoListReads.textAndComplete(store, first: todos)
        let walk = Int(count() - before)
        guard fields == 2 * todos else {
            throw RelayArenaError(code: .misuse, message: "reads found \(fields) fields, expected \(2 * todos)")
        }
        // relay's reader over the list, on a store like it whose todos hold a server error each
        // for a field it does not select: the same allocations, or the errors cost what they should not.
        let first = TodoListWorkload(todos: todos).response()
        let limits = NormalizationLimits(maxBytes: max(NormalizationLimits.defaultMaxBytes, UInt64(first.count)))
        let operation = try TodoListSetup.operation()
        let (clean, withErrors) = try FieldErrorReads.stores(todos: todos, first: first, limits: limits)
        func readerAllocations(_ store: RecordStore) throws -> Int {
            _ = FieldErrorReads.readList(store, operation: operation, todos: todos)
            let before = count()
            let read = FieldErrorReads.readList(store, operation: operation, todos: todos)
            let allocations = Int(count() - before)
            guard read == todos else {
                throw RelayArenaError(code: .misuse, message: "the reader read \(read) todos, expected \(todos)")
            }
            return allocations
        }
        return AllocationCounts(
            readAllocations: read, readTodosAllocations: walk, readerListAllocations: try readerAllocations(clean),
            readerListErrorsElsewhereAllocations: try readerAllocations(withErrors))
    }
}
