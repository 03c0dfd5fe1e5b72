// The to-do schema made executable: built from the very SDL the client compiles against
// (RelayArenaWorkloads' todo.graphql), then given resolvers over TodoState. Objects are
// dictionaries, which GraphQLSwift's default resolver reads field by field.
#if HTTP
    import Foundation
    import GraphQL
    import RelayArenaWorkloads

    typealias Object = [String: any Sendable]

    enum TodoSchema {
        /// The schema, with resolvers reading and changing `state`.
        static func make(_ state: TodoState) throws -> GraphQLSchema {
            let sdl = try String(contentsOf: TodoListDocuments.schemaURL, encoding: .utf8)
            let base = try buildSchema(source: sdl)
            guard let query = base.queryType, let mutation = base.mutationType,
                let user = base.getType(name: "User") as? GraphQLObjectType,
                let todo = base.getType(name: "Todo") as? GraphQLObjectType
            else { throw GraphQLError(message: "todo.graphql lacks Query, Mutation, User or Todo") }

            // A schema built from SDL cannot tell which object a Node is (its interface has no
            // resolveType and is immutable): put a Node that reads the object's typename in its place.
            let node = try GraphQLInterfaceType(
                name: "Node", description: "An object with an ID",
                fields: ["id": GraphQLField(type: GraphQLNonNull(GraphQLID), description: "The id of the object.")],
                resolveType: { value, _ in (value as? Object)?["__typename"] as? String ?? "" })
            user.interfaces = { [node] }
            todo.interfaces = { [node] }

            var queryFields = try query.fields()
            queryFields["node"] = GraphQLField(
                type: node, description: "Fetches an object given its ID",
                args: ["id": GraphQLArgument(type: GraphQLNonNull(GraphQLID), description: "The ID of an object")])
            queryFields["nodes"] = GraphQLField(
                type: GraphQLNonNull(GraphQLList(node)),
                args: ["ids": GraphQLArgument(type: GraphQLNonNull(GraphQLList(GraphQLNonNull(GraphQLID))))])
            let resolvers = Resolvers(state: state)
            try attach(resolvers.query, to: query, fields: queryFields)
            try attach(resolvers.user, to: user, fields: user.fields())
            try attach(resolvers.todo, to: todo, fields: todo.fields())
            try attach(resolvers.mutation, to: mutation, fields: mutation.fields())
            return try GraphQLSchema(query: query, mutation: mutation, types: [user, todo])
        }

        /// Sets the fields' resolvers, then hands the type the same field objects back (which also
        /// drops its cached definitions, made before the resolvers were there).
        private static func attach(
            _ resolvers: [String: GraphQLFieldResolve], to type: GraphQLObjectType, fields: GraphQLFieldMap
        ) throws {
            for (name, resolve) in resolvers {
                guard let field = fields[name] else {
                    throw GraphQLError(message: "todo.graphql has no field \(type.name).\(name)")
                }
                field.resolve = resolve
            }
            type.fields = { fields }
        }
    }

    /// A resolver's failure; GraphQLSwift's message is its description.
    struct FieldFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// The resolvers: `Type.field` for the fields that take arguments or are computed.
    struct Resolvers: Sendable {
        let state: TodoState

        var query: [String: GraphQLFieldResolve] {
            [
                "user": { [state] _, args, _, _ in
                    guard let id = args["id"].string, let user = state.user(id) else { return nil }
                    return Self.object(user)
                },
                "node": { [state] _, args, _, _ in Self.node(args["id"].string ?? "", state) },
                "nodes": { [state] _, args, _, _ in
                    (args["ids"].array ?? []).map { Self.node($0.string ?? "", state) as (any Sendable)? }
                },
                "viewer": { _, _, _, _ in nil },
            ]
        }

        var todo: [String: GraphQLFieldResolve] {
            [
                "text": { source, _, _, _ in
                    let todo = source as? Object
                    // Not a GraphQLError: GraphQLSwift keeps one's (empty) path, and adds the
                    // field's path to any other error.
                    if let message = todo?["__textError"] as? String { throw FieldFailure(message: message) }
                    return todo?["text"] as? String
                }
            ]
        }

        var user: [String: GraphQLFieldResolve] {
            ["todos": { source, args, _, _ in Self.connection(source, args) }]
        }

        static func object(_ user: TodoData.User) -> Object {
            // A missing key reads as null (an Optional's nil inside `any Sendable` would not).
            var object: Object = [
                "__typename": "User", "__user": user, "id": GlobalID.make("User", user.userId), "userId": user.userId,
                "totalCount": user.todos.count, "completedCount": user.todos.count(where: \.complete),
            ]
            if let name = user.name { object["name"] = name }
            return object
        }

        static func object(_ todo: TodoData.Todo) -> Object {
            [
                "__typename": "Todo", "id": GlobalID.make("Todo", String(todo.key)), "text": todo.text,
                "complete": todo.complete, "__textError": todo.textError,
            ]
        }

        static func node(_ id: String, _ state: TodoState) -> Object? {
            switch GlobalID.parse(id) {
            case ("User", let key)?: return state.user(key).map { object($0) }
            case ("Todo", let key)?: return Int(key).flatMap { state.todo($0) }.map { object($0.0) }
            default: return nil
            }
        }

        static func cursor(_ offset: Int) -> String { GlobalID.make("arrayconnection", String(offset)) }

        /// `todos(first:after:last:before:status:)` as graphql-relay's connectionFromArray slices.
        static func connection(_ source: any Sendable, _ args: Map) -> Object? {
            guard let user = (source as? Object)?["__user"] as? TodoData.User else { return nil }
            let status = args["status"].string ?? "any"
            let todos = user.todos.filter {
                status == "completed" ? $0.complete : status == "active" ? !$0.complete : true
            }
            func offset(_ cursor: Map) -> Int? {
                cursor.string.flatMap(GlobalID.parse).flatMap { $0.type == "arrayconnection" ? Int($0.key) : nil }
            }
            let lower = offset(args["after"]).map { $0 + 1 } ?? 0
            let upper = offset(args["before"]).map { min($0, todos.count) } ?? todos.count
            var start = max(lower, 0)
            var end = upper
            if let first = args["first"].int { end = min(end, start + first) }
            if let last = args["last"].int { start = max(start, end - last) }
            let range = start < end ? start..<end : start..<start
            let edges: [any Sendable] = range.map { i -> Object in ["cursor": cursor(i), "node": object(todos[i])] }
            var pageInfo: Object = [
                "hasPreviousPage": args["last"].int != nil ? start > lower : false,
                "hasNextPage": args["first"].int != nil ? end < upper : false,
            ]
            if !range.isEmpty {
                pageInfo["startCursor"] = cursor(range.lowerBound)
                pageInfo["endCursor"] = cursor(range.upperBound - 1)
            }
            return ["edges": edges, "pageInfo": pageInfo]
        }
    }
#endif
