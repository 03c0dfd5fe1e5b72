// A response's `@connection` fields merged by relay's connection handler wherever it is written:
// the environment's publish queue, `RecordStore.commit`, a batch job and the command line's
// `normalize` all come here, so reading the operation back through the handle key finds the edges
// whichever wrote it.

extension RecordStore {
    /// Publishes a response normalized for `plan` (rooted at `rootID`) as relay's publish does:
    /// its `@connection` fields merged into their client connection records (a page that does not
    /// follow its connection is dropped, and `log` told, as relay warns), then the payload and
    /// the merge written. A handler that fails writes nothing. `log` also hears of each record the
    /// response gave two types (relay's `idCollision.typename`).
    package func publishResponse(
        _ payload: NormalizedPayload, plan: NormalizationPlan, rootID: String, log: (LogEvent) -> Void
    ) throws -> UpdatedRecordIDs {
        for event in payload.idCollisions { log(event) }
        guard plan.hasHandles else { return try publishConsuming(payload) }
        let selector = ReadSelector.operation(plan.operation, variables: plan.variables, dataID: rootID)
        let handles = selector.handleFieldPayloads(in: payload)
        guard !handles.isEmpty else { return try publishConsuming(payload) }
        // The handlers read the store with the payload over it, before either is written.
        let proxy = RecordSourceProxy(store: self, payload: payload, selector: selector)
        for handle in handles { try ConnectionHandler.update(proxy, handle) }
        for event in proxy.logEvents { log(event) }
        let written = try publishConsuming(payload)
        return UpdatedRecordIDs.union([written, try publish(writes: proxy, invalidationEpoch: nil)], in: self)
    }

    /// Publishes an updater's (or the connection handler's) writes: its records, the pages it
    /// merged in the arena, and the records it invalidated (at `invalidationEpoch`).
    package func publish(writes: RecordSourceProxy, invalidationEpoch: Int?) throws -> UpdatedRecordIDs {
        let ids = writes.writtenIDs
        var result = UpdatedRecordIDs.none(in: self)
        let delta = ids.isEmpty ? nil : try writes.relayJSON().payload()
        if !writes.splices.isEmpty {
            // Pages merged in the arena, after the delta that made their edges, in one write.
            result = try publish(delta, splices: writes.splices, extendingIndexes: writes.pageMergesOnly)
        } else if let delta {
            result = try publish(delta)
        }
        if !writes.invalidatedIDs.isEmpty, let invalidationEpoch {
            try invalidate(records: writes.invalidatedIDs, epoch: invalidationEpoch)
        }
        return result
    }
}

extension UpdatedRecordIDs {
    /// The records of `all`, each once, in first-seen order (one store's numbering).
    static func union(_ all: [UpdatedRecordIDs], in store: RecordStore) -> UpdatedRecordIDs {
        let nonEmpty = all.filter { $0.symbols.count > 0 }
        if nonEmpty.count == 1 { return nonEmpty[0] }
        var merged: [UInt32] = []
        var seen = Set<UInt32>()
        for ids in nonEmpty {
            for i in 0..<ids.symbols.count where seen.insert(ids.symbols[i]).inserted { merged.append(ids.symbols[i]) }
        }
        return UpdatedRecordIDs(store: store, symbols: UpdatedSymbols(merged))
    }
}
