// An operation's variable definitions → a `Variables` struct of typed properties and the operation's
// convenience initializer (nil stays undefined, so defaults apply); @refetchable's variable mapping.
import RelayArena

struct VariablesEmitter {
    let schema: SchemaModel
    /// Input objects become their generated structs; `false` keeps them `JSONValue` (fragment
    /// `@argumentDefinitions`, whose defaults are JSON literals).
    var typedInputs = true
    private(set) var enumsUsed: Set<String> = []
    private(set) var inputsUsed: Set<String> = []
    private(set) var convenienceInit = ""
    /// The operation's variables as Swift parameters, in declaration order.
    private(set) var params: [Parameter] = []

    struct Parameter {
        /// The GraphQL name, the Swift identifier, the Swift type (`T?` unless required).
        var graphQLName: String
        var name: String
        var type: String
        var required: Bool
    }

    init(schema: SchemaModel) { self.schema = schema }

    mutating func emit(_ definitions: [VariableDefinition]) -> String {
        // Provided variables take their provider's value: nothing to pass.
        let definitions = definitions.filter { !$0.name.hasPrefix(providedVariablePrefix) }
        // A variable with a default may be omitted even when non-null, so it is optional here.
        params = definitions.map { d in
            let type = TypeRef(parsing: Substring(d.type))
            let required = type.isNonNull && d.defaultValue == nil
            let swift = swiftType(type.nullable)
            return Parameter(
                graphQLName: d.name, name: SwiftName.identifier(d.name), type: required ? swift : swift + "?",
                required: required)
        }
        let signature = params.map { "\($0.name): \($0.type)\($0.required ? "" : " = nil")" }.joined(separator: ", ")
        let arguments = params.map { "\($0.name): \($0.name)" }.joined(separator: ", ")
        convenienceInit = "    public init(\(signature)) { self.init(variables: Variables(\(arguments))) }\n"

        var out = "    public struct Variables: OperationVariables {\n"
        for p in params { out += "        public var \(p.name): \(p.type)\n" }
        out += "\n        public init(\(signature)) {\n"
        for p in params { out += "            self.\(p.name) = \(p.name)\n" }
        out += "        }\n\n"
        if definitions.isEmpty {
            out += "        public var asJSON: RelayArena.Variables { [:] }\n    }\n"
            return out
        }
        out += "        public var asJSON: RelayArena.Variables {\n"
        out += "            var json: RelayArena.Variables = [:]\n"
        for (d, p) in zip(definitions, params) {
            out += "            json.set(\(SwiftName.literal(d.name)), \(p.name))\n"
        }
        out += "            return json\n        }\n    }\n"
        return out
    }

    /// Input objects are their generated structs (`typedInputs`); custom scalars are `JSONValue`.
    mutating func swiftType(_ type: TypeRef) -> String {
        switch type {
        case .nonNull(let inner): return swiftType(inner)
        case .list(let item): return "[" + swiftType(item.nullable) + (item.isNonNull ? "" : "?") + "]"
        case .named(let n):
            switch schema.leafKind(n) {
            case .string: return "String"
            case .int: return "Int"
            case .double: return "Double"
            case .bool: return "Bool"
            case .enumeration(let e):
                enumsUsed.insert(e)
                return e
            case .mapped(let swift): return swift
            case .custom:
                guard typedInputs, schema.isInputObject(n) else { return "JSONValue" }
                inputsUsed.insert(n)
                return n
            }
        }
    }
}

/// An input object type → `public struct T: GraphQLInputObject`: a property per field (optional
/// when the field is nullable or has a default, as relay's input types), an initializer whose
/// optional parameters default to `nil` (left out of the JSON, so the server's default applies),
/// `jsonValue` in the schema's field order, and `_fromJSON` to read one back from variables.
enum InputObjectEmitter {
    static func declaration(_ name: String, types: inout VariablesEmitter) -> String {
        struct Member {
            var graphQLName, name, type: String
            var optional: Bool
        }
        let members = types.schema.inputFields(name).map { field -> Member in
            let required = field.type.isNonNull && !field.hasDefault
            let swift = types.swiftType(field.type.nullable)
            return Member(
                graphQLName: field.name, name: SwiftName.identifier(field.name), type: required ? swift : swift + "?",
                optional: !required)
        }
        let signature = members.map { "\($0.name): \($0.type)\($0.optional ? " = nil" : "")" }.joined(separator: ", ")
        var out = "public struct \(name): GraphQLInputObject {\n"
        for m in members { out += "    public var \(m.name): \(m.type)\n" }
        out += "\n    public init(\(signature)) {\n"
        for m in members { out += "        self.\(m.name) = \(m.name)\n" }
        out += "    }\n\n    public var jsonValue: JSONValue {\n        var members: [JSONMember] = []\n"
        for m in members {
            let literal = SwiftName.literal(m.graphQLName)
            out +=
                m.optional
                ? "        if let \(m.name) = self.\(m.name) { members.append(JSONMember(\(literal), \(m.name).jsonValue)) }\n"
                : "        members.append(JSONMember(\(literal), \(m.name).jsonValue))\n"
        }
        out += "        return .object(members)\n    }\n\n"
        out += "    /// From variables: `nil` when it is not an object or a required field is absent.\n"
        out += "    public static func _fromJSON(_ value: JSONValue) -> \(name)? {\n"
        out += "        guard case .object(let members) = value else { return nil }\n"
        for m in members where !m.optional {
            out +=
                "        guard let \(m.name): \(m.type) = members._field(\(SwiftName.literal(m.graphQLName))) else { return nil }\n"
        }
        for m in members where m.optional {
            out += "        let \(m.name): \(m.type) = members._field(\(SwiftName.literal(m.graphQLName)))\n"
        }
        out += "        return \(name)(\(members.map { "\($0.name): \($0.name)" }.joined(separator: ", ")))\n    }\n}\n"
        return out
    }
}

/// A fragment's `@argumentDefinitions` → `extension F: FragmentWithArguments` with a typed
/// `Arguments` struct: properties follow the schema types (optional when nullable), the
/// initializer's parameters default to the definitions' defaults (else `nil`; non-null ones
/// without a default are required), and `init(variables:)` reads them back from a read's variables.
enum ArgumentsEmitter {
    static func conformance(fragment: String, definitions: [VariableDefinition], types: inout VariablesEmitter)
        -> String
    {
        struct Param {
            var graphQLName, name, type: String
            var optional: Bool
            var defaultLiteral: String?
        }
        let params = definitions.map { d -> Param in
            let type = TypeRef(parsing: Substring(d.type))
            let swift = types.swiftType(type.nullable)
            let literal = d.defaultValue.map { literalValue($0, type: type, types: &types) }
            return Param(
                graphQLName: d.name, name: SwiftName.identifier(d.name), type: type.isNonNull ? swift : swift + "?",
                optional: !type.isNonNull, defaultLiteral: literal)
        }
        let signature = params.map { p in
            "\(p.name): \(p.type)" + (p.defaultLiteral.map { " = \($0)" } ?? (p.optional ? " = nil" : ""))
        }.joined(separator: ", ")
        var out = "extension \(fragment): FragmentWithArguments {\n"
        out += "    /// `@argumentDefinitions` of \(fragment), typed (the initializer applies their defaults).\n"
        out += "    public struct Arguments: FragmentArguments {\n"
        for p in params { out += "        public var \(p.name): \(p.type)\n" }
        out += "\n        public init(\(signature)) {\n"
        for p in params { out += "            self.\(p.name) = \(p.name)\n" }
        out += "        }\n\n"
        out +=
            "        /// From a read's variables (`pointer.effectiveVariables`); a missing non-null value reads as its default.\n"
        out += "        public init(variables: RelayArena.Variables) {\n"
        for (d, p) in zip(definitions, params) {
            let read = "variables.value(\(SwiftName.literal(d.name)))"
            if p.optional {
                out += "            self.\(p.name) = \(read)\n"
            } else {
                let fallback =
                    p.defaultLiteral ?? zeroValue(TypeRef(parsing: Substring(d.type)).nullable, types: &types)
                out += "            self.\(p.name) = \(read) ?? \(fallback)\n"
            }
        }
        out += "        }\n\n"
        out += "        /// What a pointer carries: every argument, `nil` as an explicit null.\n"
        out += "        public var asJSON: RelayArena.Variables {\n"
        out += "            var json: RelayArena.Variables = [:]\n"
        for p in params { out += "            json[\(SwiftName.literal(p.graphQLName))] = \(p.name).jsonValue\n" }
        out += "            return json\n        }\n    }\n}\n"
        return out
    }

    /// A GraphQL default value as a Swift expression of the property's type.
    static func literalValue(_ value: JSONValue, type: TypeRef, types: inout VariablesEmitter) -> String {
        if case .null = value { return "nil" }
        switch type {
        case .nonNull(let inner): return literalValue(value, type: inner, types: &types)
        case .list(let item):
            // Input coercion: a single value where a list is expected is a list of one.
            let items: [JSONValue] = if case .array(let a) = value { a } else { [value] }
            return "[" + items.map { literalValue($0, type: item, types: &types) }.joined(separator: ", ") + "]"
        case .named(let n):
            switch (types.schema.leafKind(n), value) {
            case (.string, .string(let s)): return SwiftName.literal(s)
            case (.string, .int(let i)): return SwiftName.literal("\(i)")
            case (.int, .int(let i)): return "\(i)"
            case (.double, .int(let i)): return "\(i).0"
            case (.double, .double(let d)) where d.isFinite: return "\(d)"
            case (.bool, .bool(let b)): return "\(b)"
            case (.enumeration(let e), .string(let s)):
                return types.schema.enumValues(e).contains(s)
                    ? "\(e).\(SwiftName.enumCase(s))" : "\(e)(rawValue: \(SwiftName.literal(s)))"
            case (.custom, _): return "JSONValue\(SwiftArtifactLiteral.json(value))"
            case (.mapped(let swift), _):
                return "(\(swift)._fromJSON(JSONValue\(SwiftArtifactLiteral.json(value))) ?? \(swift).missingValue)"
            default:
                // Not a value of the declared type (validation rejects these): the type's zero value.
                return zeroValue(type, types: &types)
            }
        }
    }

    /// What a non-null argument without a usable value reads as (as a non-null field would).
    static func zeroValue(_ type: TypeRef, types: inout VariablesEmitter) -> String {
        switch type {
        case .nonNull(let inner): return zeroValue(inner, types: &types)
        case .list: return "[]"
        case .named(let n):
            switch types.schema.leafKind(n) {
            case .string: return "\"\""
            case .int, .double: return "0"
            case .bool: return "false"
            case .enumeration: return ".__unknown(\"\")"
            case .custom: return ".null"
            case .mapped(let swift): return "\(swift).missingValue"
            }
        }
    }
}

/// The `RefetchableFragment` conformance generated beside a `@refetchable` fragment: its query
/// type, relay's metadata, and typed `refetchQuery(for:)` from a pointer or a view.
enum RefetchEmitter {
    /// `parameters` are the refetch query's variables as its generated initializer takes them.
    /// The identifier variable takes the pointer's data ID; the others the fragment's current
    /// values (`pointer.effectiveVariables`), except required ones without a default, which the
    /// caller passes (a fragment cannot read them back as typed values if they were never set).
    static func conformance(fragment: String, metadata: RefetchMetadata, parameters: [VariablesEmitter.Parameter])
        -> String
    {
        let query = metadata.operation
        var extra: [VariablesEmitter.Parameter] = []
        var arguments: [String] = []
        var usesCurrent = false
        // A `@fetchable` type's identifier is a field of its record, which a pointer does not
        // hold: the pointer's overload takes it, the view's reads it.
        var identifierParameter: VariablesEmitter.Parameter?
        for p in parameters {
            if p.graphQLName == metadata.identifierField, metadata.identifierSource != nil {
                identifierParameter = p
                arguments.append("\(p.name): \(p.name)")
            } else if p.graphQLName == metadata.identifierField {
                arguments.append("\(p.name): pointer.dataID")
            } else if p.required {
                extra.append(p)
                arguments.append("\(p.name): \(p.name)")
            } else {
                usesCurrent = true
                arguments.append("\(p.name): current.value(\(SwiftName.literal(p.graphQLName)))")
            }
        }
        let extraSignature = extra.map { ", \($0.name): \($0.type)" }.joined()
        let extraArguments = extra.map { ", \($0.name): \($0.name)" }.joined()
        let identifierSignature = identifierParameter.map { ", \($0.name): \($0.type)" } ?? ""
        let identifierArgument =
            identifierParameter.map {
                ", \($0.name): refetchVariables(for: data).value(\(SwiftName.literal($0.graphQLName)), as: String.self) ?? \"\""
            } ?? ""
        let path = "[" + metadata.fragmentPathInResult.map(SwiftName.literal).joined(separator: ", ") + "]"
        let identifier = metadata.identifierField.map(SwiftName.literal) ?? "nil"
        let source = metadata.identifierSource.map { ", identifierSource: \(SwiftName.literal($0))" } ?? ""

        var out = "extension \(fragment): RefetchableFragment {\n"
        out += "    public typealias RefetchQuery = \(query)\n"
        out += "    public static let refetchMetadata = RefetchMetadata(\n"
        var connection = ""
        if let c = metadata.connection {
            func page(_ p: PageVariables?) -> String {
                p.map {
                    "PageVariables(count: \(SwiftName.literal($0.count)), cursor: \(SwiftName.literal($0.cursor)))"
                } ?? "nil"
            }
            let cPath = "[" + c.path.map(SwiftName.literal).joined(separator: ", ") + "]"
            connection =
                ",\n        connection: ConnectionMetadata(path: \(cPath), forward: \(page(c.forward)), backward: \(page(c.backward)))"
        }
        out +=
            "        operation: \(SwiftName.literal(query)), fragmentPathInResult: \(path), identifierField: \(identifier)\(source)\(connection))\n\n"
        out += "    /// The refetch query for the fragment at `pointer`"
        if let field = metadata.identifierField {
            out +=
                metadata.identifierSource.map {
                    " (`\(field)` is its record's `\($0)`, which the pointer does not hold).\n"
                }
                ?? " (`\(field)` is its record's data ID).\n"
        } else {
            out += ".\n"
        }
        out +=
            "    public static func refetchQuery(for pointer: FragmentPointer<\(fragment)>\(identifierSignature)\(extraSignature)) -> \(query) {\n"
        if usesCurrent { out += "        let current = pointer.effectiveVariables\n" }
        out += "        return \(query)(\(arguments.joined(separator: ", ")))\n"
        out += "    }\n\n"
        out += "    /// The refetch query for the fragment this view was read from.\n"
        out += "    public static func refetchQuery(for data: Data\(extraSignature)) -> \(query) {\n"
        out +=
            "        refetchQuery(for: data.__view.pointer(to: \(fragment).self)\(identifierArgument)\(extraArguments))\n"
        out += "    }\n}\n"
        return out
    }
}
