internal import CRelayArena
// The C streaming normalizer (`ra_normalizer`) behind one handle: create, feed chunks, finish
// into a delta source. `ResponseNormalizer` owns one and destroys it once.
import Foundation

struct NormalizerHandle {
    private let raw: OpaquePointer

    /// `nil` when out of memory. The plan must outlive the normalizer (its owner keeps it).
    init?(plan: PlanHandle, rootID: String, limits: NormalizationLimits) {
        let limits = ra_limits(max_depth: limits.maxDepth, max_bytes: limits.maxBytes)
        guard let raw = rootID.withCString({ ra_normalizer_create(plan.raw, $0, strlen($0), limits) }) else {
            return nil
        }
        self.raw = raw
    }

    func destroy() { ra_normalizer_destroy(raw) }

    /// Bytes yajl has lexed so far, those of a token it held across feeds counted again.
    var lexedBytes: UInt64 { ra_normalizer_lexed_bytes(raw) }

    /// Size hint: the delta's arrays are sized once instead of doubling.
    func expect(_ bytes: Int) { ra_normalizer_expect(raw, UInt64(bytes)) }

    func feed(_ bytes: UnsafeRawBufferPointer) throws {
        let status = ra_normalizer_feed(raw, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        if status != RA_OK { throw RelayArenaError(ra_normalizer_error(raw).pointee) }
    }

    /// Reads `fileDescriptor` to its end with read(2) into one buffer, feeding each chunk: no
    /// allocation and no copy per chunk, and the file is never held whole.
    func feed(fileDescriptor fd: Int32, chunkSize: Int) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(chunkSize, 1), alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = read(fd, buffer.baseAddress, buffer.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw RelayArenaError(code: .io, message: "read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            try feed(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
        }
    }

    /// Ends the input and hands over the delta, with relay's `idCollision.typename` events for
    /// the records it reached again as another type; the caller then destroys the normalizer.
    func finish() throws -> (SourceHandle, [LogEvent]) {
        var delta: OpaquePointer?
        if ra_normalizer_finish(raw, &delta) != RA_OK { throw RelayArenaError(ra_normalizer_error(raw).pointee) }
        let source = SourceHandle.adopting(delta!)
        guard ra_normalizer_id_collisions(raw, nil, nil, nil, 0) > 0 else { return (source, []) }
        var ids = [UInt32](repeating: 0, count: 16)
        var previous = ids
        var next = ids
        let count = Int(ra_normalizer_id_collisions(raw, &ids, &previous, &next, UInt32(ids.count)))
        let events = (0..<min(count, ids.count)).map { i in
            LogEvent.idCollision(
                dataID: source.symbolString(ids[i]), previousTypename: source.symbolString(previous[i]),
                newTypename: source.symbolString(next[i]))
        }
        return (source, events)
    }
}
