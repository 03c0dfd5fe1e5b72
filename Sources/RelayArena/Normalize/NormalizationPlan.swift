// An operation's normalization AST bound to variables and lowered into the flat C plan:
// storage keys final, @skip/@include resolved, type conditions as AND-lists per selection.

/// A compiled, variable-bound normalization plan. Immutable and reusable for many payloads.
public final class NormalizationPlan: @unchecked Sendable {
    let handle: PlanHandle
    public let operation: OperationArtifact
    public let variables: Variables

    /// Binds `operation` to `variables` (effective variables are computed here).
    public init(operation: OperationArtifact, variables: Variables = [:]) throws {
        let effective = operation.effectiveVariables(variables)
        self.handle = try PlanHandle(lowering: operation.normalization, variables: effective)
        self.operation = operation
        self.variables = effective
    }

    deinit { handle.destroy() }
}
