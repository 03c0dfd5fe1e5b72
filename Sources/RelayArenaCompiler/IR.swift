// The compiler's intermediate representation: selections with their schema types resolved, before
// they become artifact `Selection`s. Transforms (inline, flatten, generate fields) run on this.
import RelayArena

/// An argument value as written. Unlike `ArgumentValue`, enums stay distinct from strings and numbers
/// keep their source spelling, so the query text can be printed back faithfully.
indirect enum IRValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(String)
    case float(String)
    case string(String)
    case enumValue(String)
    case list([IRValue])
    case object([IRObjectMember])
    case variable(String)

    /// Whether a variable occurs anywhere inside (such values get no precomputed storage key).
    var containsVariable: Bool {
        switch self {
        case .variable: return true
        case .list(let items): return items.contains { $0.containsVariable }
        case .object(let members): return members.contains { $0.value.containsVariable }
        default: return false
        }
    }

    /// Replaces variables the map knows (fragment-local arguments); others are global and stay.
    func substituting(_ map: [String: IRValue]) -> IRValue {
        switch self {
        case .variable(let name): return map[name] ?? self
        case .list(let items): return .list(items.map { $0.substituting(map) })
        case .object(let members):
            return .object(members.map { IRObjectMember(key: $0.key, value: $0.value.substituting(map)) })
        default: return self
        }
    }
}

struct IRObjectMember: Hashable, Sendable {
    var key: String
    var value: IRValue
}

struct IRArgument: Hashable, Sendable {
    var name: String
    var value: IRValue
}

struct IRField: Hashable, Sendable {
    var alias: String?
    var name: String
    /// Sorted by name (code-unit order), as written (literal nulls are dropped only at emission,
    /// because fragment-argument substitution can still produce them).
    var args: [IRArgument]
    /// The named output type (lists and non-null unwrapped).
    var typeName: String
    var plural: Bool
    /// Leaf fields of a custom scalar type (their values may be any JSON).
    var isCustomScalar: Bool = false
    /// A client schema extension's field: kept out of the request's text.
    var isClient: Bool = false
    /// `nil` for scalar (leaf) fields.
    var selections: [IRSelection]?
    /// Where the field was written (`nil` for generated fields); only for error messages.
    var position: IRPosition? = nil
    /// `@connection(key:, filters:)` on this field.
    var connection: IRConnection? = nil
    /// `@deleteRecord`, `@deleteEdge`, `@appendEdge`, … on this field.
    var mutationHandle: IRMutationHandle? = nil
    /// `@required(action:)` and `@catch(to:)` (the reader's; neither changes the request).
    var required: RequiredAction? = nil
    var catchTo: CatchTo? = nil

    var responseKey: String { alias ?? name }
    var isLinked: Bool { selections != nil }

    /// Two fields with this same key are the same selection and merge (relay's flatten identity).
    var mergeKey: IRFieldKey { IRFieldKey(responseKey: responseKey, name: name, args: args) }
}

struct IRMutationHandle: Hashable, Sendable {
    var kind: String
    var connections: IRValue?
    var edgeTypeName: String?
}

struct IRConnection: Hashable, Sendable {
    var key: String
    var filters: [String]?
}

struct IRPosition: Hashable, Sendable {
    var file: String
    var line: Int
    var column: Int
}

struct IRFieldKey: Hashable {
    var responseKey: String
    var name: String
    var args: [IRArgument]
}

indirect enum IRSelection: Hashable, Sendable {
    case field(IRField)
    /// The type condition is always explicit: a missing one is resolved to the parent type when
    /// lowering, so flatten can treat both the same way.
    case inlineFragment(type: String, selections: [IRSelection])
    case condition(variable: String, passingValue: Bool, selections: [IRSelection])
    case spread(name: String, args: [IRArgument])
    case typeDiscriminator(abstractKey: String)
    /// relay's `@alias`: a spread or inline fragment read into its own member.
    case aliased(IRAlias)
}

/// `...F @alias(as: "a")` or `... on T @alias(as: "a") { … }` (relay's FragmentAliasMetadata).
/// Only the reader sees it: normalization and the request's text see `unaliased`.
struct IRAlias: Hashable, Sendable {
    var name: String
    /// The type condition: the fragment's for a spread, `nil` for `... @alias(as:) { … }`.
    var type: String?
    /// A spread (`selections` is that one spread) rather than an inline fragment.
    var wrapsSpread: Bool
    var selections: [IRSelection]
    /// `@catch(to:)` on the aliased inline fragment.
    var catchTo: CatchTo? = nil

    /// relay's `remove_aliased_inline_fragments`: the spread, a plain inline fragment on the
    /// type, or (without one) the selections themselves.
    var unaliased: [IRSelection] {
        guard let type, !wrapsSpread else { return selections }
        return [.inlineFragment(type: type, selections: selections)]
    }
}

/// One lowered fragment definition, kept around for inlining and for its own artifact.
struct IRFragment: Sendable {
    var name: String
    var typeCondition: String
    var argumentDefinitions: [IRArgumentDefinition]
    /// Its provided variables, under their operation-level names (`providedVariableName`).
    var providedVariables: [IRArgumentDefinition] = []
    var plural: Bool
    /// `@inline`: spreads of it are read eagerly (relay's inline data fragments).
    var inline: Bool = false
    var selections: [IRSelection]
    /// Where the definition was written; only for error messages.
    var position: IRPosition? = nil
    /// `@throwOnFieldError` and `@catch(to:)` on the definition.
    var throwOnFieldError = false
    var catchTo: CatchTo? = nil
}

/// A server directive on an operation (`@inContext(country: $country)`), arguments as written.
struct IRDirective: Hashable, Sendable {
    var name: String
    var args: [IRArgument]
}

/// One `@argumentDefinitions` entry or operation variable.
struct IRArgumentDefinition: Sendable {
    var name: String
    var type: String
    var defaultValue: IRValue?
    /// relay's provided variable (`provider: "Module"`): its value comes from the provider.
    var provider: String? = nil
}

let providedVariablePrefix = "__relay_internal__pv__"

/// relay's operation-level name for a provided variable: `__relay_internal__pv__` and the module
/// name kept only of ASCII letters, digits and `_`.
func providedVariableName(_ provider: String) -> String {
    let kept = provider.unicodeScalars.filter { scalar in
        switch scalar.value {
        case 48...57, 65...90, 97...122, 95: return true
        default: return false
        }
    }
    return providedVariablePrefix + String(String.UnicodeScalarView(kept))
}

/// Sorting helper: relay sorts argument names and object keys by UTF-16 code units (JS order).
func codeUnitLess(_ a: String, _ b: String) -> Bool {
    a.utf16.lexicographicallyPrecedes(b.utf16)
}
