// IR → the runtime's artifact IR (`RelayArena.Selection`): argument values to JSON/ArgumentValue,
// static storage keys, concrete types and abstract keys.
import RelayArena

struct ArtifactEmitter {
    let schema: SchemaModel
    /// The reader's selections: a `@connection` field reads its handle (`__<key>_connection` with
    /// the filter arguments) under its response key; normalization keeps the server field and
    /// gets the handle.
    var reader = false

    func selections(_ selections: [IRSelection]) -> [Selection] {
        selections.map(selection)
    }

    private func selection(_ selection: IRSelection) -> Selection {
        switch selection {
        case .field(let field):
            // relay's compiler drops literal null arguments (runtime formatting would skip them too).
            let written = field.args.filter { $0.value != .null }
            let args = written.map { Argument(name: $0.name, value: Self.argumentValue($0.value)) }
            let storageKey = Self.staticStorageKey(name: field.name, args: written)
            let mutationHandle =
                reader
                ? nil
                : field.mutationHandle.map { h in
                    MutationHandle(
                        kind: MutationHandle.Kind(rawValue: h.kind) ?? .deleteRecord,
                        connections: h.connections.map(Self.argumentValue), edgeTypeName: h.edgeTypeName)
                }
            guard let inner = field.selections else {
                return .scalarField(
                    ScalarField(
                        alias: field.alias, name: field.name, args: args, storageKey: storageKey,
                        shape: Self.valueShape(field), mutationHandle: mutationHandle,
                        isClientExtension: field.isClient,
                        required: reader ? field.required : nil, catchTo: reader ? field.catchTo : nil))
            }
            let concreteType = schema.isObject(field.typeName) ? field.typeName : nil
            if let connection = field.connection {
                let handle = ConnectionHandle(key: connection.key, filters: connection.filters)
                if reader {
                    let kept = written.filter {
                        handle.filters?.contains($0.name) ?? !ConnectionHandle.paginationArguments.contains($0.name)
                    }
                    return .linkedField(
                        LinkedField(
                            alias: field.responseKey, name: handle.handleName,
                            args: kept.map { Argument(name: $0.name, value: Self.argumentValue($0.value)) },
                            storageKey: Self.staticStorageKey(name: handle.handleName, args: kept),
                            concreteType: concreteType, plural: field.plural, selections: selections(inner),
                            handle: ConnectionHandle(
                                key: connection.key, filters: connection.filters, fieldName: field.name),
                            required: field.required, catchTo: field.catchTo))
                }
                return .linkedField(
                    LinkedField(
                        alias: field.alias, name: field.name, args: args, storageKey: storageKey,
                        concreteType: concreteType, plural: field.plural, selections: selections(inner), handle: handle)
                )
            }
            return .linkedField(
                LinkedField(
                    alias: field.alias, name: field.name, args: args, storageKey: storageKey,
                    concreteType: concreteType, plural: field.plural, selections: selections(inner),
                    mutationHandle: mutationHandle, isClientExtension: field.isClient,
                    required: reader ? field.required : nil, catchTo: reader ? field.catchTo : nil))
        case .inlineFragment(let type, let inner):
            return .inlineFragment(
                InlineFragment(type: type, abstractKey: schema.abstractKey(type), selections: selections(inner)))
        case .condition(let variable, let passingValue, let inner):
            return .condition(Condition(variable: variable, passingValue: passingValue, selections: selections(inner)))
        case .spread(let name, let args):
            return .fragmentSpread(
                FragmentSpread(
                    name: name, args: args.map { Argument(name: $0.name, value: Self.argumentValue($0.value)) }))
        case .typeDiscriminator(let abstractKey):
            return .typeDiscriminator(abstractKey: abstractKey)
        case .aliased(let alias):
            return .aliasedInlineFragment(
                AliasedInlineFragment(
                    name: alias.name, type: alias.type, abstractKey: alias.type.flatMap(schema.abstractKey),
                    selections: selections(alias.selections), catchTo: alias.catchTo))
        }
    }

    /// Custom scalars are stored verbatim whatever JSON they hold; built-in scalars and enums
    /// (and lists of them) never hold objects, which lets the normalizer reject such responses.
    static func valueShape(_ field: IRField) -> ValueShape {
        if field.isCustomScalar { return .any }
        return field.plural ? .list : .scalar
    }

    /// Set only when there are arguments and none contains a variable; without arguments the
    /// runtime uses the field name, so `nil` is left there.
    static func staticStorageKey(name: String, args: [IRArgument]) -> String? {
        guard !args.isEmpty, !args.contains(where: { $0.value.containsVariable }) else { return nil }
        return StorageKeyFormatter.format(name: name, args: args.map { ($0.name, json($0.value)) })
    }

    /// Variable-free subtrees become `.literal`, so the runtime only walks the parts that vary.
    static func argumentValue(_ value: IRValue) -> ArgumentValue {
        guard value.containsVariable else { return .literal(json(value)) }
        switch value {
        case .variable(let name): return .variable(name)
        case .list(let items): return .list(items.map(argumentValue))
        case .object(let members): return .object(members.map { ArgumentMember($0.key, argumentValue($0.value)) })
        default: return .literal(json(value))
        }
    }

    /// Literal → JSON: enums become strings; Int literals too large for Int64 fall back to a
    /// double (only custom scalars can take them). Variables have no literal value: `null`.
    static func json(_ value: IRValue) -> JSONValue {
        switch value {
        case .null, .variable: return .null
        case .bool(let bool): return .bool(bool)
        case .int(let text): return Int64(text).map(JSONValue.int) ?? .double(Double(text) ?? 0)
        case .float(let text): return .double(Double(text) ?? 0)
        case .string(let string), .enumValue(let string): return .string(string)
        case .list(let items): return .array(items.map(json))
        case .object(let members): return .object(members.map { JSONMember($0.key, json($0.value)) })
        }
    }

    func variables(_ definitions: [IRArgumentDefinition]) -> [VariableDefinition] {
        definitions.map {
            VariableDefinition(name: $0.name, type: $0.type, defaultValue: $0.defaultValue.map(Self.json))
        }
    }
}
