// `@relay(plural: true)` fragments: the parent passes a list of pointers (one per item it spread the
// fragment on) and the read returns a random-access collection of views, each made on access.

/// A generated fragment declared with `@relay(plural: true)`.
public protocol PluralFragment: Fragment {}

/// The views of a plural fragment read: element `i` is the view at `pointers[i]`, or `nil` when
/// that record is unknown or deleted (relay's `null` item). Valid inside the snapshot only.
public struct FragmentViews<F: Fragment>: RandomAccessCollection {
    let snapshot: StoreSnapshot
    let records: [RecordRef?]
    let scopes: [ReadScope]

    public var startIndex: Int { 0 }
    public var endIndex: Int { records.count }

    public subscript(i: Int) -> F.Data? {
        records[i].map { F.Data(__view: RecordView(snapshot: snapshot, record: $0, scope: scopes[i])) }
    }
}

extension StoreSnapshot {
    /// Reads the plural fragment `F` at each pointer. `isMissingData` is true when any item lacks
    /// data. Pointers with equal variables (the usual case: one parent read) share one key cache.
    public func read<F: PluralFragment, C: Collection>(_ fragment: F.Type, _ pointers: C)
        -> (data: FragmentViews<F>, isMissingData: Bool) where C.Element == FragmentPointer<F>
    {
        let artifact = F.artifact
        var missing = false
        var records: [RecordRef?] = []
        var scopes: [ReadScope] = []
        records.reserveCapacity(pointers.count)
        scopes.reserveCapacity(pointers.count)
        var last: (variables: Variables, owner: FragmentOwner?, scope: ReadScope)?
        for pointer in pointers {
            let variables = pointer.effectiveVariables
            var reader = Reader(snapshot: self, variables: variables, owner: pointer.owner)
            let result = reader.read(fragment: artifact, dataID: pointer.dataID)
            missing = missing || result.isMissingData
            if case .record(let r) = record(pointer.dataID) { records.append(r) } else { records.append(nil) }
            if let last, last.variables == variables, last.owner == pointer.owner {
                scopes.append(last.scope)
            } else {
                let scope = ReadScope(variables: variables, owner: pointer.owner, keyCount: F.storageKeyCount)
                last = (variables, pointer.owner, scope)
                scopes.append(scope)
            }
        }
        return (FragmentViews(snapshot: self, records: records, scopes: scopes), missing)
    }
}
