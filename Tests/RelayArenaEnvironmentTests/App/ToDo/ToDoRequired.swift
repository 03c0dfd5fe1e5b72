// Rows that cannot render without their text: `text @required` makes the property a `String`, not a
// `String?`. In the list a todo whose text is null reads as a nil node (relay nulls the nearest
// nullable parent) and the others render; the row fragment, `@required(action: THROW)`, makes a
// checked read throw relay's error for it.
import RelayArena

private let requiredList = graphql(
    """
    query ToDoRequiredListQuery {
      user(id: "me") {
        todos(first: 10) {
          edges {
            node {
              id
              text @required(action: LOG)
              ...ToDoRequiredRow_todo
            }
          }
        }
      }
    }
    """)

private let requiredRow = graphql(
    """
    fragment ToDoRequiredRow_todo on Todo {
      text @required(action: THROW)
      complete
    }
    """)

/// The list's texts: a todo without one is left out.
func requiredTexts(_ snapshot: StoreSnapshot) -> [String] {
    let edges = snapshot.read(ToDoRequiredListQuery()).data?.user?.todos?.edges
    return edges?.compactMap { $0?.node?.text } ?? []
}

/// One row, or relay's error for it.
func requiredRow(_ snapshot: StoreSnapshot, _ todo: FragmentPointer<ToDoRequiredRow_todo>) -> String {
    do {
        guard let row = try snapshot.readChecked(ToDoRequiredRow_todo.self, todo).data else { return "" }
        return (row.complete ? "[x] " : "[ ] ") + row.text
    } catch {
        return "failed: \(error)"
    }
}

private let requiredEdges = graphql(
    """
    query ToDoRequiredEdgesQuery {
      user(id: "me") {
        todos(first: 10) {
          edges {
            node @required(action: NONE) {
              id
              text @required(action: NONE)
            }
          }
        }
      }
    }
    """)
