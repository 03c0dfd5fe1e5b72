// A TodoListQuery response whose one todo has a very long text (an attachment, a log blob): the
// workload of the long-token benchmarks, where yajl must hold one token across many chunks.
import RelayArena

public enum LongTextWorkload {
    /// One todo whose `text` is `textBytes` of base64-like text.
    public static func response(textBytes: Int) -> [UInt8] {
        let id = TodoListWorkload.userID
        let head =
            #"{"data":{"user":{"id":""# + id
            + #"","totalCount":1,"todos":{"edges":[{"cursor":"YXJyYXljb25uZWN0aW9uOjA=","node":{"id":"VG9kbzow","text":""#
        let tail =
            #"","complete":false}}],"pageInfo":{"hasNextPage":false,"hasPreviousPage":false,"startCursor":"YXJyYXljb25uZWN0aW9uOjA=","endCursor":"YXJyYXljb25uZWN0aW9uOjA="}}}}}"#
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(head.utf8.count + textBytes + tail.utf8.count)
        out.append(contentsOf: head.utf8)
        for i in 0..<textBytes { out.append(alphabet[(i &* 7 &+ i >> 6) & 63]) }
        out.append(contentsOf: tail.utf8)
        return out
    }

    /// Normalizes `response` fed from memory in `chunkSize` pieces and publishes it into a new
    /// store, as the long-token benchmarks time it; returns the number of updated records.
    public static func ingest(_ response: [UInt8], plan: NormalizationPlan, chunkSize: Int = 64 * 1024) throws -> Int {
        let normalizer = try ResponseNormalizer(
            plan: plan, limits: NormalizationLimits(maxBytes: UInt64(response.count)))
        try response.withUnsafeBytes { all in
            var at = 0
            while at < all.count {
                let end = min(at + chunkSize, all.count)
                try normalizer.feed(UnsafeRawBufferPointer(rebasing: all[at..<end]))
                at = end
            }
        }
        return try RecordStore().publish(normalizer.finish()).count
    }
}
