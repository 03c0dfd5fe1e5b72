// `relay-arena normalize`: stream a response into a store and write the store as relay toJSON.
import ArgumentParser
import Foundation
import RelayArena

struct Normalize: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Normalize a response into a store (new, or loaded with --store) and print the store as relay toJSON JSON.")

    @OptionGroup var documents: DocumentOptions

    @Option(name: .customLong("root-id"), help: "Data ID of the root record (a mutation's client:local:N).")
    var rootID: String = RecordStore.rootID

    @Option(help: "Load the store to merge into from relay toJSON JSON.")
    var store: String?

    @Option(name: .customLong("write-store"), help: "Write the resulting store here instead of stdout.")
    var writeStore: String?

    @Option(name: .customLong("updated-ids"), help: "Write the updated data IDs here as a JSON array.")
    var updatedIDs: String?

    @Flag(help: "Normalize and publish but print nothing on stdout (files asked for are still written).")
    var quiet = false

    @ArgumentParser.Argument(help: "The response file, or - for standard input.")
    var response: String

    func run() throws {
        let (_, operation, variables) = try documents.compile()
        let plan = try NormalizationPlan(operation: operation, variables: variables)
        let target = try store.map { try RecordStore(relayJSON: readBytes($0)) } ?? RecordStore()
        let updated = response == "-"
            ? try target.commit(handle: .standardInput, plan: plan, rootID: rootID)
            : try target.commit(fileAt: response, plan: plan, rootID: rootID)
        if quiet && writeStore == nil && updatedIDs == nil { return }
        // Outputs are produced only after everything succeeded.
        var idsJSON = "["
        for (i, id) in updated.enumerated() {
            idsJSON += (i > 0 ? "," : "") + ReadValue.string(id).jsonText
        }
        idsJSON += "]\n"
        if let updatedIDs { try writeAtomically(Array(idsJSON.utf8), to: updatedIDs) }
        if let writeStore {
            try writeAtomically(target.relayJSON() + [0x0A], to: writeStore)
        } else if !quiet {
            FileHandle.standardOutput.write(Data(target.relayJSON() + [0x0A]))
        }
    }
}
