// This process's resident memory from /proc/self/status (Linux), for the peak-memory figures:
// `relay-arena normalize/fetch --print-peak-rss` and the Benchmarks' fetch figure, which resets
// the peak first so that it sees one fetch's, not the process's whole history.
import Foundation

public enum ProcessMemory {
    /// Peak resident bytes (VmHWM) since the process started or `resetPeak()`; 0 where unknown.
    /// Of this address space only: unlike getrusage, not inherited from a parent through vfork
    /// and exec.
    public static var peakResidentBytes: Int { status("VmHWM:") }

    /// Resident bytes now (VmRSS); 0 where unknown.
    public static var residentBytes: Int { status("VmRSS:") }

    /// Starts the peak over from the resident memory now (writes 5 to /proc/self/clear_refs, which
    /// Linux takes as "reset the peak RSS"); false where that is not possible.
    @discardableResult
    public static func resetPeak() -> Bool {
        guard let file = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? file.close() }
        return (try? file.write(contentsOf: Data("5".utf8))) != nil
    }

    private static func status(_ key: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key) }),
            let kb = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return 0 }
        return kb * 1024
    }
}
