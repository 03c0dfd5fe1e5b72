// relay's flatten transform: inline fragments on the parent's own type are merged into the parent,
// and identical selections (same alias+name+args, same type condition, same condition) merge.

struct Flattener {
    let schema: SchemaModel
    /// Normalization only: an abstract fragment merged into a field of the same abstract type
    /// leaves a `typeDiscriminator` so the store still learns `__isX` for the concrete type.
    let emitTypeDiscriminators: Bool

    func flatten(_ selections: [IRSelection], parentType: String) -> [IRSelection] {
        merge(expand(selections, parentType: parentType))
    }

    private func expand(_ selections: [IRSelection], parentType: String) -> [IRSelection] {
        var result: [IRSelection] = []
        for selection in selections {
            switch selection {
            case .field(var field):
                if let inner = field.selections { field.selections = flatten(inner, parentType: field.typeName) }
                result.append(.field(field))
            case .inlineFragment(let type, let inner) where type == parentType:
                // relay's generate_typename puts the `__isX` field first in the fragment; flattened,
                // that field is what becomes the TypeDiscriminator, so it goes where the fragment was.
                if emitTypeDiscriminators, let key = schema.abstractKey(type) {
                    result.append(.typeDiscriminator(abstractKey: key))
                }
                result.append(contentsOf: expand(inner, parentType: parentType))
            case .inlineFragment(let type, let inner):
                result.append(.inlineFragment(type: type, selections: flatten(inner, parentType: type)))
            case .condition(let variable, let passingValue, let inner):
                result.append(
                    .condition(
                        variable: variable, passingValue: passingValue,
                        selections: flatten(inner, parentType: parentType)))
            case .aliased(var alias):
                alias.selections = flatten(alias.selections, parentType: alias.type ?? parentType)
                result.append(.aliased(alias))
            case .spread, .typeDiscriminator:
                result.append(selection)
            }
        }
        return result
    }

    private enum MergeKey: Hashable {
        case field(IRFieldKey)
        case inlineFragment(String)
        case condition(String, Bool)
        case other(IRSelection)
    }

    /// Keeps the first occurrence's position; later duplicates fold their children into it.
    /// Children were already flattened, so merging them again only needs `merge`.
    func merge(_ selections: [IRSelection]) -> [IRSelection] {
        var result: [IRSelection] = []
        var index: [MergeKey: Int] = [:]
        for selection in selections {
            let key: MergeKey
            switch selection {
            case .field(let field): key = .field(field.mergeKey)
            case .inlineFragment(let type, _): key = .inlineFragment(type)
            case .condition(let variable, let passingValue, _): key = .condition(variable, passingValue)
            case .spread, .typeDiscriminator, .aliased: key = .other(selection)
            }
            guard let position = index[key] else {
                index[key] = result.count
                result.append(selection)
                continue
            }
            result[position] = combine(result[position], selection)
        }
        return result
    }

    private func combine(_ first: IRSelection, _ second: IRSelection) -> IRSelection {
        switch (first, second) {
        case (.field(var a), .field(let b)):
            if let left = a.selections, let right = b.selections { a.selections = merge(left + right) }
            return .field(a)
        case (.inlineFragment(let type, let a), .inlineFragment(_, let b)):
            return .inlineFragment(type: type, selections: merge(a + b))
        case (.condition(let variable, let passingValue, let a), .condition(_, _, let b)):
            return .condition(variable: variable, passingValue: passingValue, selections: merge(a + b))
        default:
            return first
        }
    }
}
