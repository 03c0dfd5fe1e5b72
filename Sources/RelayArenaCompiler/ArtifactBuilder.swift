// Runs the transform pipelines on lowered IR and assembles the artifacts: the reader pipeline
// (flatten only) and the normalization pipeline (inline, flatten, generate fields, flatten again).
import RelayArena

struct ArtifactBuilder {
    let schema: SchemaModel
    let fragments: [String: IRFragment]

    private var emitter: ArtifactEmitter { ArtifactEmitter(schema: schema) }

    /// What the author wrote, spreads kept, same-type inline fragments merged, nothing added.
    func readerSelections(_ selections: [IRSelection], parentType: String) throws -> [Selection] {
        let flattened = Flattener(schema: schema, emitTypeDiscriminators: false).flatten(
            selections, parentType: parentType)
        try FieldConflictCheck(schema: schema).check(flattened, parentType: parentType)
        return try attachingInlineData(ArtifactEmitter(schema: schema, reader: true).selections(flattened))
    }

    /// Spreads of `@inline` fragments carry the fragment's reader selections (relay's
    /// `InlineDataFragmentSpread`), so the reader can read them with the parent. Fragment cycles
    /// are rejected by validation, so this terminates.
    private func attachingInlineData(_ selections: [Selection]) throws -> [Selection] {
        try selections.map { selection in
            switch selection {
            case .fragmentSpread(var spread):
                guard let fragment = fragments[spread.name], fragment.inline else { return selection }
                spread.inlineData = InlineDataFragment(
                    argumentDefinitions: emitter.variables(fragment.argumentDefinitions),
                    selections: try readerSelections(fragment.selections, parentType: fragment.typeCondition))
                return .fragmentSpread(spread)
            case .linkedField(var field):
                field.selections = try attachingInlineData(field.selections)
                return .linkedField(field)
            case .condition(var condition):
                condition.selections = try attachingInlineData(condition.selections)
                return .condition(condition)
            case .inlineFragment(var inline):
                inline.selections = try attachingInlineData(inline.selections)
                return .inlineFragment(inline)
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
    func normalizationIR(_ selections: [IRSelection], rootType: String) throws -> [IRSelection] {
        let flattener = Flattener(schema: schema, emitTypeDiscriminators: true)
        let inlined = FragmentInliner(fragments: fragments).inline(selections)
        let flattened = flattener.flatten(inlined, parentType: rootType)
        let generated = FieldGenerator(schema: schema).apply(flattened)
        let result = flattener.flatten(generated, parentType: rootType)
        try FieldConflictCheck(schema: schema).check(result, parentType: rootType)
        return result
    }

    func operationArtifact(
        name: String, kind: OperationKind, rootType: String, variables: [IRArgumentDefinition],
        selections: [IRSelection]
    ) throws -> OperationArtifact {
        let normalization = try normalizationIR(selections, rootType: rootType)
        let text = QueryPrinter(schema: schema).print(
            kind: kind.rawValue, name: name, variables: variables, selections: normalization)
        return OperationArtifact(
            name: name, kind: kind, variables: emitter.variables(variables),
            normalization: emitter.selections(normalization),
            reader: try readerSelections(selections, parentType: rootType), text: text)
    }

    func fragmentArtifact(_ fragment: IRFragment) throws -> FragmentArtifact {
        let selections = try readerSelections(fragment.selections, parentType: fragment.typeCondition)
        return FragmentArtifact(
            name: fragment.name, typeCondition: fragment.typeCondition,
            abstractKey: schema.abstractKey(fragment.typeCondition),
            argumentDefinitions: emitter.variables(fragment.argumentDefinitions),
            plural: fragment.plural, selections: selections)
    }
}
