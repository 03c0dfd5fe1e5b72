// Turns validated GraphQL AST selections into the IR: field types resolved against the schema,
// arguments sorted, literal @include/@skip applied, variable ones turned into conditions.
import GraphQL

struct Lowering {
    let schema: SchemaModel
    /// Reported for nodes without a location (never expected after parsing with locations).
    let fallbackFile: String
    /// Each document source's line index, by source name (fields are positioned from these).
    var lineIndexes: [String: SourceLineIndex] = [:]

    func selections(_ selectionSet: SelectionSet, parentType: String) throws -> [IRSelection] {
        var result: [IRSelection] = []
        for selection in selectionSet.selections {
            switch selection {
            case let field as Field:
                guard let conditions = try self.conditions(field.directives) else { continue }
                result.append(wrap(.field(try lowerField(field, parentType: parentType)), in: conditions))
            case let inline as GraphQL.InlineFragment:
                guard let conditions = try self.conditions(inline.directives) else { continue }
                let type = inline.typeCondition?.name.value ?? parentType
                let inner = try selections(inline.selectionSet, parentType: type)
                result.append(wrap(.inlineFragment(type: type, selections: inner), in: conditions))
            case let spread as GraphQL.FragmentSpread:
                guard let conditions = try self.conditions(spread.directives) else { continue }
                let lowered = IRSelection.spread(name: spread.name.value, args: RelayDirectives.spreadArguments(spread))
                result.append(wrap(lowered, in: conditions))
            default:
                continue
            }
        }
        return result
    }

    private func lowerField(_ field: Field, parentType: String) throws -> IRField {
        let name = field.name.value
        if let alias = field.alias, alias.value == "__id", name != "__id" {
            // relay's `disallow_reserved_aliases`: the key is the record's data ID.
            throw CompilerError(
                node: alias, fallbackFile: fallbackFile, message: "Relay does not allow aliasing fields to `__id`.")
        }
        guard let shape = schema.field(name, on: parentType) else {
            // Validation accepts the introspection meta fields; relay artifacts have no use for them.
            throw CompilerError(
                node: field, fallbackFile: fallbackFile,
                message: "Field \"\(name)\" on type \"\(parentType)\" is not supported by this compiler.")
        }
        var selections: [IRSelection]?
        if let selectionSet = field.selectionSet, !shape.isLeaf {
            selections = try self.selections(selectionSet, parentType: shape.typeName)
        }
        var lowered = IRField(
            alias: field.alias?.value, name: name, args: ASTConversion.arguments(field.arguments),
            typeName: shape.typeName, plural: shape.plural, isCustomScalar: shape.isCustomScalar,
            isClient: shape.isClient, selections: selections,
            position: position(of: field))
        if let directive = field.directives.first(where: { $0.name.value == "connection" }) {
            try connection(directive, on: &lowered, node: field)
        }
        let handles = field.directives.filter { Self.mutationDirectives.contains($0.name.value) }
        if let directive = handles.first {
            if handles.count > 1 {
                throw CompilerError(
                    node: handles[1], fallbackFile: fallbackFile,
                    message: "A field takes one of @\(directive.name.value) and @\(handles[1].name.value), not both.")
            }
            lowered.mutationHandle = try mutationHandle(directive, on: lowered)
        }
        return lowered
    }

    static let mutationDirectives: Set<String> = [
        "deleteRecord", "deleteEdge", "appendEdge", "prependEdge", "appendNode", "prependNode",
    ]

    /// relay's declarative mutation directives: on an `ID` field (`@deleteRecord`,
    /// `@deleteEdge(connections:)`), an edge field (`@appendEdge`/`@prependEdge(connections:)`), a
    /// node field (`@appendNode`/`@prependNode(connections:, edgeTypeName:)`).
    private func mutationHandle(_ directive: Directive, on field: IRField) throws -> IRMutationHandle {
        let kind = directive.name.value
        func fail(_ message: String) -> CompilerError {
            CompilerError(node: directive, fallbackFile: fallbackFile, message: message)
        }
        var connections: IRValue?
        var edgeTypeName: String?
        for argument in directive.arguments {
            switch argument.name.value {
            case "connections": connections = ASTConversion.value(argument.value)
            case "edgeTypeName":
                guard case .string(let name) = ASTConversion.value(argument.value) else {
                    throw fail("Expected @\(kind)(edgeTypeName:) to be a string literal.")
                }
                edgeTypeName = name
            default: throw fail("Unknown argument `\(argument.name.value)` of @\(kind).")
            }
        }
        switch kind {
        case "deleteRecord", "deleteEdge":
            guard !field.isLinked, field.typeName == "ID" else {
                throw fail("@\(kind) is only supported on fields of type `ID` or `[ID]`, not on `\(field.name)`.")
            }
        case "appendEdge", "prependEdge":
            guard field.isLinked, schema.field("node", on: field.typeName) != nil,
                schema.field("cursor", on: field.typeName) != nil
            else {
                throw fail(
                    "@\(kind) is only supported on an edge field (with `cursor` and `node`), not on `\(field.name)`.")
            }
        default:
            guard field.isLinked else {
                throw fail("@\(kind) is only supported on a field of objects, not on `\(field.name)`.")
            }
            guard let edgeTypeName, schema.field("node", on: edgeTypeName) != nil else {
                throw fail("@\(kind) needs `edgeTypeName:` naming an edge type (with a `node` field).")
            }
        }
        if kind != "deleteRecord" && connections == nil { throw fail("@\(kind) needs a `connections` argument.") }
        return IRMutationHandle(kind: kind, connections: connections, edgeTypeName: edgeTypeName)
    }

    /// relay's ConnectionTransform: checks `@connection`'s arguments and the field's shape, and
    /// selects what the connection handler reads (each edge's `cursor` and node's `__typename`,
    /// the page info of the field's direction).
    private func connection(_ directive: Directive, on field: inout IRField, node: Field) throws {
        func fail(_ message: String) -> CompilerError {
            CompilerError(node: directive, fallbackFile: fallbackFile, message: message)
        }
        var key: String?
        var filters: [String]?
        for argument in directive.arguments {
            switch (argument.name.value, ASTConversion.value(argument.value)) {
            case ("key", .string(let k)): key = k
            case ("filters", .list(let items)):
                filters = try items.map {
                    guard case .string(let name) = $0 else {
                        throw fail("Expected @connection(filters:) to be a list of argument names.")
                    }
                    return name
                }
            case ("key", _): throw fail("Expected @connection(key:) to be a string literal.")
            case ("filters", _): throw fail("Expected @connection(filters:) to be a list of argument names.")
            default: continue  // (handler, dynamicKey_UNSTABLE, …: not supported, ignored)
            }
        }
        guard let key else { throw fail("Expected @connection to have a `key` argument.") }
        guard key.hasSuffix("_" + field.name) else {
            throw fail("Expected the key argument to @connection to be of form <SomeName>_\(field.name), got `\(key)`.")
        }
        let type = field.typeName
        guard !field.plural, let edges = schema.field("edges", on: type), edges.plural, !edges.isLeaf,
            let nodeShape = schema.field("node", on: edges.typeName), !nodeShape.isLeaf, !nodeShape.plural,
            schema.field("cursor", on: edges.typeName) != nil,
            let pageInfo = schema.field("pageInfo", on: type), !pageInfo.isLeaf,
            ["endCursor", "hasNextPage", "hasPreviousPage", "startCursor"].allSatisfy({
                schema.field($0, on: pageInfo.typeName) != nil
            })
        else {
            throw fail(
                "@connection used on a field whose type `\(type)` is not a connection: it needs `edges { cursor node }` and `pageInfo { endCursor hasNextPage hasPreviousPage startCursor }`."
            )
        }
        let names = Set(field.args.map(\.name))
        for filter in filters ?? [] where !names.contains(filter) {
            throw fail("@connection(filters:) names `\(filter)`, which is not an argument of `\(field.name)`.")
        }
        let forward = names.contains("first") || names.contains("after")
        let backward = names.contains("last") || names.contains("before")
        func leaf(_ name: String, _ typeName: String) -> IRSelection {
            .field(IRField(alias: nil, name: name, args: [], typeName: typeName, plural: false, selections: nil))
        }
        var pageFields: [IRSelection] = []
        if forward || !backward { pageFields += [leaf("endCursor", "String"), leaf("hasNextPage", "Boolean")] }
        if backward || !forward { pageFields += [leaf("hasPreviousPage", "Boolean"), leaf("startCursor", "String")] }
        let generated: [IRSelection] = [
            .field(
                IRField(
                    alias: nil, name: "edges", args: [], typeName: edges.typeName, plural: true,
                    selections: [
                        leaf("cursor", "String"),
                        .field(
                            IRField(
                                alias: nil, name: "node", args: [], typeName: nodeShape.typeName, plural: false,
                                selections: [leaf("__typename", "String")])),
                    ])),
            .field(
                IRField(
                    alias: nil, name: "pageInfo", args: [], typeName: pageInfo.typeName, plural: false,
                    selections: pageFields)),
        ]
        field.selections = (field.selections ?? []) + generated
        field.connection = IRConnection(key: key, filters: filters)
    }

    /// Every field is positioned, so this must not rescan the document from its start.
    func position(of node: any GraphQL.Node) -> IRPosition {
        guard let loc = node.loc, let index = lineIndexes[loc.source.name] else {
            let located = CompilerError(node: node, fallbackFile: fallbackFile, message: "")
            return IRPosition(file: located.file, line: located.line, column: located.column)
        }
        let (line, column) = index.lineAndColumn(utf8Offset: loc.start)
        return IRPosition(file: loc.source.name, line: line, column: column)
    }

    /// `nil` when a literal `@include(if: false)` / `@skip(if: true)` removes the selection;
    /// otherwise the variable conditions to wrap it in, outermost first (in written order).
    private func conditions(_ directives: [Directive]) throws -> [(variable: String, passingValue: Bool)]? {
        var result: [(variable: String, passingValue: Bool)] = []
        for directive in directives {
            let name = directive.name.value
            guard name == "include" || name == "skip" else { continue }
            let passingValue = name == "include"
            guard let condition = directive.arguments.first(where: { $0.name.value == "if" }) else { continue }
            switch condition.value {
            case let literal as BooleanValue:
                if literal.value != passingValue { return nil }
            case let variable as GraphQL.Variable:
                result.append((variable.name.value, passingValue))
            default:
                throw CompilerError(
                    node: condition, fallbackFile: fallbackFile,
                    message: "Expected a Boolean literal or a variable for @\(name)(if:).")
            }
        }
        return result
    }

    private func wrap(_ selection: IRSelection, in conditions: [(variable: String, passingValue: Bool)]) -> IRSelection
    {
        conditions.reversed().reduce(selection) { inner, condition in
            .condition(variable: condition.variable, passingValue: condition.passingValue, selections: [inner])
        }
    }

    func fragment(_ definition: FragmentDefinition) throws -> IRFragment {
        let type = definition.typeCondition.name.value
        let definitions = RelayDirectives.argumentDefinitions(definition)
        // relay's provided variables: operation-level variables under their own names, not
        // arguments a parent passes.
        var renamed: [String: String] = [:]
        var provided: [IRArgumentDefinition] = []
        for argument in definitions {
            guard let provider = argument.provider else { continue }
            if argument.defaultValue != nil {
                throw CompilerError(
                    node: definition, fallbackFile: fallbackFile,
                    message: "Provided variable `$\(argument.name)` cannot have a defaultValue (its provider gives it)."
                )
            }
            let global = providedVariableName(provider)
            renamed[argument.name] = global
            provided.append(
                IRArgumentDefinition(name: global, type: argument.type, defaultValue: nil, provider: provider))
        }
        var lowered = try selections(definition.selectionSet, parentType: type)
        if !renamed.isEmpty { lowered = Self.renaming(lowered, renamed) }
        return IRFragment(
            name: definition.name.value, typeCondition: type,
            argumentDefinitions: definitions.filter { $0.provider == nil }, providedVariables: provided,
            plural: RelayDirectives.isPlural(definition),
            inline: definition.directives.contains { $0.name.value == "inline" },
            selections: lowered, position: position(of: definition))
    }

    /// Variables renamed (`$x` → `$__relay_internal__pv__X`) in arguments, conditions and spreads.
    static func renaming(_ selections: [IRSelection], _ names: [String: String]) -> [IRSelection] {
        let values = names.mapValues { IRValue.variable($0) }
        return selections.map { selection in
            switch selection {
            case .field(var field):
                field.args = field.args.map { IRArgument(name: $0.name, value: $0.value.substituting(values)) }
                field.selections = field.selections.map { renaming($0, names) }
                return .field(field)
            case .inlineFragment(let type, let inner):
                return .inlineFragment(type: type, selections: renaming(inner, names))
            case .condition(let variable, let passing, let inner):
                return .condition(
                    variable: names[variable] ?? variable, passingValue: passing, selections: renaming(inner, names))
            case .spread(let name, let args):
                return .spread(
                    name: name, args: args.map { IRArgument(name: $0.name, value: $0.value.substituting(values)) })
            case .typeDiscriminator:
                return selection
            }
        }
    }

    /// The operation's own server directives (those the schema declares; relay's are not sent),
    /// in written order with their arguments as written.
    func directives(_ operation: OperationDefinition) -> [IRDirective] {
        operation.directives.compactMap { directive in
            let name = directive.name.value
            guard name != "inline", schema.schema.getDirective(name: name) != nil else { return nil }
            return IRDirective(
                name: name,
                args: directive.arguments.map { IRArgument(name: $0.name.value, value: ASTConversion.value($0.value)) })
        }
    }

    func variables(_ operation: OperationDefinition) -> [IRArgumentDefinition] {
        operation.variableDefinitions.map { definition in
            IRArgumentDefinition(
                name: definition.variable.name.value, type: ASTConversion.typeString(definition.type),
                defaultValue: definition.defaultValue.map { ASTConversion.value($0) })
        }
    }
}
