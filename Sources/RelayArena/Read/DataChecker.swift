// relay-runtime's DataChecker (RelayModernStore.check): whether the store holds everything an
// operation's normalization selections ask for, the test behind store-or-network fetches.

/// What `check(operation:)` finds for an operation in the store.
public enum Availability: Sendable, Equatable {
    /// Every record and field the operation selects is in the store (a null field or a deleted
    /// record counts as known).
    case available
    /// Present or not, outdated: the store or a record the operation reaches was invalidated
    /// after the operation was last written, or the query cache expired (`OperationRoots.check`).
    case stale
    /// Some record the operation reaches is unknown, or some selected field was never fetched.
    case missing
}

extension RecordStore {
    /// The records' part of relay's `store.check(operation)`: walks the operation's normalization
    /// selections (fragments inlined) from `dataID` with its effective variables, under one
    /// snapshot: `.available` or `.missing`. Invalidation and expiry are the roots' part:
    /// `OperationRoots.check` (what the environment's `check` calls) can also say `.stale`.
    public func check(
        operation: OperationArtifact, variables: Variables = [:], dataID: String = RecordStore.rootID
    ) -> Availability {
        checkRecords(operation: operation, variables: variables, dataID: dataID).missing ? .missing : .available
    }

    /// relay's DataChecker result: whether something was missing, and the latest
    /// `__invalidated_at` of the records it reached (the whole walk is made, as relay's, so that
    /// an invalidated record after a missing field still counts).
    func checkRecords(operation: OperationArtifact, variables: Variables, dataID: String) -> (
        missing: Bool, mostRecentlyInvalidatedAt: Int?
    ) {
        withSnapshot { s in
            guard let id = s.symbol(dataID) else { return (true, nil) }
            var checker = DataChecker(snapshot: s, variables: operation.effectiveVariables(variables))
            checker.traverse(operation.normalization, id: id)
            return (checker.missing, checker.mostRecentlyInvalidatedAt)
        }
    }
}

extension StoreSnapshot {
    /// `RecordStore.check(operation:variables:dataID:)` under this snapshot.
    public func check(
        operation: OperationArtifact, variables: Variables = [:], dataID: String = RecordStore.rootID
    ) -> Availability {
        guard let id = symbol(dataID) else { return .missing }
        var checker = DataChecker(snapshot: self, variables: operation.effectiveVariables(variables))
        checker.traverse(operation.normalization, id: id)
        return checker.missing ? .missing : .available
    }
}

/// The walk: it goes on past what is missing (noting it), as relay's does, collecting the latest
/// invalidation epoch of the records it reaches.
struct DataChecker {
    let snapshot: StoreSnapshot
    let variables: Variables
    /// `client:root`'s symbol: the root takes any concrete inline fragment, as in the reader.
    let root: StoreSymbol?
    private(set) var missing = false
    private(set) var mostRecentlyInvalidatedAt: Int?

    init(snapshot: StoreSnapshot, variables: Variables) {
        self.snapshot = snapshot
        self.variables = variables
        self.root = snapshot.symbol(RecordStore.rootID)
    }

    /// An unknown record is missing; a deleted one (null) holds nothing to check.
    mutating func traverse(_ selections: [Selection], id: StoreSymbol) {
        switch snapshot.record(id) {
        case .unknown: missing = true
        case .deleted: return
        case .record(let r):
            if case .int(let at)? = snapshot.field(r, RecordStore.invalidatedAtKey) {
                mostRecentlyInvalidatedAt = max(mostRecentlyInvalidatedAt ?? Int(at), Int(at))
            }
            traverseSelections(selections, record: r, id: id)
        }
    }

    mutating func traverseSelections(_ selections: [Selection], record: RecordRef, id: StoreSymbol) {
        for selection in selections {
            switch selection {
            case .scalarField(let f):
                let key = StorageKey.of(f, variables)
                if key == "__typename" {
                    // The record's type key, not a field (as in the reader): none is undefined.
                    if snapshot.typename(of: record).isEmpty { missing = true }
                    continue
                }
                if key == "__id" || f.isClientExtension { continue }  // client fields: never fetched
                // A client record (no `id` in its response) is not expected to have one.
                if snapshot.field(record, key) == nil && !(key == "id" && isClientID(id)) { missing = true }
            case .linkedField(let f):
                // What a client extension's field holds is not fetched: it cannot be missing.
                let wasMissing = missing
                defer { if f.isClientExtension { missing = wasMissing } }
                guard let value = snapshot.field(record, StorageKey.of(f, variables)) else {
                    missing = true
                    continue
                }
                switch value {
                case .null:
                    continue
                case .link(let child):
                    traverse(f.selections, id: child)
                case .links(let list):
                    for child in list {
                        if let child { traverse(f.selections, id: child) }
                    }
                default:
                    // A scalar where a link belongs (data from elsewhere): missing, as in the reader.
                    missing = true
                }
            case .condition(let c):
                if (variables[c.variable] ?? .null).isTruthy == c.passingValue {
                    traverseSelections(c.selections, record: record, id: id)
                }
            case .inlineFragment(let i):
                if let key = i.abstractKey {
                    switch implements(record, key) {
                    case true?:
                        traverseSelections(i.selections, record: record, id: id)
                    case false?:
                        continue
                    case nil:
                        // Unknown whether the type implements it: its fields cannot be expected
                        // or excused, so the data is missing.
                        missing = true
                    }
                } else if snapshot.typename(of: record) == i.type || id == root {
                    traverseSelections(i.selections, record: record, id: id)
                }
            case .typeDiscriminator(let key):
                if implements(record, key) == nil { missing = true }
            case .fragmentSpread, .aliasedInlineFragment:
                // Never in a normalization AST (fragments are inlined there, aliases removed).
                continue
            }
        }
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
