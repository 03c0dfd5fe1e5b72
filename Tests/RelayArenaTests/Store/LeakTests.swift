// The C core counts every block it (and yajl) allocates; after every kind of work — success,
// each bad input, import, export, publish, reads — and once everything is released, the count
// must be back where it started. This is the exact leak check (LeakSanitizer is too noisy in an
// XCTest process on Linux).
import Foundation
import RelayArenaCompiler
import RelayArenaTestSupport
import RelayArenaWorkloads
import XCTest

@testable import RelayArena

final class LeakTests: XCTestCase {
    func testEverythingFreesEverything() throws {
        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql")))
        let docs = try compiler.compile([
            GraphQLSourceFile(
                name: "q.graphql",
                text: """
                    query Q($first: Int!) { user(id: "me") { id totalCount todos(first: $first) { edges { cursor node { id text complete } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }
                    query A { user(id: "me") { bestFriend { name } ... on User { name } } }
                    """)
        ])
        let before = _CAllocations.live
        do {
            let plan = try NormalizationPlan(operation: docs.operations["Q"]!, variables: ["first": .int(50)])
            let store = RecordStore()
            let good = TodoListWorkload(todos: 50).response()
            try store.commit(response: good, plan: plan)
            try store.commit(response: TodoListWorkload(todos: 50).response(changedPercent: 50), plan: plan)
            let bad: [String] = [
                #"{"data":{"user":{"id":"U","todos":{"edges":[{"cursor":"c","node":{"id":1}}]}}}}"#,
                #"{"data":{"user":{"id":"U","todos":{"edges":{"x":1}}}}}"#,
                #"{"data":{"user":{"totalCount":"#,
                #"{"data":{"user":{"id":"U","id":"V"}}}"#,
                #"{"data":[1]}"#,
                #"{"errors":[{"message":"m","path":["user","todos"]}],"data":{"user":{"id":"U","todos":null}}}"#,
                "{\"data\":{\"user\":{\"id\":\"\u{FF}\"}}}",
                #"{"data":{"user":{"todos":{"edges":[{"node":{"text":"t"}}]},"#,  // pending records, then truncated
            ]
            for text in bad {
                for chunk in [1, 5, Int.max] {
                    let n = try ResponseNormalizer(plan: plan)
                    _ = try? {
                        try Chunking.split(Array(text.utf8), size: chunk) { try n.feed($0) }
                        try store.publish(try n.finish())
                    }()
                }
            }
            let deep = try ResponseNormalizer(plan: plan, limits: NormalizationLimits(maxDepth: 10))
            _ = try? deep.feed(Array((#"{"data":{"x":"# + String(repeating: "[", count: 50)).utf8))
            // Type-dependent values are buffered and replayed through a second yajl handle.
            let abstract = try NormalizationPlan(operation: docs.operations["A"]!)
            try store.commit(
                response: Array(#"{"data":{"user":{"name":"n","bestFriend":{"name":"b","id":"F"},"id":"U"}}}"#.utf8),
                plan: abstract)
            let copy = try RecordStore(relayJSON: store.relayJSON())
            XCTAssertEqual(copy.relayJSON(), store.relayJSON())
            // Collection and compaction replace arrays and hand back removed IDs.
            copy.compactionThreshold = nil
            XCTAssertGreaterThan(try copy.collectGarbage(roots: [(docs.operations["A"]!, [:])]).count, 0)
            XCTAssertGreaterThan(try copy.compact(), 0)
            let left = copy.recordCount
            XCTAssertEqual(try copy.collectGarbage(roots: []).count, left)
            XCTAssertEqual(copy.recordCount, 0)
            _ = try? RecordStore(relayJSON: Array(#"{"a":{"__typename":"T","x":{"__refs":["a",1]}},"b":"#.utf8))
            // (the errors payload above re-linked user(id:"me") to "U", which lacks most fields)
            let read = store.read(operation: docs.operations["Q"]!, variables: ["first": .int(50)])
            XCTAssertTrue(read.isMissingData)
        }
        XCTAssertEqual(_CAllocations.live, before, "the C core leaked \(_CAllocations.live - before) blocks")
    }
}
