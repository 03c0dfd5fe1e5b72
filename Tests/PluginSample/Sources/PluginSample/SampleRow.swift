// A row view declaring its data as a fragment in a graphql("""…""") literal; the build-tool
// plugin generates `SampleRow_todo` (and `SampleQuery`) into the plugin work directory.
import RelayArena

private let rowFragment = graphql(
    """
    fragment SampleRow_todo on Todo {
      text
      complete
      isPinned
      due
    }
    """)

/// The app's own type for the schema's `DateTime` (relay-arena.json's `customScalars`); public,
/// as the generated views that return it are.
public struct Stamp: GraphQLCustomScalar {
    public var text: String
    public static let missingValue = Stamp(text: "")
    public var jsonValue: JSONValue { .string(text) }
    public static func _fromJSON(_ value: JSONValue) -> Stamp? {
        if case .string(let text) = value { return Stamp(text: text) }
        return nil
    }
}

struct SampleRow {
    let todo: FragmentPointer<SampleRow_todo>

    func render(_ snapshot: StoreSnapshot) -> String {
        guard let todo = snapshot.read(SampleRow_todo.self, todo).data else { return "(missing)" }
        // `isPinned` is client-only (client.graphql): unset here, so no pin, and no missing data.
        return (todo.complete ? "[x] " : "[ ] ") + todo.text + (todo.isPinned == true ? " (pinned)" : "")
            + (todo.due.map { " due \($0.text)" } ?? "")
    }
}
