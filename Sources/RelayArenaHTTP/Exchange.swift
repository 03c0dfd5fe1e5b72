// One request's deadline and the translation of what AsyncHTTPClient and SwiftNIO throw into the
// runtime's FetchError: a kind the environment can act on and a message a person can read.
#if HTTP
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOHTTP1
    import NIOPosix
    import RelayArena

    struct Exchange: Sendable {
        let operation: String
        /// Named in errors before the head ("POST URL: Connection refused").
        let endpoint: String
        let timeout: Duration?
        /// When the whole exchange must be over; `nil`: no deadline.
        let deadline: ContinuousClock.Instant?

        init(operation: String, endpoint: String, timeout: Duration?) {
            self.operation = operation
            self.endpoint = endpoint
            self.timeout = timeout
            deadline = timeout.map { ContinuousClock.now + $0 }
        }

        /// The deadline for AHC (up to the head); `.distantFuture` when there is none.
        var nioDeadline: NIODeadline {
            guard let deadline else { return .distantFuture }
            let left = ContinuousClock.now.duration(to: deadline)
            let (seconds, attoseconds) = left.components
            return .now() + .nanoseconds(max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
        }

        var isPastDeadline: Bool { deadline.map { ContinuousClock.now >= $0 } ?? false }

        func timeoutError() -> FetchError {
            let seconds = timeout.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 } ?? 0
            return FetchError(kind: .timeout, operation: operation, message: "timed out after \(seconds) s")
        }

        func cancelledError() -> FetchError {
            FetchError(kind: .cancelled, operation: operation, message: "cancelled")
        }

        /// What went wrong, as a FetchError. A cancelled task is `.cancelled` and a passed
        /// deadline `.timeout` whatever error they surfaced as; the rest is the transport's.
        func fetchError(for error: any Error) -> FetchError {
            if let error = error as? FetchError { return error }
            if isPastDeadline {
                // A client that retries connecting hands over the last attempt's error at the deadline.
                var timeout = timeoutError()
                if error is NIOConnectionError || error is IOError { timeout.message += " (\(Self.describe(error)))" }
                return timeout
            }
            if Task.isCancelled || error is CancellationError { return cancelledError() }
            if let error = error as? HTTPClientError {
                if error == .deadlineExceeded { return timeoutError() }
                if error == .cancelled { return cancelledError() }
            }
            return FetchError(kind: .transport, operation: operation, message: Self.describe(error))
        }

        /// A plain sentence for a transport error ("cannot connect to 127.0.0.1:1: Connection refused").
        static func describe(_ error: any Error) -> String {
            switch error {
            case let error as NIOConnectionError:
                let cause = error.connectionErrors.first.map { describe($0.error) } ?? "no address to connect to"
                return "cannot connect to \(error.host):\(error.port): \(cause)"
            case let error as IOError:
                return String(cString: strerror(error.errnoCode))
            case let error as HTTPClientError:
                switch error {
                case .remoteConnectionClosed: return "the server closed the connection before the response ended"
                case .connectTimeout: return "connecting timed out"
                case .invalidURL, .emptyHost, .emptyScheme: return "invalid endpoint URL"
                default: return error.shortDescription.lowercased()
                }
            case HTTPParserError.invalidEOFState:
                return "the server closed the connection before the response ended"
            case let error as HTTPParserError:
                return "invalid HTTP response (\(error))"
            case let error as ChannelError:
                return "connection error (\(error))"
            default:
                // NIOSSL's errors, named without depending on swift-nio-ssl here.
                let tls = String(reflecting: type(of: error)).hasPrefix("NIOSSL.")
                return (tls ? "TLS: " : "") + String(describing: error)
            }
        }
    }
#endif
