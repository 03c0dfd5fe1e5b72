// Masking is enforced by the Swift compiler: code reading `text` from the list's view, or asking it
// for a pointer to a fragment it does not spread, does not type-check; reading `id` does.
import Foundation
import XCTest

final class MaskingCompileTests: XCTestCase {
    func testReadingIDAndPassingThePointerCompiles() throws {
        let result = try typecheck(
            """
            import RelayArena
            func row(_ node: ToDoList_user.Data.Todos.Edges.Node) -> (String, FragmentPointer<ToDoItem_todo>) {
                (node.id, node.asFragment())
            }
            """)
        XCTAssertEqual(result.status, 0, result.output)
    }

    func testReadingTextFromTheListViewDoesNotCompile() throws {
        let result = try typecheck(
            """
            import RelayArena
            func leak(_ node: ToDoList_user.Data.Todos.Edges.Node) -> String { node.text }
            """)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("has no member 'text'"), result.output)
    }

    func testPointerToAFragmentNotSpreadDoesNotCompile() throws {
        let result = try typecheck(
            """
            import RelayArena
            func wrong(_ node: ToDoList_user.Data.Todos.Edges.Node) -> FragmentPointer<ToDoList_user> { node.asFragment() }
            """)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("asFragment"), result.output)
    }

    func testFragmentsByNameCompilesForASpreadFragment() throws {
        let result = try typecheck(
            """
            import RelayArena
            func row(_ node: ToDoList_user.Data.Todos.Edges.Node) -> FragmentPointer<ToDoItem_todo> { node.fragments.toDoItem_todo }
            """)
        XCTAssertEqual(result.status, 0, result.output)
    }

    func testFragmentsByNameForAFragmentNotSpreadDoesNotCompile() throws {
        let result = try typecheck(
            """
            import RelayArena
            func wrong(_ node: ToDoList_user.Data.Todos.Edges.Node) -> FragmentPointer<ToDoList_user> { node.fragments.toDoList_user }
            """)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("has no member 'toDoList_user'"), result.output)
    }

    func testFragmentsByNameStaysMasked() throws {
        let result = try typecheck(
            """
            import RelayArena
            func leak(_ node: ToDoList_user.Data.Todos.Edges.Node) -> String { node.fragments.toDoItem_todo.text }
            """)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("has no member 'text'"), result.output)
    }

    func testInlineDataFieldsStayMaskedOnTheParent() throws {
        // An `@inline` spread's fields are read only through `readInlineData(F.self)`.
        let masked = try typecheck(
            """
            import RelayArena
            func leak(_ user: InlineDataUserQuery.Data.User) -> String? { user.email }
            """)
        XCTAssertNotEqual(masked.status, 0)
        XCTAssertTrue(masked.output.contains("has no member 'email'"), masked.output)
        let inline = try typecheck(
            """
            import RelayArena
            func email(_ user: InlineDataUserQuery.Data.User) -> String? { user.summary?.email }
            """)
        XCTAssertEqual(inline.status, 0, inline.output)
    }

    func testGeneratedCodesLookupsAreNotAPIOfAUsersFile() throws {
        // Generated files import RelayArena with its `Generated` SPI; a user's file does not, so
        // the field lookups the views are made of are out of its reach (SPI is per importing file).
        let lookup = try typecheck(
            """
            import RelayArena
            func peek(_ todo: ToDoItem_todo.Data) -> String? { todo.__view.string(FieldKey(0, "text")) }
            """)
        XCTAssertNotEqual(lookup.status, 0)
        XCTAssertTrue(lookup.output.contains("FieldKey"), lookup.output)
        let spi = try typecheck(
            """
            @_spi(Generated) import RelayArena
            func peek(_ todo: ToDoItem_todo.Data) -> String? { todo.__view.string(FieldKey(0, "text")) }
            """)
        XCTAssertEqual(spi.status, 0, spi.output)
    }

    private func typecheck(_ snippet: String) throws -> (status: Int32, output: String) {
        try Self.typecheck(snippet, with: ViewSources.swiftFiles("Generated/ToDo"))
    }

    /// `swiftc -typecheck` of the snippet with `generated` (the committed to-do files by default)
    /// against the built RelayArena module (the products directory this test bundle was built into).
    static func typecheck(_ snippet: String, with generated: [URL]) throws -> (status: Int32, output: String) {
        let swiftc = try XCTUnwrap(Self.swiftc(), "no swiftc next to the toolchain or on PATH")
        let modules = try XCTUnwrap(Self.modulesDirectory(), "no RelayArena.swiftmodule in the products directory")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("masking-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let snippetURL = dir.appendingPathComponent("Snippet.swift")
        try snippet.write(to: snippetURL, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = swiftc
        process.arguments =
            ["-typecheck", "-swift-version", "6", "-module-name", "MaskingProbe", "-I", modules.path]
            + Self.cModuleIncludes(modules) + generated.map(\.path) + [snippetURL.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    static func swiftc() -> URL? {
        var candidates = ["/opt/swift/usr/bin/swiftc"]
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            candidates.append(String(dir) + "/swiftc")
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map { URL(fileURLWithPath: $0) }
    }

    /// The products directory holds `Modules/` (SwiftPM 6) or the `.swiftmodule`s themselves.
    static func modulesDirectory() -> URL? {
        var dir = Bundle.main.bundleURL
        for _ in 0..<3 {
            for candidate in [dir.appendingPathComponent("Modules"), dir]
            where FileManager.default.fileExists(
                atPath: candidate.appendingPathComponent("RelayArena.swiftmodule").path)
            {
                return candidate
            }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }

    /// RelayArena imports the C core `internal`ly, yet loading its module still needs the C
    /// module: the module map SwiftPM wrote into the products directory, and the headers.
    static func cModuleIncludes(_ modules: URL) -> [String] {
        let products = modules.lastPathComponent == "Modules" ? modules.deletingLastPathComponent() : modules
        let include = ViewSources.root.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("CSources/CRelayArena/include")
        let map = products.appendingPathComponent("CRelayArena.build/module.modulemap")
        return ["-Xcc", "-fmodule-map-file=" + map.path, "-Xcc", "-I" + include.path]
    }
}
