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
        traverse(operation.normalization, id: id, variables: operation.effectiveVariables(variables))
    }

    /// relay's `_traverse`: the ID is kept whether or not it has a record; a record's selections
    /// are followed.
    private mutating func traverse(_ selections: [Selection], id: StoreSymbol, variables: Variables) {
        mark(id)
        guard case .record(let record) = snapshot.record(id) else { return }
        traverseSelections(selections, record: record, id: id, variables: variables)
    }

    private mutating func traverseSelections(
        _ selections: [Selection], record: RecordRef, id: StoreSymbol, variables: Variables
    ) {
        for selection in selections {
            switch selection {
            case .scalarField:
                continue
            case .linkedField(let f):
                switch snapshot.field(record, StorageKey.of(f, variables)) {
                case .link(let child)?:
                    traverse(f.selections, id: child, variables: variables)
                case .links(let list)?:
                    for child in list { if let child { traverse(f.selections, id: child, variables: variables) } }
                default:
                    continue
                }
            case .condition(let c):
                if (variables[c.variable] ?? .null).isTruthy == c.passingValue {
                    traverseSelections(c.selections, record: record, id: id, variables: variables)
                }
            case .inlineFragment(let i):
                if i.abstractKey != nil {
                    // Abstract: the type's record (client:__type:<T>) is kept, and the selections
                    // followed whatever the type implements.
                    markType(of: record)
                    traverseSelections(i.selections, record: record, id: id, variables: variables)
                } else if snapshot.typename(of: record) == i.type || id == root {
                    traverseSelections(i.selections, record: record, id: id, variables: variables)
                }
            case .typeDiscriminator:
                markType(of: record)
            case .fragmentSpread:
                // Never in a normalization AST (fragments are inlined there).
                continue
            }
        }
    }

    private mutating func markType(of record: RecordRef) {
        let type = snapshot.typename(of: record)
        guard !type.isEmpty, let typeID = snapshot.symbol("client:__type:" + type.string) else { return }
        mark(typeID)
    }
}
