// The environment over a mock network: fetch policies through `check`, one request for identical
// ones in flight, failures that publish nothing, and the models that follow the store.
import Foundation
import Observation
import RelayArena
import XCTest

@MainActor
final class EnvironmentTests: XCTestCase {
    nonisolated static let list = CurrentUserToDoListQuery()
    let listRequest = GraphQLRequest(operation: CurrentUserToDoListQuery.artifact, variables: [:])

    /// Runs `fetch` and answers the request it sends with `json`.
    func fetched(_ environment: Environment, _ network: MockNetwork, json: String) async throws -> ReadResult {
        async let result = environment.fetchQuery(Self.list)
        let request = await network.nextRequest()
        XCTAssertEqual(request.name, "CurrentUserToDoListQuery")
        XCTAssertTrue(network.resolve(request, json: json))
        return try await result
    }

    func testStoreOrNetworkFetchesOnlyWhatTheStoreLacks() async throws {
        let (environment, network) = Environment.mock()
        XCTAssertEqual(environment.check(CurrentUserToDoListQuery.artifact), .missing)
        let first = try await fetched(environment, network, json: Payloads.currentUser)
        XCTAssertFalse(first.isMissingData)
        XCTAssertEqual(first.data?["user"]?["id"], .string("me"))
        XCTAssertEqual(environment.check(CurrentUserToDoListQuery.artifact), .available)
        // Available: answered from the store, nothing sent.
        let second = try await environment.fetchQuery(Self.list)
        XCTAssertEqual(second.data, first.data)
        XCTAssertEqual(network.requests.count, 1)
        // store-only never sends; network-only always does.
        _ = try await environment.fetchQuery(Self.list, fetchPolicy: .storeOnly)
        XCTAssertEqual(network.requests.count, 1)
        async let third = environment.fetchQuery(Self.list, fetchPolicy: .networkOnly)
        _ = await network.nextRequest()
        network.resolve(json: Payloads.currentUser)
        _ = try await third
        XCTAssertEqual(network.requests.count, 2)
    }

    /// An invalidated record makes the queries that reach it stale: store-or-network sends them
    /// again, and the answer makes them available. The same for the whole store.
    func testInvalidationMakesStoreOrNetworkFetchAgain() async throws {
        let (environment, network) = Environment.mock()
        let list = CurrentUserToDoListQuery.artifact
        _ = try await fetched(environment, network, json: Payloads.currentUser)
        try environment.invalidateRecord("VG9kbzow")
        XCTAssertEqual(environment.check(list), .stale)
        // The data a reader sees is the same; only `check` changed.
        XCTAssertEqual(environment.store.check(operation: list), .available)
        _ = try await fetched(environment, network, json: Payloads.currentUser)
        XCTAssertEqual(network.requests.count, 2)
        XCTAssertEqual(environment.check(list), .available)
        environment.invalidateStore()
        XCTAssertEqual(environment.check(list), .stale)
        _ = try await fetched(environment, network, json: Payloads.currentUser)
        XCTAssertEqual(environment.check(list), .available)
        // A record the store does not hold is left alone.
        try environment.invalidateRecord("nowhere")
        XCTAssertEqual(environment.check(list), .available)
    }

    /// Past the query-cache expiration on the environment's clock, a fetched query is stale and
    /// store-or-network sends it again; a query model retains its query while it lives.
    func testExpiryOnAnInjectedClockAndModelsRetainTheirQuery() async throws {
        final class Clock { var now: Milliseconds = 0 }
        let clock = Clock()
        let (environment, network) = Environment.mock(
            roots: OperationRoots(releaseBufferSize: 0, queryCacheExpiration: 60_000, now: { clock.now }))
        let list = CurrentUserToDoListQuery.artifact
        var model: QueryModel<CurrentUserToDoListQuery>? = QueryModel(environment: environment, operation: Self.list)
        XCTAssertEqual(environment.roots.root(list, variables: [:])?.refCount, 1)
        async let loaded: Void = model!.load()
        network.resolve(await network.nextRequest(), json: Payloads.currentUser)
        await loaded
        XCTAssertEqual(environment.roots.root(list, variables: [:])?.fetchTime, 0)
        clock.now = 59_999
        XCTAssertEqual(environment.check(list), .available)
        clock.now = 60_000
        XCTAssertEqual(environment.check(list), .stale)
        _ = try await fetched(environment, network, json: Payloads.currentUser)
        XCTAssertEqual(network.requests.count, 2)
        XCTAssertEqual(environment.check(list), .available)
        // The model gone, its root goes too (a release buffer of 0 keeps none).
        model = nil
        XCTAssertNil(environment.roots.root(list, variables: [:]))
    }

    /// A query model gone, its root dropped (a release buffer of 0), a collection runs by itself:
    /// it removes what no root reaches, but keeps what a live fragment model reads.
    func testReleasedQueriesAreCollectedExceptWhatModelsShow() async throws {
        let (environment, network) = Environment.mock(roots: OperationRoots(releaseBufferSize: 0))
        var model: QueryModel<CurrentUserToDoListQuery>? = QueryModel(environment: environment, operation: Self.list)
        async let loaded: Void = model!.load()
        network.resolve(await network.nextRequest(), json: Payloads.currentUser)
        await loaded
        let row = FragmentModel(environment: environment, pointer: FragmentPointer<ToDoItem_todo>(dataID: "VG9kbzow"))
        XCTAssertEqual(environment.lastCollected, [])
        model = nil
        await environment.collectionFinished()
        XCTAssertTrue(environment.lastCollected.contains("me"), "\(environment.lastCollected)")
        XCTAssertTrue(environment.lastCollected.contains("VG9kbzox"))
        XCTAssertFalse(environment.lastCollected.contains("VG9kbzow"))
        XCTAssertEqual(environment.check(CurrentUserToDoListQuery.artifact), .missing)
        XCTAssertEqual(row.withData { $0.text }, "Taste JavaScript")
        XCTAssertFalse(row.isMissingData)
    }

    /// A hold defers collection: a root dropped meanwhile is collected when the hold ends.
    func testAHoldDefersCollection() async throws {
        let (environment, _) = Environment.mock(roots: OperationRoots(releaseBufferSize: 0))
        try environment.commitPayload(CurrentUserToDoListQuery.artifact, response: Array(Payloads.currentUser.utf8))
        let hold = environment.holdCollection()
        environment.retain(CurrentUserToDoListQuery.artifact).dispose()
        await environment.collectionFinished()
        XCTAssertEqual(environment.lastCollected, [])
        XCTAssertEqual(environment.check(CurrentUserToDoListQuery.artifact), .available)
        hold.dispose()
        hold.dispose()
        await environment.collectionFinished()
        XCTAssertTrue(environment.lastCollected.contains("me"))
        XCTAssertEqual(environment.check(CurrentUserToDoListQuery.artifact), .missing)
    }

    func testTheRequestIsWhatRelaySends() throws {
        let body = String(decoding: listRequest.body, as: UTF8.self)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        XCTAssertEqual(object["operationName"] as? String, "CurrentUserToDoListQuery")
        XCTAssertEqual(object["query"] as? String, CurrentUserToDoListQuery.artifact.text)
        // The fragments' fields go with it (the compiler inlines the fragments it spreads).
        XCTAssertTrue((object["query"] as? String ?? "").contains("complete"))
        XCTAssertEqual((object["variables"] as? [String: Any])?.count, 0)
        // Declared variables exactly: defaults applied, undeclared dropped, absent ones null.
        let refetch = GraphQLRequest(
            operation: ToDoRefetchQuery.artifact, variables: ["id": .string("t1"), "extra": .int(1)])
        XCTAssertEqual(refetch.variablesJSON, #"{"id":"t1"}"#)
    }

    func testIdenticalRequestsInFlightAreSentOnce() async throws {
        let (environment, network) = Environment.mock()
        async let a = environment.fetchQuery(Self.list, fetchPolicy: .networkOnly)
        async let b = environment.fetchQuery(Self.list, fetchPolicy: .networkOnly)
        _ = await network.nextRequest()
        // Both callers are waiting on the one request.
        while environment.requestsInFlight == 0 { await Task.yield() }
        XCTAssertTrue(network.resolve(json: Payloads.currentUser))
        let (ra, rb) = try await (a, b)
        XCTAssertEqual(ra.data, rb.data)
        XCTAssertEqual(network.requests.count, 1)
        XCTAssertEqual(environment.requestsInFlight, 0)
    }

    /// Each failure throws a FetchError saying what, leaves the store as it was and notifies nobody.
    func testFailuresPublishNothing() async throws {
        let cases: [(MockNetwork.Answer, (FetchError) -> Bool)] = [
            (.status(500, Array("oops".utf8)), { $0.kind == .status(500) }),
            (
                .response(Array(#"{"data":{"user":{"id":"me","todos":{"edges":[{"node":{"id":"#.utf8)),
                {
                    $0.kind == .invalidResponse && $0.offset != nil
                }
            ),
            (.response(Array(#"{"errors":[{"message":"denied"}],"data":null}"#.utf8)), { $0.kind == .graphQLErrors }),
            (.response(Array("<html>".utf8)), { $0.kind == .invalidResponse && $0.offset == 1 }),
            (
                .failure(FetchError(kind: .transport, operation: "Q", message: "connection refused")),
                {
                    $0.kind == .transport
                }
            ),
        ]
        for (answer, expected) in cases {
            let (environment, network) = Environment.mock()
            let before = try await fetched(environment, network, json: Payloads.currentUser)
            let bytes = environment.store.relayJSON()
            var notified = 0
            let (_, id) = environment.subscribe(.operation(CurrentUserToDoListQuery.artifact, variables: [:])) { _ in
                notified += 1
            }
            async let result = environment.fetchQuery(Self.list, fetchPolicy: .networkOnly)
            _ = await network.nextRequest()
            network.resolve(with: answer)
            do {
                _ = try await result
                XCTFail("\(answer) did not fail")
            } catch let error as FetchError {
                XCTAssertTrue(expected(error), "\(answer): \(error)")
            }
            XCTAssertEqual(environment.store.relayJSON(), bytes, "\(answer) changed the store")
            XCTAssertEqual(notified, 0)
            XCTAssertEqual(environment.subscriptions.result(id)?.data, before.data)
        }
    }

    /// Answers every request with `json` in 7-byte chunks, announcing `contentLength`.
    struct Announcing: Network {
        let json: [UInt8]
        let contentLength: String
        func execute(_ request: GraphQLRequest, options: RequestOptions) async throws -> NetworkResponse {
            NetworkResponse(
                status: 200, headers: [("Content-Length", contentLength)], body: ResponseBody(bytes: json, chunkSize: 7)
            )
        }
    }

    func testAnAnnouncedLengthOnlySizesTheStoreAhead() async throws {
        let json = Array(Payloads.currentUser.utf8)
        let expected = RecordStore()
        try expected.commit(
            response: json,
            plan: NormalizationPlan(operation: CurrentUserToDoListQuery.artifact, variables: [:]))
        // The right length, a short one, one past the byte limit, and ones that are no length.
        for announced in ["\(json.count)", "5", "\(UInt64(1) << 40)", "x", "-3", "", " \(json.count) "] {
            let environment = Environment(network: Announcing(json: json, contentLength: announced))
            try await environment.execute(listRequest)
            XCTAssertEqual(
                environment.store.relayJSON(), expected.relayJSON(), "Content-Length: \(announced)")
        }
        let lengths = ["12", " 12 ", "0", "-1", "twelve", ""].map {
            NetworkResponse(status: 200, headers: [("content-length", $0)], body: ResponseBody(bytes: [])).contentLength
        }
        XCTAssertEqual(lengths, [12, 12, nil, nil, nil, nil])
        XCTAssertNil(NetworkResponse(status: 200, body: ResponseBody(bytes: [])).contentLength)
    }

    func testTimeoutAndCancellationPublishNothing() async throws {
        let (environment, network) = Environment.mock()
        environment.requestOptions.timeout = .milliseconds(50)
        do {
            _ = try await environment.fetchQuery(Self.list)
            XCTFail("no timeout")
        } catch let error as FetchError {
            XCTAssertEqual(error.kind, .timeout)
        }
        XCTAssertTrue(network.pendingRequests.isEmpty, "the timed-out request is still pending")
        environment.requestOptions.timeout = nil
        let task = Task { try await environment.fetchQuery(Self.list) }
        _ = await network.nextRequest()
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("not cancelled")
        } catch let error as FetchError {
            XCTAssertEqual(error.kind, .cancelled)
        }
        while !network.pendingRequests.isEmpty { await Task.yield() }
        XCTAssertFalse(network.resolve(json: Payloads.currentUser), "a cancelled request can still be answered")
        XCTAssertEqual(environment.store.recordCount, 1)
    }

    func testFragmentModelsUpdateOnlyWhenTheirRecordsChange() async throws {
        let (environment, network) = Environment.mock()
        _ = try await fetched(environment, network, json: Payloads.currentUser)
        let first = FragmentModel(environment: environment, pointer: FragmentPointer<ToDoItem_todo>(dataID: "VG9kbzow"))
        let second = FragmentModel(
            environment: environment, pointer: FragmentPointer<ToDoItem_todo>(dataID: "VG9kbzox"))
        XCTAssertEqual(first.data?["text"], .string("Taste JavaScript"))
        // An identical refetch updates nothing and calls nobody.
        try environment.commitPayload(CurrentUserToDoListQuery.artifact, response: Array(Payloads.currentUser.utf8))
        XCTAssertEqual([first.updates, second.updates], [0, 0])
        // One item changes: only its model hears of it.
        try environment.commitPayload(
            ToDoRefetchQuery.artifact, variables: ["id": .string("VG9kbzox")],
            response: Array(
                #"{"data":{"node":{"__typename":"Todo","id":"VG9kbzox","text":"Buy two","complete":true}}}"#.utf8))
        XCTAssertEqual([first.updates, second.updates], [0, 1])
        XCTAssertEqual(second.data?["text"], .string("Buy two"))
        XCTAssertEqual(second.withData { $0.complete }, true)
    }

    /// What SwiftUI relies on: reading a model's data inside `withObservationTracking` registers
    /// it, and only a change of that model's data fires.
    func testObservationFiresOnlyForTheModelWhoseDataChanged() async throws {
        let (environment, network) = Environment.mock()
        _ = try await fetched(environment, network, json: Payloads.currentUser)
        let first = FragmentModel(environment: environment, pointer: FragmentPointer<ToDoItem_todo>(dataID: "VG9kbzow"))
        let second = FragmentModel(
            environment: environment, pointer: FragmentPointer<ToDoItem_todo>(dataID: "VG9kbzox"))
        let fired = Fired()
        withObservationTracking {
            _ = first.data
        } onChange: {
            fired.mark("first")
        }
        withObservationTracking {
            _ = second.data
        } onChange: {
            fired.mark("second")
        }
        withObservationTracking {
            _ = first.updates  // the change count is observed with the data it counts
        } onChange: {
            fired.mark("first updates")
        }
        try environment.commitPayload(CurrentUserToDoListQuery.artifact, response: Array(Payloads.currentUser.utf8))
        XCTAssertEqual(fired.names, [])
        try environment.commitPayload(
            ToDoRefetchQuery.artifact, variables: ["id": .string("VG9kbzow")],
            response: Array(
                #"{"data":{"node":{"__typename":"Todo","id":"VG9kbzow","text":"Taste Swift","complete":true}}}"#.utf8))
        XCTAssertEqual(fired.names.sorted(), ["first", "first updates"])
        XCTAssertEqual([first.updates, second.updates], [1, 0])
    }

    /// A model changed before anyone read it (its change announced to no one) is observed like
    /// any other once it is read: its data is the newest, and the next change fires.
    func testAModelChangedBeforeItWasReadIsObservedOnceRead() async throws {
        let (environment, network) = Environment.mock()
        _ = try await fetched(environment, network, json: Payloads.currentUser)
        let model = FragmentModel(environment: environment, pointer: FragmentPointer<ToDoItem_todo>(dataID: "VG9kbzow"))
        func change(_ text: String) throws {
            try environment.commitPayload(
                ToDoRefetchQuery.artifact, variables: ["id": .string("VG9kbzow")],
                response: Array(
                    #"{"data":{"node":{"__typename":"Todo","id":"VG9kbzow","text":"\#(text)","complete":true}}}"#.utf8))
        }
        try change("Unread")
        let fired = Fired()
        withObservationTracking {
            XCTAssertEqual(model.data?["text"], .string("Unread"))
        } onChange: {
            fired.mark("model")
        }
        XCTAssertEqual(fired.names, [])
        try change("Read")
        XCTAssertEqual(fired.names, ["model"])
        XCTAssertEqual(model.data?["text"], .string("Read"))
        XCTAssertEqual(model.updates, 2)
    }

    func testQueryModelLoadsThenFollowsTheStore() async throws {
        let (environment, network) = Environment.mock()
        let model = QueryModel(environment: environment, operation: Self.list)
        guard case .loading = model.state else { return XCTFail("\(model.state)") }
        async let loaded: Void = model.load()
        _ = await network.nextRequest()
        network.resolve(json: Payloads.currentUser)
        await loaded
        XCTAssertEqual(model.state.data?["user"]?["id"], .string("me"))
        XCTAssertEqual(model.withData { $0.user?.id }, "me")
        // A publish that changes what the query reads (the root's `user` is another record now)
        // shows in the model; one that changes only what its fragments read does not.
        try environment.commitPayload(
            CurrentUserToDoListQuery.artifact,
            response: Array(#"{"data":{"user":{"id":"me","todos":{"edges":[]}}}}"#.utf8))
        XCTAssertEqual(model.state.data?["user"]?["id"], .string("me"))
        try environment.commitPayload(
            CurrentUserToDoListQuery.artifact,
            response: Array(#"{"data":{"user":{"id":"you","todos":{"edges":[]}}}}"#.utf8))
        XCTAssertEqual(model.state.data?["user"]?["id"], .string("you"))
        XCTAssertEqual(network.requests.count, 1)
    }

    func testQueryModelShowsFailure() async throws {
        let (environment, network) = Environment.mock()
        let model = QueryModel(environment: environment, operation: Self.list)
        async let loaded: Void = model.load()
        _ = await network.nextRequest()
        network.resolve(with: .status(503, []))
        await loaded
        guard case .failure(let error) = model.state else { return XCTFail("\(model.state)") }
        XCTAssertEqual(error.kind, .status(503))
    }

    func testRefetchSendsTheSynthesizedQueryAndFollowsItsOwner() async throws {
        let (environment, network) = Environment.mock()
        _ = try await fetched(environment, network, json: Payloads.currentUser)
        let owner = FragmentOwner(operation: CurrentUserToDoListQuery.artifact, variables: [:])
        let model = RefetchableFragmentModel(
            environment: environment, pointer: FragmentPointer<ToDoRefetch_todo>(dataID: "VG9kbzox", owner: owner))
        XCTAssertEqual(model.data?["text"], .string("Buy a unicorn"))
        XCTAssertEqual(model.refetchVariables(), ["id": .string("VG9kbzox")])
        // The store has the record, but not under `node(id:)`: store-or-network sends the query.
        async let refetched: Void = model.refetch()
        let request = await network.nextRequest()
        XCTAssertEqual(request.name, "ToDoRefetchQuery")
        XCTAssertEqual(request.variablesJSON, #"{"id":"VG9kbzox"}"#)
        network.resolve(
            request,
            json: #"{"data":{"node":{"__typename":"Todo","id":"VG9kbzox","text":"Buy a unicorn!","complete":true}}}"#)
        try await refetched
        XCTAssertEqual(model.data?["text"], .string("Buy a unicorn!"))
        XCTAssertEqual(model.fragment.pointer.owner?.name, "ToDoRefetchQuery")
        // Now it is there: refetching to the same variables sends nothing (relay's default policy).
        try await model.refetch()
        XCTAssertEqual(network.requests.count, 2)
        XCTAssertNil(model.lastError)
    }

    func testPreviewFromAJSONResource() throws {
        let environment = try Environment.preview(ToDoItemPreviewQuery(), resource: "ToDoItemPreview", bundle: .module)
        let texts = environment.queryPreview(ToDoItemPreviewQuery()) { result -> [String] in
            XCTAssertFalse(result.isMissingData)
            return environment.store.withSnapshot { s in
                guard let edges = s.read(ToDoItemPreviewQuery()).data?.user?.todos?.edges else { return [] }
                return edges.compactMap { $0?.node.flatMap { ToDoItem(todo: $0.asFragment()).render(s) } }
            }
        }
        XCTAssertEqual(texts, ["[x] Taste JavaScript", "[ ] Buy a unicorn"])
        XCTAssertThrowsError(try Environment.preview(ToDoItemPreviewQuery(), resource: "NoSuchFile", bundle: .module))
    }
}

/// The README's to-do screen over a mock network: loading, the rows, and a change to one item
/// that only its row's model hears of.
@MainActor
final class ToDoScreenTests: XCTestCase {
    func testScreenLoadsAndFollowsOneItem() async throws {
        let (environment, network) = Environment.mock()
        let screen = ToDoScreen(environment: environment)
        XCTAssertEqual(screen.render(), ["Loading…"])
        async let loaded: Void = screen.load()
        let request = await network.nextRequest()
        XCTAssertEqual(request.name, "ToDoItemPreviewQuery")
        network.resolve(request, json: Payloads.preview)
        await loaded
        XCTAssertEqual(screen.render(), ["[x] Taste JavaScript", "[ ] Buy a unicorn"])
        try environment.commitPayload(
            ToDoRefetchQuery.artifact, variables: ["id": .string("VG9kbzox")],
            response: Array(
                #"{"data":{"node":{"__typename":"Todo","id":"VG9kbzox","text":"Buy a unicorn","complete":true}}}"#.utf8)
        )
        XCTAssertEqual(screen.render(), ["[x] Taste JavaScript", "[x] Buy a unicorn"])
        XCTAssertEqual(screen.rows.map(\.updates), [0, 1])
    }
}

/// Names marked from `withObservationTracking`'s `onChange` (which may run on any thread).
final class Fired: @unchecked Sendable {
    private let lock = NSLock()
    private var marked: [String] = []
    func mark(_ name: String) { lock.withLock { marked.append(name) } }
    var names: [String] { lock.withLock { marked } }
}
