// Field shapes on generated views: typed variables and a variable storage key, @include, enums
// with unknown values, scalar lists, custom scalars, non-null links that are missing, as<Type>.
import RelayArena
import XCTest

final class ViewFieldTests: XCTestCase {
    static let details = #"""
        {"data":{"user":{"id":"u1","name":"Ann","nicknames":["a",null],"luckyNumbers":[7,13],
          "avatar":{"url":"https://x/a.png","format":"GIF"},
          "todos":{"edges":[{"cursor":"c0","node":{"id":"t0","text":"Zero","notes":"n0","tags":["x","y"],
            "meta":{"k":[1,2]},"priority":3,"estimateHours":1.5}}],"pageInfo":{"hasNextPage":true}}}}}
        """#

    func testDetailsQueryTypedFields() throws {
        let op = ToDoDetailsQuery(id: "u1", count: 5, withNotes: true)
        XCTAssertEqual(op.variables.asJSON, ["id": .string("u1"), "count": .int(5), "withNotes": .bool(true)])
        let store = try store(op, Self.details)
        try store.withSnapshot { snapshot in
            let (data, missing) = snapshot.read(op)
            XCTAssertFalse(missing)
            let user = try XCTUnwrap(data?.user)
            XCTAssertEqual(user.id, "u1")
            XCTAssertEqual(user.name, "Ann")
            XCTAssertEqual(user.nicknames, ["a", nil])
            XCTAssertEqual(user.luckyNumbers, [7, 13])
            XCTAssertEqual(user.avatar?.url, "https://x/a.png")
            // An enum value the schema did not have is kept, not a crash or a nil.
            XCTAssertEqual(user.avatar?.format, .__unknown("GIF"))
            let todos = try XCTUnwrap(user.todos)
            XCTAssertTrue(todos.pageInfo.hasNextPage)
            let node = try XCTUnwrap(todos.edges?.first??.node)
            XCTAssertEqual(todos.edges?.first??.cursor, "c0")
            XCTAssertEqual(node.text, "Zero")
            XCTAssertEqual(node.notes, "n0")
            XCTAssertEqual(node.tags, ["x", "y"])
            XCTAssertEqual(node.meta, .object([JSONMember("k", .array([.int(1), .int(2)]))]))
            XCTAssertEqual(node.priority, 3)
            XCTAssertEqual(node.estimateHours, 1.5)
        }
    }

    func testIncludeFalseMakesTheFieldNilEvenWhenStored() throws {
        let store = try store(ToDoDetailsQuery(id: "u1", count: 5, withNotes: true), Self.details)
        store.withSnapshot { snapshot in
            // Same records, read with withNotes false: the conditional field is not exposed.
            let node = snapshot.read(ToDoDetailsQuery(id: "u1", count: 5, withNotes: false)).data?.user?.todos?.edges?
                .first??.node
            XCTAssertEqual(node?.text, "Zero")
            XCTAssertNil(node?.notes)
        }
    }

    func testVariableStorageKeyFollowsTheVariables() throws {
        let store = try store(ToDoDetailsQuery(id: "u1", count: 5, withNotes: false), Self.details)
        store.withSnapshot { snapshot in
            XCTAssertNotNil(snapshot.read(ToDoDetailsQuery(id: "u1", count: 5, withNotes: false)).data?.user?.todos)
            // `todos(first:6)` was never fetched: absent, and the read says data is missing.
            let other = snapshot.read(ToDoDetailsQuery(id: "u1", count: 6, withNotes: false))
            XCTAssertTrue(other.isMissingData)
            XCTAssertNil(other.data?.user?.todos)
        }
    }

    func testMissingNonNullLinkReadsAsEmptyView() throws {
        let noPageInfo = #"{"data":{"user":{"id":"u1","todos":{"edges":[]}}}}"#
        let op = ToDoDetailsQuery(id: "u1", count: 5, withNotes: false)
        let store = try store(op, noPageInfo)
        try store.withSnapshot { snapshot in
            let (data, missing) = snapshot.read(op)
            XCTAssertTrue(missing)
            let todos = try XCTUnwrap(data?.user?.todos)
            XCTAssertTrue(todos.pageInfo.__view.isEmpty)
            XCTAssertFalse(todos.pageInfo.hasNextPage)
            XCTAssertEqual(todos.edges?.count, 0)
            XCTAssertNil(data?.user?.name)
        }
    }

    func testInlineFragmentsOnConcreteTypes() throws {
        let droid =
            #"{"data":{"hero":{"__typename":"Droid","id":"2001","name":"R2-D2","appearsIn":["NEWHOPE","XMAS"],"primaryFunction":"Astromech"}}}"#
        let op = HeroQuery(episode: .empire)
        XCTAssertEqual(op.variables.asJSON, ["episode": .string("EMPIRE")])
        let store = try store(op, droid)
        try store.withSnapshot { snapshot in
            let (data, missing) = snapshot.read(op)
            XCTAssertFalse(missing)
            let hero = try XCTUnwrap(data?.hero)
            XCTAssertEqual(hero.__typename, "Droid")
            XCTAssertEqual(hero.appearsIn, [.newhope, .__unknown("XMAS")])
            XCTAssertEqual(hero.asDroid?.primaryFunction, "Astromech")
            XCTAssertNil(hero.asHuman)
        }
    }

    func testInlineFragmentOnAnAbstractTypeUsesTypeRecords() throws {
        let results = #"""
            {"data":{"search":[
              {"__typename":"Human","__isCharacter":"Human","__isNode":"Human","id":"1000","name":"Luke"},
              {"__typename":"Starship","__isNode":"Starship","id":"3000","length":34.5},
              {"__typename":"Planet","name":"Tatooine"}]}}
            """#
        let store = try store(SearchQuery(), results)
        try store.withSnapshot { snapshot in
            let (data, missing) = snapshot.read(SearchQuery())
            XCTAssertFalse(missing)
            let search = try XCTUnwrap(data?.search)
            XCTAssertEqual(search.map { $0?.__typename }, ["Human", "Starship", "Planet"])
            XCTAssertEqual(search[0]?.asCharacter?.name, "Luke")
            XCTAssertNil(search[0]?.asStarship)
            XCTAssertNil(search[1]?.asCharacter)
            XCTAssertEqual(search[1]?.asStarship?.length, 34.5)
            XCTAssertNil(search[2]?.asCharacter)
        }
    }

    /// An aliased `__typename` exists on a view only where its refinement matches: `kind` on the
    /// members that implement Character, `humanKind` on the Human (relay's generated types; the
    /// untyped reader reads `kind` on every member, as relay's reader does: golden case 087).
    func testTypenameAliasesOnlyWhereTheirRefinementMatches() throws {
        let results =
            #"{"data":{"search":[{"__typename":"Human","__isCharacter":"Human","kind":"Human","appearsIn":["JEDI"],"humanKind":"Human","__isNode":"Human","id":"1000"},{"__typename":"Starship","__isNode":"Starship","id":"3000"},{"__typename":"Droid","__isCharacter":"Droid","kind":"Droid","appearsIn":[],"__isNode":"Droid","id":"2001"}]}}"#
        let store = try store(TypenameAliasesQuery(), results)
        try store.withSnapshot { snapshot in
            let (data, missing) = snapshot.read(TypenameAliasesQuery())
            XCTAssertFalse(missing)
            let search = try XCTUnwrap(data?.search)
            XCTAssertEqual(search.map { $0?.asCharacter?.kind }, ["Human", nil, "Droid"])
            XCTAssertEqual(search.map { $0?.asHuman?.humanKind }, ["Human", nil, nil])
            XCTAssertEqual(search.map { $0?.__typename }, ["Human", "Starship", "Droid"])
        }
    }

    func testEnumRoundTripsAndBorrowedMatching() {
        XCTAssertEqual(Episode(rawValue: "JEDI"), .jedi)
        XCTAssertEqual(Episode.jedi.rawValue, "JEDI")
        XCTAssertEqual(Episode(rawValue: "X").rawValue, "X")
        XCTAssertEqual(ImageFormat(rawValue: "WEBP"), .webp)
    }
}
