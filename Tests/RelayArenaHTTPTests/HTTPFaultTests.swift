// HTTPNetwork when things go wrong: each fault acted out by the loopback server, the error it
// gives, and what the server saw of the connection afterwards.
#if HTTP
    import Foundation
    import RelayArena
    import RelayArenaHTTP
    import RelayArenaWorkloads
    import TodoServer
    import XCTest

    final class HTTPFaultTests: HTTPTestCase {
        /// A store holding the 20-todo list, to check that failures leave it unchanged.
        func filledStore() throws -> (RecordStore, [UInt8]) {
            let request = listRequest()
            let store = RecordStore()
            try store.commit(
                response: TodoListWorkload(todos: 20).response(),
                plan: NormalizationPlan(operation: request.operation, variables: request.variables))
            return (store, store.relayJSON())
        }

        func normalizer() throws -> ResponseNormalizer {
            let request = listRequest()
            return try ResponseNormalizer(
                plan: NormalizationPlan(operation: request.operation, variables: request.variables))
        }

        func testNonOKStatusIsReturnedWithItsBody() async throws {
            let response = try await HTTPNetwork(endpoint: server.url("status/503")).execute(
                listRequest(), options: .init())
            XCTAssertEqual(response.status, 503)
            var body: [UInt8] = []
            for try await chunk in response.body { chunk.withUnsafeBytes { body += $0 } }
            XCTAssertEqual(String(decoding: body, as: UTF8.self), #"{"errors":[{"message":"the server failed"}]}"#)
        }

        func testRefusedConnection() async throws {
            // Port 1 on loopback: nothing listens there.
            let error = await fetchError {
                _ = try await HTTPNetwork(endpoint: "http://127.0.0.1:1/graphql").execute(
                    self.listRequest(), options: .init(timeout: .seconds(10)))
            }
            XCTAssertEqual(error?.kind, .transport)
            XCTAssertEqual(error?.operation, "TodoListQuery")
            XCTAssertEqual(error?.message.lowercased().contains("refused"), true, error?.message ?? "")
        }

        func testDroppedConnection() async throws {
            let error = await fetchError {
                _ = try await HTTPNetwork(endpoint: self.server.faultURL(.drop)).execute(
                    self.listRequest(), options: .init(timeout: .seconds(10)))
            }
            XCTAssertEqual(error?.kind, .transport)
            XCTAssertEqual(error?.message.contains("closed the connection"), true, error?.message ?? "")
        }

        func testCutOffBodyFailsAndLeavesTheStoreAlone() async throws {
            let (store, before) = try filledStore()
            let response = try await HTTPNetwork(endpoint: server.faultURL(.cutOff)).execute(
                listRequest(), options: .init(timeout: .seconds(10)))
            XCTAssertEqual(response.status, 200)
            let normalizer = try normalizer()
            var fed = 0
            let error = await fetchError {
                for try await chunk in response.body {
                    try chunk.withUnsafeBytes { raw in
                        fed += raw.count
                        try normalizer.feed(raw)
                    }
                }
            }
            XCTAssertEqual(error?.kind, .transport)
            XCTAssertEqual(error?.message, "the server closed the connection before the response ended")
            XCTAssertEqual(error?.offset, UInt64(Fault.cutOffBody.count), "where the body broke off")
            XCTAssertEqual(fed, Fault.cutOffBody.count, "the part that came was streamed")
            // What came is a JSON prefix: the normalizer refuses to finish it.
            XCTAssertThrowsError(try store.publish(normalizer.finish()))
            XCTAssertEqual(store.relayJSON(), before)
        }

        func testBodyThatIsNotJSONFailsAtItsOffset() async throws {
            let (store, before) = try filledStore()
            let response = try await HTTPNetwork(endpoint: server.url("not-json")).execute(
                listRequest(), options: .init())
            XCTAssertEqual(response.status, 200)
            let normalizer = try normalizer()
            do {
                _ = try await stream(response, into: normalizer)
                try store.publish(normalizer.finish())
                XCTFail("a body that is not JSON normalized")
            } catch let error as RelayArenaError {
                XCTAssertEqual(error.code, .malformedJSON)
                XCTAssertEqual(error.offset, UInt64(TodoServer.notJSONOffset))
            }
            XCTAssertEqual(store.relayJSON(), before)
        }

        func testErrorsWithNullDataFail() async throws {
            let (store, before) = try filledStore()
            let response = try await HTTPNetwork(endpoint: server.url("graphql-errors")).execute(
                listRequest(), options: .init())
            let normalizer = try normalizer()
            do {
                _ = try await stream(response, into: normalizer)
                try store.publish(normalizer.finish())
                XCTFail("errors with data: null normalized")
            } catch let error as RelayArenaError {
                XCTAssertEqual(error.code, .invalidResponse)
                XCTAssertTrue(error.message.contains("data: null"), error.message)
            }
            XCTAssertEqual(store.relayJSON(), before)
        }

        func testTimeoutBoundsTheBodyOfATricklingServer() async throws {
            let start = ContinuousClock.now
            let response = try await HTTPNetwork(endpoint: server.faultURL(.trickle)).execute(
                listRequest(), options: .init(timeout: .milliseconds(800)))
            XCTAssertEqual(response.status, 200, "the head came in time")
            var received = 0
            let error = await fetchError {
                for try await chunk in response.body { chunk.withUnsafeBytes { received += $0.count } }
            }
            let elapsed = ContinuousClock.now - start
            XCTAssertEqual(error?.kind, .timeout)
            XCTAssertGreaterThan(received, 0, "bytes were handed over as they came")
            XCTAssertLessThan(received, TodoListWorkload(todos: 3).response().count)
            XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(800))
            XCTAssertLessThan(elapsed, .seconds(3), "the deadline, not the server, ended it")
            let log = server.faultLog
            let closed = await eventually { log.tricklesClosedByClient == 1 }
            XCTAssertTrue(closed, "the client closed the connection at the deadline")
        }

        func testCancellingTheTaskStopsTheTransfer() async throws {
            let network = HTTPNetwork(endpoint: server.faultURL(.trickle))
            let request = listRequest()
            let log = server.faultLog
            let fetch = Task {
                let response = try await network.execute(request, options: .init(timeout: .seconds(60)))
                for try await _ in response.body {}
            }
            let trickling = await eventually { log.trickleBytesSent >= 3 }
            XCTAssertTrue(trickling)
            fetch.cancel()
            switch await fetch.result {
            case .success: XCTFail("a cancelled fetch succeeded")
            case .failure(let error as FetchError): XCTAssertEqual(error.kind, .cancelled)
            case .failure(let error): XCTAssertTrue(error is CancellationError, "\(error)")
            }
            let closed = await eventually { log.tricklesClosedByClient == 1 }
            XCTAssertTrue(closed, "the server saw the connection closed")
            let sent = log.trickleBytesSent
            try await Task.sleep(for: .milliseconds(400))
            XCTAssertEqual(log.trickleBytesSent, sent, "nothing more was sent")
        }

        func testDroppingTheBodyUnreadStopsTheTransfer() async throws {
            let log = server.faultLog
            do {
                let response = try await HTTPNetwork(endpoint: server.faultURL(.trickle)).execute(
                    listRequest(), options: .init())
                XCTAssertEqual(response.status, 200)
            }
            let closed = await eventually { log.tricklesClosedByClient == 1 }
            XCTAssertTrue(closed, "a body no one holds closes its connection")
        }
    }
#endif
