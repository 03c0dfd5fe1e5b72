// What the environment tells its `log` (relay's `log` option of the environment): warnings that
// are not failures, such as a page that does not follow its connection.

/// One event for an environment's `log`; the default log writes nothing.
public enum LogEvent: Sendable, Equatable {
    /// relay's connection handler dropped a page: its cursor is not the connection's end (start,
    /// for a backward page). The page's records are written; the connection's edges and
    /// `pageInfo` stay as they were.
    case unexpectedCursor(connectionID: String, cursor: String, expected: String, forward: Bool)

    /// The event's name, as relay's warnings and logs would spell its kind.
    public var name: String {
        switch self {
        case .unexpectedCursor: "connection.unexpectedCursor"
        }
    }

    /// relay's text for the event (`ConnectionHandler.update`'s warning, verbatim).
    public var message: String {
        switch self {
        case .unexpectedCursor(_, let cursor, let expected, let forward):
            forward
                ? "Relay: Unexpected after cursor `\(cursor)`, edges must be fetched from the end of the list (`\(expected)`)."
                : "Relay: Unexpected before cursor `\(cursor)`, edges must be fetched from the beginning of the list (`\(expected)`)."
        }
    }
}

/// Receives the environment's events on the main actor.
public typealias LogFunction = @MainActor (LogEvent) -> Void
