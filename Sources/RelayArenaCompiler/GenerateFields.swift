// relay's generate_typename and generate_id_field for normalization: the fields the store needs to
// pick record types and data IDs, added to every linked field (never to the operation root).

struct FieldGenerator {
    let schema: SchemaModel

    /// Applies to every linked field inside `selections` (the root selections themselves get nothing).
    func apply(_ selections: [IRSelection]) -> [IRSelection] {
        selections.map { selection in
            switch selection {
            case .field(let field) where field.isLinked:
                return .field(generate(field))
            case .inlineFragment(let type, let inner):
                return .inlineFragment(type: type, selections: apply(inner))
            case .condition(let variable, let passingValue, let inner):
                return .condition(variable: variable, passingValue: passingValue, selections: apply(inner))
            default:
                return selection
            }
        }
    }

    private func generate(_ field: IRField) -> IRField {
        var field = field
        let original = field.selections ?? []
        var selections = apply(original)
        let type = field.typeName
        // Only direct, unaliased selections count (an aliased `id`, or one inside a fragment or
        // condition, is not stored under `id` on every path).
        if !hasUnaliased("id", in: original) {
            if schema.hasIDField(type) {
                selections.insert(scalar("id"), at: 0)
            } else if schema.isAbstract(type) {
                selections.append(contentsOf: idFragments(forAbstract: type))
            }
        }
        if schema.isAbstract(type), !hasUnaliased("__typename", in: original) {
            selections.insert(scalar("__typename"), at: 0)
        }
        field.selections = selections
        return field
    }

    /// An interface without `id` or a union: `... on Node { id }` when some member implements Node,
    /// then `... on T { id }` for members with an `id: ID` that do not (sorted by name, as relay).
    private func idFragments(forAbstract type: String) -> [IRSelection] {
        var fragments: [IRSelection] = []
        let members = schema.possibleObjectTypes(type)
        if let node = schema.nodeInterfaceName, members.contains(where: schema.implementsNode) {
            fragments.append(.inlineFragment(type: node, selections: [scalar("id")]))
        }
        for member in members where !schema.implementsNode(member) && schema.hasIDField(member) {
            fragments.append(.inlineFragment(type: member, selections: [scalar("id")]))
        }
        return fragments
    }

    private func hasUnaliased(_ name: String, in selections: [IRSelection]) -> Bool {
        selections.contains { selection in
            if case .field(let field) = selection { return field.alias == nil && field.name == name }
            return false
        }
    }

    private func scalar(_ name: String) -> IRSelection {
        .field(
            IRField(
                alias: nil, name: name, args: [], typeName: name == "id" ? "ID" : "String", plural: false,
                isCustomScalar: false, selections: nil))
    }
}
