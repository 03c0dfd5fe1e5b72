// Operation variables as relay-runtime computes them (getOperationVariables), and argument
// values resolved against them (getArgumentValues), which storage keys are formatted from.

/// Variables by name. A name that is absent is JavaScript's `undefined`.
public typealias Variables = [String: JSONValue]

extension OperationArtifact {
    /// Every declared variable; a missing or `null` value takes the declared default (Relay's
    /// deviation from the GraphQL spec), else `null`. Undeclared variables are dropped.
    package func effectiveVariables(_ given: Variables) -> Variables {
        var out: Variables = [:]
        for def in variables {
            if let v = given[def.name], v != .null {
                out[def.name] = v
            } else {
                out[def.name] = def.defaultValue ?? .null
            }
        }
        // relay's getOperationVariables: a provided variable is its provider's, whatever was given.
        for (name, provider) in providedVariables { out[name] = ProvidedVariables.value(of: provider) }
        return out
    }

    /// relay's request identifier: the operation's name and its effective variables as JSON, keys
    /// sorted (relay's stableCopy): identical requests, equal identifiers (one flight; one root).
    func requestIdentifier(_ given: Variables) -> String {
        requestIdentifier(effective: effectiveVariables(given))
    }

    /// The same, for variables that are already the effective ones.
    func requestIdentifier(effective: Variables) -> String { name + ":" + variablesJSON(effective) }

    /// Effective variables as JSON, keys sorted.
    func variablesJSON(_ effective: Variables) -> String {
        JSONValue.object(variables.map { JSONMember($0.name, effective[$0.name] ?? .null) }).stableJSON
    }

    /// Effective variables in declaration order, for printing (`__fragmentOwner`).
    func effectiveVariableMembers(_ given: Variables) -> [JSONMember] {
        let eff = effectiveVariables(given)
        return variables.map { JSONMember($0.name, eff[$0.name] ?? .null) }
    }
}

extension ArgumentValue {
    /// The runtime value; `nil` is `undefined` (an unset variable).
    func resolve(_ variables: Variables) -> JSONValue? {
        switch self {
        case .literal(let v): return v
        case .variable(let name): return variables[name]
        case .object(let members):
            // A member whose variable is null or undefined is kept as null.
            return .object(members.map { JSONMember($0.key, $0.value.resolve(variables) ?? .null) })
        case .list(let items):
            // relay's getArgumentValue drops items whose literal is null; variables stay.
            return .array(
                items.compactMap { item -> JSONValue? in
                    if case .literal(.null) = item { return nil }
                    return item.resolve(variables) ?? .null
                })
        }
    }
}

extension ScalarField {
    /// The storage key with these variables (relay's getStorageKey).
    package func storageKey(_ variables: Variables) -> String { StorageKey.of(self, variables) }
}

extension LinkedField {
    /// The storage key with these variables (relay's getStorageKey).
    package func storageKey(_ variables: Variables) -> String { StorageKey.of(self, variables) }
}

enum StorageKey {
    /// formatStorageKey: `name(arg:JSON,…)` over the arguments whose value is not null/undefined.
    static func format(name: String, args: [Argument], variables: Variables) -> String {
        var parts: [String] = []
        for arg in args {
            guard let value = arg.value.resolve(variables), value != .null else { continue }
            parts.append(arg.name + ":" + value.stableJSON)
        }
        return parts.isEmpty ? name : name + "(" + parts.joined(separator: ",") + ")"
    }

    static func of(_ f: ScalarField, _ variables: Variables) -> String {
        f.storageKey ?? format(name: f.name, args: f.args, variables: variables)
    }

    static func of(_ f: LinkedField, _ variables: Variables) -> String {
        f.storageKey ?? format(name: f.name, args: f.args, variables: variables)
    }
}
