// What the command-line tests over the to-do schema and list query share: a fresh directory per
// test (removed after it), the two fixtures' paths, and files written into the directory.
import Foundation
import RelayArenaTestSupport
import XCTest

class CLITestCase: XCTestCase {
    var dir: URL!
    var schema: String!
    var query: String!

    override func setUpWithError() throws {
        dir = try CLI.tempDir()
        schema = Fixtures.url("todo.graphql").path
        query = Fixtures.url("todo-list-query.graphql").path
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// The path of `name` in the test's directory.
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// Writes `bytes` to `name` in the test's directory; its path.
    func write(_ name: String, _ bytes: some Collection<UInt8>) throws -> String {
        let p = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: p))
        return p
    }
}
