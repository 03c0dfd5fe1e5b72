// relay's publish queue (RelayPublishQueue.run): optimistic updates over the store, rolled back
// and re-applied when the server answers. A layer is written into the store itself, and the
// records it touched are kept as they were before the first layer (RecordBackup); a rebase puts
// them back, commits what the server sent, and applies the layers still pending again, in their
// order (relay-runtime's behaviour; Relay.swift drops them). Everything a run changes is
// notified once, after it.

extension Environment {
    // MARK: Optimistic updates

    /// Applies `response` — a GraphQL response `{"data": …}` for `operation` — as an optimistic
    /// update (relay's `applyMutation` with an optimistic response), with `updater` run after it;
    /// subscribers see it at once. A response that does not fit the operation, or an updater that
    /// throws, is an error and applies nothing.
    @discardableResult
    public func applyOptimistic(
        _ operation: OperationArtifact, variables: Variables = [:], response: some Collection<UInt8>,
        rootID: String = RecordStore.rootID, updater: SelectorStoreUpdater? = nil
    ) throws -> OptimisticUpdate {
        let request = GraphQLRequest(operation: operation, variables: variables)
        let update = OptimisticUpdate(
            payload: try normalize(response, for: request, rootID: rootID),
            selector: .operation(operation, variables: request.variables, dataID: rootID),
            updater: updater)
        try run(applying: update)
        return update
    }

    /// Applies an updater as an optimistic update (relay's `applyUpdate`).
    @discardableResult
    public func applyUpdate(_ updater: @escaping StoreUpdater) throws -> OptimisticUpdate {
        let update = OptimisticUpdate(payload: nil, selector: nil, updater: { proxy, _ in try updater(proxy) })
        try run(applying: update)
        return update
    }

    /// Rolls an optimistic update back (relay's `revertUpdate` then `run`): the store is as if it
    /// had never been applied, with the other updates still applied. Reverting it again does nothing.
    public func revert(_ update: OptimisticUpdate) {
        guard appliedUpdates.contains(where: { $0 === update }) else { return }
        // (Restoring and re-applying what was applied before cannot fail but out of memory.)
        _ = try? run(reverting: [update])
    }

    /// Whether `update` is applied.
    public func isApplied(_ update: OptimisticUpdate) -> Bool { appliedUpdates.contains { $0 === update } }

    /// Writes through an updater, permanently (relay's `commitLocalUpdate`); an updater that
    /// throws writes nothing.
    public func commitLocalUpdate(_ updater: @escaping StoreUpdater) throws {
        try run(
            commit: Commit(update: OptimisticUpdate(payload: nil, selector: nil, updater: { p, _ in try updater(p) })))
    }

    /// Commits a response for `operation` (relay's `commitPayload`) under the optimistic updates,
    /// rolling `reverting` back in the same publish, as a mutation's response does with its own
    /// optimistic update.
    @discardableResult
    public func commitPayload(
        _ operation: OperationArtifact, variables: Variables = [:], response: some Collection<UInt8>,
        rootID: String = RecordStore.rootID, reverting: OptimisticUpdate?
    ) throws -> UpdatedRecordIDs {
        let request = GraphQLRequest(operation: operation, variables: variables)
        return try run(
            commit: Commit(payload: try normalize(response, for: request, rootID: rootID), source: request),
            reverting: reverting.map { [$0] } ?? [])
    }

    // MARK: The queue's run

    /// relay's `RelayPublishQueue.run`: rolls the optimistic updates back when anything is
    /// committed or reverted, commits, applies the updates still pending (and `applying`), then
    /// notifies once. On error the store and the updates are as they were.
    /// `beforeNotify` runs once the store is written, before anyone is told (the replay's
    /// refetch subscriptions move to the query that answered them there).
    @discardableResult
    package func run(
        commit: Commit? = nil, reverting: [OptimisticUpdate] = [], applying: OptimisticUpdate? = nil,
        beforeNotify: () -> Void = {}
    ) throws -> UpdatedRecordIDs {
        var updated: [UpdatedRecordIDs] = []
        let remaining = appliedUpdates.filter { u in !reverting.contains { $0 === u } }
        let rebase = commit != nil || remaining.count != appliedUpdates.count
        if rebase && !optimisticBackup.isEmpty {
            // The commit's updater must read the store without the updates: roll them back first.
            updated.append(try optimisticBackup.restore(into: store))
            optimisticBackup = RecordBackup()
        }
        var invalidateStore = false
        do {
            if let commit {
                // The updater runs before anything is written: if it throws, nothing is.
                let writes = try commit.update?.writes(over: store)
                for event in (commit.payload?.idCollisions ?? []) + (writes?.logEvents ?? []) { log(event) }
                if let payload = commit.payload {
                    // Published once: a store holding only its root may take the payload's arena
                    // (and renumber its symbols: only when no symbols were gathered before).
                    updated.append(try updated.isEmpty ? store.publishConsuming(payload) : store.publish(payload))
                }
                if let writes {
                    updated.append(try publish(writes))
                    invalidateStore = writes.isStoreInvalidated
                }
            }
        } catch {
            // Nothing was committed: the updates go back as they were.
            if rebase { try apply(appliedUpdates, &updated) }
            notifyAfterRun(updated, source: nil)
            throw error
        }
        appliedUpdates = rebase ? remaining : appliedUpdates
        if let applying {
            do {
                try apply(rebase ? remaining + [applying] : [applying], &updated, logging: applying)
                appliedUpdates.append(applying)
            } catch {
                notifyAfterRun(updated, source: commit?.source)
                throw error
            }
        } else if rebase {
            try apply(remaining, &updated)
        }
        if appliedUpdates.isEmpty {
            optimisticHold?.dispose()
            optimisticHold = nil
        } else if optimisticHold == nil {
            // Both the environment's scheduled collections and any caller's collection of the
            // store (a batch job's, `replay`'s `gc`) wait for the layers to go.
            let environmentHold = holdCollection()
            let storeHold = store.holdCollection()
            optimisticHold = Disposable {
                environmentHold.dispose()
                storeHold.dispose()
            }
        }
        beforeNotify()
        return notifyAfterRun(updated, source: commit?.source, invalidateStore: invalidateStore)
    }

    /// Applies `updates` in order over the store, keeping what each touches first. Only
    /// `logging` (the one being applied now) tells the log of a dropped page or an id collision: the others are
    /// applied again over a store that may have moved on, and told it the first time.
    private func apply(
        _ updates: [OptimisticUpdate], _ updated: inout [UpdatedRecordIDs], logging: OptimisticUpdate? = nil
    ) throws {
        for update in updates {
            let writes = try update.writes(over: store)
            if update === logging {
                for event in (update.payload?.idCollisions ?? []) + (writes?.logEvents ?? []) { log(event) }
            }
            var touched = update.payload.map(RecordStore.dataIDs(of:)) ?? []
            touched += writes?.writtenIDs ?? []
            try optimisticBackup.keep(touched, of: store)
            if let payload = update.payload { updated.append(try store.publish(payload)) }
            if let writes { updated.append(try publish(writes)) }
        }
    }

    /// Publishes an updater's writes (and marks the records it invalidated).
    private func publish(_ writes: RecordSourceProxy) throws -> UpdatedRecordIDs {
        try store.publish(writes: writes, invalidationEpoch: roots.nextWriteEpoch)
    }

    @discardableResult
    private func notifyAfterRun(_ updated: [UpdatedRecordIDs], source: GraphQLRequest?, invalidateStore: Bool = false)
        -> UpdatedRecordIDs
    {
        let all = UpdatedRecordIDs.union(updated, in: store)
        subscriptions.notify(all)
        roots.didNotify(source: source.map { ($0.operation, $0.variables) }, invalidateStore: invalidateStore)
        return all
    }
}
