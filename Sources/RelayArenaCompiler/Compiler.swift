// The compiler's entry point: schema SDL + GraphQL documents → `CompiledDocuments` (operation
// normalization/reader ASTs and query text, fragment reader ASTs), relay-compiler style.
import GraphQL
import RelayArena

/// Compiles GraphQL documents against one schema. Parsing and validation are GraphQLSwift's; the
/// relay transforms (inline fragments, flatten, generate `id`/`__typename`) are this module's.
public struct Compiler: Sendable {
    let schemaModel: SchemaModel
    /// relay v19's `@alias` enforcement (on by default, as in relay): an unaliased spread that
    /// is fetched conditionally or may not match its selection's type is an error, unless it
    /// carries `@dangerously_unaliased_fixme`. Off, such spreads compile as before v19.
    public var enforcesFragmentAlias = true

    /// Parses and builds the schema, extended by the client schema files (relay's client schema
    /// extensions: `extend type T { … }` and client-only types). Client fields are validated and
    /// read like any other, stored in the same records, and never sent. SDL errors become a
    /// `CompilerError` in the file that has them.
    public init(schema: GraphQLSourceFile, clientSchema: [GraphQLSourceFile] = []) throws {
        let document = try Self.parseSDL(schema)
        var built: GraphQLSchema
        do {
            built = try buildASTSchema(documentAST: Self.withRelayDirectives(document))
        } catch let error as GraphQLError {
            throw SchemaErrorLocator.locate(error, in: document, file: schema.name)
        }
        var clientFields = Set<String>()
        for file in clientSchema {
            let extensionDocument = try Self.parseSDL(file)
            do {
                built = try extendSchema(schema: built, documentAST: extensionDocument)
            } catch let error as GraphQLError {
                throw SchemaErrorLocator.locate(error, in: extensionDocument, file: file.name)
            }
            clientFields.formUnion(Self.fieldsDefined(in: extensionDocument))
        }
        do {
            schemaModel = try SchemaModel(schema: built, clientFields: clientFields)
        } catch let error as GraphQLError {
            throw SchemaErrorLocator.locate(error, in: document, file: schema.name)
        }
    }

    private static func parseSDL(_ file: GraphQLSourceFile) throws -> Document {
        try DocumentPreScan.check(file, lineIndex: SourceLineIndex(file.text))
        do {
            return try parse(source: Source(body: file.text, name: file.name))
        } catch let error as GraphQLError {
            throw CompilerError(error, fallbackFile: file.name)
        }
    }

    /// `Type.field` for every field a client schema file defines: on the types it extends and
    /// on the types it defines.
    private static func fieldsDefined(in document: Document) -> Set<String> {
        var out = Set<String>()
        func add(_ type: Name, _ fields: [FieldDefinition]) {
            for field in fields { out.insert(type.value + "." + field.name.value) }
        }
        for definition in document.definitions {
            switch definition {
            case let object as ObjectTypeDefinition: add(object.name, object.fields)
            case let interface as InterfaceTypeDefinition: add(interface.name, interface.fields)
            case let object as TypeExtensionDefinition: add(object.definition.name, object.definition.fields)
            case let interface as InterfaceExtensionDefinition:
                add(interface.definition.name, interface.definition.fields)
            default: break
            }
        }
        return out
    }

    /// relay-compiler's schema extension for the directives validation checks like any other:
    /// `@inline` on fragment definitions, so `@inline` elsewhere is a GraphQL error (arguments on
    /// it: `RelayDirectives.checkInline`), `@fetchable` on server types, and `@alias` (with its
    /// escape `@dangerously_unaliased_fixme`) on spreads and inline fragments. Each is added only
    /// when the schema does not declare it itself.
    static let relaySchemaExtension: [String: String] = [
        "inline": "directive @inline on FRAGMENT_DEFINITION\n",
        "fetchable": "directive @fetchable(field_name: String!) on OBJECT | INTERFACE\n",
        "alias": "directive @alias(as: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT\n",
        "dangerously_unaliased_fixme": "directive @dangerously_unaliased_fixme on FRAGMENT_SPREAD\n",
        "semanticNonNull": "directive @semanticNonNull(levels: [Int] = [0]) on FIELD_DEFINITION\n",
    ]

    private static func withRelayDirectives(_ document: Document) throws -> Document {
        let declared = Set(document.definitions.compactMap { ($0 as? DirectiveDefinition)?.name.value })
        let missing = relaySchemaExtension.filter { !declared.contains($0.key) }.sorted { $0.key < $1.key }
        guard !missing.isEmpty else { return document }
        let extensionDocument = try parse(
            source: Source(body: missing.map(\.value).joined(), name: "<relay directives>"))
        let definitions: [any GraphQL.Node] = document.definitions + extensionDocument.definitions
        return document.set(value: .array(definitions), key: "definitions")
    }

    /// Compiles all documents together (a spread may name a fragment from another file).
    /// Documents past `DocumentLimits` are refused before parsing. Throws the first error:
    /// limits and syntax errors in file order, then unnamed or duplicate definitions,
    /// then the first GraphQL validation error, then two different fields under one response key.
    public func compile(_ documents: [GraphQLSourceFile]) throws -> CompiledDocuments {
        try compileWithMetadata(documents).documents
    }

    /// `compile`, plus the metadata of `@refetchable` fragments (their synthesized queries are
    /// among the operations).
    package func compileWithMetadata(_ documents: [GraphQLSourceFile]) throws -> CompilationResult {
        var definitions: [SourcedDefinition] = []
        var template: Document?
        var lineIndexes: [String: SourceLineIndex] = [:]
        for file in documents {
            let lineIndex = SourceLineIndex(file.text)
            try DocumentPreScan.check(file, lineIndex: lineIndex)
            lineIndexes[file.name] = lineIndex
            let document: Document
            do {
                document = try parse(source: Source(body: file.text, name: file.name))
            } catch let error as GraphQLError {
                throw CompilerError(error, fallbackFile: file.name)
            }
            template = template ?? document
            definitions += document.definitions.map { SourcedDefinition(file: file.name, definition: $0) }
        }
        guard let template else { return CompilationResult(documents: CompiledDocuments(), refetch: [:]) }
        try DocumentValidation.checkNames(definitions)
        try FragmentSpreadLimits.check(definitions)
        try DocumentValidation.validate(definitions, template: template, schema: schemaModel.schema)
        try RelayDirectives.checkInline(definitions)
        return try lower(definitions, lineIndexes: lineIndexes)
    }

    private func lower(_ definitions: [SourcedDefinition], lineIndexes: [String: SourceLineIndex]) throws
        -> CompilationResult
    {
        var fragmentTypes: [String: (type: String, plural: Bool)] = [:]
        for sourced in definitions {
            guard let fragment = sourced.definition as? FragmentDefinition else { continue }
            fragmentTypes[fragment.name.value] = (fragment.typeCondition.name.value, RelayDirectives.isPlural(fragment))
        }
        func lowering(_ file: String) -> Lowering {
            Lowering(
                schema: schemaModel, fallbackFile: file, lineIndexes: lineIndexes, fragmentTypes: fragmentTypes,
                enforcesFragmentAlias: enforcesFragmentAlias)
        }
        var fragments: [String: IRFragment] = [:]
        for sourced in definitions {
            guard let fragment = sourced.definition as? FragmentDefinition else { continue }
            fragments[fragment.name.value] = try lowering(sourced.file).fragment(fragment)
        }
        let refetchQueries = try synthesizeRefetchQueries(definitions, fragments: &fragments)
        let providers = try Self.providedVariables(fragments)
        /// The provided variables an operation reaches (declared on it, relay's transform), and
        /// its variables with them.
        func withProvided(_ variables: [IRArgumentDefinition], _ selections: [IRSelection]) -> (
            [IRArgumentDefinition], [String: String]
        ) {
            var reached = Set<String>()
            var visited = Set<String>()
            func walk(_ selections: [IRSelection]) {
                for selection in selections {
                    switch selection {
                    case .field(let f): walk(f.selections ?? [])
                    case .inlineFragment(_, let inner), .condition(_, _, let inner): walk(inner)
                    case .aliased(let alias): walk(alias.selections)
                    case .spread(let name, _):
                        guard visited.insert(name).inserted, let fragment = fragments[name] else { continue }
                        for p in fragment.providedVariables { reached.insert(p.name) }
                        walk(fragment.selections)
                    case .typeDiscriminator: continue
                    }
                }
            }
            walk(selections)
            guard !reached.isEmpty else { return (variables, [:]) }
            var out = variables.filter { !reached.contains($0.name) }
            var modules: [String: String] = [:]
            for name in reached.sorted(by: codeUnitLess) {
                guard let provider = providers[name] else { continue }
                out.append(
                    IRArgumentDefinition(name: name, type: provider.type, defaultValue: nil, provider: provider.module))
                modules[name] = provider.module
            }
            return (out, modules)
        }
        var result = CompiledDocuments()
        let builder = ArtifactBuilder(schema: schemaModel, fragments: fragments)
        // In definition order, so the first conflict reported is the first one written.
        for sourced in definitions {
            guard let definition = sourced.definition as? FragmentDefinition,
                let fragment = fragments[definition.name.value]
            else { continue }
            result.fragments[fragment.name] = try builder.fragmentArtifact(fragment)
        }
        for sourced in definitions {
            guard let operation = sourced.definition as? OperationDefinition, let name = operation.name?.value else {
                continue
            }
            guard let rootType = schemaModel.rootTypeName(for: operation.operation) else {
                throw CompilerError(
                    node: operation, fallbackFile: sourced.file,
                    message: "Schema is not configured for \(operation.operation.rawValue) operations.")
            }
            let lowering = lowering(sourced.file)
            let selections = try lowering.selections(
                operation.selectionSet, parentType: rootType,
                throwOnFieldError: operation.directives.contains { $0.name.value == "throwOnFieldError" })
            let (variables, provided) = withProvided(lowering.variables(operation), selections)
            result.operations[name] = try builder.operationArtifact(
                name: name, kind: OperationKind(rawValue: operation.operation.rawValue) ?? .query, rootType: rootType,
                variables: variables, providedVariables: provided, directives: lowering.directives(operation),
                selections: selections, position: lowering.position(of: operation),
                throwOnFieldError: operation.directives.contains { $0.name.value == "throwOnFieldError" },
                catchTo: try lowering.catchTo(operation.directives))
        }
        var refetch: [String: RefetchMetadata] = [:]
        for query in refetchQueries {
            let (variables, provided) = withProvided(query.variables, query.selections)
            result.operations[query.name] = try builder.operationArtifact(
                name: query.name, kind: .query, rootType: schemaModel.schema.queryType?.name ?? "Query",
                variables: variables, providedVariables: provided, directives: query.directives,
                selections: query.selections, position: fragments[query.fragment]?.position)
            refetch[query.fragment] = query.metadata
        }
        return CompilationResult(documents: result, refetch: refetch)
    }

    /// Every provided variable by its operation-level name: its module and type, with relay's two
    /// errors (two modules one name once stripped; one module with two types).
    private static func providedVariables(_ fragments: [String: IRFragment]) throws -> [String: (
        module: String, type: String
    )] {
        var out: [String: (module: String, type: String)] = [:]
        for name in fragments.keys.sorted(by: codeUnitLess) {
            let fragment = fragments[name]!
            for p in fragment.providedVariables {
                guard let module = p.provider else { continue }
                func error(_ message: String) -> CompilerError {
                    let at = fragment.position
                    return CompilerError(
                        file: at?.file ?? "", line: at?.line ?? 1, column: at?.column ?? 1, message: message)
                }
                guard let existing = out[p.name] else {
                    out[p.name] = (module, p.type)
                    continue
                }
                if existing.module != module {
                    throw error(
                        "Modules '\(existing.module)' and '\(module)' used by provided variables have indistinguishable names. (All non ascii-alphanumeric characters are stripped in Relay transform)"
                    )
                }
                if existing.type != p.type {
                    throw error(
                        "All provided variables using module '\(module)' must declare the same type. Expected '\(existing.type)' but found '\(p.type)'"
                    )
                }
            }
        }
        return out
    }

    /// One query per `@refetchable` fragment, in definition order. Its name may be neither another
    /// `@refetchable`'s nor an operation's or a fragment's (relay's two checks and texts).
    private func synthesizeRefetchQueries(_ definitions: [SourcedDefinition], fragments: inout [String: IRFragment])
        throws -> [RefetchOperation]
    {
        var taken = Set(definitions.compactMap { ($0.definition as? OperationDefinition)?.name?.value })
        taken.formUnion(fragments.keys)
        var synthesis = RefetchSynthesis(schema: schemaModel, fragments: fragments)
        var queries: [RefetchOperation] = []
        var owners: [String: String] = [:]
        for sourced in definitions {
            guard let fragment = sourced.definition as? FragmentDefinition,
                let directive = try RelayDirectives.refetchable(fragment, schema: schemaModel, file: sourced.file)
            else { continue }
            let name = fragment.name.value
            if let previous = owners.updateValue(name, forKey: directive.queryName) {
                let (first, second) = codeUnitLess(previous, name) ? (previous, name) : (name, previous)
                throw CompilerError(
                    node: fragment.name, fallbackFile: sourced.file,
                    message:
                        "Duplicate definition for @refetchable operation '\(directive.queryName)' from fragments '\(first)' and '\(second)'"
                )
            }
            if taken.contains(directive.queryName) {
                throw CompilerError(
                    node: directive.queryNameNode, fallbackFile: sourced.file,
                    message:
                        "The `queryName` specified in `@refetchable` must be unique, a definition with the name `\(directive.queryName)` already exists."
                )
            }
            queries.append(try synthesis.synthesize(fragment, directive, file: sourced.file))
        }
        fragments = synthesis.fragments
        return queries
    }
}
