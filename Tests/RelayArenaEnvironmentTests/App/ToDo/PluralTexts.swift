// A @relay(plural: true) fragment: the parent passes one pointer per item it spread the fragment
// on, and the child reads them all at once as a random-access collection of views.
import RelayArena

private let textsFragment = graphql(
    """
    fragment ToDoTexts_todos on Todo @relay(plural: true) {
      text
    }
    """)

private let textsQuery = graphql(
    """
    query ToDoTextsQuery {
      user(id: "me") {
        todos(first: 10) {
          edges {
            node {
              id
              ...ToDoTexts_todos
            }
          }
        }
      }
    }
    """)

/// All item texts through the plural fragment, `nil` for an item whose record is gone.
struct ToDoTexts {
    let todos: [FragmentPointer<ToDoTexts_todos>]

    func texts(_ snapshot: StoreSnapshot) -> (texts: [String?], isMissingData: Bool) {
        let (views, isMissingData) = snapshot.read(ToDoTexts_todos.self, todos)
        return (views.map { $0?.text }, isMissingData)
    }
}

struct ToDoTextsScreen {
    /// The parent: one pointer per item, then one read of the plural fragment.
    func texts(_ snapshot: StoreSnapshot) -> (texts: [String?], isMissingData: Bool) {
        guard let edges = snapshot.read(ToDoTextsQuery()).data?.user?.todos?.edges else { return ([], true) }
        return ToDoTexts(todos: edges.compactMap { $0?.node?.asFragment() }).texts(snapshot)
    }
}
