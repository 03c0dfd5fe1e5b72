// `@inline` fragment spreads in the untyped reader: relay-runtime's
// RelayReader._createInlineDataOrResolverFragmentPointer.

extension Reader {
    /// Reads the fragment's selections from the same record, with the fragment's variables, into
    /// a fresh object stored at `__fragments[name]`; sets `__id` if missing and, unlike a masked
    /// spread, writes no `__fragmentOwner`. Missing data and seen records count for the parent.
    mutating func readInlineData(
        _ spread: FragmentSpread, _ inlineData: InlineDataFragment, record: RecordRef,
        dataID: String, into data: inout [(String, ReadValue)]
    ) {
        var inner = Reader(
            snapshot: snapshot, variables: inlineData.variables(args: spread.args, parent: variables),
            owner: owner)
        inner.withinUnmatchedTypeRefinement = withinUnmatchedTypeRefinement
        // Its events are its own (relay switches the owner while reading it).
        inner.ownerName = spread.name
        inner.throwOnFieldError = throwOnFieldError
        var fragmentData: [(String, ReadValue)] = []
        let had = inner.traverseSelections(inlineData.selections, record: record, dataID: dataID, into: &fragmentData)
        if inner.isMissingData { isMissingData = true }
        seen.formUnion(inner.seen)
        fieldErrors += inner.fieldErrors

        if !data.contains(where: { $0.0 == "__id" }) { data.append(("__id", .string(dataID))) }
        var fragments: [(String, ReadValue)] = []
        if let i = data.firstIndex(where: { $0.0 == "__fragments" }), case .object(let m) = data[i].1 {
            fragments = m
        }
        fragments.removeAll { $0.0 == spread.name }
        fragments.append((spread.name, had ? .object(fragmentData) : .null))
        set(&data, "__fragments", .object(fragments))
    }
}
