// One writer, many readers, through typed views: a writer refetches a 100k-todo list while readers
// walk it, and every walk must see one payload entirely or not at all. CI runs it under
// ThreadSanitizer too (`swift test --sanitize=thread`).
import Foundation
import RelayArena
import RelayArenaTestSupport
import XCTest

final class ConcurrencyStressTests: XCTestCase {
    static let todos = 100_000

    /// Payload `version` (0 or 1): every todo's `complete` is the version and its text ends in it,
    /// so a walk that mixes the two payloads shows it.
    static func payload(version: Int) -> [UInt8] {
        var s = #"{"data":{"user":{"id":"VXNlcjptZQ==","todos":{"edges":["#
        s.reserveCapacity(todos * 64)
        for i in 0..<todos {
            if i > 0 { s += "," }
            s += #"{"node":{"id":"t\#(i)","text":"todo \#(i) v\#(version)","complete":\#(version == 1)}}"#
        }
        s += "]}}}}"
        return Array(s.utf8)
    }

    func testReadersSeeOnePayloadWholeWhileAWriterRefetches() throws {
        let query = StressTodosQuery(first: Self.todos)
        let plan = try query.plan()
        let payloads = [Self.payload(version: 0), Self.payload(version: 1)]
        let store = RecordStore()
        try store.commit(response: payloads[0], plan: plan)
        let publishes = 8
        let walksPerReader = 4
        let torn = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            if worker == 0 {
                for i in 1...publishes { try! store.commit(response: payloads[i % 2], plan: plan) }
                return
            }
            for _ in 0..<walksPerReader {
                store.withSnapshot { snapshot in
                    guard let edges = snapshot.read(query).data?.user?.todos?.edges, edges.count == Self.todos,
                        let first = edges[0]?.node
                    else { return torn.add() }
                    let complete = first.complete
                    for (i, edge) in edges.enumerated() {
                        guard let node = edge?.node, node.complete == complete else { return torn.add() }
                        // The text too, on a sample (a String per node would be most of the walk).
                        if i % 997 == 0, node.text != "todo \(i) v\(complete ? 1 : 0)" { return torn.add() }
                    }
                }
            }
        }
        XCTAssertEqual(torn.value, 0, "a walk saw parts of two payloads")
        store.withSnapshot { snapshot in
            let last = snapshot.read(query).data?.user?.todos?.edges?[Self.todos - 1]?.node
            XCTAssertEqual(last?.text, "todo \(Self.todos - 1) v\(publishes % 2)")
        }
    }
}
