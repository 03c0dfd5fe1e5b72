// relay's `useRefetchableFragment` as an Observation model: a `@refetchable` fragment's data and
// its refetch with new variables.
import Observation

/// A `@refetchable` fragment's model: `refetch(_:)` sends the synthesized query and the model
/// follows the refetch query's result (relay's `useRefetchableFragment`).
@MainActor
@Observable
public final class RefetchableFragmentModel<F: RefetchableFragment> {
    public let fragment: FragmentModel<F>
    public private(set) var isRefetching = false
    public private(set) var lastError: FetchError?

    public init(environment: Environment, pointer: FragmentPointer<F>) {
        fragment = FragmentModel(environment: environment, pointer: pointer)
    }

    public var result: ReadResult { fragment.result }
    @available(*, deprecated, renamed: "result")
    public var snapshot: ReadResult { result }
    public var data: ReadValue? { fragment.data }
    /// The fragment's relay `observeFragment` state (`.loading` while its data is missing, also
    /// during a refetch that moved it to a record not yet fetched); a failed refetch is `lastError`.
    public var status: FragmentStatus { fragment.status }
    /// relay's `fieldErrors` of the last read.
    public var fieldErrors: [FieldError] { fragment.fieldErrors }

    /// The refetch query's variables for `variables`, as relay merges them: the owner's, then the
    /// fragment's, then those given; the identifier variable from the record's ID when not given.
    package func refetchVariables(_ variables: Variables = [:]) -> Variables {
        let pointer = fragment.pointer
        return F.refetchMetadata.refetchVariables(
            query: F.RefetchQuery.artifact, owner: pointer.owner, fragment: pointer.effectiveVariables,
            given: variables, dataID: pointer.dataID, in: fragment.environment.store)
    }

    /// Sends the refetch query (store-or-network by default, as relay: refetching to variables
    /// the store already has sends nothing) and then follows the fragment with the refetch query
    /// as its owner.
    public func refetch(_ variables: Variables = [:], fetchPolicy: FetchPolicy = .storeOrNetwork) async throws {
        let environment = fragment.environment
        let query = F.RefetchQuery.artifact
        let merged = refetchVariables(variables)
        isRefetching = true
        defer { isRefetching = false }
        do {
            if fetchPolicy.shouldFetch(environment.check(query, variables: merged)) {
                try await environment.execute(GraphQLRequest(operation: query, variables: merged))
            }
            lastError = nil
        } catch let error as FetchError {
            lastError = error
            throw error
        }
        guard
            let dataID = F.refetchMetadata.fragmentRecord(
                query: query, variables: merged, in: environment.store)
        else { return }
        fragment.repoint(
            FragmentPointer<F>(
                dataID: dataID, variables: merged, owner: FragmentOwner(operation: query, variables: merged)))
    }
}
