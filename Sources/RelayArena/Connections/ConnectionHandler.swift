// relay's connection helpers for updaters (ConnectionHandler.js's public functions): find a
// connection record, make and insert or delete its edges.

/// relay's connection helpers for updaters (ConnectionHandler.js): the client connection record
/// `@connection` keeps under `__<key>_connection`, and its edges.
public enum ConnectionHandler {
    /// The connection record `@connection(key:)` keeps on `record` (filters: the connection's
    /// filter arguments); `nil` when there is none.
    public static func getConnection(_ record: RecordProxy, key: String, filters: [String: JSONValue] = [:])
        -> RecordProxy?
    {
        record.linkedRecord(handleKey(key), filters)
    }

    /// The data ID of that record: `client:<recordID>:__<key>_connection(<filters>)` (what
    /// `connections:` arguments name).
    public static func connectionID(_ recordID: String, key: String, filters: [String: JSONValue] = [:]) -> String {
        RecordSourceProxy.clientID(recordID, RecordProxy.key(handleKey(key), filters))
    }

    /// An edge for `node` in `connection`: `client:<connectionID>:<nodeID>` (the existing one
    /// if any), its `cursor` null when absent. Not inserted: see `insertEdgeAfter`/`Before`.
    public static func createEdge(
        _ store: RecordSourceProxy, connection: RecordProxy, node: RecordProxy, edgeType: String
    ) throws -> RecordProxy {
        let id = RecordSourceProxy.clientID(connection.dataID, node.dataID)
        let edge = try store.get(id) ?? store.create(id, typename: edgeType)
        edge.setLinkedRecord(node, "node")
        if edge.value("cursor") == nil { edge.setValue(.null, "cursor") }
        return edge
    }

    /// Appends `edge`, or inserts it after every edge whose cursor is `cursor` (appended when
    /// none is).
    public static func insertEdgeAfter(_ connection: RecordProxy, _ edge: RecordProxy, cursor: String? = nil) {
        guard let edges = connection.linkedRecords("edges") else {
            connection.setLinkedRecords([edge], "edges")
            return
        }
        guard let cursor else {
            connection.setLinkedRecords(edges + [edge], "edges")
            return
        }
        var next: [RecordProxy?] = []
        var found = false
        for existing in edges {
            next.append(existing)
            if let existing, existing.value("cursor") == .string(cursor) {
                next.append(edge)
                found = true
            }
        }
        if !found { next.append(edge) }
        connection.setLinkedRecords(next, "edges")
    }

    /// Prepends `edge`, or inserts it before every edge whose cursor is `cursor` (prepended when
    /// none is).
    public static func insertEdgeBefore(_ connection: RecordProxy, _ edge: RecordProxy, cursor: String? = nil) {
        guard let edges = connection.linkedRecords("edges") else {
            connection.setLinkedRecords([edge], "edges")
            return
        }
        guard let cursor else {
            connection.setLinkedRecords([edge] + edges, "edges")
            return
        }
        var next: [RecordProxy?] = []
        var found = false
        for existing in edges {
            if let existing, existing.value("cursor") == .string(cursor) {
                next.append(edge)
                found = true
            }
            next.append(existing)
        }
        if !found { next.insert(edge, at: 0) }
        connection.setLinkedRecords(next, "edges")
    }

    /// Removes every edge whose node is `nodeID`; writes nothing when there is none.
    public static func deleteNode(_ connection: RecordProxy, nodeID: String) {
        guard let edges = connection.linkedRecords("edges") else { return }
        let next = edges.filter { $0?.linkedRecord("node")?.dataID != nodeID }
        if next.count != edges.count { connection.setLinkedRecords(next, "edges") }
    }

    static func handleKey(_ key: String) -> String { "__\(key)_connection" }
}
