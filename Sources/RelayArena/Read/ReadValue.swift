// The untyped result of a read: JSON-like, object members in selection order, numbers and
// custom scalars as the text the store holds.

/// Not `indirect`: arrays already hold their elements apart, so a scalar stays inline and a
/// fragment's data is one allocation (plus long strings), not one a field — what a model keeps,
/// compares after a publish and frees is then a line or two of memory, not a scattered tree.
public enum ReadValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    /// A non-integer or very long number, as received.
    case number(String)
    case string(String)
    /// Raw JSON text (lists of scalars, custom scalars) as stored.
    case json(String)
    case array([ReadValue])
    case object([(String, ReadValue)])

    /// Equal when their JSON texts are (members in order), compared without making the texts.
    public static func == (a: ReadValue, b: ReadValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.number(let x), .number(let y)), (.string(let x), .string(let y)), (.json(let x), .json(let y)):
            return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            for i in x.indices where x[i].0 != y[i].0 || x[i].1 != y[i].1 { return false }
            return true
        case (.int(let x), .number(let y)), (.number(let y), .int(let x)): return String(x) == y
        case (.int(let x), .json(let y)), (.json(let y), .int(let x)): return String(x) == y
        case (.number(let x), .json(let y)), (.json(let x), .number(let y)): return x == y
        default: return a.jsonText == b.jsonText
        }
    }
    public func hash(into h: inout Hasher) { h.combine(jsonText) }

    public subscript(key: String) -> ReadValue? {
        if case .object(let members) = self { return members.last { $0.0 == key }?.1 }
        return nil
    }

    /// Minified JSON text.
    public var jsonText: String {
        var out = ""
        write(into: &out)
        return out
    }

    func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .number(let s), .json(let s): out += s
        case .string(let s): JSONString.escape(s, into: &out)
        case .array(let items):
            out += "["
            for (i, v) in items.enumerated() {
                if i > 0 { out += "," }
                v.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (k, v)) in members.enumerated() {
                if i > 0 { out += "," }
                JSONString.escape(k, into: &out)
                out += ":"
                v.write(into: &out)
            }
            out += "}"
        }
    }

    init(_ v: JSONValue) {
        switch v {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(i)
        case .double(let d): self = .number(JSNumber.format(d))
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(ReadValue.init))
        case .object(let members): self = .object(members.map { ($0.key, ReadValue($0.value)) })
        }
    }
}

/// The operation that fetched the data a fragment pointer points at (`__fragmentOwner`).
public struct FragmentOwner: Sendable, Hashable {
    public var name: String
    public var variables: [JSONMember]
    public init(name: String, variables: [JSONMember]) {
        self.name = name
        self.variables = variables
    }

    public init(operation: OperationArtifact, variables: Variables) {
        self.init(name: operation.name, variables: operation.effectiveVariableMembers(variables))
    }

    var value: ReadValue {
        .object([("name", .string(name)), ("variables", .object(variables.map { ($0.key, ReadValue($0.value)) }))])
    }
}

/// What relay's RelayReader returns: the masked data, whether some of it was missing, and the
/// records visited (what notification intersects with updated IDs).
public struct ReadResult: Sendable {
    /// `nil` when the root record is unknown (relay's `undefined`).
    public var data: ReadValue?
    public var isMissingData: Bool
    /// The data IDs the read visited (what a publish must update to change it).
    public var seenRecords: Set<String> {
        get { seen.set }
        set { seen = SeenRecordIDs(newValue) }
    }
    /// The same, as held: most reads visit one record, kept as its ID alone (no set to allocate,
    /// and none for a re-read to touch).
    var seen: SeenRecordIDs
    /// relay's `fieldErrors`: the server errors, missing data and `@required` fields the read
    /// met, in relay's order (empty: none, and nothing allocated).
    public var fieldErrors: [FieldError]

    init(data: ReadValue?, isMissingData: Bool, seen: SeenRecordIDs, fieldErrors: [FieldError] = []) {
        self.data = data
        self.isMissingData = isMissingData
        self.seen = seen
        self.fieldErrors = fieldErrors
    }

    init(data: ReadValue?, isMissingData: Bool, seenRecords: Set<String>) {
        self.init(data: data, isMissingData: isMissingData, seen: SeenRecordIDs(seenRecords))
    }

    /// `{"data": …, "isMissingData": …}` as the CLI prints it, with `"fieldErrors": […]` when
    /// the read met any, and `"throws": "<message>"` instead of `data` when relay would throw.
    public var jsonText: String {
        var out: String
        if let failure = throwingFieldError() {
            out = "{\"throws\":"
            JSONString.escape(failure.description, into: &out)
        } else {
            out = "{\"data\":"
            if let data { data.write(into: &out) } else { out += "null" }
        }
        out += ",\"isMissingData\":" + (isMissingData ? "true" : "false")
        if !fieldErrors.isEmpty {
            out += ",\"fieldErrors\":"
            ReadValue.array(fieldErrors.map(\.json)).write(into: &out)
        }
        return out + "}"
    }
}

/// The data IDs a read visited: none, one (most fragments), or a set of two or more.
enum SeenRecordIDs: Sendable, Equatable {
    case none
    case one(String)
    case many(Set<String>)

    init(_ set: Set<String>) {
        switch set.count {
        case 0: self = .none
        case 1: self = .one(set.first!)
        default: self = .many(set)
        }
    }

    var set: Set<String> {
        switch self {
        case .none: return []
        case .one(let id): return [id]
        case .many(let ids): return ids
        }
    }

    var count: Int {
        switch self {
        case .none: return 0
        case .one: return 1
        case .many(let ids): return ids.count
        }
    }

    func forEachID(_ body: (String) -> Void) {
        switch self {
        case .none: break
        case .one(let id): body(id)
        case .many(let ids): for id in ids { body(id) }
        }
    }
}
