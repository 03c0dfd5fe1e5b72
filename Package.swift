// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "RelayArena",
    products: [
        // The runtime: store, normalize, read, views. A package that needs nothing else depends on
        // it with `traits: []` and resolves no GraphQL parser (Tests/LibrarySample checks it).
        .library(name: "RelayArena", targets: ["RelayArena"]),
        // GraphQL documents → artifacts and generated views (GraphQLSwift).
        .library(name: "RelayArenaCompiler", targets: ["RelayArenaCompiler"]),
        // Not API: the generated to-do workloads and the yajl baseline, for Benchmarks/ only
        // (a nested package can use products alone). No compatibility promise.
        .library(name: "RelayArenaBenchmarkSupport", targets: ["RelayArenaWorkloads", "YajlBaseline"]),
        .executable(name: "relay-arena", targets: ["relay-arena"]),
        // Build-tool plugin: generates a target's typed views with relay-arena generate.
        .plugin(name: "RelayArenaGenerate", targets: ["RelayArenaGenerate"]),
    ],
    // `Compiler` (on by default) brings the compiler's and the command line's dependencies in.
    // SwiftPM resolves a dependency only when some target uses it unconditionally or under an
    // enabled trait, so `traits: []` leaves the runtime alone: no GraphQLSwift, no ArgumentParser.
    traits: [
        .trait(name: "Compiler", description: "The GraphQL compiler, the relay-arena command line and its plugin."),
        .default(enabledTraits: ["Compiler"]),
    ],
    dependencies: [
        .package(url: "https://github.com/GraphQLSwift/GraphQL", exact: "4.3.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // yajl from the system (Debian: libyajl-dev); only the C core includes it.
        .systemLibrary(
            name: "CYajl",
            path: "CSources/CYajl",
            pkgConfig: "yajl",
            providers: [.apt(["libyajl-dev"])]
        ),
        // The C core: plan interpreter, staging, arena store, symbol table, JSON import/export.
        // No unsafeFlags (SwiftPM refuses them in a versioned dependency below tools version 6.2):
        // SwiftPM's -O2 in release; .ci/run compiles it with -Wall -Wextra -Werror.
        .target(
            name: "CRelayArena",
            dependencies: ["CYajl"],
            path: "CSources/CRelayArena"
        ),
        // Runtime: artifacts, store, normalize, read. No GraphQL parser here.
        .target(
            name: "RelayArena",
            dependencies: ["CRelayArena"],
            path: "Sources/RelayArena"
        ),
        // GraphQL documents → artifacts (GraphQLSwift parses and validates).
        .target(
            name: "RelayArenaCompiler",
            dependencies: [
                "RelayArena", .product(name: "GraphQL", package: "GraphQL", condition: .when(traits: ["Compiler"])),
            ],
            path: "Sources/RelayArenaCompiler"
        ),
        // Benchmark scaffolding, in no library a user links. The malloc interposer counting the
        // process's allocations for the quick bench (linked into relay-arena only).
        .target(name: "CAllocationCounter", path: "CSources/CAllocationCounter"),
        // yajl with no-op callbacks, the parser's ceiling; yajl's own allocator, no C core header.
        .target(name: "CYajlBaseline", dependencies: ["CYajl"], path: "CSources/CYajlBaseline"),
        .target(name: "YajlBaseline", dependencies: ["CYajlBaseline"], path: "Sources/YajlBaseline"),
        // Generated to-do list workloads; the schema and query are resources (Documents/).
        .target(
            name: "RelayArenaWorkloads", dependencies: ["RelayArena", "RelayArenaCompiler"],
            path: "Sources/RelayArenaWorkloads", resources: [.copy("Documents")]),
        .executableTarget(
            name: "relay-arena",
            dependencies: [
                "RelayArena", "RelayArenaCompiler", "RelayArenaWorkloads", "YajlBaseline", "CAllocationCounter",
                .product(
                    name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Compiler"])),
            ],
            path: "Sources/relay-arena"
        ),
        .plugin(
            name: "RelayArenaGenerate", capability: .buildTool(), dependencies: ["relay-arena"],
            path: "Plugins/RelayArenaGenerate"),
        .target(
            name: "RelayArenaTestSupport", dependencies: ["RelayArena", "RelayArenaCompiler", "RelayArenaWorkloads"],
            path: "Tests/RelayArenaTestSupport",
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "RelayArenaTests",
            dependencies: ["RelayArena", "RelayArenaCompiler", "RelayArenaTestSupport", "RelayArenaWorkloads"],
            path: "Tests/RelayArenaTests",
            resources: [.copy("Golden")]),
        .testTarget(
            name: "RelayArenaCompilerTests", dependencies: ["RelayArenaCompiler", "RelayArenaTestSupport"],
            path: "Tests/RelayArenaCompilerTests"),
        .testTarget(
            name: "RelayArenaViewsTests", dependencies: ["RelayArena", "RelayArenaCompiler", "RelayArenaTestSupport"],
            path: "Tests/RelayArenaViewsTests", resources: [.process("Fixtures")]),
        .testTarget(
            name: "RelayArenaCLITests", dependencies: ["RelayArenaTestSupport", "RelayArenaWorkloads", "relay-arena"],
            path: "Tests/RelayArenaCLITests"),
    ],
    swiftLanguageModes: [.v6],
    cLanguageStandard: .gnu11
)
