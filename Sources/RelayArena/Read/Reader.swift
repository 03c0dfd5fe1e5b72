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
        return read(
            selections: fragment.selections, abstractKey: fragment.abstractKey,
            typeCondition: fragment.typeCondition, dataID: dataID, variables: vars, owner: owner)
    }

    /// Reads an operation's own (masked) selection, by default from `client:root`.
    public func read(operation: OperationArtifact, variables: Variables = [:], dataID: String = RecordStore.rootID)
        -> ReadResult
    {
        let owner = FragmentOwner(operation: operation, variables: variables)
        return read(
            selections: operation.reader, abstractKey: nil, dataID: dataID,
            variables: operation.effectiveVariables(variables), owner: owner)
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

    /// A read; a re-read, given how many records the last one saw, grows a large set of seen
    /// records once.
    init(snapshot: StoreSnapshot, variables: Variables, owner: FragmentOwner?, previouslySeen: Int = 0) {
        self.snapshot = snapshot
        self.variables = variables
        self.owner = owner
        if previouslySeen > 64 { seen.reserveCapacity(previouslySeen) }
    }

    /// relay's RelayReader.read: a fragment read from a record that is not of its type (concrete:
    /// another typename, unless the root; abstract: known not to implement it) expects no data,
    /// so nothing counts as missing and spreads are flagged as within an unmatched refinement. An
    /// abstract type whose implementation is unknown marks the data missing.
    mutating func read(
        _ selections: [Selection], abstractKey: String?, typeCondition: String? = nil,
        dataID: String
    ) -> ReadResult {
        if case .record(let r) = snapshot.record(dataID) {
            if let abstractKey {
                switch implements(r, abstractKey) {
                case false?: withinUnmatchedTypeRefinement = true
                case nil: markMissing()
                case true?: break
                }
            } else if let typeCondition, dataID != RecordStore.rootID, !(snapshot.typename(of: r) == typeCondition) {
                withinUnmatchedTypeRefinement = true
            }
        }
        let data = traverse(selections, dataID: dataID)
        return ReadResult(data: data, isMissingData: isMissingData, seen: seen.ids)
    }

    mutating func markMissing() {
        if !withinUnmatchedTypeRefinement { isMissingData = true }
    }

    /// `nil` is undefined (unknown record), `.null` a deleted one.
    mutating func traverse(_ selections: [Selection], dataID: String) -> ReadValue? {
        seen.insert(dataID)
        switch snapshot.record(dataID) {
        case .unknown:
            markMissing()
            return nil
        case .deleted:
            return .null
        case .record(let r):
            var members: [(String, ReadValue)] = []
            traverseSelections(selections, record: r, dataID: dataID, into: &members)
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

    mutating func traverseSelections(
        _ selections: [Selection], record: RecordRef, dataID: String,
        into data: inout [(String, ReadValue)]
    ) {
        for selection in selections {
            switch selection {
            case .scalarField(let f):
                let key = StorageKey.of(f, variables)
                if key == "__typename" {
                    // The record's type key, not a field of its own (as in relay's records); a
                    // record with none reads it as undefined: missing.
                    let type = snapshot.typename(of: record)
                    if type.isEmpty { markMissing() } else { set(&data, f.responseKey, .string(type.string)) }
                    continue
                }
                if key == "__id" {
                    // relay's client field `__id`: the record's data ID (never stored as a field).
                    set(&data, f.responseKey, .string(dataID))
                    continue
                }
                guard let value = snapshot.field(record, key) else {
                    // A client extension's field not set yet is undefined, not missing (relay).
                    if !f.isClientExtension { markMissing() }
                    continue
                }
                set(&data, f.responseKey, scalar(value))
            case .linkedField(let f):
                // Nothing under a client extension's field makes the data missing (relay's reader
                // keeps `isMissingData` as it was around a client extension).
                let wasMissing = isMissingData
                defer { if f.isClientExtension { isMissingData = wasMissing } }
                guard let value = snapshot.field(record, StorageKey.of(f, variables)) else {
                    markMissing()
                    continue
                }
                switch value {
                case .null:
                    set(&data, f.responseKey, .null)
                case .link(let id):
                    if let v = traverse(f.selections, dataID: snapshot.text(id).string) {
                        set(&data, f.responseKey, v)
                    }
                case .links(let list):
                    var items: [ReadValue] = []
                    for id in list {
                        guard let id else {
                            items.append(.null)
                            continue
                        }
                        // undefined inside a list prints as null (JSON.stringify)
                        items.append(traverse(f.selections, dataID: snapshot.text(id).string) ?? .null)
                    }
                    set(&data, f.responseKey, .array(items))
                default:
                    // A scalar where a link belongs (data from elsewhere): treat as missing.
                    markMissing()
                }
            case .condition(let c):
                if (variables[c.variable] ?? .null).isTruthy == c.passingValue {
                    traverseSelections(c.selections, record: record, dataID: dataID, into: &data)
                }
            case .inlineFragment(let i):
                if let key = i.abstractKey {
                    let parentMissing = isMissingData
                    let parentWithin = withinUnmatchedTypeRefinement
                    let implementsInterface = implements(record, key)
                    withinUnmatchedTypeRefinement = parentWithin || implementsInterface == false
                    traverseSelections(i.selections, record: record, dataID: dataID, into: &data)
                    withinUnmatchedTypeRefinement = parentWithin
                    if implementsInterface == false {
                        isMissingData = parentMissing
                    } else if implementsInterface == nil {
                        markMissing()
                    }
                } else if snapshot.typename(of: record) == i.type || dataID == RecordStore.rootID {
                    traverseSelections(i.selections, record: record, dataID: dataID, into: &data)
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
                readAliased(alias, record: record, dataID: dataID, into: &data)
            case .typeDiscriminator:
                break
            }
        }
    }

    /// relay's `_readAliasedInlineFragment`: the selections read into an object of their own
    /// under the alias when the record matches; `null` when it is known not to; left out (and
    /// the data missing) when an abstract type's implementations are unknown.
    mutating func readAliased(
        _ alias: AliasedInlineFragment, record: RecordRef, dataID: String, into data: inout [(String, ReadValue)]
    ) {
        let matches: Bool?
        if let type = alias.type {
            if let key = alias.abstractKey {
                matches = implements(record, key)
            } else {
                matches = snapshot.typename(of: record) == type || dataID == RecordStore.rootID
            }
        } else {
            matches = true
        }
        switch matches {
        case true?:
            var members: [(String, ReadValue)] = []
            traverseSelections(alias.selections, record: record, dataID: dataID, into: &members)
            set(&data, alias.name, .object(members))
        case false?:
            set(&data, alias.name, .null)
        case nil:
            markMissing()
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
