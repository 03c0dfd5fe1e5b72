// `relay-arena dump` and `relay-arena merge`: snapshot files as relay toJSON, and several merged
// into one. Nothing is written unless everything succeeded (a snapshot is written atomically).
import ArgumentParser
import Foundation
import RelayArena
import RelayArenaGenerateCommand

struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a store snapshot as relay toJSON JSON (to stdout, or --write-store).")

    @ArgumentParser.Argument(help: "The snapshot file.")
    var snapshot: String

    @Option(name: .customLong("write-store"), help: "Write the relay toJSON JSON here instead of stdout.")
    var writeStore: String?

    func run() throws {
        let store = try RecordStore(snapshotAt: snapshot)
        if let writeStore {
            try writeAtomically(to: writeStore) { try store.writeRelayJSON(to: $0) }
        } else {
            try store.writeRelayJSON(to: STDOUT_FILENO)
        }
    }
}

struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Publish each snapshot into the first, in order, and write the result as a snapshot.")

    @Option(help: "The snapshot to write (atomically).")
    var output: String

    @ArgumentParser.Argument(help: "The snapshots to merge, the first being the base.")
    var inputs: [String]

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("merge needs at least one input snapshot") }
    }

    func run() throws {
        let store = try RecordStore(snapshotAt: inputs[0])
        for path in inputs.dropFirst() {
            try store.publish(contentsOf: RecordStore(snapshotAt: path))
        }
        try writeCanonicalSnapshot(store, to: output)
    }
}
