// Schema types as the generator needs them (with nullability, which the artifacts drop) and the
// Swift spellings of names: type names, property names, enum cases, string literals.
import GraphQL

/// An output or input type with its wrappers, outermost first.
indirect enum TypeRef: Equatable {
    case named(String)
    case list(TypeRef)
    case nonNull(TypeRef)

    init(_ type: GraphQLType) {
        if let nonNull = type as? GraphQLNonNull {
            self = .nonNull(TypeRef(nonNull.ofType))
        } else if let list = type as? GraphQLList {
            self = .list(TypeRef(list.ofType))
        } else {
            self = .named((type as? GraphQLNamedType)?.name ?? "")
        }
    }

    /// Parses a written type such as `[ID!]!` (variable definitions keep them as text).
    init(parsing text: Substring) {
        if text.hasSuffix("!") {
            self = .nonNull(TypeRef(parsing: text.dropLast()))
        } else if text.hasPrefix("["), text.hasSuffix("]") {
            self = .list(TypeRef(parsing: text.dropFirst().dropLast()))
        } else {
            self = .named(String(text))
        }
    }

    var isNonNull: Bool { if case .nonNull = self { true } else { false } }

    /// Non-null at each of `levels` (0 this type, 1 its items, …), as `@semanticNonNull` declares.
    func semanticallyNonNull(_ levels: Set<Int>, level: Int = 0) -> TypeRef {
        var inner = nullable
        if case .list(let item) = inner { inner = .list(item.semanticallyNonNull(levels, level: level + 1)) }
        return isNonNull || levels.contains(level) ? .nonNull(inner) : inner
    }
    var nullable: TypeRef { if case .nonNull(let inner) = self { inner } else { self } }
    var namedType: String {
        switch self {
        case .named(let n): n
        case .list(let t), .nonNull(let t): t.namedType
        }
    }
}

/// What kind of leaf a named type is, for choosing the Swift type and the accessor.
enum LeafKind: Equatable {
    case string, int, double, bool
    case enumeration(String)
    /// A custom scalar the configuration maps to a Swift type of the user's (a `GraphQLCustomScalar`).
    case mapped(String)
    case custom
}

extension SchemaModel {
    /// The declared type of `field` on `parentType` (`__typename` is `String!` everywhere); with
    /// `semantic`, its `@semanticNonNull` levels non-null (where relay's typegen makes them so).
    func fieldType(_ field: String, on parentType: String, semantic: Bool = false) -> TypeRef? {
        if field == "__typename" { return .nonNull(.named("String")) }
        if field == "__id" { return .nonNull(.named("ID")) }
        let type = schema.getType(name: parentType)
        let map: GraphQLFieldMap?
        if let object = type as? GraphQLObjectType {
            map = try? object.fields()
        } else if let interface = type as? GraphQLInterfaceType {
            map = try? interface.fields()
        } else {
            map = nil
        }
        guard let definition = map?[field] else { return nil }
        let declared = TypeRef(definition.type)
        guard semantic, let levels = Self.semanticNonNullLevels(definition) else { return declared }
        return declared.semanticallyNonNull(levels)
    }

    /// `@semanticNonNull(levels: [Int] = [0])` on a field's definition: the levels (0 the field,
    /// 1 its items, …) that are null only on an error.
    private static func semanticNonNullLevels(_ field: GraphQLField) -> Set<Int>? {
        guard let directive = field.astNode?.directives.first(where: { $0.name.value == "semanticNonNull" })
        else { return nil }
        guard let argument = directive.arguments.first(where: { $0.name.value == "levels" }) else { return [0] }
        let values = (argument.value as? ListValue)?.values ?? [argument.value]
        return Set(values.compactMap { ($0 as? IntValue).flatMap { Int($0.value) } })
    }

    func leafKind(_ named: String) -> LeafKind {
        switch named {
        case "String", "ID": return .string
        case "Int": return .int
        case "Float": return .double
        case "Boolean": return .bool
        default:
            if schema.getType(name: named) is GraphQLEnumType { return .enumeration(named) }
            // A custom scalar mapped to a Swift type: the built-in ones read and write as themselves.
            if schema.getType(name: named) is GraphQLScalarType, let swift = customScalarTypes[named] {
                switch swift {
                case "String": return .string
                case "Int": return .int
                case "Double": return .double
                case "Bool": return .bool
                case "JSONValue": return .custom
                default: return .mapped(swift)
                }
            }
            return .custom
        }
    }

    func isInputObject(_ named: String) -> Bool { schema.getType(name: named) is GraphQLInputObjectType }

    /// An input object's fields in the schema's order, with their types and whether they have a
    /// default value.
    func inputFields(_ named: String) -> [(name: String, type: TypeRef, hasDefault: Bool)] {
        guard let object = schema.getType(name: named) as? GraphQLInputObjectType, let fields = try? object.fields()
        else { return [] }
        return fields.map { (name: $0.key, type: TypeRef($0.value.type), hasDefault: $0.value.defaultValue != nil) }
    }

    func enumValues(_ named: String) -> [String] {
        (schema.getType(name: named) as? GraphQLEnumType)?.values.map(\.name) ?? []
    }
}

enum SwiftName {
    static let keywords: Set<String> = [
        "any", "as", "associatedtype", "break", "case", "catch", "class", "continue", "default", "defer",
        "deinit", "do", "else", "enum", "extension", "fallthrough", "false", "fileprivate", "for", "func",
        "guard", "if", "import", "in", "init", "inout", "internal", "is", "let", "nil", "operator",
        "private", "protocol", "public", "repeat", "rethrows", "return", "self", "Self", "some", "static",
        "struct", "subscript", "super", "switch", "throw", "throws", "true", "try", "typealias", "var",
        "where", "while",
    ]

    /// A property or case name, backquoted when it is a keyword.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// A nested type name from a response key: `todos` → `Todos`. `Type` and `Self` cannot name
    /// a member type, so they get a trailing underscore.
    static func typeName(_ responseKey: String) -> String {
        let name = responseKey.prefix(1).uppercased() + responseKey.dropFirst()
        return ["Type", "Self", "Protocol", "Any"].contains(name) ? name + "_" : name
    }

    /// An enum case from a GraphQL value: `CREATED_AT` → `createdAt`, `NEWHOPE` → `newhope`.
    static func enumCase(_ value: String) -> String {
        let parts = value.split(separator: "_", omittingEmptySubsequences: true)
        guard let first = parts.first else { return identifier(value) }
        let isAllCaps = value == value.uppercased()
        let head = isAllCaps ? first.lowercased() : first.prefix(1).lowercased() + first.dropFirst()
        let tail = parts.dropFirst().map { part in
            let p = isAllCaps ? part.lowercased() : String(part)
            return p.prefix(1).uppercased() + p.dropFirst()
        }
        return identifier(head + tail.joined())
    }

    /// A Swift string literal (one line; interpolation and control characters escaped).
    static func literal(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
