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
    let url = URL(fileURLWithPath: path)
    do {
        try Data(bytes).write(to: url, options: .atomic)
    } catch {
        throw RelayArenaError(code: .io, message: "cannot write \(path): \(error.localizedDescription)")
    }
}
