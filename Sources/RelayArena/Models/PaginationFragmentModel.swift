// relay's pagination fragment (usePaginationFragment's load-more functions, without React): a
// `@refetchable` fragment with a `@connection`, whose next (previous) page is fetched with the
// refetch query and merged into the same connection by the connection handler, so the fragment's
// own data grows.
import Observation

@MainActor
@Observable
public final class PaginationFragmentModel<F: RefetchableFragment> {
    /// The fragment (and its refetch, which replaces the connection's edges).
    public let refetchable: RefetchableFragmentModel<F>
    public private(set) var isLoadingNext = false
    public private(set) var isLoadingPrevious = false
    public private(set) var lastError: FetchError?

    /// A fragment compiled without `@connection` is a programming error (relay's invariant).
    public init(environment: Environment, pointer: FragmentPointer<F>) {
        precondition(
            F.refetchMetadata.connection != nil,
            "RelayArena: \(F.self) has no @connection: use RefetchableFragmentModel")
        refetchable = RefetchableFragmentModel(environment: environment, pointer: pointer)
    }

    public var data: ReadValue? { refetchable.data }
    public var result: ReadResult { refetchable.result }
    /// The fragment's relay `observeFragment` state; a failed page or refetch is its error.
    public var status: FragmentStatus { refetchable.status }
    /// relay's `fieldErrors` of the last read.
    public var fieldErrors: [FieldError] { refetchable.fieldErrors }
    @available(*, deprecated, renamed: "result")
    public var snapshot: ReadResult { result }

    /// Whether the connection has a next page: an end cursor and `hasNextPage` (relay's
    /// `getConnectionState`).
    public var hasNext: Bool { state(forward: true).hasMore }
    public var hasPrevious: Bool { state(forward: false).hasMore }

    private func state(forward: Bool) -> (cursor: String?, hasMore: Bool) {
        F.refetchMetadata.connection?.state(in: data, forward: forward) ?? (nil, false)
    }

    /// The page query's variables, as relay builds them: the owner's and the fragment's, the
    /// direction's count and cursor (the other direction's null), the record's ID; filtered to
    /// what the query declares.
    package func pageVariables(count: Int, forward: Bool) -> Variables {
        let given = F.refetchMetadata.connection?.pageArguments(
            count: count, cursor: state(forward: forward).cursor, forward: forward)
        return refetchable.refetchVariables(given ?? [:])
    }

    /// Fetches the next `count` items after the end cursor (relay's `loadNext`). Does nothing
    /// while a next page is loading or when the fragment has no data, as relay.
    public func loadNext(_ count: Int) async throws { try await load(count, forward: true) }

    /// Fetches the `count` items before the start cursor (relay's `loadPrevious`). Does nothing
    /// for a connection paged forward only (no `last`/`before` variables).
    public func loadPrevious(_ count: Int) async throws { try await load(count, forward: false) }

    private func load(_ count: Int, forward: Bool) async throws {
        let metadata = F.refetchMetadata.connection
        guard (forward ? metadata?.forward : metadata?.backward) != nil else { return }  // (pages the other way only)
        guard !(forward ? isLoadingNext : isLoadingPrevious), let data, !data.isNull else { return }
        let request = GraphQLRequest(
            operation: F.RefetchQuery.artifact, variables: pageVariables(count: count, forward: forward))
        if forward { isLoadingNext = true } else { isLoadingPrevious = true }
        defer { if forward { isLoadingNext = false } else { isLoadingPrevious = false } }
        do {
            try await refetchable.fragment.environment.execute(request)
            lastError = nil
        } catch let error as FetchError {
            lastError = error
            throw error
        }
    }
}

extension ConnectionMetadata {
    /// relay's `getConnectionState`: the connection's cursor in that direction and whether there
    /// is more, from the fragment's `data`.
    package func state(in data: ReadValue?, forward: Bool) -> (cursor: String?, hasMore: Bool) {
        var value = data
        for key in path { value = value?[key] }
        // (Matched, not compared: a ReadValue compares by its JSON text, the whole list's.)
        guard let connection = value, !connection.isNull, let edges = connection["edges"], !edges.isNull,
            let pageInfo = connection["pageInfo"], !pageInfo.isNull
        else { return (nil, false) }
        guard case .string(let cursor)? = pageInfo[forward ? "endCursor" : "startCursor"] else { return (nil, false) }
        guard case .bool(let more)? = pageInfo[forward ? "hasNextPage" : "hasPreviousPage"] else {
            return (cursor, false)
        }
        return (cursor, more)
    }

    /// relay's `getPaginationVariables`: that direction's count and cursor, the other's null
    /// (merged over the owner's and the fragment's variables by `refetchVariables`).
    package func pageArguments(count: Int, cursor: String?, forward: Bool) -> Variables {
        var given: Variables = [:]
        let (this, other) = forward ? (self.forward, backward) : (backward, self.forward)
        if let other {
            given[other.cursor] = .null
            given[other.count] = .null
        }
        if let this {
            given[this.cursor] = cursor.map(JSONValue.string) ?? .null
            given[this.count] = .int(Int64(count))
        }
        return given
    }
}

extension ReadValue {
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}
