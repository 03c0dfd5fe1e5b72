// The queue between the body's pump and the normalizer: a few buffers ahead at most (the pump
// woken once half of them are taken), in order, the end after the last buffer, and a failure
// that stops the pump and drops what was queued.
#if HTTP
    import NIOConcurrencyHelpers
    import NIOCore
    import RelayArena
    @testable import RelayArenaHTTP
    import XCTest

    final class HandoffTests: XCTestCase {
        static func buffer(_ byte: UInt8) -> ByteBuffer { ByteBuffer(bytes: [byte]) }
        func buffer(_ byte: UInt8) -> ByteBuffer { Self.buffer(byte) }

        func testThePumpWaitsOnceLimitBuffersAreQueuedAndTheEndComesAfterTheLast() async throws {
            let handoff = Handoff()
            for i in 0..<(Handoff.limit - 1) {
                let accepted = await handoff.put(buffer(UInt8(i)))
                XCTAssertTrue(accepted, "room for buffer \(i)")
            }
            // The limit-th buffer is queued, and its put waits for room.
            let last = UInt8(Handoff.limit - 1)
            let returned = NIOLockedValueBox(false)
            let full = Task {
                let accepted = await handoff.put(HandoffTests.buffer(last))
                returned.withLockedValue { $0 = true }
                return accepted
            }
            try await Task.sleep(for: .milliseconds(50))
            XCTAssertFalse(returned.withLockedValue { $0 }, "the limit-th put waits for room")
            // It is woken once the queue is down to `resume` buffers, not at the first take.
            var taken: [UInt8] = []
            for _ in 0..<(Handoff.limit - Handoff.resume - 1) {
                taken.append(try await handoff.take()!.getInteger(at: 0)!)
            }
            try await Task.sleep(for: .milliseconds(50))
            XCTAssertFalse(returned.withLockedValue { $0 }, "above `resume` buffers queued, the pump still waits")
            taken.append(try await handoff.take()!.getInteger(at: 0)!)
            let resumed = await full.value
            XCTAssertTrue(resumed, "the take down to `resume` makes room")
            handoff.finish()
            while let b = try await handoff.take() { taken.append(b.getInteger(at: 0)!) }
            XCTAssertEqual(taken, Array(0...last), "every buffer, in order, before the end")
            let afterEnd = await handoff.put(buffer(9))
            XCTAssertFalse(afterEnd, "nothing is taken after the end")
        }

        func testAFailureStopsAWaitingPumpAndDropsWhatWasQueued() async throws {
            let handoff = Handoff()
            for i in 0..<(Handoff.limit - 1) { _ = await handoff.put(buffer(UInt8(i))) }
            let full = Task { await handoff.put(HandoffTests.buffer(7)) }
            try await Task.sleep(for: .milliseconds(50))
            handoff.fail(FetchError(kind: .timeout, operation: "Q", message: "deadline passed"))
            let resumed = await full.value
            XCTAssertFalse(resumed, "the pump stops")
            do {
                _ = try await handoff.take()
                XCTFail("the failure, not a queued buffer")
            } catch let error as FetchError {
                XCTAssertEqual(error.kind, .timeout)
            }
        }

        func testABodyThatBrokeOffHandsOverWhatCameBeforeItsError() async throws {
            let handoff = Handoff()
            for i in 0..<2 { _ = await handoff.put(buffer(UInt8(i))) }
            handoff.fail(FetchError(kind: .transport, operation: "Q", message: "closed"), afterQueued: true)
            var taken: [UInt8] = []
            do {
                while let b = try await handoff.take() { taken.append(b.getInteger(at: 0)!) }
                XCTFail("the body ended without its error")
            } catch let error as FetchError {
                XCTAssertEqual(error.kind, .transport)
            }
            XCTAssertEqual(taken, [0, 1], "what came, then the error")
        }

        func testAWaitingConsumerGetsTheNextBuffer() async throws {
            let handoff = Handoff()
            let consumer = Task { try await handoff.take()?.getInteger(at: 0, as: UInt8.self) }
            try await Task.sleep(for: .milliseconds(50))
            let accepted = await handoff.put(buffer(5))
            XCTAssertTrue(accepted)
            let got = try await consumer.value
            XCTAssertEqual(got, 5)
        }
    }
#endif
