// @refetchable (reference §9) against the to-do schema: the synthesized queries (Node via a type
// implementing it and the interface itself, Query, Viewer), their typed variables from a pointer
// or a view, and responses to them updating what the fragment reads.
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import XCTest

final class RefetchableTests: XCTestCase {
    func testSynthesizedQueriesAreOperationsWithTextAndMetadata() throws {
        let result = try Self.compileApp()
        let operations = result.documents.operations
        XCTAssertEqual(
            operations["ToDoRefetchQuery"]?.text,
            """
            query ToDoRefetchQuery($id: ID!) {
              node(id: $id) {
                __typename
                id
                ... on Todo {
                  text
                  complete
                  id
                }
              }
            }

            """)
        XCTAssertEqual(
            operations["QueryRefetchQuery"]?.text, "query QueryRefetchQuery {\n  viewer {\n    unreadCount\n  }\n}\n")
        XCTAssertEqual(
            operations["ViewerRefetchQuery"]?.text,
            "query ViewerRefetchQuery {\n  viewer {\n    unreadCount\n    locale\n  }\n}\n")
        XCTAssertEqual(
            operations["UserRefetchQuery"]?.variables.map { "\($0.name): \($0.type)" },
            ["count: Int", "withEmail: Boolean!", "id: ID!"])
        XCTAssertEqual(operations["UserRefetchQuery"]?.variables[0].defaultValue, .int(2))
        XCTAssertEqual(
            result.refetch,
            [
                "ToDoRefetch_todo": RefetchMetadata(
                    operation: "ToDoRefetchQuery", fragmentPathInResult: ["node"], identifierField: "id"),
                "UserRefetch_user": RefetchMetadata(
                    operation: "UserRefetchQuery", fragmentPathInResult: ["node"], identifierField: "id"),
                "ToDoPagination_user": RefetchMetadata(
                    operation: "ToDoPaginationQuery", fragmentPathInResult: ["node"], identifierField: "id",
                    connection: ConnectionMetadata(
                        path: ["todos"], forward: PageVariables(count: "count", cursor: "cursor"), backward: nil)),
                "NodeRefetch_node": RefetchMetadata(
                    operation: "NodeRefetchQuery", fragmentPathInResult: ["node"], identifierField: "id"),
                "QueryRefetch_query": RefetchMetadata(
                    operation: "QueryRefetchQuery", fragmentPathInResult: [], identifierField: nil),
                "ViewerRefetch_viewer": RefetchMetadata(
                    operation: "ViewerRefetchQuery", fragmentPathInResult: ["viewer"], identifierField: nil),
            ])
        // The generated types carry the same metadata.
        XCTAssertEqual(ToDoRefetch_todo.refetchMetadata, result.refetch["ToDoRefetch_todo"])
        XCTAssertEqual(ViewerRefetch_viewer.refetchMetadata, result.refetch["ViewerRefetch_viewer"])
    }

    func testFragmentsOnNodeGetIDOthersDoNot() throws {
        let fragments = try Self.compileApp().documents.fragments
        XCTAssertEqual(fragments["ToDoRefetch_todo"]?.selections.map(Self.name), ["text", "complete", "id"])
        XCTAssertEqual(
            fragments["UserRefetch_user"]?.selections.first.map(Self.name), "id", "already selected: not added twice")
        XCTAssertEqual(fragments["UserRefetch_user"]?.selections.filter { Self.name($0) == "id" }.count, 1)
        XCTAssertEqual(fragments["ViewerRefetch_viewer"]?.selections.map(Self.name), ["unreadCount", "locale"])
    }

    func testRefetchQueryFromAPointerAndFromAView() throws {
        let store = try store(CurrentUserToDoListQuery(), Payloads.currentUser)
        let pointer = FragmentPointer<ToDoRefetch_todo>(dataID: "VG9kbzow")
        XCTAssertEqual(ToDoRefetch_todo.refetchQuery(for: pointer), ToDoRefetchQuery(id: "VG9kbzow"))
        XCTAssertEqual(ToDoRefetch_todo.refetchVariables(for: pointer), ["id": .string("VG9kbzow")])
        try store.withSnapshot { snapshot in
            let data = try XCTUnwrap(snapshot.read(ToDoRefetch_todo.self, pointer).data)
            XCTAssertEqual(data.id, "VG9kbzow")
            XCTAssertEqual(ToDoRefetch_todo.refetchQuery(for: data).variables.id, "VG9kbzow")
        }
    }

    func testResponseToTheRefetchQueryUpdatesTheFragment() throws {
        let store = try store(CurrentUserToDoListQuery(), Payloads.currentUser)
        let pointer = FragmentPointer<ToDoRefetch_todo>(dataID: "VG9kbzow")
        let item = RefetchableToDoItem(todo: pointer)
        XCTAssertEqual(store.withSnapshot { item.render($0) }, "[x] Taste JavaScript")
        let query = item.refetchQuery
        let response = #"{"data":{"node":{"__typename":"Todo","id":"VG9kbzow","text":"Taste Swift","complete":false}}}"#
        try store.commit(response: Array(response.utf8), plan: query.plan())
        XCTAssertEqual(store.withSnapshot { item.render($0) }, "[ ] Taste Swift")
        try store.withSnapshot { snapshot in
            let (data, missing) = snapshot.read(ToDoRefetch_todo.self, pointer)
            XCTAssertFalse(missing)
            XCTAssertEqual(data?.text, "Taste Swift")
            XCTAssertEqual(data?.complete, false)
            // The query's own view passes the pointer down, as the refetch container would.
            let node = try XCTUnwrap(snapshot.read(query).data?.node)
            XCTAssertEqual(
                node.asFragment(),
                FragmentPointer<ToDoRefetch_todo>(
                    dataID: "VG9kbzow", variables: ["id": .string("VG9kbzow")], owner: node.asFragment().owner))
        }
    }

    func testFragmentArgumentsAndGlobalVariablesMapToTheQuery() throws {
        let defaults = FragmentPointer<UserRefetch_user>(dataID: "me")
        XCTAssertEqual(
            UserRefetch_user.refetchQuery(for: defaults, withEmail: false),
            UserRefetchQuery(count: 2, withEmail: false, id: "me"))
        XCTAssertEqual(UserRefetch_user.refetchVariables(for: defaults), ["id": .string("me"), "count": .int(2)])
        let current = FragmentPointer<UserRefetch_user>(
            dataID: "me", variables: ["count": .int(5), "withEmail": .bool(true), "other": .int(1)])
        XCTAssertEqual(
            UserRefetch_user.refetchVariables(for: current),
            ["id": .string("me"), "count": .int(5), "withEmail": .bool(true)])
        XCTAssertEqual(UserRefetch_user.refetchQuery(for: current, withEmail: true).variables.count, 5)
    }

    func testSpreadArgumentsReachThePointer() throws {
        let query = UserRefetchQuery(count: 1, withEmail: false, id: "me")
        let response = #"""
            {"data":{"node":{"__typename":"User","id":"me","name":"Ada","todos":{"edges":[
              {"node":{"id":"t1","text":"One","complete":true}}]}}}}
            """#
        let store = try store(query, response)
        try store.withSnapshot { snapshot in
            let pointer = try XCTUnwrap(snapshot.read(query).data?.node?.asFragment())
            XCTAssertEqual(
                pointer.variables["count"], .int(1), "@arguments(count: $count) resolved against the query's variables")
            let (data, missing) = snapshot.read(UserRefetch_user.self, pointer)
            XCTAssertFalse(missing)
            XCTAssertEqual(data?.name, "Ada")
            XCTAssertNil(data?.email, "@include(if: $withEmail) with withEmail false")
            XCTAssertEqual(data?.todos?.edges?.compactMap { $0?.node?.id }, ["t1"])
            // With the default count (2) the fragment reads another storage key: not fetched.
            let (other, otherMissing) = snapshot.read(
                UserRefetch_user.self, FragmentPointer(dataID: "me", variables: ["withEmail": .bool(false)]))
            XCTAssertTrue(otherMissing)
            XCTAssertNil(other?.todos)
        }
    }

    func testQueryAndViewerFragmentsRefetchFromTheRoot() throws {
        let query = QueryRefetch_query.refetchQuery(for: FragmentPointer(dataID: RecordStore.rootID))
        XCTAssertEqual(query, QueryRefetchQuery())
        let store = try store(query, #"{"data":{"viewer":{"unreadCount":3}}}"#)
        let viewerQuery = ViewerRefetch_viewer.refetchQuery(for: FragmentPointer(dataID: "client:root:viewer"))
        try store.commit(
            response: Array(#"{"data":{"viewer":{"unreadCount":4,"locale":"fr"}}}"#.utf8), plan: viewerQuery.plan())
        store.withSnapshot { snapshot in
            let root = snapshot.read(QueryRefetch_query.self, FragmentPointer(dataID: RecordStore.rootID))
            XCTAssertFalse(root.isMissingData)
            XCTAssertEqual(root.data?.viewer?.unreadCount, 4)
            let viewer = snapshot.read(ViewerRefetch_viewer.self, FragmentPointer(dataID: "client:root:viewer"))
            XCTAssertFalse(viewer.isMissingData)
            XCTAssertEqual(viewer.data?.locale, "fr")
        }
        XCTAssertEqual(NodeRefetch_node.refetchQuery(for: FragmentPointer(dataID: "VG9kbzow")).variables.id, "VG9kbzow")
    }

    static func compileApp() throws -> CompilationResult {
        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: try Fixtures.text("todo.graphql")),
            clientSchema: [
                GraphQLSourceFile(name: "todo-client.graphql", text: try Fixtures.text("todo-client.graphql"))
            ])
        let documents = try ViewSources.swiftFiles("App/ToDo").compactMap { url in
            try SwiftSourceDocuments.extract(
                GraphQLSourceFile(name: url.path, text: try String(contentsOf: url, encoding: .utf8)))
        }
        return try compiler.compileWithMetadata(documents)
    }

    static func name(_ selection: Selection) -> String {
        switch selection {
        case .scalarField(let f): return f.name
        case .linkedField(let f): return f.name
        default: return "?"
        }
    }
}
