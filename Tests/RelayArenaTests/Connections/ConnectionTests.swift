// `@connection` as relay-runtime has it: compiled (the reader reads the handle, the query asks for
// cursors and page info), and merged by the connection handler inside publish — the reference's
// worked example: a first page, the next page (its duplicate node dropped), a page with a stale
// cursor (nothing changes), a refetch (edges replaced), another filter (another connection), a
// null connection; collection keeps what the handle reaches.
import Foundation
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import XCTest

/// What an environment's log was told.
@MainActor
final class LoggedEvents {
    var events: [LogEvent] = []
}

@MainActor
final class ConnectionTests: XCTestCase {
    nonisolated static let schema = try! Fixtures.text("todo.graphql")
    nonisolated static let docs = try! Compiler(schema: GraphQLSourceFile(name: "todo.graphql", text: schema)).compile([
        GraphQLSourceFile(
            name: "list.graphql",
            text: """
                query ListQuery($count: Int!, $cursor: String, $status: String) {
                  user(id: "me") {
                    id
                    todos(first: $count, after: $cursor, status: $status) @connection(key: "List_todos", filters: ["status"]) {
                      edges { node { id text } }
                    }
                  }
                }
                query BothWaysQuery($first: Int, $after: String, $last: Int, $before: String, $status: String) {
                  user(id: "me") {
                    id
                    todos(first: $first, after: $after, last: $last, before: $before, status: $status)
                      @connection(key: "List_todos", filters: ["status"]) {
                      edges { node { id text } }
                    }
                  }
                }
                mutation AddTodoMutation($input: AddTodoInput!, $connections: [ID!]!) {
                  addTodo(input: $input) { todoEdge @appendEdge(connections: $connections) { cursor node { id text } } }
                }
                mutation RemoveCompletedMutation($input: RemoveCompletedTodosInput!, $connections: [ID!]!) {
                  removeCompletedTodos(input: $input) { deletedTodoIds @deleteEdge(connections: $connections) }
                }
                mutation RemoveTodoMutation($input: RemoveTodoInput!) {
                  removeTodo(input: $input) { deletedTodoId @deleteRecord }
                }
                """)
    ])
    static let list = docs.operations["ListQuery"]!
    static let any = #"client:me:__List_todos_connection(status:"any")"#

    func page(_ edges: [(cursor: String, id: String)], end: String?, hasNext: Bool, start: String? = nil) -> [UInt8] {
        let e = edges.map {
            #"{"cursor":"\#($0.cursor)","node":{"id":"\#($0.id)","text":"\#($0.id) text","__typename":"Todo"}}"#
        }
        let quote = { (s: String?) in s.map { "\"\($0)\"" } ?? "null" }
        return Array(
            (#"{"data":{"user":{"id":"me","todos":{"edges":["# + e.joined(separator: ",")
                + #"],"pageInfo":{"endCursor":\#(quote(end)),"hasNextPage":\#(hasNext),"hasPreviousPage":false,"startCursor":\#(quote(start))}}}}}"#)
                .utf8)
    }

    func records(_ environment: Environment) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(environment.store.relayJSON())) as! [String: Any]
    }

    /// The client connection's edges as their IDs' last part and their nodes.
    func edges(_ environment: Environment, _ connection: String = any) throws -> [String] {
        let all = try records(environment)
        let refs = ((all[connection] as! [String: Any])["edges"] as! [String: Any])["__refs"] as! [Any]
        return refs.map { ref in
            guard let ref = ref as? String else { return "null" }
            let node = ((all[ref] as? [String: Any])?["node"] as? [String: Any])?["__ref"] as? String ?? "null"
            return ref.replacingOccurrences(of: connection + ":edges:", with: "") + "→" + node
        }
    }

    func pageInfo(_ environment: Environment, _ connection: String = any) throws -> [String: Any] {
        var info = try records(environment)[connection + ":pageInfo"] as! [String: Any]
        info["__id"] = nil
        info["__typename"] = nil
        return info
    }

    func testArtifacts() async throws {
        guard case .linkedField(let user) = Self.list.reader[0],
            case .linkedField(let todos) = user.selections.first(where: {
                if case .linkedField(let f) = $0 { return f.responseKey == "todos" } else { return false }
            })!
        else { return XCTFail("no user.todos in \(Self.list.reader)") }
        XCTAssertEqual(todos.name, "__List_todos_connection")
        XCTAssertEqual(todos.args.map(\.name), ["status"])
        XCTAssertEqual(todos.handle?.fieldName, "todos")
        XCTAssertTrue(Self.list.text.contains("cursor"), Self.list.text)
        XCTAssertTrue(Self.list.text.contains("pageInfo"), Self.list.text)
        XCTAssertTrue(Self.list.text.contains("hasNextPage"), Self.list.text)
        XCTAssertFalse(Self.list.text.contains("@connection"), Self.list.text)
    }

    /// The backward case of relay's ConnectionHandler: a page before a cursor that is not the
    /// start is dropped and relay's "before" warning is logged.
    func testABackwardPageBeforeAnotherCursorIsDroppedAndLogged() async throws {
        let logged = LoggedEvents()
        let environment = Environment(network: MockNetwork(), log: { logged.events.append($0) })
        let both = Self.docs.operations["BothWaysQuery"]!
        try environment.commitPayload(
            both, variables: ["last": .int(2), "status": .string("any")],
            response: page([("c1", "t1"), ("c2", "t2")], end: "c2", hasNext: false, start: "c1"))
        XCTAssertEqual(try edges(environment), ["0→t1", "1→t2"])
        try environment.commitPayload(
            both, variables: ["last": .int(1), "before": .string("c2"), "status": .string("any")],
            response: page([("c0", "t0")], end: "c0", hasNext: false, start: "c0"))
        XCTAssertEqual(try edges(environment), ["0→t1", "1→t2"])
        XCTAssertEqual(try pageInfo(environment)["startCursor"] as? String, "c1")
        XCTAssertNotNil(try records(environment)["t0"] as? [String: Any])
        XCTAssertEqual(
            logged.events.map(\.message),
            ["Relay: Unexpected before cursor `c2`, edges must be fetched from the beginning of the list (`c1`)."])
    }

    func testPagesMergeAsRelayMergesThem() async throws {
        let logged = LoggedEvents()
        let environment = Environment(network: MockNetwork(), log: { logged.events.append($0) })
        try environment.commitPayload(
            Self.list, variables: ["count": .int(2), "status": .string("any")],
            response: page([("c1", "t1"), ("c2", "t2")], end: "c2", hasNext: true, start: "c1"))
        XCTAssertEqual(try edges(environment), ["0→t1", "1→t2"])
        XCTAssertEqual(
            (try records(environment)[Self.any] as! [String: Any])["__connection_next_edge_index"] as? Int, 2)
        XCTAssertEqual(try pageInfo(environment)["endCursor"] as? String, "c2")
        XCTAssertEqual(try pageInfo(environment)["hasNextPage"] as? Bool, true)
        let read = { () -> [String] in
            let data = environment.store.read(
                operation: Self.list, variables: ["count": .int(2), "status": .string("any")]
            ).data
            guard case .array(let edges)? = data?["user"]?["todos"]?["edges"] else { return [] }
            return edges.compactMap { edge in
                guard case .string(let text)? = edge["node"]?["text"] else { return nil }
                return text
            }
        }
        XCTAssertEqual(read(), ["t1 text", "t2 text"])

        // The next page, after the end cursor: appended, the node seen before dropped (its edge
        // index taken all the same).
        try environment.commitPayload(
            Self.list, variables: ["count": .int(2), "cursor": .string("c2"), "status": .string("any")],
            response: page([("c3", "t3"), ("c4", "t2")], end: "c4", hasNext: false))
        XCTAssertEqual(try edges(environment), ["0→t1", "1→t2", "2→t3"])
        XCTAssertEqual(
            (try records(environment)[Self.any] as! [String: Any])["__connection_next_edge_index"] as? Int, 4)
        XCTAssertEqual(try pageInfo(environment)["endCursor"] as? String, "c4")
        XCTAssertEqual(try pageInfo(environment)["hasNextPage"] as? Bool, false)
        // A forward connection selects no start cursor: it stays as the first page made it.
        XCTAssertTrue(try pageInfo(environment)["startCursor"] is NSNull)
        XCTAssertEqual(read(), ["t1 text", "t2 text", "t3 text"])

        // A page after a cursor that is not the end: relay's ConnectionHandler drops it: the page's
        // records are written, the connection's edges and page info stay, and relay's warning
        // (ConnectionHandler.js's text) goes to the log.
        let info = try pageInfo(environment)
        try environment.commitPayload(
            Self.list, variables: ["count": .int(2), "cursor": .string("c2"), "status": .string("any")],
            response: page([("c9", "t9")], end: "c9", hasNext: true))
        XCTAssertEqual(try edges(environment), ["0→t1", "1→t2", "2→t3"])
        XCTAssertEqual(try pageInfo(environment)["endCursor"] as? String, info["endCursor"] as? String)
        XCTAssertEqual(try pageInfo(environment)["hasNextPage"] as? Bool, false)
        XCTAssertEqual((try records(environment)["t9"] as? [String: Any])?["text"] as? String, "t9 text")
        XCTAssertEqual(
            logged.events,
            [.unexpectedCursor(connectionID: Self.any, cursor: "c2", expected: "c4", forward: true)])
        XCTAssertEqual(
            logged.events.first?.message,
            "Relay: Unexpected after cursor `c2`, edges must be fetched from the end of the list (`c4`).")
        XCTAssertEqual(read(), ["t1 text", "t2 text", "t3 text"])
        logged.events = []

        // A refetch (no cursor): the edges are replaced, the page info too.
        try environment.commitPayload(
            Self.list, variables: ["count": .int(2), "status": .string("any")],
            response: page([("c5", "t5"), ("c6", "t6")], end: "c6", hasNext: true, start: "c5"))
        // The dropped page used up edge index 4, as in relay.
        XCTAssertEqual(try edges(environment), ["5→t5", "6→t6"])
        XCTAssertEqual(logged.events, [])
        XCTAssertEqual(try pageInfo(environment)["endCursor"] as? String, "c6")
        XCTAssertEqual(try pageInfo(environment)["hasNextPage"] as? Bool, true)
        XCTAssertEqual(read(), ["t5 text", "t6 text"])

        // Another filter: another connection beside the first.
        try environment.commitPayload(
            Self.list, variables: ["count": .int(1), "status": .string("done")],
            response: page([("d1", "t1")], end: "d1", hasNext: false))
        let done = #"client:me:__List_todos_connection(status:"done")"#
        XCTAssertEqual(try edges(environment, done), ["0→t1"])
        XCTAssertEqual(try edges(environment), ["5→t5", "6→t6"])

        // A null connection: the handle is null, the reader reads null.
        try environment.commitPayload(
            Self.list, variables: ["count": .int(1), "status": .string("done")],
            response: Array(#"{"data":{"user":{"id":"me","todos":null}}}"#.utf8))
        let me = try records(environment)["me"] as! [String: Any]
        XCTAssertTrue(me[#"__List_todos_connection(status:"done")"#] is NSNull)
        let data = environment.store.read(
            operation: Self.list, variables: ["count": .int(1), "status": .string("done")]
        ).data
        XCTAssertEqual(data?["user"]?["todos"], .null)
    }

    /// A page is merged by the store's node index, in the arena, when it can decide, and by
    /// reading the lists otherwise: the two stores agree after every step of a history that
    /// pages both ways, drops duplicates, and changes the list and its nodes between pages.
    func testPagesMergedByTheNodeIndexAreRelaysMerge() async throws {
        let (indexed, _) = Environment.mock()
        let (reading, _) = Environment.mock()
        reading.store.mergesPagesByIndex = false
        let query = Self.docs.operations["BothWaysQuery"]!
        var step = ""
        func both(_ body: (Environment) throws -> Void) rethrows {
            try body(indexed)
            try body(reading)
            XCTAssertEqual(
                NSDictionary(dictionary: try records(indexed)), NSDictionary(dictionary: try records(reading)), step)
            XCTAssertEqual(try edges(indexed), try edges(reading), step)
        }
        func forward(_ after: String, _ ids: [String]) throws {
            step = "after \(after): \(ids)"
            try both {
                try $0.commitPayload(
                    query, variables: ["first": .int(2), "after": .string(after), "status": .string("any")],
                    response: page(
                        ids.map { ("c" + $0.dropFirst(), $0) }, end: "c" + ids.last!.dropFirst(), hasNext: true))
            }
        }
        func backward(_ before: String, _ ids: [String]) throws {
            step = "before \(before): \(ids)"
            try both {
                try $0.commitPayload(
                    query, variables: ["last": .int(2), "before": .string(before), "status": .string("any")],
                    response: page(
                        ids.map { ("c" + $0.dropFirst(), $0) }, end: nil, hasNext: false,
                        start: "c" + ids.first!.dropFirst()))
            }
        }
        step = "first page"
        try both {
            try $0.commitPayload(
                query, variables: ["first": .int(3), "status": .string("any")],
                response: page(
                    [("c10", "t10"), ("c11", "t11"), ("c12", "t12")], end: "c12", hasNext: true, start: "c10"))
        }
        XCTAssertEqual(reading.store.indexedConnectionCount, 0)
        try forward("c12", ["t13", "t14"])
        XCTAssertEqual(indexed.store.indexedConnectionCount, 1, "the page was merged by the index")
        XCTAssertEqual(try edges(indexed).count, 5)
        // Nodes the list has, and a node twice in the page: dropped.
        try forward("c14", ["t15", "t11", "t15", "t16"])
        XCTAssertEqual(
            try edges(indexed).map { $0.split(separator: "→")[1] }, ["t10", "t11", "t12", "t13", "t14", "t15", "t16"])
        // Pages before the start: new nodes go first; a node the list has keeps the page's edge.
        try backward("c10", ["t8", "t9"])
        XCTAssertEqual(try edges(indexed).first?.split(separator: "→")[1], "t8")
        try backward("c8", ["t6", "t13"])
        XCTAssertEqual(try edges(indexed).first?.split(separator: "→")[1], "t6")
        // An updater points an edge at a node another edge has: relay's next merge drops the later one.
        step = "an edge's node changed"
        try both {
            try $0.commitLocalUpdate { store in
                store.get(Self.any + ":edges:1")?.setLinkedRecord(store.get("t10"), "node")
            }
        }
        try forward("c16", ["t17"])
        // A node deleted, then paged again.
        step = "t13 deleted"
        try both { try $0.commitLocalUpdate { try $0.delete("t13") } }
        try forward("c17", ["t13", "t18"])
        // A null edge in the list: relay's merge drops it.
        step = "a null edge"
        try both {
            try $0.commitLocalUpdate { store in
                let connection = store.get(Self.any)!
                connection.setLinkedRecords((connection.linkedRecords("edges") ?? []) + [nil], "edges")
            }
        }
        try forward("c18", ["t19"])
        // Compaction moves the list: the index follows it.
        step = "compacted"
        try both { _ = try $0.store.compact() }
        try forward("c19", ["t20", "t21"])
        try forward("c21", ["t22"])
        // Under an optimistic update (the page is committed under it, then it is re-applied).
        step = "optimistic"
        var updates: [OptimisticUpdate] = []
        try both { env in updates.append(try env.applyUpdate { $0.get("t10")?.setValue(.string("optimistic"), "text") })
        }
        try forward("c22", ["t23"])
        step = "reverted"
        indexed.revert(updates[0])
        reading.revert(updates[1])
        XCTAssertEqual(NSDictionary(dictionary: try records(indexed)), NSDictionary(dictionary: try records(reading)))
        try forward("c23", ["t24", "t10"])

        // An edge in two indexed lists, then pointed at another node: both indexes let it go.
        let done = #"client:me:__List_todos_connection(status:"done")"#
        func donePage(_ after: String?, _ cursor: String, _ id: String) throws {
            step = "done: \(id)"
            var variables: Variables = ["first": .int(1), "status": .string("done")]
            if let after { variables["after"] = .string(after) }
            try both {
                try $0.commitPayload(
                    query, variables: variables, response: page([(cursor, id)], end: cursor, hasNext: true))
            }
        }
        try donePage(nil, "d1", "t10")
        try donePage("d1", "d2", "t11")
        let shared = RecordSourceProxy.clientID(Self.any, "t12")
        step = "one edge in both lists"
        try both {
            try $0.commitLocalUpdate { store in
                let edge = try ConnectionHandler.createEdge(
                    store, connection: store.get(Self.any)!, node: store.get("t12")!, edgeType: "TodoEdge")
                ConnectionHandler.insertEdgeAfter(store.get(Self.any)!, edge)
                ConnectionHandler.insertEdgeAfter(store.get(done)!, edge)
            }
        }
        try forward("c10", ["t26"])
        try donePage("d2", "d3", "t40")
        XCTAssertEqual(indexed.store.indexedConnectionCount, 2)
        step = "the shared edge pointed at t40"
        try both { try $0.commitLocalUpdate { $0.get(shared)?.setLinkedRecord($0.get("t40"), "node") } }
        try forward("c26", ["t40", "t41"])
        XCTAssertEqual(try edges(indexed).filter { $0.hasSuffix("→t40") }.count, 1)

        // An edge pointed at a node that the same update deletes: two edges link to one ID.
        step = "pointed at t24, t24 deleted"
        let first = Self.any + ":edges:" + (try edges(indexed)[0].split(separator: "→")[0])
        try both {
            try $0.commitLocalUpdate { store in
                store.get(first)?.setLinkedRecord(store.get("t24"), "node")
                try store.delete("t24")
            }
        }
        try forward("c41", ["t42"])

        // An optimistic page whose updater points its edge elsewhere; then the server's page
        // after the same cursor: the optimistic one no longer follows, and is dropped when it
        // is applied again (not an error: the commit went through).
        step = "optimistic page"
        var pages: [OptimisticUpdate] = []
        try both { env in
            pages.append(
                try env.applyOptimistic(
                    query, variables: ["first": .int(1), "after": .string("c42"), "status": .string("any")],
                    response: page([("c43", "t43")], end: "c43", hasNext: true),
                    updater: { store, _ in
                        guard case .int(let next)? = store.get(Self.any)?.value("__connection_next_edge_index")
                        else { return }
                        store.get(Self.any + ":edges:\(next - 1)")?.setLinkedRecord(store.get("t10"), "node")
                    }))
        }
        try forward("c42", ["t44"])
        XCTAssertTrue(indexed.isApplied(pages[0]))
        step = "optimistic page reverted"
        indexed.revert(pages[0])
        reading.revert(pages[1])
        XCTAssertEqual(NSDictionary(dictionary: try records(indexed)), NSDictionary(dictionary: try records(reading)))
        try forward("c44", ["t45", "t43"])

        // The first page fetched again (relay replaces the edges): the index of the old list
        // must not decide the next page, whose t11 the new list lacks.
        step = "first page again"
        try both {
            try $0.commitPayload(
                query, variables: ["first": .int(3), "status": .string("any")],
                response: page([("c50", "t50"), ("c51", "t51")], end: "c51", hasNext: true, start: "c50"))
        }
        try forward("c51", ["t11", "t52"])
        XCTAssertEqual(try edges(indexed).map { $0.split(separator: "→")[1] }, ["t50", "t51", "t11", "t52"])
        try forward("c52", ["t50", "t53"])

        // The list's room survives a snapshot as unused bytes: the store reopens the same.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("paged-\(UUID()).snapshot").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try indexed.store.writeSnapshot(to: path)
        XCTAssertEqual(try RecordStore(snapshotAt: path).relayJSON(), indexed.store.relayJSON())
    }

    /// A subscription to the list hears of the next page; collection keeps the client connection
    /// and its edges for the retained query.
    func testSubscribersAndCollectionFollowTheHandle() async throws {
        let (environment, _) = Environment.mock()
        let first: Variables = ["count": .int(2), "status": .string("any")]
        try environment.commitPayload(
            Self.list, variables: first, response: page([("c1", "t1"), ("c2", "t2")], end: "c2", hasNext: true))
        var heard = 0
        _ = environment.subscribe(
            ReadSelector(
                node: .operation(Self.list), dataID: RecordStore.rootID, variables: first,
                owner: FragmentOwner(operation: Self.list, variables: first))
        ) { _ in heard += 1 }
        try environment.commitPayload(
            Self.list, variables: ["count": .int(2), "cursor": .string("c2"), "status": .string("any")],
            response: page([("c3", "t3")], end: "c3", hasNext: false))
        XCTAssertEqual(heard, 1)
        let retained = environment.retain(Self.list, variables: first)
        defer { retained.dispose() }
        let removed = Array(try environment.roots.collect(in: environment.store))
        XCTAssertFalse(removed.contains(Self.any), "\(removed)")
        XCTAssertFalse(removed.contains(Self.any + ":edges:2"), "\(removed)")
        XCTAssertFalse(removed.contains("t3"), "\(removed)")
        XCTAssertEqual(try edges(environment), ["0→t1", "1→t2", "2→t3"])
    }

    /// `@appendEdge` under an optimistic response, then the server's edge; `@deleteEdge` and
    /// `@deleteRecord` (relay's MutationHandlers).
    func testDeclarativeMutationDirectives() async throws {
        let (environment, network) = Environment.mock()
        let variables: Variables = ["count": .int(2), "status": .string("any")]
        try environment.commitPayload(
            Self.list, variables: variables, response: page([("c1", "t1"), ("c2", "t2")], end: "c2", hasNext: false))
        let connections: JSONValue = .array([.string(Self.any)])
        let input: JSONValue = .object([JSONMember("text", .string("new")), JSONMember("userId", .string("me"))])
        let node: JSONValue = .object([
            JSONMember("id", .string("client:optimistic")), JSONMember("text", .string("new")),
        ])
        let optimistic: JSONValue = .object([
            JSONMember(
                "addTodo",
                .object([
                    JSONMember("todoEdge", .object([JSONMember("cursor", .string("x")), JSONMember("node", node)]))
                ])
            )
        ])
        async let added = environment.commitMutation(
            Self.docs.operations["AddTodoMutation"]!, variables: ["input": input, "connections": connections],
            optimisticResponse: optimistic)
        let request = await network.nextRequest()
        XCTAssertEqual(try edges(environment), ["0→t1", "1→t2", "2→client:optimistic"])
        XCTAssertTrue(
            network.resolve(
                request, json: #"{"data":{"addTodo":{"todoEdge":{"cursor":"c3","node":{"id":"t3","text":"new"}}}}}"#))
        _ = try await added
        XCTAssertEqual(try edges(environment), ["0→t1", "1→t2", "2→t3"])
        XCTAssertNil(try records(environment)["client:optimistic"])

        // @deleteEdge: t1's edge leaves the connection; the record stays.
        async let removed = environment.commitMutation(
            Self.docs.operations["RemoveCompletedMutation"]!,
            variables: ["input": .object([JSONMember("userId", .string("me"))]), "connections": connections])
        let removal = await network.nextRequest()
        XCTAssertTrue(network.resolve(removal, json: #"{"data":{"removeCompletedTodos":{"deletedTodoIds":["t1"]}}}"#))
        _ = try await removed
        XCTAssertEqual(try edges(environment), ["1→t2", "2→t3"])
        XCTAssertNotNil(try records(environment)["t1"] as? [String: Any])

        // @deleteRecord: t2 becomes relay's null record.
        async let deleted = environment.commitMutation(
            Self.docs.operations["RemoveTodoMutation"]!,
            variables: ["input": .object([JSONMember("id", .string("t2")), JSONMember("userId", .string("me"))])])
        let deletion = await network.nextRequest()
        XCTAssertTrue(network.resolve(deletion, json: #"{"data":{"removeTodo":{"deletedTodoId":"t2"}}}"#))
        _ = try await deleted
        XCTAssertTrue(try records(environment)["t2"] is NSNull)
    }

    func testADeclarativeDirectiveOnTheWrongFieldIsAnError() async throws {
        let compiler = try Compiler(schema: GraphQLSourceFile(name: "todo.graphql", text: Self.schema))
        let cases = [
            (
                #"mutation E($c: [ID!]!) { removeTodo(input: {id: "1", userId: "me"}) { deletedTodoId @appendEdge(connections: $c) } }"#,
                "edge field"
            ),
            (
                #"mutation F($c: [ID!]!) { addTodo(input: {text: "a", userId: "me"}) { todoEdge { node @appendNode(connections: $c) { id } } } }"#,
                "edgeTypeName"
            ),
            (
                #"mutation G { removeTodo(input: {id: "1", userId: "me"}) { deletedTodoId @deleteEdge } }"#,
                "`connections`"
            ),
        ]
        for (text, says) in cases {
            XCTAssertThrowsError(try compiler.compile([GraphQLSourceFile(name: "bad.graphql", text: text)])) {
                XCTAssertTrue("\($0)".contains(says), "\(text): \($0)")
            }
        }
    }

    func testAConnectionDirectiveOnAnythingButAConnectionIsAnError() async throws {
        let compiler = try Compiler(schema: GraphQLSourceFile(name: "todo.graphql", text: Self.schema))
        let cases = [
            (
                #"query A { user(id: "me") { friends(first: 2) @connection(key: "A_friends") { id } } }"#,
                "not a connection"
            ),
            (
                #"query B { user(id: "me") { todos(first: 2) @connection(key: "B_list") { edges { node { id } } } } }"#,
                "<SomeName>_todos"
            ),
            (
                #"query C { user(id: "me") { todos(first: 2) @connection(filters: ["status"]) { edges { node { id } } } } }"#,
                "`key`"
            ),
            (
                #"query D { user(id: "me") { todos(first: 2) @connection(key: "D_todos", filters: ["nope"]) { edges { node { id } } } } }"#,
                "`nope`"
            ),
        ]
        for (text, says) in cases {
            XCTAssertThrowsError(try compiler.compile([GraphQLSourceFile(name: "bad.graphql", text: text)])) {
                XCTAssertTrue("\($0)".contains(says), "\(text): \($0)")
            }
        }
    }
}
