// The publish queue's optimistic updates and the updaters' record proxies, against relay-runtime's
// rules (RelayPublishQueue, RelayRecordSourceProxy; the worked example of two optimistic
// mutations and one server response): applied at once, rolled back exactly, rebased — not
// dropped — when another mutation's response lands, and nothing applied when an update fails.
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import XCTest

@MainActor
final class OptimisticUpdateTests: XCTestCase {
    nonisolated static let docs = try! Compiler(
        schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql"))
    ).compile([
        GraphQLSourceFile(
            name: "m.graphql",
            text: """
                query ListQuery { user(id: "me") { id totalCount todos(first: 2) { edges { node { id ...Item } } } } }
                fragment Item on Todo { text complete }
                mutation ChangeTodoStatusMutation($input: ChangeTodoStatusInput!) {
                  changeTodoStatus(input: $input) { todo { id complete } }
                }
                mutation RenameTodoMutation($input: RenameTodoInput!) {
                  renameTodo(input: $input) { todo { id text } }
                }
                """)
    ])
    static let list =
        #"{"data":{"user":{"id":"me","totalCount":2,"todos":{"edges":[{"node":{"id":"t1","text":"a","complete":false}},{"node":{"id":"t2","text":"b","complete":false}}]}}}}"#

    /// An environment holding the list, and a log of what the two items' subscriptions were told.
    func listed() throws -> (Environment, MockNetwork, Log) {
        let (environment, network) = Environment.mock()
        try environment.commitPayload(Self.docs.operations["ListQuery"]!, response: Array(Self.list.utf8))
        let log = Log()
        for id in ["t1", "t2"] {
            _ = environment.subscribe(
                ReadSelector(node: .fragment(Self.docs.fragments["Item"]!), dataID: id, variables: [:], owner: nil)
            ) { log.calls.append("\(id): \($0.data?.jsonText ?? "null")") }
        }
        return (environment, network, log)
    }

    final class Log { var calls: [String] = [] }

    nonisolated static func status(_ id: String, _ complete: Bool) -> Variables {
        [
            "input": .object([
                JSONMember("id", .string(id)), JSONMember("complete", .bool(complete)),
                JSONMember("userId", .string("me")),
            ])
        ]
    }

    nonisolated static func rename(_ id: String, _ text: String) -> Variables {
        ["input": .object([JSONMember("id", .string(id)), JSONMember("text", .string(text))])]
    }

    /// relay's worked example: M1 and M2 optimistic on one record, M1's response, M2 failing.
    func testTwoOptimisticMutationsAndOneResponseRebaseAsRelayDoes() async throws {
        let (environment, network, log) = try listed()
        async let m1 = environment.commitMutation(
            Self.docs.operations["RenameTodoMutation"]!, variables: Self.rename("t1", "a1"),
            optimisticResponse: .object([
                JSONMember(
                    "renameTodo",
                    .object([
                        JSONMember(
                            "todo", .object([JSONMember("id", .string("t1")), JSONMember("text", .string("a1"))]))
                    ]))
            ]))
        let r1 = await network.nextRequest()
        // 1. Applied before the request was answered.
        XCTAssertEqual(log.calls, [#"t1: {"text":"a1","complete":false}"#])
        async let m2 = environment.commitMutation(
            Self.docs.operations["ChangeTodoStatusMutation"]!, variables: Self.status("t1", true),
            optimisticResponse: .object([
                JSONMember(
                    "changeTodoStatus",
                    .object([
                        JSONMember(
                            "todo", .object([JSONMember("id", .string("t1")), JSONMember("complete", .bool(true))]))
                    ]))
            ]))
        while network.pendingRequests.count < 2 { await Task.yield() }
        let r2 = network.pendingRequests[1]
        XCTAssertEqual(log.calls.last, #"t1: {"text":"a1","complete":true}"#)
        // 3. M1's response: its layer goes, the server's text lands, M2's layer is applied again.
        XCTAssertTrue(network.resolve(r1, json: #"{"data":{"renameTodo":{"todo":{"id":"t1","text":"a2"}}}}"#))
        _ = try await m1
        XCTAssertEqual(log.calls.last, #"t1: {"text":"a2","complete":true}"#)
        XCTAssertEqual(log.calls.count, 3)
        // 4. M2 fails: rolled back to what the server said, once.
        XCTAssertTrue(network.resolve(r2, with: .status(500, [])))
        do {
            _ = try await m2
            XCTFail("M2 succeeded")
        } catch let error as FetchError { XCTAssertEqual(error.kind, .status(500)) }
        XCTAssertEqual(log.calls.last, #"t1: {"text":"a2","complete":false}"#)
        XCTAssertEqual(log.calls.count, 4)
        XCTAssertTrue(log.calls.allSatisfy { $0.hasPrefix("t1") }, "t2 was never touched: \(log.calls)")
    }

    /// Reverting puts back the store's exact bytes: records the layer created go, fields it
    /// changed return, and the records of other layers stay.
    func testRevertRestoresTheStoreExactly() async throws {
        let (environment, _, log) = try listed()
        let before = environment.store.relayJSON()
        let layer = try environment.applyUpdate { store in
            let todo = try store.create("t3", typename: "Todo")
            todo.setValue(.string("c"), "text")
            todo.setValue(.bool(false), "complete")
            let user = store.get("me")!
            var edges = user.linkedRecords("todos", ["first": .int(2)]) ?? []
            edges.append(todo)
            user.setLinkedRecords(edges, "probe")
            user.setValue(.int(3), "totalCount")
            store.get("t2")!.setValue(.string("b!"), "text")
            try store.delete("t1")
        }
        XCTAssertTrue(environment.isApplied(layer))
        XCTAssertNotEqual(environment.store.relayJSON(), before)
        XCTAssertEqual(log.calls, [#"t1: null"#, #"t2: {"text":"b!","complete":false}"#])
        environment.revert(layer)
        XCTAssertEqual(
            String(decoding: environment.store.relayJSON(), as: UTF8.self), String(decoding: before, as: UTF8.self))
        XCTAssertEqual(
            log.calls.suffix(2), [#"t1: {"text":"a","complete":false}"#, #"t2: {"text":"b","complete":false}"#])
        XCTAssertFalse(environment.isApplied(layer))
        // Reverting again does nothing.
        environment.revert(layer)
        XCTAssertEqual(log.calls.count, 4)
    }

    /// A collection of the store asked for by anyone (a batch job, `replay`'s `gc`) removes nothing
    /// while a layer is applied: the layer's own record and what it links would otherwise go
    /// and its rollback would restore a record whose neighbours were collected.
    func testTheStoreIsNotCollectedWhileALayerIsApplied() async throws {
        let (environment, _, _) = try listed()
        let layer = try environment.applyUpdate { store in
            let todo = try store.create("t3", typename: "Todo")
            todo.setValue(.string("c"), "text")
        }
        let before = environment.store.relayJSON()
        XCTAssertEqual(Array(try environment.store.collectGarbage(roots: [])), [])
        XCTAssertEqual(environment.store.relayJSON(), before)
        environment.revert(layer)
        XCTAssertEqual(
            Array(try environment.store.collectGarbage(roots: [])).sorted(),
            [
                "client:root", "client:me:todos(first:2)", "client:me:todos(first:2):edges:0",
                "client:me:todos(first:2):edges:1", "me", "t1", "t2",
            ].sorted())
    }

    /// Two layers over one record, the first reverted: the second's write stays, the first's goes.
    func testRevertingOneLayerKeepsTheOther() async throws {
        let (environment, _, log) = try listed()
        let first = try environment.applyUpdate { $0.get("t1")!.setValue(.string("x"), "text") }
        _ = try environment.applyUpdate { $0.get("t1")!.setValue(.bool(true), "complete") }
        environment.revert(first)
        XCTAssertEqual(
            log.calls,
            [
                #"t1: {"text":"x","complete":false}"#, #"t1: {"text":"x","complete":true}"#,
                #"t1: {"text":"a","complete":true}"#,
            ])
    }

    /// A server write under a layer stays when the layer goes (the layer is rebased on it).
    func testACommitUnderALayerSurvivesItsRevert() async throws {
        let (environment, _, log) = try listed()
        let layer = try environment.applyUpdate { $0.get("t2")!.setValue(.string("opt"), "text") }
        try environment.commitPayload(
            Self.docs.operations["ListQuery"]!,
            response: Array(Self.list.replacingOccurrences(of: #""text":"b""#, with: #""text":"server""#).utf8))
        // The layer still shows over the server's text.
        XCTAssertEqual(log.calls, [#"t2: {"text":"opt","complete":false}"#])
        environment.revert(layer)
        XCTAssertEqual(log.calls.last, #"t2: {"text":"server","complete":false}"#)
    }

    func testAnUpdaterThatThrowsAppliesNothing() async throws {
        let (environment, _, log) = try listed()
        let before = environment.store.relayJSON()
        struct Refused: Error {}
        XCTAssertThrowsError(
            try environment.applyUpdate { store in
                store.get("t1")!.setValue(.string("never"), "text")
                throw Refused()
            }
        ) { XCTAssertTrue($0 is Refused) }
        XCTAssertThrowsError(
            try environment.commitLocalUpdate { store in
                store.get("t2")!.setValue(.string("never"), "text")
                throw Refused()
            })
        XCTAssertEqual(environment.store.relayJSON(), before)
        XCTAssertEqual(log.calls, [])
        // With a layer applied, a failing commit leaves the layer as it was.
        _ = try environment.applyUpdate { $0.get("t1")!.setValue(.string("kept"), "text") }
        XCTAssertThrowsError(try environment.commitLocalUpdate { _ in throw Refused() })
        XCTAssertEqual(log.calls, [#"t1: {"text":"kept","complete":false}"#])
    }

    func testAnOptimisticResponseThatDoesNotFitIsRefusedBeforeAnythingIsSent() async throws {
        let (environment, network, log) = try listed()
        let before = environment.store.relayJSON()
        do {
            _ = try await environment.commitMutation(
                Self.docs.operations["ChangeTodoStatusMutation"]!, variables: Self.status("t1", true),
                optimisticResponse: .object([
                    JSONMember("changeTodoStatus", .object([JSONMember("todo", .string("t1"))]))
                ]))
            XCTFail("accepted")
        } catch let error as RelayArenaError {
            XCTAssertEqual(error.code, .wrongShape, error.description)
            XCTAssertTrue(error.description.contains("changeTodoStatus.todo"), error.description)
        }
        XCTAssertEqual(environment.store.relayJSON(), before)
        XCTAssertEqual(log.calls, [])
        XCTAssertEqual(network.requests.count, 0)
    }

    /// relay's RelayRecordSourceProxy rules, through a permanent local update.
    func testRecordProxies() async throws {
        let (environment, _, _) = try listed()
        try environment.commitLocalUpdate { store in
            XCTAssertEqual(store.state(of: "t1"), .exists)
            XCTAssertEqual(store.state(of: "nope"), .unknown)
            XCTAssertNil(store.get("nope"))
            XCTAssertThrowsError(try store.create("t1", typename: "Todo"))
            XCTAssertThrowsError(try store.delete(RecordStore.rootID))
            let t1 = store.get("t1")!
            XCTAssertEqual(t1.typename, "Todo")
            XCTAssertEqual(t1.value("text"), .string("a"))
            XCTAssertNil(t1.value("missing"))
            let user = store.get("me")!
            let todos = user.linkedRecord("todos", ["first": .int(2)])!
            XCTAssertEqual(todos.linkedRecords("edges")?.count, 2)
            // getOrCreateLinkedRecord: a client ID under the parent and the storage key.
            let tag = t1.getOrCreateLinkedRecord("tag", typename: "Tag", ["name": .string("x"), "a": .int(1)])
            XCTAssertEqual(tag.dataID, #"client:t1:tag(a:1,name:"x")"#)
            tag.setValue(.string("red"), "color")
            XCTAssertEqual(
                t1.getOrCreateLinkedRecord("tag", typename: "Tag", ["a": .int(1), "name": .string("x")]).dataID,
                tag.dataID)
            let copy = try store.create("t9", typename: "Todo")
            copy.copyFields(from: t1)
            XCTAssertEqual(copy.value("text"), .string("a"))
            store.root.setLinkedRecord(copy, "pinned")
            try store.delete("t2")
            XCTAssertEqual(store.state(of: "t2"), .deleted)
            XCTAssertNil(store.get("t2"))
            XCTAssertNoThrow(try store.create("t2", typename: "Todo"))
        }
        let json = try JSONSerialization.jsonObject(with: Data(environment.store.relayJSON())) as! [String: Any]
        let t9 = json["t9"] as! [String: Any]
        XCTAssertEqual(t9["text"] as? String, "a")
        XCTAssertEqual(t9["complete"] as? Bool, false)
        XCTAssertEqual((json[#"client:t1:tag(a:1,name:"x")"#] as! [String: Any])["color"] as? String, "red")
        XCTAssertEqual(((json["client:root"] as! [String: Any])["pinned"] as! [String: Any])["__ref"] as? String, "t9")
        // t2 was deleted then created again within the update: a record again, which publish
        // merges into the store's (relay's RelayModernRecord.update at publish).
        XCTAssertEqual((json["t2"] as? [String: Any])?["text"] as? String, "b")
    }

    /// An updater's `invalidateRecord` makes the operations reading it stale; an optimistic one's
    /// `invalidateStore` is ignored, a committed one's is not.
    func testInvalidationFromUpdaters() async throws {
        let (environment, _, _) = try listed()
        let list = Self.docs.operations["ListQuery"]!
        let retained = environment.retain(list)
        defer { retained.dispose() }
        try environment.commitPayload(list, response: Array(Self.list.utf8))
        XCTAssertEqual(environment.check(list), .available)
        try environment.commitLocalUpdate { $0.get("t1")!.invalidateRecord() }
        XCTAssertEqual(environment.check(list), .stale)
        try environment.commitPayload(list, response: Array(Self.list.utf8))
        XCTAssertEqual(environment.check(list), .available)
        try environment.commitLocalUpdate { $0.invalidateStore() }
        XCTAssertEqual(environment.check(list), .stale)
        // An invalidation under an optimistic update outlives the update's rollback.
        try environment.commitPayload(list, response: Array(Self.list.utf8))
        let layer = try environment.applyUpdate { $0.get("t1")!.setValue(.string("opt"), "text") }
        try environment.invalidateRecord("t1")
        environment.revert(layer)
        XCTAssertEqual(environment.check(list), .stale)
    }

    /// A mutation's updater reads the mutation's data and its root field from the response.
    func testAMutationUpdaterReadsTheResponse() async throws {
        let (environment, network, log) = try listed()
        async let result = environment.commitMutation(
            Self.docs.operations["ChangeTodoStatusMutation"]!, variables: Self.status("t2", true),
            updater: { store, data in
                XCTAssertEqual(data.data?["changeTodoStatus"]?["todo"]?["complete"], .bool(true))
                let todo = store.rootField("changeTodoStatus")!.linkedRecord("todo")!
                XCTAssertEqual(todo.value("complete"), .bool(true))
                todo.setValue(
                    .string(
                        "done: " + (todo.value("text").flatMap { if case .string(let s) = $0 { s } else { nil } } ?? "")
                    ), "text")
            })
        let request = await network.nextRequest()
        XCTAssertTrue(
            network.resolve(request, json: #"{"data":{"changeTodoStatus":{"todo":{"id":"t2","complete":true}}}}"#))
        _ = try await result
        XCTAssertEqual(log.calls, [#"t2: {"text":"done: b","complete":true}"#])
    }
}
