// Checks a set of parsed documents before lowering: relay's own rules (named operations, names
// unique across files) and GraphQL's specified rules on all definitions validated together.
import GraphQL

/// One parsed definition with the file it came from.
struct SourcedDefinition {
    var file: String
    var definition: any Definition
}

enum DocumentValidation {
    /// Relay requires operation names (they name the artifacts) and unique names across all files.
    static func checkNames(_ definitions: [SourcedDefinition]) throws {
        var operations: [String: any GraphQL.Node] = [:]
        var fragments: [String: any GraphQL.Node] = [:]
        for sourced in definitions {
            if let operation = sourced.definition as? OperationDefinition {
                guard let name = operation.name else {
                    throw CompilerError(
                        node: operation, fallbackFile: sourced.file, message: "Operations must be named.")
                }
                if let first = operations[name.value] {
                    throw duplicate("operation", name, first: first, file: sourced.file)
                }
                operations[name.value] = name
            } else if let fragment = sourced.definition as? FragmentDefinition {
                if let first = fragments[fragment.name.value] {
                    throw duplicate("fragment", fragment.name, first: first, file: sourced.file)
                }
                fragments[fragment.name.value] = fragment.name
            }
        }
    }

    private static func duplicate(_ kind: String, _ name: Name, first: any GraphQL.Node, file: String) -> CompilerError
    {
        let previous = CompilerError(node: first, fallbackFile: file, message: "")
        return CompilerError(
            node: name, fallbackFile: file,
            message:
                "There can be only one \(kind) named \"\(name.value)\" (also defined at \(previous.file):\(previous.line):\(previous.column))."
        )
    }

    /// Validates all definitions as one document, so spreads across files resolve. Each error is
    /// located through its node's `Source`, which names the file the node was parsed from.
    /// Throws the first error GraphQL reports (in document order).
    static func validate(_ definitions: [SourcedDefinition], template: Document, schema: GraphQLSchema) throws {
        let originals = definitions.map(\.definition)
        let stripped = originals.map { stripRelayDirectives($0) as any GraphQL.Node }
        let document = template.set(value: .array(stripped), key: "definitions")
        let fallback = definitions.first?.file ?? "<document>"
        let ignorable = IgnorableErrors(definitions: definitions)
        for error in GraphQL.validate(schema: schema, ast: document) where !ignorable.contains(error) {
            throw CompilerError(error, fallbackFile: fallback)
        }
    }

    // MARK: stripping relay directives

    static func stripRelayDirectives(_ definition: any Definition) -> any Definition {
        switch definition {
        case let operation as OperationDefinition:
            return withoutRelayDirectives(operation, operation.directives)
                .set(value: .node(strip(operation.selectionSet)), key: "selectionSet")
        case let fragment as FragmentDefinition:
            return withoutRelayDirectives(fragment, fragment.directives)
                .set(value: .node(strip(fragment.selectionSet)), key: "selectionSet")
        default:
            return definition
        }
    }

    private static func strip(_ selectionSet: SelectionSet) -> SelectionSet {
        let selections: [any GraphQL.Node] = selectionSet.selections.map { selection in
            switch selection {
            case let field as Field:
                let field = withoutRelayDirectives(field, field.directives)
                guard let inner = field.selectionSet else { return field }
                return field.set(value: .node(strip(inner)), key: "selectionSet")
            case let inline as GraphQL.InlineFragment:
                return withoutRelayDirectives(inline, inline.directives)
                    .set(value: .node(strip(inline.selectionSet)), key: "selectionSet")
            case let spread as GraphQL.FragmentSpread:
                return withoutRelayDirectives(spread, spread.directives)
            default:
                return selection
            }
        }
        return selectionSet.set(value: .array(selections), key: "selections")
    }

    private static func withoutRelayDirectives<N: GraphQL.Node>(_ node: N, _ directives: [Directive]) -> N {
        let kept = directives.filter { !relayDirectiveNames.contains($0.name.value) }
        guard kept.count != directives.count else { return node }
        return node.set(value: .array(kept), key: "directives")
    }
}

/// Errors GraphQL reports that are not errors for relay.
private struct IgnorableErrors {
    /// Per definition: its source, byte range, and the names that are not operation variables there
    /// (fragment `@argumentDefinitions`) or are used only inside relay directives (operations).
    private struct Scope {
        var sourceName: String
        var range: Range<Int>
        var localVariables: Set<String>
        var relayDirectiveVariables: Set<String>
    }
    private var scopes: [Scope] = []

    init(definitions: [SourcedDefinition]) {
        var fragments: [String: FragmentDefinition] = [:]
        for fragment in definitions.compactMap({ $0.definition as? FragmentDefinition }) {
            fragments[fragment.name.value] = fragment
        }
        for (offset, sourced) in definitions.enumerated() {
            guard let loc = sourced.definition.loc else { continue }
            // GraphQLSwift's definition `loc` can end early (after the keyword), so a definition is
            // taken to run up to the next definition of the same source.
            let next = definitions[(offset + 1)...].lazy.compactMap(\.definition.loc).first {
                $0.source.name == loc.source.name
            }
            var scope = Scope(
                sourceName: loc.source.name, range: loc.start..<(next?.start ?? Int.max),
                localVariables: [], relayDirectiveVariables: [])
            if let fragment = sourced.definition as? FragmentDefinition {
                scope.localVariables = Set(RelayDirectives.argumentDefinitions(fragment).map(\.name))
            } else if let operation = sourced.definition as? OperationDefinition {
                var reachable: [any Definition] = [operation]
                reachable += FragmentGraph.reachableFragments(from: operation.selectionSet, in: fragments).map {
                    $0 as any Definition
                }
                scope.relayDirectiveVariables = RelayDirectives.variablesUsed(in: reachable)
            }
            scopes.append(scope)
        }
    }

    private func scope(of node: (any GraphQL.Node)?) -> Scope? {
        guard let loc = node?.loc else { return nil }
        return scopes.first { $0.sourceName == loc.source.name && $0.range.contains(loc.start) }
    }

    func contains(_ error: GraphQLError) -> Bool {
        let message = error.message
        // Fragments are compiled on their own (a fragment file need not be used by any operation).
        if message.hasPrefix("Fragment \""), message.hasSuffix("\" is never used.") { return true }
        // relay's client field `__id` exists on every type (the record's data ID); the compiler
        // answers it and never sends it.
        if message.hasPrefix("Cannot query field \"__id\" on type "),
            let field = error.nodes.first as? Field, field.arguments.isEmpty, field.selectionSet == nil
        {
            return true
        }
        // `$count` inside a fragment that declares it with @argumentDefinitions is fragment-local.
        if message.hasPrefix("Variable \"$"), message.contains("\" is not defined"),
            let variable = error.nodes.first as? GraphQL.Variable,
            scope(of: variable)?.localVariables.contains(variable.name.value) == true
        {
            return true
        }
        // An operation variable only handed to a fragment through @arguments is used.
        if message.hasPrefix("Variable \"$"), message.contains("\" is never used"),
            let definition = error.nodes.first as? GraphQL.VariableDefinition,
            scope(of: definition)?.relayDirectiveVariables.contains(definition.variable.name.value) == true
        {
            return true
        }
        return false
    }
}

/// Which fragments a selection set spreads, transitively.
enum FragmentGraph {
    static func reachableFragments(from selectionSet: SelectionSet, in fragments: [String: FragmentDefinition])
        -> [FragmentDefinition]
    {
        var seen = Set<String>()
        var result: [FragmentDefinition] = []
        func visit(_ set: SelectionSet?) {
            for selection in set?.selections ?? [] {
                switch selection {
                case let field as Field: visit(field.selectionSet)
                case let inline as GraphQL.InlineFragment: visit(inline.selectionSet)
                case let spread as GraphQL.FragmentSpread:
                    let name = spread.name.value
                    guard !seen.contains(name), let fragment = fragments[name] else { continue }
                    seen.insert(name)
                    result.append(fragment)
                    visit(fragment.selectionSet)
                default: break
                }
            }
        }
        visit(selectionSet)
        return result
    }
}
