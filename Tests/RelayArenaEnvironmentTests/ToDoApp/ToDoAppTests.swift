// The seeds' to-do app over a real store: the list reads only ids and passes pointers, each item
// reads text and complete through its pointer, the screen composes them from one query.
import RelayArena
import XCTest

final class ToDoAppTests: XCTestCase {
    func testScreenComposesListAndItemsThroughPointers() throws {
        let store = try store(CurrentUserToDoListQuery(), Payloads.currentUser)
        let lines = store.withSnapshot { CurrentUserToDoList().render($0) }
        XCTAssertEqual(lines, ["To-do List for me", "[x] Taste JavaScript", "[ ] Buy a unicorn"])
    }

    func testListReadsOnlyIDsAndPointers() throws {
        let store = try store(CurrentUserToDoListQuery(), Payloads.currentUser)
        let pointers: [FragmentPointer<ToDoItem_todo>] = try store.withSnapshot { snapshot in
            let (data, missing) = snapshot.read(CurrentUserToDoListQuery())
            XCTAssertFalse(missing)
            let user = try XCTUnwrap(data?.user)
            let list = ToDoList(user: user.asFragment())
            XCTAssertEqual(list.ids(snapshot), ["VG9kbzow", "VG9kbzox"])
            return list.rows(snapshot).map(\.todo)
        }
        // Pointers hold no store memory: they outlive the snapshot and carry the owner.
        XCTAssertEqual(pointers.map(\.dataID), ["VG9kbzow", "VG9kbzox"])
        XCTAssertEqual(pointers.first?.owner?.name, "CurrentUserToDoListQuery")
        XCTAssertEqual(Set(pointers).count, 2)
    }

    func testFragmentsByNameGiveTheSamePointersAsAsFragment() throws {
        let store = try store(CurrentUserToDoListQuery(), Payloads.currentUser)
        try store.withSnapshot { snapshot in
            let user = try XCTUnwrap(snapshot.read(CurrentUserToDoListQuery()).data?.user)
            XCTAssertEqual(user.fragments.toDoList_user, user.asFragment())
            let list = ToDoList(user: user.fragments.toDoList_user)
            let byName = list.rowsByFragmentName(snapshot)
            XCTAssertEqual(byName.map(\.todo), list.rows(snapshot).map(\.todo))
            XCTAssertEqual(byName.map(\.todo.dataID), ["VG9kbzow", "VG9kbzox"])
            XCTAssertEqual(byName.map { $0.render(snapshot) }, ["[x] Taste JavaScript", "[ ] Buy a unicorn"])
        }
    }

    func testItemReadsTextAndCompleteThroughItsPointer() throws {
        let store = try store(CurrentUserToDoListQuery(), Payloads.currentUser)
        let pointer = FragmentPointer<ToDoItem_todo>(dataID: "VG9kbzox")
        store.withSnapshot { snapshot in
            let (data, missing) = snapshot.read(ToDoItem_todo.self, pointer)
            XCTAssertFalse(missing)
            XCTAssertEqual(data?.text, "Buy a unicorn")
            XCTAssertEqual(data?.complete, false)
            XCTAssertTrue(data.map { $0.textUTF8 == "Buy a unicorn" } ?? false)
        }
    }

    func testPreviewQueryFeedsTheItemView() throws {
        let op = ToDoItemPreviewQuery()
        let store = try store(op, Payloads.preview)
        let rendered: [String] = try store.withSnapshot { snapshot in
            let user = try XCTUnwrap(snapshot.read(op).data?.user)
            let edges = try XCTUnwrap(user.todos?.edges)
            XCTAssertEqual(edges.count, 2)
            return edges.compactMap { $0?.node.flatMap { ToDoItem(todo: $0.asFragment()).render(snapshot) } }
        }
        XCTAssertEqual(rendered, ["[x] Taste JavaScript", "[ ] Buy a unicorn"])
    }

    func testMissingFieldDoesNotCrashAndSetsIsMissingData() throws {
        let partial = #"{"data":{"user":{"todos":{"edges":[{"node":{"id":"t1","text":"No status"}}]}}}}"#
        let store = try store(ToDoItemPreviewQuery(), partial)
        store.withSnapshot { snapshot in
            let (data, missing) = snapshot.read(ToDoItem_todo.self, FragmentPointer(dataID: "t1"))
            XCTAssertTrue(missing)
            XCTAssertEqual(data?.text, "No status")
            // A non-null Boolean that is missing reads as the documented default.
            XCTAssertEqual(data?.complete, false)
        }
    }

    func testUnknownRecordReadsAsNilAndMissing() throws {
        let store = try store(CurrentUserToDoListQuery(), Payloads.currentUser)
        store.withSnapshot { snapshot in
            let (data, missing) = snapshot.read(ToDoItem_todo.self, FragmentPointer(dataID: "nope"))
            XCTAssertNil(data)
            XCTAssertTrue(missing)
        }
    }

    func testOperationReadBeforeAnyDataIsMissing() {
        RecordStore().withSnapshot { snapshot in
            let (data, missing) = snapshot.read(CurrentUserToDoListQuery())
            XCTAssertTrue(missing)
            XCTAssertNil(data?.user)
        }
    }

    func testNullableLinkedNullAndPluralWithNullHoles() throws {
        let payload =
            #"{"data":{"user":{"todos":{"edges":[null,{"node":null},{"node":{"id":"a","text":"A","complete":true}}]}}}}"#
        let store = try store(ToDoItemPreviewQuery(), payload)
        try store.withSnapshot { snapshot in
            let (data, missing) = snapshot.read(ToDoItemPreviewQuery())
            XCTAssertFalse(missing)
            let edges = try XCTUnwrap(data?.user?.todos?.edges)
            XCTAssertEqual(edges.count, 3)
            XCTAssertNil(edges[0])
            XCTAssertNil(edges[1]?.node)
            XCTAssertEqual(edges[2]?.node?.id, "a")
            XCTAssertEqual(edges.map { $0?.node?.id }, [nil, nil, "a"])
        }
    }
}
