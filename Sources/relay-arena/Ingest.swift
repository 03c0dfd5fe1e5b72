// `relay-arena ingest`: many responses for one operation (files, directories of *.json, NDJSON
// from files or stdin) normalized across cores, published in input order, written as one snapshot.
import ArgumentParser
import Foundation
import RelayArena
import RelayArenaGenerateCommand

struct Ingest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Normalize many responses across cores, publish them in input order and write one snapshot.",
        discussion: """
            Inputs are response files, directories (their *.json files, in name order) and NDJSON \
            (one response a line: files named *.ndjson or *.jsonl, and - for standard input). The \
            store equals normalizing the same responses one after another. A bad response: exit 1 \
            naming it (file and line) and its byte offset, nothing written; with --keep-going it is \
            skipped and reported, and the exit status is 2.
            """)

    @OptionGroup var documents: DocumentOptions

    @Option(help: "Start from this store (relay toJSON JSON or a snapshot).")
    var store: String?

    @Option(help: "Responses normalized at once (default: every core).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(
        inversion: .prefixedNo,
        help: "A progress line on stderr: responses, bytes, throughput, time left (default: when stderr is a terminal)."
    )
    var progress: Bool?

    @Flag(name: .customLong("keep-going"), help: "Skip a bad response (reported on stderr; exit status 2 at the end).")
    var keepGoing = false

    @Option(
        name: .customLong("max-bytes"),
        help: "The largest response accepted, in bytes: at least 1 (there is no unlimited; default 1 GiB).")
    var maxBytes: UInt64 = NormalizationLimits.defaultMaxBytes

    @Option(help: "The snapshot to write.")
    var output: String

    @ArgumentParser.Argument(help: "Response files, directories of *.json, NDJSON files (*.ndjson, *.jsonl), or -.")
    var inputs: [String]

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        try validateMaxBytes(maxBytes)
        guard !inputs.isEmpty else { throw ValidationError("no input given") }
    }

    func run() async throws {
        let (_, operation, variables) = try documents.compile()
        let plan = try NormalizationPlan(operation: operation, variables: variables)
        let target = try store.map(loadStore) ?? RecordStore()
        let (responses, totalBytes) = try IngestInputs.expand(inputs)
        let show = progress ?? (isatty(STDERR_FILENO) == 1)
        let meter = IngestProgress(totalBytes: totalBytes, enabled: show)
        let report: IngestReport
        do {
            report = try await target.ingest(
                responses, plan: plan, limits: NormalizationLimits(maxBytes: maxBytes), jobs: jobs,
                keepGoing: keepGoing
            ) { meter.update($0) }
        } catch let error as IngestError {
            meter.end()
            throw RelayArenaError(code: error.error.code, message: error.description, offset: error.error.offset)
        }
        meter.end()
        try writeCanonicalSnapshot(target, to: output)
        for (response, event) in report.warnings {
            FileHandle.standardError.write(Data("relay-arena: warning: \(response): \(event.message)\n".utf8))
        }
        for (response, error) in report.skipped {
            FileHandle.standardError.write(
                Data("relay-arena: skipped \(oneLine("\(response): \(error.description)"))\n".utf8))
        }
        if !report.skipped.isEmpty { throw ExitCode(2) }
    }
}

/// The command line's inputs as responses, in order, and their bytes when known (files).
enum IngestInputs {
    static func expand(_ inputs: [String]) throws -> ([IngestResponse], Int?) {
        var responses: [IngestResponse] = []
        var total: Int? = 0
        for input in inputs {
            if input == "-" {
                responses += try ndjson(FileHandle.standardInput.readDataToEndOfFile(), name: "<stdin>")
                total = nil
                continue
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else {
                throw RelayArenaError(code: .io, message: "cannot read \(input): no such file or directory")
            }
            if isDirectory.boolValue {
                let names = try FileManager.default.contentsOfDirectory(atPath: input).filter { $0.hasSuffix(".json") }
                for name in names.sorted() {
                    let path = (input as NSString).appendingPathComponent(name)
                    responses.append(IngestResponse(fileAt: path))
                    total = total.map { $0 + fileSize(path) }
                }
            } else if input.hasSuffix(".ndjson") || input.hasSuffix(".jsonl") {
                guard let data = FileManager.default.contents(atPath: input) else {
                    throw RelayArenaError(code: .io, message: "cannot read \(input)")
                }
                responses += try ndjson(data, name: input)
                total = total.map { $0 + data.count }
            } else {
                responses.append(IngestResponse(fileAt: input))
                total = total.map { $0 + fileSize(input) }
            }
        }
        return (responses, total)
    }

    /// One response a non-empty line, named by the file and the line's number.
    static func ndjson(_ data: Data, name: String) throws -> [IngestResponse] {
        var responses: [IngestResponse] = []
        var line = 0
        for piece in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
            line += 1
            let bytes = Array(piece.last == 0x0D ? piece.dropLast() : piece[...])
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            responses.append(IngestResponse(bytes: bytes, name: name, line: line))
        }
        return responses
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.intValue ?? 0
    }
}

/// The progress line on stderr, rewritten in place at most five times a second.
final class IngestProgress {
    let totalBytes: Int?
    let enabled: Bool
    private let start = DispatchTime.now().uptimeNanoseconds
    private var last: UInt64 = 0
    private var shown = false

    init(totalBytes: Int?, enabled: Bool) {
        self.totalBytes = totalBytes
        self.enabled = enabled
    }

    func update(_ report: IngestReport, force: Bool = false) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard force || now - last > 200_000_000 else { return }
        last = now
        let seconds = max(Double(now - start) / 1e9, 1e-6)
        let mb = Double(report.bytes) / 1e6
        var line = String(
            format: "\rrelay-arena: ingest: %d responses, %.1f MB, %.0f MB/s", report.published, mb, mb / seconds)
        if let totalBytes, report.bytes > 0 {
            let left = Double(totalBytes - report.bytes) / (Double(report.bytes) / seconds)
            line += String(format: ", %.0f s left", max(0, left))
        }
        FileHandle.standardError.write(Data((line + "   ").utf8))
        shown = true
    }

    func end() {
        if shown { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
