// The fetch benchmarks' server (`relay-arena bench` and Benchmarks/Environment): SwiftNIO on
// loopback answering every POST with one pre-generated response, written in 64 KiB chunks, so that
// the figure measures the client (AsyncHTTPClient, streaming into the normalizer), not GraphQL
// execution. Empty without the `HTTP` trait.
#if HTTP
    import NIOCore
    import NIOHTTP1
    import NIOPosix

    public final class CannedServer {
        private let channel: any Channel
        public let port: Int

        /// Starts serving `body` on 127.0.0.1 at a port the system picks.
        public init(body: [UInt8], chunkSize: Int = 64 * 1024) throws {
            let chunks = stride(from: 0, to: body.count, by: chunkSize).map {
                ByteBuffer(bytes: body[$0..<min($0 + chunkSize, body.count)])
            }
            let total = body.count
            channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.backlog, value: 64)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        try channel.pipeline.syncOperations.addHandler(Handler(chunks: chunks, total: total))
                    }
                }
                .bind(host: "127.0.0.1", port: 0).wait()
            guard let port = channel.localAddress?.port else {
                throw CannedServerError.noPort
            }
            self.port = port
        }

        public var url: String { "http://127.0.0.1:\(port)/graphql" }

        public func stop() { try? channel.close().wait() }

        public enum CannedServerError: Error { case noPort }

        /// Reads a request to its end, then writes the head and every chunk.
        private final class Handler: ChannelInboundHandler {
            typealias InboundIn = HTTPServerRequestPart
            typealias OutboundOut = HTTPServerResponsePart
            let chunks: [ByteBuffer]
            let total: Int

            init(chunks: [ByteBuffer], total: Int) {
                self.chunks = chunks
                self.total = total
            }

            func channelRead(context: ChannelHandlerContext, data: NIOAny) {
                guard case .end = unwrapInboundIn(data) else { return }
                var head = HTTPResponseHead(version: .http1_1, status: .ok)
                head.headers.add(name: "Content-Type", value: "application/json")
                head.headers.add(name: "Content-Length", value: String(total))
                context.write(wrapOutboundOut(.head(head)), promise: nil)
                for chunk in chunks {
                    context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(chunk))), promise: nil)
                }
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
#endif
