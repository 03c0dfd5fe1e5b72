// A counter the threads of a concurrency test share.
import Foundation

public final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    public init() {}
    public func add() {
        lock.lock()
        n += 1
        lock.unlock()
    }
    public var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return n
    }
}
