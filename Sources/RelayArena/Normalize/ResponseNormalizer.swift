// Streaming normalization of one response: bytes go to the C core a chunk at a time (never a
// token at a time); the result is a payload (relay's scratch RecordSource) ready to publish.
import Foundation

public struct NormalizationLimits: Sendable {
    /// Deepest JSON nesting accepted (objects and lists together).
    public var maxDepth: UInt32
    /// Largest response accepted, in bytes: 1 GiB unless set. A response past it fails at the byte
    /// where it passes the limit and publishes nothing. Peak memory while one string of L bytes
    /// streams in is about 2 L, escapes or not (yajl's copy of the token and the store's; the
    /// chunks gathered for yajl, and yajl's other buffer, are handed back as soon as they are
    /// spent), so the limit also bounds what a hostile server can make a client hold.
    public var maxBytes: UInt64
    public static let defaultMaxBytes: UInt64 = 1 << 30
    public init(maxDepth: UInt32 = 1000, maxBytes: UInt64 = NormalizationLimits.defaultMaxBytes) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
    }
}

/// Feeds one response through the normalizer. Not thread-safe; use one per response.
/// (Feeding bytes: ResponseNormalizer+Bytes.swift.)
public final class ResponseNormalizer {
    private var handle: NormalizerHandle?
    private let plan: NormalizationPlan  // keeps the C plan alive while the normalizer uses it

    /// `expectedBytes`: the response's size when known (a buffer, a file, a `Content-Length`).
    /// The arena's arrays are then sized once up front instead of doubling as they fill; a wrong
    /// figure only costs address space, and one past `limits.maxBytes` is ignored.
    public init(
        plan: NormalizationPlan, rootID: String = RecordStore.rootID, limits: NormalizationLimits = .init(),
        expectedBytes: Int? = nil
    ) throws {
        self.plan = plan
        guard let handle = NormalizerHandle(plan: plan.handle, rootID: rootID, limits: limits) else {
            throw RelayArenaError(code: .outOfMemory, message: "out of memory creating a normalizer")
        }
        self.handle = handle
        if let expectedBytes, expectedBytes > 0 { handle.expect(expectedBytes) }
    }

    deinit { handle?.destroy() }

    /// Bytes yajl has lexed for this response so far, counting again those of an unfinished token
    /// it lexes anew at a later feed: a diagnostic that stays within a small multiple of the bytes
    /// fed, however the response is chunked (0 once finished).
    package var _lexedBytes: UInt64 { handle?.lexedBytes ?? 0 }

    /// The live normalizer; after `finish` a misuse error saying `what`.
    func normalizer(for what: String) throws -> NormalizerHandle {
        guard let handle else { throw RelayArenaError(code: .misuse, message: what) }
        return handle
    }

    /// Ends the response and hands over the payload.
    public func finish() throws -> NormalizedPayload {
        let handle = try normalizer(for: "finish called twice")
        let (delta, collisions) = try handle.finish()
        self.handle = nil
        handle.destroy()
        return NormalizedPayload(delta: delta, idCollisions: collisions)
    }

    /// Normalizes a whole response held in memory (a fixture, a mock, an optimistic response),
    /// the arena sized once from its length.
    public static func normalize(
        response: some Collection<UInt8>, plan: NormalizationPlan, rootID: String = RecordStore.rootID,
        limits: NormalizationLimits = .init()
    ) throws -> NormalizedPayload {
        let normalizer = try ResponseNormalizer(
            plan: plan, rootID: rootID, limits: limits, expectedBytes: response.count)
        try normalizer.feed(response)
        return try normalizer.finish()
    }

    /// Streams a file through a normalizer in `chunkSize` pieces; the file is never held whole.
    public static func normalize(
        fileAt path: String, plan: NormalizationPlan, rootID: String = RecordStore.rootID,
        limits: NormalizationLimits = .init(), chunkSize: Int = 64 * 1024
    ) throws -> NormalizedPayload {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw RelayArenaError(code: .io, message: "cannot open \(path)")
        }
        defer { try? handle.close() }
        return try normalize(handle: handle, plan: plan, rootID: rootID, limits: limits, chunkSize: chunkSize)
    }

    public static func normalize(
        handle: FileHandle, plan: NormalizationPlan, rootID: String = RecordStore.rootID,
        limits: NormalizationLimits = .init(), chunkSize: Int = 64 * 1024
    ) throws -> NormalizedPayload {
        var info = stat()
        let size =
            fstat(handle.fileDescriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
        let normalizer = try ResponseNormalizer(plan: plan, rootID: rootID, limits: limits, expectedBytes: size)
        try normalizer.normalizer(for: "feed after finish").feed(
            fileDescriptor: handle.fileDescriptor, chunkSize: chunkSize)
        return try normalizer.finish()
    }
}
