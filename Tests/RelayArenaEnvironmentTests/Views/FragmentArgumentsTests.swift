// Fragment arguments in generated types: `F.Arguments` from `@argumentDefinitions` (schema types,
// defaults applied), pointers made with typed arguments, and the typed arguments a pointer carries.
// A read through such a pointer resolves `todos(first: $count)` to the argument's storage key.
import RelayArena
import XCTest

final class FragmentArgumentsTests: XCTestCase {
    /// The user "me" with `todos(first:3)` (three items) and `todos(first:2)` (two), each written by
    /// the refetch query with its own `$count` (the query's default is 2, as the fragment's).
    private func userStore() throws -> RecordStore {
        let store = RecordStore()
        func todos(_ ids: [String]) -> String {
            ids.map { #"{"node":{"id":"\#($0)","text":"\#($0)","complete":false}}"# }.joined(separator: ",")
        }
        let three =
            #"{"data":{"node":{"__typename":"User","id":"me","name":"Me","todos":{"edges":[\#(todos(["a", "b", "c"]))]}}}}"#
        let two =
            #"{"data":{"node":{"__typename":"User","id":"me","name":"Me","todos":{"edges":[\#(todos(["x", "y"]))]}}}}"#
        try store.commit(
            response: Array(three.utf8), plan: UserRefetchQuery(count: 3, withEmail: false, id: "me").plan())
        try store.commit(response: Array(two.utf8), plan: UserRefetchQuery(withEmail: false, id: "me").plan())
        return store
    }

    private func todoIDs(_ snapshot: StoreSnapshot, _ pointer: FragmentPointer<UserRefetch_user>) -> (
        ids: [String]?, missing: Bool
    ) {
        let (data, missing) = snapshot.read(UserRefetch_user.self, pointer)
        return (data?.todos?.edges.map { $0.compactMap { $0?.node?.id } }, missing)
    }

    func testGeneratedArgumentsAreTypedWithDefaults() {
        // `count: {type: "Int!", defaultValue: 2}`, `status: {type: "String", defaultValue: "any"}`, `after: {type: "String"}`.
        let defaults = ToDoArguments_user.Arguments()
        let count: Int = defaults.count
        XCTAssertEqual(count, 2)
        XCTAssertEqual(defaults.status, "any")
        XCTAssertNil(defaults.after)
        XCTAssertEqual(defaults.asJSON, ["count": .int(2), "status": .string("any"), "after": .null])
        let given = ToDoArguments_user.Arguments(count: 5, status: nil, after: "cursor")
        XCTAssertEqual(given.asJSON, ["count": .int(5), "status": .null, "after": .string("cursor")])
        XCTAssertEqual(ToDoArguments_user.Arguments(variables: given.asJSON), given)
        XCTAssertNotEqual(given, defaults)
        XCTAssertEqual(UserRefetch_user.Arguments().count, 2)
    }

    func testPointerWithTypedArgumentsReadsThatStorageKey() throws {
        let store = try userStore()
        let pointer = FragmentPointer<UserRefetch_user>(dataID: "me", arguments: .init(count: 3))
        XCTAssertEqual(pointer.variables, ["count": .int(3)])
        XCTAssertEqual(pointer.arguments, UserRefetch_user.Arguments(count: 3))
        let (ids, missing) = store.withSnapshot { todoIDs($0, pointer) }
        XCTAssertEqual(ids, ["a", "b", "c"])
        XCTAssertFalse(missing)
    }

    func testDefaultAppliesWhenTheArgumentIsNotGiven() throws {
        let store = try userStore()
        let withDefaults = FragmentPointer<UserRefetch_user>(dataID: "me", arguments: .init())
        let untyped = FragmentPointer<UserRefetch_user>(dataID: "me")
        XCTAssertEqual(untyped.arguments.count, 2, "the fragment's default, decoded from a pointer without arguments")
        XCTAssertEqual(withDefaults.arguments, untyped.arguments)
        store.withSnapshot { snapshot in
            XCTAssertEqual(todoIDs(snapshot, withDefaults).ids, ["x", "y"])
            XCTAssertEqual(todoIDs(snapshot, untyped).ids, ["x", "y"])
            // A count nobody fetched: another storage key, so no todos and missing data.
            let unfetched = todoIDs(snapshot, FragmentPointer(dataID: "me", arguments: .init(count: 7)))
            XCTAssertNil(unfetched.ids)
            XCTAssertTrue(unfetched.missing)
        }
    }

    func testArgumentsOnTopOfTheOwnersVariables() throws {
        let store = try userStore()
        let pointer = FragmentPointer<UserRefetch_user>(
            dataID: "me", arguments: .init(count: 3),
            variables: ["count": .int(2), "withEmail": .bool(false)])
        XCTAssertEqual(pointer.variables, ["count": .int(3), "withEmail": .bool(false)])
        XCTAssertEqual(store.withSnapshot { todoIDs($0, pointer).ids }, ["a", "b", "c"])
    }

    func testSpreadArgumentsReadBackTyped() throws {
        let store = try userStore()
        let query = UserRefetchQuery(count: 3, withEmail: false, id: "me")
        try store.withSnapshot { snapshot in
            let node = try XCTUnwrap(snapshot.read(query).data?.node)
            // `...UserRefetch_user @arguments(count: $count)` with $count = 3.
            XCTAssertEqual(node.asFragment().arguments.count, 3)
            XCTAssertEqual(node.fragments.userRefetch_user.arguments.count, 3)
            XCTAssertEqual(todoIDs(snapshot, node.asFragment()).ids, ["a", "b", "c"])
            let byDefault = try XCTUnwrap(snapshot.read(UserRefetchQuery(withEmail: false, id: "me")).data?.node)
            XCTAssertEqual(byDefault.asFragment().arguments.count, 2)
        }
    }

    func testNullableArgumentGivenAsNilIsLeftOutOfTheKey() throws {
        // `status: nil` is an explicit null (no `status:` in the key), `after` too: the key is
        // `todos(first:3)`, which the refetch query wrote. The default `status: "any"` is not.
        let store = try userStore()
        store.withSnapshot { snapshot in
            let explicit = snapshot.read(
                ToDoArguments_user.self, FragmentPointer(dataID: "me", arguments: .init(count: 3, status: nil)))
            XCTAssertEqual(explicit.data?.todos?.edges.map { $0.compactMap { $0?.node?.id } }, ["a", "b", "c"])
            XCTAssertFalse(explicit.isMissingData)
            let defaults = snapshot.read(
                ToDoArguments_user.self, FragmentPointer(dataID: "me", arguments: .init(count: 3)))
            XCTAssertNil(defaults.data?.todos, "todos(first:3,status:\"any\") was never fetched")
            XCTAssertTrue(defaults.isMissingData)
        }
    }
}
