// The seeds' ChangeTodoStatusMutation with an optimistic response: the row is ticked at once.
import RelayArena

private let changeTodoStatus = graphql(
    """
    mutation ChangeTodoStatusMutation($input: ChangeTodoStatusInput!) {
      changeTodoStatus(input: $input) { todo { id complete } }
    }
    """)

/// Ticks a to-do (or unticks it): every model that reads it shows the change before the request
/// is sent; the server's answer replaces the guess, and an answer without the to-do (or a failed
/// request) rolls it back.
@MainActor
func setComplete(_ complete: Bool, todoID: String, userID: String, in environment: Environment) async throws {
    let todo: JSONValue = .object([JSONMember("id", .string(todoID)), JSONMember("complete", .bool(complete))])
    _ = try await environment.commitMutation(
        ChangeTodoStatusMutation(input: ChangeTodoStatusInput(complete: complete, id: todoID, userId: userID)),
        optimisticResponse: .object([JSONMember("changeTodoStatus", .object([JSONMember("todo", todo)]))]))
}
