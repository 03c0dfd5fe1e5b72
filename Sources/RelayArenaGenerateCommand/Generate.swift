// `relay-arena generate` (and `relay-arena-generate`, the build-tool plugin's tool): schema + GraphQL
// documents (files and graphql("""…""") literals in Swift sources) → one Swift file per fragment
// and operation (or all in one) written to --output.
import ArgumentParser
import Foundation
import RelayArena
import RelayArenaCompiler

package struct Generate: ParsableCommand {
    package static let configuration = CommandConfiguration(
        abstract: "Generate typed Swift views (one file per fragment and operation) from GraphQL documents.")

    @Option(help: "The schema (SDL).")
    var schema: String

    @Option(
        name: .customLong("client-schema"),
        help: "A client schema extension (SDL: extend type …, client-only types); repeatable. Never sent.")
    var clientSchema: [String] = []

    @Option(help: "A GraphQL document; repeat for several files.")
    var document: [String] = []

    @Flag(
        name: .customLong("no-enforce-fragment-alias"),
        help: "Accept spreads relay v19 requires @alias on (conditional ones, ones that may not match their type).")
    var noEnforceFragmentAlias = false

    @Option(
        name: .customLong("custom-scalar"),
        help:
            "NAME=TYPE: the Swift type a custom scalar is generated as (String, Int, Double, Bool, or a GraphQLCustomScalar type); repeatable. Default JSONValue."
    )
    var customScalar: [String] = []

    @Option(
        name: .customLong("swift-sources"),
        help: "A directory searched recursively for graphql(\"\"\"…\"\"\") literals in .swift files; repeatable.")
    var swiftSources: [String] = []

    @Option(
        name: .customLong("swift-file"), help: "A .swift file searched for graphql(\"\"\"…\"\"\") literals; repeatable."
    )
    var swiftFile: [String] = []

    @Option(help: "The directory to write the generated files to (created if needed).")
    var output: String

    @Option(
        name: .customLong("single-file"),
        help:
            "Write everything into this one file in --output (what a SwiftPM build command declares); written even when there is nothing to generate."
    )
    var singleFile: String?

    package init() {}

    package func run() throws {
        var compiler = try Compiler(
            schema: GraphQLSourceFile(name: schema, text: try readText(schema)),
            clientSchema: try clientSchema.map { GraphQLSourceFile(name: $0, text: try readText($0)) })
        compiler.enforcesFragmentAlias = !noEnforceFragmentAlias
        var documents = try document.map { GraphQLSourceFile(name: $0, text: try readText($0)) }
        for path in try swiftSources.flatMap(swiftFiles(under:)) + swiftFile {
            let source = GraphQLSourceFile(name: path, text: try readText(path))
            if let extracted = try SwiftSourceDocuments.extract(source) { documents.append(extracted) }
        }
        // Nothing is written unless every document compiled and every file generated.
        var scalars: [String: String] = [:]
        for mapping in customScalar {
            let parts = mapping.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw RelayArenaError(code: .misuse, message: "--custom-scalar takes NAME=TYPE, got \(mapping)")
            }
            scalars[parts[0]] = parts[1]
        }
        var files = try SwiftGenerator(compiler: compiler, customScalars: scalars).generate(documents)
        if let singleFile {
            guard !singleFile.isEmpty, !singleFile.contains("/") else {
                throw RelayArenaError(
                    code: .misuse, message: "--single-file takes a file name, not a path: \(singleFile)")
            }
            files = [SwiftGenerator.combine(files, name: singleFile)]
        }
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw RelayArenaError(code: .io, message: "cannot create \(output): \(error.localizedDescription)")
        }
        for file in files {
            try writeAtomically(Array(file.contents.utf8), to: (output as NSString).appendingPathComponent(file.name))
        }
    }

    /// `.swift` files under `directory`, sorted, so the documents' order (and first error) is stable.
    private func swiftFiles(under directory: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue,
            let enumerator = FileManager.default.enumerator(atPath: directory)
        else {
            throw RelayArenaError(code: .io, message: "cannot read directory \(directory)")
        }
        var paths: [String] = []
        for case let relative as String in enumerator where relative.hasSuffix(".swift") {
            paths.append((directory as NSString).appendingPathComponent(relative))
        }
        return paths.sorted()
    }
}
