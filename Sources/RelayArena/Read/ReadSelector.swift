// What a subscription reads (relay's SingularReaderSelector): a fragment at a record for an owner,
// or an operation's own selection from its root.

/// A read that can be repeated after every publish: relay's reader selector.
public struct ReadSelector: Sendable {
    public enum Node: Sendable {
        case fragment(FragmentArtifact)
        case operation(OperationArtifact)
    }

    public let node: Node
    public let dataID: String
    /// The owner's variables (a fragment's argument defaults are added when reading).
    public let variables: Variables
    public let owner: FragmentOwner?

    public init(node: Node, dataID: String, variables: Variables, owner: FragmentOwner?) {
        self.node = node
        self.dataID = dataID
        self.variables = variables
        self.owner = owner
    }

    /// An operation's own (masked) selection from `client:root`, owned by the operation.
    public static func operation(
        _ operation: OperationArtifact, variables: Variables, dataID: String = RecordStore.rootID
    ) -> ReadSelector {
        ReadSelector(
            node: .operation(operation), dataID: dataID,
            variables: operation.effectiveVariables(variables),
            owner: FragmentOwner(operation: operation, variables: variables))
    }

    /// A fragment where a pointer says.
    public static func fragment<F: Fragment>(_ pointer: FragmentPointer<F>) -> ReadSelector {
        ReadSelector(
            node: .fragment(F.artifact), dataID: pointer.dataID, variables: pointer.variables, owner: pointer.owner)
    }

    /// `name` of the fragment or operation read.
    public var name: String {
        switch node {
        case .fragment(let f): return f.name
        case .operation(let o): return o.name
        }
    }

    /// Reads under `snapshot`.
    public func read(_ snapshot: StoreSnapshot) -> ReadResult { read(snapshot, previouslySeen: 0) }

    /// A re-read, given how many records the last read saw (a large one grows its set once).
    func read(_ snapshot: StoreSnapshot, previouslySeen: Int) -> ReadResult {
        switch node {
        case .operation(let o):
            var reader = Reader(snapshot: snapshot, variables: variables, owner: owner, previouslySeen: previouslySeen)
            return reader.read(operation: o, dataID: dataID)
        case .fragment(let f):
            var vars = variables
            for def in f.argumentDefinitions where vars[def.name] == nil {
                vars[def.name] = def.defaultValue ?? .null
            }
            var reader = Reader(snapshot: snapshot, variables: vars, owner: owner, previouslySeen: previouslySeen)
            return reader.read(fragment: f, dataID: dataID)
        }
    }

    public func read(_ store: RecordStore) -> ReadResult { store.withSnapshot { read($0) } }
}
