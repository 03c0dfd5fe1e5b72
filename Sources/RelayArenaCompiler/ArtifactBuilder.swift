// Runs the transform pipelines on lowered IR and assembles the artifacts: the reader pipeline
// (flatten only) and the normalization pipeline (inline, flatten, generate fields, flatten again).
import RelayArena

struct ArtifactBuilder {
    let schema: SchemaModel
    let fragments: [String: IRFragment]

    private var emitter: ArtifactEmitter { ArtifactEmitter(schema: schema) }

    /// What the author wrote, spreads kept, same-type inline fragments merged, nothing added.
    func readerSelections(_ selections: [IRSelection], parentType: String) throws -> [Selection] {
        var inlineData: [String: [Selection]] = [:]
        return try readerSelections(selections, parentType: parentType, inlineData: &inlineData)
    }

    /// `inlineData` holds the reader selections of the `@inline` fragments met so far, each built
    /// once however many paths spread it.
    private func readerSelections(
        _ selections: [IRSelection], parentType: String, inlineData: inout [String: [Selection]]
    ) throws -> [Selection] {
        let flattened = Flattener(schema: schema, emitTypeDiscriminators: false).flatten(
            selections, parentType: parentType)
        try FieldConflictCheck(schema: schema).check(flattened, parentType: parentType)
        return try attachingInlineData(
            ArtifactEmitter(schema: schema, reader: true).selections(flattened), known: &inlineData)
    }

    /// Spreads of `@inline` fragments carry the fragment's reader selections (relay's
    /// `InlineDataFragmentSpread`), so the reader can read them with the parent. Fragment cycles
    /// are rejected by validation, so this terminates.
    private func attachingInlineData(_ selections: [Selection], known: inout [String: [Selection]]) throws
        -> [Selection]
    {
        try selections.map { selection in
            switch selection {
            case .fragmentSpread(var spread):
                guard let fragment = fragments[spread.name], fragment.inline else { return selection }
                let reader: [Selection]
                if let built = known[fragment.name] {
                    reader = built
                } else {
                    reader = try readerSelections(
                        fragment.selections, parentType: fragment.typeCondition, inlineData: &known)
                    known[fragment.name] = reader
                }
                spread.inlineData = InlineDataFragment(
                    argumentDefinitions: emitter.variables(fragment.argumentDefinitions), selections: reader)
                return .fragmentSpread(spread)
            case .linkedField(var field):
                field.selections = try attachingInlineData(field.selections, known: &known)
                return .linkedField(field)
            case .condition(var condition):
                condition.selections = try attachingInlineData(condition.selections, known: &known)
                return .condition(condition)
            case .inlineFragment(var inline):
                inline.selections = try attachingInlineData(inline.selections, known: &known)
                return .inlineFragment(inline)
            case .aliasedInlineFragment(var alias):
                alias.selections = try attachingInlineData(alias.selections, known: &known)
                return .aliasedInlineFragment(alias)
            case .scalarField, .typeDiscriminator:
                return selection
            }
        }
    }

    /// relay's order: fragments are inlined and flattened first, so the generated `id` and
    /// `__typename` see the fields the fragments brought; a second flatten merges what the
    /// generation added (e.g. `... on Node { id }`) with fragments already on that type.
    /// The final tree is checked for response-key conflicts, which also catches a user alias
    /// (`id: name`) colliding with a generated field.
    /// Fragments are inlined once per binding of their arguments (`FragmentInliner`), and no
    /// operation grows past `DocumentLimits.inlinedSelections` (reported at `position`).
    func normalizationIR(_ selections: [IRSelection], rootType: String, name: String, position: IRPosition?) throws
        -> [IRSelection]
    {
        let flattener = Flattener(schema: schema, emitTypeDiscriminators: true)
        var inliner = FragmentInliner(fragments: fragments, flattener: flattener)
        let inlined = try inliner.inline(selections)
        try FragmentInliner.checkSize(inlined, at: position, of: "Operation \"\(name)\"")
        let flattened = flattener.flatten(inlined, parentType: rootType)
        let generated = FieldGenerator(schema: schema).apply(flattened)
        let result = flattener.flatten(generated, parentType: rootType)
        try FieldConflictCheck(schema: schema).check(result, parentType: rootType)
        return Self.withoutClientIDs(result)
    }

    /// relay's `__id` is a client field: it is never sent and never written from a response, so
    /// the operation's text and normalization plan leave it out (the reader answers it).
    static func withoutClientIDs(_ selections: [IRSelection]) -> [IRSelection] {
        selections.compactMap { selection in
            switch selection {
            case .field(var field):
                if field.name == "__id" && field.selections == nil { return nil }
                field.selections = field.selections.map(withoutClientIDs)
                return .field(field)
            case .inlineFragment(let type, let inner):
                return .inlineFragment(type: type, selections: withoutClientIDs(inner))
            case .condition(let variable, let passing, let inner):
                return .condition(variable: variable, passingValue: passing, selections: withoutClientIDs(inner))
            case .aliased(var alias):
                alias.selections = withoutClientIDs(alias.selections)
                return .aliased(alias)
            case .spread, .typeDiscriminator:
                return selection
            }
        }
    }

    /// What is sent: client schema extension fields are left out (relay's client extensions
    /// transform), and a field left with nothing asks for `__typename`.
    static func serverSelections(_ selections: [IRSelection]) -> [IRSelection] {
        selections.compactMap { selection in
            switch selection {
            case .field(var field):
                if field.isClient { return nil }
                if let inner = field.selections {
                    let kept = serverSelections(inner)
                    field.selections =
                        kept.isEmpty
                        ? [
                            .field(
                                IRField(
                                    alias: nil, name: "__typename", args: [], typeName: "String", plural: false,
                                    selections: nil))
                        ]
                        : kept
                }
                return .field(field)
            case .inlineFragment(let type, let inner):
                let kept = serverSelections(inner)
                return kept.isEmpty ? nil : .inlineFragment(type: type, selections: kept)
            case .condition(let variable, let passing, let inner):
                let kept = serverSelections(inner)
                return kept.isEmpty ? nil : .condition(variable: variable, passingValue: passing, selections: kept)
            case .aliased(var alias):
                alias.selections = serverSelections(alias.selections)
                return alias.selections.isEmpty ? nil : .aliased(alias)
            case .spread, .typeDiscriminator:
                return selection
            }
        }
    }

    func operationArtifact(
        name: String, kind: OperationKind, rootType: String, variables: [IRArgumentDefinition],
        providedVariables: [String: String] = [:], directives: [IRDirective] = [], selections: [IRSelection],
        position: IRPosition? = nil, throwOnFieldError: Bool = false, catchTo: CatchTo? = nil
    ) throws -> OperationArtifact {
        let normalization = try normalizationIR(selections, rootType: rootType, name: name, position: position)
        let text = QueryPrinter(schema: schema).print(
            kind: kind.rawValue, name: name, variables: variables, directives: directives,
            selections: Self.serverSelections(normalization))
        return OperationArtifact(
            name: name, kind: kind, variables: emitter.variables(variables),
            normalization: emitter.selections(normalization),
            reader: try readerSelections(selections, parentType: rootType), text: text,
            providedVariables: providedVariables, throwOnFieldError: throwOnFieldError, catchTo: catchTo)
    }

    func fragmentArtifact(_ fragment: IRFragment) throws -> FragmentArtifact {
        let selections = try readerSelections(fragment.selections, parentType: fragment.typeCondition)
        return FragmentArtifact(
            name: fragment.name, typeCondition: fragment.typeCondition,
            abstractKey: schema.abstractKey(fragment.typeCondition),
            argumentDefinitions: emitter.variables(fragment.argumentDefinitions),
            plural: fragment.plural, selections: selections, throwOnFieldError: fragment.throwOnFieldError,
            catchTo: fragment.catchTo)
    }
}
