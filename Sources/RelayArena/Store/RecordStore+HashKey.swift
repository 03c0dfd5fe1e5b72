// The hash key, for benchmarks and tests that play an attacker who learned it. Every table keyed
// by input text (data IDs, storage keys, shapes, a response object's unselected keys) hashes under
// a random key drawn once a process, carried by each store and its snapshots; a store whose
// inserts probe further than a random key makes is given a fresh one (the probe bound). A program
// never sets it.
extension RecordStore {
    /// Fixes the key that stores and payloads made from now on take.
    @_spi(HashFlooding) public static func setHashKey(_ k0: UInt64, _ k1: UInt64) { SourceHandle.setHashKey(k0, k1) }

    /// How often the probe bound gave this store a fresh key, and the index slots its inserts
    /// passed in all.
    @_spi(HashFlooding) public var hashStats: (rekeys: UInt32, probes: UInt64) {
        source.withReadLock { source.hashStats }
    }
}
