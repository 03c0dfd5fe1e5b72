// Hash-flooding inputs: to-do list responses and store files whose data IDs (or one object's
// unselected keys) collide under a given hash, beside random ones of the same length and bytes.
// The quick bench and the tests use them.
//
// Each text is 16 bytes, two 8-byte words. A word-at-a-time hash folds each word into its state
// (`state = mix(state ^ word)`), so a second word of `state(first) ^ u` leaves every text in the
// same state after two words, whatever `mix` is: the texts' hashes are all one. That takes the
// state after one word, which an attacker can compute for a fixed hash (the old one), or for the
// keyed hash if its key leaks; under a random key the same texts are just texts.

/// Which hash the texts collide under.
public enum HashFloodKind: Sendable {
    /// No collision: the second word is random too.
    case random
    /// The fixed hash the core used before its key (its state after one word).
    case oldFixedHash
    /// The keyed hash under a known key (`ra_set_hash_key` makes sources take it).
    case knownKey(UInt64, UInt64)
}

public enum HashFloodWorkload {
    /// The key the benchmarks and tests play as leaked.
    public static let leakedKey: (UInt64, UInt64) = (0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210)

    /// The old fixed hash's state after one word (ra_hash.h before the key).
    public static func oldState(_ w: UInt64) -> UInt64 {
        var h = (0x9E37_79B9_7F4A_7C15 ^ w) &* 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 29
        return h
    }

    /// The keyed hash's state after one word under key (k0, k1): a 64×64→128-bit multiply whose
    /// halves are xored.
    public static func keyedState(_ k0: UInt64, _ k1: UInt64, _ w: UInt64) -> UInt64 {
        let r = (k0 ^ w).multipliedFullWidth(by: k1 | 1 << 63)
        return r.high ^ r.low
    }

    /// `count` distinct 16-byte texts: a printable first word (bytes 0x60–0x6F) and a second of
    /// bytes 1–127 (escaped in JSON where they must be), colliding as `kind` says.
    public static func texts(_ count: Int, _ kind: HashFloodKind, seed: UInt64 = 0x2545_F491_4F6C_DD1D) -> [[UInt8]] {
        var x = seed | 1  // (xorshift64: repeatable)
        func next() -> UInt64 {
            x ^= x << 13
            x ^= x >> 7
            x ^= x << 17
            return x
        }
        let u: UInt64 = 0x3141_5926_5358_9793 & 0x7F7F_7F7F_7F7F_7F7F
        var seen = Set<UInt64>()
        var out: [[UInt8]] = []
        out.reserveCapacity(count)
        while out.count < count {
            let w1 = (next() & 0x0F0F_0F0F_0F0F_0F0F) | 0x6060_6060_6060_6060
            let w2: UInt64
            switch kind {
            case .random: w2 = next()
            case .oldFixedHash: w2 = oldState(w1) ^ u
            case .knownKey(let k0, let k1): w2 = keyedState(k0, k1, w1) ^ u
            }
            let zero = (w2 &- 0x0101_0101_0101_0101) & ~w2 & 0x8080_8080_8080_8080
            guard w2 & 0x8080_8080_8080_8080 == 0, zero == 0, seen.insert(w1).inserted else { continue }
            out.append((0..<16).map { UInt8(truncatingIfNeeded: ($0 < 8 ? w1 : w2) >> (8 * UInt64($0 % 8))) })
        }
        return out
    }

    /// `text` as a JSON string.
    public static func json(_ text: [UInt8]) -> String {
        var s = "\""
        let hex = Array("0123456789abcdef")
        for b in text {
            switch b {
            case 0x22: s += "\\\""
            case 0x5C: s += "\\\\"
            case 0..<0x20: s += "\\u00" + String(hex[Int(b >> 4)]) + String(hex[Int(b & 15)])
            default: s.unicodeScalars.append(Unicode.Scalar(b))
            }
        }
        return s + "\""
    }

    /// A TodoListQuery response (`TodoListSetup.plan(todos: ids.count)`) whose todos have these
    /// data IDs, the i-th todo's text "t<i>".
    public static func response(ids: [[UInt8]]) -> [UInt8] {
        var out = #"{"data":{"user":{"id":"\#(TodoListWorkload.userID)","totalCount":\#(ids.count),"todos":{"edges":["#
        for (i, id) in ids.enumerated() {
            out +=
                (i > 0 ? "," : "") + #"{"cursor":"c\#(i)","node":{"id":\#(json(id)),"text":"t\#(i)","complete":false}}"#
        }
        out += #"],"pageInfo":{"hasNextPage":false,"hasPreviousPage":false,"startCursor":"c0","endCursor":"c0"}}}}}"#
        return Array(out.utf8)
    }

    /// A one-todo TodoListQuery response whose todo has these keys besides its selected ones
    /// (unselected: kept by no record, but checked for duplicates), each with the value 1.
    public static func response(unselectedKeys keys: [[UInt8]]) -> [UInt8] {
        let members = keys.map { json($0) + ":1" }.joined(separator: ",")
        let out =
            #"{"data":{"user":{"id":"\#(TodoListWorkload.userID)","totalCount":1,"todos":{"edges":[{"cursor":"c0","node":{"id":"t","text":"t","complete":false,\#(members)}}],"pageInfo":{"hasNextPage":false,"hasPreviousPage":false,"startCursor":"c0","endCursor":"c0"}}}}}"#
        return Array(out.utf8)
    }

    /// A store file (relay toJSON) of one Todo record for each ID.
    public static func storeFile(ids: [[UInt8]]) -> [UInt8] {
        var out = #"{"client:root":{"__id":"client:root","__typename":"__Root"}"#
        for (i, id) in ids.enumerated() {
            let j = json(id)
            out += #",\#(j):{"__id":\#(j),"__typename":"Todo","id":\#(j),"text":"t\#(i)","complete":false}"#
        }
        return Array((out + "}").utf8)
    }
}
