// relay's ConnectionHandler.update, run inside publish for each `@connection` field a payload
// holds: the server's page (stored under the field's own storage key) is merged into the client
// connection record (`client:<parent>:__<key>_connection(<filters>)`) the reader reads: edges get
// IDs `client:<connection>:edges:<n>` from `__connection_next_edge_index`, forward and backward
// pages merge with nodes de-duplicated, and page info follows relay's rules.

/// One `@connection` field in a payload (relay's HandleFieldPayload).
struct HandleFieldPayload {
    /// The record holding the field.
    var dataID: String
    /// The server field's storage key.
    var fieldKey: String
    /// The handle's storage key: `__<key>_connection(<filters>)`.
    var handleKey: String
    /// The field's arguments (after, before, first, last, …), resolved.
    var args: [String: JSONValue]
    /// A declarative mutation directive's (instead of the connection handler), with the
    /// connections it names.
    var mutation: MutationHandle? = nil
    var connections: [String] = []
}

extension ConnectionHandle {
    /// The handle's storage key for `field` with `variables`.
    func storageKey(_ field: LinkedField, _ variables: Variables) -> String {
        StorageKey.format(name: handleName, args: filterArguments(of: field.args), variables: variables)
    }
}

extension Array where Element == Selection {
    /// Whether a `@connection` field is anywhere in these selections.
    var containsConnectionHandle: Bool {
        contains { selection in
            switch selection {
            case .linkedField(let f):
                return f.handle != nil || f.mutationHandle != nil || f.selections.containsConnectionHandle
            case .scalarField(let f): return f.mutationHandle != nil
            case .condition(let c): return c.selections.containsConnectionHandle
            case .inlineFragment(let i): return i.selections.containsConnectionHandle
            case .typeDiscriminator, .fragmentSpread, .aliasedInlineFragment: return false  // (reader ASTs only)
            }
        }
    }
}

extension ReadSelector {
    /// The `@connection` fields `payload` holds, found by walking the operation's normalization
    /// selections through it from the selector's root (none for an operation without one).
    func handleFieldPayloads(in payload: NormalizedPayload) -> [HandleFieldPayload] {
        guard case .operation(let operation) = node, operation.normalization.containsConnectionHandle else { return [] }
        var found: [HandleFieldPayload] = []
        payload.withSnapshot { s in
            func mutation(_ handle: MutationHandle, _ dataID: String, _ key: String) -> HandleFieldPayload {
                var connections: [String] = []
                switch handle.connections?.resolve(variables) {
                case .array(let items)?:
                    for case .string(let id) in items { connections.append(id) }
                case .string(let id)?: connections = [id]
                default: break
                }
                return HandleFieldPayload(
                    dataID: dataID, fieldKey: key, handleKey: key, args: [:], mutation: handle, connections: connections
                )
            }
            func walk(_ selections: [Selection], _ dataID: String, depth: Int) {
                guard depth < 1000, case .record(let record) = s.record(dataID) else { return }
                for selection in selections {
                    switch selection {
                    case .linkedField(let f):
                        let key = StorageKey.of(f, variables)
                        guard let value = s.field(record, key) else { continue }
                        if let handle = f.handle {
                            var args: [String: JSONValue] = [:]
                            for arg in f.args { args[arg.name] = arg.value.resolve(variables) }
                            found.append(
                                HandleFieldPayload(
                                    dataID: dataID, fieldKey: key, handleKey: handle.storageKey(f, variables),
                                    args: args))
                        }
                        if let handle = f.mutationHandle { found.append(mutation(handle, dataID, key)) }
                        switch value {
                        case .link(let id): walk(f.selections, s.text(id).string, depth: depth + 1)
                        case .links(let ids):
                            for id in ids { if let id { walk(f.selections, s.text(id).string, depth: depth + 1) } }
                        default: break
                        }
                    case .condition(let c): walk(c.selections, dataID, depth: depth)
                    case .inlineFragment(let i): walk(i.selections, dataID, depth: depth)
                    case .scalarField(let f):
                        guard let handle = f.mutationHandle else { continue }
                        let key = StorageKey.of(f, variables)
                        if s.field(record, key) != nil { found.append(mutation(handle, dataID, key)) }
                    case .typeDiscriminator, .fragmentSpread, .aliasedInlineFragment: continue
                    }
                }
            }
            walk(operation.normalization, dataID, depth: 0)
        }
        return found
    }
}

extension ConnectionHandler {
    /// relay's `ConnectionHandler.update`: merges the server connection `payload` names into the
    /// client connection. A page whose `after` (`before`) cursor is not the client's end (start)
    /// cursor is an error, and the response is not written (relay warns and drops the page).
    static func update(_ store: RecordSourceProxy, _ payload: HandleFieldPayload) throws {
        if let mutation = payload.mutation { return update(store, payload, mutation) }
        guard let record = store.get(payload.dataID) else { return }
        guard let serverConnection = record.linkedRecord(payload.fieldKey) else {
            record.setValue(.null, payload.handleKey)
            return
        }
        let serverPageInfo = serverConnection.linkedRecord("pageInfo")
        let clientConnectionID = RecordSourceProxy.clientID(payload.dataID, payload.handleKey)
        let clientConnectionField = record.linkedRecord(payload.handleKey)
        guard let connection = clientConnectionField ?? store.get(clientConnectionID) else {
            // The first page: a client connection like the server's, its edges given client IDs.
            guard let connection = try? store.create(clientConnectionID, typename: serverConnection.typename) else {
                return
            }
            connection.setValue(.int(0), nextEdgeIndex)
            connection.copyFields(from: serverConnection)
            if let serverEdges = serverConnection.linkedRecords("edges") {
                connection.setLinkedRecords(serverEdges.map { buildEdge(store, connection, $0) }, "edges")
            }
            record.setLinkedRecord(connection, payload.handleKey)
            let pageInfoID = RecordSourceProxy.clientID(connection.dataID, "pageInfo")
            let pageInfo = store.get(pageInfoID) ?? (try? store.create(pageInfoID, typename: "PageInfo"))
            if let pageInfo {
                pageInfo.setValue(.bool(false), "hasNextPage")
                pageInfo.setValue(.bool(false), "hasPreviousPage")
                pageInfo.setValue(.null, "endCursor")
                pageInfo.setValue(.null, "startCursor")
                if let serverPageInfo { pageInfo.copyFields(from: serverPageInfo) }
                connection.setLinkedRecord(pageInfo, "pageInfo")
            }
            return
        }
        if clientConnectionField == nil { record.setLinkedRecord(connection, payload.handleKey) }
        let clientPageInfo = connection.linkedRecord("pageInfo")
        let after = payload.args["after"].flatMap { $0 == .null ? nil : $0 }
        let before = payload.args["before"].flatMap { $0 == .null ? nil : $0 }
        // A page after the end (before the start) of a list the store holds may be merged by the
        // store's node index, without reading the list (`spliceEdges`).
        let inStore =
            (after ?? before) != nil && store.pageMergesOnly && store.store.mergesPagesByIndex
            && store.storeHoldsLinks(connection.dataID, "edges")
        // (IDs, not proxies: a page's merge reads the connection's edges once, whatever their number.)
        var prevEdges = inStore ? nil : store.linkedIDs(connection.dataID, "edges")
        let prevPageInfo = clientPageInfo
        // (Edge indices are taken even for edges the merge then drops.)
        let serverEdges = serverConnection.linkedRecords("edges")?.map { buildEdge(store, connection, $0)?.dataID }
        let index = connection.value(nextEdgeIndex)
        connection.copyFields(from: serverConnection)
        if let index { connection.setValue(index, nextEdgeIndex) }
        if inStore {
            store.unset(connection.dataID, "edges")
        } else if let prevEdges {
            store.set(connection.dataID, "edges", .links(prevEdges))
        }
        if let prevPageInfo { connection.setLinkedRecord(prevPageInfo, "pageInfo") }
        var nextEdges: [String?]?
        if inStore, let serverEdges, let cursor = after ?? before {
            let forward = after != nil
            guard follows(clientPageInfo, cursor, forward: forward, connection.dataID, store) else { return }
            if !store.spliceEdges(connection.dataID, page: serverEdges.compactMap { $0 }, forward: forward) {
                // The index could not decide: the lists, as below.
                prevEdges = store.linkedIDs(connection.dataID, "edges")
            }
        }
        if inStore && prevEdges == nil {
            // Merged in the arena, or no page: the list stays.
        } else if let prevEdges, let serverEdges {
            if let cursor = after ?? before {
                // A page after the end (before the start): merged there, or nothing changes.
                let forward = after != nil
                guard follows(clientPageInfo, cursor, forward: forward, connection.dataID, store) else { return }
                var merged: [String?] = []
                var nodeIDs = Set<String>()
                merge(forward ? prevEdges : serverEdges, into: &merged, &nodeIDs, store)
                merge(forward ? serverEdges : prevEdges, into: &merged, &nodeIDs, store)
                nextEdges = merged
            } else {
                nextEdges = serverEdges
            }
        } else if !inStore {
            nextEdges = serverEdges ?? prevEdges
        }
        if let nextEdges, nextEdges != prevEdges { store.set(connection.dataID, "edges", .links(nextEdges)) }
        // Page info changes even when no edge came back.
        guard let clientPageInfo, let serverPageInfo else { return }
        let truthy = { (name: String) -> Bool in
            payload.args[name].map { $0 != .null && $0 != .bool(false) && $0 != .int(0) } ?? false
        }
        if after == nil && before == nil {
            clientPageInfo.copyFields(from: serverPageInfo)
        } else if before != nil || (after == nil && truthy("last")) {
            clientPageInfo.setValue(.bool(serverPageInfo.value("hasPreviousPage") == .bool(true)), "hasPreviousPage")
            if case .string? = serverPageInfo.value("startCursor") {
                clientPageInfo.setValue(serverPageInfo.value("startCursor")!, "startCursor")
            }
        } else if after != nil || (before == nil && truthy("first")) {
            clientPageInfo.setValue(.bool(serverPageInfo.value("hasNextPage") == .bool(true)), "hasNextPage")
            if case .string? = serverPageInfo.value("endCursor") {
                clientPageInfo.setValue(serverPageInfo.value("endCursor")!, "endCursor")
            }
        }
    }

    static let nextEdgeIndex = "__connection_next_edge_index"

    /// A page after `cursor` (before it, backward) follows the connection only at its end (start).
    /// One that does not is dropped as relay drops it: the edges and page info stay, and the
    /// warning relay prints goes to `store`'s log events.
    private static func follows(
        _ pageInfo: RecordProxy?, _ cursor: JSONValue, forward: Bool, _ connection: String, _ store: RecordSourceProxy
    ) -> Bool {
        let current = pageInfo?.value(forward ? "endCursor" : "startCursor") ?? .null
        guard current != cursor else { return true }
        // relay formats both with `%s`: strings as they are, anything else as JSON (null).
        let text = { (value: JSONValue) -> String in
            if case .string(let s) = value { return s }
            var out = ""
            value.writeStable(into: &out)
            return out
        }
        store.logEvents.append(
            .unexpectedCursor(connectionID: connection, cursor: text(cursor), expected: text(current), forward: forward)
        )
        return false
    }

    /// relay's `buildConnectionEdge`: `client:<connection>:edges:<index>`, a copy of the server's
    /// edge, its cursor null when absent.
    fileprivate static func buildEdge(_ store: RecordSourceProxy, _ connection: RecordProxy, _ edge: RecordProxy?)
        -> RecordProxy?
    {
        guard let edge else { return nil }
        guard case .int(let index)? = connection.value(nextEdgeIndex) else { return nil }
        let id = RecordSourceProxy.clientID(connection.dataID, "edges", Int(index))
        guard let built = store.get(id) ?? (try? store.create(id, typename: edge.typename)) else { return nil }
        built.copyFields(from: edge)
        if built.value("cursor") == nil { built.setValue(.null, "cursor") }
        connection.setValue(.int(index + 1), nextEdgeIndex)
        return built
    }

    /// relay's `mergeEdges`: null edges skipped, an edge whose node is already there dropped.
    private static func merge(
        _ source: [String?], into target: inout [String?], _ nodeIDs: inout Set<String>, _ store: RecordSourceProxy
    ) {
        let edges = source.compactMap { $0 }
        let nodes = store.linkedID(ofEach: edges, "node")
        for (edge, node) in zip(edges, nodes) {
            if let node {
                guard nodeIDs.insert(node).inserted else { continue }
            }
            target.append(edge)
        }
    }
}

extension ConnectionHandler {
    /// relay's MutationHandlers: the declarative directives on a mutation's fields. A connection
    /// that is not in the store is skipped (relay warns).
    fileprivate static func update(_ store: RecordSourceProxy, _ payload: HandleFieldPayload, _ handle: MutationHandle)
    {
        store.pageMergesOnly = false
        guard let record = store.get(payload.dataID) else { return }
        switch handle.kind {
        case .deleteRecord, .deleteEdge:
            var ids: [String] = []
            switch record.value(payload.fieldKey) {
            case .string(let id)?: ids = [id]
            case .array(let items)?:
                for case .string(let id) in items { ids.append(id) }
            default: return
            }
            for id in ids {
                if handle.kind == .deleteRecord {
                    try? store.delete(id)
                    continue
                }
                for connectionID in payload.connections {
                    if let connection = store.get(connectionID) { deleteNode(connection, nodeID: id) }
                }
            }
        case .appendEdge, .prependEdge:
            let serverEdges: [RecordProxy?] =
                record.linkedRecord(payload.fieldKey).map { [$0] } ?? record.linkedRecords(payload.fieldKey) ?? []
            for serverEdge in serverEdges {
                guard let serverEdge, let node = serverEdge.linkedRecord("node") else { continue }
                for connectionID in payload.connections {
                    guard let connection = store.get(connectionID) else { continue }
                    let existing = store.linkedIDs(connection.dataID, "edges")?.compactMap { $0 } ?? []
                    guard !store.linkedID(ofEach: existing, "node").contains(node.dataID) else { continue }
                    guard let edge = buildEdge(store, connection, serverEdge) else { continue }
                    if handle.kind == .appendEdge {
                        insertEdgeAfter(connection, edge)
                    } else {
                        insertEdgeBefore(connection, edge)
                    }
                }
            }
        case .appendNode, .prependNode:
            let serverNodes: [RecordProxy?] =
                record.linkedRecord(payload.fieldKey).map { [$0] } ?? record.linkedRecords(payload.fieldKey) ?? []
            guard let edgeType = handle.edgeTypeName else { return }
            for connectionID in payload.connections {
                guard let connection = store.get(connectionID) else { continue }
                let existing = store.linkedIDs(connection.dataID, "edges")?.compactMap { $0 } ?? []
                var nodeIDs = Set(store.linkedID(ofEach: existing, "node").compactMap { $0 })
                for node in serverNodes {
                    guard let node, nodeIDs.insert(node.dataID).inserted,
                        let edge = try? createEdge(store, connection: connection, node: node, edgeType: edgeType)
                    else { continue }
                    if handle.kind == .appendNode {
                        insertEdgeAfter(connection, edge)
                    } else {
                        insertEdgeBefore(connection, edge)
                    }
                }
            }
        }
    }
}

extension RecordSourceProxy {
    /// relay's `mergeEdges` for `page` (built edges) after the end (`forward`) or before the
    /// start of the edges list the store holds for `connection`, decided by the store's node
    /// index (made by reading the list once) and recorded to be written in the arena when
    /// published: the list itself is not read. `false` when the index cannot decide — an edge
    /// of the list is null or gone, or two share a node (relay's merge would drop them), a page
    /// node is one the list links to but the store lacks, or a page paged backward has a node
    /// already in the list (relay drops the list's edge, not the page's) — and nothing is recorded.
    func spliceEdges(_ connection: String, page: [String], forward: Bool) -> Bool {
        let pageNodes = linkedID(ofEach: page, "node")
        let merged: (edges: [String], nodes: [String])? = store.withSnapshot { s in
            guard let c = s.symbol(connection), case .record(let r) = s.record(c), let k = s.symbol("edges"),
                case .links(let list)? = s.field(r, k),
                let index = store.connectionIndexes.index(c.raw, word: list.value)
                    ?? Self.nodeIndex(s, connection: c.raw, list, in: store)
            else { return nil }
            var edges: [String] = []
            var nodes: [String] = []
            var seen = Set<String>()
            for (edge, node) in zip(page, pageNodes) {
                if let node {
                    if let n = s.symbol(node)?.raw {
                        guard !index.absent.contains(n) else { return nil }
                        if index.nodes.contains(n) {
                            guard forward else { return nil }
                            continue
                        }
                    }
                    guard seen.insert(node).inserted else { continue }
                    nodes.append(node)
                }
                edges.append(edge)
            }
            return (edges, nodes)
        }
        guard let merged else { return false }
        splice(
            connection, "edges", front: forward ? [] : merged.edges,
            back: forward ? merged.edges : [], nodes: merged.nodes)
        return true
    }

    /// Reads the list's edges' nodes once and keeps them as the connection's index; `nil` when
    /// relay's merge would change the list itself (a null or missing edge, a node twice).
    private static func nodeIndex(_ s: StoreSnapshot, connection: UInt32, _ list: LinkList, in store: RecordStore)
        -> ConnectionIndexes.Index?
    {
        let nodeKey = s.symbol("node")
        var index = ConnectionIndexes.Index(word: list.value, nodes: Set(minimumCapacity: list.count), absent: [])
        var edges: [UInt32] = []
        edges.reserveCapacity(list.count)
        for i in 0..<list.count {
            guard let edge = list[i], case .record(let r) = s.record(edge) else { return nil }
            edges.append(edge.raw)
            guard let nodeKey, case .link(let node)? = s.field(r, nodeKey) else { continue }
            // (relay's merge drops a later edge to the same ID, whether or not the store has it.)
            guard !index.nodes.contains(node.raw), !index.absent.contains(node.raw) else { return nil }
            if case .record = s.record(node) {
                index.nodes.insert(node.raw)
            } else {
                index.absent.insert(node.raw)
            }
        }
        store.connectionIndexes.install(connection, index, edges: edges)
        return index
    }
}
