internal import CRelayArena
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
        if let subscription, let snapshot = environment.subscriptions.snapshot(subscription) {
            state = .success(snapshot)
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

/// What a fragment model shows, observed: a class of its own that is not generic, because the
/// key paths of a generic class's properties are resolved anew at every change (a tenth of a
/// refetch's notification work with 100k models).
///
/// A change of a state that was never read is not announced to Observation: nothing can be
/// observing it (observers register by reading it), and announcing takes the registrar's lock, in
/// memory of its own — with 100k models, a cache miss for each model changed. Most of a long
/// list's models are never on screen.
@MainActor
@Observable
public final class FragmentState {
    public internal(set) var snapshot: ReadResult {
        get {
            read = true
            access(keyPath: \.snapshot)
            return shown
        }
        set {
            guard read else {
                shown = newValue
                return
            }
            withMutation(keyPath: \.snapshot) { shown = newValue }
        }
    }
    @ObservationIgnored private var shown: ReadResult
    /// Whether `snapshot` or `updates` was ever read (and so may be observed).
    @ObservationIgnored private var read = false
    /// How many times the data changed since the model was made (a cheap change signal). It
    /// changes only with `snapshot`, so it is observed through it: one mutation a change, not two.
    @ObservationIgnored private var count = 0
    public var updates: Int {
        read = true
        access(keyPath: \.snapshot)
        return count
    }
    init(_ snapshot: ReadResult) { shown = snapshot }

    /// Shows `next`: one observed mutation.
    func update(_ next: ReadResult) {
        count += 1
        snapshot = next
    }
}

extension FragmentState: StoreSubscriber {
    /// The environment notifies on the main actor (it publishes there).
    nonisolated func storeDidChange(_ result: ReadResult) {
        MainActor.assumeIsolated { update(result) }
    }

    /// The observation registrar's storage, which every change locks: the registrar is a
    /// reference to it (if that ever changes, a wrong address is only a wasted prefetch).
    nonisolated var changeAddress: UnsafeRawPointer? {
        let address = MainActor.assumeIsolated {
            withUnsafeBytes(of: _$observationRegistrar) { raw in
                raw.count >= MemoryLayout<UInt>.size ? raw.load(as: UInt.self) : 0
            }
        }
        return UnsafeRawPointer(bitPattern: address)
    }
}

/// A fragment's data at a pointer, following the store: `snapshot` changes only when a publish
/// changes what the fragment reads (relay's `@Fragment` / `observeFragment`). Reading `snapshot`
/// (or `data`) from a SwiftUI body or `withObservationTracking` tracks it through `state`.
@MainActor
public final class FragmentModel<F: Fragment> {
    public let state: FragmentState
    public private(set) var pointer: FragmentPointer<F>

    let environment: Environment
    private var subscription: SubscriptionID

    public init(environment: Environment, pointer: FragmentPointer<F>) {
        self.environment = environment
        self.pointer = pointer
        let state = FragmentState(ReadResult(data: nil, isMissingData: true, seenRecords: []))
        self.state = state
        (state.snapshot, subscription) = Self.attach(environment, state, pointer)
    }

    isolated deinit { environment.unsubscribe(subscription) }

    public var snapshot: ReadResult { state.snapshot }
    public var updates: Int { state.updates }
    public var data: ReadValue? { state.snapshot.data }
    public var isMissingData: Bool { state.snapshot.isMissingData }

    /// Follows another pointer (a parent passed a different record, a refetch answered).
    public func repoint(_ pointer: FragmentPointer<F>) {
        environment.unsubscribe(subscription)
        self.pointer = pointer
        let (snapshot, id) = Self.attach(environment, state, pointer)
        subscription = id
        state.update(snapshot)
    }

    private static func attach(_ environment: Environment, _ state: FragmentState, _ pointer: FragmentPointer<F>)
        -> (ReadResult, SubscriptionID)
    {
        // The state is held strongly: the model ends the subscription when it goes, and the
        // state holds nothing back, so there is no cycle (and no weak reference to load on
        // every notification).
        environment.subscribe(.fragment(pointer), state)
    }

    /// Typed access to the data under a store snapshot (the view must not escape `body`).
    public func withData<R>(_ body: (F.Data) throws -> R) rethrows -> R? {
        try environment.store.withSnapshot { s in
            guard let data = s.read(F.self, pointer).data else { return nil }
            return try body(data)
        }
    }
}

/// A `@refetchable` fragment's model: `refetch(_:)` sends the synthesized query and the model
/// follows the refetch query's result (relay's `useRefetchableFragment`).
@MainActor
@Observable
public final class RefetchableFragmentModel<F: RefetchableFragment> {
    public let fragment: FragmentModel<F>
    public private(set) var isRefetching = false
    public private(set) var lastError: FetchError?

    public init(environment: Environment, pointer: FragmentPointer<F>) {
        fragment = FragmentModel(environment: environment, pointer: pointer)
    }

    public var snapshot: ReadResult { fragment.snapshot }
    public var data: ReadValue? { fragment.data }

    /// The refetch query's variables for `variables`, as relay merges them: the owner's, then the
    /// fragment's, then those given; the identifier variable from the record's ID when not given.
    public func refetchVariables(_ variables: Variables = [:]) -> Variables {
        let pointer = fragment.pointer
        return F.refetchMetadata.refetchVariables(
            query: F.RefetchQuery.artifact, owner: pointer.owner, fragment: pointer.effectiveVariables,
            given: variables, dataID: pointer.dataID)
    }

    /// Sends the refetch query (store-or-network by default, as relay: refetching to variables
    /// the store already has sends nothing) and then follows the fragment with the refetch query
    /// as its owner.
    public func refetch(_ variables: Variables = [:], fetchPolicy: FetchPolicy = .storeOrNetwork) async throws {
        let environment = fragment.environment
        let query = F.RefetchQuery.artifact
        let merged = refetchVariables(variables)
        isRefetching = true
        defer { isRefetching = false }
        do {
            if fetchPolicy.shouldFetch(environment.check(query, variables: merged)) {
                try await environment.execute(GraphQLRequest(operation: query, variables: merged))
            }
            lastError = nil
        } catch let error as FetchError {
            lastError = error
            throw error
        }
        guard
            let dataID = F.refetchMetadata.fragmentRecord(
                query: query, variables: merged, in: environment.store)
        else { return }
        fragment.repoint(
            FragmentPointer<F>(
                dataID: dataID, variables: merged, owner: FragmentOwner(operation: query, variables: merged)))
    }
}
