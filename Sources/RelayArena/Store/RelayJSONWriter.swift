// relay `RecordSource.toJSON()` text written from Swift, record by record: the one writer of it
// outside the C core (whose export writes a store's records). What Swift writes into a store —
// an updater's proxy writes, an invalidation, a rollback's kept records — becomes a payload
// through `NormalizedPayload(relayJSON:)`.

/// A field of a record as Swift writes it: a scalar (any JSON), a link, or a list of links.
enum RecordField {
    case value(JSONValue)
    case link(String?)
    case links([String?])
}

/// relay toJSON text of some records: `{"<id>": {"__id": …, "__typename": …, <fields>}, …}`,
/// a deleted record as `null`.
struct RelayJSONWriter {
    private var out = "{"
    private(set) var isEmpty = true

    private mutating func open(_ dataID: String) {
        if !isEmpty { out += "," }
        isEmpty = false
        JSONString.escape(dataID, into: &out)
        out += ":"
    }

    /// A deleted record (relay's `null`).
    mutating func deleted(_ dataID: String) {
        open(dataID)
        out += "null"
    }

    /// A record with its `fields` in their order: publishing merges them into what the store
    /// holds, so a record written here names only the fields it changes.
    mutating func record(
        _ dataID: String, typename: String, fields: some Sequence<(key: String, value: RecordField)>
    ) {
        open(dataID)
        out += "{\"__id\":"
        JSONString.escape(dataID, into: &out)
        out += ",\"__typename\":"
        JSONString.escape(typename, into: &out)
        for (key, field) in fields {
            out += ","
            JSONString.escape(key, into: &out)
            out += ":"
            switch field {
            case .value(let v): v.writeStable(into: &out)
            case .link(let id?):
                out += "{\"__ref\":"
                JSONString.escape(id, into: &out)
                out += "}"
            case .link(nil): out += "null"
            case .links(let ids):
                out += "{\"__refs\":["
                for (j, id) in ids.enumerated() {
                    if j > 0 { out += "," }
                    if let id { JSONString.escape(id, into: &out) } else { out += "null" }
                }
                out += "]}"
            }
        }
        out += "}"
    }

    var bytes: [UInt8] { Array((out + "}").utf8) }

    /// The records as a payload to publish.
    func payload() throws -> NormalizedPayload { try NormalizedPayload(relayJSON: bytes) }
}

extension NormalizedPayload {
    /// relay toJSON text as a payload: the records written from Swift, parsed by the core's
    /// importer (yajl). This is the one round trip of Swift's writes through text; it costs a
    /// parse of the written records only (an updater's few fields, a rollback's kept records),
    /// never of the store.
    convenience init(relayJSON bytes: [UInt8]) throws {
        self.init(delta: try SourceHandle.importJSON(bytes, maxDepth: RecordStore.backupDepth))
    }
}
