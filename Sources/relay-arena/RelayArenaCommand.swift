// The `relay-arena` command: normalize responses into a store (from a file or fetched over HTTP),
// read fragments back, benchmark. Every failure prints one line on stderr and exits with status 1.
import ArgumentParser
import Foundation
import RelayArena
import RelayArenaCompiler
import RelayArenaGenerateCommand

@main
struct RelayArenaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay-arena",
        abstract: "A Relay-style normalized GraphQL store in an arena: normalize, read, benchmark.",
        subcommands: subcommands
    )

    /// `fetch` exists only with the `HTTP` trait (AsyncHTTPClient).
    private static var subcommands: [any ParsableCommand.Type] {
        #if HTTP
            [
                Normalize.self, Fetch.self, Read.self, Replay.self, Ingest.self, Dump.self, Merge.self, Bench.self,
                Workload.self,
                Generate.self,
            ]
        #else
            [
                Normalize.self, Read.self, Replay.self, Ingest.self, Dump.self, Merge.self, Bench.self, Workload.self,
                Generate.self,
            ]
        #endif
    }

    /// Argument errors exit with 1 too (not ArgumentParser's 64): scripts check one status.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as CleanExit {
            exit(withError: error)
        } catch let error as RelayArenaError {
            fail(error.description)
        } catch let error as CompilerError {
            // "relay-arena: error: FILE:LINE:COLUMN: message": one `error:` in the line.
            fail("\(error.file):\(error.line):\(error.column): \(error.message)")
        } catch let error as FetchError {
            fail(error.description)
        } catch let error as ExitCode {
            Foundation.exit(error.rawValue)
        } catch {
            let message = fullMessage(for: error)
            if exitCode(for: error) == .success {
                print(message)
                Foundation.exit(0)
            }
            fail(message.split(separator: "\n").first.map(String.init) ?? "\(error)")
        }
    }

    /// One line, whatever the message holds (a compiler diagnostic, a name with a line break).
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("relay-arena: error: \(oneLine(message))\n".utf8))
        Foundation.exit(1)
    }
}

/// Options shared by commands that compile documents.
struct DocumentOptions: ParsableArguments {
    @Option(help: "The schema (SDL).")
    var schema: String

    @Option(
        name: .customLong("client-schema"),
        help: "A client schema extension (SDL: extend type …, client-only types); repeatable. Never sent.")
    var clientSchema: [String] = []

    @Option(help: "A GraphQL document; repeat for several files.")
    var document: [String]

    @Flag(
        name: .customLong("no-enforce-fragment-alias"),
        help: "Accept spreads relay v19 requires @alias on (conditional ones, ones that may not match their type).")
    var noEnforceFragmentAlias = false

    @Option(help: "The operation to use (required when the documents hold more than one).")
    var operation: String?

    @Option(help: "Operation variables as a JSON object.")
    var variables: String?

    func compile() throws -> (CompiledDocuments, OperationArtifact, Variables) {
        let docs = try compileDocuments(
            schema: schema, clientSchema: clientSchema, documents: document,
            enforcesFragmentAlias: !noEnforceFragmentAlias
        ).documents
        let op: OperationArtifact
        if let operation {
            guard let found = docs.operations[operation] else {
                throw RelayArenaError(
                    code: .unknownOperation, message: "no operation named `\(operation)` in the documents")
            }
            op = found
        } else {
            guard docs.operations.count == 1, let only = docs.operations.values.first else {
                throw RelayArenaError(
                    code: .unknownOperation,
                    message: "the documents hold \(docs.operations.count) operations: name one with --operation")
            }
            op = only
        }
        var vars: Variables = [:]
        if let variables {
            guard let members = try JSONValue(parsing: variables).objectMembers else {
                throw RelayArenaError(code: .invalidVariables, message: "--variables must be a JSON object")
            }
            for m in members { vars[m.key] = m.value }
        }
        return (docs, op, vars)
    }
}

/// Compiles the documents against the schema (extended by the client schema files), with the
/// metadata of `@refetchable` fragments.
func compileDocuments(
    schema: String, clientSchema: [String] = [], documents: [String], enforcesFragmentAlias: Bool = true
) throws -> CompilationResult {
    var compiler = try Compiler(
        schema: GraphQLSourceFile(name: schema, text: try readText(schema)),
        clientSchema: try clientSchema.map { GraphQLSourceFile(name: $0, text: try readText($0)) })
    compiler.enforcesFragmentAlias = enforcesFragmentAlias
    return try compiler.compileWithMetadata(
        try documents.map { GraphQLSourceFile(name: $0, text: try readText($0)) })
}

/// The store in a file: a snapshot or relay toJSON JSON, told apart by content (a snapshot's magic
/// number), not by the file's name.
func loadStore(_ path: String) throws -> RecordStore {
    guard let handle = FileHandle(forReadingAtPath: path) else {
        throw RelayArenaError(code: .io, message: "cannot read \(path)")
    }
    let head = (try? handle.read(upToCount: 8)) ?? Data()
    try? handle.close()
    if RecordStore.isSnapshot(head) { return try RecordStore(snapshotAt: path) }
    return try RecordStore(relayJSON: readBytes(path))
}

/// Writes the snapshot the command line's commands write (`normalize --write-snapshot`, `ingest`,
/// `merge`): the store as its relay toJSON loads, so that the file's bytes depend only on the
/// records and their order, not on the sequence of writes that made them (a job run as shards
/// and merged writes the same file as one job over all the input).
func writeCanonicalSnapshot(_ store: RecordStore, to path: String) throws {
    try RecordStore(relayJSON: store.relayJSON()).writeSnapshot(to: path)
}
