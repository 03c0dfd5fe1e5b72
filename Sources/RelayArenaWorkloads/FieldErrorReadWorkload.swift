// The field-error read benchmark: relay's reader over the to-do list, on a store whose todos hold
// no server errors and on one whose every todo holds one (`__errors`) for a field the read does
// not select. A selection without errors must cost the same whatever else the records hold.
import RelayArena

public enum FieldErrorReads {
    static let notesQuery = """
        query TodoNotesQuery($first: Int!) {
          user(id: "me") { id todos(first: $first) { edges { node { id notes } } } }
        }
        """

    /// TodoNotesQuery compiled against the to-do schema: the todos' `notes`, nothing else.
    public static func notesOperation() throws -> OperationArtifact {
        try TodoListDocuments.operation("TodoNotesQuery", in: notesQuery, file: "todo-notes-query.graphql")
    }

    /// A server's answer to TodoNotesQuery for TodoListWorkload's todos where every `notes`
    /// failed: `null`, and an error at its path in `errors`.
    public static func notesFailedResponse(todos: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(todos * 150 + 256)
        func put(_ s: String) { out.append(contentsOf: s.utf8) }
        put(#"{"data":{"user":{"id":""# + TodoListWorkload.userID + #"","todos":{"edges":["#)
        for i in 0..<todos {
            if i > 0 { put(",") }
            put(#"{"node":{"id":""# + TodoListWorkload.base64("Todo:\(i)") + #"","notes":null}}"#)
        }
        put(#"]}}},"errors":["#)
        for i in 0..<todos {
            if i > 0 { put(",") }
            put(#"{"message":"notes failed","path":["user","todos","edges","# + String(i) + #","node","notes"]}"#)
        }
        put("]}")
        return out
    }

    /// The list's store, and the same with every todo's `notes` failed by a second response.
    public static func stores(todos: Int, first: [UInt8], limits: NormalizationLimits) throws -> (
        clean: RecordStore, withErrors: RecordStore
    ) {
        let plan = try TodoListSetup.plan(todos: todos)
        let clean = RecordStore()
        try clean.commit(response: first, plan: plan, limits: limits)
        let withErrors = RecordStore()
        try withErrors.commit(response: first, plan: plan, limits: limits)
        let operation = try notesOperation()
        let variables: Variables = ["first": .int(Int64(todos))]
        try withErrors.commit(
            response: notesFailedResponse(todos: todos),
            plan: NormalizationPlan(operation: operation, variables: variables),
            limits: limits)
        // Each todo holds its error, or the figure would compare a store with itself.
        let held = withErrors.read(operation: operation, variables: variables).fieldErrors.count
        guard held == todos else {
            throw RelayArenaError(code: .misuse, message: "\(held) of \(todos) todos hold their notes' error")
        }
        return (clean, withErrors)
    }

    /// relay's reader over TodoListQuery's selection (text and complete of every todo); returns
    /// the todos read, 0 when the read met a field error or missing data (it must meet neither).
    public static func readList(_ store: RecordStore, operation: OperationArtifact, todos: Int) -> Int {
        let result = store.read(operation: operation, variables: ["first": .int(Int64(todos))])
        guard !result.isMissingData, result.fieldErrors.isEmpty,
            case .array(let edges)? = result.data?["user"]?["todos"]?["edges"]
        else { return 0 }
        return edges.count
    }
}
