// The environment's log (relay's `log` option): each request's course (`execute.start`, `.next`,
// `.complete`, `.error`, `.unsubscribe`) and each scheduled collection's (`store.gc.start`,
// `.end`), over a mock network; warnings apart from the rest.
import Foundation
import RelayArena
import XCTest

@MainActor
final class EnvironmentLogTests: XCTestCase {
    final class Events { var names: [String] = [] }

    func logged(roots: OperationRoots = OperationRoots()) -> (Environment, MockNetwork, Events) {
        let events = Events()
        let network = MockNetwork()
        let environment = Environment(network: network, roots: roots, log: { events.names.append($0.message) })
        return (environment, network, events)
    }

    nonisolated static let request = GraphQLRequest(operation: CurrentUserToDoListQuery.artifact, variables: [:])

    func testARequestLogsItsStartResponseAndEnd() async throws {
        let (environment, network, events) = logged()
        async let done = environment.execute(Self.request)
        let sent = await network.nextRequest()
        XCTAssertEqual(events.names, ["execute.start #1 CurrentUserToDoListQuery"])
        XCTAssertTrue(network.resolve(sent, json: Payloads.currentUser))
        _ = try await done
        XCTAssertEqual(
            events.names,
            [
                "execute.start #1 CurrentUserToDoListQuery", "execute.next #1 CurrentUserToDoListQuery",
                "execute.complete #1",
            ])
    }

    func testAFailureLogsTheErrorAndPublishesNothing() async throws {
        let (environment, network, events) = logged()
        async let done = environment.execute(Self.request)
        let sent = await network.nextRequest()
        XCTAssertTrue(network.resolve(sent, with: .status(500, Array("down".utf8))))
        do {
            _ = try await done
            XCTFail("a 500 must throw")
        } catch {}
        XCTAssertEqual(events.names.count, 2, "\(events.names)")
        XCTAssertTrue(events.names[1].hasPrefix("execute.error #1: "), events.names[1])
        XCTAssertTrue(events.names[1].contains("500"), events.names[1])
        XCTAssertEqual(environment.check(CurrentUserToDoListQuery.artifact), .missing)
    }

    func testACancelledRequestLogsUnsubscribe() async throws {
        let (environment, network, events) = logged()
        let task = Task { try await environment.execute(Self.request) }
        let sent = await network.nextRequest()
        task.cancel()
        _ = try? await task.value
        _ = network.resolve(sent, json: Payloads.currentUser)
        // The request's own task ends once the network answers the cancelled request.
        // (Polled, not timed: up to 10 s on a loaded machine, usually at once.)
        for _ in 0..<1000 where events.names.count < 2 { try await Task.sleep(nanoseconds: 10_000_000) }
        XCTAssertEqual(events.names, ["execute.start #1 CurrentUserToDoListQuery", "execute.unsubscribe #1"])
        XCTAssertEqual(environment.check(CurrentUserToDoListQuery.artifact), .missing)
    }

    func testAScheduledCollectionLogsItsStartAndWhatItRemoved() async throws {
        let (environment, _, events) = logged(roots: OperationRoots(releaseBufferSize: 0))
        try environment.commitPayload(CurrentUserToDoListQuery.artifact, response: Array(Payloads.currentUser.utf8))
        environment.retain(CurrentUserToDoListQuery.artifact).dispose()
        await environment.collectionFinished()
        let removed = environment.lastCollected.count
        XCTAssertGreaterThan(removed, 0)
        XCTAssertEqual(events.names, ["store.gc.start", "store.gc.end: \(removed) records removed"])
        XCTAssertFalse(LogEvent.gcStart.isWarning)
        XCTAssertTrue(LogEvent.unexpectedCursor(connectionID: "c", cursor: "a", expected: "b", forward: true).isWarning)
    }
}
