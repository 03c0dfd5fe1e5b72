// The CLI embeds the to-do schema and the benchmark query (its default job needs no files);
// they must stay the same as the fixtures the tests use. (Swift Testing, beside the XCTest suites.)
import RelayArenaTestSupport
import RelayArenaWorkloads
import Testing

@Suite struct EmbeddedDocumentsTests {
    @Test func schemaMatchesTheFixture() throws {
        #expect(EmbeddedDocuments.todoSchema == (try Fixtures.text("todo.graphql")))
    }

    @Test func queryMatchesTheFixture() throws {
        #expect(EmbeddedDocuments.todoListQuery == (try Fixtures.text("todo-list-query.graphql")))
    }
}
