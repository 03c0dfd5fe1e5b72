// The seeds' AddTodoMutation, declaratively: the new edge is appended to the connections named
// by their `__id`, so the list shows the row without an updater.
import RelayArena

private let addTodo = graphql(
    """
    mutation AddTodoMutation($input: AddTodoInput!, $connections: [ID!]!) {
      addTodo(input: $input) {
        todoEdge @appendEdge(connections: $connections) { cursor node { id text complete } }
      }
    }
    """)

/// Adds a to-do at the end of `list` (and of any other connection passed in `connections`).
@MainActor
func addTodo(_ text: String, userID: String, to list: ToDoPagedList, in environment: Environment) async throws {
    guard let connection = list.connectionID else { return }
    let input = AddTodoInput(text: text, userId: userID)  // generated from the schema's input type
    _ = try await environment.commitMutation(AddTodoMutation(input: input, connections: [connection]))
}
