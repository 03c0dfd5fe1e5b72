// The quick bench's fetch figure: the to-do list over loopback HTTP through AsyncHTTPClient into an
// empty store (`relay-arena fetch` against CannedServer), against ingesting the same bytes from a
// file (`relay-arena normalize`), both whole child processes timed alike; and the fetching
// child's peak memory against the store.
#if HTTP
    import Foundation
    import RelayArena
    import RelayArenaHTTP
    import RelayArenaHTTPWorkloads
    import RelayArenaWorkloads

    extension Bench {
        struct FetchFigures {
            /// In this process: the environment's exchange over HTTPNetwork → a new store, vs `commit(response:)`.
            var inProcessSeconds = Double.infinity
            var fromMemorySeconds = Double.infinity
            /// The median of the rounds' ratios of the two, and how many rounds.
            var inProcessRatio = Double.nan
            var rounds = 0
            /// Whole child processes: `relay-arena fetch` vs `relay-arena normalize` of a file.
            var fetchSeconds = Double.infinity
            var normalizeSeconds = Double.infinity
            /// The fetching child's peak RSS above that of a child fetching a one-todo list.
            var peakGrowth: Int?
        }

        func fetchFigures(_ response: [UInt8]) throws -> FetchFigures {
            let server = try CannedServer(body: response)
            let small = try CannedServer(body: TodoListWorkload(todos: 1).response())
            defer {
                server.stop()
                small.stop()
            }
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("relay-arena-fetch-\(getpid())")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let file = dir.appendingPathComponent("response.json")
            try Data(response).write(to: file)
            let documents = [
                "--schema", TodoListDocuments.schemaURL.path, "--document", TodoListDocuments.queryURL.path,
            ]
            let variables = ["--variables", "{\"first\":\(todos)}"]
            var figures = FetchFigures()
            var peak: Int?
            let plan = try TodoListSetup.plan(todos: todos)
            let network = HTTPNetwork(endpoint: server.url)
            let request = GraphQLRequest(
                operation: try TodoListSetup.operation(), variables: ["first": .int(Int64(todos))])
            // In this process, as the suite's Environment benchmark measures it: which side goes
            // first alternates, each starts with the arena's retained memory given back (so both
            // write into fresh pages), and the figure is the median ratio of a round's two sides.
            var ratios: [Double] = []
            for round in 0..<max(repetitions, Self.pairedRounds) {
                func fetch() throws -> (Double, Int) {
                    RecordStore.releaseRetainedMemory()
                    return try Self.blocking {
                        let start = DispatchTime.now().uptimeNanoseconds
                        // The environment's exchange (`fetchQuery`'s), without the main actor.
                        let payload = try await Environment.receive(
                            request, network: network, options: RequestOptions(), limits: NormalizationLimits())
                        let count = try RecordStore().publishConsuming(payload).count
                        return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, count)
                    }
                }
                func fromMemory() throws -> (Double, Int) {
                    RecordStore.releaseRetainedMemory()
                    let start = DispatchTime.now().uptimeNanoseconds
                    let count = try RecordStore().commit(response: response, plan: plan).count
                    return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, count)
                }
                let (fetched, ingested) = try alternately(round % 2 == 0, fetch, fromMemory)
                guard ingested.1 == fetched.1 else {
                    throw RelayArenaError(
                        code: .misuse, message: "fetched \(fetched.1) records, ingested \(ingested.1)")
                }
                figures.inProcessSeconds = min(figures.inProcessSeconds, fetched.0)
                figures.fromMemorySeconds = min(figures.fromMemorySeconds, ingested.0)
                ratios.append(fetched.0 / ingested.0)
            }
            figures.inProcessRatio = median(ratios)
            figures.rounds = ratios.count
            for _ in 0..<repetitions {
                let fetch = try child(
                    ["fetch", "--endpoint", server.url] + documents + variables + ["--quiet", "--print-peak-rss"],
                    in: dir)
                figures.fetchSeconds = min(figures.fetchSeconds, fetch.seconds)
                peak = fetch.peak
                let normalize = try child(["normalize"] + documents + variables + ["--quiet", file.path], in: dir)
                figures.normalizeSeconds = min(figures.normalizeSeconds, normalize.seconds)
            }
            let baseline = try child(
                ["fetch", "--endpoint", small.url] + documents + [
                    "--variables", #"{"first":1}"#, "--quiet", "--print-peak-rss",
                ],
                in: dir)
            if let peak, let base = baseline.peak { figures.peakGrowth = peak - base }
            return figures
        }

        /// Runs `body` on the concurrency pool and waits for it (the bench is synchronous; nothing
        /// here needs the main actor, so blocking the main thread cannot deadlock).
        static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
            let box = ResultBox<T>()
            let done = DispatchSemaphore(value: 0)
            Task.detached {
                do { box.result = Result<T, any Error>.success(try await body()) } catch {
                    box.result = Result<T, any Error>.failure(error)
                }
                done.signal()
            }
            done.wait()
            return try box.result!.get()
        }

        /// Runs this executable with `arguments`; its wall time and, when it prints one, its peak RSS.
        private func child(_ arguments: [String], in dir: URL) throws -> (seconds: Double, peak: Int?) {
            let errURL = dir.appendingPathComponent("stderr")
            _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            process.arguments = arguments
            process.standardError = try FileHandle(forWritingTo: errURL)
            let start = DispatchTime.now().uptimeNanoseconds
            try process.run()
            process.waitUntilExit()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let text = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
            guard process.terminationStatus == 0 else {
                throw RelayArenaError(code: .io, message: "relay-arena \(arguments[0]) failed: \(text)")
            }
            let line = text.split(separator: "\n").first { $0.hasPrefix("peak_rss_bytes: ") }
            return (seconds, line.flatMap { Int($0.dropFirst("peak_rss_bytes: ".count)) })
        }
    }
    /// Where `Bench.blocking` leaves its result (written by the task before it signals).
    final class ResultBox<T>: @unchecked Sendable {
        var result: Result<T, any Error>?
    }
#endif
