// Runs the built `relay-arena` executable (a dependency of the CLI tests, so it is built first)
// and captures its exit status, stdout and stderr.
import Foundation

public struct CLIResult {
    public var status: Int32
    public var stdout: [UInt8]
    public var stderr: String
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
}

public enum CLI {
    /// The products directory holding both the test bundle and `relay-arena`.
    public static var executable: URL {
        var dir = Bundle.main.bundleURL
        if dir.pathExtension == "xctest" { dir = dir.deletingLastPathComponent() }
        return dir.appendingPathComponent("relay-arena")
    }

    /// The allocation counter's shared library (the RelayArenaAllocationCounter product), which
    /// `relay-arena bench` preloads into the child that counts its allocation rows; built beside
    /// `relay-arena` by `swift build` and `swift test`, or by `--product RelayArenaAllocationCounter`.
    /// Whether this test process runs under a sanitizer (its runtime brings its own allocator,
    /// and the relay-arena it runs is built the same way).
    public static var underSanitizer: Bool {
        ["__asan_init", "__tsan_init", "__msan_init"].contains { (name: String) in dlsym(nil, name) != nil }
    }

    public static var allocationCounterLibrary: URL {
        executable.deletingLastPathComponent().appendingPathComponent("libRelayArenaAllocationCounter.so")
    }

    /// A fixed hash key for runs whose snapshots are compared byte for byte across processes (a
    /// snapshot's bytes are laid out under its key, which each process otherwise draws at random).
    public static let fixedHashKey = ["RELAY_ARENA_HASH_KEY": "0123456789abcdef0fedcba987654321"]

    public static func run(_ args: [String], stdin: [UInt8]? = nil, environment: [String: String] = [:]) throws
        -> CLIResult
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = args
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        // Outputs go to files: no pipe can fill up and block the child.
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let outURL = dir.appendingPathComponent("stdout")
        let errURL = dir.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin)) }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return CLIResult(
            status: process.terminationStatus, stdout: Array(try Data(contentsOf: outURL)),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// A fresh temporary directory.
    public static func tempDir() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "relay-arena-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
