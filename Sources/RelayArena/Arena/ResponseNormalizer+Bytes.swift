// Feeding a normalizer from caller memory: the public escape hatch that takes a raw buffer, and
// collections fed without a copy when their storage is contiguous.

extension ResponseNormalizer {
    /// Feeds the next chunk of the response (any size, split anywhere).
    public func feed(_ bytes: UnsafeRawBufferPointer) throws {
        try normalizer(for: "feed after finish").feed(bytes)
    }

    public func feed(_ bytes: some Collection<UInt8>) throws {
        if let done = try bytes.withContiguousStorageIfAvailable({ try feed(UnsafeRawBufferPointer($0)) }) {
            return done
        }
        try Array(bytes).withUnsafeBytes { try feed($0) }
    }
}
