// swift-tools-version:6.1
// A package using the RelayArenaGenerate build-tool plugin of this RelayArena checkout; `check.sh`
// builds and runs it. Not part of the main package's build.
import Foundation
import PackageDescription

// check.sh hands in the checkout as a tagged git repository (RELAY_ARENA_SAMPLE_URL), so that
// the sample depends on RelayArena by version, as a user's package does: SwiftPM checks more of
// such a dependency (unsafe build flags, for one) than of a path. Without it, the enclosing
// checkout (`../..`) by path. Either way the package's identity is the last path component.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
let versioned = Context.environment["RELAY_ARENA_SAMPLE_URL"]
let relayArena = versioned.map { URL(string: $0)!.lastPathComponent } ?? root.lastPathComponent
// The default traits, as a package written from the README has them: the plugin's tool
// (relay-arena-generate) needs the compiler alone, so the build compiles no SwiftNIO, no BoringSSL
// and no workloads (check.sh checks the modules compiled).
let dependency: Package.Dependency =
    versioned.map { .package(url: $0, exact: "1.0.0") } ?? .package(path: root.path)

let package = Package(
    name: "PluginSample",
    dependencies: [dependency],
    targets: [
        .executableTarget(
            name: "PluginSample",
            dependencies: [.product(name: "RelayArena", package: relayArena)],
            plugins: [.plugin(name: "RelayArenaGenerate", package: relayArena)]
        )
    ],
    swiftLanguageModes: [.v6]
)
