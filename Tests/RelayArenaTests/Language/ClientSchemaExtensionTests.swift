// Client schema extensions (relay's `extend type …` and client-only types in client schema
// files): validated like server fields, never in the request's text, stored in the same records,
// written when a payload has them, and, unset, read as absent without making data missing — for
// the reader and for `check()`. After relay-compiler's client-extensions fixtures and
// RelayReader / DataChecker's client extension cases.
import Foundation
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import XCTest

@MainActor
final class ClientSchemaExtensionTests: XCTestCase {
    nonisolated static let client = """
        extend type Todo {
          isSelected: Boolean
          draft: Draft
        }
        type Draft { text: String author: User }
        """

    nonisolated static func compiler() throws -> Compiler {
        try Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: try Fixtures.text("todo.graphql")),
            clientSchema: [GraphQLSourceFile(name: "client.graphql", text: client)])
    }

    nonisolated static let docs = try! compiler().compile([
        GraphQLSourceFile(
            name: "q.graphql",
            text: """
                query SelectionQuery($size: Int) {
                  node(id: "t1") {
                    id
                    ... on Todo { text isSelected draft { text author { id name } } }
                  }
                  user(id: "me") { id avatar(size: $size) { url } }
                }
                """)
    ])
    static let query = docs.operations["SelectionQuery"]!
    static let response = Array(
        #"{"data":{"node":{"__typename":"Todo","id":"t1","text":"one"},"user":{"id":"me","avatar":null}}}"#.utf8)

    func testClientFieldsAreNeverSent() async throws {
        XCTAssertFalse(Self.query.text.contains("isSelected"), Self.query.text)
        XCTAssertFalse(Self.query.text.contains("draft"), Self.query.text)
        XCTAssertTrue(Self.query.text.contains("text"), Self.query.text)
        // A client field inside an operation otherwise made of server fields is still valid
        // GraphQL for the server: the printed text compiles against the server schema alone.
        let server = try Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: try Fixtures.text("todo.graphql")))
        XCTAssertNoThrow(try server.compile([GraphQLSourceFile(name: "sent.graphql", text: Self.query.text)]))
    }

    func testUnsetClientFieldsAreNotMissingData() async throws {
        let store = RecordStore()
        try store.commit(response: Self.response, plan: NormalizationPlan(operation: Self.query))
        let read = ReadSelector.operation(Self.query, variables: [:]).read(store)
        XCTAssertFalse(read.isMissingData)
        XCTAssertEqual(
            read.data?.jsonText, #"{"node":{"id":"t1","text":"one"},"user":{"id":"me","avatar":null}}"#)
        XCTAssertEqual(store.check(operation: Self.query), .available)
    }

    func testAPayloadWithClientFieldsWritesThemAndAServerAnswerKeepsThem() async throws {
        let environment = Environment(network: MockNetwork())
        // relay's commitPayload with client data (as a local fixture or optimistic response would).
        try environment.commitPayload(
            Self.query,
            response: Array(
                #"""
                {"data":{"node":{"__typename":"Todo","id":"t1","text":"one","isSelected":true,
                  "draft":{"text":"d","author":{"id":"me","name":"Me"}}},"user":{"id":"me","avatar":null}}}
                """#.utf8))
        try environment.commitPayload(Self.query, response: Self.response)
        let read = ReadSelector.operation(Self.query, variables: [:]).read(environment.store)
        XCTAssertEqual(
            read.data?.jsonText,
            #"{"node":{"id":"t1","text":"one","isSelected":true,"draft":{"text":"d","author":{"id":"me","name":"Me"}}},"user":{"id":"me","avatar":null}}"#
        )
        XCTAssertFalse(read.isMissingData)
    }

    func testMissingDataUnderAClientLinkedFieldDoesNotCount() async throws {
        let environment = Environment(network: MockNetwork())
        try environment.commitPayload(Self.query, response: Self.response)
        // The draft is linked, its author's `name` is not set: still not missing.
        try environment.commitLocalUpdate { store in
            let draft = try store.create("client:draft:1", typename: "Draft")
            draft.setLinkedRecord(store.get("me"), "author")
            store.get("t1")?.setLinkedRecord(draft, "draft")
        }
        let read = ReadSelector.operation(Self.query, variables: [:]).read(environment.store)
        XCTAssertFalse(read.isMissingData)
        XCTAssertEqual(environment.store.check(operation: Self.query), .available)
        // A server field missing still counts: a store whose `t1` never got its `text`.
        let partial = RecordStore()
        try partial.commit(
            response: Array(
                #"{"data":{"node":{"__typename":"Todo","id":"t1"},"user":{"id":"me","avatar":null}}}"#.utf8),
            plan: NormalizationPlan(operation: Self.query))
        XCTAssertTrue(ReadSelector.operation(Self.query, variables: [:]).read(partial).isMissingData)
        XCTAssertEqual(partial.check(operation: Self.query), .missing)
    }

    func testAClientRecordIsKeptByCollectionThroughItsField() async throws {
        let environment = Environment(network: MockNetwork())
        try environment.commitPayload(Self.query, response: Self.response)
        try environment.commitLocalUpdate { store in
            let draft = try store.create("client:draft:1", typename: "Draft")
            draft.setValue(.string("d"), "text")
            store.get("t1")?.setLinkedRecord(draft, "draft")
        }
        let removed = try environment.store.collectGarbage(roots: [(Self.query, [:])])
        XCTAssertFalse(Array(removed).contains("client:draft:1"))
        XCTAssertEqual(Array(try environment.store.collectGarbage(roots: [])).contains("client:draft:1"), true)
    }

    func testErrorsInTheClientSchemaNameItsFile() async throws {
        do {
            _ = try Compiler(
                schema: GraphQLSourceFile(name: "todo.graphql", text: try Fixtures.text("todo.graphql")),
                clientSchema: [GraphQLSourceFile(name: "client.graphql", text: "extend type Todo {\n  x: Nope\n}\n")])
            XCTFail("expected an unknown type")
        } catch let error as CompilerError {
            XCTAssertEqual("\(error.file):\(error.line):\(error.column)", "client.graphql:2:6")
            XCTAssertTrue(error.message.contains("Nope"), error.message)
        }
    }
}
