// Observation models: the engine under Relay.swift's `@Query`, `@Fragment` and
// `@RefetchableFragment` property wrappers, without SwiftUI. Each holds what it last read as an
// owned value (`ReadResult`): reading it never touches the store, so it never waits for a publish,
// and it stays valid however many publishes follow.
import Observation

/// What a query shows: loading, a failure, or the data (relay's `@Query` result).
public enum QueryState: Sendable {
    case loading
    case failure(FetchError)
    case success(ReadResult)

    public var data: ReadValue? {
        if case .success(let r) = self { return r.data }
        return nil
    }

    /// What relay would throw for the data shown (`@throwOnFieldError`, `@required(action:
    /// THROW)`): a failure of the read, not of the request.
    public var fieldErrorFailure: FieldErrorFailure? {
        if case .success(let r) = self { return r.throwingFieldError() }
        return nil
    }
}

/// relay's `observeFragment` result: data, still loading, or the field error relay would throw.
public enum FragmentStatus: Sendable, Equatable {
    case loading
    case ok
    case error(FieldErrorFailure)

    init(_ result: ReadResult) {
        if let failure = result.throwingFieldError() {
            self = .error(failure)
        } else if result.isMissingData {
            self = .loading
        } else {
            self = .ok
        }
    }
}

/// Loads a query under a fetch policy and follows the store: `state` changes when the fetch
/// answers and again whenever a publish changes the data the query reads.
@MainActor
@Observable
public final class QueryModel<O: GraphQLOperation> {
    public private(set) var state: QueryState = .loading
    public let operation: O
    public let fetchPolicy: FetchPolicy

    @ObservationIgnored private let environment: Environment
    @ObservationIgnored private var subscription: SubscriptionID?
    @ObservationIgnored private var loading: Task<Void, Never>?
    /// The query is a root while the model lives (as relay's `loadQuery` retains it).
    @ObservationIgnored private let retained: Disposable

    /// relay-runtime's default policy is store-or-network (Relay.swift's was network-only).
    public init(environment: Environment, operation: O, fetchPolicy: FetchPolicy = .storeOrNetwork) {
        self.environment = environment
        self.operation = operation
        self.fetchPolicy = fetchPolicy
        retained = environment.retain(O.artifact, variables: operation.variables.asJSON)
    }

    isolated deinit {
        retained.dispose()
        loading?.cancel()
        if let subscription { environment.unsubscribe(subscription) }
    }

    /// Loads (once; later calls wait for the same load). Shows the store's data first where the
    /// policy allows, fetches where it says to, then follows the store.
    public func load() async {
        if let loading { return await loading.value }
        let task = Task { await self.run(forceFetch: false) }
        loading = task
        await task.value
    }

    /// Fetches again from the network; the data shown stays until the answer replaces it.
    public func reload() async {
        loading?.cancel()
        let task = Task { await self.run(forceFetch: true) }
        loading = task
        await task.value
    }

    private func run(forceFetch: Bool) async {
        let artifact = O.artifact
        let variables = operation.variables.asJSON
        let policy = forceFetch ? FetchPolicy.networkOnly : fetchPolicy
        let availability = environment.check(artifact, variables: variables)
        if policy.shouldRenderFromStore(availability) { follow() }
        guard policy.shouldFetch(availability) else { return }
        do {
            try await environment.execute(GraphQLRequest(operation: artifact, variables: variables))
            follow()
        } catch let error as FetchError {
            if error.kind != .cancelled { state = .failure(error) }
        } catch {
            state = .failure(FetchError(kind: .transport, operation: artifact.name, message: "\(error)"))
        }
    }

    /// Subscribes to the operation's root read (once) and shows it.
    private func follow() {
        if let subscription, let result = environment.subscriptions.result(subscription) {
            state = .success(result)
            return
        }
        let selector = ReadSelector.operation(O.artifact, variables: operation.variables.asJSON)
        let (first, id) = environment.subscribe(selector) { [weak self] result in
            // As Relay.swift's @Query: a read that misses data keeps the last complete one.
            guard let self, !result.isMissingData else { return }
            self.state = .success(result)
        }
        subscription = id
        state = .success(first)
    }

    /// Typed access to the data under a store snapshot (the view must not escape `body`).
    public func withData<R>(_ body: (O.Data) throws -> R) rethrows -> R? {
        guard case .success = state else { return nil }
        return try environment.store.withSnapshot { s in
            guard let data = s.read(operation).data else { return nil }
            return try body(data)
        }
    }
}
