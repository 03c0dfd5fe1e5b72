// Lowers a normalization AST, bound to variables, into the C plan's flat arrays: storage keys
// final, @skip/@include resolved, type conditions as AND-lists per selection.
internal import CRelayArena

struct PlanBuilder {
    let variables: Variables
    var strings: [UInt8] = []
    var table: [ra_plan_string] = []
    var interned: [String: UInt32] = [:]
    var sets: [ra_plan_set] = []
    var sels: [ra_plan_sel] = []
    var conds: [ra_plan_cond] = []
    var checks: [ra_plan_check] = []

    init(variables: Variables) { self.variables = variables }

    mutating func string(_ s: String) -> UInt32 {
        if let i = interned[s] { return i }
        let i = UInt32(table.count)
        table.append(ra_plan_string(offset: UInt32(strings.count), length: UInt32(s.utf8.count)))
        strings.append(contentsOf: s.utf8)
        interned[s] = i
        return i
    }

    private mutating func condRange(_ cs: [(UInt32, UInt32)]) -> (UInt32, UInt32) {
        let first = UInt32(conds.count)
        for (kind, name) in cs { conds.append(ra_plan_cond(kind: kind, name: name)) }
        return (first, UInt32(cs.count))
    }

    /// Appends a set (children first, then this set's contiguous selections); set 0 is the root.
    mutating func buildSet(_ selections: [Selection]) -> UInt32 {
        let index = sets.count
        sets.append(ra_plan_set())
        var mine: [ra_plan_sel] = []
        var myChecks: [ra_plan_check] = []
        walk(selections, conds: [], into: &mine, checks: &myChecks)
        sets[index] = ra_plan_set(
            sel_first: UInt32(sels.count), sel_count: UInt32(mine.count),
            check_first: UInt32(checks.count), check_count: UInt32(myChecks.count))
        sels += mine
        checks += myChecks
        return UInt32(index)
    }

    private mutating func walk(
        _ selections: [Selection], conds cs: [(UInt32, UInt32)],
        into out: inout [ra_plan_sel], checks outChecks: inout [ra_plan_check]
    ) {
        for selection in selections {
            switch selection {
            case .scalarField(let f):
                let (first, count) = condRange(cs)
                let shape: UInt32 =
                    switch f.shape {
                    case .any: UInt32(RA_SHAPE_ANY)
                    case .scalar: UInt32(RA_SHAPE_SCALAR)
                    case .list: UInt32(RA_SHAPE_LIST)
                    }
                out.append(
                    ra_plan_sel(
                        kind: UInt32(RA_SEL_SCALAR), response_key: string(f.responseKey),
                        storage_key: string(StorageKey.of(f, variables)), concrete_type: RA_NONE,
                        child_set: 0, shape: shape, cond_first: first, cond_count: count))
            case .linkedField(let f):
                let child = buildSet(f.selections)
                let (first, count) = condRange(cs)
                out.append(
                    ra_plan_sel(
                        kind: UInt32(f.plural ? RA_SEL_PLURAL : RA_SEL_LINKED),
                        response_key: string(f.responseKey),
                        storage_key: string(StorageKey.of(f, variables)),
                        concrete_type: f.concreteType.map { string($0) } ?? RA_NONE,
                        child_set: child, shape: 0, cond_first: first, cond_count: count))
            case .condition(let c):
                if (variables[c.variable] ?? .null).isTruthy == c.passingValue {
                    walk(c.selections, conds: cs, into: &out, checks: &outChecks)
                }
            case .inlineFragment(let i):
                if let key = i.abstractKey {
                    let k = string(key)
                    let (first, count) = condRange(cs)
                    outChecks.append(ra_plan_check(abstract_key: k, cond_first: first, cond_count: count))
                    walk(i.selections, conds: cs + [(UInt32(RA_COND_HAS_KEY), k)], into: &out, checks: &outChecks)
                } else {
                    walk(
                        i.selections, conds: cs + [(UInt32(RA_COND_TYPE_IS), string(i.type))], into: &out,
                        checks: &outChecks)
                }
            case .typeDiscriminator(let key):
                let k = string(key)
                let (first, count) = condRange(cs)
                outChecks.append(ra_plan_check(abstract_key: k, cond_first: first, cond_count: count))
            case .fragmentSpread, .aliasedInlineFragment:
                // Spreads are inlined by the compiler in normalization ASTs, and aliases removed.
                break
            }
        }
    }
}
