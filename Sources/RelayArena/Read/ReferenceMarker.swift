// relay-runtime's RelayReferenceMarker: the records an operation reaches through its
// normalization selections, which garbage collection keeps.

/// The data IDs a collection keeps, as a bitmap by store symbol.
struct ReferenceMarker {
    let snapshot: StoreSnapshot
    private(set) var marked: [UInt64]
    /// `client:root`'s symbol: the root takes any concrete inline fragment, as in the reader.
    private let root: StoreSymbol?

    init(snapshot: StoreSnapshot, symbolBound: Int) {
        self.snapshot = snapshot
        marked = Array(repeating: 0, count: (symbolBound + 63) / 64)
        root = snapshot.symbol(RecordStore.rootID)
    }

    mutating func mark(_ symbol: StoreSymbol) {
        let i = Int(symbol.raw)
        guard i / 64 < marked.count else { return }
        marked[i / 64] |= 1 << UInt64(i % 64)
    }

    func isMarked(_ symbol: StoreSymbol) -> Bool {
        let i = Int(symbol.raw)
        return i / 64 < marked.count && marked[i / 64] & (1 << UInt64(i % 64)) != 0
    }

    /// Marks what `operation` with `variables` reaches from `dataID` (relay's `mark`).
    mutating func mark(operation: OperationArtifact, variables: Variables, dataID: String = RecordStore.rootID) {
        guard let id = snapshot.symbol(dataID) else { return }
        let plan = Self.plan(operation.normalization, snapshot, operation.effectiveVariables(variables))
        traverse(plan, id: id)
    }

    /// The selections that lead to records, resolved for one root: storage keys to the store's
    /// symbols and conditions to their branch, once, so that the walk over a million records
    /// makes no string. A key the store has no symbol for leads nowhere and is dropped.
    indirect enum Step {
        case link(key: StoreSymbol, next: [Step])
        /// A concrete inline fragment: its steps when the record's type is `type` (or the
        /// record is the root).
        case concrete(type: StoreSymbol?, next: [Step])
        /// An abstract inline fragment: the type's record is kept, its steps followed.
        case abstract(next: [Step])
        case typeRecord
    }

    static func plan(_ selections: [Selection], _ s: StoreSnapshot, _ variables: Variables) -> [Step] {
        var steps: [Step] = []
        for selection in selections {
            switch selection {
            case .scalarField, .fragmentSpread, .aliasedInlineFragment:
                continue  // (spreads and aliases are reader ASTs' only)
            case .linkedField(let f):
                let next = plan(f.selections, s, variables)
                if let key = s.symbol(StorageKey.of(f, variables)) { steps.append(.link(key: key, next: next)) }
                // A connection's client record, under its handle key, holds the same selections.
                if let handle = f.handle, let key = s.symbol(handle.storageKey(f, variables)) {
                    steps.append(.link(key: key, next: next))
                }
            case .condition(let c):
                if (variables[c.variable] ?? .null).isTruthy == c.passingValue {
                    steps += plan(c.selections, s, variables)
                }
            case .inlineFragment(let i):
                let next = plan(i.selections, s, variables)
                steps.append(
                    i.abstractKey != nil ? .abstract(next: next) : .concrete(type: s.symbol(i.type), next: next))
            case .typeDiscriminator:
                steps.append(.typeRecord)
            }
        }
        return steps
    }

    /// relay's `_traverse`: the ID is kept whether or not it has a record; a record's selections
    /// are followed.
    private mutating func traverse(_ steps: [Step], id: StoreSymbol) {
        mark(id)
        guard !steps.isEmpty, case .record(let record) = snapshot.record(id) else { return }
        follow(steps, record: record, id: id)
    }

    private mutating func follow(_ steps: [Step], record: RecordRef, id: StoreSymbol) {
        for step in steps {
            switch step {
            case .link(let key, let next):
                switch snapshot.field(record, key) {
                case .link(let child)?:
                    traverse(next, id: child)
                case .links(let list)?:
                    for child in list { if let child { traverse(next, id: child) } }
                default:
                    continue
                }
            case .concrete(let type, let next):
                if id == root || (type != nil && snapshot.typeSymbol(of: record) == type) {
                    follow(next, record: record, id: id)
                }
            case .abstract(let next):
                markType(of: record)
                follow(next, record: record, id: id)
            case .typeRecord:
                markType(of: record)
            }
        }
    }

    private mutating func markType(of record: RecordRef) {
        let type = snapshot.typename(of: record)
        guard !type.isEmpty, let typeID = snapshot.symbol("client:__type:" + type.string) else { return }
        mark(typeID)
    }
}
