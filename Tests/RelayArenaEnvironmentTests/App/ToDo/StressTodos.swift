// The list the concurrency stress test reads through typed views while a writer refetches it.
import RelayArena

private let stressTodosQuery = graphql(
    """
    query StressTodosQuery($first: Int!) {
      user(id: "me") {
        todos(first: $first) {
          edges {
            node {
              id
              text
              complete
            }
          }
        }
      }
    }
    """)
