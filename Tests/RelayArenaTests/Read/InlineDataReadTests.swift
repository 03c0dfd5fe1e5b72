// `@inline` fragment spreads in the untyped reader: what the golden cases (089, 090) do not
// show — the records read inside the inline data are among the read's seen records, and a
// record missing below it makes the parent's read missing.
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import XCTest

final class InlineDataReadTests: XCTestCase {
    static let document = """
        query InlineSeenQuery {
          user(id: "me") { ...UserFriendInline }
        }

        fragment UserFriendInline on User @inline {
          bestFriend { name avatar(size: 8) { url } }
        }
        """

    func testInlineDataRecordsAreSeenAndMissingCounts() throws {
        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql")))
        let operation = try XCTUnwrap(
            try compiler.compile([GraphQLSourceFile(name: "d.graphql", text: Self.document)]).operations[
                "InlineSeenQuery"])
        let store = RecordStore()
        let response = #"{"data":{"user":{"bestFriend":{"name":"Pal","avatar":{"url":"u"},"id":"pal"},"id":"me"}}}"#
        let normalizer = try ResponseNormalizer(plan: try NormalizationPlan(operation: operation, variables: [:]))
        try normalizer.feed(Array(response.utf8))
        _ = try store.publish(try normalizer.finish())

        let result = store.read(operation: operation)
        XCTAssertFalse(result.isMissingData)
        XCTAssertEqual(result.seenRecords, [RecordStore.rootID, "me", "pal", "client:pal:avatar(size:8)"])
        XCTAssertEqual(
            result.jsonText,
            #"{"data":{"user":{"__id":"me","__fragments":{"UserFriendInline":{"bestFriend":{"name":"Pal","avatar":{"url":"u"}}}}}},"isMissingData":false}"#
        )

        // The friend's record gone: missing inside the inline data is missing for the query.
        let pruned = #"{"data":{"user":{"bestFriend":{"name":"Pal","id":"pal"},"id":"me"}}}"#
        let other = RecordStore()
        let second = try ResponseNormalizer(plan: try NormalizationPlan(operation: operation, variables: [:]))
        try second.feed(Array(pruned.utf8))
        _ = try other.publish(try second.finish())
        XCTAssertTrue(other.read(operation: operation).isMissingData)
    }
}
