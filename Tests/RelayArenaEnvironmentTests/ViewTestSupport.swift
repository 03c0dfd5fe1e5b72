// Shared by the view tests: stores built from the seeds' payloads through the generated
// operations' own plans, and paths to this target's sources (the generator's inputs).
import Foundation
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import XCTest

enum Payloads {
    /// The current user's list, as the seeds' CurrentUserToDoList screen would receive it.
    static let currentUser = #"""
        {"data":{"user":{"id":"me","todos":{"edges":[
          {"node":{"id":"VG9kbzow","text":"Taste JavaScript","complete":true}},
          {"node":{"id":"VG9kbzox","text":"Buy a unicorn","complete":false}}]}}}}
        """#

    /// The seeds' ToDoItemPreview.json (the preview query has no `id` on the user).
    static let preview = #"""
        {"data":{"user":{"todos":{"edges":[
          {"node":{"id":"VG9kbzow","text":"Taste JavaScript","complete":true}},
          {"node":{"id":"VG9kbzox","text":"Buy a unicorn","complete":false}}]}}}}
        """#
}

/// A new store holding `response` normalized with the operation's embedded artifact.
func store<O: GraphQLOperation>(_ operation: O, _ response: String) throws -> RecordStore {
    let store = RecordStore()
    try store.commit(response: Array(response.utf8), plan: operation.plan())
    return store
}

enum ViewSources {
    /// `Tests/RelayArenaEnvironmentTests`, found from this file so tests run from any directory.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    static func swiftFiles(_ relative: String) throws -> [URL] {
        let dir = root.appendingPathComponent(relative)
        return try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Runs the generator in-process exactly as `relay-arena generate --swift-sources App/<app>` does.
    /// The to-do app's client schema extensions (`isSelected`) are passed as `--client-schema`.
    static func generate(schema: String, app: String) throws -> [GeneratedFile] {
        let client = app == "ToDo" ? ["todo-client.graphql"] : []
        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: schema, text: try Fixtures.text(schema)),
            clientSchema: try client.map { GraphQLSourceFile(name: $0, text: try Fixtures.text($0)) })
        var documents: [GraphQLSourceFile] = []
        for url in try swiftFiles("App/" + app) {
            let source = GraphQLSourceFile(name: url.path, text: try String(contentsOf: url, encoding: .utf8))
            if let document = try SwiftSourceDocuments.extract(source) { documents.append(document) }
        }
        return try SwiftGenerator(compiler: compiler).generate(documents)
    }
}
