// A `@connection` paged forward, for the page-merge figure: a first page of N to-dos, then pages
// of 100 after its end cursor, each merged into the client connection by the connection handler
// inside publish (what `loadNext(100)` writes), on an environment with no subscriber, so that what
// is timed is the merge and not a model's re-read of every edge.
import Foundation
import RelayArena

public enum PagingWorkload {
    /// The page query: the list's connection, keyed, paged forward.
    public static let query = """
        query PagingQuery($count: Int!, $cursor: String) {
          user(id: "me") {
            id
            todos(first: $count, after: $cursor) @connection(key: "Paging_todos") {
              edges { node { id text complete } }
            }
          }
        }
        """

    /// PagingQuery compiled against the to-do schema.
    public static func operation() throws -> OperationArtifact {
        try TodoListDocuments.operation("PagingQuery", in: query, file: "paging.graphql")
    }

    /// The cursor of the to-do at `index`.
    public static func cursor(_ index: Int) -> String { "c\(index)" }

    /// The server's answer for `count` to-dos from `start`: `hasNextPage` true.
    public static func page(start: Int, count: Int) -> [UInt8] {
        var out = #"{"data":{"user":{"id":""# + TodoListWorkload.userID + #"","todos":{"edges":["#
        out.reserveCapacity(count * 120 + 256)
        for i in start..<(start + count) {
            if i > start { out += "," }
            out += #"{"cursor":""# + cursor(i) + #"","node":{"__typename":"Todo","id":"T"# + String(i)
            out += #"","text":"todo "# + String(i) + #"","complete":"# + (i % 3 == 0 ? "true" : "false") + "}}"
        }
        out += #"],"pageInfo":{"hasNextPage":true,"hasPreviousPage":false,"startCursor":""#
        out += cursor(start) + #"","endCursor":""# + cursor(start + count - 1) + #""}}}}}"#
        return Array(out.utf8)
    }

    /// The page query's variables for `count` after the to-do at `after` (none: the first page).
    public static func variables(count: Int, after: Int?) -> Variables {
        ["count": .int(Int64(count)), "cursor": after.map { .string(cursor($0)) } ?? .null]
    }
}

/// An environment whose connection holds `edges` to-dos, paged by `pageSize` after it.
@MainActor
public final class PagedConnection {
    public let environment: Environment
    public let operation: OperationArtifact
    public private(set) var edges: Int
    public let pageSize: Int

    public init(edges: Int, pageSize: Int = 100, operation: OperationArtifact) throws {
        self.environment = Environment(network: MockNetwork())
        self.operation = operation
        self.edges = edges
        self.pageSize = pageSize
        try environment.commitPayload(
            operation, variables: PagingWorkload.variables(count: edges, after: nil),
            response: PagingWorkload.page(start: 0, count: edges), reverting: nil)
    }

    /// How many times the subscriber `subscribe()` made was called.
    public private(set) var notified = 0

    /// Subscribes to the first page's query, as a query or pagination model does: every page then
    /// re-reads the list (relay's reader reads every edge again, as here).
    public func subscribe() {
        _ = environment.subscribe(
            .operation(operation, variables: PagingWorkload.variables(count: edges, after: nil))
        ) { [weak self] _ in self?.notified += 1 }
    }

    /// The next page's response, made before the clock starts.
    public func nextPage() -> (Variables, [UInt8]) {
        (
            PagingWorkload.variables(count: pageSize, after: edges - 1),
            PagingWorkload.page(start: edges, count: pageSize)
        )
    }

    /// Merges a page made by `nextPage()`.
    public func merge(_ page: (Variables, [UInt8])) throws {
        try environment.commitPayload(operation, variables: page.0, response: page.1, reverting: nil)
        edges += pageSize
    }

    /// The client connection's edges, as the store holds them.
    public func edgeCount() -> Int {
        environment.store.withSnapshot { s in
            let connection = "client:" + TodoListWorkload.userID + ":__Paging_todos_connection"
            guard case .record(let r) = s.record(connection), case .links(let edges)? = s.field(r, "edges") else {
                return 0
            }
            return edges.count
        }
    }
}
