// Hostile documents (RelayArenaWorkloads' CompilerBombs): those past `DocumentLimits` are refused
// with one line naming the offending token; the big but bounded ones compile, and correctly.
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import RelayArenaWorkloads
import XCTest

final class DocumentBombTests: XCTestCase {
    private func refusal(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> CompilerError {
        let error = try TestCompiler.error(
            "todo.graphql", [GraphQLSourceFile(name: "bomb.graphql", text: text)], file: file, line: line)
        XCTAssertEqual(error.file, "bomb.graphql", file: file, line: line)
        XCTAssertFalse(error.description.contains("\n"), error.description, file: file, line: line)
        return error
    }

    private func compile(_ text: String) throws -> CompiledDocuments {
        try TestCompiler.compile("todo.graphql", text)
    }

    private func linkedField(_ responseKey: String, in selections: [Selection]) -> LinkedField? {
        for case .linkedField(let field) in selections where field.responseKey == responseKey { return field }
        return nil
    }

    // MARK: refused before parsing

    /// Brackets 1 and 2 open on lines 1 and 2; line 3 holds `friends { ` ten characters apiece, so
    /// the first bracket past the limit is number 127 there.
    private func assertDeepSelectionsRefused(_ depth: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let error = try refusal(CompilerBombs.deepSelections(depth), file: file, line: line)
        let onLine3 = DocumentLimits.nesting + 1 - 2
        XCTAssertEqual(error.line, 3, file: file, line: line)
        XCTAssertEqual(error.column, 9 + 10 * (onLine3 - 1), file: file, line: line)
        XCTAssertTrue(error.message.hasPrefix("Document nested too deeply"), error.message, file: file, line: line)
    }

    func testSelections3000DeepAreRefused() throws { try assertDeepSelectionsRefused(3_000) }

    func testSelections10000DeepAreRefused() throws { try assertDeepSelectionsRefused(10_000) }

    func testSelectionsAtTheLimitCompile() throws {
        // Two selection sets for the operation and `user`, the rest `friends`: exactly the limit.
        let compiled = try compile(CompilerBombs.deepSelections(DocumentLimits.nesting - 2))
        var selections = try XCTUnwrap(compiled.operations["Q"]).normalization
        var depth = 0
        while let field = linkedField(depth == 0 ? "user" : "friends", in: selections) {
            depth += 1
            selections = field.selections
        }
        XCTAssertEqual(depth, DocumentLimits.nesting - 1)
    }

    func testListLiteral56DeepIsRefusedAtTheFirstLiteralPastTheLimit() throws {
        let error = try refusal(CompilerBombs.deepList(56))
        XCTAssertEqual([error.line, error.column], [1, 20 + DocumentLimits.literalNesting])
        XCTAssertTrue(error.message.hasPrefix("List or object literal nested too deeply"), error.message)
    }

    func testListLiteral10000DeepIsRefused() throws {
        let error = try refusal(CompilerBombs.deepList(10_000))
        XCTAssertEqual([error.line, error.column], [1, 20 + DocumentLimits.literalNesting])
    }

    func testInputObject24DeepIsRefusedAtTheArgumentValue() throws {
        // Printed `{ a: … }` is wider than a line from 12 levels up: 13 wide literals nest.
        let error = try refusal(CompilerBombs.deepInputObject(24))
        XCTAssertEqual([error.line, error.column], [1, 20])
        XCTAssertTrue(error.message.hasPrefix("List or object literal too wide"), error.message)
    }

    func testWideLiteralsAtTheLimitGetValidationsOneLineMessage() throws {
        // Printed `{ a: … }` is wider than a line from 12 levels up, so with 11 + 4 levels the outer
        // 4 are. The wrong type makes
        // GraphQLSwift quote the literal, which it prints over several lines.
        let error = try refusal(CompilerBombs.deepInputObject(11 + DocumentLimits.wideLiteralNesting))
        XCTAssertEqual([error.line, error.column], [1, 20])
        XCTAssertFalse(error.message.hasPrefix("List or object literal"), error.message)
        XCTAssertTrue(error.message.contains("{ a: { a: "), error.message)
    }

    func testListLiteral40DeepIsRefusedInOneLine() throws {
        let error = try refusal(CompilerBombs.deepList(40))
        XCTAssertEqual(error.description.components(separatedBy: ": error: ").first, "bomb.graphql:1:52")
    }

    func testBracketsInStringsBlockStringsAndCommentsAreNotCounted() throws {
        let noise = String(repeating: "{[(", count: 200)
        let text =
            "# \(noise)\nquery Q {\n  user(id: \"\(noise) \\\" \(noise)\") { name }\n"
            + "  viewer { locale }\n  b: user(id: \"\"\"\n\(noise) \\\"\"\" \(noise)\n\"\"\") { name }\n}\n"
        let compiled = try compile(text)
        XCTAssertEqual(compiled.operations["Q"]?.reader.summary, ["user{}", "viewer{}", "b:user{}"])
    }

    // MARK: fragment spreads

    func testDoubleSpreads40LevelsCompileMerged() throws {
        let compiled = try compile(CompilerBombs.doubleSpreads(40))
        let user = try XCTUnwrap(compiled.operations["Q"]).normalization.linked("user")
        XCTAssertEqual(user.selections.summary, ["id"] + (0...40).map { "f\($0):name" })
        XCTAssertEqual(compiled.fragments["F0"]?.selections.summary, ["f0:name", "...F1"])
        XCTAssertEqual(compiled.fragments.count, 41)
    }

    func testDoublePathsPastTheSelectionLimitAreRefusedAtAFragment() throws {
        let text = CompilerBombs.doublePaths(24)
        let error = try refusal(text)
        XCTAssertTrue(error.message.contains("more than \(DocumentLimits.inlinedSelections) selections"), error.message)
        // At the definition of the fragment that grows past the limit (`F<i>` is on line i + 2).
        XCTAssertEqual(error.column, 1)
        XCTAssertTrue(error.message.hasPrefix("Fragment \"F\(error.line - 2)\""), error.message)
    }

    func testDoublePathsBelowTheLimitCompileEveryCopy() throws {
        let compiled = try compile(CompilerBombs.doublePaths(6))
        var count = 0
        func countNames(_ selections: [Selection]) {
            for selection in selections {
                if case .scalarField(let field) = selection, field.name == "name" { count += 1 }
                if case .linkedField(let field) = selection { countNames(field.selections) }
            }
        }
        countNames(try XCTUnwrap(compiled.operations["Q"]).normalization)
        XCTAssertEqual(count, (1 << 7) - 1)
    }

    func testSpreadChainPastTheLimitIsRefusedAtTheFirstSpreadPastIt() throws {
        let error = try refusal(CompilerBombs.spreadChain(150))
        // Spread number 101 is F99's, of F100, on line 101.
        XCTAssertEqual(error.line, DocumentLimits.spreadChain + 1)
        XCTAssertEqual(error.column, 22 + 2)
        XCTAssertTrue(error.message.contains("spread of F100 is number 101"), error.message)
    }

    func testSpreadChain10000LongIsRefused() throws {
        let error = try refusal(CompilerBombs.spreadChain(10_000))
        XCTAssertEqual(error.line, DocumentLimits.spreadChain + 1)
    }

    func testSpreadChainAtTheLimitCompiles() throws {
        // The operation's spread and 99 fragments' spreads: 100 in a chain.
        let compiled = try compile(CompilerBombs.spreadChain(DocumentLimits.spreadChain))
        let user = try XCTUnwrap(compiled.operations["Q"]).normalization.linked("user")
        XCTAssertEqual(user.selections.summary, ["id", "name"])
    }

    func testSelectionsTooDeepOnceInlinedAreRefusedAtASpread() throws {
        // 20 fragments of 60 levels each: 1,200 once inlined.
        let error = try refusal(CompilerBombs.deepChain(20, depth: 60))
        XCTAssertTrue(error.message.hasPrefix("Selections nested too deeply once fragments are inlined"), error.message)
        let spreadLine = error.line - 2
        XCTAssertTrue(error.message.hasSuffix("spread of F\(spreadLine + 1)."), error.message)
        XCTAssertEqual(error.column, 22 + String(spreadLine).count + 13 * 60)
    }

    func testSelectionsDeepOnceInlinedWithinTheLimitCompile() throws {
        let compiled = try compile(CompilerBombs.deepChain(10, depth: 60))
        var selections = try XCTUnwrap(compiled.operations["Q"]).normalization.linked("user").selections
        var depth = 0
        while let field = linkedField("bestFriend", in: selections) {
            depth += 1
            selections = field.selections
        }
        XCTAssertEqual(depth, 600)
        XCTAssertEqual(selections.summary, ["id", "name"])
    }

    func testSelectionsNestedJustBelowTheInlinedLimitCompileWithoutOverflowingTheStack() throws {
        // 10 fragments of 99 selection sets: 2 + 990 once inlined, the limit being 1,000.
        let compiled = try compile(CompilerBombs.deepChain(10, depth: 98))
        let operation = try XCTUnwrap(compiled.operations["Q"])
        XCTAssertEqual(operation.text.components(separatedBy: "bestFriend {").count - 1, 980)
    }

    // MARK: big documents, positions from the line index

    func testFourThousandAliasedFieldsCompile() throws {
        let compiled = try compile(CompilerBombs.aliasedFields(4_000))
        let user = try XCTUnwrap(compiled.operations["Q"]).normalization.linked("user")
        XCTAssertEqual(user.selections.count, 4_001)
        XCTAssertEqual(user.selections.summary.last, "f3999:name")
    }

    func testFourThousandAliasedFieldsReportAConflictAtItsLine() throws {
        let text = CompilerBombs.aliasedFields(4_000).replacingOccurrences(
            of: "} }\n", with: "  f0: email\n} }\n")
        let error = try refusal(text)
        XCTAssertEqual([error.line, error.column], [4_002, 3])
        XCTAssertTrue(error.message.contains("first one at bomb.graphql:2:3"), error.message)
    }

    func testFourThousandOperationsCompile() throws {
        let compiled = try compile(CompilerBombs.operations(4_000))
        XCTAssertEqual(compiled.operations.count, 4_000)
        XCTAssertEqual(compiled.operations["Q3999"]?.normalization.summary, ["viewer{}"])
    }

    func testColumnsCountCharactersOnLinesWithOtherScripts() throws {
        let text = "query Q { user(id: \"é€😀\") { name\n  naem } }\n# ü\nquery R { viewer { locale } nope: locale }\n"
        let error = try refusal(text)
        XCTAssertEqual([error.line, error.column], [2, 3])
        let later = try refusal("query R { user(id: \"é€😀\") { name } nope }\n")
        XCTAssertEqual([later.line, later.column], [1, 36])
    }
}
