// relay's `@fetchable` refetch (RelayModernEnvironment / useRefetchableFragment on a type with
// `@fetchable(field_name:)`): the refetch query `fetch__T(id: $id)` takes the record's identifying
// field, not its data ID (which, for a type without `id`, is a client ID), and the fragment follows
// the record the query's result holds. Run through `replay`.
import Foundation
import RelayArenaTestSupport
import XCTest

final class FetchableReplayTests: XCTestCase {
    var dir: URL!
    override func setUpWithError() throws { dir = try CLI.tempDir() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func write(_ name: String, _ text: String) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static let schema = """
        directive @fetchable(field_name: String!) on OBJECT | INTERFACE
        type NonNodeStory @fetchable(field_name: "fetch_id") { fetch_id: ID! title(lang: String): String }
        type Query { story: NonNodeStory fetch__NonNodeStory(input_fetch_id: ID!): NonNodeStory }
        """

    static let documents = """
        query StoryQuery($lang: String) { story { ...StoryFragment } }
        fragment StoryFragment on NonNodeStory @refetchable(queryName: "StoryRefetchQuery") {
          title(lang: $lang)
        }
        """

    func testTheRefetchSendsTheIdentifyingFieldAndFollowsTheResult() throws {
        let steps = [
            #"{"step":"publish","operation":"StoryQuery","variables":{"lang":"en"},"response":{"data":{"story":{"fetch_id":"f1","title":"Hello"}}}}"#,
            #"{"step":"subscribe","name":"s","fragment":"StoryFragment","operation":"StoryQuery","variables":{"lang":"en"},"id":"client:root:story"}"#,
            #"{"step":"refetch","name":"s","variables":{"lang":"fr"}}"#,
            #"{"step":"publish","operation":"StoryRefetchQuery","variables":{"id":"f1","lang":"fr"},"response":{"data":{"fetch__NonNodeStory":{"fetch_id":"f1","title":"Bonjour"}}}}"#,
        ]
        let r = try CLI.run([
            "replay", "--schema", try write("schema.graphql", Self.schema), "--document",
            try write("documents.graphql", Self.documents),
            try write("script.json", "[" + steps.joined(separator: ",\n") + "]"),
        ])
        XCTAssertEqual(r.status, 0, r.stderr)
        let out = r.stdoutText.split(separator: "\n").map(String.init)
        XCTAssertEqual(out.count, 3, out.joined(separator: "\n"))
        XCTAssertTrue(out[0].contains(#""title":"Hello""#), out[0])
        // Not `client:root:story`: the record's `fetch_id`.
        XCTAssertEqual(
            out[1],
            #"{"event":"request","name":"s","operation":"StoryRefetchQuery","variables":{"id":"f1","lang":"fr"}}"#)
        XCTAssertTrue(out[2].hasPrefix(#"{"event":"notify","name":"s""#), out[2])
        XCTAssertTrue(out[2].contains(#""title":"Bonjour""#), out[2])
    }
}
