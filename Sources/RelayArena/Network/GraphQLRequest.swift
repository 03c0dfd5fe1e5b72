// One GraphQL request as relay's network layer is handed it: text, effective variables, name;
// its identifier (identical requests share one flight) and its POST body.
import Foundation

/// One GraphQL request, as relay's network layer is handed it: the operation's text as the
/// compiler emits it (added selections, the fragments it spreads), its effective variables and
/// its name.
public struct GraphQLRequest: Sendable, Hashable {
    public let operation: OperationArtifact
    /// The operation's declared variables exactly: defaults applied, `null` for one not given
    /// that has no default, undeclared ones dropped.
    public let variables: Variables

    public init(operation: OperationArtifact, variables: Variables) {
        self.operation = operation
        self.variables = operation.effectiveVariables(variables)
    }

    public var name: String { operation.name }
    public var text: String { operation.text }

    /// Identical requests (same text, same variables) have the same identifier: the environment
    /// sends one of them while it is in flight (relay's request identifier).
    public var identifier: String { operation.requestIdentifier(effective: variables) }

    /// The variables as JSON, keys sorted (relay's stableCopy): equal variables, equal text.
    public var variablesJSON: String { operation.variablesJSON(variables) }

    /// The POST body: `{"query": text, "variables": {…}, "operationName": name}`.
    public var body: [UInt8] {
        var out = "{\"query\":"
        JSONString.escape(text, into: &out)
        out += ",\"variables\":" + variablesJSON + ",\"operationName\":"
        JSONString.escape(name, into: &out)
        out += "}"
        return Array(out.utf8)
    }

    public static func == (a: GraphQLRequest, b: GraphQLRequest) -> Bool {
        a.operation.name == b.operation.name && a.operation.text == b.operation.text && a.variables == b.variables
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(operation.name)
        hasher.combine(variablesJSON)
    }
}
