// What the environment tells its `log` (relay's `log` option of the environment): warnings that
// are not failures, such as a page that does not follow its connection, and the course of each
// request and collection (relay's `execute.*` and `store.gc.*` log events).

/// One event for an environment's `log`; the default log writes nothing.
public enum LogEvent: Sendable, Equatable {
    /// relay's connection handler dropped a page: its cursor is not the connection's end (start,
    /// for a backward page). The page's records are written; the connection's edges and
    /// `pageInfo` stay as they were. A warning.
    case unexpectedCursor(connectionID: String, cursor: String, expected: String, forward: Bool)
    /// A request went to the network (`execute` or `commitMutation`; one joining an identical
    /// request in flight starts nothing). `executeID` numbers the environment's requests from 1.
    case executeStart(executeID: Int, operation: String, variables: Variables)
    /// Its response was published and the subscriptions told.
    case executeNext(executeID: Int, operation: String)
    /// It ended after its response.
    case executeComplete(executeID: Int)
    /// It failed (the `FetchError` or the normalizer's error, as thrown); nothing was published.
    case executeError(executeID: Int, message: String)
    /// It was cancelled before its response was published (its last waiter went).
    case executeUnsubscribe(executeID: Int)
    /// relay's `idCollision.typename`: one response gave the record `dataID` two types (a server
    /// that breaks the globally unique ID rule). The record keeps its fields of both. A warning.
    case idCollision(dataID: String, previousTypename: String, newTypename: String)
    /// relay's `relayFieldLogger` event: a field error of a read handed to a model or a
    /// subscriber (its first read and each changed one). `@required(action: LOG)`'s
    /// (`missing_required_field.log`) is a warning.
    case fieldError(FieldError)
    /// A scheduled collection started marking.
    case gcStart
    /// A write, a new root or a hold came while it marked: it marks again, or waits for the hold.
    case gcInterrupted
    /// It swept: `removed` records went.
    case gcEnd(removed: Int)

    /// Whether relay would warn of it (a line on stderr for the command line) rather than log it.
    public var isWarning: Bool {
        switch self {
        case .unexpectedCursor, .idCollision: true
        case .fieldError(let event): event.kind == .missingRequiredFieldLog
        default: false
        }
    }

    /// The event's name: relay's log event names (`execute.start`, `store.gc.end`, …), and
    /// `connection.unexpectedCursor` for the connection handler's warning.
    public var name: String {
        switch self {
        case .unexpectedCursor: "connection.unexpectedCursor"
        case .idCollision: "idCollision.typename"
        case .fieldError(let event): event.kind.rawValue
        case .executeStart: "execute.start"
        case .executeNext: "execute.next"
        case .executeComplete: "execute.complete"
        case .executeError: "execute.error"
        case .executeUnsubscribe: "execute.unsubscribe"
        case .gcStart: "store.gc.start"
        case .gcInterrupted: "store.gc.interrupted"
        case .gcEnd: "store.gc.end"
        }
    }

    /// relay's text for a warning (`ConnectionHandler.update`'s, verbatim); a short line for the
    /// others.
    public var message: String {
        switch self {
        case .unexpectedCursor(_, let cursor, let expected, let forward):
            forward
                ? "Relay: Unexpected after cursor `\(cursor)`, edges must be fetched from the end of the list (`\(expected)`)."
                : "Relay: Unexpected before cursor `\(cursor)`, edges must be fetched from the beginning of the list (`\(expected)`)."
        case .idCollision(let dataID, let previous, let new):
            "RelayResponseNormalizer: Invalid record `\(dataID)`. Expected __typename to be consistent, but the record was assigned conflicting types `\(previous)` and `\(new)`. The GraphQL server likely violated the globally unique id requirement by returning the same id for different objects."
        case .fieldError(let event):
            event.kind == .payloadError
                ? "\(event.kind.rawValue) at '\(event.fieldPath)' in '\(event.owner)': \(event.error?.jsonText ?? "")"
                : event.throwMessage
        case .executeStart(let id, let operation, _): "execute.start #\(id) \(operation)"
        case .executeNext(let id, let operation): "execute.next #\(id) \(operation)"
        case .executeComplete(let id): "execute.complete #\(id)"
        case .executeError(let id, let message): "execute.error #\(id): \(message)"
        case .executeUnsubscribe(let id): "execute.unsubscribe #\(id)"
        case .gcStart: "store.gc.start"
        case .gcInterrupted: "store.gc.interrupted"
        case .gcEnd(let removed): "store.gc.end: \(removed) records removed"
        }
    }
}

/// Receives the environment's events on the main actor.
public typealias LogFunction = @MainActor (LogEvent) -> Void
