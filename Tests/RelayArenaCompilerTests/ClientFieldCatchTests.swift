// relay-compiler's validate_client_schema_extensions_use_catch: in a `@throwOnFieldError` fragment
// or operation a client schema extension field must be under a `@catch` (nothing ensures it was
// set before it is read, and an unset field is a field error there).
import RelayArena
import RelayArenaCompiler
import XCTest

final class ClientFieldCatchTests: XCTestCase {
    static let schema = """
        type User { id: ID! name: String best: User }
        type Query { me: User }
        """
    static let client = "extend type User { isSelected: Boolean friend: User }"
    static let message =
        "Expected client-defined field within `@throwOnFieldError` to be annotated with `@catch`. Accessing an unset field is treated as a field error, but Relay cannot guarantee that client field will be set before they are read. Add `@catch` to explicitly handle the case where the field is unset."

    private func compile(_ document: String) throws -> CompiledDocuments {
        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: "schema.graphql", text: Self.schema),
            clientSchema: [GraphQLSourceFile(name: "client.graphql", text: Self.client)])
        return try compiler.compile([GraphQLSourceFile(name: "doc.graphql", text: document)])
    }

    private func assertRefused(_ document: String, at position: [Int], line: UInt = #line) {
        XCTAssertThrowsError(try compile(document), line: line) { error in
            guard let error = error as? CompilerError else { return XCTFail("\(error)", line: line) }
            XCTAssertEqual(error.message, Self.message, line: line)
            XCTAssertEqual([error.line, error.column], position, line: line)
        }
    }

    func testAnUncaughtClientFieldIsRefusedAtItsNameOrAlias() {
        assertRefused("fragment F on User @throwOnFieldError { id isSelected }", at: [1, 44])
        assertRefused("query Q @throwOnFieldError { me { best { selected: isSelected } } }", at: [1, 42])
        assertRefused("fragment F on User @throwOnFieldError { friend { id } }", at: [1, 41])
    }

    func testACatchOnTheFieldOrAboveItOrNoThrowOnFieldErrorIsAccepted() throws {
        _ = try compile("fragment F on User @throwOnFieldError { id isSelected @catch }")
        _ = try compile("query Q @throwOnFieldError { me @catch { best { isSelected } } }")
        _ = try compile("fragment F on User @throwOnFieldError { friend @catch { isSelected } }")
        _ = try compile("fragment F on User @throwOnFieldError { ... @alias(as: \"local\") @catch { isSelected } }")
        _ = try compile("fragment F on User { isSelected friend { id } }")
    }
}
