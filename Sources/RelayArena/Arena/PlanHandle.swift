// The C normalization plan (`ra_plan`) behind one handle: made from the lowered arrays, read by
// normalizers, destroyed by its `NormalizationPlan`.
internal import CRelayArena

struct PlanHandle {
    let raw: OpaquePointer

    /// Lowers `selections` with `variables` (see PlanBuilder) and has the C core validate them.
    init(lowering selections: [Selection], variables: Variables) throws {
        var b = PlanBuilder(variables: variables)
        _ = b.buildSet(selections)
        b.strings.append(0)  // never empty, so the buffer always has an address
        var err = ra_error()
        let plan = b.strings.withUnsafeBufferPointer { s in
            s.withMemoryRebound(to: CChar.self) { chars in
                ra_plan_create(
                    chars.baseAddress!, chars.count, b.table, UInt32(b.table.count),
                    b.sets, UInt32(b.sets.count), b.sels, UInt32(b.sels.count),
                    b.conds, UInt32(b.conds.count), b.checks, UInt32(b.checks.count), &err)
            }
        }
        guard let plan else { throw RelayArenaError(err, aboutInput: false) }
        self.raw = plan
    }

    func destroy() { ra_plan_destroy(raw) }
}
