// Names and positions in one store's arena: plain integers, valid across snapshots of that
// store only as long as nothing republished (symbols stay, records may move on a rebuild).

/// An interned name (data ID or storage key) of one store.
public struct StoreSymbol: Hashable, Sendable {
    let raw: UInt32
}

/// A record's position in the arena.
public struct RecordRef: Hashable, Sendable {
    let index: UInt32
}

public enum RecordState {
    case unknown
    case deleted
    case record(RecordRef)
}
