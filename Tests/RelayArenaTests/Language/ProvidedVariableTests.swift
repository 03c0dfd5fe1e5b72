// relay's provided variables, after relay-compiler's provided-variable fixtures and relay-runtime's
// getOperationVariables: a fragment's `provider:` argument becomes an operation-level
// `__relay_internal__pv__<Module>` variable on every operation that reaches it, its value comes
// from the registered provider (memoized, overriding what a caller passes), and reads, storage keys
// and the request all see it. Generated `Variables` leave it out.
import Foundation
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import XCTest

@MainActor
final class ProvidedVariableTests: XCTestCase {
    nonisolated static let provider = "Todo_ShouldIncludeText.relayprovider"
    nonisolated static let variable = "__relay_internal__pv__Todo_ShouldIncludeTextrelayprovider"
    nonisolated static let document = """
        query ListQuery { user(id: "me") { id todos(first: 1) { edges { node { id ...Row } } } } }
        fragment Row on Todo
          @argumentDefinitions(withText: {type: "Boolean!", provider: "Todo_ShouldIncludeText.relayprovider"}) {
          complete
          text @include(if: $withText)
        }
        """

    func testTheCompilerDeclaresItOnEveryOperationThatReachesTheFragment() async throws {
        let docs = try Fixtures.compile(Self.document)
        let list = try XCTUnwrap(docs.operations["ListQuery"])
        XCTAssertEqual(list.variables.map(\.name), [Self.variable])
        XCTAssertEqual(list.variables.first?.type, "Boolean!")
        XCTAssertEqual(list.providedVariables, [Self.variable: Self.provider])
        XCTAssertTrue(list.text.hasPrefix("query ListQuery($\(Self.variable): Boolean!) {"), list.text)
        XCTAssertTrue(list.text.contains("@include(if: $\(Self.variable))"), list.text)
        XCTAssertEqual(docs.fragments["Row"]?.argumentDefinitions.map(\.name), [], "not an argument a parent passes")
        // The generated Variables have nothing to pass for it.
        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: try Fixtures.text("todo.graphql")))
        let generated = try SwiftGenerator(compiler: compiler).generate([
            GraphQLSourceFile(name: "d.graphql", text: Self.document)
        ])
        let swift = try XCTUnwrap(generated.first { $0.name == "ListQuery.graphql.swift" }?.contents)
        XCTAssertTrue(swift.contains("public init() { self.init(variables: Variables()) }"), swift)
        XCTAssertTrue(swift.contains("providedVariables: [\"\(Self.variable)\": \"\(Self.provider)\"]"), swift)
    }

    func testRelaysErrors() async throws {
        func message(_ text: String) throws -> String {
            do {
                _ = try Fixtures.compile(text)
            } catch let error as CompilerError {
                return error.message
            }
            XCTFail("expected a CompilerError")
            return ""
        }
        XCTAssertEqual(
            try message(
                """
                fragment A on Todo @argumentDefinitions(a: {type: "Boolean!", provider: "My.Provider"}) { text @include(if: $a) }
                fragment B on Todo @argumentDefinitions(b: {type: "Boolean!", provider: "MyProvider"}) { text @include(if: $b) }
                """),
            "Modules 'My.Provider' and 'MyProvider' used by provided variables have indistinguishable names. (All non ascii-alphanumeric characters are stripped in Relay transform)"
        )
        XCTAssertEqual(
            try message(
                """
                fragment A on Todo @argumentDefinitions(a: {type: "Boolean!", provider: "P"}) { text @include(if: $a) }
                fragment B on Todo @argumentDefinitions(b: {type: "Boolean", provider: "P"}) { text @include(if: $b) }
                """),
            "All provided variables using module 'P' must declare the same type. Expected 'Boolean!' but found 'Boolean'"
        )
    }

    func testItsValueIsTheProvidersEverywhere() async throws {
        final class Calls: @unchecked Sendable { var count = 0 }
        let calls = Calls()
        let provider = "ProvidedVariableTests.\(UUID().uuidString)"
        let document = Self.document.replacingOccurrences(of: Self.provider, with: provider)
        let variable = "__relay_internal__pv__" + provider.filter { $0.isLetter || $0.isNumber || $0 == "_" }
        ProvidedVariables.register(provider) {
            calls.count += 1
            return .bool(true)
        }
        let list = try XCTUnwrap(try Fixtures.compile(document).operations["ListQuery"])
        // What a caller passes is overridden, as relay's getOperationVariables does.
        let request = GraphQLRequest(operation: list, variables: [variable: .bool(false)])
        XCTAssertEqual(request.variables[variable], .bool(true))
        XCTAssertTrue(request.variablesJSON.contains("\"\(variable)\":true"), request.variablesJSON)

        let (environment, network) = Environment.mock()
        async let read = environment.fetchQuery(list)
        let sent = await network.nextRequest()
        XCTAssertEqual(sent.variables[variable], .bool(true))
        XCTAssertTrue(
            network.resolve(
                sent,
                json:
                    #"{"data":{"user":{"id":"me","todos":{"edges":[{"node":{"id":"t1","complete":false,"text":"Milk"}}]}}}}"#
            ))
        _ = try await read
        // A fragment reads with its owner's variables (relay's fragment variables), the provided one among them.
        let row = ReadSelector(
            node: .fragment(try XCTUnwrap(try Fixtures.compile(document).fragments["Row"])), dataID: "t1",
            variables: GraphQLRequest(operation: list, variables: [:]).variables,
            owner: FragmentOwner(operation: list, variables: [:]))
        XCTAssertEqual(row.read(environment.store).data?.jsonText, #"{"complete":false,"text":"Milk"}"#)
        XCTAssertEqual(calls.count, 1, "the first value is kept")
    }
}
