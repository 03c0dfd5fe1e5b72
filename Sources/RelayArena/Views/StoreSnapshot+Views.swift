// Typed reads: a fragment through its pointer, an operation from the root record. isMissingData
// comes from the untyped Reader (once per read); the returned view then reads the arena lazily.

extension StoreSnapshot {
    /// Reads `F` at the pointer. `data` is `nil` when the record is unknown or deleted, or when a
    /// `@required` field of its own selection is null (relay nulls the fragment's data).
    public func read<F: Fragment>(_ fragment: F.Type, _ pointer: FragmentPointer<F>)
        -> (data: F.Data?, isMissingData: Bool)
    {
        let (data, result) = typedRead(fragment, pointer)
        return (data, result.isMissingData)
    }

    /// The same, with relay's field errors; throws where relay's hooks throw
    /// (`@throwOnFieldError`, `@required(action: THROW)`, not caught by a `@catch`), naming the
    /// field's path and the document.
    public func readChecked<F: Fragment>(_ fragment: F.Type, _ pointer: FragmentPointer<F>) throws(FieldErrorFailure)
        -> (data: F.Data?, isMissingData: Bool, fieldErrors: [FieldError])
    {
        let (data, result) = typedRead(fragment, pointer)
        if let failure = result.throwingFieldError() { throw failure }
        return (data, result.isMissingData, result.fieldErrors)
    }

    /// A `@catch` fragment's read as its result: the data, or what was caught (a `to: NULL`
    /// one's data is `nil` instead).
    public func readCaught<F: Fragment>(_ fragment: F.Type, _ pointer: FragmentPointer<F>) -> Caught<F.Data?> {
        let (data, result) = typedRead(fragment, pointer)
        return Self.caught(data, result)
    }

    private static func caught<Data>(_ data: Data?, _ result: ReadResult) -> Caught<Data?> {
        guard case .bool(false)? = result.data?["ok"] else { return .success(data) }
        return .failure(FieldErrors(result.fieldErrors))
    }

    private func typedRead<F: Fragment>(_ fragment: F.Type, _ pointer: FragmentPointer<F>) -> (F.Data?, ReadResult) {
        let artifact = F.artifact
        var variables = pointer.variables
        for def in artifact.argumentDefinitions where variables[def.name] == nil {
            variables[def.name] = def.defaultValue ?? .null
        }
        var reader = Reader(snapshot: self, variables: variables, owner: pointer.owner)
        let result = reader.read(fragment: artifact, dataID: pointer.dataID)
        guard case .record(let r) = record(pointer.dataID), result.data != .null else { return (nil, result) }
        let scope = ReadScope(variables: variables, owner: pointer.owner, keyCount: F.storageKeyCount)
        return (F.Data(__view: RecordView(snapshot: self, record: r, scope: scope)), result)
    }

    /// Reads the operation's own (masked) selection from `client:root`.
    public func read<O: GraphQLOperation>(_ operation: O) -> (data: O.Data?, isMissingData: Bool) {
        let (data, result) = typedRead(operation)
        return (data, result.isMissingData)
    }

    /// The same, with relay's field errors; throws where relay's hooks throw.
    public func readChecked<O: GraphQLOperation>(_ operation: O) throws(FieldErrorFailure)
        -> (data: O.Data?, isMissingData: Bool, fieldErrors: [FieldError])
    {
        let (data, result) = typedRead(operation)
        if let failure = result.throwingFieldError() { throw failure }
        return (data, result.isMissingData, result.fieldErrors)
    }

    /// A `@catch` operation's read as its result.
    public func readCaught<O: GraphQLOperation>(_ operation: O) -> Caught<O.Data?> {
        let (data, result) = typedRead(operation)
        return Self.caught(data, result)
    }

    private func typedRead<O: GraphQLOperation>(_ operation: O) -> (O.Data?, ReadResult) {
        let artifact = O.artifact
        let variables = artifact.effectiveVariables(operation.variables.asJSON)
        let owner = FragmentOwner(operation: artifact, variables: operation.variables.asJSON)
        var reader = Reader(snapshot: self, variables: variables, owner: owner)
        let result = reader.read(operation: artifact, dataID: RecordStore.rootID)
        guard case .record(let r) = record(RecordStore.rootID), result.data != .null else { return (nil, result) }
        let scope = ReadScope(variables: variables, owner: owner, keyCount: O.storageKeyCount)
        return (O.Data(__view: RecordView(snapshot: self, record: r, scope: scope)), result)
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
