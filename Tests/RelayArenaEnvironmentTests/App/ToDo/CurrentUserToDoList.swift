// The seeds' screen: a query spreads the list's fragment on the current user and renders the
// list through the pointer; the preview query feeds the item view from a canned payload.
import RelayArena

private let query = graphql(
    """
    query CurrentUserToDoListQuery {
      user(id: "me") {
        id
        ...ToDoList_user
      }
    }
    """)

private let previewQuery = graphql(
    """
    query ToDoItemPreviewQuery {
      user(id: "me") {
        todos(first: 3) {
          edges {
            node {
              id
              ...ToDoItem_todo
            }
          }
        }
      }
    }
    """)

struct CurrentUserToDoList {
    /// The screen as text: a title, then one line per item.
    func render(_ snapshot: StoreSnapshot) -> [String] {
        guard let user = snapshot.read(CurrentUserToDoListQuery()).data?.user else { return ["Loading..."] }
        let list = ToDoList(user: user.asFragment())
        return ["To-do List for \(user.id)"] + list.rows(snapshot).compactMap { $0.render(snapshot) }
    }
}
