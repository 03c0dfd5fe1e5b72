// The store on its own: relay toJSON round trips, bad store files, and readers running while a
// writer publishes (a reader sees a payload entirely or not at all).
import Foundation
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import RelayArenaWorkloads
import XCTest

final class StoreTests: XCTestCase {
    func testNewStoreHoldsOnlyTheRoot() {
        XCTAssertEqual(
            String(decoding: RecordStore().relayJSON(), as: UTF8.self),
            #"{"client:root":{"__id":"client:root","__typename":"__Root"}}"#)
    }

    func testRelayJSONRoundTripsEveryValueKind() throws {
        let text =
            #"{"client:root":{"__id":"client:root","__typename":"__Root","me":{"__ref":"U"},"list":{"__refs":["U",null]}},"U":{"__id":"U","__typename":"User","s":"a\"b\\c\n\u0001é","i":-9007199254740991,"f":1.50,"big":123456789012345678901234567890,"t":true,"n":null,"scalars":[1,"x",null,[2]],"obj":{"b":1,"a":{"__ref":"not-a-link-here","x":1}},"fake":{"__ref":3},"__errors":{"s":[{"message":"m"}]}},"gone":null}"#
        let store = try RecordStore(relayJSON: Array(text.utf8))
        let out = String(decoding: store.relayJSON(), as: UTF8.self)
        XCTAssertEqual(out, text, "values kept verbatim, key order kept, tombstones kept")
        XCTAssertEqual(store.recordCount, 3)
        store.withSnapshot { s in
            guard case .record(let u) = s.record("U") else { return XCTFail() }
            if case .int(let i)? = s.field(u, "i") { XCTAssertEqual(i, -9_007_199_254_740_991) } else { XCTFail("i") }
            if case .number(let t)? = s.field(u, "big") {
                XCTAssertEqual(t.string, "123456789012345678901234567890")
            } else {
                XCTFail("big")
            }
            if case .json? = s.field(u, "fake") {} else { XCTFail("{__ref: 3} is a custom scalar, not a link") }
            guard case .record(let root) = s.record("client:root"), case .links(let list)? = s.field(root, "list")
            else { return XCTFail() }
            XCTAssertEqual(list.count, 2)
            XCTAssertNil(list[1])
            if case .deleted = s.record("gone") {} else { XCTFail("tombstone") }
            if case .unknown = s.record("never") {} else { XCTFail("unknown") }
        }
    }

    func testBadStoreFilesAreRejected() {
        for bad in ["[]", #"{"a":1}"#, #"{"a":{"__typename":1}}"#, #"{"a":"#, "", #"{"a":{"__typename":"T","x":[1,}"#] {
            XCTAssertThrowsError(try RecordStore(relayJSON: Array(bad.utf8)), bad)
        }
        // Nesting past the limit stops the load, in its first pass (the data IDs') as in its second.
        let deep = #"{"a":{"__typename":"T","x":"# + String(repeating: "[", count: 200_000)
        for limit: UInt32 in [10, 1000] {
            XCTAssertThrowsError(try RecordStore(relayJSON: Array(deep.utf8), maxDepth: limit)) { error in
                XCTAssertEqual((error as? RelayArenaError)?.code, .tooDeep, "\(error)")
            }
        }
    }

    /// A record is kept in its data ID's symbol entry, and records are written out in their IDs'
    /// order. A store file's IDs are taken in the file's order before any link to them, so a
    /// record linking one further down does not move it: a file loaded and written out again is
    /// the same file, and a payload's new records come after the file's.
    func testAStoreFileKeepsItsRecordOrder() throws {
        let text =
            #"{"client:root":{"__id":"client:root","__typename":"__Root","last":{"__ref":"c"},"all":{"__refs":["c","b",null,"a"]}},"#
            + #""a":{"__id":"a","__typename":"T","next":{"__ref":"c"},"edge":{"__ref":"client:x:edges:1"}},"b":{"__id":"b","__typename":"T"},"#
            + #""c":{"__id":"c","__typename":"T","prev":{"__ref":"b"}},"client:x:edges:3":{"__id":"client:x:edges:3","__typename":"E"},"#
            + #""client:x:edges:1":{"__id":"client:x:edges:1","__typename":"E","node":{"__ref":"a"}}}"#
        let store = try RecordStore(relayJSON: Array(text.utf8))
        XCTAssertEqual(String(decoding: store.relayJSON(), as: UTF8.self), text)
        XCTAssertEqual(store.recordCount, 6)

        let plan = try TodoListSetup.plan(todos: 3)
        let updated = Set(try store.commit(response: TodoListWorkload(todos: 3).response(), plan: plan))
        XCTAssertTrue(updated.contains("client:root") && updated.contains(TodoListWorkload.userID))
        let out = String(decoding: store.relayJSON(), as: UTF8.self)
        let order = [
            "\"client:root\":{", "\"a\":{", "\"b\":{", "\"c\":{", "\"client:x:edges:3\":{", "\"client:x:edges:1\":{",
            "\"\(TodoListWorkload.userID)\":{",
        ].map { key -> Int in
            guard let r = out.range(of: key) else {
                XCTFail("\(key) missing from \(out)")
                return -1
            }
            return out.distance(from: out.startIndex, to: r.lowerBound)
        }
        XCTAssertEqual(order, order.sorted(), "the file's records first, in its order, then the payload's: \(out)")
        XCTAssertEqual(
            store.recordCount, 6 + 1 + 1 + 3 * 2 + 1, "the user, its connection, 3 todos and edges, the page info")
    }

    /// A store file's data IDs are found by a scan of its bytes, not a parse; an ID with an escape
    /// (a client ID under a field with a string argument has `\"`) is unescaped by the scan, one
    /// with a `\u` escape sends the whole pass to yajl. Either way the records keep the file's
    /// order, each ID being taken before the links to it further up, and the file's text of a
    /// key (escapes, strings and brackets in values, which the scan must step over) does not
    /// matter. The outputs are the exporter's escaping: `\/` and `\u00e9` written as `/` and `é`.
    func testAStoreFileKeepsItsOrderWhateverItsIDsEscapes() throws {
        let tricky = #""s":"a \"}{[\\\"","t":"x\\","#  // values with quotes, backslashes and brackets
        func file(_ ids: [String]) -> String {
            var text =
                #"{"client:root":{"__id":"client:root","__typename":"__Root","all":{"__refs":[\#(ids.reversed().map { "\"\($0)\"" }.joined(separator: ","))]}}"#
            for id in ids {
                text += #","\#(id)":{"__id":"\#(id)","__typename":"T",\#(tricky)"n":{"__ref":"\#(ids[0])"}}"#
            }
            return text + "}"
        }
        let simple = [
            #"client:root:user(id:\"me\")"#, #"back\\slash"#, #"line\nbreak"#, #"tab\tand\r\b\f"#, #"ends\\"#, "plain",
        ]
        let text = file(simple)
        let store = try RecordStore(relayJSON: Array(text.utf8))
        XCTAssertEqual(String(decoding: store.relayJSON(), as: UTF8.self), text)
        XCTAssertEqual(store.recordCount, 1 + simple.count)
        XCTAssertNil(store.withSnapshot { $0.symbol(#"client:root:user(id:\"me\")"#) }, "an ID's text is unescaped")

        for other in [
            [#"slash\/ed"#, "plain", #"client:root:user(id:\"me\")"#], ["plain", #"caf\u00e9"#, #"q\"uote"#],
        ] {
            let written = file(
                other.map {
                    $0.replacingOccurrences(of: #"\/"#, with: "/").replacingOccurrences(of: #"\u00e9"#, with: "é")
                })
            XCTAssertEqual(
                String(decoding: try RecordStore(relayJSON: Array(file(other).utf8)).relayJSON(), as: UTF8.self),
                written)
        }
    }

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
        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql")))
        let docs = try compiler.compile([
            GraphQLSourceFile(name: "q.graphql", text: #"query Q { node(id: "x") { id ... on Todo { text } } }"#)
        ])
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
        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql")))
        let docs = try compiler.compile([
            GraphQLSourceFile(name: "q.graphql", text: #"query Q { node(id: "x") { id ... on Todo { text } } }"#)
        ])
        let abstract = try NormalizationPlan(operation: docs.operations["Q"]!)
        let nodePayload = Array(#"{"data":{"node":{"__typename":"Todo","text":"four","id":"T4"}}}"#.utf8)
        let nodeStore = RecordStore()
        try nodeStore.commit(response: nodePayload, plan: abstract)
        let nodeFile = String(decoding: nodeStore.relayJSON(), as: UTF8.self)
        XCTAssertTrue(nodeFile.contains(#""T4":{"__id":"T4","__typename":"Todo","id":"T4","text":"four"}"#), nodeFile)
        XCTAssertEqual(Array(try nodeStore.commit(response: nodePayload, plan: abstract)), [])

        // An `id` selected under a type condition and met before `__typename` waits as text and is
        // replayed as a string: the same bit, so the same store (and file) either way.
        let conditional = try compiler.compile([
            GraphQLSourceFile(name: "c.graphql", text: #"query C { node(id: "x") { ... on Todo { text id } } }"#)
        ])
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

        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql")))
        let docs = try compiler.compile([
            GraphQLSourceFile(
                name: "q.graphql",
                text: """
                    query Q { node(id: "x") { __typename id ... on Todo { text } } }
                    query R($id: ID!) { node(id: $id) { id ... on Todo { text complete notes priority } } }
                    """)
        ])
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

    /// A record past 32,767 fields is refused as the arena's limit, in a store file and in a
    /// payload, not as a lack of memory.
    func testARecordPastTheFieldLimitIsALimitError() throws {
        let fields = (0..<32_768).map { #""f\#($0)":\#($0)"# }.joined(separator: ",")
        let file = #"{"R":{"__id":"R","__typename":"T",\#(fields)}}"#
        XCTAssertThrowsError(try RecordStore(relayJSON: Array(file.utf8))) { error in
            guard let e = error as? RelayArenaError else { return XCTFail("\(error)") }
            XCTAssertEqual(e.code, .limit, e.description)
            XCTAssertTrue(e.message.contains("32767 fields"), e.message)
        }
        let fine = (0..<32_767).map { #""f\#($0)":\#($0)"# }.joined(separator: ",")
        let store = try RecordStore(relayJSON: Array(#"{"R":{"__id":"R","__typename":"T",\#(fine)}}"#.utf8))
        XCTAssertEqual(store.unusedSlotBytes, 0)
    }

    /// A publish's updated IDs are handed over, not copied: they stay as they were through the
    /// store's later publishes, and each list is its own.
    func testUpdatedIDsOutliveLaterPublishes() throws {
        let plan = try TodoListSetup.plan(todos: 3)
        let workload = TodoListWorkload(todos: 3)
        let store = RecordStore()
        let first = try store.commit(response: workload.response(), plan: plan)
        let firstIDs = Array(first)
        XCTAssertEqual(firstIDs.count, store.recordCount)
        let changed = try store.commit(response: workload.response(changedPercent: 100), plan: plan)
        let none = try store.commit(response: workload.response(changedPercent: 100), plan: plan)
        XCTAssertEqual(Array(first), firstIDs)
        XCTAssertEqual(changed.count, 3)
        XCTAssertTrue(Set(changed).isSubset(of: Set(firstIDs)))
        XCTAssertEqual(Array(none), [])
    }

    /// A record keeps its typename as an index into its source's type table, of at most 32,767
    /// typenames: a payload or store file past that is refused as the arena's limit, and the
    /// store is unchanged. Up to it, every record reads back its own typename.
    func testTypenamesPastTheTableLimitAreALimitError() throws {
        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql")))
        let docs = try compiler.compile([
            GraphQLSourceFile(name: "q.graphql", text: #"query Q { nodes(ids: ["x"]) { id } }"#)
        ])
        let plan = try NormalizationPlan(operation: docs.operations["Q"]!)
        func payload(_ types: Int) -> [UInt8] {
            let nodes = (0..<types).map { #"{"__typename":"T\#($0)","id":"n\#($0)"}"# }.joined(separator: ",")
            return Array(#"{"data":{"nodes":[\#(nodes)]}}"#.utf8)
        }
        // The root's `__Root` is a typename too: 32,766 nodes fill the table.
        let store = RecordStore()
        try store.commit(response: payload(32_766), plan: plan)
        store.withSnapshot { s in
            for i in [0, 1, 16, 32_765] {
                guard case .record(let r) = s.record("n\(i)") else { return XCTFail("n\(i)") }
                XCTAssertEqual(s.typename(of: r).string, "T\(i)")
            }
        }
        let file = store.relayJSON()
        XCTAssertEqual(try RecordStore(relayJSON: file).relayJSON(), file)

        XCTAssertThrowsError(try RecordStore().commit(response: payload(32_767), plan: plan)) { error in
            XCTAssertEqual((error as? RelayArenaError)?.code, .limit, "\(error)")
            XCTAssertTrue("\(error)".contains("32767 typenames"), "\(error)")
        }
        // Into a store holding other typenames: the publish fails, and nothing changes.
        let other = Array(#"{"data":{"nodes":[{"__typename":"Other","id":"o"}]}}"#.utf8)
        let full = try RecordStore(relayJSON: file)
        XCTAssertThrowsError(try full.commit(response: other, plan: plan)) { error in
            XCTAssertEqual((error as? RelayArenaError)?.code, .limit, "\(error)")
        }
        XCTAssertEqual(full.relayJSON(), file)

        var text = String(decoding: file, as: UTF8.self)
        text.removeLast()
        text += #","o":{"__id":"o","__typename":"Other"}}"#
        XCTAssertThrowsError(try RecordStore(relayJSON: Array(text.utf8))) { error in
            XCTAssertEqual((error as? RelayArenaError)?.code, .limit, "\(error)")
            XCTAssertTrue("\(error)".contains("32767 typenames"), "\(error)")
        }
    }

    /// A publish that fails takes none of the typename table: the store, one entry short of full,
    /// refuses a payload with a new typename for another reason (a record past the field limit),
    /// then still takes a payload with another new typename.
    func testAFailedPublishTakesNoTypenameEntry() throws {
        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql")))
        let docs = try compiler.compile([
            GraphQLSourceFile(name: "q.graphql", text: #"query Q { nodes(ids: ["x"]) { id ... on Todo { text } } }"#)
        ])
        let plan = try NormalizationPlan(operation: docs.operations["Q"]!)
        func nodes(_ list: [String]) -> [UInt8] { Array(#"{"data":{"nodes":[\#(list.joined(separator: ","))]}}"#.utf8) }
        // `__Root`, T0…T32763 and `Todo`: 32,766 of the 32,767 typenames.
        let filled = RecordStore()
        try filled.commit(response: nodes((0..<32_764).map { #"{"__typename":"T\#($0)","id":"n\#($0)"}"# }), plan: plan)
        var text = String(decoding: filled.relayJSON(), as: UTF8.self)
        text.removeLast()
        let keys = (0..<32_767).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        text += #","big":{"__id":"big","__typename":"Todo","id":"big",\#(keys)}}"#
        let store = try RecordStore(relayJSON: Array(text.utf8))
        let file = store.relayJSON()

        // `big` would take a 32,768th field: refused, after `Fresh` was seen.
        let fresh = nodes([#"{"__typename":"Fresh","id":"f"}"#, #"{"__typename":"Todo","id":"big","text":"x"}"#])
        XCTAssertThrowsError(try store.commit(response: fresh, plan: plan)) { error in
            XCTAssertEqual((error as? RelayArenaError)?.code, .limit, "\(error)")
            XCTAssertTrue("\(error)".contains("32767 fields"), "\(error)")
        }
        XCTAssertEqual(store.relayJSON(), file)
        // Two new typenames where one entry is free: refused whole, neither added.
        let retyped = nodes([#"{"__typename":"Renamed","id":"n0"}"#, #"{"__typename":"Later","id":"l"}"#])
        XCTAssertThrowsError(try store.commit(response: retyped, plan: plan)) { error in
            XCTAssertTrue("\(error)".contains("32767 typenames"), "\(error)")
        }
        XCTAssertEqual(store.relayJSON(), file)
        // The last entry is still free.
        let updated = try store.commit(
            response: nodes([#"{"__typename":"Other","id":"o"}"#, #"{"__typename":"T5","id":"n5"}"#]), plan: plan)
        XCTAssertEqual(Set(updated), ["client:root", "o"])
        store.withSnapshot { s in
            guard case .record(let r) = s.record("o") else { return XCTFail("o") }
            XCTAssertEqual(s.typename(of: r).string, "Other")
        }
        XCTAssertThrowsError(try store.commit(response: nodes([#"{"__typename":"Last","id":"z"}"#]), plan: plan)) {
            error in
            XCTAssertTrue("\(error)".contains("32767 typenames"), "\(error)")
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

        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql")))
        let docs = try compiler.compile([
            GraphQLSourceFile(
                name: "q.graphql",
                text: """
                    query R($id: ID!) { node(id: $id) { id ... on Todo { notes priority } } }
                    query Z { viewer { locale } }
                    """)
        ])
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

    /// A payload whose records take more than 65,535 shapes (the same fields in every order and
    /// with values of every kind: 720 orders of six fields, 96 mixes of kinds) is refused with
    /// the limit named, and the store keeps what it had.
    func testAPayloadPastTheShapeLimitIsALimitError() throws {
        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql")))
        let docs = try compiler.compile([
            GraphQLSourceFile(
                name: "q.graphql",
                text: """
                    query Q { user(id: "me") { id todos(first: 70000) { edges { node {
                        id complete text priority estimateHours notes tags } } } } }
                    """)
        ])
        let plan = try NormalizationPlan(operation: docs.operations["Q"]!)
        func permutation(_ k: Int, _ items: [String]) -> [String] {
            var rest = items
            var k = k
            var out: [String] = []
            while !rest.isEmpty {
                let f = (1..<rest.count).reduce(1, *)
                out.append(rest.remove(at: k / f))
                k %= f
            }
            return out
        }
        func todos(_ count: Int) -> [UInt8] {
            let edges = (0..<count).map { i -> String in
                var m = i / 720  // which kinds: 2 × 2 × 2 × 3 × 2 × 2 = 96 mixes
                func pick(_ options: [String]) -> String {
                    defer { m /= options.count }
                    return options[m % options.count]
                }
                let values = [
                    #""complete":\#(pick(["true", "null"]))"#, #""text":\#(pick([#""t""#, "null"]))"#,
                    #""priority":\#(pick(["1", "null"]))"#, #""estimateHours":\#(pick(["2", "2.5", "null"]))"#,
                    #""notes":\#(pick([#""n""#, "null"]))"#, #""tags":\#(pick([#"["a"]"#, "null"]))"#,
                ]
                let members = [#""id":"t\#(i)""#] + permutation(i % 720, values)
                return #"{"node":{\#(members.joined(separator: ","))}}"#
            }
            return Array(#"{"data":{"user":{"id":"me","todos":{"edges":[\#(edges.joined(separator: ","))]}}}}"#.utf8)
        }
        let store = RecordStore()
        try store.commit(response: todos(100), plan: plan)
        let before = store.relayJSON()
        XCTAssertThrowsError(try store.commit(response: todos(66_000), plan: plan)) { error in
            XCTAssertEqual((error as? RelayArenaError)?.code, .limit, "\(error)")
            XCTAssertTrue("\(error)".contains("65535 record shapes"), "\(error)")
        }
        XCTAssertEqual(store.relayJSON(), before)
    }

    /// The same, when the repeated record has a record of its own inside (a new ID, interned
    /// before the repeated one's record closes): the copy must not be left behind it.
    func testARepeatedDataIDWithANewChildKeepsItsTextOnce() throws {
        let id = String(repeating: "T", count: 2_000)
        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql")))
        let docs = try compiler.compile([
            GraphQLSourceFile(
                name: "q.graphql",
                text: """
                    query Q { user(id: "me") { id todos(first: 100) { edges { node { id text owner { id } } } } } }
                    """)
        ])
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
        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql")))
        let docs = try compiler.compile([
            GraphQLSourceFile(
                name: "q.graphql", text: #"query Q { user(id: "me") { id name nicknames friends(first: 300) { id } } }"#
            )
        ])
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

    /// A refetch writes exactly the fields whose values differ, on records of more than 64 fields
    /// too (publish remembers which of a record's first 64 differ and compares the rest again), and
    /// whether the payload lists the fields in the store's order or another: values read back as
    /// merged, the store grows by the changed values alone, and the same payload again changes
    /// nothing.
    func testARefetchWritesTheFieldsThatDifferAndNoOthers() throws {
        let compiler = try Compiler(
            schema: GraphQLSourceFile(
                name: "s.graphql",
                text: """
                    interface Node { id: ID! }
                    type Query { thing(id: ID!): Thing }
                    type Thing implements Node { id: ID! f(i: Int): String }
                    """))
        func plan(fields: Int) throws -> NormalizationPlan {
            let selections = (0..<fields).map { "f\($0): f(i: \($0))" }.joined(separator: " ")
            let docs = try compiler.compile([
                GraphQLSourceFile(name: "q.graphql", text: #"query Q { thing(id: "T") { id \#(selections) } }"#)
            ])
            return try NormalizationPlan(operation: docs.operations["Q"]!)
        }
        func payload(_ values: [String], reversed: Bool = false) -> [UInt8] {
            var fields = values.enumerated().map { #""f\#($0.offset)":"\#($0.element)""# }
            if reversed { fields.reverse() }
            return Array(#"{"data":{"thing":{"id":"T",\#(fields.joined(separator: ","))}}}"#.utf8)
        }
        func read(_ store: RecordStore, _ count: Int) -> [String?] {
            store.withSnapshot { s in
                guard case .record(let t) = s.record("T") else { return [] }
                return (0..<count).map { k in
                    if case .string(let v)? = s.field(t, "f(i:\(k))") { return v.string }
                    return nil
                }
            }
        }
        let seventy = try plan(fields: 70)
        var values = (0..<70).map { "value \($0)" }
        for reversed in [false, true] {
            let store = RecordStore()
            try store.commit(response: payload(values), plan: seventy)
            var changed = values
            changed[3] = "three"  // among the first 64
            changed[67] = "sixty-seven"  // past them
            let before = store.arenaBytes
            XCTAssertEqual(
                Array(try store.commit(response: payload(changed, reversed: reversed), plan: seventy)), ["T"])
            XCTAssertEqual(read(store, 70), changed, "reversed: \(reversed)")
            // A string under 255 bytes takes its length byte and its bytes on the heap.
            XCTAssertEqual(
                store.arenaBytes - before, 1 + "three".utf8.count + 1 + "sixty-seven".utf8.count,
                "only the two changed values were written (reversed: \(reversed))")
            XCTAssertEqual(Array(try store.commit(response: payload(changed, reversed: !reversed), plan: seventy)), [])
            XCTAssertEqual(read(store, 70), changed)
        }
        // New keys past the first 64 and a changed one before them: the record moves once, with
        // the new fields after the old.
        let store = RecordStore()
        try store.commit(response: payload(Array(values.prefix(60))), plan: try plan(fields: 60))
        values[5] = "five"
        XCTAssertEqual(Array(try store.commit(response: payload(values, reversed: true), plan: seventy)), ["T"])
        XCTAssertEqual(read(store, 70), values)
        XCTAssertEqual(Array(try store.commit(response: payload(values), plan: seventy)), [])
    }

    /// Symbol texts keep a length under 255 in one byte and a longer one in five. Data IDs, client
    /// IDs written in place (`client:<id>:settings`: 254, 255 and 256 bytes here) and list items'
    /// derived IDs over prefixes of either form are found by their text, survive a store file,
    /// and are the same symbols when the payload comes again, into the store or into its copy.
    func testSymbolsOnBothSidesOfTheShortLengthBoundary() throws {
        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql")))
        let docs = try compiler.compile([
            GraphQLSourceFile(
                name: "q.graphql",
                text: #"query Q { user(id: "me") { id settings { theme } friends(first: 2) { name } } }"#)
        ])
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
        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql")))
        let docs = try compiler.compile([
            GraphQLSourceFile(name: "q.graphql", text: #"query Q { user(id: "me") { id totalCount } }"#)
        ])
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
    /// differ (that would be half a payload).
    func testReadersNeverSeeHalfAPayload() throws {
        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql")))
        let docs = try compiler.compile([
            GraphQLSourceFile(
                name: "q.graphql",
                text:
                    #"query Q { a: node(id: "A") { id ... on Todo { text } } b: node(id: "B") { id ... on Todo { text } } }"#
            )
        ])
        let plan = try NormalizationPlan(operation: docs.operations["Q"]!)
        let store = RecordStore()
        @Sendable func payload(_ i: Int) -> [UInt8] {
            Array(
                #"{"data":{"a":{"__typename":"Todo","id":"A","text":"v\#(i)"},"b":{"__typename":"Todo","id":"B","text":"v\#(i)"}}}"#
                    .utf8)
        }
        try store.commit(response: payload(0), plan: plan)
        let writes = 300
        let torn = Counter()
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            if worker == 0 {
                for i in 1...writes { try! store.commit(response: payload(i), plan: plan) }
                return
            }
            for _ in 0..<2000 {
                store.withSnapshot { s in
                    guard case .record(let a) = s.record("A"), case .record(let b) = s.record("B"),
                        case .string(let ta)? = s.field(a, "text"), case .string(let tb)? = s.field(b, "text")
                    else {
                        torn.add()
                        return
                    }
                    if ta != tb { torn.add() }
                }
            }
        }
        XCTAssertEqual(torn.value, 0)
        store.withSnapshot { s in
            guard case .record(let a) = s.record("A"), case .string(let t)? = s.field(a, "text") else {
                return XCTFail()
            }
            XCTAssertEqual(t.string, "v\(writes)")
        }
    }
}
