// The build-tool plugin's tool: `relay-arena generate` alone (the compiler and the generator),
// so a package that applies the plugin builds GraphQLSwift and nothing of the HTTP stack, the
// workloads or the benchmarks that `relay-arena` links. Takes `generate`'s options.
import Foundation
import RelayArena
import RelayArenaCompiler
import RelayArenaGenerateCommand

do {
    var command = try Generate.parseAsRoot()
    try command.run()
} catch let error as RelayArenaError {
    FileHandle.standardError.write(Data("relay-arena-generate: \(oneLine(error.description))\n".utf8))
    exit(1)
} catch let error as CompilerError {
    FileHandle.standardError.write(Data("relay-arena-generate: \(oneLine(error.description))\n".utf8))
    exit(1)
} catch {
    Generate.exit(withError: error)
}
