// Reading a document and writing a generated file, for the command line's commands: errors name
// the path (`io`), and a file is written whole or not at all.
import Foundation
import RelayArena

package func readBytes(_ path: String) throws -> Data {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw RelayArenaError(code: .io, message: "cannot read \(path)")
    }
    return data
}

package func readText(_ path: String) throws -> String { String(decoding: try readBytes(path), as: UTF8.self) }

/// Writes through a temporary file and a rename, so a reader never sees half a file.
package func writeAtomically(_ bytes: some Collection<UInt8>, to path: String) throws {
    try writeAtomically(to: path) { fd in
        let written: Int32? = bytes.withContiguousStorageIfAvailable { writeAll(fd, UnsafeRawBufferPointer($0)) }
        let error = written ?? Array(bytes).withUnsafeBytes { writeAll(fd, $0) }
        if error != 0 { throw RelayArenaError(code: .io, message: String(cString: strerror(error))) }
    }
}

/// Writes `path` whole or not at all, as the snapshot writer does: `write` fills a temporary file
/// beside it, `.<name>.tmp-<pid>-<random>`, which is flushed (`fsync`) and renamed over `path`,
/// then the directory is flushed. A writer killed before its rename leaves its temporary behind;
/// the next write to `path` removes those of the process IDs that no longer run (a live writer's
/// stays, whatever its age: a slow write is still a write).
package func writeAtomically(to path: String, _ write: (Int32) throws -> Void) throws {
    func failure(_ what: String, _ error: Int32) -> RelayArenaError {
        RelayArenaError(code: .io, message: "cannot write \(path): \(what): \(String(cString: strerror(error)))")
    }
    let url = URL(fileURLWithPath: path)
    let dir = url.deletingLastPathComponent().path
    let name = url.lastPathComponent
    removeStaleTemporaries(of: name, in: dir)
    var fd: Int32 = -1
    var tmp = ""
    for _ in 0..<100 where fd < 0 {
        tmp = (dir as NSString).appendingPathComponent(
            ".\(name).tmp-\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))")
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        if fd < 0 && errno != EEXIST { break }
    }
    guard fd >= 0 else { throw failure("cannot create a temporary file beside it", errno) }
    do {
        do {
            try write(fd)
        } catch let error as RelayArenaError {
            throw RelayArenaError(code: error.code, message: "cannot write \(path): \(error.message)")
        }
        if fsync(fd) != 0 { throw failure("cannot flush (fsync)", errno) }
        let closed = close(fd)
        fd = -1
        if closed != 0 { throw failure("cannot write (close)", errno) }
        if rename(tmp, path) != 0 { throw failure("cannot rename the temporary file over it", errno) }
    } catch {
        if fd >= 0 { close(fd) }
        unlink(tmp)
        throw error
    }
    // The rename is durable once the directory is (a failure here leaves the new file whole).
    let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    defer { if dfd >= 0 { close(dfd) } }
    if dfd < 0 || fsync(dfd) != 0 { throw failure("cannot flush its directory (fsync)", errno) }
}

/// Removes `dir`'s `.<name>.tmp-<pid>-…` files whose process is gone (`kill(pid, 0)` says no such
/// process): what writers of `name` killed mid-write left. Best effort: a file that cannot be
/// removed is left.
package func removeStaleTemporaries(of name: String, in dir: String) {
    let prefix = ".\(name).tmp-"
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
    for entry in entries where entry.hasPrefix(prefix) {
        let rest = entry.dropFirst(prefix.count)
        guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0, pid != getpid(),
            kill(pid, 0) != 0, errno == ESRCH
        else { continue }
        unlink((dir as NSString).appendingPathComponent(entry))
    }
}

/// Writes all of `bytes` to `fd`, retrying short writes; 0, or the failed write's errno.
private func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    var at = 0
    while at < bytes.count {
        let n = Glibc.write(fd, bytes.baseAddress! + at, min(bytes.count - at, 1 << 30))
        if n < 0 {
            if errno == EINTR { continue }
            return errno
        }
        at += n
    }
    return 0
}
