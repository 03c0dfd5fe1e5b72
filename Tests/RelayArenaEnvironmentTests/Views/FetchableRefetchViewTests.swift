// A `@fetchable` type's generated refetch: its identifier is a field of the record (relay's
// `identifierInfo`), which a pointer does not hold, so `refetchQuery(for: pointer, id:)` takes it
// and `refetchQuery(for: data)` reads it; the metadata names the field. Typechecked against the
// built runtime, as the masking tests are.
import Foundation
import RelayArena
import RelayArenaCompiler
import XCTest

final class FetchableRefetchViewTests: XCTestCase {
    func testTheGeneratedRefetchTakesOrReadsTheIdentifyingField() throws {
        let compiler = try Compiler(
            schema: GraphQLSourceFile(
                name: "schema.graphql",
                text: """
                    directive @fetchable(field_name: String!) on OBJECT | INTERFACE
                    type NonNodeStory @fetchable(field_name: "fetch_id") { fetch_id: ID! title: String }
                    type Query { story: NonNodeStory fetch__NonNodeStory(input_fetch_id: ID!): NonNodeStory }
                    """))
        let files = try SwiftGenerator(compiler: compiler).generate([
            GraphQLSourceFile(
                name: "d.graphql",
                text: """
                    query StoryQuery { story { ...StoryFragment } }
                    fragment StoryFragment on NonNodeStory @refetchable(queryName: "StoryRefetchQuery") { title }
                    """)
        ])
        let fragment = try XCTUnwrap(files.first { $0.name == "StoryFragment.graphql.swift" }?.contents)
        XCTAssertTrue(fragment.contains(#"identifierField: "id", identifierSource: "fetch_id")"#), fragment)

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fetchable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let urls = try files.map { file -> URL in
            let url = dir.appendingPathComponent(file.name)
            try file.contents.write(to: url, atomically: true, encoding: .utf8)
            return url
        }
        let probe = try MaskingCompileTests.typecheck(
            """
            import RelayArena
            func byPointer(_ pointer: FragmentPointer<StoryFragment>) -> StoryRefetchQuery {
                StoryFragment.refetchQuery(for: pointer, id: "f1")
            }
            func byView(_ data: StoryFragment.Data) -> StoryRefetchQuery { StoryFragment.refetchQuery(for: data) }
            """, with: urls)
        XCTAssertEqual(probe.status, 0, probe.output)
        // Without the field, a pointer cannot say which record to fetch.
        let missing = try MaskingCompileTests.typecheck(
            """
            import RelayArena
            func byPointer(_ pointer: FragmentPointer<StoryFragment>) -> StoryRefetchQuery {
                StoryFragment.refetchQuery(for: pointer)
            }
            """, with: urls)
        XCTAssertNotEqual(missing.status, 0)
    }
}
