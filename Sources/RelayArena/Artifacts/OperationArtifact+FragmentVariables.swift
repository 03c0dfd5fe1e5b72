// A fragment's variables as relay's fragment reference carries them, found from the operation
// that owns the reference (what `subscribe` needs when it is handed names, not a pointer).

extension OperationArtifact {
    /// The variables relay's fragment reference for `fragment` carries when this operation owns
    /// it, as `ReadSelector` reads with them: the operation's effective `variables` (the global
    /// ones), with each of the fragment's `@argumentDefinitions` bound to the `@arguments` of its
    /// spread resolved where the spread sits (`null` for an unset variable), else to its default
    /// (`null` without one) — relay's `getFragmentVariables`. Spreads inside the fragments the
    /// operation spreads count too (their arguments resolved with that fragment's variables);
    /// spreads under an `@include`/`@skip` that excludes them do not.
    ///
    /// Throws when the operation never spreads the fragment, or spreads it more than once with
    /// arguments that resolve differently (no one reference to take).
    package func fragmentVariables(
        of fragment: FragmentArtifact, variables: Variables, fragments: [String: FragmentArtifact]
    ) throws -> Variables {
        let root = effectiveVariables(variables)
        var found: [Variables] = []
        func bind(_ definitions: [VariableDefinition], _ args: [Argument], scope: Variables) -> Variables {
            var result = root
            for definition in definitions {
                if let passed = args.first(where: { $0.name == definition.name }) {
                    result[definition.name] = passed.value.resolve(scope) ?? .null
                } else {
                    result[definition.name] = definition.defaultValue ?? .null
                }
            }
            return result
        }
        func walk(_ selections: [Selection], scope: Variables, depth: Int) {
            guard depth < 256 else { return }  // validated documents have no fragment cycles
            for selection in selections {
                switch selection {
                case .linkedField(let field): walk(field.selections, scope: scope, depth: depth)
                case .inlineFragment(let inline): walk(inline.selections, scope: scope, depth: depth)
                case .aliasedInlineFragment(let alias): walk(alias.selections, scope: scope, depth: depth)
                case .condition(let condition):
                    if (scope[condition.variable] ?? .null).isTruthy == condition.passingValue {
                        walk(condition.selections, scope: scope, depth: depth)
                    }
                case .fragmentSpread(let spread):
                    if let inline = spread.inlineData {
                        // Read with the parent, no reference: only the spreads inside it count.
                        let inner = bind(inline.argumentDefinitions, spread.args, scope: scope)
                        walk(inline.selections, scope: inner, depth: depth + 1)
                    } else if spread.name == fragment.name {
                        found.append(bind(fragment.argumentDefinitions, spread.args, scope: scope))
                    } else if let spreadFragment = fragments[spread.name] {
                        let inner = bind(spreadFragment.argumentDefinitions, spread.args, scope: scope)
                        walk(spreadFragment.selections, scope: inner, depth: depth + 1)
                    }
                case .scalarField, .typeDiscriminator: break
                }
            }
        }
        walk(reader, scope: root, depth: 0)
        guard let first = found.first else {
            throw RelayArenaError(
                code: .unknownFragment, message: "operation `\(name)` does not spread fragment `\(fragment.name)`")
        }
        guard found.allSatisfy({ $0 == first }) else {
            throw RelayArenaError(
                code: .invalidVariables,
                message:
                    "operation `\(name)` spreads fragment `\(fragment.name)` \(found.count) times with different arguments"
            )
        }
        return first
    }
}
