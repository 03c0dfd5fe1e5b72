// The schema's six mutations over TodoState, answering with relay-examples' payloads. A user is
// named by its plain id ("me") or its global id; a todo by its global id.
#if HTTP
    import GraphQL

    extension Resolvers {
        var mutation: [String: GraphQLFieldResolve] {
            [
                "addTodo": { [state] _, args, _, _ in
                    let input = args["input"]
                    guard let text = input["text"].string, let userId = Self.userId(input["userId"]) else { return nil }
                    guard
                        let (todo, index) = state.change({ data, nextKey -> (TodoData.Todo, Int)? in
                            guard let u = data.users.firstIndex(where: { $0.userId == userId }) else { return nil }
                            let todo = TodoData.Todo(key: nextKey, text: text, complete: false)
                            nextKey += 1
                            data.users[u].todos.append(todo)
                            return (todo, data.users[u].todos.count - 1)
                        })
                    else { throw GraphQLError(message: "no user \(userId)") }
                    return try Self.payload(
                        input, state, userId,
                        ["todoEdge": ["cursor": Self.cursor(index), "node": Self.object(todo)] as Object])
                },
                "changeTodoStatus": { [state] _, args, _, _ in
                    let input = args["input"]
                    guard let complete = input["complete"].bool else { return nil }
                    let todo = try Self.update(input["id"], state) { $0.complete = complete }
                    return try Self.payload(input, state, todo.1.userId, ["todo": Self.object(todo.0)])
                },
                "renameTodo": { [state] _, args, _, _ in
                    let input = args["input"]
                    guard let text = input["text"].string else { return nil }
                    let todo = try Self.update(input["id"], state) { $0.text = text }
                    var payload: Object = ["todo": Self.object(todo.0)]
                    if let id = input["clientMutationId"].string { payload["clientMutationId"] = id }
                    return payload
                },
                "removeTodo": { [state] _, args, _, _ in
                    let input = args["input"]
                    guard let id = input["id"].string, let key = GlobalID.parse(id).flatMap({ Int($0.key) }),
                        let userId = state.change({ data, _ -> String? in
                            for u in data.users.indices {
                                if let t = data.users[u].todos.firstIndex(where: { $0.key == key }) {
                                    data.users[u].todos.remove(at: t)
                                    return data.users[u].userId
                                }
                            }
                            return nil
                        })
                    else { throw GraphQLError(message: "no todo \(input["id"])") }
                    return try Self.payload(input, state, userId, ["deletedTodoId": id])
                },
                "markAllTodos": { [state] _, args, _, _ in
                    let input = args["input"]
                    guard let complete = input["complete"].bool, let userId = Self.userId(input["userId"]),
                        let changed = state.change({ data, _ -> [TodoData.Todo]? in
                            guard let u = data.users.firstIndex(where: { $0.userId == userId }) else { return nil }
                            var changed: [TodoData.Todo] = []
                            for t in data.users[u].todos.indices where data.users[u].todos[t].complete != complete {
                                data.users[u].todos[t].complete = complete
                                changed.append(data.users[u].todos[t])
                            }
                            return changed
                        })
                    else { throw GraphQLError(message: "no user \(input["userId"])") }
                    let objects: [any Sendable] = changed.map { Self.object($0) }
                    return try Self.payload(input, state, userId, ["changedTodos": objects])
                },
                "removeCompletedTodos": { [state] _, args, _, _ in
                    let input = args["input"]
                    guard let userId = Self.userId(input["userId"]),
                        let removed = state.change({ data, _ -> [String]? in
                            guard let u = data.users.firstIndex(where: { $0.userId == userId }) else { return nil }
                            let ids = data.users[u].todos.filter(\.complete).map {
                                GlobalID.make("Todo", String($0.key))
                            }
                            data.users[u].todos.removeAll(where: \.complete)
                            return ids
                        })
                    else { throw GraphQLError(message: "no user \(input["userId"])") }
                    return try Self.payload(input, state, userId, ["deletedTodoIds": removed as [any Sendable]])
                },
            ]
        }

        /// A user id given plainly or as a global id.
        static func userId(_ value: Map) -> String? {
            guard let id = value.string else { return nil }
            if let (type, key) = GlobalID.parse(id), type == "User" { return key }
            return id
        }

        /// Changes the todo with global id `id`; the todo as changed and its user.
        static func update(
            _ id: Map, _ state: TodoState, _ change: @escaping (inout TodoData.Todo) -> Void
        ) throws -> (TodoData.Todo, TodoData.User) {
            guard let key = id.string.flatMap(GlobalID.parse).flatMap({ Int($0.key) }),
                let done = state.change({ data, _ -> (TodoData.Todo, TodoData.User)? in
                    for u in data.users.indices {
                        if let t = data.users[u].todos.firstIndex(where: { $0.key == key }) {
                            change(&data.users[u].todos[t])
                            return (data.users[u].todos[t], data.users[u])
                        }
                    }
                    return nil
                })
            else { throw GraphQLError(message: "no todo \(id)") }
            return done
        }

        /// A payload with the user as it is now and the input's clientMutationId.
        static func payload(_ input: Map, _ state: TodoState, _ userId: String, _ fields: Object) throws -> Object {
            guard let user = state.user(userId) else { throw GraphQLError(message: "no user \(userId)") }
            var payload = fields
            payload["user"] = object(user)
            if let id = input["clientMutationId"].string { payload["clientMutationId"] = id }
            return payload
        }
    }
#endif
