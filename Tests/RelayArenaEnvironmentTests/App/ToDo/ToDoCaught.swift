// A list that renders around a failed row: `node @catch` makes each edge's node a
// `Caught<Node?>`, so a todo the server failed shows its error and the others render. The notes
// fragment is `@throwOnFieldError`, where `@semanticNonNull` fields (`notes`, `tags` and its items)
// are not optional, and catches `priority` and `owner` on its own.
import RelayArena

private let caughtList = graphql(
    """
    query ToDoCaughtListQuery {
      user(id: "me") {
        todos(first: 10) {
          edges {
            node @catch {
              id
              ...ToDoItem_todo
            }
          }
        }
      }
    }
    """)

private let notes = graphql(
    """
    fragment ToDoCaughtNotes_todo on Todo @throwOnFieldError {
      notes
      tags
      priority @catch
      owner @catch(to: NULL) {
        name
      }
      ... @alias(as: "status") @catch {
        complete
      }
    }
    """)

/// The rows: each todo's, or what the server said when it failed.
func caughtRows(_ snapshot: StoreSnapshot) -> [String] {
    let edges = snapshot.read(ToDoCaughtListQuery()).data?.user?.todos?.edges
    return edges?.compactMap { edge -> String? in
        switch edge?.node {
        case .success(let node?):
            return ToDoItem(todo: node.asFragment()).render(snapshot)
        case .failure(let errors):
            return "failed: " + (errors.serverMessages.first ?? errors.description)
        case .success(nil), nil:
            return nil
        }
    } ?? []
}

private let caughtRow = graphql(
    """
    fragment ToDoCaughtRow_todo on Todo @catch {
      text
      notes
    }
    """)

/// A row whose fragment catches for itself: its text and notes, or why not.
func caughtRow(_ snapshot: StoreSnapshot, _ todo: FragmentPointer<ToDoCaughtRow_todo>) -> String {
    switch snapshot.readCaught(ToDoCaughtRow_todo.self, todo) {
    case .success(let row?): row.text + " (" + row.notes + ")"
    case .success(nil): ""
    case .failure(let errors): "failed: " + (errors.serverMessages.first ?? errors.description)
    }
}

private let caughtNotes = graphql(
    """
    query ToDoCaughtNotesQuery {
      user(id: "me") {
        todos(first: 10) {
          edges {
            node {
              ...ToDoCaughtNotes_todo
              ...ToDoCaughtRow_todo
            }
          }
        }
      }
    }
    """)
