// swift-tools-version:6.1
// A package depending on the RelayArena runtime product alone; `check.sh` builds and runs it and
// checks that it resolves and compiles no GraphQL parser. Not part of the main package's build.
import Foundation
import PackageDescription

// As in Tests/PluginSample: check.sh hands in the checkout as a tagged git repository
// (RELAY_ARENA_SAMPLE_URL) so that the dependency is by version, as a user's; without it, the
// enclosing checkout by path.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
let versioned = Context.environment["RELAY_ARENA_SAMPLE_URL"]
let relayArena = versioned.map { URL(string: $0)!.lastPathComponent } ?? root.lastPathComponent
let dependency: Package.Dependency =
    versioned.map { .package(url: $0, exact: "1.0.0", traits: []) }
    ?? .package(path: root.path, traits: [])

let package = Package(
    name: "LibrarySample",
    dependencies: [dependency],
    targets: [
        .executableTarget(
            name: "LibrarySample",
            dependencies: [.product(name: "RelayArena", package: relayArena)]
        )
    ],
    swiftLanguageModes: [.v6]
)
