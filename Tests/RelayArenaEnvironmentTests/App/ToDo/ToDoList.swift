// The seeds' ToDoList view: it asks only for each item's id and spreads the item's fragment, so it
// can pass pointers down but cannot read `text` or `complete` itself.
import RelayArena

private let userFragment = graphql(
    """
    fragment ToDoList_user on User {
      todos(first: 100) {
        edges {
          node {
            id
            ...ToDoItem_todo
          }
        }
      }
    }
    """)

struct ToDoList {
    let user: FragmentPointer<ToDoList_user>

    /// The rows of the list: each child view reads its own data through its pointer.
    func rows(_ snapshot: StoreSnapshot) -> [ToDoItem] {
        guard let user = snapshot.read(ToDoList_user.self, user).data, let edges = user.todos?.edges else { return [] }
        return edges.compactMap { edge in edge?.node.map { ToDoItem(todo: $0.asFragment()) } }
    }

    func ids(_ snapshot: StoreSnapshot) -> [String] {
        guard let user = snapshot.read(ToDoList_user.self, user).data, let edges = user.todos?.edges else { return [] }
        return edges.compactMap { $0?.node?.id }
    }
}
