// Typed reads over `RecordView.value(_:)`, one per GraphQL output shape. Each returns `nil` when
// the field is absent, null, or holds another kind of value, so bad data never traps. Generated
// views call them (`@_spi(Generated)`: their `FieldKey`s are the generator's slot numbers).
import Foundation

extension RecordView {
    /// One `String` per call; use `utf8(_:)` in hot loops.
    @_spi(Generated) public func string(_ key: FieldKey) -> String? {
        if case .string(let s)? = value(key) { return s.string }
        return nil
    }

    /// The string's bytes in the arena, valid inside the snapshot only; no allocation.
    @_spi(Generated) public func utf8(_ key: FieldKey) -> BorrowedUTF8? {
        if case .string(let s)? = value(key) { return s }
        return nil
    }

    @_spi(Generated) public func int(_ key: FieldKey) -> Int? {
        if case .int(let i)? = value(key) { return Int(truncatingIfNeeded: i) }
        return nil
    }

    /// GraphQL `Float`: integers are stored as integers, other numbers as their text.
    @_spi(Generated) public func double(_ key: FieldKey) -> Double? {
        switch value(key) {
        case .int(let i)?: return Double(i)
        case .number(let text)?: return Double(text.string)
        default: return nil
        }
    }

    @_spi(Generated) public func bool(_ key: FieldKey) -> Bool? {
        if case .bool(let b)? = value(key) { return b }
        return nil
    }

    @_spi(Generated) public func enumValue<E: GraphQLEnum>(_ key: FieldKey, as type: E.Type = E.self) -> E? {
        if case .string(let s)? = value(key) { return E(utf8: s) }
        return nil
    }

    /// A custom scalar as JSON (parsed on access: custom scalars are not the hot path).
    @_spi(Generated) public func json(_ key: FieldKey) -> JSONValue? {
        guard let v = value(key) else { return nil }
        return JSONValue(v)
    }

    /// A list of scalars or enums (stored as JSON text, decoded on access). Items that do not
    /// fit `T` read as `nil` when `T` is optional and are dropped otherwise.
    @_spi(Generated) public func scalarList<T: ScalarListElement>(_ key: FieldKey, of type: T.Type = T.self) -> [T]? {
        guard let v = value(key), case .array(let items) = JSONValue(v) else { return nil }
        return items.compactMap(T._fromJSON)
    }

    /// A singular linked field; `nil` when absent, null, or the record is unknown or deleted.
    @_spi(Generated) public func linked<V: SelectionView>(_ key: FieldKey, as type: V.Type = V.self) -> V? {
        guard case .link(let id)? = value(key), case .record(let r) = snapshot.record(id) else { return nil }
        return V(__view: RecordView(self, record: r))
    }

    /// A non-null linked field: when the data is missing, a view over no record (every field
    /// reads as absent) so the caller never traps; the read's `isMissingData` says so.
    /// Whether the field holds a value other than `null` (what `@required` asks).
    @_spi(Generated) public func isPresent(_ key: FieldKey) -> Bool {
        guard let v = value(key) else { return false }
        if case .null = v { return false }
        return true
    }

    @_spi(Generated) public func linkedOrEmpty<V: SelectionView>(_ key: FieldKey, as type: V.Type = V.self) -> V {
        linked(key) ?? V(__view: emptyView)
    }

    /// A view of no record (every field reads as absent), for a non-optional property whose
    /// value is missing.
    @_spi(Generated) public var emptyView: RecordView { RecordView(self, record: Self.emptyRecord) }

    /// A plural linked field as a collection of views made on access (no array is built).
    @_spi(Generated) public func list<E: ViewListElement>(_ key: FieldKey, of type: E.Type = E.self) -> ViewList<E>? {
        guard case .links(let links)? = value(key) else { return nil }
        return ViewList(links: links, parent: self)
    }

    /// A non-null plural linked field: empty when the data is missing.
    @_spi(Generated) public func listOrEmpty<E: ViewListElement>(_ key: FieldKey, of type: E.Type = E.self) -> ViewList<
        E
    > {
        list(key) ?? ViewList(links: LinkList(reader: snapshot.reader, value: 0, count: 0), parent: self)
    }
}

extension JSONValue {
    /// A stored value as JSON; JSON text is parsed, numbers kept as precise as Double allows.
    init(_ value: FieldValue) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(i)
        case .number(let t): self = Double(t.string).map(JSONValue.double) ?? .string(t.string)
        case .string(let s): self = .string(s.string)
        case .json(let t): self = (try? JSONValue(parsing: t.string)) ?? .null
        case .link, .links: self = .null
        }
    }
}

/// What a scalar list may hold: built-in scalars, enums, JSON, optionals and nested lists of them.
public protocol ScalarListElement {
    static func _fromJSON(_ value: JSONValue) -> Self?
}

extension String: ScalarListElement {
    public static func _fromJSON(_ value: JSONValue) -> String? {
        if case .string(let s) = value { return s }
        return nil
    }
}

extension Int: ScalarListElement {
    public static func _fromJSON(_ value: JSONValue) -> Int? {
        if case .int(let i) = value { return Int(truncatingIfNeeded: i) }
        return nil
    }
}

extension Double: ScalarListElement {
    public static func _fromJSON(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }
}

extension Bool: ScalarListElement {
    public static func _fromJSON(_ value: JSONValue) -> Bool? {
        if case .bool(let b) = value { return b }
        return nil
    }
}

extension JSONValue: ScalarListElement {
    public static func _fromJSON(_ value: JSONValue) -> JSONValue? { value }
}

extension Optional: ScalarListElement where Wrapped: ScalarListElement {
    /// A null item or one of the wrong kind is `.some(nil)`: kept in place, not dropped.
    public static func _fromJSON(_ value: JSONValue) -> Wrapped?? {
        .some(Wrapped._fromJSON(value))
    }
}

extension Array: ScalarListElement where Element: ScalarListElement {
    public static func _fromJSON(_ value: JSONValue) -> [Element]? {
        guard case .array(let items) = value else { return nil }
        return items.compactMap(Element._fromJSON)
    }
}
