// `relay-arena read`: read a fragment (or the operation's own selection) from a stored record.
import ArgumentParser
import Foundation
import RelayArena

struct Read: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read a fragment from a record of a store; prints {\"data\": …, \"isMissingData\": …}.")

    @OptionGroup var documents: DocumentOptions

    @Option(help: "The store: a snapshot or relay toJSON JSON (told apart by content).")
    var store: String

    @Option(help: "The fragment to read, or the operation's name for its own selection.")
    var fragment: String

    @Option(help: "The data ID to read from.")
    var id: String

    func run() throws {
        let (docs, operation, variables) = try documents.compile()
        let source = try loadStore(store)
        let owner = FragmentOwner(operation: operation, variables: variables)
        let result: ReadResult
        if fragment == operation.name {
            result = source.read(operation: operation, variables: variables, dataID: id)
        } else if let artifact = docs.fragments[fragment] {
            result = source.read(
                fragment: artifact, dataID: id, variables: operation.effectiveVariables(variables), owner: owner)
        } else {
            throw RelayArenaError(code: .unknownFragment, message: "no fragment or operation named `\(fragment)`")
        }
        // relay's hooks throw for such a read: exit 1 with relay's message.
        if let failure = result.throwingFieldError() {
            throw RelayArenaError(code: .fieldError, message: failure.description)
        }
        print(result.jsonText)
    }
}
