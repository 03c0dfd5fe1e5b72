// An item that can refetch itself: @refetchable synthesizes `ToDoRefetchQuery` (`node(id: $id)`),
// and the fragment's type builds it from the pointer the item holds (`id` = the item's data ID).
import RelayArena

private let todoRefetch = graphql(
    """
    fragment ToDoRefetch_todo on Todo @refetchable(queryName: "ToDoRefetchQuery") {
      text
      complete
    }
    """)

struct RefetchableToDoItem {
    let todo: FragmentPointer<ToDoRefetch_todo>

    /// The query that refreshes this item; committing its response updates what `render` reads.
    var refetchQuery: ToDoRefetchQuery { ToDoRefetch_todo.refetchQuery(for: todo) }

    func render(_ snapshot: StoreSnapshot) -> String? {
        guard let todo = snapshot.read(ToDoRefetch_todo.self, todo).data else { return nil }
        return (todo.complete ? "[x] " : "[ ] ") + todo.text
    }
}
