// relay's `@inline` fragments (readInlineData): the directive is declared as relay-compiler
// declares it (`on FRAGMENT_DEFINITION`, no arguments), so misuse is an ordinary GraphQL error;
// spreads of them are inlined for normalization and carry the fragment's reader selections.
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import XCTest

final class InlineDataCompilerTests: XCTestCase {
    private func file(_ name: String, _ text: String) -> GraphQLSourceFile { GraphQLSourceFile(name: name, text: text) }

    static let document = """
        query InlineQ($size: Int) {
          user(id: "me") {
            ...UserSummary
            ...UserAvatar @arguments(size: $size)
            ...UserEmail
          }
        }

        fragment UserSummary on User @inline {
          name
          bestFriend { name }
        }

        fragment UserAvatar on User @inline @argumentDefinitions(size: {type: "Int", defaultValue: 32}) {
          avatar(size: $size) { url }
        }

        fragment UserEmail on User { email }
        """

    func testReaderSpreadCarriesInlineData() throws {
        let compiled = try TestCompiler.compile("todo.graphql", Self.document)
        let operation = try XCTUnwrap(compiled.operations["InlineQ"])
        let user = try operation.reader.linked("user")
        XCTAssertEqual(user.selections.summary, ["...UserSummary", "...UserAvatar", "...UserEmail"])
        let spreads = user.selections.compactMap { selection -> FragmentSpread? in
            if case .fragmentSpread(let spread) = selection { return spread }
            return nil
        }
        let summary = try XCTUnwrap(spreads[0].inlineData)
        XCTAssertEqual(summary.selections.summary, ["name", "bestFriend{}"])
        XCTAssertEqual(summary.argumentDefinitions, [])
        let avatar = try XCTUnwrap(spreads[1].inlineData)
        XCTAssertEqual(avatar.selections.summary, ["avatar{}"])
        XCTAssertEqual(
            avatar.argumentDefinitions, [VariableDefinition(name: "size", type: "Int", defaultValue: .int(32))])
        XCTAssertEqual(spreads[1].args, [Argument(name: "size", value: .variable("size"))])
        XCTAssertNil(spreads[2].inlineData, "a normal spread stays a masked pointer")
        // The fragments themselves still compile to their own artifacts.
        XCTAssertEqual(compiled.fragments["UserSummary"]?.selections.summary, ["name", "bestFriend{}"])
    }

    func testNormalizationInlinesInlineDataFragments() throws {
        let operation = try TestCompiler.operation("todo.graphql", "InlineQ", Self.document)
        let user = try operation.normalization.linked("user")
        XCTAssertEqual(user.selections.summary, ["id", "name", "bestFriend{}", "avatar{}", "email"])
        XCTAssertFalse(operation.text.contains("@inline"), operation.text)
        XCTAssertFalse(operation.text.contains("..."), operation.text)
    }

    func testInlineOnOperationIsAGraphQLError() throws {
        let error = try TestCompiler.error(
            "todo.graphql",
            [
                file("q.graphql", "query Q @inline {\n  viewer { locale }\n}\n")
            ])
        XCTAssertEqual(error.description, #"q.graphql:1:9: error: Directive "@inline" may not be used on QUERY."#)
    }

    func testInlineOnSpreadIsAGraphQLError() throws {
        let error = try TestCompiler.error(
            "todo.graphql",
            [
                file(
                    "q.graphql",
                    "query Q {\n  user(id: \"me\") { ...N @inline }\n}\nfragment N on User @inline { name }\n")
            ])
        XCTAssertEqual(error.file, "q.graphql")
        XCTAssertEqual(error.line, 2)
        XCTAssertEqual(error.message, #"Directive "@inline" may not be used on FRAGMENT_SPREAD."#)
    }

    func testInlineWithUnknownArgumentIsAGraphQLError() throws {
        let error = try TestCompiler.error(
            "todo.graphql",
            [
                file("f.graphql", "fragment N on User @inline(mask: false) { name }\n")
            ])
        XCTAssertEqual(error.file, "f.graphql")
        XCTAssertEqual(error.line, 1)
        XCTAssertEqual(error.column, 28)
        XCTAssertEqual(error.message, #"Unknown argument "mask" on directive "@inline"."#)
    }

    func testSchemaDeclaringInlineItselfIsAccepted() throws {
        let schema = "directive @inline on FRAGMENT_DEFINITION\ntype Query { hello: String }\n"
        let compiler = try Compiler(schema: GraphQLSourceFile(name: "s.graphql", text: schema))
        let compiled = try compiler.compile([
            file("d.graphql", "query Q { ...H }\nfragment H on Query @inline { hello }\n")
        ])
        XCTAssertNotNil(compiled.operations["Q"])
    }
}
