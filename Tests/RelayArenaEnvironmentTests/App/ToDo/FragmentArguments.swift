// A fragment with typed arguments of several kinds: a non-null one with a default, a nullable one
// with a default and one without. The generator gives it `ToDoArguments_user.Arguments`.
import RelayArena

private let argumentsFragment = graphql(
    """
    fragment ToDoArguments_user on User
      @argumentDefinitions(
        count: {type: "Int!", defaultValue: 2}
        status: {type: "String", defaultValue: "any"}
        after: {type: "String"}
      ) {
      todos(first: $count, status: $status, after: $after) {
        edges {
          node {
            id
          }
        }
      }
    }
    """)
