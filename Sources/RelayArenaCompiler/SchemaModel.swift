// Schema questions the transforms ask (is this type abstract, does it have an `id: ID`, which
// objects implement Node), precomputed once from GraphQLSwift's schema into plain Sendable values.
import GraphQL

/// What lowering needs to know about one field of a composite type.
struct FieldShape: Sendable {
    var typeName: String
    var plural: Bool
    var isLeaf: Bool
    /// A custom scalar may hold any JSON (objects included); built-in scalars and enums may not.
    var isCustomScalar: Bool = false
    /// Defined by a client schema extension: stored and read, never sent.
    var isClient: Bool = false
}

private let builtInScalars: Set<String> = ["Int", "Float", "String", "Boolean", "ID"]

struct SchemaModel: Sendable {
    let schema: GraphQLSchema
    private var fields: [String: [String: FieldShape]] = [:]
    private var abstractTypes: Set<String> = []
    private var objectTypes: Set<String> = []
    /// Object and interface types with a field `id` of type `ID` or `ID!` (relay's criterion).
    private var typesWithID: Set<String> = []
    /// Abstract type → possible object types, sorted by name.
    private var possibleTypes: [String: [String]] = [:]
    private var nodeImplementations: Set<String> = []
    /// The schema's `Node` interface, if it has one (relay looks it up by that name).
    private(set) var nodeInterfaceName: String?
    /// Whether that interface has the `id` field relay's Node refetch query selects.
    private(set) var nodeHasIDField = false
    /// For the Swift generator: custom scalars by name → the Swift type their values take
    /// (`JSONValue` for those not named).
    var customScalarTypes: [String: String] = [:]

    init(schema: GraphQLSchema, clientFields: Set<String> = []) throws {
        self.schema = schema
        if schema.getType(name: "Node") is GraphQLInterfaceType { nodeInterfaceName = "Node" }
        for (name, type) in schema.typeMap where !name.hasPrefix("__") {
            switch type {
            case let object as GraphQLObjectType:
                objectTypes.insert(name)
                record(name, try object.fields(), clientFields: clientFields)
                if try object.interfaces().contains(where: { $0.name == "Node" }), nodeInterfaceName != nil {
                    nodeImplementations.insert(name)
                }
            case let interface as GraphQLInterfaceType:
                abstractTypes.insert(name)
                record(name, try interface.fields(), clientFields: clientFields)
                if name == nodeInterfaceName { nodeHasIDField = try interface.fields()["id"] != nil }
                possibleTypes[name] = schema.getPossibleTypes(abstractType: interface).map(\.name).sorted(
                    by: codeUnitLess)
            case let union as GraphQLUnionType:
                abstractTypes.insert(name)
                possibleTypes[name] = schema.getPossibleTypes(abstractType: union).map(\.name).sorted(by: codeUnitLess)
            default:
                break
            }
        }
    }

    private mutating func record(_ typeName: String, _ map: GraphQLFieldMap, clientFields: Set<String>) {
        var shapes: [String: FieldShape] = [:]
        for (fieldName, field) in map {
            shapes[fieldName] = Self.shape(of: field.type)
            shapes[fieldName]?.isClient = clientFields.contains(typeName + "." + fieldName)
        }
        fields[typeName] = shapes
        if let idField = map["id"] {
            var type: GraphQLType = idField.type
            if let nonNull = type as? GraphQLNonNull { type = nonNull.ofType }
            if (type as? GraphQLScalarType)?.name == "ID" { typesWithID.insert(typeName) }
        }
    }

    private static func shape(of type: GraphQLType) -> FieldShape {
        var current: GraphQLType = type
        var plural = false
        while true {
            if let nonNull = current as? GraphQLNonNull {
                current = nonNull.ofType
            } else if let list = current as? GraphQLList {
                plural = true
                current = list.ofType
            } else {
                break
            }
        }
        let named = getNamedType(type: current)
        return FieldShape(
            typeName: named?.name ?? "", plural: plural, isLeaf: named is GraphQLLeafType,
            isCustomScalar: named is GraphQLScalarType && !builtInScalars.contains(named?.name ?? ""))
    }

    func rootTypeName(for operation: OperationType) -> String? {
        switch operation {
        case .query: return schema.queryType?.name
        case .mutation: return schema.mutationType?.name
        case .subscription: return schema.subscriptionType?.name
        }
    }

    func isAbstract(_ typeName: String) -> Bool { abstractTypes.contains(typeName) }
    func isObject(_ typeName: String) -> Bool { objectTypes.contains(typeName) }
    func hasIDField(_ typeName: String) -> Bool { typesWithID.contains(typeName) }
    func implementsNode(_ typeName: String) -> Bool { nodeImplementations.contains(typeName) }
    func possibleObjectTypes(_ typeName: String) -> [String] { possibleTypes[typeName] ?? [] }

    /// relay's `is_named_type_subtype_of`: the same type, an object of the union or interface
    /// `other`, or an interface that implements it.
    func isSubtype(_ typeName: String, of other: String) -> Bool {
        if typeName == other { return true }
        if objectTypes.contains(typeName) { return possibleTypes[other]?.contains(typeName) ?? false }
        guard let interface = schema.getType(name: typeName) as? GraphQLInterfaceType else { return false }
        return (try? interface.interfaces().contains { $0.name == other }) ?? false
    }

    /// `@fetchable(field_name: "…")` on an object or interface type (relay's refetch by a
    /// `fetch__<Type>(id:)` query field), as written on its definition or an extension.
    func fetchableDirective(_ typeName: String) -> Directive? {
        let type = schema.getType(name: typeName)
        let lists: [[Directive]]
        switch type {
        case let object as GraphQLObjectType:
            lists = [object.astNode?.directives ?? []] + object.extensionASTNodes.map(\.definition.directives)
        case let interface as GraphQLInterfaceType:
            lists = [interface.astNode?.directives ?? []] + interface.extensionASTNodes.map(\.definition.directives)
        default:
            return nil
        }
        return lists.joined().first { $0.name.value == "fetchable" }
    }

    /// `__is<T>` for interfaces and unions (relay's abstract refinement key), else nil.
    func abstractKey(_ typeName: String) -> String? {
        isAbstract(typeName) ? "__is\(typeName)" : nil
    }

    /// `__typename` and relay's client field `__id` (the record's data ID) are not in the field
    /// maps, so they are answered here (leaves on every type).
    func field(_ name: String, on parentType: String) -> FieldShape? {
        if name == "__typename" { return FieldShape(typeName: "String", plural: false, isLeaf: true) }
        if name == "__id" { return FieldShape(typeName: "ID", plural: false, isLeaf: true) }
        return fields[parentType]?[name]
    }
}
