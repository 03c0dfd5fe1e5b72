// The seeds' list view with Apollo's spelling of a spread: `node.fragments.toDoItem_todo` is the
// pointer `asFragment()` returns, still masked (the item's fields are not on `node`). Kept apart
// from ToDoList.swift, which the README quotes.
import RelayArena

extension ToDoList {
    func rowsByFragmentName(_ snapshot: StoreSnapshot) -> [ToDoItem] {
        guard let user = snapshot.read(ToDoList_user.self, user).data, let edges = user.todos?.edges else { return [] }
        return edges.compactMap { edge in edge?.node.map { ToDoItem(todo: $0.fragments.toDoItem_todo) } }
    }
}
