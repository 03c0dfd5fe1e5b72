// Prints the query text sent to the server from the normalization IR: fragments already inlined
// (so fragment-local @arguments are bound), with the generated `id`/`__typename`/`__isX` fields.

struct QueryPrinter {
    let schema: SchemaModel

    func print(
        kind: String, name: String, variables: [IRArgumentDefinition], directives: [IRDirective] = [],
        selections: [IRSelection]
    ) -> String {
        // Variables only relay's directives use (`connections:` of @appendEdge, …) are not sent
        // (relay's skipUnusedVariablesTransform): a server would refuse an unused one. The
        // operation's own server directives use theirs (`@inContext(country: $country)`).
        var used = Set<String>()
        Self.collectVariables(selections, into: &used)
        for directive in directives { Self.collectVariables(directive.args, into: &used) }
        let variables = variables.filter { used.contains($0.name) }
        var header = "\(kind) \(name)"
        if !variables.isEmpty {
            let written = variables.map { variable in
                "$\(variable.name): \(variable.type)" + (variable.defaultValue.map { " = \(Self.value($0))" } ?? "")
            }
            header += "(" + written.joined(separator: ", ") + ")"
        }
        for directive in directives {
            header += " @" + directive.name
            if !directive.args.isEmpty {
                header +=
                    "(" + directive.args.map { "\($0.name): \(Self.value($0.value))" }.joined(separator: ", ") + ")"
            }
        }
        var lines = [header + " {"]
        block(selections, depth: 1, into: &lines)
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func collectVariables(_ arguments: [IRArgument], into used: inout Set<String>) {
        func value(_ v: IRValue) {
            switch v {
            case .variable(let name): used.insert(name)
            case .list(let items):
                for item in items { value(item) }
            case .object(let members):
                for member in members { value(member.value) }
            default: break
            }
        }
        for argument in arguments { value(argument.value) }
    }

    private static func collectVariables(_ selections: [IRSelection], into used: inout Set<String>) {
        for selection in selections {
            switch selection {
            case .field(let field):
                collectVariables(field.args, into: &used)
                collectVariables(field.selections ?? [], into: &used)
            case .inlineFragment(_, let inner): collectVariables(inner, into: &used)
            case .condition(let variable, _, let inner):
                used.insert(variable)
                collectVariables(inner, into: &used)
            case .spread(_, let args):
                collectVariables(args, into: &used)
            case .aliased(let alias): collectVariables(alias.selections, into: &used)
            case .typeDiscriminator: break
            }
        }
    }

    private func block(_ selections: [IRSelection], depth: Int, into lines: inout [String]) {
        let indent = String(repeating: "  ", count: depth)
        for selection in selections {
            switch selection {
            case .field(let field):
                var text = indent + (field.alias.map { "\($0): " } ?? "") + field.name
                if !field.args.isEmpty {
                    text += "(" + field.args.map { "\($0.name): \(Self.value($0.value))" }.joined(separator: ", ") + ")"
                }
                guard let inner = field.selections else {
                    lines.append(text)
                    continue
                }
                lines.append(text + " {")
                block(inner, depth: depth + 1, into: &lines)
                lines.append(indent + "}")
            case .inlineFragment(let type, let inner):
                lines.append(indent + "... on \(type) {")
                // The server answers `__isX` only for objects of a type that is an X (relay's discriminator).
                if let key = schema.abstractKey(type) { lines.append(indent + "  \(key): __typename") }
                block(inner, depth: depth + 1, into: &lines)
                lines.append(indent + "}")
            case .condition(let variable, let passingValue, let inner):
                lines.append(indent + "... @\(passingValue ? "include" : "skip")(if: $\(variable)) {")
                block(inner, depth: depth + 1, into: &lines)
                lines.append(indent + "}")
            case .typeDiscriminator(let key):
                lines.append(indent + "\(key): __typename")
            case .spread(let name, _):
                // Normalization IR never holds spreads; printed as written should one slip through.
                lines.append(indent + "...\(name)")
            case .aliased(let alias):
                // Nor aliases (the inliner removes them): printed as what they wrap.
                block(alias.unaliased, depth: depth, into: &lines)
            }
        }
    }

    /// GraphQL value syntax (JSON string escaping is valid GraphQL string escaping).
    static func value(_ value: IRValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let bool): return bool ? "true" : "false"
        case .int(let text), .float(let text), .enumValue(let text): return text
        case .string(let string): return StorageKeyFormatter.stringify(.string(string))
        case .variable(let name): return "$\(name)"
        case .list(let items): return "[" + items.map(Self.value).joined(separator: ", ") + "]"
        case .object(let members):
            return "{" + members.map { "\($0.key): \(Self.value($0.value))" }.joined(separator: ", ") + "}"
        }
    }
}
