// An interned name (a data ID or a storage key) of one store: a plain integer, meaningful only
// with that store's snapshots.

/// An interned name (data ID or storage key) of one store.
public struct StoreSymbol: Hashable, Sendable {
    let raw: UInt32
}
