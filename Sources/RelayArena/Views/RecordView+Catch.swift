// `@catch` in typed views: the caught selection is read once more by the untyped Reader, which
// alone knows relay's field-error rules (stored `__errors`, missing data, `@required` bubbling),
// and its events decide between the view's value and the errors. Only caught selections pay it.

extension RecordView {
    /// The events a read of `selection` at this record meets (relay's `_catchErrors` around it),
    /// each `handled`; none for a view of no record (its parent's data is missing, not this).
    @_spi(Generated) public func fieldErrors(of selection: Selection, owner: StaticString) -> [FieldError] {
        guard !isEmpty else { return [] }
        var reader = Reader(snapshot: snapshot, variables: scope.variables, owner: scope.owner)
        reader.ownerName = owner.description
        var data: [(String, ReadValue)] = []
        _ = reader.traverseSelections([selection], record: record, dataID: dataID, into: &data)
        return reader.fieldErrors
    }

    /// `@catch(to: RESULT)`: `value()` when nothing was met under `selection`, else the errors.
    @_spi(Generated) public func caught<Value>(
        _ selection: Selection, owner: StaticString, _ value: () -> Value
    ) -> Caught<Value> {
        let events = fieldErrors(of: selection, owner: owner)
        return events.isEmpty ? .success(value()) : .failure(FieldErrors(events))
    }

    /// `@catch(to: NULL)`: `nil` when anything was met under `selection`.
    @_spi(Generated) public func caughtOrNil<Value>(
        _ selection: Selection, owner: StaticString, _ value: () -> Value?
    ) -> Value? {
        fieldErrors(of: selection, owner: owner).isEmpty ? value() : nil
    }
}
