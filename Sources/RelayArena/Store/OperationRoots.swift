// What relay-runtime's store keeps beside its records (RelayModernStore): the write epoch, the
// global invalidation epoch, the operation roots with their release buffer, and the clock that
// query-cache expiry reads. `check` answers available / stale / missing from these and the
// records, in relay's order.

/// Milliseconds on the clock an `OperationRoots` reads: any origin, only differences matter.
public typealias Milliseconds = Int64

/// relay's operation roots, write epochs and query-cache expiry for one store.
///
/// A root is an operation with its variables (keyed by the request's identifier) that a caller
/// retains, or that a query's write parked in the release buffer. A root's `epoch` and
/// `fetchTime` are those of the last write of that operation; `check` compares them with the
/// invalidations since and with the clock. Not thread-safe: its owner (the environment, on the
/// main actor; the command line's replay) calls it from one place at a time.
public final class OperationRoots {
    public struct Root: Sendable {
        public let operation: OperationArtifact
        public let variables: Variables
        public internal(set) var refCount: Int
        /// The write epoch of the operation's last write (nil: never written while a root).
        public internal(set) var epoch: Int?
        public internal(set) var fetchTime: Milliseconds?
    }

    /// relay's `gcReleaseBufferSize`: how many released (or never retained, written) queries stay
    /// roots, oldest first out.
    public let releaseBufferSize: Int
    /// relay's `queryCacheExpirationTime`: a query written this long ago or longer is stale.
    public let queryCacheExpiration: Milliseconds?
    /// The clock expiry reads.
    public let now: () -> Milliseconds

    /// relay's `_currentWriteEpoch`: one more for every notify.
    package private(set) var currentWriteEpoch = 0
    /// relay's `_globalInvalidationEpoch`: the epoch of the last `invalidateStore`.
    package private(set) var globalInvalidationEpoch: Int?

    /// Roots by request identifier, and the order they were made (marking goes in this order).
    private var roots: [String: Root] = [:]
    private var order: [String] = []
    /// Called when a release drops a root (relay then schedules a collection).
    package var onRootDropped: (() -> Void)?
    /// Changes whenever a root is added: a collection marked before must not sweep.
    package private(set) var generation = 0

    /// Identifiers of roots with no retain left, oldest first.
    package private(set) var releaseBuffer: [String] = []

    public init(
        releaseBufferSize: Int = 10, queryCacheExpiration: Milliseconds? = nil,
        now: @escaping () -> Milliseconds = OperationRoots.monotonicMilliseconds
    ) {
        precondition(releaseBufferSize >= 0, "releaseBufferSize must be 0 or more")
        self.releaseBufferSize = releaseBufferSize
        self.queryCacheExpiration = queryCacheExpiration
        self.now = now
    }

    /// Milliseconds of the system's monotonic clock (the default: wall-clock changes do not expire
    /// or refresh anything).
    public static func monotonicMilliseconds() -> Milliseconds {
        let elapsed = origin.duration(to: .now).components
        return elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
    }
    private static let origin = ContinuousClock.now

    /// The roots, in the order they were made.
    public var all: [Root] { order.compactMap { roots[$0] } }

    public func root(_ operation: OperationArtifact, variables: Variables) -> Root? {
        roots[operation.requestIdentifier(variables)]
    }

    /// Retains an operation (relay's `store.retain`): it is a root until every retain is disposed
    /// and the release buffer lets it go. Disposing the returned handle twice does nothing.
    public func retain(_ operation: OperationArtifact, variables: Variables) -> Disposable {
        let effective = operation.effectiveVariables(variables)
        let id = operation.requestIdentifier(effective: effective)
        if var root = roots[id] {
            if root.refCount == 0 { releaseBuffer.removeAll { $0 == id } }
            root.refCount += 1
            roots[id] = root
        } else {
            roots[id] = Root(
                operation: operation, variables: effective, refCount: 1, epoch: nil,
                fetchTime: nil)
            order.append(id)
            generation += 1
        }
        return Disposable { [weak self] in self?.release(id) }
    }

    /// Ends one retain: at none left the root goes into the release buffer (the oldest there is
    /// dropped when it overflows), or goes at once if the clock says it expired. Returns whether
    /// a root was dropped (relay then schedules a collection).
    @discardableResult
    func release(_ id: String) -> Bool {
        guard var root = roots[id] else { return false }
        root.refCount -= 1
        roots[id] = root
        guard root.refCount <= 0 else { return false }
        if isExpired(root) {
            drop(id)
            onRootDropped?()
            return true
        }
        releaseBuffer.append(id)
        if releaseBuffer.count > releaseBufferSize {
            drop(releaseBuffer.removeFirst())
            onRootDropped?()
            return true
        }
        return false
    }

    private func drop(_ id: String) {
        roots[id] = nil
        order.removeAll { $0 == id }
        releaseBuffer.removeAll { $0 == id }
    }

    private func isExpired(_ root: Root) -> Bool {
        guard let fetchTime = root.fetchTime, let ttl = queryCacheExpiration else { return false }
        return fetchTime <= now() - ttl
    }

    /// The roots' operations and variables, in the order they were made (what a collection marks from).
    package var marking: [(operation: OperationArtifact, variables: Variables)] {
        order.compactMap { roots[$0].map { ($0.operation, $0.variables) } }
    }

    /// A full collection now (relay's `__gc()`): keeps what the roots reach, and `keeping`.
    @discardableResult
    public func collect(in store: RecordStore, keeping: [String] = []) throws -> RemovedRecordIDs {
        try store.collectGarbage(roots: marking, keeping: keeping)
    }

    /// The epoch the next notify will have: what an invalidation writes into its records
    /// (`__invalidated_at`).
    package var nextWriteEpoch: Int { currentWriteEpoch + 1 }

    /// What relay's `notify` does besides calling subscriptions: the write epoch moves on; an
    /// invalidated store remembers it; the operation that wrote (if any) has its root stamped with
    /// the epoch and the time, or, a query retained by no one, is parked in a free slot of the
    /// release buffer (mutations and subscriptions never are).
    package func didNotify(
        source: (operation: OperationArtifact, variables: Variables)? = nil, invalidateStore: Bool = false
    ) {
        currentWriteEpoch += 1
        if invalidateStore { globalInvalidationEpoch = currentWriteEpoch }
        guard let source else { return }
        let effective = source.operation.effectiveVariables(source.variables)
        let id = source.operation.requestIdentifier(effective: effective)
        if var root = roots[id] {
            root.epoch = currentWriteEpoch
            root.fetchTime = now()
            roots[id] = root
        } else if source.operation.kind == .query, releaseBufferSize > 0, releaseBuffer.count < releaseBufferSize {
            roots[id] = Root(
                operation: source.operation, variables: effective,
                refCount: 0, epoch: currentWriteEpoch,
                fetchTime: now())
            order.append(id)
            releaseBuffer.append(id)
            generation += 1
        }
    }

    /// relay's `store.check(operation)`, in its order: a store invalidated since the operation was
    /// last written (or never written) is stale; then the records: one the operation reaches that
    /// was invalidated after that write is stale, before anything missing; then missing; then
    /// expiry by the clock; else available.
    public func check(
        _ operation: OperationArtifact, variables: Variables = [:], in store: RecordStore,
        dataID: String = RecordStore.rootID
    ) -> Availability {
        let root = self.root(operation, variables: variables)
        let lastWrittenAt = root?.epoch
        if let global = globalInvalidationEpoch, lastWrittenAt.map({ $0 <= global }) ?? true { return .stale }
        let found = store.checkRecords(operation: operation, variables: variables, dataID: dataID)
        if let invalidatedAt = found.mostRecentlyInvalidatedAt, lastWrittenAt.map({ invalidatedAt > $0 }) ?? true {
            return .stale
        }
        if found.missing { return .missing }
        if let root, isExpired(root) { return .stale }
        return .available
    }
}

/// What `retain` and `holdCollection` return (relay's `Disposable`): `dispose()` ends the retain
/// or hold; disposing twice does nothing; dropping it without disposing keeps it (as relay's).
public final class Disposable {
    private var release: (() -> Void)?
    init(_ release: @escaping () -> Void) { self.release = release }

    public func dispose() {
        guard let release else { return }
        self.release = nil
        release()
    }
}
