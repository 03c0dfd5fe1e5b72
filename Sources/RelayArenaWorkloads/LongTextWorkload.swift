// A TodoListQuery response whose one todo has a very long text (an attachment, a log blob): the
// workload of the long-token benchmarks, where yajl must hold one token across many chunks.

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
}
