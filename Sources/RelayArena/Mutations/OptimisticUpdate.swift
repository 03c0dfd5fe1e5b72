// What the publish queue runs: an optimistic update (a response and its updater, or an updater
// alone), the updaters' types, and what a run commits to the base under the updates.

/// An updater: reads and writes records through the proxy.
public typealias StoreUpdater = @MainActor (RecordSourceProxy) throws -> Void
/// A mutation's updater: also gets the mutation's data, read from its response.
public typealias SelectorStoreUpdater = @MainActor (RecordSourceProxy, ReadResult) throws -> Void

/// An optimistic update applied to an environment's store (relay's `OptimisticUpdate`): a
/// response for an operation and its updater, or an updater alone. Revert it with
/// `Environment.revert(_:)`.
@MainActor
public final class OptimisticUpdate {
    let payload: NormalizedPayload?
    let selector: ReadSelector?
    let updater: SelectorStoreUpdater?

    init(payload: NormalizedPayload?, selector: ReadSelector?, updater: SelectorStoreUpdater?) {
        self.payload = payload
        self.selector = selector
        self.updater = updater
    }

    /// What the update writes besides its payload: the payload's `@connection` fields merged by
    /// the connection handler, then the updater (if any), over `store` with the payload read
    /// first; `nil` when there is nothing to write. A page whose cursor does not follow its
    /// connection is dropped as relay drops it (the proxy's `logEvents` say so).
    func writes(over store: RecordStore) throws -> RecordSourceProxy? {
        let handles = payload.flatMap { p in selector.map { $0.handleFieldPayloads(in: p) } } ?? []
        guard updater != nil || !handles.isEmpty else { return nil }
        let proxy = RecordSourceProxy(store: store, payload: payload, selector: selector)
        for handle in handles { try ConnectionHandler.update(proxy, handle) }
        if let updater {
            proxy.pageMergesOnly = false
            let data = selector.flatMap { s in payload.map { $0.withSnapshot { s.read($0) } } } ?? ReadResult.empty
            try updater(proxy, data)
        }
        return proxy
    }
}

extension ReadResult {
    static let empty = ReadResult(data: nil, isMissingData: false, seenRecords: [])
}

/// What a run commits to the base, under the optimistic updates.
@MainActor
package struct Commit {
    var payload: NormalizedPayload?
    var update: OptimisticUpdate?
    var source: GraphQLRequest?
    /// Where the payload is rooted (a mutation's `client:local:N`).
    var rootID: String

    package init(
        payload: NormalizedPayload? = nil, update: OptimisticUpdate? = nil, source: GraphQLRequest? = nil,
        rootID: String = RecordStore.rootID
    ) {
        self.payload = payload
        self.source = source
        self.rootID = rootID
        // A response's `@connection` fields are merged by the handler: an update with no updater.
        if update == nil, let payload, let source, source.operation.normalization.containsConnectionHandle {
            self.update = OptimisticUpdate(
                payload: payload,
                selector: .operation(source.operation, variables: source.variables, dataID: rootID),
                updater: nil)
        } else {
            self.update = update
        }
    }
}
