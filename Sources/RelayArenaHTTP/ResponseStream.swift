// A response body as the runtime's ResponseBody takes it: AsyncHTTPClient's buffers handed over
// one at a time by a pump task. The pump exists for the deadline: AHC's own deadline stops at the
// head, and its body iterator can only be interrupted by cancelling the task that reads it, which
// must not be the caller's. So the pump reads; a timer beside it cancels it at the deadline
// (closing the connection) even while no byte arrives; the consumer takes what it hands over.
#if HTTP
    import AsyncHTTPClient
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOFoundationCompat
    import RelayArena

    /// The body's chunks: each a buffer's readable bytes as it came off the connection.
    struct ResponseStream: AsyncSequence, Sendable {
        typealias Element = ByteBufferView

        private let pump: Pump

        init(_ body: HTTPClientResponse.Body, exchange: Exchange) {
            pump = Pump(body, exchange: exchange)
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(pump: pump) }

        struct AsyncIterator: AsyncIteratorProtocol {
            let pump: Pump
            mutating func next() async throws -> ByteBufferView? { try await pump.take()?.readableBytesView }
        }
    }

    /// Owns the pump task; dropping the body (every reference to it) stops the transfer.
    final class Pump: Sendable {
        private let handoff: Handoff
        private let exchange: Exchange
        private let task: Task<Void, Never>

        init(_ body: HTTPClientResponse.Body, exchange: Exchange) {
            let handoff = Handoff()
            self.handoff = handoff
            self.exchange = exchange
            task = Task {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await Self.read(body, into: handoff, exchange: exchange) }
                    if let deadline = exchange.deadline {
                        group.addTask {
                            // Cancelled (and so returns early) once the body is read.
                            guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
                            handoff.fail(exchange.timeoutError())
                        }
                    }
                    // The first to end, the body or the deadline, ends the other: cancelling the
                    // read makes AHC close the connection.
                    await group.next()
                    group.cancelAll()
                }
            }
        }

        deinit {
            // A pump waiting for room in the queue waits on the handoff, not on the task: ended
            // here, or a body dropped half read would keep its task and connection forever.
            handoff.fail(exchange.cancelledError())
            task.cancel()
        }

        /// The next buffer, `nil` at the end. Cancelling the calling task stops the transfer.
        func take() async throws -> ByteBuffer? {
            try await withTaskCancellationHandler {
                try await handoff.take()
            } onCancel: { [handoff, exchange, task] in
                handoff.fail(exchange.cancelledError())
                task.cancel()
            }
        }

        private static func read(_ body: HTTPClientResponse.Body, into handoff: Handoff, exchange: Exchange) async {
            var received: UInt64 = 0
            do {
                for try await buffer in body {
                    // Also checked here: a buffer that came in after the deadline, before the
                    // timer's cancellation landed, is not handed over.
                    if exchange.isPastDeadline {
                        return handoff.fail(exchange.timeoutError())
                    }
                    received += UInt64(buffer.readableBytes)
                    guard await handoff.put(buffer) else { return }
                }
                handoff.finish()
            } catch {
                // A body that broke off says where: the bytes that came before.
                var failure = exchange.fetchError(for: error)
                if failure.kind == .transport { failure.offset = received }
                handoff.fail(failure, afterQueued: failure.kind == .transport)
            }
        }
    }

    /// A bounded queue between the pump (put) and the consumer (take): the pump reads up to
    /// `limit` buffers ahead, so the body is never gathered (AHC's backpressure does the rest),
    /// and a consumer busy normalizing one buffer finds the next ones waiting instead of waiting,
    /// once a buffer, for the pump's task to be scheduled on a machine shared with the network.
    /// A pump that found the queue full is woken once the consumer has taken it down to `resume`,
    /// not at each buffer taken: it then reads several in one turn.
    final class Handoff: Sendable {
        static let limit = 8
        static let resume = limit / 2

        private enum End {
            case finished
            case failed(FetchError)
        }

        private struct State {
            var buffers = CircularBuffer<ByteBuffer>(initialCapacity: Handoff.limit)
            var end: End?
            /// The pump waiting for room: resumed with `false` to stop.
            var producer: CheckedContinuation<Bool, Never>?
            /// The consumer waiting for a buffer or the end.
            var consumer: CheckedContinuation<ByteBuffer?, any Error>?
        }

        private let state = NIOLockedValueBox(State())

        /// Hands a buffer over, waiting while `limit` are queued; `false`: stop reading.
        func put(_ buffer: ByteBuffer) async -> Bool {
            enum Action {
                case deliver(CheckedContinuation<ByteBuffer?, any Error>)
                case stop
                case queued
                case full
            }
            let action = state.withLockedValue { s -> Action in
                if s.end != nil { return .stop }
                if let consumer = s.consumer {
                    s.consumer = nil
                    return .deliver(consumer)
                }
                s.buffers.append(buffer)
                return s.buffers.count < Self.limit ? .queued : .full
            }
            switch action {
            case .deliver(let consumer):
                consumer.resume(returning: buffer)
                return true
            case .stop: return false
            case .queued: return true
            case .full:
                // Resumed by take (true) once there is room, or by the end (false).
                return await withCheckedContinuation { (producer: CheckedContinuation<Bool, Never>) in
                    let room: Bool? = state.withLockedValue { s in
                        if s.end != nil { return false }
                        if s.buffers.count < Self.limit { return true }
                        s.producer = producer
                        return nil
                    }
                    if let room { producer.resume(returning: room) }
                }
            }
        }

        /// The body ended; the consumer gets `nil` after the last buffer.
        func finish() { end(.finished) }

        /// Fails the body (the first failure wins) and stops the pump. What is queued is dropped,
        /// unless `afterQueued` (the body broke off: the consumer gets what came first, then this).
        func fail(_ error: FetchError, afterQueued: Bool = false) { end(.failed(error), dropQueued: !afterQueued) }

        private func end(_ end: End, dropQueued: Bool = false) {
            let (producer, consumer) = state.withLockedValue {
                s -> (CheckedContinuation<Bool, Never>?, CheckedContinuation<ByteBuffer?, any Error>?) in
                if s.end != nil { return (nil, nil) }
                s.end = end
                if dropQueued { s.buffers.removeAll() }
                defer { (s.producer, s.consumer) = (nil, nil) }
                return (s.producer, s.consumer)
            }
            producer?.resume(returning: false)
            switch end {
            case .finished: consumer?.resume(returning: nil)
            case .failed(let error): consumer?.resume(throwing: error)
            }
        }

        /// The next buffer, `nil` at the end (after the last buffer queued).
        func take() async throws -> ByteBuffer? {
            enum Action {
                case deliver(ByteBuffer, CheckedContinuation<Bool, Never>?)
                case end(End)
                case wait
            }
            func next(_ s: inout State) -> Action {
                if let buffer = s.buffers.popFirst() {
                    guard s.buffers.count <= Self.resume else { return .deliver(buffer, nil) }
                    defer { s.producer = nil }
                    return .deliver(buffer, s.producer)
                }
                if let end = s.end { return .end(end) }
                return .wait
            }
            func result(_ action: Action) -> Result<ByteBuffer?, any Error> {
                switch action {
                case .deliver(let buffer, let producer):
                    producer?.resume(returning: true)
                    return .success(buffer)
                case .end(.finished): return .success(nil)
                case .end(.failed(let error)): return .failure(error)
                case .wait: preconditionFailure("a waiting take has no result yet")
                }
            }
            let action = state.withLockedValue { next(&$0) }
            guard case .wait = action else { return try result(action).get() }
            return try await withCheckedThrowingContinuation {
                (consumer: CheckedContinuation<ByteBuffer?, any Error>) in
                let action = state.withLockedValue { s -> Action in
                    let action = next(&s)
                    if case .wait = action { s.consumer = consumer }
                    return action
                }
                if case .wait = action { return }
                consumer.resume(with: result(action))
            }
        }
    }
#endif
