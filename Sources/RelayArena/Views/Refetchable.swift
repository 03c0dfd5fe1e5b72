// `@refetchable(queryName:)` and `@relay(plural: true)` fragments as generated types see them: the
// refetch query and its variables from a pointer or view; plural fragments read a list of pointers.

/// relay's `metadata.refetch`: the synthesized query, where the fragment sits in its result, and
/// the variable that takes the fragment record's id (`nil` for fragments on Query and Viewer).
public struct RefetchMetadata: Sendable, Hashable {
    public var operation: String
    public var fragmentPathInResult: [String]
    /// The refetch query's identifier variable (`id` of `node(id: $id)` or `fetch__T(id: $id)`).
    public var identifierField: String?
    /// The record's field that variable takes (relay's `identifierInfo.identifierField`): a
    /// `@fetchable(field_name:)` type's field; `nil` for the record's data ID (a `node` refetch).
    public var identifierSource: String?
    /// A pagination fragment's `@connection` (a `@refetchable` fragment with one).
    public var connection: ConnectionMetadata?

    public init(
        operation: String, fragmentPathInResult: [String], identifierField: String?,
        identifierSource: String? = nil, connection: ConnectionMetadata? = nil
    ) {
        self.operation = operation
        self.fragmentPathInResult = fragmentPathInResult
        self.identifierField = identifierField
        self.identifierSource = identifierSource
        self.connection = connection
    }
}

/// Where a pagination fragment's connection is in its data, and the variables that page it
/// (relay's `metadata.connection` / refetch `connection`).
public struct ConnectionMetadata: Sendable, Hashable {
    /// Response keys from the fragment's record to the connection field.
    public var path: [String]
    /// The count and cursor variables of `first`/`after` (`last`/`before`), when they are variables.
    public var forward: PageVariables?
    public var backward: PageVariables?

    public init(path: [String], forward: PageVariables?, backward: PageVariables?) {
        self.path = path
        self.forward = forward
        self.backward = backward
    }
}

public struct PageVariables: Sendable, Hashable {
    public var count: String
    public var cursor: String
    public init(count: String, cursor: String) {
        self.count = count
        self.cursor = cursor
    }
}

/// A fragment with `@refetchable(queryName: "Q")`: the generator emits `Q` and this conformance,
/// plus a typed `refetchQuery(for:)` (from a pointer or a view) on the fragment's type.
public protocol RefetchableFragment: Fragment {
    associatedtype RefetchQuery: GraphQLOperation
    static var refetchMetadata: RefetchMetadata { get }
}

extension RefetchableFragment {
    /// The refetch query's variables for the fragment at `pointer`, as relay builds them: each
    /// variable the query declares takes the fragment's current value (the pointer's variables
    /// with the fragment's argument defaults), and `id` the record's data ID (for a `@fetchable`
    /// type, `identifier`: the record's identifying field). Undefined ones are left out, so the
    /// query's defaults apply.
    public static func refetchVariables(for pointer: FragmentPointer<Self>, identifier: JSONValue? = nil) -> Variables {
        let current = pointer.effectiveVariables
        var out: Variables = [:]
        for definition in RefetchQuery.artifact.variables {
            if definition.name == refetchMetadata.identifierField {
                out[definition.name] = identifier ?? .string(pointer.dataID)
            } else if let value = current[definition.name] {
                out[definition.name] = value
            }
        }
        return out
    }

    /// The same from a view of the fragment (its record and the variables it was read with; a
    /// `@fetchable` type's identifying field read from it).
    public static func refetchVariables(for data: Data) -> Variables {
        let view = data.__view
        let identifier = refetchMetadata.identifierValue(dataID: view.dataID, in: view.snapshot)
        return refetchVariables(for: view.pointer(to: Self.self), identifier: identifier)
    }
}

extension FragmentPointer {
    /// The variables a read of `F` at this pointer uses: the owner's, plus `F`'s argument defaults.
    public var effectiveVariables: Variables {
        var variables = self.variables
        for definition in F.artifact.argumentDefinitions where variables[definition.name] == nil {
            variables[definition.name] = definition.defaultValue ?? .null
        }
        return variables
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    /// A variable as a typed value (generated `refetchQuery(for:)` and `Arguments` use it); `nil`
    /// when absent, null, or of another type.
    @_spi(Generated) public func value<T: ScalarListElement>(_ name: String, as type: T.Type = T.self) -> T? {
        self[name].flatMap(T._fromJSON)
    }
}
