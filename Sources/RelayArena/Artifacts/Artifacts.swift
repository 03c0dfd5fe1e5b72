// Compiled artifacts: what the compiler hands the runtime, the Swift counterpart of relay-compiler's
// ConcreteRequest / ReaderFragment. Plain values, no GraphQL AST, so generated code can embed them.

/// A JSON value as GraphQL variables and argument literals carry it.
///
/// Object members keep their order; storage keys sort them when formatting (`stableCopy`).
public indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])
}

public struct JSONMember: Sendable, Hashable {
    public var key: String
    public var value: JSONValue
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// An argument value as written in a document: literals are JSON (enums become strings), variables
/// are resolved at runtime. Objects and lists may mix both.
public indirect enum ArgumentValue: Sendable, Hashable {
    case literal(JSONValue)
    case variable(String)
    case object([ArgumentMember])
    case list([ArgumentValue])
}

public struct ArgumentMember: Sendable, Hashable {
    public var key: String
    public var value: ArgumentValue
    public init(_ key: String, _ value: ArgumentValue) {
        self.key = key
        self.value = value
    }
}

/// One argument written on a field (never a schema default: relay-runtime does not know those).
public struct Argument: Sendable, Hashable {
    public var name: String
    public var value: ArgumentValue
    public init(name: String, value: ArgumentValue) {
        self.name = name
        self.value = value
    }
}

/// What JSON a scalar field may hold: built-in scalars never hold objects or lists, lists of
/// built-in scalars never hold objects, custom scalars hold anything (stored verbatim).
public enum ValueShape: Sendable, Hashable {
    case any, scalar, list
}

public struct ScalarField: Sendable, Hashable {
    public var alias: String?
    public var name: String
    /// Arguments sorted by name; literal `null` arguments already dropped.
    public var args: [Argument]
    /// The storage key when every argument is a literal (precomputed by the compiler).
    public var storageKey: String?
    public var shape: ValueShape
    /// `@deleteRecord` / `@deleteEdge` on this field (normalization only).
    public var mutationHandle: MutationHandle?
    /// A client schema extension's field (relay's `ClientExtension`): never sent; written when a
    /// payload has it (a local update, an optimistic response), left as it is when not; unset, it
    /// reads as null without making the data missing.
    public var isClientExtension: Bool
    /// `@required(action:)` (reader only): null makes the parent null.
    public var required: RequiredAction?
    /// `@catch(to:)` (reader only): the field reads as a result, or null on any field error.
    public var catchTo: CatchTo?
    public var responseKey: String { alias ?? name }

    public init(
        alias: String? = nil, name: String, args: [Argument] = [], storageKey: String? = nil, shape: ValueShape = .any,
        mutationHandle: MutationHandle? = nil, isClientExtension: Bool = false, required: RequiredAction? = nil,
        catchTo: CatchTo? = nil
    ) {
        self.required = required
        self.catchTo = catchTo
        self.isClientExtension = isClientExtension
        self.alias = alias
        self.name = name
        self.args = args
        self.storageKey = storageKey
        self.shape = shape
        self.mutationHandle = mutationHandle
    }
}

/// relay's declarative mutation directives: what publish does with a field's value besides
/// storing it (MutationHandlers.js).
public struct MutationHandle: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// Deletes the records whose IDs the field holds.
        case deleteRecord
        /// Removes the edges of those nodes from each connection named.
        case deleteEdge
        /// Adds the field's edge(s) at the end (start) of each connection named.
        case appendEdge, prependEdge
        /// Adds an edge of `edgeTypeName` for the field's node(s) at the end (start).
        case appendNode, prependNode
    }
    public var kind: Kind
    /// The connections' IDs (the directive's `connections` argument).
    public var connections: ArgumentValue?
    public var edgeTypeName: String?

    public init(kind: Kind, connections: ArgumentValue? = nil, edgeTypeName: String? = nil) {
        self.kind = kind
        self.connections = connections
        self.edgeTypeName = edgeTypeName
    }
}

public struct LinkedField: Sendable, Hashable {
    public var alias: String?
    public var name: String
    /// Arguments sorted by name; literal `null` arguments already dropped.
    public var args: [Argument]
    /// The storage key when every argument is a literal (precomputed by the compiler).
    public var storageKey: String?
    /// The field's type when it is an object type; `nil` when it is an interface or union
    /// (the record type then comes from the response's `__typename`).
    public var concreteType: String?
    public var plural: Bool
    public var selections: [Selection]
    /// `@connection` on this field. In normalization selections: after a publish the connection
    /// handler merges the server's page into the client connection record. In the reader's the
    /// field already reads that record (its name is the handle's); `fieldName` names the schema's.
    public var handle: ConnectionHandle?
    /// `@appendEdge`, `@prependEdge`, `@appendNode`, `@prependNode` on this field (normalization only).
    public var mutationHandle: MutationHandle?
    /// A client schema extension's field (see `ScalarField.isClientExtension`); what it links is
    /// read and kept by collection like any other record, and nothing under it makes data missing.
    public var isClientExtension: Bool
    /// `@required(action:)` (reader only): null (or null by bubbling) makes the parent null.
    public var required: RequiredAction?
    /// `@catch(to:)` (reader only).
    public var catchTo: CatchTo?
    public var responseKey: String { alias ?? name }

    public init(
        alias: String? = nil, name: String, args: [Argument] = [], storageKey: String? = nil,
        concreteType: String?, plural: Bool, selections: [Selection], handle: ConnectionHandle? = nil,
        mutationHandle: MutationHandle? = nil, isClientExtension: Bool = false, required: RequiredAction? = nil,
        catchTo: CatchTo? = nil
    ) {
        self.required = required
        self.catchTo = catchTo
        self.isClientExtension = isClientExtension
        self.mutationHandle = mutationHandle
        self.alias = alias
        self.name = name
        self.args = args
        self.storageKey = storageKey
        self.concreteType = concreteType
        self.plural = plural
        self.selections = selections
        self.handle = handle
    }
}

/// relay's connection handle (`@connection(key:, filters:)`): the client connection record is
/// kept under `__<key>_connection` with the filter arguments (all but the pagination ones when
/// `filters` is not given).
public struct ConnectionHandle: Sendable, Hashable {
    public var key: String
    public var filters: [String]?
    /// The schema field the handle stands for, on a reader field (whose name is the handle's).
    public var fieldName: String?

    public init(key: String, filters: [String]?, fieldName: String? = nil) {
        self.key = key
        self.filters = filters
        self.fieldName = fieldName
    }

    /// `__<key>_connection` (relay's getRelayHandleKey).
    package var handleName: String { "__\(key)_connection" }

    /// Arguments that never count as filters (relay's ConnectionInterface.isConnectionCall).
    package static let paginationArguments: Set<String> = ["first", "last", "after", "before", "find", "surrounds"]

    /// The field's arguments that name its connection: `filters`, or all but the pagination ones.
    func filterArguments(of args: [Argument]) -> [Argument] {
        args.filter { filters?.contains($0.name) ?? !Self.paginationArguments.contains($0.name) }
    }
}

/// `@include(if: $v)` (passingValue true) or `@skip(if: $v)` (passingValue false).
public struct Condition: Sendable, Hashable {
    public var variable: String
    public var passingValue: Bool
    public var selections: [Selection]
    public init(variable: String, passingValue: Bool, selections: [Selection]) {
        self.variable = variable
        self.passingValue = passingValue
        self.selections = selections
    }
}

/// `... on T { … }`. `abstractKey` is `__isT` when T is an interface or union, else `nil`.
public struct InlineFragment: Sendable, Hashable {
    public var type: String
    public var abstractKey: String?
    public var selections: [Selection]
    public init(type: String, abstractKey: String?, selections: [Selection]) {
        self.type = type
        self.abstractKey = abstractKey
        self.selections = selections
    }
}

/// relay's AliasedInlineFragmentSpread: `...F @alias(as: "name")` (its `selections` are that
/// spread) or `... on T @alias(as: "name") { … }`, read into an object of its own under `name`:
/// the selections when the record matches `type` (always when `nil`), `null` when it is known
/// not to, absent (and missing data) when an abstract type's implementations are unknown.
public struct AliasedInlineFragment: Sendable, Hashable {
    public var name: String
    public var type: String?
    /// `__isT` when `type` is an interface or union.
    public var abstractKey: String?
    public var selections: [Selection]
    /// `@catch(to:)` on the aliased inline fragment.
    public var catchTo: CatchTo?
    public init(name: String, type: String?, abstractKey: String?, selections: [Selection], catchTo: CatchTo? = nil) {
        self.catchTo = catchTo
        self.name = name
        self.type = type
        self.abstractKey = abstractKey
        self.selections = selections
    }
}

/// A masked spread in a reader AST. Never appears in a normalization AST (spreads are inlined there).
public struct FragmentSpread: Sendable, Hashable {
    public var name: String
    /// `@arguments(...)` of the spread, sorted by name.
    public var args: [Argument]
    /// Set when the fragment is `@inline` (relay's `InlineDataFragmentSpread`): the reader then
    /// reads these selections eagerly into `__fragments[name]` instead of leaving a pointer.
    public var inlineData: InlineDataFragment?
    public init(name: String, args: [Argument] = [], inlineData: InlineDataFragment? = nil) {
        self.name = name
        self.args = args
        self.inlineData = inlineData
    }
}

/// What an `@inline` fragment's spread carries so its data can be read with the parent (relay's
/// `InlineDataFragmentSpread.argumentDefinitions` / `.selections`).
public struct InlineDataFragment: Sendable, Hashable {
    /// The fragment's `@argumentDefinitions` (as variable definitions with their defaults).
    public var argumentDefinitions: [VariableDefinition]
    public var selections: [Selection]
    public init(argumentDefinitions: [VariableDefinition] = [], selections: [Selection]) {
        self.argumentDefinitions = argumentDefinitions
        self.selections = selections
    }

    /// relay's `getFragmentVariables` for a spread: the reader's `variables`, with each of the
    /// fragment's arguments set to the spread's `@arguments` value resolved against them (an
    /// unset variable is `null`, as relay keeps the passed `undefined`), else to its default
    /// (`null` without one) — the values normalization inlined the fragment with. A parent
    /// fragment's same-named local never leaks in: every declared argument is bound here.
    func variables(args: [Argument], parent variables: Variables) -> Variables {
        var result = variables
        for definition in argumentDefinitions {
            if let passed = args.first(where: { $0.name == definition.name }) {
                result[definition.name] = passed.value.resolve(variables) ?? .null
            } else {
                result[definition.name] = definition.defaultValue ?? .null
            }
        }
        return result
    }
}

/// A node of a normalization or reader AST (relay-runtime's ConcreteNormalizationSelection /
/// ReaderSelection, merged: normalization ASTs hold no `fragmentSpread`, reader ASTs no
/// `typeDiscriminator`).
public indirect enum Selection: Sendable, Hashable {
    case scalarField(ScalarField)
    case linkedField(LinkedField)
    case condition(Condition)
    case inlineFragment(InlineFragment)
    /// An abstract fragment flattened into a field of the same abstract type: only records
    /// `client:__type:<T>.__isX` on the type record; its selections were already merged.
    case typeDiscriminator(abstractKey: String)
    case fragmentSpread(FragmentSpread)
    /// relay's `@alias` on a spread or inline fragment. Reader ASTs only: normalization ASTs hold
    /// what it wraps.
    case aliasedInlineFragment(AliasedInlineFragment)
}

public struct VariableDefinition: Sendable, Hashable {
    public var name: String
    /// The GraphQL type as written, e.g. `Int!`, `[ID!]`.
    public var type: String
    public var defaultValue: JSONValue?
    public init(name: String, type: String, defaultValue: JSONValue? = nil) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
    }
}

public enum OperationKind: String, Sendable, Hashable {
    case query, mutation, subscription
}

/// An operation: what to normalize a response with, and its own (masked) reader selection.
public struct OperationArtifact: Sendable, Hashable {
    public var name: String
    public var kind: OperationKind
    public var variables: [VariableDefinition]
    /// Fragments inlined; `id`, `__typename`, `__isX` added; same-type fragments flattened.
    public var normalization: [Selection]
    /// What the author wrote, spreads kept as spreads.
    public var reader: [Selection]
    /// The query text sent to the server (with the added fields and the fragments it spreads).
    public var text: String
    /// relay's provided variables: each variable (`__relay_internal__pv__<Module>`) and the name
    /// of the provider (``ProvidedVariables``) whose value it always takes.
    public var providedVariables: [String: String]
    /// `@throwOnFieldError`: a field error or missing data in its own selection makes a read throw.
    public var throwOnFieldError: Bool
    /// `@catch(to:)` on the operation: its data reads as a result, or null.
    public var catchTo: CatchTo?

    public init(
        name: String, kind: OperationKind, variables: [VariableDefinition],
        normalization: [Selection], reader: [Selection], text: String, providedVariables: [String: String] = [:],
        throwOnFieldError: Bool = false, catchTo: CatchTo? = nil
    ) {
        self.throwOnFieldError = throwOnFieldError
        self.catchTo = catchTo
        self.providedVariables = providedVariables
        self.name = name
        self.kind = kind
        self.variables = variables
        self.normalization = normalization
        self.reader = reader
        self.text = text
    }
}

public struct FragmentArtifact: Sendable, Hashable {
    public var name: String
    public var typeCondition: String
    /// `__isT` when the type condition is abstract.
    public var abstractKey: String?
    /// `@argumentDefinitions` (as variable definitions with their defaults).
    public var argumentDefinitions: [VariableDefinition]
    public var plural: Bool
    public var selections: [Selection]
    /// `@throwOnFieldError` on the fragment.
    public var throwOnFieldError: Bool
    /// `@catch(to:)` on the fragment.
    public var catchTo: CatchTo?

    public init(
        name: String, typeCondition: String, abstractKey: String?,
        argumentDefinitions: [VariableDefinition] = [], plural: Bool = false, selections: [Selection],
        throwOnFieldError: Bool = false, catchTo: CatchTo? = nil
    ) {
        self.throwOnFieldError = throwOnFieldError
        self.catchTo = catchTo
        self.name = name
        self.typeCondition = typeCondition
        self.abstractKey = abstractKey
        self.argumentDefinitions = argumentDefinitions
        self.plural = plural
        self.selections = selections
    }
}

/// Everything compiled from a set of documents against one schema.
public struct CompiledDocuments: Sendable {
    public var operations: [String: OperationArtifact]
    public var fragments: [String: FragmentArtifact]
    public init(operations: [String: OperationArtifact] = [:], fragments: [String: FragmentArtifact] = [:]) {
        self.operations = operations
        self.fragments = fragments
    }
}
