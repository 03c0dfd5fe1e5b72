// swift-tools-version:6.1
// The benchmark suite, a package of its own so that users of RelayArena never resolve
// package-benchmark. Run from this folder: `swift package --disable-sandbox benchmark`.
import PackageDescription

let benchmarkDependencies: [Target.Dependency] = [
    .product(name: "Benchmark", package: "package-benchmark"),
    .product(name: "RelayArena", package: "RelayArena"),
    .product(name: "RelayArenaBenchmarkSupport", package: "RelayArena"),
]

/// Lifecycle alone: it compares with a SQLite cache (GRDB).
let lifecycleDependencies: [Target.Dependency] = [
    .product(name: "GRDB", package: "GRDB.swift")
]

let package = Package(
    name: "RelayArenaBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // The compiler for the benchmark support; HTTP for the Environment target's fetch figure
        // (HTTPNetwork, and the loopback server in RelayArenaBenchmarkSupport).
        .package(name: "RelayArena", path: "..", traits: ["Compiler", "HTTP"]),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        // Lifecycle's comparator: a SQLite normalized cache as Apollo iOS keeps one.
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: ["Ingest", "Refetch", "Reads", "Environment", "Lifecycle", "Compile"].map { name in
        .executableTarget(
            name: name,
            dependencies: benchmarkDependencies
                + (name == "Environment" ? [.product(name: "RelayArenaHTTP", package: "RelayArena")] : [])
                + (name == "Lifecycle" ? lifecycleDependencies : [])
                + (name == "Compile" ? [.product(name: "RelayArenaCompiler", package: "RelayArena")] : []),
            path: "Benchmarks/\(name)",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        )
    }
)
