// A seeded, deterministic generator of to-do list responses for TodoListQuery, and refetch
// variants of the same list (identical, k% of the todos changed, shrunk, grown).

/// Generates `{"data": {"user": {...todos(first: N)...}}}` the way a server answers TodoListQuery.
public struct TodoListWorkload: Sendable {
    public var todos: Int
    public var seed: UInt64

    public init(todos: Int, seed: UInt64 = 0x5EED) {
        self.todos = todos
        self.seed = seed
    }

    public static let userID = "VXNlcjptZQ=="

    /// The response bytes. `changedPercent` of the todos (chosen by the seed) get a new text and
    /// flipped `complete`; `count` overrides the number of todos (to shrink or grow the list).
    public func response(changedPercent: Int = 0, count: Int? = nil) -> [UInt8] {
        let n = count ?? todos
        var out: [UInt8] = []
        out.reserveCapacity(n * 150 + 512)
        func put(_ s: String) { out.append(contentsOf: s.utf8) }
        put(#"{"data":{"user":{"id":""# + Self.userID + #"","totalCount":"# + String(n) + #","todos":{"edges":["#)
        var rng = SplitMix(seed: seed)
        var changeRng = SplitMix(seed: seed ^ 0xC4A6E)
        for i in 0..<n {
            if i > 0 { put(",") }
            let words = Self.words
            let a = words[Int(rng.next() % UInt64(words.count))]
            let b = words[Int(rng.next() % UInt64(words.count))]
            var complete = rng.next() % 3 == 0
            var text = "\(a) the \(b) #\(i)"
            if changedPercent > 0 && Int(changeRng.next() % 100) < changedPercent {
                text += " (edited)"
                complete.toggle()
            }
            put(#"{"cursor":""# + Self.base64("arrayconnection:\(i)") + #"","node":{"id":""# + Self.base64("Todo:\(i)"))
            put(#"","text":""# + text + #"","complete":"# + (complete ? "true" : "false") + "}}")
        }
        put(#"],"pageInfo":{"hasNextPage":false,"hasPreviousPage":false,"startCursor":"#)
        put(n > 0 ? "\"" + Self.base64("arrayconnection:0") + "\"" : "null")
        put(#","endCursor":"#)
        put(n > 0 ? "\"" + Self.base64("arrayconnection:\(n - 1)") + "\"" : "null")
        put("}}}}}")
        return out
    }

    public var variablesJSON: String { #"{"first":"# + String(todos) + "}" }

    static let words = [
        "buy", "milk", "walk", "dog", "write", "report", "call", "mom", "fix", "bike", "read",
        "book", "pay", "rent", "clean", "kitchen", "plan", "trip", "water", "plants",
    ]

    public static func base64(_ s: String) -> String {
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let bytes = Array(s.utf8)
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let b0 = bytes[i]
            let b1 = i + 1 < bytes.count ? bytes[i + 1] : 0
            let b2 = i + 2 < bytes.count ? bytes[i + 2] : 0
            out.append(table[Int(b0 >> 2)])
            out.append(table[Int((b0 & 3) << 4 | b1 >> 4)])
            out.append(i + 1 < bytes.count ? table[Int((b1 & 15) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(i + 2 < bytes.count ? table[Int(b2 & 63)] : UInt8(ascii: "="))
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// SplitMix64: tiny, seeded, the same on every platform (the workloads' and the tests' generator:
/// a seed replays a run exactly).
public struct SplitMix: Sendable {
    var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform enough for picking among `bound` choices (`bound` > 0).
    public mutating func next(below bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
}
