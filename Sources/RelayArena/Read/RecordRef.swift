// A record's position in one store's arena, and what a data ID stands for there: a plain
// integer, meaningful only with that store's snapshots.

/// A record's position in the arena.
public struct RecordRef: Hashable, Sendable {
    let index: UInt32
}

public enum RecordState {
    case unknown
    case deleted
    case record(RecordRef)
}
