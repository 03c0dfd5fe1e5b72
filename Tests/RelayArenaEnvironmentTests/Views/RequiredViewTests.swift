// `@required` in generated views: the field is non-optional, the nearest nullable parent reads nil
// when it is null (a list's node, a fragment's data), and a checked read throws relay's error for
// `@required(action: THROW)`. The server failed one todo's text.
import RelayArena
import XCTest

final class RequiredViewTests: XCTestCase {
    static let response = #"""
        {"data":{"user":{"id":"me","todos":{"edges":[
          {"node":{"id":"t1","text":"Taste JavaScript","complete":true}},
          {"node":{"id":"t2","text":null,"complete":false}},
          {"node":{"id":"t3","text":"Buy a unicorn","complete":false}}]}}},
         "errors":[{"message":"text failed","path":["user","todos","edges",1,"node","text"]}]}
        """#

    func testTheFailedRowIsLeftOutAndTheOthersRender() throws {
        let store = try store(ToDoRequiredListQuery(), Self.response)
        store.withSnapshot { snapshot in
            XCTAssertEqual(requiredTexts(snapshot), ["Taste JavaScript", "Buy a unicorn"])
            XCTAssertEqual(requiredRow(snapshot, FragmentPointer(dataID: "t1")), "[x] Taste JavaScript")
            XCTAssertEqual(
                requiredRow(snapshot, FragmentPointer(dataID: "t2")),
                "failed: Relay: Missing @required value at path 'text' in 'ToDoRequiredRow_todo'.")
            // Unchecked, the row's data is nil (relay nulls the fragment) and the reason is in fieldErrors.
            XCTAssertNil(snapshot.read(ToDoRequiredRow_todo.self, FragmentPointer(dataID: "t2")).data)
        }
        let row = store.read(fragment: ToDoRequiredRow_todo.artifact, dataID: "t2")
        XCTAssertEqual(row.fieldErrors.map(\.kind), [.payloadError, .missingRequiredFieldThrow])
        XCTAssertEqual(row.fieldErrors.first?.error?.jsonText, #"{"message":"text failed"}"#)
    }

    func testAListItemWhoseRequiredFieldIsNullReadsNil() throws {
        // The second todo's text is null: its node is, so its edge (a nullable list item) reads nil.
        let store = try store(ToDoRequiredEdgesQuery(), Self.response)
        try store.withSnapshot { snapshot in
            let edges = try XCTUnwrap(snapshot.read(ToDoRequiredEdgesQuery()).data?.user?.todos?.edges)
            XCTAssertEqual(edges.map { $0?.node.id }, ["t1", nil, "t3"])
        }
        let read = store.read(operation: ToDoRequiredEdgesQuery.artifact)
        XCTAssertEqual(
            read.data?["user"]?["todos"]?["edges"]?.jsonText,
            #"[{"node":{"id":"t1","text":"Taste JavaScript"}},null,{"node":{"id":"t3","text":"Buy a unicorn"}}]"#)
    }

    func testTheRequiredPropertyIsNotOptional() {
        // Compile-time checks of the generated types.
        let _: (ToDoRequiredRow_todo.Data) -> String = { $0.text }
        let _: (ToDoRequiredListQuery.Data.User.Todos.Edges) -> ToDoRequiredListQuery.Data.User.Todos.Edges.Node? = {
            $0.node
        }
    }
}
