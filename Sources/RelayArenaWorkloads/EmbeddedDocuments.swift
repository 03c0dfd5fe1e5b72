// The embedded default workload: the to-do schema and the benchmark query (copies of
// Tests/RelayArenaTestSupport/Fixtures/todo.graphql and todo-list-query.graphql; EmbeddedDocumentsTests
// keeps them equal).

public enum EmbeddedDocuments {
    public static let todoSchema = #"""
# To-do schema used by the tests and benchmarks.
#
# Types, fields and arguments of relayjs/relay-examples todo/schema.graphql are kept as they are
# (Node, User, Todo, TodoConnection, TodoEdge, PageInfo, the six mutations and their inputs and
# payloads). Everything marked "extension" was added to exercise
# more argument kinds, scalar kinds, id-less objects and the special `Viewer` type.

"""An object with an ID"""
interface Node {
  """The id of the object."""
  id: ID!
}

# --- extension: enums, input object, custom scalar --------------------------------

enum TodoStatus {
  ANY
  ACTIVE
  COMPLETED
}

enum TodoOrderField {
  CREATED_AT
  PRIORITY
  TEXT
}

enum ImageFormat {
  PNG
  JPEG
  WEBP
}

input TodoFilter {
  status: TodoStatus = ANY
  textContains: String
  tags: [String!]
  minPriority: Int
}

"""Arbitrary JSON value (object, array, string, number, boolean)."""
scalar JSON

# --- relay-examples todo schema -----------------------------------------------------------------

input AddTodoInput {
  clientMutationId: String
  text: String!
  userId: ID!
}

input ChangeTodoStatusInput {
  clientMutationId: String
  complete: Boolean!
  id: ID!
  userId: ID!
}

input MarkAllTodosInput {
  clientMutationId: String
  complete: Boolean!
  userId: ID!
}

input RemoveCompletedTodosInput {
  clientMutationId: String
  userId: ID!
}

input RemoveTodoInput {
  clientMutationId: String
  id: ID!
  userId: ID!
}

input RenameTodoInput {
  clientMutationId: String
  id: ID!
  text: String!
}

type AddTodoPayload {
  clientMutationId: String
  todoEdge: TodoEdge!
  user: User!
  """extension"""
  viewer: Viewer
}

type ChangeTodoStatusPayload {
  clientMutationId: String
  todo: Todo!
  user: User!
}

type MarkAllTodosPayload {
  changedTodos: [Todo!]
  clientMutationId: String
  user: User!
}

type Mutation {
  addTodo(input: AddTodoInput!): AddTodoPayload
  changeTodoStatus(input: ChangeTodoStatusInput!): ChangeTodoStatusPayload
  markAllTodos(input: MarkAllTodosInput!): MarkAllTodosPayload
  removeCompletedTodos(input: RemoveCompletedTodosInput!): RemoveCompletedTodosPayload
  removeTodo(input: RemoveTodoInput!): RemoveTodoPayload
  renameTodo(input: RenameTodoInput!): RenameTodoPayload
}

"""Information about pagination in a connection."""
type PageInfo {
  """When paginating forwards, the cursor to continue."""
  endCursor: String
  """When paginating forwards, are there more items?"""
  hasNextPage: Boolean!
  """When paginating backwards, are there more items?"""
  hasPreviousPage: Boolean!
  """When paginating backwards, the cursor to continue."""
  startCursor: String
}

type Query {
  """Fetches an object given its ID"""
  node(
    """The ID of an object"""
    id: ID!
  ): Node
  user(id: String): User
  """extension"""
  viewer: Viewer
  """extension"""
  nodes(ids: [ID!]!): [Node]
}

type RemoveCompletedTodosPayload {
  clientMutationId: String
  deletedTodoIds: [ID!]
  user: User!
}

type RemoveTodoPayload {
  clientMutationId: String
  deletedTodoId: ID!
  user: User!
}

type RenameTodoPayload {
  clientMutationId: String
  todo: Todo!
}

type Todo implements Node {
  complete: Boolean!
  """The id of the object."""
  id: ID!
  text: String!
  # extension
  priority: Int
  estimateHours: Float
  notes: String
  tags: [String]
  labels: [Label]
  owner: User
  meta: JSON
}

"""A connection to a list of items."""
type TodoConnection {
  """A list of edges."""
  edges: [TodoEdge]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
}

"""An edge in a connection."""
type TodoEdge {
  """A cursor for use in pagination"""
  cursor: String!
  """The item at the end of the edge"""
  node: Todo
}

type User implements Node {
  completedCount: Int!
  """The id of the object."""
  id: ID!
  todos(after: String, before: String, first: Int, last: Int, status: String = "any"): TodoConnection
  totalCount: Int!
  userId: String!
  # extension
  name: String
  email: String
  avatar(size: Int, format: ImageFormat = PNG): Image
  searchTodos(filter: TodoFilter, orderBy: [TodoOrderField!], first: Int, includeArchived: Boolean = false): [Todo]
  friends(first: Int): [User]
  bestFriend: User
  nicknames: [String]
  luckyNumbers: [Int]
  scores: [[Float]]
  settings: UserSettings
}

# --- extension: id-less object types and the Viewer ---------------------------------

type Image {
  url: String!
  width: Int
  height: Int
  format: ImageFormat
}

type Label {
  name: String!
  color: String
}

type UserSettings {
  theme: String
  language: String
  notifications: NotificationSettings
}

type NotificationSettings {
  email: Boolean
  push: Boolean
  digestHour: Int
}

"""Relay's defaultGetDataID gives a type named `Viewer` without id the data ID client:root:viewer."""
type Viewer {
  actor: User
  unreadCount: Int
  locale: String
  settings: UserSettings
}

"""#

    public static let todoListQuery = #"""
query TodoListQuery($first: Int!) {
  user(id: "me") {
    id
    totalCount
    todos(first: $first) {
      edges {
        cursor
        node {
          id
          text
          complete
        }
      }
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
    }
  }
}

"""#
}
