// What a fragment model shows, observed: the last read's result, changed only when a publish
// changes what the fragment reads (announced to Observation only once someone read it).
import Observation

/// What a fragment model shows, observed: a class of its own that is not generic, because the
/// key paths of a generic class's properties are resolved anew at every change (a tenth of a
/// refetch's notification work with 100k models).
///
/// A change of a state that was never read is not announced to Observation: nothing can be
/// observing it (observers register by reading it), and announcing takes the registrar's lock, in
/// memory of its own — with 100k models, a cache miss for each model changed. Most of a long
/// list's models are never on screen.
@MainActor
@Observable
public final class FragmentState {
    public internal(set) var result: ReadResult {
        get {
            read = true
            access(keyPath: \.result)
            return shown
        }
        set {
            guard read else {
                shown = newValue
                return
            }
            withMutation(keyPath: \.result) { shown = newValue }
        }
    }
    @ObservationIgnored private var shown: ReadResult
    /// Whether `result` or `updates` was ever read (and so may be observed).
    @ObservationIgnored private var read = false
    /// How many times the data changed since the model was made (a cheap change signal). It
    /// changes only with `result`, so it is observed through it: one mutation a change, not two.
    @ObservationIgnored private var count = 0
    public var updates: Int {
        read = true
        access(keyPath: \.result)
        return count
    }
    init(_ result: ReadResult) { shown = result }

    /// Shows `next`: one observed mutation.
    func update(_ next: ReadResult) {
        count += 1
        result = next
    }
}

extension FragmentState: StoreSubscriber {
    /// The environment notifies on the main actor (it publishes there).
    nonisolated func storeDidChange(_ result: ReadResult) {
        MainActor.assumeIsolated { update(result) }
    }
}
