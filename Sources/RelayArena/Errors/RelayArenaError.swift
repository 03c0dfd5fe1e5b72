// The one error type the runtime throws: a code, a message, and where (byte offset and/or
// response path), in the manner of swift-system's Errno.
public struct RelayArenaError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: Int, Sendable {
        case outOfMemory = 1
        case malformedJSON, wrongShape, invalidID, duplicateKey, tooDeep, tooLarge,
            missingTypename, invalidPlan, misuse, invalidResponse, limit
        case invalidVariables = 100
        case unknownOperation, unknownFragment, invalidStore, io
        /// A snapshot file that is truncated, corrupt, of a newer format version, or no snapshot.
        case invalidSnapshot
        /// A read relay would throw for (`@throwOnFieldError`, `@required(action: THROW)`).
        case fieldError
    }

    public var code: Code
    public var message: String
    /// Byte offset in the input where the problem was found, when the problem is about input.
    public var offset: UInt64?
    /// Response path such as `data.user.todos.edges.3.node`, when known.
    public var path: String?

    public init(code: Code, message: String, offset: UInt64? = nil, path: String? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
        self.path = path
    }

    public var description: String {
        var where_: [String] = []
        if let path, !path.isEmpty { where_.append("at \(path)") }
        if let offset { where_.append("byte \(offset)") }
        return where_.isEmpty ? message : "\(message) (\(where_.joined(separator: ", ")))"
    }
}
