// A normalization plan: an operation bound to its variables and lowered once into the C core's
// flat plan (Arena/PlanLowering.swift), then reused for any number of payloads.

/// A compiled, variable-bound normalization plan. Immutable and reusable for many payloads.
public final class NormalizationPlan: @unchecked Sendable {
    let handle: PlanHandle
    public let operation: OperationArtifact
    public let variables: Variables
    /// Whether the operation has `@connection` fields or declarative mutation directives (each
    /// publish of a response then runs relay's handlers); found once, not per response.
    let hasHandles: Bool

    /// Binds `operation` to `variables` (effective variables are computed here).
    public init(operation: OperationArtifact, variables: Variables = [:]) throws {
        let effective = operation.effectiveVariables(variables)
        self.handle = try PlanHandle(lowering: operation.normalization, variables: effective)
        self.operation = operation
        self.variables = effective
        self.hasHandles = operation.normalization.containsConnectionHandle
    }

    deinit { handle.destroy() }
}
