// The seeds' to-do screen on the environment: a query model loads the list, a fragment model per
// row follows its item, and rendering reads only what the models hold.
import RelayArena

@MainActor
final class ToDoScreen {
    let environment: Environment
    let list: QueryModel<ToDoItemPreviewQuery>
    private(set) var rows: [FragmentModel<ToDoItem_todo>] = []

    init(environment: Environment) {
        self.environment = environment
        list = QueryModel(environment: environment, operation: ToDoItemPreviewQuery())
    }

    /// Loads the list (store-or-network), then makes a model per row.
    func load() async {
        await list.load()
        let pointers = list.withData { data -> [FragmentPointer<ToDoItem_todo>] in
            guard let edges = data.user?.todos?.edges else { return [] }
            return edges.compactMap { $0?.node?.asFragment() }
        }
        rows = (pointers ?? []).map { FragmentModel(environment: environment, pointer: $0) }
    }

    /// One line per row, from the rows' own data: `[x] Taste JavaScript`.
    func render() -> [String] {
        switch list.state {
        case .loading: return ["Loading…"]
        case .failure(let error): return ["Error: \(error)"]
        case .success:
            return rows.compactMap { row in
                guard case .string(let text)? = row.data?["text"], case .bool(let done)? = row.data?["complete"]
                else { return nil }
                return (done ? "[x] " : "[ ] ") + text
            }
        }
    }
}
