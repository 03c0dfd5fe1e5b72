// relay's `RecordProxy`: one record as an updater reads and writes it, through its
// RecordSourceProxy; and whether a data ID names a record.

/// Whether a data ID names a record (relay's EXISTENT / NONEXISTENT / UNKNOWN).
public enum RecordAvailability: Sendable {
    case exists, deleted, unknown
}

/// One record as an updater sees it (relay's `RecordProxy`). `args` are a field's arguments,
/// which name its storage key as relay formats it (`name(arg:value,…)`, keys sorted).
public struct RecordProxy {
    let source: RecordSourceProxy
    public let dataID: String

    public var typename: String { source.typename(of: dataID) ?? "" }

    /// A scalar field; `nil` when absent (never fetched) or a link.
    public func value(_ name: String, _ args: [String: JSONValue] = [:]) -> JSONValue? {
        guard case .value(let v)? = source.field(dataID, Self.key(name, args)) else { return nil }
        return v
    }

    public func setValue(_ value: JSONValue, _ name: String, _ args: [String: JSONValue] = [:]) {
        source.set(dataID, Self.key(name, args), .value(value))
    }

    /// The linked record; `nil` when the link is null or absent, or its record unknown or deleted.
    public func linkedRecord(_ name: String, _ args: [String: JSONValue] = [:]) -> RecordProxy? {
        guard case .link(let id?)? = source.field(dataID, Self.key(name, args)) else { return nil }
        return source.get(id)
    }

    /// Links `record` (`nil`: a null link).
    public func setLinkedRecord(_ record: RecordProxy?, _ name: String, _ args: [String: JSONValue] = [:]) {
        source.set(dataID, Self.key(name, args), .link(record?.dataID))
    }

    /// The linked records, `nil` entries for null ones; `nil` when the field is absent or no list.
    public func linkedRecords(_ name: String, _ args: [String: JSONValue] = [:]) -> [RecordProxy?]? {
        guard case .links(let ids)? = source.field(dataID, Self.key(name, args)) else { return nil }
        return ids.map { $0.flatMap { source.get($0) } }
    }

    public func setLinkedRecords(_ records: [RecordProxy?], _ name: String, _ args: [String: JSONValue] = [:]) {
        source.set(dataID, Self.key(name, args), .links(records.map { $0?.dataID }))
    }

    /// The linked record, created (client ID `client:<parent>:<storage key>`) when there is none.
    public func getOrCreateLinkedRecord(_ name: String, typename: String, _ args: [String: JSONValue] = [:])
        -> RecordProxy
    {
        if let linked = linkedRecord(name, args) { return linked }
        let key = Self.key(name, args)
        let id = RecordSourceProxy.clientID(dataID, key)
        let record =
            source.get(id) ?? (try? source.create(id, typename: typename)) ?? RecordProxy(source: source, dataID: id)
        source.set(dataID, key, .link(id))
        return record
    }

    /// Copies every field of `other` (but its ID and type) into this record.
    public func copyFields(from other: RecordProxy) {
        for key in source.fieldKeys(other.dataID) where key != "id" {
            if let field = source.field(other.dataID, key) { source.set(dataID, key, field) }
        }
    }

    /// Marks this record outdated when the update is committed (relay's `invalidateRecord`).
    public func invalidateRecord() { source.invalidate(dataID) }

    static func key(_ name: String, _ args: [String: JSONValue]) -> String {
        let given = args.filter { $0.value != .null }
        guard !given.isEmpty else { return name }
        let keys = given.keys.sorted { Array($0.utf16).lexicographicallyPrecedes(Array($1.utf16)) }
        return name + "(" + keys.map { $0 + ":" + given[$0]!.stableJSON }.joined(separator: ",") + ")"
    }
}
