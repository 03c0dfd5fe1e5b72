// Previews from JSON fixtures (Relay.swift's MockEnvironment.cachePayload, `previewPayload` and
// `QueryPreview`): an environment on a mock network whose store holds a payload from a file.
import Foundation

extension Environment {
    /// An environment on a `MockNetwork` (nothing answers unless the test does).
    public static func mock(store: RecordStore = RecordStore(), roots: OperationRoots = OperationRoots()) -> (
        Environment, MockNetwork
    ) {
        let network = MockNetwork()
        return (Environment(network: network, store: store, roots: roots), network)
    }

    /// A mock environment whose store holds `resource`.`ext` from `bundle` as the response to
    /// `operation` (the seeds' `previewPayload(op, resource:)`). Throws when the file is missing
    /// or is not a valid response for the operation.
    public static func preview<O: GraphQLOperation>(
        _ operation: O, resource: String, extension ext: String = "json", bundle: Bundle = .main
    ) throws -> Environment {
        guard let url = bundle.url(forResource: resource, withExtension: ext) else {
            throw RelayArenaError(code: .io, message: "no resource \(resource).\(ext) in \(bundle.bundlePath)")
        }
        let (environment, _) = mock()
        try environment.commitPayload(
            O.artifact, variables: operation.variables.asJSON, response: Data(contentsOf: url))
        return environment
    }

    /// `QueryPreview`: the operation's data as the store holds it (no request), handed to
    /// `content`; `nil` data when the fixture does not hold the query.
    public func queryPreview<O: GraphQLOperation, R>(_ operation: O, _ content: (ReadResult) throws -> R) rethrows -> R
    {
        try content(ReadSelector.operation(O.artifact, variables: operation.variables.asJSON).read(store))
    }
}
