// The result of normalizing one response: its records in a delta source, not yet in any store
// (relay's scratch RecordSource), ready to publish.

/// The records one response normalized into, not yet in any store. It owns its delta alone: the
/// parser and staging that made it were freed when the normalizer finished.
public final class NormalizedPayload: @unchecked Sendable {
    let delta: SourceHandle
    /// relay's `idCollision.typename`: records the response gave two types (the first 16), logged
    /// when it is published.
    package let idCollisions: [LogEvent]
    init(delta: SourceHandle, idCollisions: [LogEvent] = []) {
        self.delta = delta
        self.idCollisions = idCollisions
    }
    deinit { delta.destroy() }

    /// Data IDs in this payload (including `client:__type:` records).
    public var recordCount: Int { delta.recordCount }

    /// The payload's records as relay toJSON JSON.
    public func relayJSON() -> [UInt8] { delta.exportJSON() }
}

/// Records read through a store snapshot: a store, or a payload not yet published (what an
/// updater's proxy reads below its own writes).
protocol SnapshotReadable: AnyObject {
    func withSnapshot<R>(_ body: (StoreSnapshot) throws -> R) rethrows -> R
}

extension RecordStore: SnapshotReadable {}

extension NormalizedPayload: SnapshotReadable {
    func withSnapshot<R>(_ body: (StoreSnapshot) throws -> R) rethrows -> R {
        try delta.withSnapshotReader { try body(StoreSnapshot(reader: $0)) }
    }
}
