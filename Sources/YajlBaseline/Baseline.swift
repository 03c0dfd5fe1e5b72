// Benchmark comparator, not API: yajl alone with callbacks that do nothing (the parser's ceiling),
// for the CLI's quick bench and the Benchmarks package.
internal import CYajlBaseline

public enum Baseline {
    /// Tokenizes `bytes` with yajl and no-op callbacks (our parser's ceiling). False on bad JSON.
    public static func yajlNoop(_ bytes: UnsafeRawBufferPointer, chunkSize: Int = 0) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        return yajl_baseline_noop_parse(base.assumingMemoryBound(to: UInt8.self), bytes.count, chunkSize) != 0
    }
}
