// Artifacts printed as Swift expressions, so a generated file carries its own reader and
// normalization ASTs and the runtime never parses GraphQL. Deterministic: same artifact, same text.
import RelayArena

struct SwiftArtifactLiteral {
    private var out = ""

    static func fragment(_ f: FragmentArtifact) -> String {
        var p = SwiftArtifactLiteral()
        p.out += "FragmentArtifact(\n"
        p.out += "        name: \(SwiftName.literal(f.name)), typeCondition: \(SwiftName.literal(f.typeCondition)),\n"
        p.out += "        abstractKey: \(optional(f.abstractKey)),\n"
        p.out += "        argumentDefinitions: \(variables(f.argumentDefinitions)), plural: \(f.plural),\n"
        p.out += "        selections: "
        p.selections(f.selections, indent: 2)
        p.out += errorHandling(throwOnFieldError: f.throwOnFieldError, catchTo: f.catchTo, separator: ",\n        ")
        p.out += ")"
        return p.out
    }

    static func operation(_ o: OperationArtifact) -> String {
        var p = SwiftArtifactLiteral()
        p.out += "OperationArtifact(\n"
        p.out += "        name: \(SwiftName.literal(o.name)), kind: .\(o.kind.rawValue),\n"
        p.out += "        variables: \(variables(o.variables)),\n"
        p.out += "        normalization: "
        p.selections(o.normalization, indent: 2)
        p.out += ",\n        reader: "
        p.selections(o.reader, indent: 2)
        p.out += ",\n        text: \(SwiftName.literal(o.text))"
        if !o.providedVariables.isEmpty {
            let pairs = o.providedVariables.sorted { $0.key < $1.key }
                .map { "\(SwiftName.literal($0.key)): \(SwiftName.literal($0.value))" }
            p.out += ",\n        providedVariables: [" + pairs.joined(separator: ", ") + "]"
        }
        p.out += errorHandling(throwOnFieldError: o.throwOnFieldError, catchTo: o.catchTo, separator: ",\n        ")
        p.out += ")"
        return p.out
    }

    /// One selection, as `selection(_:indent:)` prints it inside a list.
    static func selection(_ s: Selection) -> String {
        var p = SwiftArtifactLiteral()
        p.selection(s, indent: 0)
        return p.out
    }

    /// `, throwOnFieldError: true`, `, catchTo: .result`, `, required: .throw`, or nothing.
    private static func errorHandling(
        throwOnFieldError: Bool = false, catchTo: CatchTo?, required: RequiredAction? = nil, separator: String = ", "
    ) -> String {
        var out = ""
        if throwOnFieldError { out += separator + "throwOnFieldError: true" }
        // (`RequiredAction.none` spelled out: `.none` would be the optional's.)
        if let required {
            out +=
                separator + "required: "
                + (required == .none ? "RequiredAction.none" : required == .log ? ".log" : ".throw")
        }
        if let catchTo { out += separator + "catchTo: .\(catchTo == .result ? "result" : "null")" }
        return out
    }

    private static func optional(_ s: String?) -> String { s.map(SwiftName.literal) ?? "nil" }

    private static func variables(_ defs: [VariableDefinition]) -> String {
        let items = defs.map { d in
            "VariableDefinition(name: \(SwiftName.literal(d.name)), type: \(SwiftName.literal(d.type)), defaultValue: \(d.defaultValue.map(json) ?? "nil"))"
        }
        return "[" + items.joined(separator: ", ") + "]"
    }

    private mutating func selections(_ list: [Selection], indent: Int) {
        if list.isEmpty {
            out += "[]"
            return
        }
        let pad = String(repeating: "    ", count: indent + 1)
        out += "[\n"
        for s in list {
            out += pad
            selection(s, indent: indent + 1)
            out += ",\n"
        }
        out += String(repeating: "    ", count: indent) + "]"
    }

    private mutating func selection(_ s: Selection, indent: Int) {
        switch s {
        case .scalarField(let f):
            out += ".scalarField(ScalarField(alias: \(Self.optional(f.alias)), name: \(SwiftName.literal(f.name)), "
            out += "args: \(Self.arguments(f.args)), storageKey: \(Self.optional(f.storageKey)), shape: .\(f.shape)"
            out += Self.mutationHandle(f.mutationHandle)
            if f.isClientExtension { out += ", isClientExtension: true" }
            out += Self.errorHandling(catchTo: f.catchTo, required: f.required)
            out += "))"
        case .linkedField(let f):
            out += ".linkedField(LinkedField(alias: \(Self.optional(f.alias)), name: \(SwiftName.literal(f.name)), "
            out += "args: \(Self.arguments(f.args)), storageKey: \(Self.optional(f.storageKey)), "
            out += "concreteType: \(Self.optional(f.concreteType)), plural: \(f.plural), selections: "
            selections(f.selections, indent: indent)
            if let handle = f.handle {
                out += ", handle: ConnectionHandle(key: \(SwiftName.literal(handle.key)), filters: "
                out += handle.filters.map { "[" + $0.map(SwiftName.literal).joined(separator: ", ") + "]" } ?? "nil"
                if let fieldName = handle.fieldName { out += ", fieldName: \(SwiftName.literal(fieldName))" }
                out += ")"
            }
            out += Self.mutationHandle(f.mutationHandle)
            if f.isClientExtension { out += ", isClientExtension: true" }
            out += Self.errorHandling(catchTo: f.catchTo, required: f.required)
            out += "))"
        case .condition(let c):
            out +=
                ".condition(Condition(variable: \(SwiftName.literal(c.variable)), passingValue: \(c.passingValue), selections: "
            selections(c.selections, indent: indent)
            out += "))"
        case .inlineFragment(let i):
            out +=
                ".inlineFragment(InlineFragment(type: \(SwiftName.literal(i.type)), abstractKey: \(Self.optional(i.abstractKey)), selections: "
            selections(i.selections, indent: indent)
            out += "))"
        case .typeDiscriminator(let key):
            out += ".typeDiscriminator(abstractKey: \(SwiftName.literal(key)))"
        case .aliasedInlineFragment(let a):
            out += ".aliasedInlineFragment(AliasedInlineFragment(name: \(SwiftName.literal(a.name)), "
            out += "type: \(Self.optional(a.type)), abstractKey: \(Self.optional(a.abstractKey)), selections: "
            selections(a.selections, indent: indent)
            out += Self.errorHandling(catchTo: a.catchTo)
            out += "))"
        case .fragmentSpread(let spread):
            out +=
                ".fragmentSpread(FragmentSpread(name: \(SwiftName.literal(spread.name)), args: \(Self.arguments(spread.args))"
            if let inlineData = spread.inlineData {
                out +=
                    ", inlineData: InlineDataFragment(argumentDefinitions: \(Self.variables(inlineData.argumentDefinitions)), selections: "
                selections(inlineData.selections, indent: indent)
                out += ")"
            }
            out += "))"
        }
    }

    /// `, mutationHandle: MutationHandle(…)`, or nothing.
    static func mutationHandle(_ h: MutationHandle?) -> String {
        guard let h else { return "" }
        var out = ", mutationHandle: MutationHandle(kind: .\(h.kind.rawValue)"
        if let c = h.connections { out += ", connections: \(argumentValue(c))" }
        if let e = h.edgeTypeName { out += ", edgeTypeName: \(SwiftName.literal(e))" }
        return out + ")"
    }

    static func arguments(_ args: [Argument]) -> String {
        "["
            + args.map { "Argument(name: \(SwiftName.literal($0.name)), value: \(argumentValue($0.value)))" }
            .joined(separator: ", ") + "]"
    }

    static func argumentValue(_ v: ArgumentValue) -> String {
        switch v {
        case .literal(let j): return ".literal(\(json(j)))"
        case .variable(let name): return ".variable(\(SwiftName.literal(name)))"
        case .object(let members):
            return ".object(["
                + members.map { "ArgumentMember(\(SwiftName.literal($0.key)), \(argumentValue($0.value)))" }
                .joined(separator: ", ") + "])"
        case .list(let items): return ".list([" + items.map(argumentValue).joined(separator: ", ") + "])"
        }
    }

    static func json(_ v: JSONValue) -> String {
        switch v {
        case .null: return ".null"
        case .bool(let b): return ".bool(\(b))"
        case .int(let i): return ".int(\(i))"
        case .double(let d): return d.isFinite ? ".double(\(d))" : ".null"
        case .string(let s): return ".string(\(SwiftName.literal(s)))"
        case .array(let items): return ".array([" + items.map(json).joined(separator: ", ") + "])"
        case .object(let members):
            return ".object(["
                + members.map { "JSONMember(\(SwiftName.literal($0.key)), \(json($0.value)))" }
                .joined(separator: ", ") + "])"
        }
    }
}
