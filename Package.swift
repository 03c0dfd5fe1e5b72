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
        // The Network on AsyncHTTPClient (HTTPNetwork); empty without the `HTTP` trait.
        .library(name: "RelayArenaHTTP", targets: ["RelayArenaHTTP"]),
        // Not API: the generated to-do workloads and the yajl baseline, for Benchmarks/ only
        // (a nested package can use products alone). No compatibility promise.
        // RelayArenaHTTPWorkloads (the fetch figures' loopback server) is empty without the `HTTP` trait.
        .library(
            name: "RelayArenaBenchmarkSupport",
            targets: ["RelayArenaWorkloads", "RelayArenaHTTPWorkloads", "YajlBaseline"]
        ),
        .executable(name: "relay-arena", targets: ["relay-arena"]),
        // Not API: the malloc interposer the quick bench preloads (LD_PRELOAD) into the child that
        // counts its allocation rows; `relay-arena bench` looks for it beside its own executable.
        // No executable links it, so no user's normalize, fetch or ingest allocates through it.
        .library(name: "RelayArenaAllocationCounter", type: .dynamic, targets: ["CAllocationCounter"]),
        // The plugin's tool: `relay-arena generate` alone (compiler and generator, no HTTP stack).
        .executable(name: "relay-arena-generate", targets: ["relay-arena-generate"]),
        // Build-tool plugin: generates a target's typed views with relay-arena-generate.
        .plugin(name: "RelayArenaGenerate", targets: ["RelayArenaGenerate"]),
    ],
    // `Compiler` (on by default) brings the compiler's and the command line's dependencies in;
    // `HTTP` (on by default) AsyncHTTPClient and SwiftNIO for RelayArenaHTTP and `relay-arena
    // fetch`, and Hummingbird for the tests' server. SwiftPM resolves a dependency only when some
    // target uses it unconditionally or under an enabled trait, so `traits: []` leaves the runtime
    // alone: no GraphQLSwift, no ArgumentParser, no SwiftNIO.
    traits: [
        .trait(name: "Compiler", description: "The GraphQL compiler, the relay-arena command line and its plugin."),
        .trait(name: "HTTP", description: "HTTPNetwork on AsyncHTTPClient and `relay-arena fetch`."),
        .default(enabledTraits: ["Compiler", "HTTP"]),
    ],
    dependencies: [
        .package(url: "https://github.com/GraphQLSwift/GraphQL", exact: "4.3.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // The tests' GraphQL server only (Tests/TodoServer); no product uses it.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
    ],
    targets: [
        // yajl from the system (Debian: libyajl-dev); only the C core includes it.
        .systemLibrary(
            name: "CYajl",
            path: "CSources/CYajl",
            pkgConfig: "yajl",
            providers: [.apt(["libyajl-dev"])]
        ),
        // xxHash from the system (Debian: libxxhash-dev): XXH3, the store snapshots' checksum; only
        // the C core includes it.
        .systemLibrary(
            name: "CXXHash",
            path: "CSources/CXXHash",
            pkgConfig: "libxxhash",
            providers: [.apt(["libxxhash-dev"])]
        ),
        // The C core: plan interpreter, staging, arena store, symbol table, JSON import/export.
        // No unsafeFlags (SwiftPM refuses them in a versioned dependency below tools version 6.2):
        // SwiftPM's -O2 in release; .ci/run compiles it with -Wall -Wextra -Werror.
        .target(
            name: "CRelayArena",
            dependencies: ["CYajl", "CXXHash"],
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
        // HTTPNetwork: the runtime's Network on AsyncHTTPClient, streaming SwiftNIO's buffers.
        .target(
            name: "RelayArenaHTTP",
            dependencies: [
                "RelayArena",
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["HTTP"])),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["HTTP"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["HTTP"])),
                .product(name: "NIOFoundationCompat", package: "swift-nio", condition: .when(traits: ["HTTP"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["HTTP"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["HTTP"])),
            ],
            path: "Sources/RelayArenaHTTP"
        ),
        // Benchmark scaffolding, in no library a user links. The malloc interposer counting a
        // process's allocations, built only as the RelayArenaAllocationCounter shared library.
        .target(name: "CAllocationCounter", path: "CSources/CAllocationCounter"),
        // yajl with no-op callbacks, the parser's ceiling; yajl's own allocator, no C core header.
        .target(name: "CYajlBaseline", dependencies: ["CYajl"], path: "CSources/CYajlBaseline"),
        .target(name: "YajlBaseline", dependencies: ["CYajlBaseline"], path: "Sources/YajlBaseline"),
        // Generated to-do list workloads; the schema and query are resources (Documents/).
        .target(
            name: "RelayArenaWorkloads", dependencies: ["RelayArena", "RelayArenaCompiler"],
            path: "Sources/RelayArenaWorkloads", resources: [.copy("Documents")]),
        // The fetch figures' loopback server (CannedServer), for `relay-arena bench` and Benchmarks/.
        .target(
            name: "RelayArenaHTTPWorkloads",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["HTTP"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["HTTP"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["HTTP"])),
            ],
            path: "Sources/RelayArenaHTTPWorkloads"),
        .executableTarget(
            name: "relay-arena",
            dependencies: [
                "RelayArena", "RelayArenaCompiler", "RelayArenaHTTP", "RelayArenaWorkloads", "RelayArenaHTTPWorkloads",
                "YajlBaseline", "RelayArenaGenerateCommand",
                .product(
                    name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Compiler"])),
            ],
            path: "Sources/relay-arena"
        ),
        // `generate` and the file helpers of the command line, shared by relay-arena and the
        // plugin's tool.
        .target(
            name: "RelayArenaGenerateCommand",
            dependencies: [
                "RelayArena", "RelayArenaCompiler",
                .product(
                    name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Compiler"])),
            ],
            path: "Sources/RelayArenaGenerateCommand"
        ),
        .executableTarget(
            name: "relay-arena-generate",
            dependencies: ["RelayArenaGenerateCommand", "RelayArena", "RelayArenaCompiler"],
            path: "Sources/relay-arena-generate"
        ),
        .plugin(
            name: "RelayArenaGenerate", capability: .buildTool(), dependencies: ["relay-arena-generate"],
            path: "Plugins/RelayArenaGenerate"),
        .target(
            name: "RelayArenaTestSupport", dependencies: ["RelayArena", "RelayArenaCompiler", "RelayArenaWorkloads"],
            path: "Tests/RelayArenaTestSupport",
            resources: [.copy("Fixtures")]),
        // A GraphQL server for the tests on loopback (Hummingbird + GraphQLSwift over the to-do
        // schema), with canned and faulty routes. In no product: users never resolve Hummingbird.
        .target(
            name: "TodoServer",
            dependencies: [
                "RelayArenaWorkloads",
                .product(name: "GraphQL", package: "GraphQL", condition: .when(traits: ["HTTP"])),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["HTTP"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["HTTP"])),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["HTTP"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["HTTP"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["HTTP"])),
            ],
            path: "Tests/TodoServer"),
        .testTarget(
            name: "RelayArenaTests",
            dependencies: ["RelayArena", "RelayArenaCompiler", "RelayArenaTestSupport", "RelayArenaWorkloads"],
            path: "Tests/RelayArenaTests",
            resources: [.copy("Golden")]),
        .testTarget(
            name: "RelayArenaCompilerTests", dependencies: ["RelayArenaCompiler", "RelayArenaTestSupport"],
            path: "Tests/RelayArenaCompilerTests"),
        .testTarget(
            name: "RelayArenaEnvironmentTests",
            dependencies: [
                "RelayArena", "RelayArenaCompiler", "RelayArenaHTTP", "RelayArenaTestSupport", "TodoServer",
            ],
            path: "Tests/RelayArenaEnvironmentTests", resources: [.process("Fixtures")]),
        .testTarget(
            name: "RelayArenaCLITests",
            dependencies: ["RelayArenaTestSupport", "RelayArenaWorkloads", "TodoServer", "relay-arena"],
            path: "Tests/RelayArenaCLITests"),
        .testTarget(
            name: "RelayArenaHTTPTests",
            dependencies: [
                "RelayArena", "RelayArenaCompiler", "RelayArenaHTTP", "RelayArenaTestSupport", "RelayArenaWorkloads",
                "TodoServer",
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["HTTP"])),
            ],
            path: "Tests/RelayArenaHTTPTests"),
    ],
    swiftLanguageModes: [.v6],
    cLanguageStandard: .gnu11
)
