// A row view declaring its data as a fragment in a graphql("""…""") literal; the build-tool
// plugin generates `SampleRow_todo` (and `SampleQuery`) into the plugin work directory.
import RelayArena

private let rowFragment = graphql(
    """
    fragment SampleRow_todo on Todo {
      text
      complete
      isPinned
    }
    """)

struct SampleRow {
    let todo: FragmentPointer<SampleRow_todo>

    func render(_ snapshot: StoreSnapshot) -> String {
        guard let todo = snapshot.read(SampleRow_todo.self, todo).data else { return "(missing)" }
        // `isPinned` is client-only (client.graphql): unset here, so no pin, and no missing data.
        return (todo.complete ? "[x] " : "[ ] ") + todo.text + (todo.isPinned == true ? " (pinned)" : "")
    }
}
