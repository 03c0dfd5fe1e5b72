// The arena's format as the store fills it: symbols and their texts, record slots and shapes, heap
// values on both sides of the short-length boundary, integers past 32 bits.
import Foundation
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import RelayArenaWorkloads
import XCTest

final class ArenaLayoutTests: XCTestCase {
    /// The arena's size is deterministic for the seeded list, so it gates like an allocation
    /// count: 10,000 todos take 1,160,523 bytes for 1,170,224 of JSON (0.992×, the ≤ 1× target;
    /// ARENA.md counts them). With the connection's edges as a list of their symbols instead of a
    /// run, and the index sized for the payload at a load of 2/3, it was 1.032×, with a slot per
    /// list item in its derivation table 1.066×, with a record table beside the symbol table 1.19×.
    func testTheTodoListsArenaStaysWithinItsFormat() throws {
        let todos = 10_000
        let response = TodoListWorkload(todos: todos).response()
        let store = RecordStore()
        try store.commit(response: response, plan: try TodoListSetup.plan(todos: todos))
        let ratio = Double(store.arenaBytes) / Double(response.count)
        XCTAssertLessThanOrEqual(ratio, 1.0, "\(store.arenaBytes) arena bytes for \(response.count) of JSON")
        XCTAssertEqual(store.unusedSlotBytes, 0)
    }

    /// "Todo:0034271" and "Todo:0043217" have the same length and the same 32-bit hash (found by
    /// search): symbols are told apart by their text, whether a refetch finds the store's symbol
    /// by guessing its position or by a lookup in the index.
    func testIDsWithTheSameHashStayDistinctRecords() throws {
        let docs = try Fixtures.compile(#"query Q { node(id: "x") { id ... on Todo { text } } }"#)
        let plan = try NormalizationPlan(operation: docs.operations["Q"]!)
        func payload(_ id: String, _ text: String) -> [UInt8] {
            Array(#"{"data":{"node":{"__typename":"Todo","id":"\#(id)","text":"\#(text)"}}}"#.utf8)
        }
        let store = RecordStore()
        try store.commit(response: payload("Todo:0034271", "first"), plan: plan)
        // The second ID takes the first one's place in the payload, so the guess names its symbol.
        let updated = Array(try store.commit(response: payload("Todo:0043217", "second"), plan: plan))
        XCTAssertEqual(Set(updated), ["Todo:0043217", "client:root"])
        XCTAssertEqual(store.recordCount, 3)
        store.withSnapshot { s in
            for (id, text) in [("Todo:0034271", "first"), ("Todo:0043217", "second")] {
                guard case .record(let r) = s.record(id), case .string(let t)? = s.field(r, "text") else {
                    return XCTFail(id)
                }
                XCTAssertEqual(t.string, text, id)
            }
        }
    }

    /// A data ID met again in one payload names the record already there, and its text is kept
    /// once: the normalizer copies each `id` to the symbol bytes when it arrives (so that the
    /// lookup can wait for the record to close), and a copy that turns out to be a repeat must go.
    func testADataIDRepeatedInOnePayloadKeepsItsTextOnce() throws {
        let id = String(repeating: "T", count: 2_000)
        func response(_ copies: Int) -> [UInt8] {
            let edge = #"{"cursor":"c","node":{"id":"\#(id)","text":"t","complete":false}}"#
            let edges = Array(repeating: edge, count: copies).joined(separator: ",")
            return Array(
                (#"{"data":{"user":{"id":"me","totalCount":1,"todos":{"edges":[\#(edges)],"#
                    + #""pageInfo":{"hasNextPage":false,"hasPreviousPage":false,"startCursor":null,"endCursor":null}}}}}"#)
                    .utf8)
        }
        let plan = try TodoListSetup.plan(todos: 100)
        let once = RecordStore()
        let often = RecordStore()
        try once.commit(response: response(1), plan: plan)
        try often.commit(response: response(100), plan: plan)
        XCTAssertEqual(often.recordCount, once.recordCount + 99, "one todo record, an edge per copy")
        often.withSnapshot { s in
            guard case .record(let todo) = s.record(id), case .string(let text)? = s.field(todo, "text") else {
                return XCTFail()
            }
            XCTAssertEqual(text.string, "t")
        }
        // 99 more edges, and the index room a larger payload reserves, come to ~40 KB; 99 more
        // copies of the ID would add ~200 KB to that.
        XCTAssertLessThan(often.arenaBytes - once.arenaBytes, 99 * id.utf8.count / 2)
    }

    /// A record's `id` whose value is its own data ID is kept in the record's header, not in a
    /// slot of its own. Read, written out and compared on a refetch, it is a field like any
    /// other: against a store file's `id` as text (the same, then a different one), and where
    /// the normalizer has to give it a slot after all (a null `id`, past the room a record
    /// with a string one gets).
    func testARecordsOwnIDIsAFieldLikeAnyOther() throws {
        let plan = try TodoListSetup.plan(todos: 100)
        func response(_ nodes: [String]) -> [UInt8] {
            let edges = nodes.enumerated().map { #"{"cursor":"c\#($0.offset)","node":\#($0.element)}"# }
            return Array(
                (#"{"data":{"user":{"id":"me","totalCount":2,"todos":{"edges":[\#(edges.joined(separator: ","))],"#
                    + #""pageInfo":{"hasNextPage":false,"hasPreviousPage":false,"startCursor":null,"endCursor":null}}}}}"#)
                    .utf8)
        }
        let todos = [#"{"id":"T1","text":"one","complete":false}"#, #"{"text":"two","complete":true,"id":"T2"}"#]
        let store = RecordStore()
        try store.commit(response: response(todos), plan: plan)
        store.withSnapshot { s in
            for id in ["T1", "T2", "me"] {
                guard case .record(let r) = s.record(id), case .string(let v)? = s.field(r, "id") else {
                    return XCTFail(id)
                }
                XCTAssertEqual(v.string, id)
            }
        }
        // Written out first, whatever the order in the response.
        let file = String(decoding: store.relayJSON(), as: UTF8.self)
        XCTAssertTrue(
            file.contains(#""T2":{"__id":"T2","__typename":"Todo","id":"T2","text":"two","complete":true}"#), file)

        // A store file keeps `id` as text: the same text is the same value, another is a change.
        let copy = try RecordStore(relayJSON: Array(file.utf8))
        XCTAssertEqual(Array(try copy.commit(response: response(todos), plan: plan)), [])
        let renamed = try RecordStore(
            relayJSON: Array(file.replacingOccurrences(of: #""id":"T2""#, with: #""id":"other""#).utf8))
        XCTAssertEqual(Array(try renamed.commit(response: response(todos), plan: plan)), ["T2"])
        XCTAssertEqual(String(decoding: renamed.relayJSON(), as: UTF8.self), file)
        XCTAssertEqual(Array(try renamed.commit(response: response(todos), plan: plan)), [])

        // A null `id`: a client ID, and `id` a field with a slot of its own.
        let nullID = RecordStore()
        try nullID.commit(response: response([#"{"id":null,"text":"three","complete":true}"#]), plan: plan)
        guard case .object(let all) = try JSONCompare.parse(nullID.relayJSON()) else { return XCTFail() }
        let node = all.first { $0.key.hasSuffix(":edges:0:node") }?.value
        XCTAssertEqual(
            node?.stableJSON,
            try JSONCompare.parse(
                Array(
                    """
                    {"__id":"client:me:todos(first:100):edges:0:node","__typename":"Todo","id":null,"text":"three","complete":true}
                    """.utf8)
            ).stableJSON)
        XCTAssertEqual(
            Array(try nullID.commit(response: response([#"{"id":null,"text":"three","complete":true}"#]), plan: plan)),
            [])

        // A record of an abstract field (staged, with its `__typename`) keeps it in its header too.
        let docs = try Fixtures.compile(#"query Q { node(id: "x") { id ... on Todo { text } } }"#)
        let abstract = try NormalizationPlan(operation: docs.operations["Q"]!)
        let nodePayload = Array(#"{"data":{"node":{"__typename":"Todo","text":"four","id":"T4"}}}"#.utf8)
        let nodeStore = RecordStore()
        try nodeStore.commit(response: nodePayload, plan: abstract)
        let nodeFile = String(decoding: nodeStore.relayJSON(), as: UTF8.self)
        XCTAssertTrue(nodeFile.contains(#""T4":{"__id":"T4","__typename":"Todo","id":"T4","text":"four"}"#), nodeFile)
        XCTAssertEqual(Array(try nodeStore.commit(response: nodePayload, plan: abstract)), [])

        // An `id` selected under a type condition and met before `__typename` waits as text and is
        // replayed as a string: the same bit, so the same store (and file) either way.
        let conditional = try Fixtures.compile(
            #"query C { node(id: "x") { ... on Todo { text id } } }"#, name: "c.graphql")
        let late = try NormalizationPlan(operation: conditional.operations["C"]!)
        let lateStore = RecordStore()
        try lateStore.commit(
            response: Array(#"{"data":{"node":{"text":"five","id":"T5","__typename":"Todo"}}}"#.utf8), plan: late)
        let lateFile = lateStore.relayJSON()
        XCTAssertTrue(
            String(decoding: lateFile, as: UTF8.self).contains(
                #""T5":{"__id":"T5","__typename":"Todo","id":"T5","text":"five"}"#),
            String(decoding: lateFile, as: UTF8.self))
        XCTAssertEqual(
            String(decoding: try RecordStore(relayJSON: lateFile).relayJSON(), as: UTF8.self),
            String(decoding: lateFile, as: UTF8.self))
        XCTAssertEqual(lateStore.unusedSlotBytes, 0)
    }

    /// A record is given the room it fills, no more: a payload's records (quick, and staged with
    /// a `__typename`, which is the record's type and takes no slot) and a store file's (grown in
    /// place a slot at a time as they are read). A record that grows later moves and
    /// leaves its old slots, which a store file round trip gives back. A store file's `id` that
    /// is the record's own data ID takes no slot either.
    func testRecordsTakeTheSlotsTheyFill() throws {
        let list = RecordStore()
        try list.commit(response: TodoListWorkload(todos: 100).response(), plan: try TodoListSetup.plan(todos: 100))
        XCTAssertEqual(list.unusedSlotBytes, 0)

        let docs = try Fixtures.compile(
            """
            query Q { node(id: "x") { __typename id ... on Todo { text } } }
            query R($id: ID!) { node(id: $id) { id ... on Todo { text complete notes priority } } }
            """)
        let q = try NormalizationPlan(operation: docs.operations["Q"]!)
        func r(_ id: String) throws -> NormalizationPlan {
            try NormalizationPlan(operation: docs.operations["R"]!, variables: ["id": .string(id)])
        }
        func refetch(_ id: String) -> [UInt8] {
            Array(
                #"{"data":{"node":{"__typename":"Todo","id":"\#(id)","text":"t","complete":true,"notes":"n","priority":1}}}"#
                    .utf8)
        }
        let store = RecordStore()
        try store.commit(
            response: Array(#"{"data":{"node":{"__typename":"Todo","id":"T1","text":"one"}}}"#.utf8), plan: q)
        XCTAssertEqual(store.unusedSlotBytes, 0, "`__typename` takes no slot")
        XCTAssertEqual(Array(try store.commit(response: refetch("T1"), plan: r("T1"))), ["client:root", "T1"])
        XCTAssertGreaterThan(store.unusedSlotBytes, 0, "T1 grew from 1 slot to 4 (its id is a bit)")

        // A store file: `id` last in T2's record, T2's 5 slots taken one by one in place, its `id` the bit.
        let file =
            #"{"T2":{"__id":"T2","__typename":"Todo","text":"two","complete":false,"notes":null,"priority":2,"#
            + #""tags":null,"id":"T2"},"T3":{"__id":"T3","__typename":"Todo","id":"not T3"}}"#
        let loaded = try RecordStore(relayJSON: Array(file.utf8))
        XCTAssertEqual(loaded.unusedSlotBytes, 0)
        let out = String(decoding: loaded.relayJSON(), as: UTF8.self)
        XCTAssertTrue(
            out.contains(
                #""T2":{"__id":"T2","__typename":"Todo","id":"T2","text":"two","complete":false,"notes":null,"priority":2,"tags":null}"#
            ), out)
        XCTAssertTrue(out.contains(#""T3":{"__id":"T3","__typename":"Todo","id":"not T3"}"#), out)
        XCTAssertEqual(Array(try loaded.commit(response: refetch("T2"), plan: r("T2"))), ["client:root", "T2"])
        XCTAssertEqual(loaded.unusedSlotBytes, 0, "T2 changed values and took no new slot")
        XCTAssertEqual(Array(try loaded.commit(response: refetch("T3"), plan: r("T3"))), ["client:root", "T3"])
        // The root (1 link, the last record: it grows in place) and T3 (1 slot, its `id` not its
        // own: it moves, leaving that slot's 4-byte value) take new keys. T3's `id` is its own now: the bit.
        XCTAssertEqual(loaded.unusedSlotBytes, 4)
        let t3 = String(decoding: loaded.relayJSON(), as: UTF8.self)
        XCTAssertTrue(
            t3.contains(
                #""T3":{"__id":"T3","__typename":"Todo","id":"T3","text":"t","complete":true,"notes":"n","priority":1}"#
            ), t3)

        for s in [store, loaded] {
            let again = try RecordStore(relayJSON: s.relayJSON())
            XCTAssertEqual(again.unusedSlotBytes, 0)
            XCTAssertEqual(again.relayJSON(), s.relayJSON())
        }
    }

    /// Records with the same fields share one shape (their keys and their values' kinds), each
    /// record keeping its values alone: the number of shapes follows the kinds of records, not
    /// their number. A flipped boolean or a changed string keeps a record's shape; a value of
    /// another kind (a string becoming null) gives the record another, and leaves the records that
    /// shared its old one as they were. The shapes' limit refuses a publish whole.
    func testRecordsWithTheSameFieldsShareAShape() throws {
        let small = RecordStore()
        let list = RecordStore()
        try small.commit(response: TodoListWorkload(todos: 100).response(), plan: try TodoListSetup.plan(todos: 100))
        let workload = TodoListWorkload(todos: 1_000)
        let listPlan = try TodoListSetup.plan(todos: 1_000)
        try list.commit(response: workload.response(), plan: listPlan)
        let kinds = list.shapeCount
        XCTAssertEqual(kinds, small.shapeCount, "ten times the todos, the same shapes")
        // The root, the user, the connection, an edge, a todo, the page info, and shape 0.
        XCTAssertEqual(kinds, 7)

        func id(_ i: Int) -> String { Data("Todo:\(i)".utf8).base64EncodedString() }
        func show(_ id: String, _ key: String) -> String {
            list.withSnapshot { s in
                guard case .record(let r) = s.record(id) else { return "no record" }
                switch s.field(r, key) {
                case nil: return "missing"
                case .null?: return "null"
                case .bool(let b)?: return "\(b)"
                case .int(let i)?: return "int \(i)"
                case .string(let t)?: return "\"\(t.string)\""
                default: return "other"
                }
            }
        }
        let refetch = workload.response(changedPercent: 10)
        let text = String(decoding: refetch, as: UTF8.self)
        let editedCount = text.components(separatedBy: " (edited)").count - 1
        let edited = (0..<1_000).first { text.contains("#\($0) (edited)") }!
        let wasComplete = show(id(edited), "complete")
        XCTAssertGreaterThan(editedCount, 50)
        XCTAssertEqual(Array(try list.commit(response: refetch, plan: listPlan)).count, editedCount, "the edited todos")
        XCTAssertEqual(list.shapeCount, kinds, "flipped booleans and new texts keep the records' shapes")
        XCTAssertTrue(show(id(edited), "text").hasSuffix(" (edited)\""), show(id(edited), "text"))
        XCTAssertEqual(show(id(edited), "complete"), wasComplete == "true" ? "false" : "true")

        let docs = try Fixtures.compile(
            """
            query R($id: ID!) { node(id: $id) { id ... on Todo { notes priority } } }
            query Z { viewer { locale } }
            """)
        func node(_ i: Int, notes: String, priority: Int) throws -> [String] {
            let plan = try NormalizationPlan(operation: docs.operations["R"]!, variables: ["id": .string(id(i))])
            let body =
                #"{"data":{"node":{"__typename":"Todo","id":"\#(id(i))","notes":\#(notes),"priority":\#(priority)}}}"#
            return Array(try list.commit(response: Array(body.utf8), plan: plan))
        }
        let text6 = show(id(6), "text")
        XCTAssertEqual(Set(try node(5, notes: #""n""#, priority: 1)), ["client:root", id(5)])
        XCTAssertEqual(list.shapeCount, kinds + 2, "the root's with `node(id:…)`, and T5's with notes and priority")
        XCTAssertEqual(try node(5, notes: "null", priority: 2), [id(5)])
        XCTAssertEqual(list.shapeCount, kinds + 3, "T5's notes: a string, then null")
        XCTAssertEqual([show(id(5), "notes"), show(id(5), "priority")], ["null", "int 2"])
        XCTAssertEqual([show(id(6), "text"), show(id(6), "notes")], [text6, "missing"], "T6 kept the shape T5 left")
        XCTAssertEqual(try node(5, notes: #""m""#, priority: 2), [id(5)])
        XCTAssertEqual(list.shapeCount, kinds + 3, "back to a shape the store has")
        XCTAssertEqual(show(id(5), "notes"), #""m""#)
        XCTAssertEqual(try node(5, notes: #""m""#, priority: 2), [], "the same again")

        // A payload whose first record has no field at all (its selection's field missing): shape 0.
        let empty = RecordStore()
        let z = try NormalizationPlan(operation: docs.operations["Z"]!)
        XCTAssertEqual(
            Set(try empty.commit(response: Array(#"{"data":{"viewer":{}}}"#.utf8), plan: z)),
            ["client:root", "client:root:viewer"])
        XCTAssertEqual(
            String(decoding: empty.relayJSON(), as: UTF8.self),
            #"{"client:root":{"__id":"client:root","__typename":"__Root","viewer":{"__ref":"client:root:viewer"}},"#
                + #""client:root:viewer":{"__id":"client:root:viewer","__typename":"Viewer"}}"#)

        // The limit: 65,536 shapes with shape 0, loaded from a store file of records of one key each.
        func file(_ keys: Range<Int>) -> [UInt8] {
            Array(
                ("{"
                    + keys.map { #""r\#($0)":{"__id":"r\#($0)","__typename":"Todo","k\#($0)":1}"# }.joined(
                        separator: ",") + "}").utf8)
        }
        XCTAssertThrowsError(try RecordStore(relayJSON: file(0..<65_536))) { error in
            XCTAssertEqual((error as? RelayArenaError)?.code, .limit, "\(error)")
            XCTAssertTrue("\(error)".contains("65535 record shapes"), "\(error)")
        }
        let full = try RecordStore(relayJSON: file(0..<65_535))
        XCTAssertEqual(full.shapeCount, 65_536)
        let before = full.relayJSON()
        let r = try NormalizationPlan(operation: docs.operations["R"]!, variables: ["id": .string("r7")])
        XCTAssertThrowsError(
            try full.commit(
                response: Array(#"{"data":{"node":{"__typename":"Todo","id":"r7","notes":"x","priority":3}}}"#.utf8),
                plan: r)
        ) { error in
            XCTAssertEqual((error as? RelayArenaError)?.code, .limit, "\(error)")
            XCTAssertTrue("\(error)".contains("65535 record shapes"), "\(error)")
        }
        XCTAssertEqual(full.relayJSON(), before, "refused whole")
    }

    /// The same, when the repeated record has a record of its own inside (a new ID, interned
    /// before the repeated one's record closes): the copy must not be left behind it.
    func testARepeatedDataIDWithANewChildKeepsItsTextOnce() throws {
        let id = String(repeating: "T", count: 2_000)
        let docs = try Fixtures.compile(
            """
            query Q { user(id: "me") { id todos(first: 100) { edges { node { id text owner { id } } } } } }
            """)
        let plan = try NormalizationPlan(operation: docs.operations["Q"]!)
        func response(_ copies: Int) -> [UInt8] {
            let edges = (0..<copies).map { #"{"node":{"id":"\#(id)","text":"t","owner":{"id":"owner\#($0)"}}}"# }
            return Array(#"{"data":{"user":{"id":"me","todos":{"edges":[\#(edges.joined(separator: ","))]}}}}"#.utf8)
        }
        let once = RecordStore()
        let often = RecordStore()
        try once.commit(response: response(1), plan: plan)
        try often.commit(response: response(100), plan: plan)
        XCTAssertEqual(often.recordCount, once.recordCount + 2 * 99, "an edge and an owner per copy")
        XCTAssertLessThan(often.arenaBytes - once.arenaBytes, 99 * id.utf8.count / 2)
    }

    /// Each payload sets the same value on two records; concurrent readers must never see them

    /// Heap values keep a length under 255 in one byte and a longer one in five: strings, captured
    /// JSON (whose length is known only once it is written) and link lists on both sides of that
    /// boundary read back whole, survive a store file, and compare equal on a refetch.
    func testHeapValuesOnBothSidesOfTheShortLengthBoundary() throws {
        let docs = try Fixtures.compile(#"query Q { user(id: "me") { id name nicknames friends(first: 300) { id } } }"#)
        let plan = try NormalizationPlan(operation: docs.operations["Q"]!)
        for (k, size) in [0, 1, 249, 250, 251, 252, 253, 254, 255, 256, 70_000].enumerated() {
            let name = String(repeating: "n", count: size)
            let nick = String(repeating: "a", count: max(size - 4, 0))  // `["…"]`: 4 bytes more
            let friends = [0, 1, 62, 63, 64, 65, 200, 300, 3, 2, 5][k]  // 4 bytes a link
            func payload(_ name: String) -> [UInt8] {
                let list = (0..<friends).map { #"{"id":"F\#($0)"}"# }.joined(separator: ",")
                return Array(
                    #"{"data":{"user":{"id":"U","name":"\#(name)","nicknames":["\#(nick)"],"friends":[\#(list)]}}}"#
                        .utf8)
            }
            let store = RecordStore()
            try store.commit(response: payload(name), plan: plan)
            func check(_ store: RecordStore) {
                store.withSnapshot { s in
                    guard case .record(let u) = s.record("U") else { return XCTFail("\(size)") }
                    if case .string(let t)? = s.field(u, "name") {
                        XCTAssertEqual(t.string, name)
                    } else {
                        XCTFail("name \(size)")
                    }
                    if case .json(let t)? = s.field(u, "nicknames") {
                        XCTAssertEqual(t.string, #"["\#(nick)"]"#)
                    } else {
                        XCTFail("nicknames \(size)")
                    }
                    guard case .links(let links)? = s.field(u, #"friends(first:300)"#) else {
                        return XCTFail("friends \(size)")
                    }
                    XCTAssertEqual(links.map { $0.map { s.text($0).string } }, (0..<friends).map { "F\($0)" })
                }
            }
            check(store)
            let file = store.relayJSON()
            let loaded = try RecordStore(relayJSON: file)
            check(loaded)
            XCTAssertEqual(loaded.relayJSON(), file, "\(size)")
            XCTAssertEqual(Array(try store.commit(response: payload(name), plan: plan)), [], "the same \(size) again")
            XCTAssertEqual(
                Array(try store.commit(response: payload(name + "x"), plan: plan)), ["U"], "\(size) → \(size + 1)")
        }
    }

    /// Symbol texts keep a length under 255 in one byte and a longer one in five. Data IDs, client
    /// IDs written in place (`client:<id>:settings`: 254, 255 and 256 bytes here) and list items'
    /// derived IDs over prefixes of either form are found by their text, survive a store file,
    /// and are the same symbols when the payload comes again, into the store or into its copy.
    func testSymbolsOnBothSidesOfTheShortLengthBoundary() throws {
        let docs = try Fixtures.compile(
            #"query Q { user(id: "me") { id settings { theme } friends(first: 2) { name } } }"#)
        let plan = try NormalizationPlan(operation: docs.operations["Q"]!)
        for size in [1, 200, 238, 239, 240, 300] {
            let id = String(repeating: "u", count: size)
            let payload = Array(
                #"{"data":{"user":{"id":"\#(id)","settings":{"theme":"dark"},"friends":[{"name":"a"},{"name":"b"}]}}}"#
                    .utf8)
            let store = RecordStore()
            try store.commit(response: payload, plan: plan)
            func check(_ store: RecordStore) {
                XCTAssertEqual(store.recordCount, 5, "root, user, settings, two friends: \(size)")
                store.withSnapshot { s in
                    guard case .record(let u) = s.record(id), case .string(let own)? = s.field(u, "id") else {
                        return XCTFail("\(size)")
                    }
                    XCTAssertEqual(own.string, id)
                    guard case .record(let settings) = s.record("client:\(id):settings"),
                        case .string(let theme)? = s.field(settings, "theme")
                    else { return XCTFail("settings \(size)") }
                    XCTAssertEqual(theme.string, "dark")
                    XCTAssertEqual(s.text(s.id(of: settings)).string, "client:\(id):settings")
                    for (i, name) in ["a", "b"].enumerated() {
                        guard case .record(let f) = s.record("client:\(id):friends(first:2):\(i)"),
                            case .string(let n)? = s.field(f, "name")
                        else { return XCTFail("friend \(i) \(size)") }
                        XCTAssertEqual(n.string, name)
                    }
                }
            }
            check(store)
            let loaded = try RecordStore(relayJSON: store.relayJSON())
            check(loaded)
            XCTAssertEqual(
                Array(try store.commit(response: payload, plan: plan)), [], "the same payload again: \(size)")
            XCTAssertEqual(
                Array(try loaded.commit(response: payload, plan: plan)), [], "into the loaded store: \(size)")
            check(loaded)
        }
    }

    /// A field slot holds a 32-bit payload: integers past 32 bits keep their text in the heap.
    /// Either way they read as `.int` (up to 17 digits), export as received, and a refetch of the
    /// same value changes nothing, while a step across the boundary is a change.
    func testIntegersPast32BitsKeepTheirTextAndReadAsInts() throws {
        let docs = try Fixtures.compile(#"query Q { user(id: "me") { id totalCount } }"#)
        let plan = try NormalizationPlan(operation: docs.operations["Q"]!)
        func payload(_ count: String) -> [UInt8] { Array(#"{"data":{"user":{"id":"U","totalCount":\#(count)}}}"#.utf8) }
        let values = [
            "2147483647", "2147483648", "-2147483648", "-2147483649", "0", "-0", "12345678901234567",
            "-12345678901234567", "123456789012345678", "4294967296", "18446744073709551615",
        ]
        for text in values {
            let store = RecordStore()
            try store.commit(response: payload(text), plan: plan)
            store.withSnapshot { s in
                guard case .record(let u) = s.record("U") else { return XCTFail(text) }
                switch s.field(u, "totalCount") {
                case .int(let i)? where text.count - (text.hasPrefix("-") ? 1 : 0) <= 17:
                    XCTAssertEqual(i, Int64(text), text)
                case .number(let t)? where text.count - (text.hasPrefix("-") ? 1 : 0) > 17:
                    XCTAssertEqual(t.string, text)
                case let other: XCTFail("\(text): \(String(describing: other))")
                }
            }
            let exported = String(decoding: store.relayJSON(), as: UTF8.self)
            XCTAssertTrue(exported.contains(#""totalCount":\#(text == "-0" ? "0" : text)}"#), exported)
            XCTAssertEqual(Array(try store.commit(response: payload(text), plan: plan)), [], "the same \(text) again")
        }
        let store = RecordStore()
        for (from, to) in [
            ("2147483647", "2147483648"), ("2147483648", "2147483647"), ("-2147483648", "-2147483649"),
            ("4294967296", "0"), ("0", "4294967296"),
        ] {
            try store.commit(response: payload(from), plan: plan)
            XCTAssertEqual(Array(try store.commit(response: payload(to), plan: plan)), ["U"], "\(from) → \(to)")
        }
    }
}
