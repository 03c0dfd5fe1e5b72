// Why a request failed, and where: the environment's one failure type for fetches.
import Foundation

/// Why a request failed, and where: the environment's one failure type for fetches.
public struct FetchError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The server answered with a status outside 200–299.
        case status(Int)
        /// The connection could not be made or was lost (the transport's message).
        case transport
        /// The deadline passed.
        case timeout
        /// The body is not a valid response for the operation (malformed JSON, wrong shapes, cut off).
        case invalidResponse
        /// `errors` and no `data` (relay's "No data returned for operation").
        case graphQLErrors
        /// The fetch was cancelled.
        case cancelled
    }

    public var kind: Kind
    public var operation: String
    public var message: String
    /// Byte offset in the body where it went wrong, for an invalid response.
    public var offset: UInt64?

    public init(kind: Kind, operation: String, message: String, offset: UInt64? = nil) {
        self.kind = kind
        self.operation = operation
        self.message = message
        self.offset = offset
    }

    public var description: String {
        "\(operation): \(message)" + (offset.map { " (byte \($0))" } ?? "")
    }
}
