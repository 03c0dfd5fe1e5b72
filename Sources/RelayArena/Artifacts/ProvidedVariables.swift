// relay's provided variables: `@argumentDefinitions(x: {type: "Boolean!", provider: "Name"})`
// makes `x` an operation-level variable whose value comes from the provider registered as `Name`,
// wherever the operation's variables are computed (requests, storage keys, reads).
import Foundation

/// The providers of relay's provided variables, by name. relay's providers are modules, one per
/// process; so are these: every store and environment of the process agrees on a variable's
/// value, so one operation names the same records everywhere.
public enum ProvidedVariables {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var providers: [String: @Sendable () -> JSONValue] = [:]
    nonisolated(unsafe) private static var values: [String: JSONValue] = [:]

    /// Registers (or replaces) the provider called `name`. Its first value is kept and reused,
    /// as relay memoizes a provider (it must be a pure function).
    public static func register(_ name: String, _ provider: @escaping @Sendable () -> JSONValue) {
        lock.withLock {
            providers[name] = provider
            values[name] = nil
        }
    }

    /// The provider's value; `null` when no provider has that name.
    public static func value(of name: String) -> JSONValue {
        lock.lock()
        if let value = values[name] {
            lock.unlock()
            return value
        }
        let provider = providers[name]
        lock.unlock()
        guard let provider else { return .null }
        let value = provider()
        return lock.withLock {
            if let first = values[name] { return first }
            values[name] = value
            return value
        }
    }
}
