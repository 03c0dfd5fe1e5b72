// A row's selection, which only the app knows: `isSelected` is a client schema extension field of
// `Todo` (todo-client.graphql), read with the server's fields and written by a local update.
import RelayArena

private let selectionQuery = graphql(
    """
    query ToDoSelectionListQuery {
      user(id: "me") { id todos(first: 10) { edges { node { id ...ToDoSelection_todo } } } }
    }
    """)

private let selectionFragment = graphql(
    """
    fragment ToDoSelection_todo on Todo {
      text
      isSelected
    }
    """)

/// Renders a row with its selection mark, and selects or clears it.
@MainActor
struct ToDoSelection {
    let environment: Environment
    let todo: FragmentPointer<ToDoSelection_todo>

    /// `* Taste JavaScript` when selected; unset reads as not selected.
    func render() -> String? {
        environment.store.withSnapshot { snapshot in
            guard let todo = snapshot.read(ToDoSelection_todo.self, self.todo).data else { return nil }
            return (todo.isSelected == true ? "* " : "  ") + todo.text
        }
    }

    /// Sets `isSelected` on the row's record (relay's `commitLocalUpdate`); nothing is sent.
    func select(_ selected: Bool) throws {
        let id = todo.dataID
        try environment.commitLocalUpdate { store in store.get(id)?.setValue(.bool(selected), "isSelected") }
    }
}
