// The read benchmark: text and complete of every todo through the zero-copy snapshot API,
// walking root → user → connection → edges → node with symbols resolved once.
import RelayArena

/// Reads text and complete of every todo through the snapshot API (symbols resolved once).
public enum TodoListReads {
    /// Returns the number of fields read.
    public static func textAndComplete(_ store: RecordStore, first: Int) -> Int {
        store.withSnapshot { s in
            guard let userKey = s.symbol(#"user(id:"me")"#), let todosKey = s.symbol("todos(first:\(first))"),
                let edgesKey = s.symbol("edges"), let nodeKey = s.symbol("node"), let textKey = s.symbol("text"),
                let completeKey = s.symbol("complete"), case .record(let root) = s.record(RecordStore.rootID),
                case .link(let user)? = s.field(root, userKey), case .record(let u) = s.record(user),
                case .link(let conn)? = s.field(u, todosKey), case .record(let c) = s.record(conn),
                case .links(let edges)? = s.field(c, edgesKey)
            else { return 0 }
            var fields = 0
            var checksum = 0
            for edge in edges {
                guard let edge, case .record(let e) = s.record(edge), case .link(let node)? = s.field(e, nodeKey),
                    case .record(let n) = s.record(node)
                else { continue }
                if case .string(let t)? = s.field(n, textKey) { checksum &+= t.count }
                if case .bool(let b)? = s.field(n, completeKey), b { checksum &+= 1 }
                fields += 2
            }
            return checksum >= 0 ? fields : 0
        }
    }
}
