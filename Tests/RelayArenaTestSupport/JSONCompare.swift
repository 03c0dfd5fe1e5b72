// Semantic JSON comparison for golden tests: object key order ignored, numbers compared by
// value (1 == 1.0), booleans never equal to numbers.
import Foundation
import RelayArena

public enum JSONCompare {
    public static func parse(_ bytes: some Collection<UInt8>) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    /// The first difference between two values as a path and a reason, `nil` when equal.
    public static func difference(_ a: JSONValue, _ b: JSONValue, path: String = "$") -> String? {
        switch (a, b) {
        case (.null, .null): return nil
        case (.bool(let x), .bool(let y)): return x == y ? nil : "\(path): \(x) != \(y)"
        case (.string(let x), .string(let y)): return x == y ? nil : "\(path): \"\(x)\" != \"\(y)\""
        case (.int, .int), (.int, .double), (.double, .int), (.double, .double):
            return number(a) == number(b) ? nil : "\(path): \(a.stableJSON) != \(b.stableJSON)"
        case (.array(let x), .array(let y)):
            if x.count != y.count { return "\(path): \(x.count) elements != \(y.count)" }
            for (i, (p, q)) in zip(x, y).enumerated() {
                if let d = difference(p, q, path: "\(path)[\(i)]") { return d }
            }
            return nil
        case (.object(let x), .object(let y)):
            let dx = Dictionary(x.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
            let dy = Dictionary(y.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
            for key in Set(dx.keys).union(dy.keys).sorted() {
                guard let p = dx[key] else { return "\(path): unexpected key \"\(key)\"" }
                guard let q = dy[key] else { return "\(path): missing key \"\(key)\"" }
                if let d = difference(p, q, path: "\(path).\(key)") { return d }
            }
            return nil
        default:
            return "\(path): \(a.stableJSON) != \(b.stableJSON)"
        }
    }

    static func number(_ v: JSONValue) -> Double {
        switch v {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return .nan
        }
    }
}

public enum Chunking {
    /// Every way the golden tests split a response: whole, then every chunk size from 1 to 16.
    public static let sizes: [Int] = [Int.max] + Array(1...16)

    /// Feeds `bytes` to `feed` in pieces of `size` bytes.
    public static func split(_ bytes: [UInt8], size: Int, _ feed: (ArraySlice<UInt8>) throws -> Void) rethrows {
        var i = 0
        while i < bytes.count {
            let end = size >= bytes.count - i ? bytes.count : i + size
            try feed(bytes[i..<end])
            i = end
        }
    }
}
