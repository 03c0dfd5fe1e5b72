// Streaming normalization of one response: bytes go to the C core a chunk at a time (never a
// token at a time); the result is a payload (relay's scratch RecordSource) ready to publish.
import Foundation
internal import CRelayArena

public struct NormalizationLimits: Sendable {
    /// Deepest JSON nesting accepted (objects and lists together).
    public var maxDepth: UInt32
    /// Largest response accepted, in bytes.
    public var maxBytes: UInt64
    public init(maxDepth: UInt32 = 1000, maxBytes: UInt64 = 1 << 34) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
    }
}

/// The records one response normalized into, not yet in any store. It owns its delta alone: the
/// parser and staging that made it were freed when the normalizer finished.
public final class NormalizedPayload: @unchecked Sendable {
    let delta: OpaquePointer
    init(delta: OpaquePointer) { self.delta = delta }
    deinit { ra_source_destroy(delta) }

    /// Data IDs in this payload (including `client:__type:` records).
    public var recordCount: Int { Int(ra_source_record_count(delta)) }

    /// The payload's records as relay toJSON JSON.
    public func relayJSON() -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>? = nil
        var len = 0
        guard ra_source_export_json(delta, &out, &len) == RA_OK, let out else { fatalError("RelayArena: out of memory") }
        defer { ra_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: len))
    }
}

/// Feeds one response through the normalizer. Not thread-safe; use one per response.
public final class ResponseNormalizer {
    private var raw: OpaquePointer?
    private let plan: NormalizationPlan  // keeps the C plan alive while the normalizer uses it

    /// `expectedBytes`: the response's size when known (a buffer, a file). The arena's arrays are
    /// then sized once up front instead of doubling as they fill; a wrong figure only costs
    /// address space.
    public init(plan: NormalizationPlan, rootID: String = RecordStore.rootID, limits: NormalizationLimits = .init(),
                expectedBytes: Int? = nil) throws {
        self.plan = plan
        let limits = ra_limits(max_depth: limits.maxDepth, max_bytes: limits.maxBytes)
        raw = rootID.withCString { ra_normalizer_create(plan.raw, $0, strlen($0), limits) }
        guard let raw else { throw RelayArenaError(code: .outOfMemory, message: "out of memory creating a normalizer") }
        if let expectedBytes, expectedBytes > 0 { ra_normalizer_expect(raw, UInt64(expectedBytes)) }
    }

    deinit { if let raw { ra_normalizer_destroy(raw) } }

    /// Feeds the next chunk of the response (any size, split anywhere).
    public func feed(_ bytes: UnsafeRawBufferPointer) throws {
        guard let raw else { throw RelayArenaError(code: .misuse, message: "feed after finish") }
        let status = ra_normalizer_feed(raw, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        if status != RA_OK { throw RelayArenaError(ra_normalizer_error(raw).pointee) }
    }

    public func feed(_ bytes: some Collection<UInt8>) throws {
        if let done = try bytes.withContiguousStorageIfAvailable({ try feed(UnsafeRawBufferPointer($0)) }) { return done }
        try Array(bytes).withUnsafeBytes { try feed($0) }
    }

    /// Ends the response and hands over the payload.
    public func finish() throws -> NormalizedPayload {
        guard let raw else { throw RelayArenaError(code: .misuse, message: "finish called twice") }
        var delta: OpaquePointer?
        if ra_normalizer_finish(raw, &delta) != RA_OK { throw RelayArenaError(ra_normalizer_error(raw).pointee) }
        self.raw = nil
        ra_normalizer_destroy(raw)
        return NormalizedPayload(delta: delta!)
    }

    /// Streams a file through a normalizer in `chunkSize` pieces; the file is never held whole.
    public static func normalize(fileAt path: String, plan: NormalizationPlan, rootID: String = RecordStore.rootID,
                                 limits: NormalizationLimits = .init(), chunkSize: Int = 64 * 1024) throws -> NormalizedPayload {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw RelayArenaError(code: .io, message: "cannot open \(path)")
        }
        defer { try? handle.close() }
        return try normalize(handle: handle, plan: plan, rootID: rootID, limits: limits, chunkSize: chunkSize)
    }

    public static func normalize(handle: FileHandle, plan: NormalizationPlan, rootID: String = RecordStore.rootID,
                                 limits: NormalizationLimits = .init(), chunkSize: Int = 64 * 1024) throws -> NormalizedPayload {
        var info = stat()
        let size = fstat(handle.fileDescriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
        let normalizer = try ResponseNormalizer(plan: plan, rootID: rootID, limits: limits, expectedBytes: size)
        // One buffer, refilled with read(2): no allocation and no copy per chunk.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(chunkSize, 1), alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = read(handle.fileDescriptor, buffer.baseAddress, buffer.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw RelayArenaError(code: .io, message: "read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            try normalizer.feed(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
        }
        return try normalizer.finish()
    }
}
