// relay's page merge (`mergeEdges`) drops a page's edge whose node the connection already has,
// which means reading every edge's node: a page would cost the connection's length. The store
// keeps, for a connection paged into, the symbols of its edges' nodes, so the next page looks its
// own nodes up instead; and the merge appends the page in the arena (RecordStore.spliceLinks)
// instead of writing the list again.
//
// An index describes one edges list: it holds while the connection's `edges` value is the same
// word (a list rewritten anywhere else is a new value; compaction moves values and carries the
// indexes along) and no edge or node it read has been written or removed since (every publish's
// and collection's IDs are checked against the ones it watches).
import Foundation

/// A page merged into a connection's edges list in the arena (`RecordStore.publish(_:splices:)`):
/// the list `key` of `dataID` becomes `front`, its items, then `back`; `nodes` are the page's
/// nodes the index takes.
struct ConnectionSplice: Sendable {
    var dataID, key: String
    var front, back, nodes: [String]
}

final class ConnectionIndexes: @unchecked Sendable {
    struct Index {
        /// The `edges` value word it describes.
        var word: UInt64
        /// Nodes of the edges that exist (relay de-duplicates by these).
        var nodes: Set<UInt32>
        /// Nodes the edges link to that the store does not hold (relay reads no ID for those).
        var absent: Set<UInt32>
    }

    // (An NSLock, not a Mutex: ThreadSanitizer sees a pthread mutex.) Taken inside the store's
    // lock, never the other way.
    private let lock = NSLock()
    private var byConnection: [UInt32: Index] = [:]
    /// An edge or a node → the connection whose index read it; one read by more than one
    /// connection's index (a to-do in two lists) → the others in `alsoWatched`.
    private var watched: [UInt32: UInt32] = [:]
    private var alsoWatched: [UInt32: Set<UInt32>] = [:]

    private func watch(_ symbol: UInt32, _ connection: UInt32) {
        if let first = watched.updateValue(connection, forKey: symbol), first != connection {
            alsoWatched[symbol, default: []].insert(first)
        }
    }

    private func locked<R>(_ body: () -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// Off: every page merge reads the lists (the tests' reference for the indexed merge).
    var enabled: Bool {
        get { locked { isEnabled } }
        set { locked { isEnabled = newValue } }
    }
    private var isEnabled = true
    var count: Int { locked { byConnection.count } }

    /// Drops the indexes that read any of `symbols` (written or removed).
    func observe(_ symbols: UpdatedSymbols) {
        locked {
            guard !watched.isEmpty else { return }
            for i in 0..<symbols.count {
                guard let connection = watched[symbols[i]] else { continue }
                byConnection[connection] = nil
                if !alsoWatched.isEmpty, let others = alsoWatched[symbols[i]] {
                    for other in others { byConnection[other] = nil }
                }
            }
            if byConnection.isEmpty { forgetWatched() }
        }
    }

    func dropAll() {
        locked {
            byConnection = [:]
            forgetWatched()
        }
    }

    /// Drops the index of `connection`, if any.
    func drop(_ connection: UInt32) {
        locked {
            byConnection[connection] = nil
            if byConnection.isEmpty { forgetWatched() }
        }
    }

    private func forgetWatched() {
        watched = [:]
        alsoWatched = [:]
    }

    /// The index of `connection` if it describes the list `word`.
    func index(_ connection: UInt32, word: UInt64) -> Index? {
        locked { byConnection[connection].flatMap { $0.word == word ? $0 : nil } }
    }

    /// Keeps `index` for `connection`, watching `edges` and every node.
    func install(_ connection: UInt32, _ index: Index, edges: [UInt32]) {
        locked {
            byConnection[connection] = index
            for edge in edges { watch(edge, connection) }
            for node in index.nodes { watch(node, connection) }
            for node in index.absent { watch(node, connection) }
        }
    }

    /// After a page was spliced into the list `from`, now `to`: adds its edges and nodes.
    func extend(_ connection: UInt32, from: UInt64, to: UInt64, edges: [UInt32], nodes: [UInt32]) {
        locked {
            // (In place: a copy of the index would copy its set, the connection's length.)
            guard byConnection[connection]?.word == from else { return }
            byConnection[connection]!.word = to
            byConnection[connection]!.nodes.formUnion(nodes)
            for edge in edges { watch(edge, connection) }
            for node in nodes { watch(node, connection) }
        }
    }

    /// Around a compaction (which moves values, never changes them): `words` gives each indexed
    /// connection's current edges word (0: none). Before: drops the indexes that no longer
    /// describe their list; after: moves the others to their new words.
    func revalidate(_ words: (UInt32) -> UInt64, moved: Bool) {
        let connections = locked { Array(byConnection.keys) }
        let current = connections.map(words)  // (read without the index's lock)
        locked {
            for (connection, word) in zip(connections, current) {
                if moved {
                    byConnection[connection]?.word = word
                } else if word != byConnection[connection]?.word {
                    byConnection[connection] = nil
                }
            }
            if byConnection.isEmpty { forgetWatched() }
        }
    }
}
