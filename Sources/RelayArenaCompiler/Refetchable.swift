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

/// `@refetchable(queryName:, directives:, preferFetchable:)` as written on one fragment.
struct RefetchableDirective {
    var queryName: String
    /// Where `queryName`'s value is written (name conflicts are reported there, as relay does).
    var queryNameNode: any GraphQL.Node
    /// Server directives for the generated query, parsed from `directives: ["@owner(name: \"x\")"]`.
    var directives: [IRDirective]
    var preferFetchable: Bool
}

extension RelayDirectives {
    /// `@refetchable` parsed with relay's checks; `nil` without the directive.
    static func refetchable(_ fragment: FragmentDefinition, schema: SchemaModel, file: String) throws
        -> RefetchableDirective?
    {
        guard let directive = fragment.directives.first(where: { $0.name.value == "refetchable" }) else { return nil }
        func error(_ node: any GraphQL.Node, _ message: String) -> CompilerError {
            CompilerError(node: node, fallbackFile: file, message: message)
        }
        guard schema.schema.queryType != nil else {
            throw error(
                directive, "Unable to use @refetchable directive. The `Query` type is not defined on the schema.")
        }
        guard let argument = directive.arguments.first(where: { $0.name.value == "queryName" }) else {
            throw error(directive, "@refetchable needs a queryName: String argument.")
        }
        guard let name = argument.value as? StringValue else {
            throw error(
                argument.value,
                "Expected the 'queryName' argument of @refetchable to be a string, got '\(GraphQL.print(ast: argument.value))"
            )
        }
        var result = RefetchableDirective(
            queryName: name.value, queryNameNode: argument.value, directives: [], preferFetchable: false)
        if let value = directive.arguments.first(where: { $0.name.value == "preferFetchable" })?.value {
            guard let literal = value as? BooleanValue else {
                throw error(
                    value,
                    "Expected the 'preferFetchable' argument of @refetchable to be a literal Boolean value, got '\(GraphQL.print(ast: value))'"
                )
            }
            result.preferFetchable = literal.value
        }
        if let value = directive.arguments.first(where: { $0.name.value == "directives" })?.value {
            let listMessage =
                #"When provided, the `directives` argument to `@refetchable` needs to be a list of literal strings. Each string should be a server directive valid on queries. Example: `@refetchable(queryName: "ExampleQuery", directives: ["@owner(name: \"an owner\")"])"#
            let items = (value as? ListValue)?.values ?? [value]
            for item in items {
                guard let text = (item as? StringValue)?.value else { throw error(item, listMessage) }
                result.directives += try queryDirectives(text, schema: schema) ?? { throw error(item, listMessage) }()
            }
        }
        return result
    }

    /// `"@a(x: 1) @b"` → the directives, each one the schema declares for queries; `nil` when the
    /// text is not directives.
    private static func queryDirectives(_ text: String, schema: SchemaModel) throws -> [IRDirective]? {
        guard text.utf8.count <= 4096,
            let document = try? parse(source: Source(body: "query Q \(text) { __typename }", name: "directives")),
            document.definitions.count == 1, let operation = document.definitions.first as? OperationDefinition,
            !operation.directives.isEmpty
        else { return nil }
        var out: [IRDirective] = []
        for directive in operation.directives {
            guard let declared = schema.schema.getDirective(name: directive.name.value),
                declared.locations.contains(.query)
            else { return nil }
            out.append(
                IRDirective(
                    name: directive.name.value,
                    args: directive.arguments.map {
                        IRArgument(name: $0.name.value, value: ASTConversion.value($0.value))
                    }))
        }
        return out
    }
}

/// One synthesized refetch query, before its artifact is built like any other operation's.
struct RefetchOperation {
    var fragment: String
    var name: String
    var variables: [IRArgumentDefinition]
    var directives: [IRDirective]
    var selections: [IRSelection]
    var metadata: RefetchMetadata
}

/// relay-compiler's `@refetchable` transform (RT `refetchable_fragment/`): the generators Viewer,
/// Query, Node and `@fetchable` are tried in that order (`preferFetchable` puts `@fetchable`
/// before Node), and the first that applies builds the query. Error texts are relay's.
struct RefetchSynthesis {
    let schema: SchemaModel
    /// Refetchable fragments on Node get `id` added, so the artifacts are built from these.
    var fragments: [String: IRFragment]

    private enum Generator: CaseIterable {
        case viewer, query, node, fetchable

        var description: String {
            switch self {
            case .viewer: return "the Viewer type"
            case .query: return "the Query type"
            case .node:
                return
                    "the Node interface, object types that implement the Node interface, interfaces whose implementing objects all implement Node, and unions whose members all implement Node"
            case .fetchable: return "server objects and interfaces with the @fetchable directive"
            }
        }
    }

    /// What a generator builds: the query's root selection, its path, and the identifier.
    private struct Built {
        var selections: [IRSelection]
        var path: [String]
        var identifier: String?
        /// The record's field the identifier takes (a `@fetchable` type's); `nil`: its data ID.
        var identifierSource: String? = nil
        /// The `$id` variable's type (`node(id: ID)` still declares `$id: ID!`).
        var idType: String?
    }

    mutating func synthesize(_ definition: FragmentDefinition, _ directive: RefetchableDirective, file: String)
        throws -> RefetchOperation
    {
        let name = definition.name.value
        func error(_ message: String) -> CompilerError {
            CompilerError(node: definition.name, fallbackFile: file, message: message)
        }
        guard var fragment = fragments[name] else { throw error("Unknown fragment \"\(name)\".") }
        if fragment.plural {
            throw error(
                "Invalid use of @refetchable on fragment `\(name)`, fragments cannot be annotated with both @refetchable and @relay(plural: true)."
            )
        }
        let locals = Set(fragment.argumentDefinitions.map(\.name))
        let globals = globalVariables(of: fragment)
        if let conflict = globals.first(where: { locals.contains($0.name) }) {
            throw error(
                "Fragment variable `$\(conflict.name)` conflicts with a global variable generated by the @refetchable generated query"
            )
        }
        let spread = IRSelection.spread(
            name: name,
            args: fragment.argumentDefinitions.map { IRArgument(name: $0.name, value: .variable($0.name)) }.sorted {
                codeUnitLess($0.name, $1.name)
            })
        let order: [Generator] =
            directive.preferFetchable ? [.viewer, .query, .fetchable, .node] : [.viewer, .query, .node, .fetchable]
        var built: Built?
        for generator in order {
            built = try build(generator, fragment: &fragment, spread: spread, error: error)
            if built != nil { break }
        }
        guard let built else {
            throw error(
                "Invalid use of @refetchable on fragment '\(name)', only supported are fragments on:\n"
                    + Generator.allCases.map { " - \($0.description)" }.joined(separator: "\n"))
        }
        // relay's order: the fragment's and the global variables sorted by name, then `$id`.
        var variables = (fragment.argumentDefinitions + globals).sorted { codeUnitLess($0.name, $1.name) }
        if let idType = built.idType {
            if variables.contains(where: { $0.name == "id" }) {
                throw error(
                    "Invalid use of @refetchable on fragment `\(name)`, this fragment already has an `$id` variable in scope."
                )
            }
            variables.append(IRArgumentDefinition(name: "id", type: idType, defaultValue: nil))
        }
        let connection = try Self.checkedConnection(in: fragment, error: error)
        fragments[name] = fragment
        return RefetchOperation(
            fragment: name, name: directive.queryName, variables: variables, directives: directive.directives,
            selections: built.selections,
            metadata: RefetchMetadata(
                operation: directive.queryName, fragmentPathInResult: built.path, identifierField: built.identifier,
                identifierSource: built.identifierSource, connection: connection))
    }

    /// `nil` when the generator does not apply to the fragment's type; throws when it applies
    /// but the schema lacks what it needs.
    private func build(
        _ generator: Generator, fragment: inout IRFragment, spread: IRSelection, error: (String) -> CompilerError
    ) throws -> Built? {
        let type = fragment.typeCondition
        let name = fragment.name
        guard let query = schema.schema.queryType else { return nil }
        let queryFields = (try? query.fields()) ?? [:]
        switch generator {
        case .viewer:
            guard type == "Viewer" else { return nil }
            guard schema.schema.getType(name: "Viewer") is GraphQLObjectType, let viewer = queryFields["viewer"],
                viewer.args.isEmpty, getNamedType(type: viewer.type)?.name == "Viewer"
            else {
                throw error(
                    "Invalid use of @refetchable on fragment '\(name)', check that your schema defines a 'Viewer' object type and has a 'viewer: Viewer' field on the query type."
                )
            }
            let field = IRField(
                alias: nil, name: "viewer", args: [], typeName: "Viewer", plural: false, selections: [spread])
            return Built(selections: [.field(field)], path: ["viewer"])
        case .query:
            guard type == query.name else { return nil }
            return Built(selections: [spread], path: [])
        case .node:
            guard isNodeLike(type) else { return nil }
            guard let node = queryFields["node"], node.args.count == 1, let argument = node.args.elements.first,
                schema.nodeHasIDField
            else {
                throw error(
                    "Invalid use of @refetchable on fragment '\(name)', check that your schema defines a `Node { id: ID }` interface and has a `node(id: ID): Node` field on the query type (the id argument may also be non-null)."
                )
            }
            addField("id", to: &fragment, insideNodeWhenMissing: true)
            let field = IRField(
                alias: nil, name: "node", args: [IRArgument(name: argument.key, value: .variable("id"))],
                typeName: getNamedType(type: node.type)?.name ?? "Node", plural: false, selections: [spread])
            return Built(
                selections: [.field(field)], path: ["node"], identifier: "id",
                idType: Self.nonNull(Self.typeString(argument.value.type)))
        case .fetchable:
            guard let directive = schema.fetchableDirective(type) else { return nil }
            guard let value = directive.arguments.first(where: { $0.name.value == "field_name" })?.value as? StringValue
            else {
                throw error(
                    "Invalid use of @refetchable with @connection in fragment '\(name)', check that your schema defines a `directive @fetchable(field_name: String!) on OBJECT`."
                )
            }
            let identifier = value.value
            guard let shape = schema.field(identifier, on: type), shape.typeName == "ID", !shape.plural else {
                throw error(
                    "Invalid use of @refetchable on fragment '\(name)', the type '\(type)' is @fetchable but the identifying field '\(identifier)' does not have type 'ID'."
                )
            }
            let fetchName = "fetch__\(type)"
            guard let fetch = queryFields[fetchName], let argument = fetch.args.elements.first,
                !(Self.unwrapNonNull(fetch.type) is GraphQLList), getNamedType(type: fetch.type)?.name == type,
                !(Self.unwrapNonNull(argument.value.type) is GraphQLList),
                getNamedType(type: argument.value.type)?.name == "ID"
            else {
                throw error(
                    "Invalid use of @refetchable on fragment '\(name)', the type '\(type)' is @fetchable but there is no corresponding '\(fetchName)' field or it is invalid (expected '\(fetchName)(id: ID!): $\(type)')."
                )
            }
            addField(identifier, to: &fragment, insideNodeWhenMissing: false)
            let field = IRField(
                alias: nil, name: fetchName, args: [IRArgument(name: argument.key, value: .variable("id"))],
                typeName: type, plural: false, selections: [spread])
            return Built(
                selections: [.field(field)], path: [fetchName], identifier: "id", identifierSource: identifier,
                idType: Self.nonNull(Self.typeString(argument.value.type)))
        }
    }

    private static func unwrapNonNull(_ type: GraphQLType) -> GraphQLType {
        (type as? GraphQLNonNull)?.ofType ?? type
    }

    private static func nonNull(_ type: String) -> String { type.hasSuffix("!") ? type : type + "!" }

    /// relay's connection checks for a refetchable fragment, and the metadata of its connection:
    /// at most one `@connection`, not under a plural field, and variables for the count and
    /// cursor of each direction it pages in.
    static func checkedConnection(in fragment: IRFragment, error: (String) -> CompilerError) throws
        -> ConnectionMetadata?
    {
        var found: [(field: IRField, path: [String]?)] = []
        func walk(_ selections: [IRSelection], path: [String]?) {
            for selection in selections {
                switch selection {
                case .field(let field):
                    guard let inner = field.selections else { continue }
                    let here = field.plural ? nil : path.map { $0 + [field.responseKey] }
                    if field.connection != nil { found.append((field, here)) }
                    walk(inner, path: here)
                case .inlineFragment(_, let inner), .condition(_, _, let inner):
                    walk(inner, path: path)
                case .aliased(let alias):
                    // Read under the alias, as a field would be.
                    walk(alias.selections, path: path.map { $0 + [alias.name] })
                case .spread, .typeDiscriminator:
                    continue
                }
            }
        }
        walk(fragment.selections, path: [])
        guard let (field, path) = found.first else { return nil }
        let name = fragment.name
        if found.count > 1 {
            throw error(
                "Invalid use of @refetchable with @connection in fragment '\(name)', at most once @connection can appear in a refetchable fragment."
            )
        }
        guard let path else {
            throw error(
                "Invalid use of @refetchable with @connection in fragment '\(name)', refetchable connections cannot appear inside plural fields."
            )
        }
        func variable(_ argument: String) -> String? {
            guard case .variable(let v)? = field.args.first(where: { $0.name == argument })?.value else { return nil }
            return v
        }
        let hasFirst = field.args.contains { $0.name == "first" }
        let hasLast = field.args.contains { $0.name == "last" }
        let forward =
            hasFirst
            ? variable("first").flatMap { c in variable("after").map { PageVariables(count: c, cursor: $0) } } : nil
        let backward =
            hasLast
            ? variable("last").flatMap { c in variable("before").map { PageVariables(count: c, cursor: $0) } } : nil
        if hasFirst && forward == nil {
            throw error(
                "Invalid use of @refetchable with @connection in fragment '\(name)', refetchable connections must use variables for the after and first arguments."
            )
        }
        if hasLast && backward == nil {
            throw error(
                "Invalid use of @refetchable with @connection in fragment '\(name)', refetchable connections must use variables for the before and last arguments."
            )
        }
        return ConnectionMetadata(path: path, forward: forward, backward: backward)
    }

    private func isNodeLike(_ type: String) -> Bool {
        guard let node = schema.nodeInterfaceName else { return false }
        if type == node || schema.implementsNode(type) { return true }
        let members = schema.possibleObjectTypes(type)
        return schema.isAbstract(type) && !members.isEmpty && members.allSatisfy(schema.implementsNode)
    }

    /// `field` (`id`, or a `@fetchable` type's identifying field) at the end of the fragment's
    /// selections unless it selects it already; inside `... on Node` when the type itself has no
    /// `id` field.
    private func addField(_ name: String, to fragment: inout IRFragment, insideNodeWhenMissing: Bool) {
        let selected = fragment.selections.contains { selection in
            if case .field(let f) = selection { return f.responseKey == name && f.name == name && f.args.isEmpty }
            return false
        }
        guard !selected else { return }
        let field = IRSelection.field(
            IRField(alias: nil, name: name, args: [], typeName: "ID", plural: false, selections: nil))
        if !insideNodeWhenMissing || schema.hasIDField(fragment.typeCondition) {
            fragment.selections.append(field)
        } else {
            fragment.selections.append(.inlineFragment(type: schema.nodeInterfaceName ?? "Node", selections: [field]))
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
                case .aliased(let alias):
                    walk(alias.selections, parent: alias.type ?? parent, local: local)
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
