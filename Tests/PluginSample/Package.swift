// swift-tools-version:6.0
// A package using the RelayArenaGenerate build-tool plugin from the enclosing RelayArena checkout
// (`../..`); `check.sh` builds and runs it. Not part of the main package's build.
import Foundation
import PackageDescription

// A path dependency's identity is its directory's name, whatever the checkout is called.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
let relayArena = root.lastPathComponent

let package = Package(
    name: "PluginSample",
    dependencies: [.package(path: root.path)],
    targets: [
        .executableTarget(
            name: "PluginSample",
            dependencies: [.product(name: "RelayArena", package: relayArena)],
            plugins: [.plugin(name: "RelayArenaGenerate", package: relayArena)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
