// `@catch` and `@semanticNonNull` in generated views: a caught field is `Caught<Value>` (relay's
// `{ok, value}` / `{ok: false, errors}`) or, `to: NULL`, nil when anything was met under it; a
// `@catch` fragment reads as a result of its own; `@semanticNonNull` fields are non-optional in
// `@throwOnFieldError` and `@catch` documents. The responses are what GraphQL servers send when a
// non-null field fails (the todo is nulled where it is listed) or a nullable one does.
import RelayArena
import XCTest

final class CatchViewTests: XCTestCase {
    static let list = #"""
        {"data":{"user":{"id":"me","todos":{"edges":[
          {"node":{"id":"t1","text":"Taste JavaScript","complete":true}},
          {"node":null},
          {"node":{"id":"t3","text":"Buy a unicorn","complete":false}}]}}},
         "errors":[{"message":"text failed","path":["user","todos","edges",1,"node","text"],
                    "extensions":{"code":"E1"}}]}
        """#

    func testTheFailedRowShowsTheServersErrorAndTheOthersRender() throws {
        let store = try store(ToDoCaughtListQuery(), Self.list)
        try store.withSnapshot { snapshot in
            XCTAssertEqual(caughtRows(snapshot), ["[x] Taste JavaScript", "failed: text failed", "[ ] Buy a unicorn"])
            let edges = try XCTUnwrap(snapshot.read(ToDoCaughtListQuery()).data?.user?.todos?.edges)
            guard case .failure(let errors)? = edges[1]?.node else { return XCTFail("edge 1 caught nothing") }
            // relay's `errors`: the stored error without its message; the event keeps it, handled.
            XCTAssertEqual(errors.errors.map(\.jsonText), [#"{"extensions":{"code":"E1"},"path":["text"]}"#])
            XCTAssertEqual(errors.events.map(\.kind), [.payloadError])
            XCTAssertEqual(errors.events.map(\.handled), [true])
            XCTAssertEqual(errors.events.first?.owner, "ToDoCaughtListQuery")
            guard case .success(let node?)? = edges[0]?.node else { return XCTFail("edge 0 failed") }
            XCTAssertEqual(node.id, "t1")
        }
        // The untyped read agrees, and nothing throws: the catch handled it.
        let read = store.read(operation: ToDoCaughtListQuery.artifact)
        XCTAssertEqual(
            read.data?["user"]?["todos"]?["edges"].map { edges -> [String] in
                guard case .array(let items) = edges else { return [] }
                return items.map { $0["node"]?["ok"]?.jsonText ?? "-" }
            }, ["true", "false", "true"])
        XCTAssertNil(read.throwingFieldError())
    }

    func testMissingDataUnderACatchIsCaughtWithItsPath() throws {
        // t1 was fetched by the list only: the notes fragment's fields are not in the store.
        let store = try store(ToDoCaughtListQuery(), Self.list)
        try store.withSnapshot { snapshot in
            let t1 = FragmentPointer<ToDoCaughtNotes_todo>(dataID: "t1")
            let notes = try XCTUnwrap(snapshot.read(ToDoCaughtNotes_todo.self, t1).data)
            guard case .failure(let errors) = notes.priority else { return XCTFail("priority caught nothing") }
            XCTAssertEqual(errors.errors.map(\.jsonText), [#"{"path":["priority"]}"#])
            XCTAssertNil(notes.owner)
            guard case .success(let status) = notes.status else { return XCTFail("status failed") }
            XCTAssertTrue(status.complete)
            // What is not caught throws in this `@throwOnFieldError` fragment: the missing notes.
            XCTAssertThrowsError(try snapshot.readChecked(ToDoCaughtNotes_todo.self, t1)) { error in
                XCTAssertEqual("\(error)", "Relay: Missing expected data at path 'notes' in 'ToDoCaughtNotes_todo'.")
            }
        }
    }

    static let notes = #"""
        {"data":{"user":{"id":"me","todos":{"edges":[
          {"node":{"id":"t1","notes":"first","tags":["a","b"],"priority":null,"owner":null,"complete":true,
                   "text":"Taste JavaScript"}},
          {"node":{"id":"t2","notes":null,"tags":[],"priority":2,"owner":{"id":"me","name":"Me"},"complete":false,
                   "text":"Buy a unicorn"}}]}}},
         "errors":[{"message":"priority failed","path":["user","todos","edges",0,"node","priority"]},
                   {"message":"owner failed","path":["user","todos","edges",0,"node","owner"]},
                   {"message":"notes failed","path":["user","todos","edges",1,"node","notes"]}]}
        """#

    func testCaughtFieldsReadTheirServerErrorsAndTheOthersTheirValues() throws {
        let store = try store(ToDoCaughtNotesQuery(), Self.notes)
        try store.withSnapshot { snapshot in
            let t1 = try XCTUnwrap(snapshot.read(ToDoCaughtNotes_todo.self, FragmentPointer(dataID: "t1")).data)
            XCTAssertEqual(t1.notes, "first")
            XCTAssertEqual(t1.tags, ["a", "b"])
            guard case .failure(let errors) = t1.priority else { return XCTFail("priority caught nothing") }
            XCTAssertEqual(errors.serverMessages, ["priority failed"])
            XCTAssertNil(t1.owner)  // `to: NULL`
            // The fragment's own errors were all caught: a checked read does not throw.
            XCTAssertNoThrow(try snapshot.readChecked(ToDoCaughtNotes_todo.self, FragmentPointer(dataID: "t1")))

            let t2 = try XCTUnwrap(snapshot.read(ToDoCaughtNotes_todo.self, FragmentPointer(dataID: "t2")).data)
            XCTAssertEqual(try t2.priority.get(), 2)
            XCTAssertEqual(t2.owner?.name, "Me")
            // `notes` failed and nothing catches it: relay's hooks throw.
            XCTAssertThrowsError(try snapshot.readChecked(ToDoCaughtNotes_todo.self, FragmentPointer(dataID: "t2"))) {
                XCTAssertEqual("\($0)", "Relay: Unexpected response payload - check server logs for details.")
            }

            // A `@catch` fragment reads as its own result.
            XCTAssertEqual(caughtRow(snapshot, FragmentPointer(dataID: "t1")), "Taste JavaScript (first)")
            XCTAssertEqual(caughtRow(snapshot, FragmentPointer(dataID: "t2")), "failed: notes failed")
        }
    }

    func testSemanticNonNullFieldsAreNotOptionalWhereAnErrorWouldThrowOrBeCaught() {
        // Compile-time checks of the generated types (`notes: String @semanticNonNull`,
        // `tags: [String] @semanticNonNull(levels: [0, 1])`, `priority: Int`).
        let _: (ToDoCaughtNotes_todo.Data) -> String = { $0.notes }
        let _: (ToDoCaughtNotes_todo.Data) -> [String] = { $0.tags }
        let _: (ToDoCaughtNotes_todo.Data) -> Caught<Int?> = { $0.priority }
        let _: (ToDoCaughtNotes_todo.Data) -> ToDoCaughtNotes_todo.Data.Owner? = { $0.owner }
        let _: (ToDoCaughtNotes_todo.Data) -> Caught<ToDoCaughtNotes_todo.Data.Status> = { $0.status }
        let _: (ToDoCaughtRow_todo.Data) -> String = { $0.notes }
        let _: (ToDoCaughtListQuery.Data.User.Todos.Edges) -> Caught<ToDoCaughtListQuery.Data.User.Todos.Edges.Node?> =
            {
                $0.node
            }
    }
}
