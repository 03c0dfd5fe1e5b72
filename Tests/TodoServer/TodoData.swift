// The test server's in-memory data: users and their todos, with relay-examples' global ids
// (base64 of "Type:key", as the workloads write them), and the six mutations over it.
#if HTTP
    import Foundation
    import RelayArenaWorkloads

    /// What a TodoServer starts with: users and their todos, in order.
    public struct TodoData: Sendable {
        public struct Todo: Sendable {
            /// The key in the global id `base64("Todo:<key>")`.
            public var key: Int
            public var text: String
            public var complete: Bool
            /// When set, resolving `text` fails with this message (a field error: `text` is
            /// non-null, so GraphQL nulls the todo where it is listed).
            public var textError: String?

            public init(key: Int, text: String, complete: Bool, textError: String? = nil) {
                self.key = key
                self.text = text
                self.complete = complete
                self.textError = textError
            }
        }

        public struct User: Sendable {
            /// The id `user(id:)` takes, and the key in the global id `base64("User:<userId>")`.
            public var userId: String
            public var name: String?
            public var todos: [Todo]

            public init(userId: String, name: String? = nil, todos: [Todo]) {
                self.userId = userId
                self.name = name
                self.todos = todos
            }
        }

        public var users: [User]

        public init(users: [User]) { self.users = users }

        /// The user `me` with the todos of TodoListWorkload's response for `todos` items: the
        /// server answers TodoListQuery(first: todos) with the data of that response.
        public static func workload(todos: Int) -> TodoData {
            let response = TodoListWorkload(todos: todos).response()
            guard let json = try? JSONSerialization.jsonObject(with: Data(response)) as? [String: Any],
                let data = json["data"] as? [String: Any], let user = data["user"] as? [String: Any],
                let connection = user["todos"] as? [String: Any], let edges = connection["edges"] as? [[String: Any]]
            else { fatalError("TodoData: the workload's response does not parse") }
            let items = edges.enumerated().map { index, edge -> Todo in
                let node = edge["node"] as? [String: Any] ?? [:]
                let key = GlobalID.parse(node["id"] as? String ?? "").flatMap { Int($0.key) } ?? index
                return Todo(key: key, text: node["text"] as? String ?? "", complete: node["complete"] as? Bool ?? false)
            }
            return TodoData(users: [User(userId: "me", name: "Me", todos: items)])
        }
    }

    /// relay-examples' global ids: base64 of "Type:key".
    enum GlobalID {
        static func make(_ type: String, _ key: String) -> String { Data("\(type):\(key)".utf8).base64EncodedString() }

        static func parse(_ id: String) -> (type: String, key: String)? {
            guard let data = Data(base64Encoded: id), let text = String(data: data, encoding: .utf8),
                let colon = text.firstIndex(of: ":")
            else { return nil }
            return (String(text[..<colon]), String(text[text.index(after: colon)...]))
        }
    }

    /// The server's live data: read by queries, changed by mutations, under one lock.
    final class TodoState: @unchecked Sendable {
        private let lock = NSLock()
        private var data: TodoData
        private var nextKey: Int

        init(_ data: TodoData) {
            self.data = data
            nextKey = (data.users.flatMap { $0.todos.map(\.key) }.max() ?? -1) + 1
        }

        func read<T>(_ body: (TodoData) -> T) -> T { lock.withLock { body(data) } }

        /// Changes the data; `nil` when the user or todo named is not there.
        func change<T>(_ body: (inout TodoData, inout Int) -> T?) -> T? {
            lock.withLock { body(&data, &nextKey) }
        }

        func user(_ userId: String) -> TodoData.User? { read { $0.users.first { $0.userId == userId } } }

        /// A todo and the user holding it.
        func todo(_ key: Int) -> (TodoData.Todo, TodoData.User)? {
            read { data in
                for user in data.users {
                    if let todo = user.todos.first(where: { $0.key == key }) { return (todo, user) }
                }
                return nil
            }
        }
    }
#endif
