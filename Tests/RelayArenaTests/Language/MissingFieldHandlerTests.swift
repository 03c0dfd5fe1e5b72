// relay's missing field handlers (cache redirects), after relay-runtime's environment `check`
// cases with handlers and the docs' `node(id:)` handler: a detail query answered from what a list
// loaded, without a request; a scalar and a plural answer; a handler that does not know, or
// names a record the store lacks, leaves the query to the network.
import Foundation
import RelayArena
import RelayArenaTestSupport
import XCTest

@MainActor
final class MissingFieldHandlerTests: XCTestCase {
    nonisolated static let docs = try! Fixtures.compile(
        """
        query ListQuery { user(id: "me") { id todos(first: 2) { edges { node { id text complete } } } } }
        query DetailQuery($id: ID!) { node(id: $id) { id ... on Todo { text complete } } }
        query OwnerQuery { user(id: "me") { id totalCount } }
        query NodesQuery($ids: [ID!]!) { nodes(ids: $ids) { id ... on Todo { text } } }
        """)
    static let list = #"""
        {"data":{"user":{"id":"me","todos":{"edges":[
          {"node":{"id":"t1","text":"one","complete":true}},{"node":{"id":"t2","text":"two","complete":false}}]}}}}
        """#

    func listed(_ handlers: [MissingFieldHandler]) throws -> (Environment, MockNetwork) {
        let network = MockNetwork()
        let environment = Environment(network: network, missingFieldHandlers: handlers)
        try environment.commitPayload(Self.docs.operations["ListQuery"]!, response: Array(Self.list.utf8))
        return (environment, network)
    }

    func testNodeByIDAnswersADetailQueryFromTheList() async throws {
        let detail = Self.docs.operations["DetailQuery"]!
        let (environment, network) = try listed([.nodeByID])
        XCTAssertEqual(environment.check(detail, variables: ["id": .string("t2")]), .available)
        let read = try await environment.fetchQuery(detail, variables: ["id": .string("t2")])
        XCTAssertEqual(read.data?.jsonText, #"{"node":{"id":"t2","text":"two","complete":false}}"#)
        XCTAssertFalse(read.isMissingData)
        XCTAssertTrue(network.requests.isEmpty, "nothing was sent")
        // The link is in the store now, as relay's check publishes it.
        XCTAssertTrue(
            String(decoding: environment.store.relayJSON(), as: UTF8.self).contains(
                #""node(id:\"t2\")":{"__ref":"t2"}"#))
    }

    func testWithoutHandlersOrForAnUnknownRecordTheQueryIsMissing() async throws {
        let detail = Self.docs.operations["DetailQuery"]!
        let (plain, _) = try listed([])
        XCTAssertEqual(plain.check(detail, variables: ["id": .string("t2")]), .missing)
        let (redirected, _) = try listed([.nodeByID])
        // The handler names `t9`, which the store never held: nothing is written, still missing.
        let before = redirected.store.relayJSON()
        XCTAssertEqual(redirected.check(detail, variables: ["id": .string("t9")]), .missing)
        XCTAssertEqual(redirected.store.relayJSON(), before)
    }

    func testScalarAndPluralHandlers() async throws {
        let count = MissingFieldHandler.scalar { field, parentID, parentType in
            field.name == "totalCount" && parentType == "User" && parentID == "me" ? .int(2) : nil
        }
        let nodes = MissingFieldHandler.pluralLinked { field, parentID, _ in
            guard parentID == RecordStore.rootID, field.name == "nodes", case .array(let ids)? = field.args["ids"]
            else {
                return nil
            }
            return ids.map { if case .string(let id) = $0 { return id } else { return nil } }
        }
        let (environment, _) = try listed([.nodeByID, count, nodes])
        let owner = Self.docs.operations["OwnerQuery"]!
        XCTAssertEqual(environment.check(owner), .available)
        XCTAssertEqual(
            ReadSelector.operation(owner, variables: [:]).read(environment.store).data?.jsonText,
            #"{"user":{"id":"me","totalCount":2}}"#)
        let many = Self.docs.operations["NodesQuery"]!
        let variables: Variables = ["ids": .array([.string("t2"), .string("t1")])]
        XCTAssertEqual(environment.check(many, variables: variables), .available)
        XCTAssertEqual(
            ReadSelector.operation(many, variables: variables).read(environment.store).data?.jsonText,
            #"{"nodes":[{"id":"t2","text":"two"},{"id":"t1","text":"one"}]}"#)
    }
}
