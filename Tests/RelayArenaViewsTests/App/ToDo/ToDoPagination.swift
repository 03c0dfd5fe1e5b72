// The seeds' list as a pagination fragment: the user's to-dos, a page of `count` after `cursor`.
import RelayArena

private let list = graphql(
    """
    fragment ToDoPagination_user on User
      @refetchable(queryName: "ToDoPaginationQuery")
      @argumentDefinitions(count: {type: "Int", defaultValue: 100}, cursor: {type: "String"}) {
      todos(first: $count, after: $cursor) @connection(key: "ToDoPagination_todos") {
        edges { node { id text complete } }
      }
    }
    """)

private let query = graphql(
    """
    query ToDoPaginationListQuery { user(id: "me") { ...ToDoPagination_user } }
    """)
