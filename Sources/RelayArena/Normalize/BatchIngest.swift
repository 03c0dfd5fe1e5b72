// Batch ingestion: many responses for one operation normalized on several threads at once, each
// into its own payload, and published into one store in input order. Normalizing never reads the
// store, so the store that results is the one a one-by-one ingest makes, byte for byte.
import Foundation

/// One response of a batch: bytes in memory, or a file streamed from disk. `name` and `line` say
/// where it came from in errors and reports (`line` for a response that is one line of NDJSON).
public struct IngestResponse: Sendable {
    public enum Body: Sendable {
        case bytes([UInt8])
        case file(String)
    }
    public var body: Body
    public var name: String
    public var line: Int?

    public init(bytes: [UInt8], name: String, line: Int? = nil) {
        body = .bytes(bytes)
        self.name = name
        self.line = line
    }

    public init(fileAt path: String) {
        body = .file(path)
        name = path
        line = nil
    }

    /// `name`, or `name:line`.
    public var place: String { line.map { "\(name):\($0)" } ?? name }

    var byteCount: Int {
        switch body {
        case .bytes(let b): return b.count
        case .file(let path):
            return ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.intValue ?? 0
        }
    }
}

/// What a batch did: responses published, bytes read, and the responses skipped with their
/// errors (only with `keepGoing`).
public struct IngestReport: Sendable {
    public var published = 0
    public var bytes = 0
    public var skipped: [(response: String, error: RelayArenaError)] = []
}

/// A response of a batch that failed: where (file, line) and the normalizer's error (with its
/// byte offset in that response).
public struct IngestError: Error, CustomStringConvertible, Sendable {
    public var response: String
    public var error: RelayArenaError
    public var description: String { "\(response): \(error.description)" }
}

extension RecordStore {
    /// Normalizes `responses` for `plan` on up to `jobs` threads and publishes them in their
    /// order (with one job, on the caller's thread alone) (a store holding only its root takes the first payload's arena, as `commit` does).
    /// At most `2 × jobs` payloads wait at once, so memory follows the jobs, not the batch.
    ///
    /// A response that fails stops the batch with an `IngestError` naming it (the responses
    /// before it are published: write the store out only on success), or, with `keepGoing`, is
    /// skipped and reported. `progress` is called after each publish, on the caller's task.
    @discardableResult
    public func ingest(
        _ responses: some Sequence<IngestResponse>, plan: NormalizationPlan, rootID: String = RecordStore.rootID,
        limits: NormalizationLimits = .init(), jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        keepGoing: Bool = false, progress: ((IngestReport) -> Void)? = nil
    ) async throws -> IngestReport {
        let jobs = max(1, jobs)
        var report = IngestReport()
        func publishInTurn(_ response: IngestResponse, _ result: Result<NormalizedPayload, RelayArenaError>) throws {
            switch result {
            case .success(let payload):
                _ = try publishConsuming(payload)
                report.published += 1
                report.bytes += response.byteCount
            case .failure(let error):
                guard keepGoing else { throw IngestError(response: response.place, error: error) }
                report.skipped.append((response.place, error))
            }
            progress?(report)
        }
        if jobs == 1 {
            // One job is one thread: normalize, publish, next (what a job count measures against).
            for response in responses {
                try publishInTurn(response, Self.normalize(response, plan: plan, rootID: rootID, limits: limits))
            }
            return report
        }
        var iterator = responses.makeIterator()
        // The normalizing runs on threads of its own, not on the tasks' cooperative pool: that
        // pool has one thread a core for the whole process, and a caller (a test harness, an
        // app) blocking one of them would leave `jobs` workers sharing what is left. One serial
        // queue a job, responses dealt in turn, each queue holding the next while it works: a
        // worker finishing while the caller publishes goes straight on to its next response.
        let workers = (0..<jobs).map {
            DispatchQueue(label: "RelayArena.ingest.\($0)", qos: .userInitiated)
        }
        try await withThrowingTaskGroup(of: (Int, IngestResponse, Handoff).self) {
            group in
            var started = 0
            var nextToPublish = 0
            var ready: [Int: (IngestResponse, Result<NormalizedPayload, RelayArenaError>)] = [:]
            func startNext() -> Bool {
                guard let response = iterator.next() else { return false }
                let index = started
                started += 1
                group.addTask {
                    // The payload crosses from the worker's thread to the publishing task through
                    // a lock: a hand-off every thread sanitizer understands.
                    let handoff = Handoff()
                    await withCheckedContinuation { done in
                        workers[index % jobs].async {
                            let result = Self.normalize(response, plan: plan, rootID: rootID, limits: limits)
                            handoff.lock.withLock { handoff.result = result }
                            done.resume()
                        }
                    }
                    return (index, response, handoff)
                }
                return true
            }
            var more = true
            while more && started < 2 * jobs { more = startNext() }
            while let (index, response, handoff) = try await group.next() {
                ready[index] = (response, handoff.lock.withLock { handoff.result! })
                // Publish every payload whose turn has come, in input order.
                while let (response, result) = ready.removeValue(forKey: nextToPublish) {
                    nextToPublish += 1
                    do { try publishInTurn(response, result) } catch {
                        group.cancelAll()
                        throw error
                    }
                }
                // Keep the workers busy, with at most 2 × jobs responses started and not yet published.
                while more && started - nextToPublish < 2 * jobs { more = startNext() }
            }
        }
        return report
    }

    private final class Handoff: @unchecked Sendable {
        let lock = NSLock()
        var result: Result<NormalizedPayload, RelayArenaError>?
    }

    private static func normalize(
        _ response: IngestResponse, plan: NormalizationPlan, rootID: String, limits: NormalizationLimits
    ) -> Result<NormalizedPayload, RelayArenaError> {
        do {
            switch response.body {
            case .bytes(let bytes):
                let normalizer = try ResponseNormalizer(
                    plan: plan, rootID: rootID, limits: limits, expectedBytes: bytes.count)
                try normalizer.feed(bytes)
                return .success(try normalizer.finish())
            case .file(let path):
                return .success(
                    try ResponseNormalizer.normalize(fileAt: path, plan: plan, rootID: rootID, limits: limits))
            }
        } catch let error as RelayArenaError {
            return .failure(error)
        } catch {
            return .failure(RelayArenaError(code: .io, message: "\(error)"))
        }
    }
}
