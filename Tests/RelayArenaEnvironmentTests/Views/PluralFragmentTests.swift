// @relay(plural: true): the parent passes one pointer per item, the child reads them in one call
// and gets a random-access collection of views; unknown records are nil items, and only plural
// fragments can be read from a list of pointers (checked with swiftc).
import RelayArena
import XCTest

final class PluralFragmentTests: XCTestCase {
    static let payload = #"""
        {"data":{"user":{"id":"me","todos":{"edges":[
          {"node":{"id":"VG9kbzow","text":"Taste JavaScript"}},
          {"node":{"id":"VG9kbzox","text":"Buy a unicorn"}}]}}}}
        """#

    func testParentPassesPointersChildReadsThemAll() throws {
        XCTAssertTrue(ToDoTexts_todos.artifact.plural)
        let store = try store(ToDoTextsQuery(), Self.payload)
        let (texts, missing) = store.withSnapshot { ToDoTextsScreen().texts($0) }
        XCTAssertEqual(texts, ["Taste JavaScript", "Buy a unicorn"])
        XCTAssertFalse(missing)
    }

    func testViewsAreARandomAccessCollectionWithNilForUnknownRecords() throws {
        let store = try store(ToDoTextsQuery(), Self.payload)
        let pointers = ["VG9kbzox", "nope", "VG9kbzow"].map { FragmentPointer<ToDoTexts_todos>(dataID: $0) }
        store.withSnapshot { snapshot in
            let (views, missing) = snapshot.read(ToDoTexts_todos.self, pointers)
            XCTAssertTrue(missing, "an unknown record is missing data")
            XCTAssertEqual(views.count, 3)
            XCTAssertEqual(views[2]?.text, "Taste JavaScript")
            XCTAssertNil(views[1])
            XCTAssertEqual(views.reversed().map { $0?.textUTF8.string }, ["Taste JavaScript", nil, "Buy a unicorn"])
            XCTAssertEqual(views.index(views.startIndex, offsetBy: 2), 2)
        }
    }

    func testRecordLackingDataReadsAsMissingWithoutTrapping() throws {
        let store = try store(ToDoTextsQuery(), Self.payload)
        // A Todo record with no text: fetched by a query that only asked for its type and id.
        let node = NodeRefetchQuery(id: "bare")
        try store.commit(
            response: Array(#"{"data":{"node":{"__typename":"Todo","id":"bare"}}}"#.utf8), plan: node.plan())
        store.withSnapshot { snapshot in
            let (views, missing) = snapshot.read(
                ToDoTexts_todos.self, [FragmentPointer(dataID: "VG9kbzow"), FragmentPointer(dataID: "bare")])
            XCTAssertTrue(missing)
            XCTAssertEqual(views.map { $0?.text }, ["Taste JavaScript", ""])
        }
    }

    func testEmptyListIsNotMissing() throws {
        let store = try store(ToDoTextsQuery(), Self.payload)
        store.withSnapshot { snapshot in
            let (views, missing) = snapshot.read(ToDoTexts_todos.self, [FragmentPointer<ToDoTexts_todos>]())
            XCTAssertTrue(views.isEmpty)
            XCTAssertFalse(missing)
        }
    }

    func testOnlyPluralFragmentsReadAListOfPointers() throws {
        let generated = try ViewSources.swiftFiles("Generated/ToDo")
        let plural = try MaskingCompileTests.typecheck(
            """
            import RelayArena
            func texts(_ s: StoreSnapshot, _ p: [FragmentPointer<ToDoTexts_todos>]) -> [String?] { s.read(ToDoTexts_todos.self, p).data.map { $0?.text } }
            """, with: generated)
        XCTAssertEqual(plural.status, 0, plural.output)
        let single = try MaskingCompileTests.typecheck(
            """
            import RelayArena
            func texts(_ s: StoreSnapshot, _ p: [FragmentPointer<ToDoItem_todo>]) -> Bool { s.read(ToDoItem_todo.self, p).isMissingData }
            """, with: generated)
        XCTAssertNotEqual(single.status, 0)
        XCTAssertTrue(
            single.output.contains("PluralFragment") || single.output.contains("FragmentPointer"), single.output)
    }
}
