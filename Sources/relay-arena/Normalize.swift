// `relay-arena normalize`: stream a response into a store and write the store as relay toJSON.
import ArgumentParser
import Foundation
import RelayArena
import RelayArenaGenerateCommand
import RelayArenaWorkloads

struct Normalize: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Normalize a response into a store (new, or loaded with --store) and print the store as relay toJSON JSON.")

    @OptionGroup var documents: DocumentOptions

    @Option(name: .customLong("root-id"), help: "Data ID of the root record (a mutation's client:local:N).")
    var rootID: String = RecordStore.rootID

    @OptionGroup var stores: StoreOptions

    @Option(
        name: .customLong("max-bytes"),
        help: "The largest response accepted, in bytes: at least 1 (there is no unlimited; default 1 GiB).")
    var maxBytes: UInt64 = NormalizationLimits.defaultMaxBytes

    @Flag(help: "Normalize and publish but print nothing on stdout (files asked for are still written).")
    var quiet = false

    /// For `bench` and the tests: print this process's own peak resident memory on stderr at the
    /// end (after the results are written).
    @Flag(name: .customLong("print-peak-rss"), help: .hidden)
    var printPeakRSS = false

    @ArgumentParser.Argument(help: "The response file, or - for standard input.")
    var response: String

    func validate() throws { try validateMaxBytes(maxBytes) }

    func run() throws {
        let (_, operation, variables) = try documents.compile()
        let plan = try NormalizationPlan(operation: operation, variables: variables)
        let target = try stores.load()
        let limits = NormalizationLimits(maxBytes: maxBytes)
        // relay's warnings (a page that does not follow its connection is dropped) are no failure.
        let warn: (LogEvent) -> Void = {
            FileHandle.standardError.write(Data("relay-arena: warning: \($0.message)\n".utf8))
        }
        let updated =
            response == "-"
            ? try target.commit(handle: .standardInput, plan: plan, rootID: rootID, limits: limits, log: warn)
            : try target.commit(fileAt: response, plan: plan, rootID: rootID, limits: limits, log: warn)
        try writeResults(target, updated, stores: stores, quiet: quiet)
        if printPeakRSS {
            FileHandle.standardError.write(Data("peak_rss_bytes: \(ProcessMemory.peakResidentBytes)\n".utf8))
        }
    }
}

/// `--max-bytes 0` is refused rather than taken as the C core's "no limit": a limit is what the
/// option is for, and an unbounded response is one a hostile server can make a client hold.
func validateMaxBytes(_ maxBytes: UInt64) throws {
    guard maxBytes >= 1 else { throw ValidationError("--max-bytes must be at least 1 (the default is 1 GiB)") }
}

/// Writes a command's results (`normalize`, `fetch`) once everything succeeded: the store as a
/// snapshot to `--write-snapshot`, the updated data IDs to `--updated-ids`, the store as relay
/// toJSON to `--write-store` or else stdout (unless quiet).
func writeResults(_ target: RecordStore, _ updated: UpdatedRecordIDs, stores: StoreOptions, quiet: Bool) throws {
    let writeStore = stores.writeStore
    let updatedIDs = stores.updatedIDs
    if let snapshot = stores.writeSnapshot { try writeCanonicalSnapshot(target, to: snapshot) }
    if quiet && writeStore == nil && updatedIDs == nil { return }
    var idsJSON = "["
    for (i, id) in updated.enumerated() {
        idsJSON += (i > 0 ? "," : "") + ReadValue.string(id).jsonText
    }
    idsJSON += "]\n"
    if let updatedIDs { try writeAtomically(Array(idsJSON.utf8), to: updatedIDs) }
    // Streamed, never held whole: a store with a long text is written with a buffer's memory.
    if let writeStore {
        try writeAtomically(to: writeStore) { try target.writeRelayJSON(to: $0) }
    } else if !quiet {
        try target.writeRelayJSON(to: STDOUT_FILENO)
    }
}

/// The store a command starts from and where its results go (`normalize`, `fetch`).
struct StoreOptions: ParsableArguments {
    @Option(help: "Load the store to merge into: a snapshot or relay toJSON JSON (told apart by content).")
    var store: String?

    @Option(name: .customLong("write-store"), help: "Write the resulting store here instead of stdout.")
    var writeStore: String?

    @Option(
        name: .customLong("write-snapshot"),
        help: "Also write the resulting store here as a snapshot (written atomically).")
    var writeSnapshot: String?

    @Option(name: .customLong("updated-ids"), help: "Write the updated data IDs here as a JSON array.")
    var updatedIDs: String?

    /// The `--store` file's store, or a new one.
    func load() throws -> RecordStore {
        try store.map(loadStore) ?? RecordStore()
    }
}
