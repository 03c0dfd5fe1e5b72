// Benchmark comparators that need the C core: yajl alone, with callbacks that do nothing.
internal import CRelayArena

public enum Baseline {
    /// Tokenizes `bytes` with yajl and no-op callbacks (our parser's ceiling). False on bad JSON.
    public static func yajlNoop(_ bytes: UnsafeRawBufferPointer, chunkSize: Int = 0) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        return ra_yajl_noop_parse(base.assumingMemoryBound(to: UInt8.self), bytes.count, chunkSize) != 0
    }
}
