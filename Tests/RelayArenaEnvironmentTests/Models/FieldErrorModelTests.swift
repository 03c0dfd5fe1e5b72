// Models say why (relay's `observeFragment`): a row model is `.error` with relay's message when its
// `@required(action: THROW)` field is null, `.loading` while its record is missing, `.ok` once a
// later response fixes it; a query model's data carries the same failure.
import RelayArena
import XCTest

@MainActor
final class FieldErrorModelTests: XCTestCase {
    func testARowModelIsAnErrorUntilTheTextArrives() async throws {
        let (environment, _) = Environment.mock()
        try environment.commitPayload(
            ToDoRequiredListQuery.artifact, variables: [:], response: Array(RequiredViewTests.response.utf8))
        let failed = FragmentModel(
            environment: environment, pointer: FragmentPointer<ToDoRequiredRow_todo>(dataID: "t2"))
        let fine = FragmentModel(environment: environment, pointer: FragmentPointer<ToDoRequiredRow_todo>(dataID: "t1"))
        let unknown = FragmentModel(
            environment: environment, pointer: FragmentPointer<ToDoRequiredRow_todo>(dataID: "t9"))
        XCTAssertEqual(
            failed.status.errorMessage, "Relay: Missing @required value at path 'text' in 'ToDoRequiredRow_todo'.")
        XCTAssertEqual(failed.fieldErrors.map(\.kind), [.payloadError, .missingRequiredFieldThrow])
        XCTAssertEqual(fine.status, .ok)
        XCTAssertEqual(unknown.status, .loading)

        // The server answers the todo again, with its text.
        let fixed =
            #"{"data":{"user":{"id":"me","todos":{"edges":[{"node":{"id":"t2","text":"Walk","complete":false}}]}}}}"#
        try environment.commitPayload(ToDoRequiredListQuery.artifact, variables: [:], response: Array(fixed.utf8))
        XCTAssertEqual(failed.status, .ok)
        XCTAssertEqual(failed.fieldErrors, [])
    }

    func testAQueryModelsDataCarriesTheFailure() async throws {
        let (environment, network) = Environment.mock()
        let model = QueryModel(environment: environment, operation: ToDoRequiredListQuery())
        async let loaded: Void = model.load()
        network.resolve(await network.nextRequest(), json: RequiredViewTests.response)
        await loaded
        // The list itself has only LOG: nothing to throw, the failed row left out.
        XCTAssertNil(model.state.fieldErrorFailure)
        XCTAssertEqual(
            model.state.data?.jsonText.contains(#""node":null"#), true, model.state.data?.jsonText ?? "no data")
    }

    func testAPaginationModelSaysLoadingThenOkWithTheServersErrors() async throws {
        let (environment, _) = Environment.mock()
        let list = ToDoPagedList(environment: environment, user: FragmentPointer(dataID: "me"))
        XCTAssertEqual(list.model.status, .loading)
        let response = #"""
            {"data":{"user":{"id":"me","todos":{"edges":[
              {"cursor":"c0","node":{"id":"t1","text":"Taste JavaScript","complete":true}},
              {"cursor":"c1","node":null}],
              "pageInfo":{"hasNextPage":false,"hasPreviousPage":false,"startCursor":"c0","endCursor":"c1"}}}},
             "errors":[{"message":"text failed","path":["user","todos","edges",1,"node","text"]}]}
            """#
        try environment.commitPayload(ToDoPaginationListQuery.artifact, variables: [:], response: Array(response.utf8))
        // Not `@throwOnFieldError`: the server's error is reported, nothing fails.
        XCTAssertEqual(list.model.status, .ok)
        XCTAssertEqual(list.model.fieldErrors.map(\.kind), [.payloadError])
        XCTAssertEqual(list.model.fieldErrors.first?.fieldPath, "text")
    }

    func testRequiredLogReachesTheEnvironmentsLog() async throws {
        var events: [LogEvent] = []
        let network = MockNetwork()
        let environment = Environment(network: network, log: { events.append($0) })
        let model = QueryModel(environment: environment, operation: ToDoRequiredListQuery())
        async let loaded: Void = model.load()
        network.resolve(await network.nextRequest(), json: RequiredViewTests.response)
        await loaded
        let fieldEvents = events.filter { if case .fieldError = $0 { true } else { false } }
        // relay's field logger hears every event of the read: the server's error, then the LOG.
        XCTAssertEqual(
            fieldEvents.map(\.name), ["relay_field_payload.error", "missing_required_field.log"])
        XCTAssertEqual(fieldEvents.map(\.isWarning), [false, true])
        XCTAssertEqual(
            fieldEvents.last?.message,
            "Relay: Missing @required value at path 'user.todos.edges.1.node.text' in 'ToDoRequiredListQuery'.")

        // A later read without errors logs none; one without changes is not handed out again.
        events = []
        let fixed =
            #"{"data":{"user":{"id":"me","todos":{"edges":[{"node":{"id":"t2","text":"Walk","complete":false}}]}}}}"#
        try environment.commitPayload(ToDoRequiredListQuery.artifact, variables: [:], response: Array(fixed.utf8))
        XCTAssertFalse(events.contains { if case .fieldError = $0 { true } else { false } })
    }
}

extension FragmentStatus {
    var errorMessage: String? {
        if case .error(let failure) = self { return failure.description }
        return nil
    }
}
