// Shared helpers for the compiler tests: compile against the fixture schemas and describe
// selection lists compactly so expectations read like the GraphQL they come from.
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import XCTest

/// Thrown after XCTFail so a failed lookup stops the test without a second, misleading failure.
struct LookupFailure: Error {}

enum TestCompiler {
    static func make(_ fixture: String) throws -> Compiler {
        try Compiler(schema: GraphQLSourceFile(name: fixture, text: Fixtures.text(fixture)))
    }

    static func compile(_ fixture: String, _ documents: String...) throws -> CompiledDocuments {
        let files = documents.enumerated().map { GraphQLSourceFile(name: "doc\($0.offset).graphql", text: $0.element) }
        return try make(fixture).compile(files)
    }

    static func operation(_ fixture: String, _ name: String, _ documents: String...) throws -> OperationArtifact {
        let files = documents.enumerated().map { GraphQLSourceFile(name: "doc\($0.offset).graphql", text: $0.element) }
        let compiled = try make(fixture).compile(files)
        return try XCTUnwrap(compiled.operations[name], "no operation \(name)")
    }

    /// The error `compile` throws for these files (fails the test when it succeeds).
    static func error(
        _ fixture: String, _ files: [GraphQLSourceFile], file: StaticString = #filePath, line: UInt = #line
    ) throws -> CompilerError {
        do {
            _ = try make(fixture).compile(files)
        } catch let error as CompilerError {
            return error
        }
        XCTFail("expected a CompilerError", file: file, line: line)
        throw LookupFailure()
    }
}

extension Array where Element == Selection {
    /// One short string per selection: `name`, `alias:name`, `user{}`, `on T`, `on T [__isT]`,
    /// `if $v` / `unless $v`, `disc __isX`, `...F`, `alias: on T`.
    var summary: [String] {
        map { selection in
            switch selection {
            case .scalarField(let field): return (field.alias.map { "\($0):" } ?? "") + field.name
            case .linkedField(let field): return (field.alias.map { "\($0):" } ?? "") + field.name + "{}"
            case .inlineFragment(let fragment):
                return "on \(fragment.type)" + (fragment.abstractKey.map { " [\($0)]" } ?? "")
            case .condition(let condition): return (condition.passingValue ? "if $" : "unless $") + condition.variable
            case .typeDiscriminator(let key): return "disc \(key)"
            case .fragmentSpread(let spread): return "...\(spread.name)"
            case .aliasedInlineFragment(let alias): return "\(alias.name): on \(alias.type ?? "_")"
            }
        }
    }

    func linked(_ responseKey: String, file: StaticString = #filePath, line: UInt = #line) throws -> LinkedField {
        for case .linkedField(let field) in self where field.responseKey == responseKey { return field }
        XCTFail("no linked field \(responseKey) in \(summary)", file: file, line: line)
        throw LookupFailure()
    }

    func scalar(_ responseKey: String, file: StaticString = #filePath, line: UInt = #line) throws -> ScalarField {
        for case .scalarField(let field) in self where field.responseKey == responseKey { return field }
        XCTFail("no scalar field \(responseKey) in \(summary)", file: file, line: line)
        throw LookupFailure()
    }

    func inlineFragment(_ type: String, file: StaticString = #filePath, line: UInt = #line) throws -> InlineFragment {
        for case .inlineFragment(let fragment) in self where fragment.type == type { return fragment }
        XCTFail("no inline fragment on \(type) in \(summary)", file: file, line: line)
        throw LookupFailure()
    }

    func condition(_ variable: String, file: StaticString = #filePath, line: UInt = #line) throws -> Condition {
        for case .condition(let condition) in self where condition.variable == variable { return condition }
        XCTFail("no condition on $\(variable) in \(summary)", file: file, line: line)
        throw LookupFailure()
    }
}
