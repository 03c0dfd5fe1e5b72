// relay-runtime's RelayReader over a snapshot: masked reads of an operation's or a fragment's
// selections, with isMissingData and the records seen.

extension RecordStore {
    /// Reads `fragment` from the record `dataID` (relay's `readFragment` with the pointer's owner).
    public func read(
        fragment: FragmentArtifact, dataID: String, variables: Variables = [:],
        owner: FragmentOwner? = nil
    ) -> ReadResult {
        var vars = variables
        for def in fragment.argumentDefinitions where vars[def.name] == nil {
            vars[def.name] = def.defaultValue ?? .null
        }
        return withSnapshot { snapshot in
            var reader = Reader(snapshot: snapshot, variables: vars, owner: owner)
            return reader.read(fragment: fragment, dataID: dataID)
        }
    }

    /// Reads an operation's own (masked) selection, by default from `client:root`.
    public func read(operation: OperationArtifact, variables: Variables = [:], dataID: String = RecordStore.rootID)
        -> ReadResult
    {
        let owner = FragmentOwner(operation: operation, variables: variables)
        return withSnapshot { snapshot in
            var reader = Reader(snapshot: snapshot, variables: operation.effectiveVariables(variables), owner: owner)
            return reader.read(operation: operation, dataID: dataID)
        }
    }

    /// Reads `selections` from `dataID`. `typeCondition` and `abstractKey` are a fragment's: data
    /// is only expected when the record has that type (or implements it).
    public func read(
        selections: [Selection], abstractKey: String?, typeCondition: String? = nil, dataID: String,
        variables: Variables, owner: FragmentOwner?
    ) -> ReadResult {
        withSnapshot { snapshot in
            var reader = Reader(snapshot: snapshot, variables: variables, owner: owner)
            return reader.read(selections, abstractKey: abstractKey, typeCondition: typeCondition, dataID: dataID)
        }
    }
}

/// The records a read visits. Most fragments read one record, so the first is kept apart and a
/// set is made only for a second one.
struct SeenRecords {
    private var first: String?
    private var rest: Set<String> = []

    mutating func insert(_ dataID: String) {
        guard let first else {
            first = dataID
            return
        }
        if first != dataID { rest.insert(dataID) }
    }

    mutating func formUnion(_ other: SeenRecords) {
        if let first = other.first { insert(first) }
        for dataID in other.rest { insert(dataID) }
    }

    mutating func reserveCapacity(_ count: Int) { rest.reserveCapacity(count) }

    var ids: SeenRecordIDs {
        guard let first else { return .none }
        guard rest.isEmpty else {
            var all = rest
            all.insert(first)
            return .many(all)
        }
        return .one(first)
    }
}

struct Reader {
    let snapshot: StoreSnapshot
    let variables: Variables
    let owner: FragmentOwner?
    var isMissingData = false
    var withinUnmatchedTypeRefinement = false
    var seen = SeenRecords()
    /// relay's `fieldErrors`, of the document being read (`ownerName`, relay's `_fragmentName`).
    var fieldErrors: [FieldError] = []
    var ownerName = ""
    var throwOnFieldError = false

    /// A read; a re-read, given how many records the last one saw, grows a large set of seen
    /// records once.
    init(snapshot: StoreSnapshot, variables: Variables, owner: FragmentOwner?, previouslySeen: Int = 0) {
        self.snapshot = snapshot
        self.variables = variables
        self.owner = owner
        if previouslySeen > 64 { seen.reserveCapacity(previouslySeen) }
    }

    /// Reads a fragment's selections at `dataID`, with its name and error handling.
    mutating func read(fragment: FragmentArtifact, dataID: String) -> ReadResult {
        ownerName = fragment.name
        throwOnFieldError = fragment.throwOnFieldError
        return read(
            fragment.selections, abstractKey: fragment.abstractKey, typeCondition: fragment.typeCondition,
            dataID: dataID, catchTo: fragment.catchTo)
    }

    /// Reads an operation's own selection at `dataID`, with its name and error handling.
    mutating func read(operation: OperationArtifact, dataID: String) -> ReadResult {
        ownerName = operation.name
        throwOnFieldError = operation.throwOnFieldError
        return read(operation.reader, abstractKey: nil, dataID: dataID, catchTo: operation.catchTo)
    }

    /// relay's RelayReader.read: a fragment read from a record that is not of its type (concrete:
    /// another typename, unless the root; abstract: known not to implement it) expects no data,
    /// so nothing counts as missing and spreads are flagged as within an unmatched refinement. An
    /// abstract type whose implementation is unknown marks the data missing.
    mutating func read(
        _ selections: [Selection], abstractKey: String?, typeCondition: String? = nil,
        dataID: String, catchTo: CatchTo? = nil
    ) -> ReadResult {
        if case .record(let r) = snapshot.record(dataID) {
            if let abstractKey {
                switch implements(r, abstractKey) {
                case false?: withinUnmatchedTypeRefinement = true
                case nil: markMissing("<abstract-type-hint>")
                case true?: break
                }
            } else if let typeCondition, dataID != RecordStore.rootID, !(snapshot.typename(of: r) == typeCondition) {
                withinUnmatchedTypeRefinement = true
            }
        }
        var data = traverse(selections, dataID: dataID)
        if let catchTo { data = caught(data, catchTo, previous: []) }
        return ReadResult(data: data, isMissingData: isMissingData, seen: seen.ids, fieldErrors: fieldErrors)
    }

    /// relay's `_markDataAsMissing`: an event (its path completed on the way out) and, unless
    /// inside a client extension's field, missing data. Nothing inside a known non-matching type.
    mutating func markMissing(_ name: String, countsAsMissing: Bool = true) {
        guard !withinUnmatchedTypeRefinement else { return }
        fieldErrors.append(
            FieldError(
                kind: throwOnFieldError ? .missingExpectedDataThrow : .missingExpectedDataLog, owner: ownerName,
                fieldPath: name))
        if countsAsMissing { isMissingData = true }
    }

    /// relay's `_maybeAddFieldErrors`: a field that read `null` whose record holds the server's
    /// errors for its storage key (`__errors`). Only a null field costs the lookup.
    mutating func addPayloadErrors(_ record: RecordRef, storageKey: String) {
        guard case .json(let text)? = snapshot.field(record, "__errors"),
            let errors = try? JSONValue(parsing: text.string),
            case .array(let list)? = errors.objectMembers?.last(where: { $0.key == storageKey })?.value
        else { return }
        for error in list {
            var path = ""
            if case .array(let segments)? = error.objectMembers?.last(where: { $0.key == "path" })?.value {
                path = segments.map { segment -> String in
                    switch segment {
                    case .string(let s): s
                    case .int(let i): String(i)
                    default: segment.jsonText
                    }
                }.joined(separator: ".")
            }
            fieldErrors.append(
                FieldError(
                    kind: .payloadError, owner: ownerName, fieldPath: path, error: error,
                    shouldThrow: throwOnFieldError))
        }
    }

    /// relay's `_prependPreviousErrors`: the events met inside a field, list item or aliased
    /// fragment get its name in front (those of this document that have a path of their own),
    /// and go after the ones met before it, in reverse as relay merges them.
    mutating func prependPrevious(_ previous: [FieldError], _ name: String) {
        guard !fieldErrors.isEmpty else {
            fieldErrors = previous
            return
        }
        for i in fieldErrors.indices where fieldErrors[i].isPathPrefixed && fieldErrors[i].owner == ownerName {
            fieldErrors[i].fieldPath = name + "." + fieldErrors[i].fieldPath
        }
        guard !previous.isEmpty else { return }
        fieldErrors = previous + fieldErrors.reversed()
    }

    /// relay's `_catchErrors`: the value as `{ok, value}` / `{ok: false, errors}` (RESULT) or
    /// `null` when anything was met (NULL); the events go on, marked handled.
    mutating func caught(_ value: ReadValue?, _ to: CatchTo, previous: [FieldError]) -> ReadValue? {
        var result = value
        switch to {
        case .result:
            if fieldErrors.isEmpty {
                result = .object([("ok", .bool(true))] + (value.map { [("value", $0)] } ?? []))
            } else {
                result = .object([("ok", .bool(false)), ("errors", .array(fieldErrors.compactMap(\.caught)))])
            }
        case .null:
            if !fieldErrors.isEmpty { result = .null }
        }
        let children = fieldErrors
        fieldErrors = previous
        for var event in children {
            if event.kind != .missingExpectedDataLog && event.kind != .missingRequiredFieldLog { event.handled = true }
            fieldErrors.append(event)
        }
        return result
    }

    /// relay's `_handleRequiredFieldValue`: a null or missing `@required` field reports (LOG,
    /// THROW) and stops the record's read, which then reads `null`.
    mutating func requiredHolds(_ value: ReadValue?, _ action: RequiredAction, name: String) -> Bool {
        if let value, value != .null { return true }
        switch action {
        case .none: break
        case .log:
            fieldErrors.append(FieldError(kind: .missingRequiredFieldLog, owner: ownerName, fieldPath: name))
        case .throw:
            fieldErrors.append(FieldError(kind: .missingRequiredFieldThrow, owner: ownerName, fieldPath: name))
        }
        return false
    }

    /// `nil` is undefined (unknown record), `.null` a deleted one or one whose `@required` field
    /// was null.
    mutating func traverse(_ selections: [Selection], dataID: String) -> ReadValue? {
        seen.insert(dataID)
        switch snapshot.record(dataID) {
        case .unknown:
            markMissing("<record>")
            return nil
        case .deleted:
            return .null
        case .record(let r):
            var members: [(String, ReadValue)] = []
            guard traverseSelections(selections, record: r, dataID: dataID, into: &members) else { return .null }
            return .object(members)
        }
    }

    func implements(_ record: RecordRef, _ abstractKey: String) -> Bool? {
        let type = snapshot.typename(of: record).string
        // A record with no type (no `__typename`, as relay allows) has no type record: unknown.
        guard !type.isEmpty, case .record(let typeRecord) = snapshot.record("client:__type:" + type),
            case .bool(let b) = snapshot.field(typeRecord, abstractKey)
        else { return nil }
        return b
    }

    /// Reads each selection into `data`; `false` when a `@required` field was null (relay's "had
    /// required data"): the caller's record then reads `null`.
    mutating func traverseSelections(
        _ selections: [Selection], record: RecordRef, dataID: String,
        into data: inout [(String, ReadValue)]
    ) -> Bool {
        for selection in selections {
            switch selection {
            case .scalarField(let f):
                let held = handlingFieldErrors(required: f.required, catchTo: f.catchTo, key: f.responseKey, &data) {
                    $0.readScalar(f, record: record, dataID: dataID, into: &$1)
                }
                if !held { return false }
            case .linkedField(let f):
                let held = handlingFieldErrors(required: f.required, catchTo: f.catchTo, key: f.responseKey, &data) {
                    $0.readLinked(f, record: record, into: &$1)
                }
                if !held { return false }
            case .condition(let c):
                if (variables[c.variable] ?? .null).isTruthy == c.passingValue {
                    guard traverseSelections(c.selections, record: record, dataID: dataID, into: &data) else {
                        return false
                    }
                }
            case .inlineFragment(let i):
                if let key = i.abstractKey {
                    let parentMissing = isMissingData
                    let parentWithin = withinUnmatchedTypeRefinement
                    // (relay's `_implementsInterface` reports an unknown one as it looks.)
                    let implementsInterface = implements(record, key)
                    if implementsInterface == nil { markMissing("<abstract-type-hint>") }
                    withinUnmatchedTypeRefinement = parentWithin || implementsInterface == false
                    let had = traverseSelections(i.selections, record: record, dataID: dataID, into: &data)
                    withinUnmatchedTypeRefinement = parentWithin
                    if implementsInterface == false {
                        isMissingData = parentMissing
                    } else if implementsInterface == true && !had {
                        return false
                    }
                } else if snapshot.typename(of: record) == i.type || dataID == RecordStore.rootID {
                    guard traverseSelections(i.selections, record: record, dataID: dataID, into: &data) else {
                        return false
                    }
                }
            case .fragmentSpread(let spread):
                if let inlineData = spread.inlineData {
                    readInlineData(spread, inlineData, record: record, dataID: dataID, into: &data)
                    continue
                }
                var args: [(String, ReadValue)] = spread.args.compactMap { arg in
                    arg.value.resolve(variables).map { (arg.name, ReadValue($0)) }
                }
                if withinUnmatchedTypeRefinement { args.append(("$isWithinUnmatchedTypeRefinement", .bool(true))) }
                if data.firstIndex(where: { $0.0 == "__id" }) == nil { data.append(("__id", .string(dataID))) }
                var fragments: [(String, ReadValue)] = []
                if let i = data.firstIndex(where: { $0.0 == "__fragments" }), case .object(let m) = data[i].1 {
                    fragments = m
                }
                fragments.removeAll { $0.0 == spread.name }
                fragments.append((spread.name, .object(args)))
                set(&data, "__fragments", .object(fragments))
                if let owner { set(&data, "__fragmentOwner", owner.value) }
            case .aliasedInlineFragment(let alias):
                guard let to = alias.catchTo else {
                    readAliased(alias, record: record, dataID: dataID, into: &data)
                    continue
                }
                let previous = fieldErrors
                fieldErrors = []
                readAliased(alias, record: record, dataID: dataID, into: &data)
                let value = data.last(where: { $0.0 == alias.name })?.1
                if let result = caught(value, to, previous: previous) { set(&data, alias.name, result) }
            case .typeDiscriminator:
                break
            }
        }
        return true
    }

    /// A field read with its `@catch` (relay's `_catchErrors` around it) or `@required` (its
    /// `_handleRequiredFieldValue` after it); `false` when a required one was null.
    @inline(__always)
    mutating func handlingFieldErrors(
        required: RequiredAction?, catchTo: CatchTo?, key: String, _ data: inout [(String, ReadValue)],
        _ read: (inout Reader, inout [(String, ReadValue)]) -> ReadValue?
    ) -> Bool {
        guard required != nil || catchTo != nil else {
            _ = read(&self, &data)
            return true
        }
        if let to = catchTo {
            let previous = fieldErrors
            fieldErrors = []
            let value = read(&self, &data)
            if let result = caught(value, to, previous: previous) { set(&data, key, result) }
            return true
        }
        return requiredHolds(read(&self, &data), required!, name: key)
    }

    /// relay's `_readScalar`: the value (`nil`: undefined), set under the response key.
    mutating func readScalar(
        _ f: ScalarField, record: RecordRef, dataID: String, into data: inout [(String, ReadValue)]
    ) -> ReadValue? {
        let key = StorageKey.of(f, variables)
        if key == "__typename" {
            // The record's type key, not a field of its own (as in relay's records); a
            // record with none reads it as undefined: missing.
            let type = snapshot.typename(of: record)
            if type.isEmpty {
                markMissing(f.responseKey)
                return nil
            }
            set(&data, f.responseKey, .string(type.string))
            return .string(type.string)
        }
        if key == "__id" {
            // relay's client field `__id`: the record's data ID (never stored as a field).
            set(&data, f.responseKey, .string(dataID))
            return .string(dataID)
        }
        guard let value = snapshot.field(record, key) else {
            // A client extension's field not set yet is undefined: an event, not missing data (relay).
            markMissing(f.responseKey, countsAsMissing: !f.isClientExtension)
            return nil
        }
        let read = scalar(value)
        if read == .null { addPayloadErrors(record, storageKey: key) }
        set(&data, f.responseKey, read)
        return read
    }

    /// relay's `_readLink` / `_readPluralLink`: the linked record(s) read, set under the response
    /// key; `nil` when undefined. Events met inside are prefixed with the field's name (and each
    /// item's index).
    mutating func readLinked(_ f: LinkedField, record: RecordRef, into data: inout [(String, ReadValue)])
        -> ReadValue?
    {
        // Nothing under a client extension's field makes the data missing (relay's reader
        // keeps `isMissingData` as it was around a client extension).
        let wasMissing = isMissingData
        defer { if f.isClientExtension { isMissingData = wasMissing } }
        let key = StorageKey.of(f, variables)
        guard let value = snapshot.field(record, key) else {
            markMissing(f.responseKey)
            return nil
        }
        switch value {
        case .null:
            addPayloadErrors(record, storageKey: key)
            set(&data, f.responseKey, .null)
            return .null
        case .link(let id):
            let previous = fieldErrors
            fieldErrors = []
            let v = traverse(f.selections, dataID: snapshot.text(id).string)
            prependPrevious(previous, f.responseKey)
            if let v { set(&data, f.responseKey, v) }
            return v
        case .links(let list):
            let previous = fieldErrors
            fieldErrors = []
            var items: [ReadValue] = []
            items.reserveCapacity(list.count)
            for (index, id) in list.enumerated() {
                guard let id else {
                    items.append(.null)
                    continue
                }
                let before = fieldErrors
                fieldErrors = []
                // undefined inside a list prints as null (JSON.stringify)
                items.append(traverse(f.selections, dataID: snapshot.text(id).string) ?? .null)
                prependPrevious(before, String(index))
            }
            prependPrevious(previous, f.responseKey)
            let v = ReadValue.array(items)
            set(&data, f.responseKey, v)
            return v
        default:
            // A scalar where a link belongs (data from elsewhere): treat as missing.
            markMissing(f.responseKey)
            return nil
        }
    }

    /// relay's `_readAliasedInlineFragment`: the selections read into an object of their own
    /// under the alias when the record matches; `null` when it is known not to (or a `@required`
    /// field inside was null); left out (and the data missing) when an abstract type's
    /// implementations are unknown.
    mutating func readAliased(
        _ alias: AliasedInlineFragment, record: RecordRef, dataID: String, into data: inout [(String, ReadValue)]
    ) {
        let previous = fieldErrors
        fieldErrors = []
        defer { prependPrevious(previous, alias.name) }
        let matches: Bool?
        if let type = alias.type {
            if let key = alias.abstractKey {
                matches = implements(record, key)
                if matches == nil { markMissing("<abstract-type-hint>") }
            } else {
                matches = snapshot.typename(of: record) == type || dataID == RecordStore.rootID
            }
        } else {
            matches = true
        }
        switch matches {
        case true?:
            var members: [(String, ReadValue)] = []
            let had = traverseSelections(alias.selections, record: record, dataID: dataID, into: &members)
            set(&data, alias.name, had ? .object(members) : .null)
        case false?:
            set(&data, alias.name, .null)
        case nil:
            break
        }
    }

    func scalar(_ value: FieldValue) -> ReadValue {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .number(let t): return .number(t.string)
        case .string(let s): return .string(s.string)
        case .json(let t): return .json(t.string)
        case .link(let id): return .object([("__ref", .string(snapshot.text(id).string))])
        case .links(let list):
            return .object([("__refs", .array(list.map { $0.map { .string(snapshot.text($0).string) } ?? .null }))])
        }
    }

    func set(_ data: inout [(String, ReadValue)], _ key: String, _ value: ReadValue) {
        if let i = data.firstIndex(where: { $0.0 == key }) { data[i].1 = value } else { data.append((key, value)) }
    }
}
