// Faults no well-behaved HTTP server can be asked for, on a raw SwiftNIO listener: the bytes on
// the wire are written by hand. Each connection reads the request's head, picks its fault by the
// path, and acts it out.
#if HTTP
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOPosix

    /// What the raw listener can do to a request.
    public enum Fault: String, Sendable, CaseIterable {
        /// Closes the connection once the request is in, before any response byte.
        case drop
        /// Sends a 200 head announcing more body than it sends, a part of it, then closes.
        case cutOff = "cut-off"
        /// Sends a 200 head, then a valid response one byte every 100 ms (a minute's worth).
        case trickle

        /// What `cutOff` sends of the body it announces as 1000 bytes.
        public static let cutOffBody = Array(
            #"{"data":{"user":{"id":"VXNlcjptZQ==","totalCount":3,"todos":{"edges":["#.utf8)
    }

    /// What the raw listener saw, for the tests to check.
    public final class FaultLog: Sendable {
        private struct State {
            var connections: [ObjectIdentifier: any Channel] = [:]
            var trickleBytesSent = 0
            var tricklesClosedByClient = 0
        }
        private let state = NIOLockedValueBox(State())

        /// Trickled connections the client closed before the body was over.
        public var tricklesClosedByClient: Int { state.withLockedValue { $0.tricklesClosedByClient } }
        /// Body bytes the trickle has sent, over all connections.
        public var trickleBytesSent: Int { state.withLockedValue { $0.trickleBytesSent } }

        func opened(_ channel: any Channel) {
            state.withLockedValue { $0.connections[ObjectIdentifier(channel)] = channel }
        }
        func closed(_ channel: any Channel) {
            _ = state.withLockedValue { $0.connections.removeValue(forKey: ObjectIdentifier(channel)) }
        }
        func trickled() { state.withLockedValue { $0.trickleBytesSent += 1 } }
        func trickleClosedByClient() { state.withLockedValue { $0.tricklesClosedByClient += 1 } }
        var openConnections: [any Channel] { state.withLockedValue { Array($0.connections.values) } }
    }

    /// The listener on 127.0.0.1 (an ephemeral port).
    final class FaultListener: Sendable {
        let channel: any Channel
        let log: FaultLog
        var port: Int { channel.localAddress?.port ?? 0 }

        private init(channel: any Channel, log: FaultLog) {
            self.channel = channel
            self.log = log
        }

        /// `trickleBody`: the valid response the trickle sends byte by byte.
        static func start(trickleBody: [UInt8]) async throws -> FaultListener {
            let log = FaultLog()
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(FaultHandler(log: log, trickleBody: trickleBody))
                    }
                }
                .bind(host: "127.0.0.1", port: 0).get()
            return FaultListener(channel: channel, log: log)
        }

        /// Stops listening and closes every connection still open (a trickle would go on).
        func stop() async {
            try? await channel.close()
            for connection in log.openConnections { try? await connection.close() }
        }
    }

    /// One connection: gathers the request head, then acts out the fault its path names.
    private final class FaultHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let log: FaultLog
        private let trickleBody: [UInt8]
        private var head: [UInt8] = []
        private var fault: Fault?
        private var trickleSent = 0

        init(log: FaultLog, trickleBody: [UInt8]) {
            self.log = log
            self.trickleBody = trickleBody
        }

        func channelActive(context: ChannelHandlerContext) {
            log.opened(context.channel)
            context.fireChannelActive()
        }

        func channelInactive(context: ChannelHandlerContext) {
            log.closed(context.channel)
            if fault == .trickle && trickleSent < trickleBody.count { log.trickleClosedByClient() }
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard fault == nil else { return }  // the request's body, or a second request: ignored
            var buffer = unwrapInboundIn(data)
            head += buffer.readBytes(length: buffer.readableBytes) ?? []
            guard let end = head.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
            // "POST /cut-off HTTP/1.1": the path names the fault.
            let requestLine = String(decoding: head[..<end.lowerBound], as: UTF8.self).split(separator: "\r\n").first
            let path = requestLine?.split(separator: " ").dropFirst().first.map { $0.dropFirst() } ?? ""
            let fault = Fault(rawValue: String(path.split(separator: "?").first ?? "")) ?? .drop
            self.fault = fault
            switch fault {
            case .drop:
                context.close(promise: nil)
            case .cutOff:
                write(context, head: 1000, Fault.cutOffBody)
                context.close(promise: nil)
            case .trickle:
                write(context, head: trickleBody.count, [])
                trickleNext(context)
            }
        }

        private func write(_ context: ChannelHandlerContext, head length: Int, _ body: [UInt8]) {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\n\r\n"
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: Array(head.utf8) + body)), promise: nil)
        }

        private func trickleNext(_ context: ChannelHandlerContext) {
            guard trickleSent < trickleBody.count, context.channel.isActive else { return }
            context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(100)) {
                guard context.channel.isActive else { return }
                context.writeAndFlush(
                    self.wrapOutboundOut(ByteBuffer(bytes: [self.trickleBody[self.trickleSent]])), promise: nil)
                self.trickleSent += 1
                self.log.trickled()
                self.trickleNext(context)
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
#endif
