// `relay-arena fetch`: send an operation to a GraphQL endpoint, stream the response into a store
// as it arrives, and write the store as `normalize` does. Only with the `HTTP` trait.
#if HTTP
    import ArgumentParser
    import Foundation
    import RelayArena
    import RelayArenaHTTP
    import RelayArenaWorkloads

    struct Fetch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "POST an operation to a GraphQL endpoint, normalize the response into a store (new, or loaded with --store) as it streams in, and print the store as relay toJSON JSON."
        )

        @Option(help: "The GraphQL endpoint (an http or https URL).")
        var endpoint: String

        @OptionGroup var documents: DocumentOptions

        @Option(name: .customLong("header"), help: "An HTTP header to send, 'Name: value'; repeat for several.")
        var headers: [String] = []

        @Option(help: "Seconds the whole request may take, the body's last byte included (as curl's --max-time).")
        var timeout: Double?

        @OptionGroup var stores: StoreOptions

        @Flag(help: "Fetch, normalize and publish but print nothing on stdout (files asked for are still written).")
        var quiet = false

        @Flag(name: .customLong("print-peak-rss"), help: .hidden)
        var printPeakRSS = false

        func validate() throws {
            if let timeout, !(timeout > 0 && timeout.isFinite) {
                throw ValidationError("--timeout must be a positive number of seconds")
            }
            for header in headers where Self.parse(header: header) == nil {
                throw ValidationError("--header must be 'Name: value', not '\(header)'")
            }
        }

        func run() async throws {
            let (_, operation, variables) = try documents.compile()
            let request = GraphQLRequest(operation: operation, variables: variables)
            let plan = try NormalizationPlan(operation: operation, variables: request.variables)
            let target = try stores.load()
            let options = RequestOptions(
                headers: headers.compactMap(Self.parse(header:)),
                timeout: timeout.map { .nanoseconds(Int64(($0 * 1e9).rounded())) })

            let response = try await HTTPNetwork(endpoint: endpoint).execute(request, options: options)
            guard (200..<300).contains(response.status) else {
                throw FetchError(
                    kind: .status(response.status), operation: request.name,
                    message: "HTTP status \(response.status)" + (await Self.excerpt(response.body)))
            }
            let normalizer = try ResponseNormalizer(plan: plan, expectedBytes: response.contentLength)
            // The start of the body, kept to say what a server's `errors` were when it sent no data.
            var start: [UInt8] = []
            let payload: NormalizedPayload
            do {
                for try await chunk in response.body {
                    try chunk.withUnsafeBytes { bytes in
                        if start.count < Self.errorsKept { start += bytes.prefix(Self.errorsKept - start.count) }
                        try normalizer.feed(bytes)
                    }
                }
                payload = try normalizer.finish()
            } catch let error as RelayArenaError where error.code == .invalidResponse {
                throw Self.graphQLErrors(start, operation: request.name) ?? error
            }
            // Into a new store, as `normalize` does: the store takes the payload's arena whole.
            let updated = try stores.store == nil ? target.publishConsuming(payload) : target.publish(payload)
            if printPeakRSS {
                FileHandle.standardError.write(Data("peak_rss_bytes: \(ProcessMemory.peakResidentBytes)\n".utf8))
            }
            try writeResults(target, updated, stores: stores, quiet: quiet)
        }

        static let errorsKept = 64 * 1024

        /// `{"errors": [...], "data": null}` (a body short enough to be kept whole) as a FetchError
        /// naming the first error; `nil` for any other body.
        static func graphQLErrors(_ body: [UInt8], operation: String) -> FetchError? {
            guard body.count < errorsKept,
                let members = try? JSONValue(parsing: String(decoding: body, as: UTF8.self)).objectMembers,
                case .array(let errors)? = members.first(where: { $0.key == "errors" })?.value,
                members.first(where: { $0.key == "data" })?.value ?? .null == .null
            else { return nil }
            let first = errors.first?.objectMembers?.first { $0.key == "message" }?.value
            guard case .string(let message)? = first else { return nil }
            let more = errors.count > 1 ? " (and \(errors.count - 1) more)" : ""
            return FetchError(
                kind: .graphQLErrors, operation: operation,
                message: "the server sent errors and no data: \(message)\(more)")
        }

        /// `Name: value` → (name, value), both trimmed; `nil` without a colon or a name.
        static func parse(header: String) -> (name: String, value: String)? {
            guard let colon = header.firstIndex(of: ":") else { return nil }
            let name = header[..<colon].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { return nil }
            return (name, header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }

        /// The start of an error response's body, on one line (": …"), or nothing when it has none.
        static func excerpt(_ body: ResponseBody) async -> String {
            var bytes: [UInt8] = []
            do {
                for try await chunk in body {
                    chunk.withUnsafeBytes { bytes += $0.prefix(200 - bytes.count) }
                    if bytes.count >= 200 { break }
                }
            } catch {}  // the status is the error; a body that fails too adds nothing
            let text = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).joined(separator: " ")
            return text.isEmpty ? "" : ": " + text
        }
    }
#endif
