// A detail query exercising what the seeds' app does not: variables (typed), a storage key from a
// variable, @include, enums, scalar lists, a custom scalar, non-null and nullable plural fields.
import RelayArena

private let detailsQuery = graphql(
    """
    query ToDoDetailsQuery($id: String, $count: Int, $withNotes: Boolean!) {
      user(id: $id) {
        id
        name
        nicknames
        luckyNumbers
        avatar(size: 64) {
          url
          format
        }
        todos(first: $count) {
          edges {
            cursor
            node {
              id
              text
              notes @include(if: $withNotes)
              tags
              meta
              priority
              estimateHours
            }
          }
          pageInfo {
            hasNextPage
          }
        }
      }
    }
    """)
