// The network contract (relay's INetwork, Relay.swift's Network): a request is what relay sends; a
// response is a status, headers and a body that arrives as chunks, which the environment feeds to
// the normalizer as they come. The runtime holds no HTTP client: RelayArenaHTTP implements this
// on AsyncHTTPClient, MockNetwork for tests and previews.
import Foundation

/// What a request is sent with: headers to add and a deadline for the whole exchange.
public struct RequestOptions: Sendable {
    public var headers: [(name: String, value: String)]
    /// The whole request, from sending to the body's last byte (curl's `--max-time`); `nil`: none.
    public var timeout: Duration?

    public init(headers: [(name: String, value: String)] = [], timeout: Duration? = nil) {
        self.headers = headers
        self.timeout = timeout
    }
}

/// A chunk of a response body: anything that lends its bytes contiguously ([UInt8], Data, a
/// SwiftNIO ByteBuffer's view).
public typealias ResponseChunk = ContiguousBytes & Sendable

/// A response body: its chunks as they arrive. A chunk lives only until the next is asked for.
public struct ResponseBody: AsyncSequence, Sendable {
    public typealias Element = any ResponseChunk
    public typealias Failure = any Error

    private let make: @Sendable () -> AsyncIterator

    /// Erases any sequence of chunks.
    public init<S: AsyncSequence & Sendable>(_ chunks: S) where S.Element: ResponseChunk {
        make = {
            var base = chunks.makeAsyncIterator()
            return AsyncIterator { try await base.next() }
        }
    }

    /// A body held whole (tests, fixtures): `chunkSize` pieces.
    public init(bytes: [UInt8], chunkSize: Int = 64 * 1024) {
        let size = Swift.max(1, chunkSize)
        let chunks = stride(from: 0, to: bytes.count, by: size).map {
            Array(bytes[$0..<Swift.min($0 + size, bytes.count)])
        }
        self.init(ChunkList(chunks: chunks))
    }

    public func makeAsyncIterator() -> AsyncIterator { make() }

    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate var nextChunk: () async throws -> (any ResponseChunk)?
        public mutating func next() async throws -> (any ResponseChunk)? {
            try Task.checkCancellation()
            return try await nextChunk()
        }
    }
}

/// A fixed list of chunks as an async sequence.
private struct ChunkList: AsyncSequence, Sendable {
    let chunks: [[UInt8]]
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: chunks) }
    struct AsyncIterator: AsyncIteratorProtocol {
        let chunks: [[UInt8]]
        var index = 0
        mutating func next() async throws -> [UInt8]? {
            guard index < chunks.count else { return nil }
            defer { index += 1 }
            return chunks[index]
        }
    }
}

/// The head of a response, and its body to come.
public struct NetworkResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: ResponseBody

    public init(status: Int, headers: [(name: String, value: String)] = [], body: ResponseBody) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body's length as its `Content-Length` header gives it, when it gives a positive number.
    /// A size hint only: a normalizer sized by it still takes whatever the body turns out to be.
    public var contentLength: Int? {
        guard let value = headers.first(where: { $0.name.lowercased() == "content-length" })?.value,
            let length = Int(value.trimmingCharacters(in: .whitespaces)), length > 0
        else { return nil }
        return length
    }
}

/// Sends GraphQL requests. `execute` returns once the response's head is in; its body streams.
/// Cancelling the calling task must stop the transfer.
public protocol Network: Sendable {
    func execute(_ request: GraphQLRequest, options: RequestOptions) async throws -> NetworkResponse
}
