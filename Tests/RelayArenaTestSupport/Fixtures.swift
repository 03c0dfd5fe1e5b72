// Test helpers shared by the test targets: fixture lookup. The to-do schema and query live once,
// as RelayArenaWorkloads' resources; the other fixtures are this target's.
import Foundation
import RelayArenaWorkloads

public enum Fixtures {
    public static func url(_ name: String) -> URL {
        if let shared = TodoListDocuments.url(ifPresent: name) { return shared }
        return Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures")!
    }
    public static func text(_ name: String) throws -> String {
        try String(contentsOf: url(name), encoding: .utf8)
    }
}
