// Typed reads: a fragment through its pointer, an operation from the root record. isMissingData
// comes from the untyped Reader (once per read); the returned view then reads the arena lazily.

extension StoreSnapshot {
    /// Reads `F` at the pointer. `data` is `nil` when the record is unknown or deleted.
    public func read<F: Fragment>(_ fragment: F.Type, _ pointer: FragmentPointer<F>)
        -> (data: F.Data?, isMissingData: Bool)
    {
        let artifact = F.artifact
        var variables = pointer.variables
        for def in artifact.argumentDefinitions where variables[def.name] == nil {
            variables[def.name] = def.defaultValue ?? .null
        }
        var reader = Reader(snapshot: self, variables: variables, owner: pointer.owner)
        let result = reader.read(fragment: artifact, dataID: pointer.dataID)
        guard case .record(let r) = record(pointer.dataID) else { return (nil, result.isMissingData) }
        let scope = ReadScope(variables: variables, owner: pointer.owner, keyCount: F.storageKeyCount)
        return (F.Data(__view: RecordView(snapshot: self, record: r, scope: scope)), result.isMissingData)
    }

    /// Reads the operation's own (masked) selection from `client:root`.
    public func read<O: GraphQLOperation>(_ operation: O) -> (data: O.Data?, isMissingData: Bool) {
        let artifact = O.artifact
        let variables = artifact.effectiveVariables(operation.variables.asJSON)
        let owner = FragmentOwner(operation: artifact, variables: operation.variables.asJSON)
        var reader = Reader(snapshot: self, variables: variables, owner: owner)
        let result = reader.read(operation: artifact, dataID: RecordStore.rootID)
        guard case .record(let r) = record(RecordStore.rootID) else { return (nil, result.isMissingData) }
        let scope = ReadScope(variables: variables, owner: owner, keyCount: O.storageKeyCount)
        return (O.Data(__view: RecordView(snapshot: self, record: r, scope: scope)), result.isMissingData)
    }

    /// The view without the isMissingData pass, for hot loops that already know the data is there.
    public func view<F: Fragment>(_ fragment: F.Type, _ pointer: FragmentPointer<F>) -> F.Data? {
        guard case .record(let r) = record(pointer.dataID) else { return nil }
        var variables = pointer.variables
        for def in F.artifact.argumentDefinitions where variables[def.name] == nil {
            variables[def.name] = def.defaultValue ?? .null
        }
        let scope = ReadScope(variables: variables, owner: pointer.owner, keyCount: F.storageKeyCount)
        return F.Data(__view: RecordView(snapshot: self, record: r, scope: scope))
    }
}
