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

/// What a batch did: responses published, bytes read, the responses skipped with their errors
/// (only with `keepGoing`), and relay's warnings of the published ones (a page that does not
/// follow its connection, dropped as relay drops it).
public struct IngestReport: Sendable {
    public var published = 0
    public var bytes = 0
    public var skipped: [(response: String, error: RelayArenaError)] = []
    public var warnings: [(response: String, event: LogEvent)] = []
}

/// What a response of a batch came to in its turn.
private enum Settled {
    case published(bytes: Int, warnings: [LogEvent])
    case skipped(RelayArenaError)
    case failed(any Error)
}

extension IngestReport {
    /// Counts `response` as `settled`; returns the error that ends the batch, if it is one.
    fileprivate mutating func count(_ settled: Settled, of response: IngestResponse) -> (any Error)? {
        switch settled {
        case .published(let bytes, let events):
            published += 1
            self.bytes += bytes
            warnings += events.map { (response.place, $0) }
        case .skipped(let error): skipped.append((response.place, error))
        case .failed(let error): return error
        }
        return nil
    }
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
    /// skipped and reported. `progress` is called after each publish, in order, on the caller's
    /// task. Cancelling the caller's task stops the batch: it returns, throwing
    /// `CancellationError`, once no worker is left, the store holding the responses published
    /// before then (in order). With several jobs the workers iterate `responses`, one at a time.
    @discardableResult
    public func ingest(
        _ responses: some Sequence<IngestResponse>, plan: NormalizationPlan, rootID: String = RecordStore.rootID,
        limits: NormalizationLimits = .init(), jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        keepGoing: Bool = false, progress: ((IngestReport) -> Void)? = nil
    ) async throws -> IngestReport {
        let jobs = max(1, jobs)
        if jobs == 1 {
            // One job is one thread: normalize, publish, next (what a job count measures against).
            var report = IngestReport()
            for response in responses {
                try Task.checkCancellation()
                let result = Self.normalize(response, plan: plan, rootID: rootID, limits: limits)
                if let failure = report.count(
                    publishInTurn(response, result, plan: plan, rootID: rootID, keepGoing: keepGoing), of: response)
                {
                    throw failure
                }
                progress?(report)
            }
            return report
        }
        // The normalizing runs on threads of its own, not on the tasks' cooperative pool: that
        // pool has one thread a core for the whole process, and a caller (a test harness, an
        // app) blocking one of them would leave `jobs` workers sharing what is left. Each worker
        // takes the next response, normalizes it, and publishes it itself when its turn has come
        // (with the payload still in its core's cache); a payload that finishes early waits for
        // whichever worker is publishing then. The caller's task only hears of progress.
        let batch = Batch(AnyIterator(responses.makeIterator()), window: 2 * jobs, workers: jobs)
        let (reports, reporter) = AsyncStream.makeStream(of: IngestReport.self, bufferingPolicy: .unbounded)
        let wantsProgress = progress != nil
        for worker in 0..<jobs {
            DispatchQueue(label: "RelayArena.ingest.\(worker)", qos: .userInitiated).async {
                batch.work(publishingInto: self, plan: plan, rootID: rootID, limits: limits, keepGoing: keepGoing) {
                    if wantsProgress { reporter.yield($0) }
                }
                if batch.workerFinished() { reporter.finish() }
            }
        }
        await withTaskCancellationHandler {
            for await step in reports { progress?(step) }
            // A cancelled task's stream ends at once: the workers may still be publishing.
            await batch.finished()
        } onCancel: {
            batch.stop(CancellationError())
        }
        return try batch.outcome()
    }

    /// What a batch's workers share, under one lock: the responses not started, the payloads
    /// waiting for their turn, whether one worker is publishing, and how it ended.
    private final class Batch: @unchecked Sendable {
        private let condition = NSCondition()
        private var responses: AnyIterator<IngestResponse>
        private var started = 0
        private var nextToPublish = 0
        private var ready: [Int: (IngestResponse, Result<NormalizedPayload, RelayArenaError>)] = [:]
        private var publishing = false
        private var exhausted = false
        private var stopped: (any Error)?
        private var report = IngestReport()
        private var running: Int
        private var whenFinished: CheckedContinuation<Void, Never>?
        /// At most this many responses started and not yet published: memory follows the jobs.
        private let window: Int

        init(_ responses: AnyIterator<IngestResponse>, window: Int, workers: Int) {
            self.responses = responses
            self.window = window
            running = workers
        }

        /// Ends the batch: no worker starts another response, nothing more is published.
        func stop(_ error: any Error) {
            condition.withLock {
                if stopped == nil { stopped = error }
                condition.broadcast()
            }
        }

        /// True for the last worker to finish.
        func workerFinished() -> Bool {
            let (last, waiting) = condition.withLock {
                running -= 1
                defer { if running == 0 { whenFinished = nil } }
                return (running == 0, running == 0 ? whenFinished : nil)
            }
            waiting?.resume()
            return last
        }

        /// Returns once every worker has finished.
        func finished() async {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                let now = condition.withLock {
                    if running == 0 { return true }
                    whenFinished = done
                    return false
                }
                if now { done.resume() }
            }
        }

        func outcome() throws -> IngestReport {
            try condition.withLock {
                if let stopped { throw stopped }
                return report
            }
        }

        /// The next response to normalize and its place in the input, waiting while the window
        /// is full; nil when the input is done or the batch stopped.
        private func next() -> (Int, IngestResponse)? {
            condition.withLock {
                while stopped == nil && !exhausted && started - nextToPublish >= window { condition.wait() }
                guard stopped == nil, !exhausted, let response = responses.next() else {
                    exhausted = true
                    return nil
                }
                started += 1
                return (started - 1, response)
            }
        }

        func work(
            publishingInto store: RecordStore, plan: NormalizationPlan, rootID: String, limits: NormalizationLimits,
            keepGoing: Bool, progress: (IngestReport) -> Void
        ) {
            while let (index, response) = next() {
                let result = RecordStore.normalize(response, plan: plan, rootID: rootID, limits: limits)
                condition.lock()
                ready[index] = (response, result)
                // Another worker is publishing: it takes this payload when its turn comes.
                guard !publishing else {
                    condition.unlock()
                    continue
                }
                publishing = true
                while stopped == nil, let (response, result) = ready.removeValue(forKey: nextToPublish) {
                    condition.unlock()
                    let settled = store.publishInTurn(
                        response, result, plan: plan, rootID: rootID, keepGoing: keepGoing)
                    condition.lock()
                    nextToPublish += 1
                    if let failure = report.count(settled, of: response), stopped == nil { stopped = failure }
                    let step = report
                    condition.broadcast()
                    // Reports leave in publish order: only the publishing worker sends them.
                    if stopped == nil { progress(step) }
                }
                publishing = false
                condition.unlock()
            }
        }
    }

    /// Publishes a response's payload in its turn, or settles its failure (skipped with
    /// `keepGoing`, else the batch's end).
    fileprivate func publishInTurn(
        _ response: IngestResponse, _ result: Result<NormalizedPayload, RelayArenaError>, plan: NormalizationPlan,
        rootID: String, keepGoing: Bool
    ) -> Settled {
        switch result {
        case .success(let payload):
            do {
                var warnings: [LogEvent] = []
                _ = try publishResponse(payload, plan: plan, rootID: rootID) { warnings.append($0) }
                return .published(bytes: response.byteCount, warnings: warnings)
            } catch { return .failed(error) }
        case .failure(let error):
            return keepGoing ? .skipped(error) : .failed(IngestError(response: response.place, error: error))
        }
    }

    fileprivate static func normalize(
        _ response: IngestResponse, plan: NormalizationPlan, rootID: String, limits: NormalizationLimits
    ) -> Result<NormalizedPayload, RelayArenaError> {
        do {
            switch response.body {
            case .bytes(let bytes):
                return .success(
                    try ResponseNormalizer.normalize(response: bytes, plan: plan, rootID: rootID, limits: limits))
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
