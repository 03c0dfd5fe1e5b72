// Compile errors carry the file, line and column of the offending node, also when the documents
// are validated together and the error sits in the second file.
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import XCTest

final class CompilerErrorTests: XCTestCase {
    private func file(_ name: String, _ text: String) -> GraphQLSourceFile { GraphQLSourceFile(name: name, text: text) }

    func testDescriptionFormat() {
        let error = CompilerError(file: "a.graphql", line: 3, column: 7, message: "Boom.")
        XCTAssertEqual(error.description, "a.graphql:3:7: error: Boom.")
    }

    func testSyntaxError() throws {
        let error = try TestCompiler.error(
            "todo.graphql",
            [
                file("ok.graphql", "query A { viewer { locale } }"),
                file("bad.graphql", "query Q {\n  user(id: \"me\") { name ) }\n}\n"),
            ])
        XCTAssertEqual(error.file, "bad.graphql")
        XCTAssertEqual(error.line, 2)
        XCTAssertEqual(error.column, 25)
        XCTAssertTrue(error.message.hasPrefix("Syntax Error: "), error.message)
        XCTAssertFalse(error.message.contains("\n"), error.message)
    }

    func testUnknownFieldInSecondFile() throws {
        let error = try TestCompiler.error(
            "todo.graphql",
            [
                file("query.graphql", "query Q {\n  user(id: \"me\") { ...UserBits }\n}\n"),
                file("fragments.graphql", "# bits\nfragment UserBits on User {\n  name\n    nope\n}\n"),
            ])
        XCTAssertEqual(
            error.description,
            #"fragments.graphql:4:5: error: Cannot query field "nope" on type "User". Did you mean "name"?"#)
    }

    func testUnknownFragment() throws {
        let error = try TestCompiler.error(
            "todo.graphql",
            [
                file("a.graphql", "fragment UserName on User { name }"),
                file("b.graphql", "query Q {\n  user(id: \"me\") {\n    ...UserName\n    ...Missing\n  }\n}\n"),
            ])
        XCTAssertEqual(error.file, "b.graphql")
        XCTAssertEqual(error.line, 4)
        XCTAssertEqual(error.column, 8, "GraphQL reports the fragment name, after the `...`")
        XCTAssertEqual(error.message, #"Unknown fragment "Missing"."#)
    }

    func testSpreadOnImpossibleType() throws {
        let error = try TestCompiler.error(
            "todo.graphql",
            [
                file("frag.graphql", "fragment TodoText on Todo { text }"),
                file("q.graphql", "query Q {\n  user(id: \"me\") { ...TodoText }\n}\n"),
            ])
        XCTAssertEqual(error.file, "q.graphql")
        XCTAssertEqual(error.line, 2)
        XCTAssertEqual(error.column, 20)
        XCTAssertTrue(error.message.contains(#"Fragment "TodoText" cannot be spread here"#), error.message)
    }

    func testDuplicateFragmentNamesAcrossFiles() throws {
        let error = try TestCompiler.error(
            "todo.graphql",
            [
                file("one.graphql", "fragment UserName on User { name }"),
                file("two.graphql", "\n\nfragment UserName on User { email }"),
            ])
        XCTAssertEqual(error.file, "two.graphql")
        XCTAssertEqual(error.line, 3)
        XCTAssertEqual(error.column, 10)
        XCTAssertEqual(
            error.message, #"There can be only one fragment named "UserName" (also defined at one.graphql:1:10)."#)
    }

    func testDuplicateOperationNamesAndAnonymousOperations() throws {
        let duplicate = try TestCompiler.error(
            "todo.graphql",
            [
                file("one.graphql", "query Q { viewer { locale } }"),
                file("two.graphql", "query Q { viewer { unreadCount } }"),
            ])
        XCTAssertEqual(duplicate.file, "two.graphql")
        XCTAssertTrue(duplicate.message.hasPrefix(#"There can be only one operation named "Q""#), duplicate.message)

        let anonymous = try TestCompiler.error("todo.graphql", [file("anon.graphql", "{ viewer { locale } }")])
        XCTAssertEqual(anonymous.description, "anon.graphql:1:1: error: Operations must be named.")
    }

    func testVariableErrorsStillReported() throws {
        let undefined = try TestCompiler.error(
            "todo.graphql", [file("v.graphql", "query Q {\n  user(id: $who) { name }\n}")])
        XCTAssertEqual(undefined.line, 2)
        XCTAssertEqual(undefined.column, 12)
        XCTAssertTrue(undefined.message.contains("$who"), undefined.message)

        let unused = try TestCompiler.error(
            "todo.graphql", [file("u.graphql", "query Q($x: Int) { viewer { locale } }")])
        XCTAssertEqual(unused.column, 9)
        XCTAssertTrue(unused.message.contains("never used"), unused.message)
    }

    func testConflictingFieldsUnderOneResponseKey() throws {
        let error = try TestCompiler.error(
            "todo.graphql",
            [
                file("q.graphql", "query Q {\n  user(id: \"a\") { name }\n  ...More\n}"),
                file("f.graphql", "fragment More on Query {\n  user(id: \"b\") { email }\n}"),
            ])
        XCTAssertEqual(error.file, "f.graphql")
        XCTAssertEqual(error.line, 2)
        XCTAssertEqual(error.column, 3)
        XCTAssertTrue(
            error.message.hasPrefix(#"Fields "user" conflict: user(id: "a") and user(id: "b")"#), error.message)

        let aliasOverID = try TestCompiler.error(
            "todo.graphql", [file("q.graphql", "query Q { user(id: \"a\") { id: name } }")])
        XCTAssertTrue(aliasOverID.message.hasPrefix(#"Fields "id" conflict"#), aliasOverID.message)

        // Different object types never answer the same object: the same key may mean different fields.
        XCTAssertNoThrow(
            try TestCompiler.compile(
                "starwars.graphql",
                """
                query Ok { hero { ... on Human { x: homePlanet } ... on Droid { x: primaryFunction } } }
                """))
    }

    func testSchemaErrors() throws {
        do {
            _ = try Compiler(schema: GraphQLSourceFile(name: "s.graphql", text: "type Query {\n  a: Int\n  b: \n}\n"))
            XCTFail("expected an SDL syntax error")
        } catch let error as CompilerError {
            XCTAssertEqual(error.file, "s.graphql")
            XCTAssertEqual(error.line, 4)
            XCTAssertTrue(error.message.hasPrefix("Syntax Error"), error.message)
        }
        do {
            _ = try Compiler(schema: GraphQLSourceFile(name: "s.graphql", text: "type Query {\n  a: Missing\n}\n"))
            XCTFail("expected an unknown type error")
        } catch let error as CompilerError {
            XCTAssertEqual(error.file, "s.graphql")
            XCTAssertEqual(error.line, 2)
            XCTAssertEqual(error.column, 6)
            XCTAssertTrue(error.message.contains("Missing"), error.message)
        }
    }

    /// A name defined twice is reported where the second definition is written (GraphQLSwift's
    /// schema builder gives no position for these).
    func testDuplicateSchemaDefinitionsPointAtTheSecondOne() throws {
        func position(_ sdl: String) throws -> String {
            do {
                _ = try Compiler(schema: GraphQLSourceFile(name: "s.graphql", text: sdl))
            } catch let error as CompilerError {
                return "\(error.file):\(error.line):\(error.column): \(error.message)"
            }
            XCTFail("expected a schema error")
            return ""
        }
        XCTAssertEqual(
            try position("type Query {\n  a: Int\n  b: String\n  a: Int\n}\n"),
            #"s.graphql:4:3: Field "Query.a" can only be defined once."#)
        XCTAssertEqual(
            try position("type Query { a: Int }\ntype T { x: Int }\n# T again\ntype T { y: Int }\n"),
            #"s.graphql:4:6: There can be only one type named "T"."#)
        XCTAssertEqual(
            try position("type Query { a: Int }\nenum E { A B A }\n"),
            #"s.graphql:2:14: Enum value "E.A" can only be defined once."#)
        // A field's type named like the field does not count as a second definition.
        XCTAssertEqual(
            try position("type a { x: Int }\ntype Query {\n  a: a\n  b: Int\n  a: Int\n}\n"),
            #"s.graphql:5:3: Field "Query.a" can only be defined once."#)
    }
}
