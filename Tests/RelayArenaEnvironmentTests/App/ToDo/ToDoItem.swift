// The seeds' ToDoItem view without SwiftUI: it declares the data it renders as a fragment and
// reads it through the pointer its parent passes down.
import RelayArena

private let todoFragment = graphql(
    """
    fragment ToDoItem_todo on Todo {
      text @required(action: THROW)
      complete
    }
    """)

/// Renders one row as text, e.g. `[x] Taste JavaScript`.
struct ToDoItem {
    let todo: FragmentPointer<ToDoItem_todo>

    /// `nil` when the item's record is not in the store (a view would render nothing).
    func render(_ snapshot: StoreSnapshot) -> String? {
        guard let todo = snapshot.read(ToDoItem_todo.self, todo).data else { return nil }
        return (todo.complete ? "[x] " : "[ ] ") + todo.text
    }
}
