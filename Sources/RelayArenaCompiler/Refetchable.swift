// `@refetchable(queryName: "Q")` (reference §9): the refetch query synthesized for a fragment on
// Node or a type implementing it (`node(id: $id)`), on the query type, or on Viewer.
import GraphQL
import RelayArena

/// What compiling produced, plus what only the Swift generator needs (relay's artifact metadata).
package struct CompilationResult: Sendable {
    package var documents: CompiledDocuments
    /// `metadata.refetch` of each `@refetchable` fragment, by fragment name.
    package var refetch: [String: RefetchMetadata]
}

extension RelayDirectives {
    /// `@refetchable(queryName: "Q")` → `("Q", the directive)`; `nil` without the directive.
    static func refetchable(_ fragment: FragmentDefinition, file: String) throws -> (
        queryName: String, directive: Directive
    )? {
        guard let directive = fragment.directives.first(where: { $0.name.value == "refetchable" }) else { return nil }
        guard let value = directive.arguments.first(where: { $0.name.value == "queryName" })?.value as? StringValue,
            !value.value.isEmpty
        else {
            throw CompilerError(
                node: directive, fallbackFile: file, message: "@refetchable needs a queryName: String argument.")
        }
        return (value.value, directive)
    }
}

/// One synthesized refetch query, before its artifact is built like any other operation's.
struct RefetchOperation {
    var fragment: String
    var name: String
    var variables: [IRArgumentDefinition]
    var selections: [IRSelection]
    var metadata: RefetchMetadata
}

struct RefetchSynthesis {
    let schema: SchemaModel
    /// Refetchable fragments on Node get `id` added, so the artifacts are built from these.
    var fragments: [String: IRFragment]

    mutating func synthesize(_ name: String, queryName: String, at directive: Directive, file: String) throws
        -> RefetchOperation
    {
        func error(_ message: String) -> CompilerError {
            CompilerError(node: directive, fallbackFile: file, message: message)
        }
        guard var fragment = fragments[name] else { throw error("Unknown fragment \"\(name)\".") }
        if fragment.plural { throw error("@refetchable is not supported on plural fragment \"\(name)\".") }
        let type = fragment.typeCondition
        let query = schema.schema.queryType
        let queryFields = try? query?.fields()
        let spread = IRSelection.spread(
            name: name,
            args: fragment.argumentDefinitions.map { IRArgument(name: $0.name, value: .variable($0.name)) }.sorted {
                codeUnitLess($0.name, $1.name)
            })
        var variables: [IRArgumentDefinition] = []
        let selections: [IRSelection]
        let path: [String]
        var identifier: String?
        if type == query?.name {
            (selections, path) = ([spread], [])
        } else if type == "Viewer", let viewer = queryFields?["viewer"],
            getNamedType(type: viewer.type)?.name == "Viewer"
        {
            let field = IRField(
                alias: nil, name: "viewer", args: [], typeName: "Viewer", plural: false, selections: [spread])
            (selections, path) = ([.field(field)], ["viewer"])
        } else if isNodeLike(type), let node = queryFields?["node"], node.args.count == 1,
            let idArgument = node.args["id"], Self.typeString(idArgument.type) == "ID!"
        {
            if fragment.argumentDefinitions.contains(where: { $0.name == "id" }) {
                throw error(
                    "@refetchable fragment \"\(name)\" cannot declare an argument named \"id\": the refetch query's $id takes the record's id."
                )
            }
            addID(to: &fragment)
            variables = [IRArgumentDefinition(name: "id", type: "ID!", defaultValue: nil)]
            let field = IRField(
                alias: nil, name: "node", args: [IRArgument(name: "id", value: .variable("id"))],
                typeName: getNamedType(type: node.type)?.name ?? "Node", plural: false, selections: [spread])
            (selections, path, identifier) = ([.field(field)], ["node"], "id")
        } else {
            throw error(
                "Invalid use of @refetchable on fragment \"\(name)\": only fragments on the Query type, on Viewer, "
                    + "or on Node, a type implementing Node or an abstract type whose members all implement Node (with Query.node(id: ID!)) are supported."
            )
        }
        variables += fragment.argumentDefinitions
        for global in globalVariables(of: fragment) where !variables.contains(where: { $0.name == global.name }) {
            variables.append(global)
        }
        fragments[name] = fragment
        return RefetchOperation(
            fragment: name, name: queryName, variables: variables, selections: selections,
            metadata: RefetchMetadata(
                operation: queryName, fragmentPathInResult: path, identifierField: identifier,
                connection: Self.connection(in: fragment.selections, path: [])))
    }

    /// The first `@connection` field in the fragment's own selections (through linked fields),
    /// with the variables its pagination arguments use.
    static func connection(in selections: [IRSelection], path: [String]) -> ConnectionMetadata? {
        for selection in selections {
            guard case .field(let field) = selection, let inner = field.selections else { continue }
            guard field.connection != nil else {
                if let found = connection(in: inner, path: path + [field.responseKey]) { return found }
                continue
            }
            func variable(_ name: String) -> String? {
                guard case .variable(let v)? = field.args.first(where: { $0.name == name })?.value else { return nil }
                return v
            }
            let forward = variable("first").flatMap { c in variable("after").map { PageVariables(count: c, cursor: $0) }
            }
            let backward = variable("last").flatMap { c in
                variable("before").map { PageVariables(count: c, cursor: $0) }
            }
            return ConnectionMetadata(path: path + [field.responseKey], forward: forward, backward: backward)
        }
        return nil
    }

    private func isNodeLike(_ type: String) -> Bool {
        guard let node = schema.nodeInterfaceName else { return false }
        if type == node || schema.implementsNode(type) { return true }
        let members = schema.possibleObjectTypes(type)
        return schema.isAbstract(type) && !members.isEmpty && members.allSatisfy(schema.implementsNode)
    }

    /// `id` at the end of the fragment's selections unless it selects it already; inside
    /// `... on Node` when the type itself has no `id` field.
    private func addID(to fragment: inout IRFragment) {
        let selected = fragment.selections.contains { selection in
            if case .field(let f) = selection { return f.alias == nil && f.name == "id" && f.args.isEmpty }
            return false
        }
        guard !selected else { return }
        let id = IRSelection.field(
            IRField(alias: nil, name: "id", args: [], typeName: "ID", plural: false, selections: nil))
        if schema.hasIDField(fragment.typeCondition) {
            fragment.selections.append(id)
        } else {
            fragment.selections.append(.inlineFragment(type: schema.nodeInterfaceName ?? "Node", selections: [id]))
        }
    }

    /// Variables the fragment (and the fragments it spreads, transitively) uses that are not
    /// fragment arguments, in first-use order, typed from where they are used.
    func globalVariables(of fragment: IRFragment) -> [IRArgumentDefinition] {
        var out: [IRArgumentDefinition] = []
        var visited: Set<String> = [fragment.name]
        func note(_ name: String, _ type: String?) {
            guard let type, !out.contains(where: { $0.name == name }) else { return }
            out.append(IRArgumentDefinition(name: name, type: type, defaultValue: nil))
        }
        func value(_ v: IRValue, type: String?, local: Set<String>) {
            switch v {
            case .variable(let name) where !local.contains(name): note(name, type)
            case .list(let items):
                for item in items { value(item, type: type.flatMap(Self.listItemType), local: local) }
            case .object(let members):
                for member in members {
                    value(
                        member.value,
                        type: type.flatMap { inputFieldType(TypeRef(parsing: Substring($0)).namedType, member.key) },
                        local: local)
                }
            default: break
            }
        }
        func walk(_ selections: [IRSelection], parent: String, local: Set<String>) {
            for selection in selections {
                switch selection {
                case .field(let f):
                    for arg in f.args {
                        value(arg.value, type: argumentType(f.name, on: parent, arg.name), local: local)
                    }
                    if let inner = f.selections { walk(inner, parent: f.typeName, local: local) }
                case .inlineFragment(let type, let inner):
                    walk(inner, parent: type, local: local)
                case .condition(let variable, _, let inner):
                    if !local.contains(variable) { note(variable, "Boolean!") }
                    walk(inner, parent: parent, local: local)
                case .spread(let name, let args):
                    guard let target = fragments[name] else { continue }
                    for arg in args {
                        value(
                            arg.value, type: target.argumentDefinitions.first { $0.name == arg.name }?.type,
                            local: local)
                    }
                    if visited.insert(name).inserted {
                        walk(
                            target.selections, parent: target.typeCondition,
                            local: Set(target.argumentDefinitions.map(\.name)))
                    }
                case .typeDiscriminator:
                    continue
                }
            }
        }
        walk(fragment.selections, parent: fragment.typeCondition, local: Set(fragment.argumentDefinitions.map(\.name)))
        return out
    }

    private func argumentType(_ field: String, on parent: String, _ argument: String) -> String? {
        let type = schema.schema.getType(name: parent)
        let fields = (try? (type as? GraphQLObjectType)?.fields()) ?? (try? (type as? GraphQLInterfaceType)?.fields())
        return fields?[field]?.args[argument].map { Self.typeString($0.type) }
    }

    private func inputFieldType(_ inputObject: String, _ field: String) -> String? {
        guard let object = schema.schema.getType(name: inputObject) as? GraphQLInputObjectType,
            let fields = try? object.fields()
        else { return nil }
        return fields[field].map { Self.typeString($0.type) }
    }

    /// `[Int!]!` → `Int!`; a non-list type stays (GraphQL coerces one value to a list of one).
    static func listItemType(_ type: String) -> String? {
        var text = Substring(type)
        if text.hasSuffix("!") { text = text.dropLast() }
        guard text.hasPrefix("["), text.hasSuffix("]") else { return type }
        return String(text.dropFirst().dropLast())
    }

    static func typeString(_ type: GraphQLType) -> String {
        if let nonNull = type as? GraphQLNonNull { return typeString(nonNull.ofType) + "!" }
        if let list = type as? GraphQLList { return "[" + typeString(list.ofType) + "]" }
        return (type as? GraphQLNamedType)?.name ?? ""
    }
}
