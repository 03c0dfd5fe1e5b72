// Typed operation variables to the JSON the runtime formats storage keys from: the generated
// `Variables.asJSON` is one `jsonValue` per declared variable.

/// A Swift value that can be an operation variable.
public protocol VariableValue: Sendable {
    var jsonValue: JSONValue { get }
}

extension String: VariableValue { public var jsonValue: JSONValue { .string(self) } }
extension Int: VariableValue { public var jsonValue: JSONValue { .int(Int64(self)) } }
extension Double: VariableValue { public var jsonValue: JSONValue { .double(self) } }
extension Bool: VariableValue { public var jsonValue: JSONValue { .bool(self) } }
extension JSONValue: VariableValue { public var jsonValue: JSONValue { self } }

extension Array: VariableValue where Element: VariableValue {
    public var jsonValue: JSONValue { .array(map(\.jsonValue)) }
}

extension Optional: VariableValue where Wrapped: VariableValue {
    /// `nil` is an explicit null inside lists; a top-level `nil` variable is left out instead
    /// (see `Variables.set`), so the declared default applies as in relay.
    public var jsonValue: JSONValue { self?.jsonValue ?? .null }
}

extension GraphQLEnum {
    public var jsonValue: JSONValue { .string(rawValue) }
}

extension Dictionary where Key == String, Value == JSONValue {
    /// Sets `name` unless `value` is nil (an absent variable is `undefined`, not null): the
    /// generated `Variables.asJSON`.
    @_spi(Generated) public mutating func set<V: VariableValue>(_ name: String, _ value: V?) {
        if let value { self[name] = value.jsonValue }
    }
}

/// A generated input object (an `input` type of the schema, relay's typed inputs): its fields as
/// a JSON object, optional ones left out when `nil`.
public protocol GraphQLInputObject: VariableValue, ScalarListElement, Hashable {}

extension Array where Element == JSONMember {
    /// The member `name` as `T`; `nil` when absent or of another shape (the generated inputs'
    /// `_fromJSON`).
    @_spi(Generated) public func _field<T: ScalarListElement>(_ name: String, as type: T.Type = T.self) -> T? {
        first { $0.key == name }.flatMap { T._fromJSON($0.value) }
    }
}

/// A Swift type a custom scalar is generated as (`relay-arena generate --custom-scalar
/// DateTime=MyDate`, or `customScalars` in relay-arena.json): read from the stored JSON, written as
/// a variable, and `missingValue` where a non-null field is missing (as `""` is for `String`).
public protocol GraphQLCustomScalar: VariableValue, ScalarListElement, Hashable {
    static var missingValue: Self { get }
}
