// The README's usage example, compiled and run; two more tests check that the README and the DocC
// catalog's Getting started article show exactly this code (between the README markers), so
// neither can drift from it.
import Foundation
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import XCTest

final class ReadmeExampleTests: XCTestCase {
    func testUsageExample() throws {
        let schemaText = try Fixtures.text("todo.graphql")
        let responseChunks: [[UInt8]] = [
            Array(#"{"data":{"user":{"id":"VXNlcjptZQ==","todos":{"edges":[{"node":{"id":"VG9kbzow","te"#.utf8),
            Array(
                #"xt":"Buy milk","complete":false}},{"node":{"id":"VG9kbzox","text":"Walk","complete":true}}]}}}}"#.utf8
            ),
        ]
        var printed: [String] = []
        func print(_ s: String) { printed.append(s) }

        // README:begin
        let compiler = try Compiler(schema: GraphQLSourceFile(name: "todo.graphql", text: schemaText))
        let documents = try compiler.compile([
            GraphQLSourceFile(
                name: "TodoList.graphql",
                text: """
                    query TodoListQuery($first: Int!) {
                      user(id: "me") { todos(first: $first) { edges { node { ...TodoItem_todo } } } }
                    }
                    fragment TodoItem_todo on Todo { text complete }
                    """)
        ])
        let query = documents.operations["TodoListQuery"]!
        let plan = try NormalizationPlan(operation: query, variables: ["first": .int(2)])

        let store = RecordStore()  // holds client:root
        let normalizer = try ResponseNormalizer(plan: plan)
        for chunk in responseChunks {  // bytes as they arrive, split anywhere
            try normalizer.feed(chunk)
        }
        let updated = try store.publish(try normalizer.finish())
        print("updated \(updated.count) records")  // new or changed data IDs

        // The query's own view is masked: each node is a pointer to TodoItem_todo.
        let list = store.read(operation: query, variables: ["first": .int(2)])
        let node = list.data?["user"]?["todos"]?["edges"].flatMap { edges -> ReadValue? in
            if case .array(let items) = edges { return items.first?["node"] } else { return nil }
        }
        print(node!.jsonText)  // {"__id":"VG9kbzow","__fragments":{"TodoItem_todo":{}},"__fragmentOwner":{...}}

        // The item view reads its own fields through the pointer's __id.
        let item = store.read(fragment: documents.fragments["TodoItem_todo"]!, dataID: "VG9kbzow")
        print(item.data!.jsonText)  // {"text":"Buy milk","complete":false}

        // Zero-copy: look a field up in the arena; the text is borrowed until you ask for a String.
        store.withSnapshot { snapshot in
            if case .record(let todo) = snapshot.record("VG9kbzox"),
                case .string(let text)? = snapshot.field(todo, "text")
            {
                print(text.string)  // Walk
            }
        }
        // README:end

        XCTAssertEqual(printed.count, 4)
        XCTAssertEqual(printed[0], "updated 7 records")  // root, user, connection, 2 edges, 2 todos
        XCTAssertEqual(
            printed[1],
            #"{"__id":"VG9kbzow","__fragments":{"TodoItem_todo":{}},"__fragmentOwner":{"name":"TodoListQuery","variables":{"first":2}}}"#
        )
        XCTAssertEqual(printed[2], #"{"text":"Buy milk","complete":false}"#)
        XCTAssertEqual(printed[3], "Walk")
        XCTAssertFalse(list.isMissingData)
        XCTAssertTrue(list.seenRecords.contains("VG9kbzox"))
    }

    func testReadmeShowsThisExample() throws {
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        let body = try testedExample()
        XCTAssertTrue(readme.contains(body), "README.md must contain the usage example exactly as tested:\n\(body)")
    }

    func testGettingStartedArticleShowsThisExample() throws {
        let article = try String(
            contentsOf: repository.appendingPathComponent("Sources/RelayArena/RelayArena.docc/GettingStarted.md"),
            encoding: .utf8)
        let body = try testedExample()
        XCTAssertTrue(
            article.contains(body), "GettingStarted.md must contain the usage example exactly as tested:\n\(body)")
    }

    /// The repository's root: this file is Tests/RelayArenaTests/ReadmeExampleTests.swift.
    private var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// The code between this file's README markers, as the documents show it (unindented).
    private func testedExample() throws -> String {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let begin = try XCTUnwrap(source.range(of: "// README:begin\n"), "markers missing")
        let end = try XCTUnwrap(
            source.range(of: "        // README:end", range: begin.upperBound..<source.endIndex), "markers missing")
        return source[begin.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }.joined(separator: "\n")
    }
}
