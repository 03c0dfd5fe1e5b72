// The store lifecycle's benchmarks: garbage collection of a store of many roots, refetches with
// and without automatic compaction, and batch ingestion on one and on two jobs.
import Foundation
import RelayArena
import RelayArenaCompiler

public enum LifecycleWorkload {
    /// `users` roots, each the list of `todos` todos of user `u<i>` (ids `t<i>_<j>`): with 1,000
    /// users of 500 todos, a store of a million records (each todo and its edge).
    public struct Roots: Sendable {
        public let operation: OperationArtifact
        public let variables: [Variables]
        public let responses: [[UInt8]]

        public init(users: Int, todos: Int) throws {
            let schema = try String(contentsOf: TodoListDocuments.schemaURL, encoding: .utf8)
            let docs = try Compiler(schema: GraphQLSourceFile(name: "todo.graphql", text: schema)).compile([
                GraphQLSourceFile(
                    name: "lists.graphql",
                    text: """
                        query UserList($id: String!, $first: Int!) {
                          user(id: $id) { id todos(first: $first) { edges { node { id text complete } } } }
                        }
                        """)
            ])
            operation = docs.operations["UserList"]!
            variables = (0..<users).map { ["id": .string("u\($0)"), "first": .int(Int64(todos))] }
            responses = (0..<users).map { user in
                var body = #"{"data":{"user":{"id":"u\#(user)","todos":{"edges":["#
                for todo in 0..<todos {
                    if todo > 0 { body += "," }
                    body +=
                        #"{"node":{"id":"t\#(user)_\#(todo)","text":"todo \#(todo) of \#(user)","complete":\#(todo % 2 == 0)}}"#
                }
                return Array((body + "]}}}}").utf8)
            }
        }

        /// A store holding every root's response (automatic compaction off, so that the
        /// collection's and the compaction's costs are measured apart).
        public func ingest() throws -> RecordStore {
            let store = RecordStore()
            store.compactionThreshold = nil
            for (response, variables) in zip(responses, variables) {
                try store.commit(
                    response: response, plan: NormalizationPlan(operation: operation, variables: variables))
            }
            return store
        }

        /// Every second root: what stays retained when half are released.
        public var half: [(operation: OperationArtifact, variables: Variables)] {
            stride(from: 0, to: variables.count, by: 2).map { (operation, variables[$0]) }
        }
    }

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Ingests the roots, then collects with half of them released, then compacts: the seconds of
    /// each, and the records removed.
    public static func collect(_ roots: Roots) throws -> (
        ingest: Double, collect: Double, compact: Double, removed: Int
    ) {
        var store: RecordStore!
        let ingest = try seconds { store = try roots.ingest() }
        var removed = 0
        let collect = try seconds { removed = try store.collectGarbage(roots: roots.half).count }
        let compact = try seconds { try store.compact() }
        return (ingest, collect, compact, removed)
    }

    /// `count` refetches of a `todos` list, each changing 10% of it (the 10%-changed response and
    /// the first, in turn), with automatic compaction at `threshold` (nil: none): the seconds, and
    /// the arena at the end against a fresh ingest of the last response.
    public static func refetches(todos: Int, count: Int, threshold: Double?) throws -> (
        seconds: Double, arenaRatio: Double
    ) {
        let workload = TodoListWorkload(todos: todos)
        let plan = try TodoListSetup.plan(todos: todos)
        let versions = [workload.response(changedPercent: 10), workload.response()]
        let limits = NormalizationLimits(maxBytes: max(NormalizationLimits.defaultMaxBytes, UInt64(versions[0].count)))
        let store = RecordStore()
        store.compactionThreshold = threshold
        try store.commit(response: versions[1], plan: plan, limits: limits)
        let time = try seconds {
            for i in 0..<count { try store.commit(response: versions[i % 2], plan: plan, limits: limits) }
        }
        let fresh = RecordStore()
        try fresh.commit(response: versions[(count - 1) % 2], plan: plan, limits: limits)
        return (time, Double(store.arenaBytes) / Double(fresh.arenaBytes))
    }

    /// `count` responses of `todos` todos each (distinct seeds), as a batch's input.
    public static func batch(count: Int, todos: Int) -> [IngestResponse] {
        (0..<count).map {
            IngestResponse(bytes: TodoListWorkload(todos: todos, seed: UInt64($0 + 1)).response(), name: "r\($0)")
        }
    }

    /// Seconds to ingest `batch` into a new store on `jobs` jobs.
    public static func ingest(_ batch: [IngestResponse], todos: Int, jobs: Int) async throws -> Double {
        let plan = try TodoListSetup.plan(todos: todos)
        let store = RecordStore()
        let start = DispatchTime.now().uptimeNanoseconds
        try await store.ingest(batch, plan: plan, jobs: jobs)
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
