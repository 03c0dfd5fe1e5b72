// relay-runtime's DataChecker (RelayModernStore.check): whether the store holds everything an
// operation's normalization selections ask for, the test behind store-or-network fetches.

/// What `check(operation:)` finds for an operation in the store.
public enum Availability: Sendable, Equatable {
    /// Every record and field the operation selects is in the store (a null field or a deleted
    /// record counts as known).
    case available
    /// Everything is present but outdated. Comes from record invalidation and query-cache expiry,
    /// which are not built yet: `check` never returns it today.
    case stale
    /// Some record the operation reaches is unknown, or some selected field was never fetched.
    case missing
}

extension RecordStore {
    /// relay's `store.check(operation)`: walks the operation's normalization selections (fragments
    /// inlined) from `dataID` with its effective variables, under one snapshot, and stops at the
    /// first record or field the store does not hold.
    public func check(
        operation: OperationArtifact, variables: Variables = [:], dataID: String = RecordStore.rootID
    ) -> Availability {
        withSnapshot { $0.check(operation: operation, variables: variables, dataID: dataID) }
    }
}

extension StoreSnapshot {
    /// `RecordStore.check(operation:variables:dataID:)` under this snapshot.
    public func check(
        operation: OperationArtifact, variables: Variables = [:], dataID: String = RecordStore.rootID
    ) -> Availability {
        guard let id = symbol(dataID) else { return .missing }
        var checker = DataChecker(snapshot: self, variables: operation.effectiveVariables(variables))
        return checker.traverse(operation.normalization, id: id) ? .available : .missing
    }
}

/// The walk: every function returns `false` as soon as something is missing, so the first
/// missing field ends the check.
struct DataChecker {
    let snapshot: StoreSnapshot
    let variables: Variables
    /// `client:root`'s symbol: the root takes any concrete inline fragment, as in the reader.
    let root: StoreSymbol?

    init(snapshot: StoreSnapshot, variables: Variables) {
        self.snapshot = snapshot
        self.variables = variables
        self.root = snapshot.symbol(RecordStore.rootID)
    }

    /// An unknown record is missing; a deleted one (null) holds nothing to check.
    func traverse(_ selections: [Selection], id: StoreSymbol) -> Bool {
        switch snapshot.record(id) {
        case .unknown: return false
        case .deleted: return true
        case .record(let r): return traverseSelections(selections, record: r, id: id)
        }
    }

    func traverseSelections(_ selections: [Selection], record: RecordRef, id: StoreSymbol) -> Bool {
        for selection in selections {
            switch selection {
            case .scalarField(let f):
                let key = StorageKey.of(f, variables)
                if key == "__typename" {
                    // The record's type key, not a field (as in the reader): none is undefined.
                    if snapshot.typename(of: record).isEmpty { return false }
                    continue
                }
                if snapshot.field(record, key) == nil {
                    // A client record (no `id` in its response) is not expected to have one.
                    if key == "id" && isClientID(id) { continue }
                    return false
                }
            case .linkedField(let f):
                guard let value = snapshot.field(record, StorageKey.of(f, variables)) else { return false }
                switch value {
                case .null:
                    continue
                case .link(let child):
                    if !traverse(f.selections, id: child) { return false }
                case .links(let list):
                    for child in list {
                        if let child, !traverse(f.selections, id: child) { return false }
                    }
                default:
                    // A scalar where a link belongs (data from elsewhere): missing, as in the reader.
                    return false
                }
            case .condition(let c):
                if (variables[c.variable] ?? .null).isTruthy == c.passingValue,
                    !traverseSelections(c.selections, record: record, id: id)
                {
                    return false
                }
            case .inlineFragment(let i):
                if let key = i.abstractKey {
                    switch implements(record, key) {
                    case true?:
                        if !traverseSelections(i.selections, record: record, id: id) { return false }
                    case false?:
                        continue
                    case nil:
                        // Unknown whether the type implements it: its fields cannot be expected
                        // or excused, so the data is missing.
                        return false
                    }
                } else if snapshot.typename(of: record) == i.type || id == root {
                    if !traverseSelections(i.selections, record: record, id: id) { return false }
                }
            case .typeDiscriminator(let key):
                if implements(record, key) == nil { return false }
            case .fragmentSpread:
                // Never in a normalization AST (fragments are inlined there).
                continue
            }
        }
        return true
    }

    /// `client:__type:<T>.<abstractKey>`; `nil` when unknown (no type, no type record, no marker).
    func implements(_ record: RecordRef, _ abstractKey: String) -> Bool? {
        let type = snapshot.typename(of: record)
        guard !type.isEmpty, case .record(let typeRecord) = snapshot.record("client:__type:" + type.string),
            case .bool(let b) = snapshot.field(typeRecord, abstractKey)
        else { return nil }
        return b
    }

    /// relay's isClientID: the data ID starts with `client:`.
    func isClientID(_ id: StoreSymbol) -> Bool {
        snapshot.text(id).withUnsafeBytes { $0.starts(with: "client:".utf8) }
    }
}
