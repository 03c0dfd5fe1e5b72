// A row view declaring its data as a fragment in a graphql("""…""") literal; the build-tool
// plugin generates `SampleRow_todo` (and `SampleQuery`) into the plugin work directory.
import RelayArena

private let rowFragment = graphql(
    """
    fragment SampleRow_todo on Todo {
      text
      complete
    }
    """)

struct SampleRow {
    let todo: FragmentPointer<SampleRow_todo>

    func render(_ snapshot: StoreSnapshot) -> String {
        guard let todo = snapshot.read(SampleRow_todo.self, todo).data else { return "(missing)" }
        return (todo.complete ? "[x] " : "[ ] ") + todo.text
    }
}
