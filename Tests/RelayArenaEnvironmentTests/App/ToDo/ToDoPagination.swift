// The seeds' list as a pagination fragment: the user's to-dos, a page at a time.
import RelayArena

private let list = graphql(
    """
    fragment ToDoPagination_user on User
      @refetchable(queryName: "ToDoPaginationQuery")
      @argumentDefinitions(count: {type: "Int", defaultValue: 100}, cursor: {type: "String"}) {
      todos(first: $count, after: $cursor) @connection(key: "ToDoPagination_todos") {
        __id
        edges { node { id text complete } }
      }
    }
    """)

private let query = graphql(
    """
    query ToDoPaginationListQuery { user(id: "me") { ...ToDoPagination_user } }
    """)

/// The list's rows, 100 at first and 100 more each time the last row shows.
@MainActor
final class ToDoPagedList {
    let model: PaginationFragmentModel<ToDoPagination_user>

    init(environment: Environment, user: FragmentPointer<ToDoPagination_user>) {
        model = PaginationFragmentModel(environment: environment, pointer: user)
    }

    /// The rows' texts, from the fragment's typed view.
    var texts: [String] {
        model.refetchable.fragment.withData { user -> [String] in
            guard let edges = user.todos?.edges else { return [] }
            return edges.compactMap { $0?.node?.text }
        } ?? []
    }

    /// The list's connection record (relay's `__id`), which mutations name in `connections:`.
    var connectionID: String? {
        model.refetchable.fragment.withData { user in user.todos?.__id } ?? nil
    }

    /// The last row showed: the next page, unless one is loading or there is none.
    func reachedEnd() async throws {
        if model.hasNext { try await model.loadNext(100) }
    }
}
