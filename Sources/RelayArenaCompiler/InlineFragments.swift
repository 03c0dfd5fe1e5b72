// Normalization's inline_fragments + apply_fragment_arguments: every spread is replaced by its
// fragment's selections, with @argumentDefinitions locals bound to the spread's @arguments.

struct FragmentInliner {
    let fragments: [String: IRFragment]
    /// Flattens each fragment's inlined body once it is built (see `body(of:scope:)`).
    let flattener: Flattener

    /// A fragment's selections with its arguments bound: the same whatever the path to it.
    private struct BodyKey: Hashable {
        var fragment: String
        var arguments: [String: IRValue]
    }
    private var bodies: [BodyKey: [IRSelection]] = [:]

    init(fragments: [String: IRFragment], flattener: Flattener) {
        self.fragments = fragments
        self.flattener = flattener
    }

    /// `scope` maps the fragment-local variables of the current fragment to their bound values;
    /// any other variable is an operation variable and stays as written.
    mutating func inline(_ selections: [IRSelection], scope: [String: IRValue] = [:]) throws -> [IRSelection] {
        var result: [IRSelection] = []
        for selection in selections { result += try inline(selection, scope: scope) }
        return result
    }

    private mutating func inline(_ selection: IRSelection, scope: [String: IRValue]) throws -> [IRSelection] {
        switch selection {
        case .field(var field):
            field.args = field.args.map { IRArgument(name: $0.name, value: $0.value.substituting(scope)) }
            if let inner = field.selections { field.selections = try inline(inner, scope: scope) }
            return [.field(field)]
        case .inlineFragment(let type, let inner):
            return [.inlineFragment(type: type, selections: try inline(inner, scope: scope))]
        case .condition(let variable, let passingValue, let inner):
            switch scope[variable] {
            case nil:
                return [
                    .condition(
                        variable: variable, passingValue: passingValue, selections: try inline(inner, scope: scope))
                ]
            case .variable(let bound)?:
                return [
                    .condition(variable: bound, passingValue: passingValue, selections: try inline(inner, scope: scope))
                ]
            case let literal?:
                // A literal bound to a local condition decides it now, like a literal @include.
                return literal.isTruthy == passingValue ? try inline(inner, scope: scope) : []
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
            return [.inlineFragment(type: fragment.typeCondition, selections: try body(of: fragment, scope: local))]
        case .typeDiscriminator:
            return [selection]
        case .aliased(let alias):
            // Aliasing changes neither the request nor the store.
            return try inline(alias.unaliased, scope: scope)
        }
    }

    /// A fragment's selections inlined and flattened once per binding of its arguments, so a
    /// fragment reached along many paths (each fragment spreading the next twice) costs one
    /// expansion, not one per path. Flattening it here gives what flattening it later, in
    /// place, would: flatten merges in the first occurrence's order and is idempotent.
    private mutating func body(of fragment: IRFragment, scope: [String: IRValue]) throws -> [IRSelection] {
        let key = BodyKey(fragment: fragment.name, arguments: scope)
        if let known = bodies[key] { return known }
        let inlined = try inline(fragment.selections, scope: scope)
        try Self.checkSize(inlined, at: fragment.position, of: "Fragment \"\(fragment.name)\"")
        let body = flattener.flatten(inlined, parentType: fragment.typeCondition)
        bodies[key] = body
        return body
    }

    /// Refuses an expansion past `DocumentLimits.inlinedSelections` before anything walks it:
    /// copies of one fragment at different places (each level spreading the next under two
    /// fields) double at every level, and merging cannot fold them.
    static func checkSize(_ selections: [IRSelection], at position: IRPosition?, of what: String) throws {
        var remaining = DocumentLimits.inlinedSelections
        var pending = [selections[...]]
        while var list = pending.popLast() {
            while let selection = list.popFirst() {
                remaining -= 1
                guard remaining >= 0 else {
                    throw CompilerError(
                        file: position?.file ?? "<document>", line: position?.line ?? 1, column: position?.column ?? 1,
                        message:
                            "\(what) has more than \(DocumentLimits.inlinedSelections) selections once its fragment spreads are inlined."
                    )
                }
                switch selection {
                case .field(let field): if let inner = field.selections { pending.append(inner[...]) }
                case .inlineFragment(_, let inner), .condition(_, _, let inner): pending.append(inner[...])
                case .aliased(let alias): pending.append(alias.selections[...])
                case .spread, .typeDiscriminator: continue
                }
            }
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
