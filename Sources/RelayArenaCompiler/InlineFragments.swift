// Normalization's inline_fragments + apply_fragment_arguments: every spread is replaced by its
// fragment's selections, with @argumentDefinitions locals bound to the spread's @arguments.

struct FragmentInliner {
    let fragments: [String: IRFragment]

    /// `scope` maps the fragment-local variables of the current fragment to their bound values;
    /// any other variable is an operation variable and stays as written.
    func inline(_ selections: [IRSelection], scope: [String: IRValue] = [:]) -> [IRSelection] {
        selections.flatMap { inline($0, scope: scope) }
    }

    private func inline(_ selection: IRSelection, scope: [String: IRValue]) -> [IRSelection] {
        switch selection {
        case .field(var field):
            field.args = field.args.map { IRArgument(name: $0.name, value: $0.value.substituting(scope)) }
            if let inner = field.selections { field.selections = inline(inner, scope: scope) }
            return [.field(field)]
        case .inlineFragment(let type, let inner):
            return [.inlineFragment(type: type, selections: inline(inner, scope: scope))]
        case .condition(let variable, let passingValue, let inner):
            switch scope[variable] {
            case nil:
                return [
                    .condition(variable: variable, passingValue: passingValue, selections: inline(inner, scope: scope))
                ]
            case .variable(let bound)?:
                return [
                    .condition(variable: bound, passingValue: passingValue, selections: inline(inner, scope: scope))
                ]
            case let literal?:
                // A literal bound to a local condition decides it now, like a literal @include.
                return literal.isTruthy == passingValue ? inline(inner, scope: scope) : []
            }
        case .spread(let name, let args):
            guard let fragment = fragments[name] else { return [] }
            let passed = Dictionary(
                args.map { ($0.name, $0.value.substituting(scope)) }, uniquingKeysWith: { first, _ in first })
            var local: [String: IRValue] = [:]
            for definition in fragment.argumentDefinitions {
                // Neither passed nor defaulted: relay binds null, which drops the argument.
                local[definition.name] = passed[definition.name] ?? definition.defaultValue ?? .null
            }
            return [
                .inlineFragment(type: fragment.typeCondition, selections: inline(fragment.selections, scope: local))
            ]
        case .typeDiscriminator:
            return [selection]
        }
    }
}

extension IRValue {
    /// JavaScript's `Boolean(value)`, which relay-runtime applies to condition variables.
    var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let value): return value
        case .int(let text), .float(let text): return (Double(text) ?? 0) != 0
        case .string(let text): return !text.isEmpty
        case .enumValue, .list, .object, .variable: return true
        }
    }
}
