// The lifetime of one `withSnapshot` call, checkable after it ended: values that borrow arena
// memory carry a token and check it before they touch that memory, so an escaped one traps.
import Foundation
import Synchronization

/// Leases are never freed (closed ones wait in a pool for the next snapshot), so reading an old
/// token's lease is always safe; its generation tells whether the snapshot is still open.
final class SnapshotLease: Sendable {
    /// Odd while a snapshot holds the lease, even once it closed.
    let generation = Atomic<UInt64>(0)

    // Behind an NSLock (a pthread mutex), not Synchronization's Mutex, whose futex ThreadSanitizer
    // cannot see: CI runs the readers' tests under it.
    private static let poolLock = NSLock()
    nonisolated(unsafe) private static var pool: [SnapshotLease] = []

    /// Open forever: the token of values that borrow nothing (an empty `BorrowedUTF8`).
    static let permanent: SnapshotLease = {
        let lease = SnapshotLease()
        lease.generation.store(1, ordering: .relaxed)
        return lease
    }()

    /// Takes a lease for a snapshot that starts now; give it back with `close(_:)`.
    static func open() -> (lease: SnapshotLease, token: SnapshotToken) {
        poolLock.lock()
        let pooled = pool.popLast()
        poolLock.unlock()
        let lease = pooled ?? SnapshotLease()
        let generation = lease.generation.add(1, ordering: .relaxed).newValue
        return (lease, SnapshotToken(lease: lease, generation: generation))
    }

    /// Ends the snapshot: every token of it fails its check from now on.
    static func close(_ lease: SnapshotLease) {
        lease.generation.add(1, ordering: .relaxed)
        poolLock.lock()
        pool.append(lease)
        poolLock.unlock()
    }
}

/// What a borrowing value keeps of its snapshot: two words, no reference count.
struct SnapshotToken {
    unowned(unsafe) let lease: SnapshotLease
    let generation: UInt64

    static var permanent: SnapshotToken { SnapshotToken(lease: .permanent, generation: 1) }

    /// Traps when the snapshot this token came from has ended.
    @inline(__always)
    func check() {
        if _slowPath(lease.generation.load(ordering: .relaxed) != generation) { Self.escaped() }
    }

    @inline(never)
    private static func escaped() -> Never {
        fatalError(
            "RelayArena: a value borrowed from a store snapshot was used after its withSnapshot closure returned")
    }
}
