// Rejects two different fields under one response key (`user(id: "a")` and `user(id: "b")` both
// answered as `user`). GraphQLSwift 4.3.0 leaves OverlappingFieldsCanBeMergedRule disabled.
import RelayArena

struct FieldConflictCheck {
    let schema: SchemaModel

    /// Checks a flattened selection list (fragments inlined for operations) and every nested one.
    func check(_ selections: [IRSelection], parentType: String) throws {
        var seen: [String: (field: IRField, scope: String)] = [:]
        for (field, scope) in fields(selections, scope: parentType) {
            if let (first, firstScope) = seen[field.responseKey] {
                if first.name != field.name || first.args != field.args, canOverlap(firstScope, scope) {
                    throw conflict(first, field)
                }
            } else {
                seen[field.responseKey] = (field, scope)
            }
        }
        for selection in selections {
            try checkNested(selection, parentType: parentType)
        }
    }

    private func checkNested(_ selection: IRSelection, parentType: String) throws {
        switch selection {
        case .field(let field):
            if let inner = field.selections { try check(inner, parentType: field.typeName) }
        case .inlineFragment(_, let inner), .condition(_, _, let inner):
            // The fields themselves were compared by the enclosing list; only go deeper.
            for nested in inner { try checkNested(nested, parentType: parentType) }
        case .aliased(let alias):
            // Its own response object.
            try check(alias.selections, parentType: alias.type ?? parentType)
        case .spread, .typeDiscriminator:
            break
        }
    }

    /// The fields answered on one response object, with the type condition they sit under.
    private func fields(_ selections: [IRSelection], scope: String) -> [(IRField, String)] {
        selections.flatMap { selection -> [(IRField, String)] in
            switch selection {
            case .field(let field): return [(field, scope)]
            case .inlineFragment(let type, let inner): return fields(inner, scope: type)
            case .condition(_, _, let inner): return fields(inner, scope: scope)
            case .spread, .typeDiscriminator, .aliased: return []
            }
        }
    }

    /// Two different object types never describe the same response object, so fields under
    /// `... on Human` and `... on Droid` may reuse a response key; anything abstract may overlap.
    private func canOverlap(_ a: String, _ b: String) -> Bool {
        a == b || schema.isAbstract(a) || schema.isAbstract(b)
    }

    private func conflict(_ first: IRField, _ second: IRField) -> CompilerError {
        let describe = { (field: IRField) -> String in
            let args = field.args.map { "\($0.name): \(QueryPrinter.value($0.value))" }.joined(separator: ", ")
            return field.name + (args.isEmpty ? "" : "(\(args))")
        }
        let position = second.position ?? first.position
        var message =
            "Fields \"\(second.responseKey)\" conflict: \(describe(first)) and \(describe(second)) are different fields."
        if let earlier = first.position {
            message += " Use different aliases (first one at \(earlier.file):\(earlier.line):\(earlier.column))."
        }
        return CompilerError(
            file: position?.file ?? "<document>", line: position?.line ?? 1, column: position?.column ?? 1,
            message: message)
    }
}
