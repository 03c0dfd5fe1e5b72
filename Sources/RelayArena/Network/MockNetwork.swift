// A network for tests and previews (relay-test-utils' MockEnvironment): requests wait in a queue
// until the test resolves or rejects them, or a queued resolver answers them at once.
import Foundation

/// A `Network` whose requests the test answers. Thread-safe.
public final class MockNetwork: Network, @unchecked Sendable {
    public enum Answer: Sendable {
        /// A response body (a 200 with this JSON), delivered in `chunkSize` pieces.
        case response([UInt8], chunkSize: Int = 64 * 1024)
        /// Another status, with a body.
        case status(Int, [UInt8])
        /// The request fails before any response.
        case failure(FetchError)
    }

    public struct Pending: Sendable {
        public let request: GraphQLRequest
        public let options: RequestOptions
        let id: Int
    }

    private let lock = NSLock()
    private var pending: [(Pending, CheckedContinuation<NetworkResponse, any Error>)] = []
    private var resolvers: [@Sendable (GraphQLRequest) -> Answer?] = []
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var nextID = 0
    private var sent: [GraphQLRequest] = []

    public init() {}

    /// Every request executed so far, in order (answered or not).
    public var requests: [GraphQLRequest] { lock.withLock { sent } }

    /// The requests still waiting for an answer, oldest first.
    public var pendingRequests: [GraphQLRequest] { lock.withLock { pending.map(\.0.request) } }

    /// Answers matching requests at once, now and later (relay's `queueOperationResolver`);
    /// `nil` from the resolver leaves the request pending.
    public func queueResolver(_ resolver: @escaping @Sendable (GraphQLRequest) -> Answer?) {
        lock.withLock { resolvers.append(resolver) }
    }

    public func execute(_ request: GraphQLRequest, options: RequestOptions) async throws -> NetworkResponse {
        let (answer, id) = lock.withLock { () -> (Answer?, Int) in
            sent.append(request)
            nextID += 1
            return (resolvers.lazy.compactMap { $0(request) }.first, nextID)
        }
        if let answer { return try Self.response(answer) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let wake = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
                    pending.append((Pending(request: request, options: options, id: id), continuation))
                    defer { waiting.removeAll() }
                    return waiting
                }
                for continuation in wake { continuation.resume() }
            }
        } onCancel: {
            let cancelled = lock.withLock { () -> CheckedContinuation<NetworkResponse, any Error>? in
                guard let i = pending.firstIndex(where: { $0.0.id == id }) else { return nil }
                return pending.remove(at: i).1
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    /// Waits until some request is pending, and returns the oldest.
    public func nextRequest() async -> GraphQLRequest {
        while true {
            if let first = lock.withLock({ pending.first?.0.request }) { return first }
            await withCheckedContinuation { continuation in
                let ready = lock.withLock { () -> Bool in
                    if !pending.isEmpty { return true }
                    waiting.append(continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }

    /// Answers the oldest pending request matching `request` (any, when nil). Returns whether
    /// there was one (relay's "Cannot respond to request, it has not been requested yet" is false).
    @discardableResult
    public func resolve(_ request: GraphQLRequest? = nil, with answer: Answer) -> Bool {
        let taken = lock.withLock { () -> CheckedContinuation<NetworkResponse, any Error>? in
            guard let i = pending.firstIndex(where: { request == nil || $0.0.request == request }) else { return nil }
            return pending.remove(at: i).1
        }
        guard let taken else { return false }
        do { taken.resume(returning: try Self.response(answer)) } catch { taken.resume(throwing: error) }
        return true
    }

    /// The same with a JSON text body.
    @discardableResult
    public func resolve(_ request: GraphQLRequest? = nil, json: String) -> Bool {
        resolve(request, with: .response(Array(json.utf8)))
    }

    private static func response(_ answer: Answer) throws -> NetworkResponse {
        switch answer {
        case .response(let bytes, let chunkSize):
            return NetworkResponse(status: 200, body: ResponseBody(bytes: bytes, chunkSize: chunkSize))
        case .status(let code, let bytes):
            return NetworkResponse(status: code, body: ResponseBody(bytes: bytes))
        case .failure(let error):
            throw error
        }
    }
}
