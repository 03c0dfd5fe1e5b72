// relay's field errors (v19+ `fieldErrors` of a snapshot): what a read met — a server error stored
// on a null field, data missing, a `@required` field null — and what would make it throw.

/// One event of a read's `fieldErrors`, with relay's members (`uiContext` left out: no UI here).
public struct FieldError: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// The field read `null` and the record holds the server's error for it (`__errors`).
        case payloadError = "relay_field_payload.error"
        /// A field, list item or record is not in the store (`.throw` in a `@throwOnFieldError` document).
        case missingExpectedDataLog = "missing_expected_data.log"
        case missingExpectedDataThrow = "missing_expected_data.throw"
        /// A `@required(action: LOG | THROW)` field read `null` or was missing.
        case missingRequiredFieldLog = "missing_required_field.log"
        case missingRequiredFieldThrow = "missing_required_field.throw"
    }

    public var kind: Kind
    /// The fragment or operation being read (an `@inline` fragment's own name inside it).
    public var owner: String
    /// Response keys and list indices from the read's root, joined with `.`; a payload error's
    /// is its stored path (`""` at the field that failed), as relay has it.
    public var fieldPath: String
    /// The server's error, without `path` and `locations` (payload errors only).
    public var error: JSONValue?
    /// A payload error in a `@throwOnFieldError` document.
    public var shouldThrow: Bool
    /// Caught by a `@catch`: still reported, never thrown.
    public var handled: Bool

    public init(
        kind: Kind, owner: String, fieldPath: String, error: JSONValue? = nil, shouldThrow: Bool = false,
        handled: Bool = false
    ) {
        self.kind = kind
        self.owner = owner
        self.fieldPath = fieldPath
        self.error = error
        self.shouldThrow = shouldThrow
        self.handled = handled
    }

    var isPathPrefixed: Bool { kind != .payloadError }

    /// Whether relay would throw for it: a payload error with `shouldThrow`, or a `.throw` kind,
    /// neither caught (relay: `shouldThrow && !handled`, `!handled`).
    public var wouldThrow: Bool {
        switch kind {
        case .payloadError: shouldThrow && !handled
        case .missingExpectedDataThrow, .missingRequiredFieldThrow: !handled
        case .missingExpectedDataLog, .missingRequiredFieldLog: false
        }
    }

    /// relay's (v19+) message when it throws.
    public var throwMessage: String {
        switch kind {
        case .payloadError: "Relay: Unexpected response payload - check server logs for details."
        case .missingExpectedDataLog, .missingExpectedDataThrow:
            "Relay: Missing expected data at path '\(fieldPath)' in '\(owner)'."
        case .missingRequiredFieldLog, .missingRequiredFieldThrow:
            "Relay: Missing @required value at path '\(fieldPath)' in '\(owner)'."
        }
    }

    /// What a `@catch(to: RESULT)` lists for it (relay's `_asResult`): the server's error without
    /// its `message`, `{path}` for missing data, the message for a `@required(action: THROW)`;
    /// `nil` for `@required(action: LOG)`.
    var caught: ReadValue? {
        switch kind {
        case .payloadError:
            guard case .object(let members)? = error else { return .object([]) }
            return .object(members.filter { $0.key != "message" }.map { ($0.key, ReadValue($0.value)) })
        case .missingExpectedDataLog, .missingExpectedDataThrow:
            return .object([
                (
                    "path",
                    .array(
                        fieldPath.split(separator: ".", omittingEmptySubsequences: false).map { .string(String($0)) })
                )
            ])
        case .missingRequiredFieldThrow:
            return .object([("message", .string(throwMessage))])
        case .missingRequiredFieldLog:
            return nil
        }
    }

    /// As the command line prints it: `kind`, `fieldPath`, and `error` for a server error or
    /// `owner` for a `@required(action: THROW)`.
    var json: ReadValue {
        var members: [(String, ReadValue)] = [("kind", .string(kind.rawValue)), ("fieldPath", .string(fieldPath))]
        if let error { members.append(("error", ReadValue(error))) }
        if kind == .missingRequiredFieldThrow { members.append(("owner", .string(owner))) }
        if handled { members.append(("handled", .bool(true))) }
        return .object(members)
    }
}

/// `@required(action:)` on a field (relay's `RequiredField`).
public enum RequiredAction: String, Sendable, Hashable {
    case none = "NONE"
    case log = "LOG"
    case `throw` = "THROW"
}

/// `@catch(to:)` on a field, an aliased inline fragment, a fragment or an operation.
public enum CatchTo: String, Sendable, Hashable {
    /// `{"ok": true, "value": …}` or `{"ok": false, "errors": […]}`.
    case result = "RESULT"
    /// `null` when anything was met.
    case null = "NULL"
}

/// What relay's hooks throw for a read (`handlePotentialSnapshotErrors`): the first event that
/// throws, with relay's message.
public struct FieldErrorFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public var event: FieldError
    public var description: String { event.throwMessage }
}

extension ReadResult {
    /// relay's rule for when a read throws: the first field error that would throw (a
    /// `@throwOnFieldError` document's payload error or missing data, a `@required(action:
    /// THROW)` field), unless a `@catch` took it (`wouldThrow`). Readers never throw; this says what would.
    public func throwingFieldError() -> FieldErrorFailure? {
        fieldErrors.first(where: \.wouldThrow).map(FieldErrorFailure.init)
    }
}

/// What a `@catch(to: RESULT)` caught (relay's `{ok: false, errors}`): the events met under it,
/// each `handled`, and relay's `errors` made from them.
public struct FieldErrors: Error, Sendable, Hashable, CustomStringConvertible {
    public var events: [FieldError]

    public init(_ events: [FieldError]) { self.events = events }

    /// relay's `errors` list: the server's errors without `message`, `{path}` for missing data,
    /// the message of a `@required(action: THROW)` (a `LOG` one lists nothing).
    public var errors: [ReadValue] { events.compactMap(\.caught) }

    /// The server's `message` of each stored error met (what `errors` leaves out, as relay does).
    public var serverMessages: [String] {
        events.compactMap { event in
            guard case .object(let members)? = event.error,
                case .string(let message)? = members.last(where: { $0.key == "message" })?.value
            else { return nil }
            return message
        }
    }

    public var description: String {
        events.map { "\($0.kind.rawValue) at '\($0.fieldPath)' in '\($0.owner)'" }.joined(separator: "; ")
    }
}

/// A `@catch(to: RESULT)` selection in a typed view: its value, or what was caught under it.
public typealias Caught<Value> = Result<Value, FieldErrors>
