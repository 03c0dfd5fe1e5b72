// Normalizes a response and reads it back with the runtime alone: the operation artifact is
// written out by hand here, as generated code would embed it, so no compiler is needed.
import RelayArena

let operation = OperationArtifact(
    name: "SampleQuery", kind: .query, variables: [],
    normalization: [
        .linkedField(
            LinkedField(
                name: "viewer", concreteType: "Viewer", plural: false,
                selections: [
                    .scalarField(ScalarField(name: "name")),
                    .scalarField(ScalarField(name: "id")),
                ]))
    ],
    reader: [
        .linkedField(
            LinkedField(
                name: "viewer", concreteType: "Viewer", plural: false,
                selections: [
                    .scalarField(ScalarField(name: "name"))
                ]))
    ],
    text: "query SampleQuery { viewer { name id } }")

let store = RecordStore()
let plan = try NormalizationPlan(operation: operation)
let updated = try store.commit(response: Array(#"{"data":{"viewer":{"name":"Ada","id":"V1"}}}"#.utf8), plan: plan)
print("updated: \(updated.sorted())")
print(store.read(operation: operation).jsonText)
let name = store.withSnapshot { snapshot -> String? in
    guard case .record(let viewer) = snapshot.record("V1"), case .string(let s)? = snapshot.field(viewer, "name") else {
        return nil
    }
    return s.string
}
print("name: \(name ?? "-")")
