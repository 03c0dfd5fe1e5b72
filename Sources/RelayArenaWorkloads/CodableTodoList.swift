// Comparator: what a Swift user would decode the benchmark response into with JSONDecoder.

public struct TodoListResponse: Decodable, Sendable {
    public struct DataField: Decodable, Sendable { public var user: User? }
    public struct User: Decodable, Sendable {
        public var id: String
        public var totalCount: Int
        public var todos: Connection?
    }
    public struct Connection: Decodable, Sendable {
        public var edges: [Edge?]?
        public var pageInfo: PageInfo
    }
    public struct Edge: Decodable, Sendable {
        public var cursor: String
        public var node: Todo?
    }
    public struct Todo: Decodable, Sendable {
        public var id: String
        public var text: String
        public var complete: Bool
    }
    public struct PageInfo: Decodable, Sendable {
        public var hasNextPage: Bool
        public var hasPreviousPage: Bool
        public var startCursor: String?
        public var endCursor: String?
    }
    public var data: DataField
}
