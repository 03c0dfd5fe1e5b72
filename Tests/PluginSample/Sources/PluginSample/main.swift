// Normalizes a canned response with the generated query's own plan, reads the query's view, and
// renders each row through the pointer the list passes down (types from the build-tool plugin).
import RelayArena

let response = #"""
    {"data":{"user":{"id":"me","name":"Ada","todos":{"edges":[
      {"node":{"id":"t1","text":"Taste JavaScript","complete":true,"due":null}},
      {"node":{"id":"t2","text":"Buy a unicorn","complete":false,"due":"2026-12-24"}}]}}}}
    """#

let query = SampleQuery(first: 2)
let store = RecordStore()
try store.commit(response: Array(response.utf8), plan: query.plan())
store.withSnapshot { snapshot in
    let (data, isMissingData) = snapshot.read(query)
    print("user: \(data?.user?.name ?? "?") isMissingData: \(isMissingData)")
    guard let edges = data?.user?.todos?.edges else { return }
    for edge in edges {
        guard let node = edge?.node else { continue }
        print(node.id, SampleRow(todo: node.asFragment()).render(snapshot))
    }
}
