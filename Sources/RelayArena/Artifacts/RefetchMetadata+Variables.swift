// What a refetch of a `@refetchable` fragment sends and where its result puts the fragment
// (relay's useRefetchableFragmentInternal), shared by the refetchable model and the command
// line's replay.

extension RefetchMetadata {
    /// The refetch request's variables, as relay merges them: the owner's, then the fragment's,
    /// then those `given`; the identifier variable (a `node` refetch's `id`) from `dataID` when
    /// `given` lacks it — for a `@fetchable` type, from the record's identifying field in `store`
    /// (relay's `identifierInfo`). Filtered to what `query` declares, its defaults applied, `null`
    /// for one declared but absent (the request's effective variables).
    package func refetchVariables(
        query: OperationArtifact, owner: FragmentOwner?, fragment: Variables, given: Variables, dataID: String,
        in store: RecordStore
    ) -> Variables {
        var merged: Variables = [:]
        for member in owner?.variables ?? [] { merged[member.key] = member.value }
        merged.merge(fragment) { _, fragment in fragment }
        merged.merge(given) { _, given in given }
        if let identifierField, given[identifierField] == nil {
            merged[identifierField] = identifierValue(dataID: dataID, in: store)
        }
        return query.effectiveVariables(merged)
    }

    /// The identifier variable's value for the record `dataID`: its data ID, or its
    /// `identifierSource` field (`null` when the store does not have it).
    package func identifierValue(dataID: String, in store: RecordStore) -> JSONValue {
        guard identifierSource != nil else { return .string(dataID) }
        return store.withSnapshot { identifierValue(dataID: dataID, in: $0) ?? .null }
    }

    /// The `identifierSource` field of `dataID` under `snapshot` (`nil` when it has none).
    func identifierValue(dataID: String, in snapshot: StoreSnapshot) -> JSONValue? {
        guard let identifierSource, case .record(let record) = snapshot.record(dataID),
            case .string(let text)? = snapshot.field(record, identifierSource)
        else { return nil }
        return .string(text.string)
    }

    /// Where the fragment sits in the refetch query's result once it is in `store`: the
    /// identifier's record for a `node` refetch, else (a `@fetchable` type's too, whose record's
    /// data ID need not be its identifier) the record at `fragmentPathInResult` from the root;
    /// `nil` when the result holds none there.
    package func fragmentRecord(query: OperationArtifact, variables: Variables, in store: RecordStore) -> String? {
        if identifierSource == nil, let identifierField, case .string(let dataID)? = variables[identifierField] {
            return dataID
        }
        let root = ReadSelector.operation(query, variables: variables).read(store)
        var dataID = RecordStore.rootID
        var value = root.data
        for key in fragmentPathInResult {
            value = value?[key]
            guard case .string(let id)? = value?["__id"] else { return nil }
            dataID = id
        }
        return dataID
    }
}
