// Turns validated GraphQL AST selections into the IR: field types resolved against the schema,
// arguments sorted, literal @include/@skip applied, variable ones turned into conditions.
import GraphQL
import RelayArena

struct Lowering {
    let schema: SchemaModel
    /// Reported for nodes without a location (never expected after parsing with locations).
    let fallbackFile: String
    /// Each document source's line index, by source name (fields are positioned from these).
    var lineIndexes: [String: SourceLineIndex] = [:]
    /// Every fragment's type condition and whether it is plural, for `@alias`.
    var fragmentTypes: [String: (type: String, plural: Bool)] = [:]
    /// relay v19's `enforce_fragment_alias_where_ambiguous`: a spread that may not match (under
    /// `@include`/`@skip`, or of a type its selection's type is not a subtype of) needs `@alias`.
    var enforcesFragmentAlias = true

    /// Where a selection sits, for `@alias` (relay's fragment_alias_directive): the selection's
    /// type (an unaliased inline fragment leaves it as it was, since generated types do not
    /// refine by it), whether that is a list, the nearest variable `@include`/`@skip` (linked
    /// fields and aliased inline fragments start afresh), and whether the innermost inline
    /// fragment has a type condition. For `@required` (relay's required_directive) also the
    /// selection's response path (which linked fields and aliased inline fragments extend) and
    /// whether an unaliased inline fragment on an abstract type encloses it (which they reset).
    struct AliasScope {
        var selectionType: String
        var plural = false
        var condition: Directive? = nil
        var withinTypedInlineFragment = false
        var withinAbstractInlineFragment = false
        var requiredPath = RequiredChecks.root
    }

    func selections(_ selectionSet: SelectionSet, parentType: String, throwOnFieldError: Bool = false) throws
        -> [IRSelection]
    {
        var checks = RequiredChecks()
        checks.clientFieldsNeedCatch = throwOnFieldError
        return try selections(
            selectionSet, parentType: parentType, scope: AliasScope(selectionType: parentType), checks: &checks)
    }

    private func selections(
        _ selectionSet: SelectionSet, parentType: String, scope: AliasScope, checks: inout RequiredChecks
    ) throws -> [IRSelection] {
        var result: [IRSelection] = []
        for selection in selectionSet.selections {
            switch selection {
            case let field as Field:
                guard let conditions = try self.conditions(field.directives) else { continue }
                let lowered = try lowerField(field, parentType: parentType, scope: scope, checks: &checks)
                result.append(wrap(.field(lowered), in: conditions))
            case let inline as GraphQL.InlineFragment:
                guard let conditions = try self.conditions(inline.directives) else { continue }
                let written = inline.typeCondition?.name.value
                let type = written ?? parentType
                var inner = scope
                inner.withinTypedInlineFragment = written != nil
                let alias = try aliasName(inline.directives, default: written, at: inline)
                // An aliased inline fragment reads as its own nullable object, so its `@required`
                // fields bubble to it rather than to the enclosing field.
                var enclosingRequired: [RequiredChecks.Required] = []
                if let alias {
                    inner = AliasScope(
                        selectionType: type, plural: scope.plural, withinTypedInlineFragment: written != nil,
                        requiredPath: checks.path(alias, under: scope.requiredPath))
                    swap(&enclosingRequired, &checks.children)
                } else {
                    if let directive = conditionDirective(inline.directives) { inner.condition = directive }
                    if let written, schema.isAbstract(written) { inner.withinAbstractInlineFragment = true }
                }
                let caught = try catchTo(inline.directives)
                let outerNeedsCatch = checks.clientFieldsNeedCatch
                if caught != nil { checks.clientFieldsNeedCatch = false }
                let lowered = try selections(inline.selectionSet, parentType: type, scope: inner, checks: &checks)
                checks.clientFieldsNeedCatch = outerNeedsCatch
                if alias != nil { checks.children = enclosingRequired }
                guard let alias else {
                    if caught != nil {
                        throw CompilerError(
                            node: inline.directives.first { $0.name.value == "catch" }!, fallbackFile: fallbackFile,
                            message: "Unexpected `@catch` on unaliased inline fragment.")
                    }
                    result.append(wrap(.inlineFragment(type: type, selections: lowered), in: conditions))
                    continue
                }
                var aliased = IRAlias(name: alias, type: written, wrapsSpread: false, selections: lowered)
                aliased.catchTo = caught
                result.append(wrap(.aliased(aliased), in: conditions))
            case let spread as GraphQL.FragmentSpread:
                guard let conditions = try self.conditions(spread.directives) else { continue }
                let lowered = IRSelection.spread(name: spread.name.value, args: RelayDirectives.spreadArguments(spread))
                let fragment = fragmentTypes[spread.name.value]
                guard let alias = try aliasName(spread.directives, default: spread.name.value, at: spread) else {
                    try checkUnaliased(spread, fragment: fragment, scope: scope)
                    result.append(wrap(lowered, in: conditions))
                    continue
                }
                if fragment?.plural == true, scope.plural {
                    throw CompilerError(
                        node: spread.directives.first { $0.name.value == "alias" }?.name ?? spread.name,
                        fallbackFile: fallbackFile,
                        message:
                            "Unexpected `@alias` on spread of plural fragment. @alias may not be used on fragments marked as `@relay(plural: true)`."
                    )
                }
                let aliased = IRAlias(name: alias, type: fragment?.type, wrapsSpread: true, selections: [lowered])
                result.append(wrap(.aliased(aliased), in: conditions))
            default:
                continue
            }
        }
        return result
    }

    /// `@alias`'s name: `as:`, else the spread's fragment or the inline fragment's type;
    /// `nil` without the directive. relay's errors for an empty or missing name.
    private func aliasName(_ directives: [Directive], default name: String?, at node: any GraphQL.Node) throws
        -> String?
    {
        guard let directive = directives.first(where: { $0.name.value == "alias" }) else { return nil }
        guard let argument = directive.arguments.first(where: { $0.name.value == "as" }) else {
            guard let name else {
                throw CompilerError(
                    node: directive, fallbackFile: fallbackFile,
                    message:
                        "Missing required argument `as`. The `as` argument of the @alias directive is required on inline fragments without a type condition."
                )
            }
            return name
        }
        guard let literal = argument.value as? StringValue else {
            throw CompilerError(
                node: argument.value, fallbackFile: fallbackFile,
                message: "Expected the `as` argument of the @alias directive to be a string literal.")
        }
        guard !literal.value.isEmpty else {
            throw CompilerError(
                node: argument.value, fallbackFile: fallbackFile,
                message:
                    "Unexpected empty string supplied for `as` argument of the @alias directive. If provided, the `as` argument of the `@alias` directive must be a non-empty string literal."
            )
        }
        return literal.value
    }

    /// The first variable `@include`/`@skip` among `directives` (where relay reports a condition).
    private func conditionDirective(_ directives: [Directive]) -> Directive? {
        directives.first { directive in
            let name = directive.name.value
            return (name == "include" || name == "skip")
                && directive.arguments.contains { $0.name.value == "if" && $0.value is GraphQL.Variable }
        }
    }

    /// relay v19's enforcement: an unaliased spread that is fetched conditionally, or whose
    /// fragment's type the selection's type is not a subtype of, is refused (relay's messages).
    /// `@dangerously_unaliased_fixme` and `@module` exempt a spread, as does a plural fragment in
    /// a list.
    private func checkUnaliased(
        _ spread: GraphQL.FragmentSpread, fragment: (type: String, plural: Bool)?, scope: AliasScope
    ) throws {
        guard enforcesFragmentAlias, let fragment else { return }
        let names = Set(spread.directives.map(\.name.value))
        if names.contains("dangerously_unaliased_fixme") || names.contains("module") { return }
        if fragment.plural && scope.plural { return }
        let name = spread.name.value
        if let condition = conditionDirective(spread.directives) ?? scope.condition {
            throw CompilerError(
                node: spread.name, fallbackFile: fallbackFile,
                message:
                    "Expected `@alias` directive. Fragment spreads with (or within an inline fragment with) `@\(condition.name.value)` are conditionally fetched. Add `@alias` to this spread to expose the fragment reference as a nullable property."
            )
        }
        guard !schema.isSubtype(scope.selectionType, of: fragment.type) else { return }
        var message =
            "Expected `@alias` directive. `\(name)` is defined on `\(fragment.type)` which might not match this selection type of `\(scope.selectionType)`. Add `@alias` to this spread to expose the fragment reference as a nullable property."
        if scope.withinTypedInlineFragment {
            message +=
                " NOTE: The selection type inferred here does not include inline fragments because Relay does not always model inline fragment type refinements in its generated types."
        }
        throw CompilerError(node: spread.name, fallbackFile: fallbackFile, message: message)
    }

    private func lowerField(_ field: Field, parentType: String, scope: AliasScope, checks: inout RequiredChecks)
        throws -> IRField
    {
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
        // The field's own `@required` is checked before its selections, as relay does.
        let (required, caught) = try fieldErrorHandling(field.directives, at: field)
        if checks.clientFieldsNeedCatch, shape.isClient, caught == nil {
            // relay's validate_client_schema_extensions_use_catch: nothing ensures a client field
            // is set before it is read, and unset is a field error under `@throwOnFieldError`.
            throw CompilerError(
                node: field.alias ?? field.name, fallbackFile: fallbackFile,
                message:
                    "Expected client-defined field within `@throwOnFieldError` to be annotated with `@catch`. Accessing an unset field is treated as a field error, but Relay cannot guarantee that client field will be set before they are read. Add `@catch` to explicitly handle the case where the field is unset."
            )
        }
        let path = checks.path(field.alias?.value ?? name, under: scope.requiredPath)
        try checkRequired(field, required, path: path, scope: scope, checks: &checks)
        var selections: [IRSelection]?
        if let selectionSet = field.selectionSet, !shape.isLeaf {
            var enclosingRequired: [RequiredChecks.Required] = []
            swap(&enclosingRequired, &checks.children)
            let outerNeedsCatch = checks.clientFieldsNeedCatch
            if caught != nil { checks.clientFieldsNeedCatch = false }
            selections = try self.selections(
                selectionSet, parentType: shape.typeName,
                scope: AliasScope(selectionType: shape.typeName, plural: shape.plural, requiredPath: path),
                checks: &checks)
            checks.clientFieldsNeedCatch = outerNeedsCatch
            try checkNestedRequired(required, children: checks.children)
            checks.children = enclosingRequired
        }
        var lowered = IRField(
            alias: field.alias?.value, name: name, args: ASTConversion.arguments(field.arguments),
            typeName: shape.typeName, plural: shape.plural, isCustomScalar: shape.isCustomScalar,
            isClient: shape.isClient, selections: selections,
            position: position(of: field))
        if let directive = field.directives.first(where: { $0.name.value == "connection" }) {
            try connection(directive, on: &lowered, node: field)
        }
        (lowered.required, lowered.catchTo) = (required?.action, caught)
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

    /// `@required(action:)` and `@catch(to:)` on a field, with relay's errors.
    private func fieldErrorHandling(_ directives: [Directive], at node: any GraphQL.Node) throws -> (
        RequiredChecks.Required?, CatchTo?
    ) {
        let required = directives.first { $0.name.value == "required" }
        let caught = try catchTo(directives)
        if required != nil && caught != nil {
            throw CompilerError(
                node: required!, fallbackFile: fallbackFile,
                message: "@catch and @required directives cannot be on the same field.")
        }
        guard let required else { return (nil, caught) }
        guard let argument = required.arguments.first(where: { $0.name.value == "action" }) else {
            throw CompilerError(
                node: required, fallbackFile: fallbackFile,
                message: "Missing required argument `action` of @required (one of NONE, LOG, THROW).")
        }
        guard let value = argument.value as? EnumValue, let action = RequiredAction(rawValue: value.value) else {
            throw CompilerError(
                node: argument.value, fallbackFile: fallbackFile,
                message: "Expected @required(action:) to be one of NONE, LOG, THROW.")
        }
        return (RequiredChecks.Required(action: action, directive: required, actionValue: value), nil)
    }

    /// relay's required_directive validation state for one fragment or operation, filled in the
    /// one pass that lowers it: the first field at each response path (later ones must agree with
    /// its `@required`) and the `@required` fields directly under the field being lowered (whose
    /// nulls bubble to it, so they may not act less severely than it does).
    struct RequiredChecks {
        struct Required {
            var action: RequiredAction
            var directive: Directive
            var actionValue: EnumValue
        }

        /// A field's response key or an aliased inline fragment's name under its parent's path.
        /// Paths are numbered so that a deep selection is not keyed by its whole dotted path.
        private struct PathKey: Hashable {
            var parent: Int
            var key: String
        }

        static let root = 0
        private var paths: [PathKey: Int] = [:]
        /// The first field written at each path: its alias or name (where relay reports it) and
        /// its `@required`.
        var first: [Int: (name: Name, required: Required?)] = [:]
        var children: [Required] = []
        /// The fragment's `@inline`: relay does not support `@required` in `@inline` fragments.
        var inlineDirective: Directive? = nil
        /// In a `@throwOnFieldError` document, outside any `@catch`: client fields must be caught.
        var clientFieldsNeedCatch = false

        mutating func path(_ key: String, under parent: Int) -> Int {
            let pathKey = PathKey(parent: parent, key: key)
            if let id = paths[pathKey] { return id }
            let id = paths.count + 1
            paths[pathKey] = id
            return id
        }
    }

    /// relay's checks of one field's `@required` where it is written (in relay's order): not in
    /// an unaliased inline fragment on an abstract type (a null could not be told from a type
    /// that did not match), not in an `@inline` fragment, and the same `@required` on every
    /// field at one response path, since they read one value.
    private func checkRequired(
        _ field: Field, _ required: RequiredChecks.Required?, path: Int, scope: AliasScope,
        checks: inout RequiredChecks
    ) throws {
        if let required {
            if scope.withinAbstractInlineFragment {
                throw CompilerError(
                    node: required.directive, fallbackFile: fallbackFile,
                    message:
                        "Unexpected @required within inline fragment on an abstract type. At runtime we cannot know if this field is null, or if it's missing because the inline fragment did not match. Consider using `@alias` to give your inline fragment a name."
                )
            }
            if checks.inlineDirective != nil {
                throw CompilerError(
                    node: required.directive, fallbackFile: fallbackFile,
                    message: "@required is not supported within @inline fragments.")
            }
            checks.children.append(required)
        }
        let name = field.alias ?? field.name
        guard let previous = checks.first[path] else {
            checks.first[path] = (name, required)
            return
        }
        // relay reports differing actions at the first reference's, and a field/@required
        // mismatch at whichever of the two is @required.
        func mismatch(at node: Name) -> CompilerError {
            CompilerError(
                node: node, fallbackFile: fallbackFile,
                message:
                    "All references to a field must have matching @required declarations. The field '\(name.value)` is @required here"
            )
        }
        switch (previous.required, required) {
        case (let earlier?, let current?) where earlier.action != current.action:
            throw CompilerError(
                node: earlier.actionValue, fallbackFile: fallbackFile,
                message:
                    "All references to a @required field must have matching `action` arguments. The `action` used for '\(name.value)'"
            )
        case (_?, nil): throw mismatch(at: previous.name)
        case (nil, _?): throw mismatch(at: name)
        default:
            return
        }
    }

    /// A `@required` child's null bubbles to its `@required` parent, which then takes its own
    /// action, so a child declaring a less severe one (NONE < LOG < THROW) would misstate what
    /// happens. Reported at the parent's action, as relay does, naming the first such child's action.
    private func checkNestedRequired(_ parent: RequiredChecks.Required?, children: [RequiredChecks.Required]) throws {
        guard let parent else { return }
        func severity(_ action: RequiredAction) -> Int {
            switch action {
            case .none: return 0
            case .log: return 1
            case .throw: return 2
            }
        }
        guard let child = children.first(where: { severity($0.action) < severity(parent.action) }) else { return }
        throw CompilerError(
            node: parent.actionValue, fallbackFile: fallbackFile,
            message:
                "A @required field may not have an `action` less severe than that of its @required parent. This @required directive should probably have `action: \(child.action.rawValue)`"
        )
    }

    /// `@catch` (`to: RESULT` by default, or `NULL`) among `directives`.
    func catchTo(_ directives: [Directive]) throws -> CatchTo? {
        guard let directive = directives.first(where: { $0.name.value == "catch" }) else { return nil }
        guard let argument = directive.arguments.first(where: { $0.name.value == "to" }) else { return .result }
        guard let value = argument.value as? EnumValue, let to = CatchTo(rawValue: value.value) else {
            throw CompilerError(
                node: argument.value, fallbackFile: fallbackFile,
                message: "Expected @catch(to:) to be RESULT or NULL.")
        }
        return to
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
        var checks = RequiredChecks()
        checks.inlineDirective = definition.directives.first { $0.name.value == "inline" }
        checks.clientFieldsNeedCatch = definition.directives.contains { $0.name.value == "throwOnFieldError" }
        var lowered = try selections(
            definition.selectionSet, parentType: type, scope: AliasScope(selectionType: type), checks: &checks)
        if !renamed.isEmpty { lowered = Self.renaming(lowered, renamed) }
        return IRFragment(
            name: definition.name.value, typeCondition: type,
            argumentDefinitions: definitions.filter { $0.provider == nil }, providedVariables: provided,
            plural: RelayDirectives.isPlural(definition),
            inline: definition.directives.contains { $0.name.value == "inline" },
            selections: lowered, position: position(of: definition),
            throwOnFieldError: definition.directives.contains { $0.name.value == "throwOnFieldError" },
            catchTo: try catchTo(definition.directives))
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
            case .aliased(var alias):
                alias.selections = renaming(alias.selections, names)
                return .aliased(alias)
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
