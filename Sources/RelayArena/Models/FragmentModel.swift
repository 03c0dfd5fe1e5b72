// relay's `@Fragment` / `observeFragment` as an Observation model: a fragment's data at a pointer,
// following the store.
import Observation

/// A fragment's data at a pointer, following the store: `result` changes only when a publish
/// changes what the fragment reads (relay's `@Fragment` / `observeFragment`). Reading `result`
/// (or `data`) from a SwiftUI body or `withObservationTracking` tracks it through `state`.
@MainActor
public final class FragmentModel<F: Fragment> {
    public let state: FragmentState
    public private(set) var pointer: FragmentPointer<F>

    let environment: Environment
    private var subscription: SubscriptionID

    public init(environment: Environment, pointer: FragmentPointer<F>) {
        self.environment = environment
        self.pointer = pointer
        let state = FragmentState(ReadResult(data: nil, isMissingData: true, seenRecords: []))
        self.state = state
        (state.result, subscription) = Self.attach(environment, state, pointer)
    }

    isolated deinit { environment.unsubscribe(subscription) }

    public var result: ReadResult { state.result }
    @available(*, deprecated, renamed: "result")
    public var snapshot: ReadResult { result }
    public var updates: Int { state.updates }
    public var data: ReadValue? { state.result.data }
    public var isMissingData: Bool { state.result.isMissingData }
    /// relay's `fieldErrors` of the last read.
    public var fieldErrors: [FieldError] { state.result.fieldErrors }
    /// relay's `observeFragment` states: `.error` with what relay would throw (a
    /// `@throwOnFieldError` fragment's field error, a `@required(action: THROW)` field),
    /// `.loading` while data is missing, `.ok` otherwise.
    public var status: FragmentStatus { FragmentStatus(state.result) }

    /// Follows another pointer (a parent passed a different record, a refetch answered).
    public func repoint(_ pointer: FragmentPointer<F>) {
        environment.unsubscribe(subscription)
        self.pointer = pointer
        let (snapshot, id) = Self.attach(environment, state, pointer)
        subscription = id
        state.update(snapshot)
    }

    private static func attach(_ environment: Environment, _ state: FragmentState, _ pointer: FragmentPointer<F>)
        -> (ReadResult, SubscriptionID)
    {
        // The state is held strongly: the model ends the subscription when it goes, and the
        // state holds nothing back, so there is no cycle (and no weak reference to load on
        // every notification).
        environment.subscribe(.fragment(pointer), state)
    }

    /// Typed access to the data under a store snapshot (the view must not escape `body`).
    public func withData<R>(_ body: (F.Data) throws -> R) rethrows -> R? {
        try environment.store.withSnapshot { s in
            guard let data = s.read(F.self, pointer).data else { return nil }
            return try body(data)
        }
    }
}
