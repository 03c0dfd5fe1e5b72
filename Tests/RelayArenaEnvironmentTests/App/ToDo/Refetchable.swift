// @refetchable fragments on each kind of type relay synthesizes a refetch query for (reference §9):
// a type implementing Node (also ToDoRefetch.swift), the Node interface, the Query type and Viewer.
import RelayArena

/// On User with a fragment argument (a variable with its default) and a global variable
/// (`$withEmail`, declared by the refetch query with the type its use implies).
private let userRefetch = graphql(
    """
    fragment UserRefetch_user on User
      @refetchable(queryName: "UserRefetchQuery")
      @argumentDefinitions(count: {type: "Int", defaultValue: 2}) {
      id
      name
      email @include(if: $withEmail)
      todos(first: $count) {
        edges {
          node {
            id
            ...ToDoItem_todo
          }
        }
      }
    }
    """)

/// On the Node interface itself.
private let nodeRefetch = graphql(
    """
    fragment NodeRefetch_node on Node @refetchable(queryName: "NodeRefetchQuery") {
      __typename
    }
    """)

/// On the query type: `query QueryRefetchQuery { ...QueryRefetch_query }`.
private let queryRefetch = graphql(
    """
    fragment QueryRefetch_query on Query @refetchable(queryName: "QueryRefetchQuery") {
      viewer {
        unreadCount
      }
    }
    """)

/// On Viewer: `query ViewerRefetchQuery { viewer { ...ViewerRefetch_viewer } }`.
private let viewerRefetch = graphql(
    """
    fragment ViewerRefetch_viewer on Viewer @refetchable(queryName: "ViewerRefetchQuery") {
      unreadCount
      locale
    }
    """)
