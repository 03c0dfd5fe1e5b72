// A detail screen that resolves any ID: `node(id:)` may be a todo or a user, so the spread of the
// todo's row fragment and the user's fields are aliased (relay v19 requires it where a spread might
// not match), and each is an optional member that is `nil` for the other type.
import RelayArena

private let nodeQuery = graphql(
    """
    query ToDoNodeQuery($id: ID!) {
      node(id: $id) {
        ... @alias(as: "base") {
          id
        }
        ...ToDoItem_todo @alias(as: "todo")
        ... on User @alias(as: "owner") {
          name
        }
      }
    }
    """)

/// Renders whichever the ID names: a todo's row, or a user's name.
@MainActor
struct ToDoNodeScreen {
    let environment: Environment
    let id: String

    func render() -> String? {
        environment.store.withSnapshot { snapshot in
            guard let node = snapshot.read(ToDoNodeQuery(id: id)).data?.node else { return nil }
            if let todo = node.todo, let row = snapshot.read(ToDoItem_todo.self, todo).data {
                return "todo \(node.base.id): \(row.text)"
            }
            if let owner = node.owner { return "user \(node.base.id): \(owner.name ?? "")" }
            return "\(node.base.id): nothing to show"
        }
    }
}
