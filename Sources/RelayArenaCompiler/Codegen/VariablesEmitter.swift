// An operation's variable definitions → a `Variables` struct of typed properties and the
// operation's convenience initializer. Absent (nil) variables stay undefined, so defaults apply.
import RelayArena

struct VariablesEmitter {
    let schema: SchemaModel
    private(set) var enumsUsed: Set<String> = []
    private(set) var convenienceInit = ""

    init(schema: SchemaModel) { self.schema = schema }

    mutating func emit(_ definitions: [VariableDefinition]) -> String {
        // A variable with a default may be omitted even when non-null, so it is optional here.
        let params = definitions.map { d -> (name: String, type: String, required: Bool) in
            let type = TypeRef(parsing: Substring(d.type))
            let required = type.isNonNull && d.defaultValue == nil
            let swift = swiftType(type.nullable)
            return (SwiftName.identifier(d.name), required ? swift : swift + "?", required)
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
        for (d, p) in zip(definitions, params) { out += "            json.set(\(SwiftName.literal(d.name)), \(p.name))\n" }
        out += "            return json\n        }\n    }\n"
        return out
    }

    /// Input objects and custom scalars are `JSONValue` in this first slice.
    private mutating func swiftType(_ type: TypeRef) -> String {
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
            case .custom: return "JSONValue"
            }
        }
    }
}
