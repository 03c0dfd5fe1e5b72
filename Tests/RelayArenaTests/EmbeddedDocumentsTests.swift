// The CLI embeds the to-do schema and the benchmark query (its default job needs no files);
// they must stay the same as the fixtures the tests use.
import RelayArenaTestSupport
import RelayArenaWorkloads
import XCTest

final class EmbeddedDocumentsTests: XCTestCase {
    func testEmbeddedDocumentsMatchTheFixtures() throws {
        XCTAssertEqual(EmbeddedDocuments.todoSchema, try Fixtures.text("todo.graphql"))
        XCTAssertEqual(EmbeddedDocuments.todoListQuery, try Fixtures.text("todo-list-query.graphql"))
    }
}
