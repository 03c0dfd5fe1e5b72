// The runtime's Network over HTTP: one POST per request on AsyncHTTPClient, returned once the
// head is in, the body streamed as SwiftNIO hands its buffers over (never gathered whole).
// Without the `HTTP` trait this target is empty, so a build without SwiftNIO still links it.
#if HTTP
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import RelayArena

    /// Sends GraphQL requests as HTTP POSTs on AsyncHTTPClient.
    ///
    /// `execute` returns once the response's head has arrived: its status, its headers, and a body
    /// whose chunks are the buffers as they come off the connection. Whatever the status, the body
    /// is the caller's to read (or to drop, which ends the transfer). `RequestOptions.timeout`
    /// bounds the whole exchange, body included; cancelling the calling task, or the task reading
    /// the body, stops the transfer. Failures are ``FetchError``s: `.transport`, `.timeout`,
    /// `.cancelled`.
    public struct HTTPNetwork: Network {
        /// Where requests are POSTed.
        public let endpoint: String
        /// Sent with every request, before the request's own headers.
        public let headers: [(name: String, value: String)]
        private let client: HTTPClient

        /// - Parameters:
        ///   - endpoint: the GraphQL endpoint (`http` or `https`).
        ///   - headers: added to every request (authorization, for instance).
        ///   - client: the AsyncHTTPClient to send with; its connection pool is shared by every
        ///     request. ``defaultClient`` unless given.
        public init(endpoint: URL, headers: [(String, String)] = [], client: HTTPClient = defaultClient) {
            self.init(endpoint: endpoint.absoluteString, headers: headers, client: client)
        }

        /// The endpoint as text; one that is no URL fails each request with a `.transport` error.
        public init(endpoint: String, headers: [(String, String)] = [], client: HTTPClient = defaultClient) {
            self.endpoint = endpoint
            self.headers = headers.map { (name: $0.0, value: $0.1) }
            self.client = client
        }

        /// The process-wide client HTTPNetworks share unless given one: `HTTPClient.shared`'s
        /// configuration, except that a connection that cannot be made fails the request at once.
        /// (`HTTPClient.shared` retries connecting until the request's deadline, and without a
        /// deadline for ever, so a server that is down would look like a hung request.) Like
        /// `HTTPClient.shared`, it lives as long as the process and is never shut down.
        public static let defaultClient: HTTPClient = {
            var configuration = HTTPClient.Configuration.singletonConfiguration
            configuration.connectionPool.retryConnectionEstablishment = false
            return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        }()

        public func execute(_ request: GraphQLRequest, options: RequestOptions) async throws -> NetworkResponse {
            let exchange = Exchange(operation: request.name, endpoint: endpoint, timeout: options.timeout)
            var http = HTTPClientRequest(url: endpoint)
            http.method = .POST
            http.headers.add(name: "Content-Type", value: "application/json")
            http.headers.add(name: "Accept", value: "application/json")
            for header in headers { http.headers.add(name: header.name, value: header.value) }
            for header in options.headers { http.headers.add(name: header.name, value: header.value) }
            http.body = .bytes(request.body)
            let response: HTTPClientResponse
            do {
                // AHC's deadline covers the request up to the head only; the body's share of the
                // deadline is the pump's (ResponseStream).
                response = try await client.execute(http, deadline: exchange.nioDeadline)
            } catch {
                var failure = exchange.fetchError(for: error)
                if failure.kind == .transport { failure.message = "POST \(endpoint): " + failure.message }
                throw failure
            }
            let headers = response.headers.map { (name: $0.name, value: $0.value) }
            let stream = ResponseStream(response.body, exchange: exchange)
            return NetworkResponse(status: Int(response.status.code), headers: headers, body: ResponseBody(stream))
        }
    }
#endif
