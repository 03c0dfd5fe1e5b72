// The environment (relay's RelayModernEnvironment, Relay.swift's Environment): a store, a network,
// and the subscriptions that follow the store. A response streams from the network into the
// normalizer off the main actor; publishing and notifying happen on it, in one turn.
import Foundation

/// relay's fetch policies: whether to use what the store holds, the network, or both.
public enum FetchPolicy: Sendable, Hashable {
    /// Data from the store when `check` finds it all (`available`), else a request (the default).
    case storeOrNetwork
    /// Data from the store when available, and a request in any case.
    case storeAndNetwork
    /// A request in any case; nothing shown before it answers.
    case networkOnly
    /// Never a request: whatever the store holds.
    case storeOnly

    /// Whether a request is sent, given what `check` says (relay's `shouldFetch`).
    public func shouldFetch(_ availability: Availability) -> Bool {
        switch self {
        case .storeOnly: return false
        case .storeOrNetwork: return availability != .available
        case .storeAndNetwork, .networkOnly: return true
        }
    }

    /// Whether data from the store may be shown before the request answers.
    public func shouldRenderFromStore(_ availability: Availability) -> Bool {
        switch self {
        case .storeOnly: return true
        case .networkOnly: return false
        case .storeOrNetwork, .storeAndNetwork: return availability == .available
        }
    }
}

/// A store, a network and the store's subscriptions, on the main actor.
@MainActor
public final class Environment {
    public let store: RecordStore
    public let network: any Network
    /// Headers and deadline of every request.
    public var requestOptions: RequestOptions
    /// Bounds on each response.
    public var limits: NormalizationLimits
    public let subscriptions: StoreSubscriptions
    /// The operation roots, write epochs and query-cache expiry that `check` reads.
    public let roots: OperationRoots

    @MainActor private final class Flight {
        let task: Task<UpdatedRecordIDs, any Error>
        var waiters = 0
        init(task: Task<UpdatedRecordIDs, any Error>) { self.task = task }
    }
    private var inFlight: [GraphQLRequest: Flight] = [:]

    /// The optimistic updates applied, in order, and the records they touched as they were
    /// before them (PublishQueue.swift).
    var appliedUpdates: [OptimisticUpdate] = []
    var optimisticBackup = RecordBackup()
    /// Holds collection while any optimistic update is applied.
    var optimisticHold: Disposable?
    /// relay's `log`: warnings that are not failures (``LogEvent``); writes nothing by default.
    public let log: LogFunction

    /// relay's `missingFieldHandlers`: what `check` asks about fields the store lacks
    /// (``MissingFieldHandler/nodeByID`` redirects `node(id:)` to the record a list loaded).
    public let missingFieldHandlers: [MissingFieldHandler]

    public init(
        network: any Network, store: RecordStore = RecordStore(), requestOptions: RequestOptions = .init(),
        limits: NormalizationLimits = .init(), roots: OperationRoots = OperationRoots(),
        missingFieldHandlers: [MissingFieldHandler] = [], log: @escaping LogFunction = { _ in }
    ) {
        self.missingFieldHandlers = missingFieldHandlers
        self.log = log
        self.network = network
        self.roots = roots
        self.store = store
        self.requestOptions = requestOptions
        self.limits = limits
        self.subscriptions = StoreSubscriptions(store: store)
        subscriptions.fieldErrorLog = { event in MainActor.assumeIsolated { log(.fieldError(event)) } }
        roots.onRootDropped = { [weak self] in MainActor.assumeIsolated { self?.scheduleCollection() } }
    }

    /// Identical requests now in flight are sent once; how many distinct ones are.
    package var requestsInFlight: Int { inFlight.count }

    // MARK: Fetching

    /// relay's `fetchQuery` under a fetch policy: sends the operation unless the policy and
    /// `check` say the store has it, then reads the operation's own selection.
    public func fetchQuery(
        _ operation: OperationArtifact, variables: Variables = [:], fetchPolicy: FetchPolicy = .storeOrNetwork
    ) async throws -> ReadResult {
        let request = GraphQLRequest(operation: operation, variables: variables)
        if fetchPolicy.shouldFetch(check(operation, variables: request.variables)) {
            try await execute(request)
        }
        return ReadSelector.operation(operation, variables: variables).read(store)
    }

    /// The same for a generated operation.
    public func fetchQuery<O: GraphQLOperation>(_ operation: O, fetchPolicy: FetchPolicy = .storeOrNetwork)
        async throws -> ReadResult
    {
        try await fetchQuery(O.artifact, variables: operation.variables.asJSON, fetchPolicy: fetchPolicy)
    }

    /// Whether the store holds all the operation needs, and whether it is outdated (relay's
    /// `environment.check`): `.stale` after an invalidation since the operation was last written,
    /// or past the query-cache expiration; else `.available` or `.missing`.
    ///
    /// With `missingFieldHandlers`, a field the store lacks is first asked of them (relay's
    /// `check`): what they answer is written into the store (subscribers told), and the operation
    /// checked again, so a query the store can answer from other records is not sent.
    public func check(_ operation: OperationArtifact, variables: Variables = [:]) -> Availability {
        let status = roots.check(operation, variables: variables, in: store)
        guard status == .missing, !missingFieldHandlers.isEmpty else { return status }
        let effective = operation.effectiveVariables(variables)
        let writes = store.withSnapshot { snapshot in
            var resolver = MissingFieldResolver(
                snapshot: snapshot, variables: effective, handlers: missingFieldHandlers)
            resolver.walk(operation.normalization, dataID: RecordStore.rootID)
            return resolver.writes
        }
        guard !writes.isEmpty else { return status }
        // (Only out of memory can fail this write; the operation is then missing, as it was.)
        guard (try? commitLocalUpdate({ proxy in for w in writes { proxy.set(w.dataID, w.key, w.field) } })) != nil
        else { return status }
        return roots.check(operation, variables: variables, in: store)
    }

    /// Retains an operation as a root (relay's `environment.retain`): its data is what `check`
    /// answers for, written with the epoch and time of its last write. Dispose the handle to release.
    public func retain(_ operation: OperationArtifact, variables: Variables = [:]) -> Disposable {
        roots.retain(operation, variables: variables)
    }

    // MARK: Garbage collection

    private var collection: Task<Void, Never>?
    private var collectAgain = false

    /// Schedules a collection (relay's `scheduleGC`): what no root reaches and no subscription
    /// reads is removed. It runs after the current main-actor turn; marking happens off the main
    /// actor under a read snapshot (readers go on), the sweep back on it, briefly under the write
    /// lock. A write or a new root meanwhile makes it mark again. Calls while one is scheduled
    /// or running join it.
    public func scheduleCollection() {
        guard holds == 0 else {
            collectWhenReleased = true
            return
        }
        guard collection == nil else {
            collectAgain = true
            return
        }
        log(.gcStart)
        collection = Task { [weak self] in
            while let self {
                self.collectAgain = false
                let generation = self.roots.generation
                let roots = self.roots.marking
                let kept = Array(self.subscriptions.seenRecords)
                let store = self.store
                let mark = await Task.detached(priority: .utility) { store.mark(roots: roots, keeping: kept) }.value
                if self.holds > 0 {
                    self.collectWhenReleased = true
                    self.log(.gcInterrupted)
                    break
                }
                if !self.collectAgain, self.roots.generation == generation,
                    let removed = try? store.sweep(mark)
                {
                    self.lastCollected = Array(removed)
                    self.log(.gcEnd(removed: removed.count))
                    break
                }
                self.log(.gcInterrupted)
            }
            self?.collection = nil
        }
    }

    private var holds = 0
    private var collectWhenReleased = false

    /// Holds collection (relay's `holdGC`): none is scheduled until every hold is disposed, and
    /// one asked for meanwhile runs then; a collection in progress does not sweep. For updates
    /// that must not lose records under them while applied (optimistic ones).
    public func holdCollection() -> Disposable {
        holds += 1
        collectAgain = true  // one marking now must not sweep
        return Disposable { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.holds -= 1
                if self.holds == 0 && self.collectWhenReleased {
                    self.collectWhenReleased = false
                    self.scheduleCollection()
                }
            }
        }
    }

    /// Waits for the scheduled collection, if any, to finish.
    public func collectionFinished() async { await collection?.value }

    /// The data IDs the last scheduled collection removed.
    package private(set) var lastCollected: [String] = []

    // MARK: Invalidation

    /// Marks a record outdated (relay's `invalidateRecord()` in an updater): every operation that
    /// reaches it and was written before is `.stale` to `check` until written again. Changes no
    /// data a reader sees. An unknown or deleted record is left alone.
    public func invalidateRecord(_ dataID: String) throws {
        if !appliedUpdates.isEmpty {
            let update = OptimisticUpdate(payload: nil, selector: nil) { proxy, _ in
                proxy.get(dataID)?.invalidateRecord()
            }
            try run(commit: Commit(update: update))
            return
        }
        try store.invalidate(records: [dataID], epoch: roots.nextWriteEpoch)
        subscriptions.notify(.none(in: store))
        roots.didNotify()
    }

    /// Marks the whole store outdated (relay's `invalidateStore()`): every operation written
    /// before is `.stale` to `check`.
    public func invalidateStore() {
        subscriptions.notify(.none(in: store))
        roots.didNotify(invalidateStore: true)
    }

    /// Sends `request` (or joins an identical one in flight), streams its response into the
    /// normalizer as it arrives, publishes it and notifies subscribers; returns the updated data
    /// IDs. A failure — a status outside 2xx, a transport error, the deadline, a body that is not
    /// a valid response, `errors` without `data` — throws a `FetchError` and publishes nothing.
    /// Cancelling the last caller waiting for a request cancels it.
    @discardableResult
    public func execute(_ request: GraphQLRequest) async throws -> UpdatedRecordIDs {
        let flight: Flight
        if let existing = inFlight[request] {
            flight = existing
        } else {
            let network = self.network
            let options = requestOptions
            let limits = self.limits
            flight = Flight(
                task: Task {
                    // In flight, the operation is a root: its write is stamped on it.
                    let retain = self.roots.retain(request.operation, variables: request.variables)
                    defer {
                        self.inFlight[request] = nil
                        retain.dispose()
                    }
                    return try await self.logging(request) {
                        let payload = try await Self.receive(
                            request, network: network, options: options, limits: limits)
                        try Task.checkCancellation()
                        return try self.publish(payload, source: request)
                    }
                })
            inFlight[request] = flight
        }
        flight.waiters += 1
        return try await withTaskCancellationHandler {
            do {
                return try await flight.task.value
            } catch is CancellationError {
                throw FetchError(kind: .cancelled, operation: request.name, message: "the fetch was cancelled")
            }
        } onCancel: {
            Task { @MainActor in
                flight.waiters -= 1
                if flight.waiters == 0 { flight.task.cancel() }
            }
        }
    }

    /// The requests sent so far (`LogEvent.executeStart`'s `executeID`).
    private var executeCount = 0

    /// Runs one request's network round trip and publish, telling the log as relay's `execute`
    /// does: `execute.start`, then `execute.next` and `execute.complete` once it is published,
    /// `execute.error` when it fails, `execute.unsubscribe` when it was cancelled.
    private func logging<T>(_ request: GraphQLRequest, _ body: () async throws -> T) async throws -> T {
        executeCount += 1
        let id = executeCount
        log(.executeStart(executeID: id, operation: request.name, variables: request.variables))
        do {
            let result = try await body()
            log(.executeNext(executeID: id, operation: request.name))
            log(.executeComplete(executeID: id))
            return result
        } catch {
            if Task.isCancelled || error is CancellationError {
                log(.executeUnsubscribe(executeID: id))
            } else {
                log(
                    .executeError(
                        executeID: id, message: (error as? CustomStringConvertible)?.description ?? "\(error)"))
            }
            throw error
        }
    }

    /// Normalizes a response that is already here (a fixture, a preview, a mock) as a response to
    /// `operation`, publishes it and notifies (relay's `commitPayload`).
    @discardableResult
    public func commitPayload(
        _ operation: OperationArtifact, variables: Variables = [:], response: some Collection<UInt8>
    )
        throws -> UpdatedRecordIDs
    {
        let request = GraphQLRequest(operation: operation, variables: variables)
        return try publish(normalize(response, for: request), source: request)
    }

    /// A response held in memory normalized for `request` under `rootID`, with the
    /// environment's limits: what every payload that is already here (a fixture, a mock, an
    /// optimistic response) goes through.
    func normalize(
        _ response: some Collection<UInt8>, for request: GraphQLRequest, rootID: String = RecordStore.rootID
    ) throws -> NormalizedPayload {
        try ResponseNormalizer.normalize(
            response: response, plan: NormalizationPlan(operation: request.operation, variables: request.variables),
            rootID: rootID, limits: limits)
    }

    /// Publishes a normalized payload and notifies the subscriptions it touches; the write epoch
    /// moves on and `source` (the request the payload answers, if any) is stamped with it
    /// (relay's `publish` then `notify(sourceOperation)`).
    @discardableResult
    public func publish(_ payload: NormalizedPayload, source: GraphQLRequest? = nil) throws -> UpdatedRecordIDs {
        // Under optimistic updates, or with `@connection` fields to merge: through the queue.
        if !appliedUpdates.isEmpty || source?.operation.normalization.containsConnectionHandle == true {
            return try run(commit: Commit(payload: payload, source: source))
        }
        let updated = try store.publishConsuming(payload)
        for event in payload.idCollisions { log(event) }
        subscriptions.notify(updated)
        roots.didNotify(source: source.map { ($0.operation, $0.variables) })
        return updated
    }

    // MARK: Mutations

    private var nextClientID = 0

    /// Sends a mutation (relay's `commitMutation`): its response is normalized under a fresh root
    /// of its own (`client:local:N`, as relay roots each mutation), committed with `updater`
    /// (which reads the mutation's data from the response), and the mutation's own selection is
    /// read from that root. Never joined with another request.
    ///
    /// `optimisticResponse` (the mutation's `data`, as the server would send it) and
    /// `optimisticUpdater` are applied at once, before the request is sent, and rolled back in the
    /// same publish as the response (or when it fails); the other optimistic updates applied stay
    /// applied over it. A failure throws as `execute` does: the optimistic update is rolled back
    /// and nothing else is published. An optimistic response that does not fit the mutation throws
    /// before anything is sent.
    public func commitMutation(
        _ operation: OperationArtifact, variables: Variables = [:], optimisticResponse: JSONValue? = nil,
        optimisticUpdater: StoreUpdater? = nil, updater: SelectorStoreUpdater? = nil
    ) async throws -> ReadResult {
        let request = GraphQLRequest(operation: operation, variables: variables)
        nextClientID += 1
        let rootID = "client:local:\(nextClientID)"
        let selector = ReadSelector.operation(operation, variables: request.variables, dataID: rootID)
        var optimistic: OptimisticUpdate?
        if let optimisticResponse {
            var selectorUpdater: SelectorStoreUpdater?
            if let optimisticUpdater { selectorUpdater = { proxy, _ in try optimisticUpdater(proxy) } }
            let text = "{\"data\":" + optimisticResponse.jsonText + "}"
            optimistic = try applyOptimistic(
                operation, variables: variables, response: Array(text.utf8), rootID: rootID, updater: selectorUpdater)
        } else if let optimisticUpdater {
            optimistic = try applyUpdate(optimisticUpdater)
        }
        do {
            try await logging(request) {
                let payload = try await Self.receive(
                    request, network: network, options: requestOptions, limits: limits, rootID: rootID)
                let update = updater.map { OptimisticUpdate(payload: payload, selector: selector, updater: $0) }
                try run(
                    commit: Commit(payload: payload, update: update, source: request, rootID: rootID),
                    reverting: optimistic.map { [$0] } ?? [])
            }
        } catch {
            if let optimistic { revert(optimistic) }
            throw error
        }
        return selector.read(store)
    }

    /// The same for a generated mutation.
    public func commitMutation<O: GraphQLOperation>(
        _ operation: O, optimisticResponse: JSONValue? = nil, optimisticUpdater: StoreUpdater? = nil,
        updater: SelectorStoreUpdater? = nil
    ) async throws -> ReadResult {
        try await commitMutation(
            O.artifact, variables: operation.variables.asJSON, optimisticResponse: optimisticResponse,
            optimisticUpdater: optimisticUpdater, updater: updater)
    }

    // MARK: Subscribing

    /// Reads `selector` and subscribes to it: `callback` runs after each publish that changes
    /// the data, on the main actor. Returns the first read.
    public func subscribe(_ selector: ReadSelector, _ callback: @escaping @MainActor (ReadResult) -> Void) -> (
        ReadResult, SubscriptionID
    ) {
        subscriptions.subscribe(selector) { result in MainActor.assumeIsolated { callback(result) } }
    }

    /// The same for the environment's models: `subscriber` is called on the main actor.
    func subscribe(_ selector: ReadSelector, _ subscriber: any StoreSubscriber) -> (ReadResult, SubscriptionID) {
        subscriptions.subscribe(selector, subscriber)
    }

    public func unsubscribe(_ id: SubscriptionID) { subscriptions.unsubscribe(id) }

    // MARK: The network exchange, off the main actor

    /// Sends the request and streams its body through a normalizer, chunk by chunk as it
    /// arrives; the deadline (if any) bounds the whole exchange.
    package nonisolated static func receive(
        _ request: GraphQLRequest, network: any Network, options: RequestOptions, limits: NormalizationLimits,
        rootID: String = RecordStore.rootID
    ) async throws -> NormalizedPayload {
        guard let timeout = options.timeout else {
            return try await exchange(request, network: network, options: options, limits: limits, rootID: rootID)
        }
        return try await withThrowingTaskGroup(of: NormalizedPayload?.self) { group in
            group.addTask {
                try await exchange(request, network: network, options: options, limits: limits, rootID: rootID)
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw FetchError(
                    kind: .timeout, operation: request.name, message: "no complete response within \(timeout)")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let payload = first else {
                throw FetchError(kind: .timeout, operation: request.name, message: "no response")
            }
            return payload
        }
    }

    nonisolated static func exchange(
        _ request: GraphQLRequest, network: any Network, options: RequestOptions, limits: NormalizationLimits,
        rootID: String
    ) async throws -> NormalizedPayload {
        let plan = try NormalizationPlan(operation: request.operation, variables: request.variables)
        let response: NetworkResponse
        do {
            response = try await network.execute(request, options: options)
        } catch {
            throw Self.fetchError(error, request)
        }
        guard (200..<300).contains(response.status) else {
            throw FetchError(
                kind: .status(response.status), operation: request.name,
                message: "the server answered with HTTP status \(response.status)")
        }
        // Sized by the body's announced length (as `commit(response:)` is by the buffer's), the
        // arena and its index are made once instead of doubling as the body fills them (a length
        // past the byte limit is ignored).
        let normalizer = try ResponseNormalizer(
            plan: plan, rootID: rootID, limits: limits, expectedBytes: response.contentLength)
        do {
            for try await chunk in response.body {
                try chunk.withUnsafeBytes { try normalizer.feed($0) }
            }
            return try normalizer.finish()
        } catch {
            throw Self.fetchError(error, request)
        }
    }

    nonisolated static func fetchError(_ error: any Error, _ request: GraphQLRequest) -> FetchError {
        switch error {
        case let e as FetchError: return e
        case is CancellationError:
            return FetchError(kind: .cancelled, operation: request.name, message: "the fetch was cancelled")
        case let e as RelayArenaError
        where e.code == .invalidResponse && (e.message.contains("data: null") || e.message.contains("no `data`")):
            return FetchError(
                kind: .graphQLErrors, operation: request.name,
                message: "No data returned for operation `\(request.name)`: \(e.description)", offset: e.offset)
        case let e as RelayArenaError:
            return FetchError(
                kind: .invalidResponse, operation: request.name, message: "invalid response: \(e.description)",
                offset: e.offset)
        default:
            return FetchError(kind: .transport, operation: request.name, message: "\(error)")
        }
    }
}
