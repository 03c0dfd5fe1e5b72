// SwiftPM build-tool plugin: runs `relay-arena-generate --single-file` (what `relay-arena generate` does)
// documents and the `graphql("""…""")` literals of its Swift sources, into the plugin work directory.
import Foundation
import PackagePlugin

/// The rule for finding the schema: the target folder holds `relay-arena.json`,
/// `{"schema": "PATH"}`, PATH relative to the package root, with `"clientSchema": "PATH"` (or a
/// list of them) for client schema extensions, `"customScalars": {"DateTime": "String"}` for the
/// Swift types of custom scalars and `"enforceFragmentAlias": false` to accept the spreads relay
/// v19 requires `@alias` on. Every other `.graphql` file of the target is a
/// document; the one output, `RelayArenaGenerated.swift`, is compiled into the target.
@main
struct RelayArenaGenerate: BuildToolPlugin {
    static let configName = "relay-arena.json"
    static let outputName = "RelayArenaGenerated.swift"

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SwiftSourceModuleTarget else { return [] }
        let config = module.directoryURL.appendingPathComponent(Self.configName)
        let (schema, clientSchema, scalars, enforceAlias) = try Self.schemaURLs(
            config: config, packageRoot: context.package.directoryURL, target: target.name)
        let files = module.sourceFiles.map(\.url)
        let schemas = Set(([schema] + clientSchema).map(\.standardizedFileURL))
        let documents = files.filter { $0.pathExtension == "graphql" && !schemas.contains($0.standardizedFileURL) }
            .sorted { $0.path < $1.path }
        let swiftSources = files.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent(Self.outputName)

        var arguments = ["--schema", schema.path]
        for file in clientSchema { arguments += ["--client-schema", file.path] }
        for (name, type) in scalars.sorted(by: { $0.key < $1.key }) {
            arguments += ["--custom-scalar", "\(name)=\(type)"]
        }
        if !enforceAlias { arguments.append("--no-enforce-fragment-alias") }
        for document in documents { arguments += ["--document", document.path] }
        for source in swiftSources { arguments += ["--swift-file", source.path] }
        arguments += ["--output", context.pluginWorkDirectoryURL.path, "--single-file", Self.outputName]
        return [
            .buildCommand(
                displayName:
                    "relay-arena-generate (\(target.name): \(documents.count) documents, \(swiftSources.count) Swift files)",
                executable: try context.tool(named: "relay-arena-generate").url,
                arguments: arguments,
                inputFiles: [config, schema] + clientSchema + documents + swiftSources,
                outputFiles: [output])
        ]
    }

    static func schemaURLs(config: URL, packageRoot: URL, target: String) throws -> (
        URL, [URL], [String: String], Bool
    ) {
        guard let data = FileManager.default.contents(atPath: config.path) else {
            throw PluginError(
                "target \(target): RelayArenaGenerate needs \(config.path) naming the schema, e.g. {\"schema\": \"schema.graphql\"} (relative to the package root)"
            )
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let schema = object["schema"] as? String, !schema.isEmpty
        else {
            throw PluginError("\(config.path): expected {\"schema\": \"PATH\"} with PATH relative to the package root")
        }
        var client: [String] = []
        switch object["clientSchema"] {
        case nil: break
        case let one as String: client = [one]
        case let many as [String]: client = many
        default:
            throw PluginError(
                "\(config.path): \"clientSchema\" must be a PATH or a list of them, relative to the package root")
        }
        var scalars: [String: String] = [:]
        if let value = object["customScalars"] {
            guard let map = value as? [String: String] else {
                throw PluginError("\(config.path): \"customScalars\" must map scalar names to Swift types")
            }
            scalars = map
        }
        var enforceAlias = true
        if let value = object["enforceFragmentAlias"] {
            guard let flag = value as? Bool else {
                throw PluginError("\(config.path): \"enforceFragmentAlias\" must be true or false")
            }
            enforceAlias = flag
        }
        return (
            packageRoot.appendingPathComponent(schema), client.map { packageRoot.appendingPathComponent($0) }, scalars,
            enforceAlias
        )
    }
}

struct PluginError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
