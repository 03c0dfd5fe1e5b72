// The environment's notification benchmarks: one fragment model per todo of the generated list
// (`TodoRow_todo { text complete }`), then refetches of the list with some todos changed. What is
// timed is the publish's notification work, and the whole refetch (normalize, publish, notify,
// re-read), against the same refetch with fewer or no models.
import Foundation
import RelayArena
import RelayArenaCompiler

/// `fragment TodoRow_todo on Todo { text complete }`, as generated code would declare it.
public enum TodoRow_todo: Fragment {
    public struct Data: SelectionView {
        public let __view: RecordView
        public init(__view: RecordView) { self.__view = __view }
    }
    public static let artifact: FragmentArtifact = {
        let schema = try! TodoListDocuments.text(TodoListDocuments.schemaURL)
        let docs = try! Compiler(schema: GraphQLSourceFile(name: "todo.graphql", text: schema)).compile([
            GraphQLSourceFile(name: "row.graphql", text: "fragment TodoRow_todo on Todo { text complete }")
        ])
        return docs.fragments["TodoRow_todo"]!
    }()
    public static var storageKeyCount: Int { 2 }
}

@MainActor
public enum NotificationWorkload {
    /// Data IDs of the first `count` todos of a TodoListWorkload.
    public static func todoIDs(_ count: Int) -> [String] {
        (0..<count).map { TodoListWorkload.base64("Todo:\($0)") }
    }

    /// The todos among the first `todos` that `changed` changes against `first`: the todo data
    /// IDs a publish of `changed` updates in a store holding `first` (a scratch store, dropped).
    public static func changedTodoIDs(first: [UInt8], changed: [UInt8], todos: Int) throws -> [String] {
        let scratch = RecordStore()
        let plan = try TodoListSetup.plan(todos: todos)
        let limits = NormalizationLimits(
            maxBytes: max(NormalizationLimits.defaultMaxBytes, UInt64(max(first.count, changed.count))))
        try scratch.commit(response: first, plan: plan, limits: limits)
        let todoIDs = Set(todoIDs(todos))
        return try scratch.commit(response: changed, plan: plan, limits: limits).filter { todoIDs.contains($0) }
    }

    /// An environment (its network unused) whose store holds `first`, with a fragment model on
    /// each of the todos `models`.
    public static func environment(first: [UInt8], todos: Int, models: [String]) throws -> (
        Environment, [FragmentModel<TodoRow_todo>]
    ) {
        let (environment, _) = Environment.mock()
        environment.limits = NormalizationLimits(
            maxBytes: max(NormalizationLimits.defaultMaxBytes, UInt64(first.count)))
        try environment.commitPayload(
            TodoListSetup.operation(), variables: ["first": .int(Int64(todos))], response: first)
        let models = models.map {
            FragmentModel(environment: environment, pointer: FragmentPointer<TodoRow_todo>(dataID: $0))
        }
        return (environment, models)
    }

    /// Normalizes and publishes `response` into the environment's store, returning the seconds
    /// the publish's notification work took (re-reading and calling the touched subscriptions),
    /// the whole commit's seconds, and how many subscriptions were called.
    public static func refetch(_ environment: Environment, _ response: [UInt8], todos: Int) throws -> (
        notify: Double, total: Double, called: Int
    ) {
        let start = DispatchTime.now().uptimeNanoseconds
        let plan = try NormalizationPlan(operation: TodoListSetup.operation(), variables: ["first": .int(Int64(todos))])
        let normalizer = try ResponseNormalizer(plan: plan, limits: environment.limits, expectedBytes: response.count)
        try normalizer.feed(response)
        let updated = try environment.store.publish(normalizer.finish())
        let notifyStart = DispatchTime.now().uptimeNanoseconds
        let called = environment.subscriptions.notify(updated).count
        let end = DispatchTime.now().uptimeNanoseconds
        return (Double(end - notifyStart) / 1e9, Double(end - start) / 1e9, called)
    }
}
