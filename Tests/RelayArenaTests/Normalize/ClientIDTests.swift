// Data IDs kept once: list items' client IDs ("client:<parent>:<storage key>:<index>") are kept
// as their prefix and index, not as text, and a record's `id` field as its data ID's symbol, not
// a second copy of the text (ARENA.md). Everything that speaks text must not notice: lookup by
// text, the text of a record's ID, field reads, updated IDs, export, and merging into a store that
// holds the same IDs and `id` fields as text (loaded from a store file).
import Foundation
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import RelayArenaWorkloads
import XCTest

final class ClientIDTests: XCTestCase {
    let todos = 120
    var edgePrefix: String { "client:\(TodoListWorkload.userID):todos(first:\(todos)):edges" }

    func testListItemClientIDsBehaveAsText() throws {
        let plan = try TodoListSetup.plan(todos: todos)
        let store = RecordStore()
        let updated = Array(try store.commit(response: TodoListWorkload(todos: todos).response(), plan: plan))
        for i in [0, 7, 10, 99, 100, 119] {
            XCTAssertTrue(updated.contains("\(edgePrefix):\(i)"), "edge \(i) reported as updated")
        }
        store.withSnapshot { s in
            for i in [0, 9, 10, 99, 100, 119] {
                let id = "\(edgePrefix):\(i)"
                guard case .record(let edge) = s.record(id) else { return XCTFail("\(id) not found by its text") }
                XCTAssertEqual(s.text(s.id(of: edge)).string, id)
                XCTAssertTrue(s.text(s.symbol(id)!) == id)
                guard case .string(let cursor)? = s.field(edge, "cursor") else { return XCTFail("\(id) has no cursor") }
                XCTAssertFalse(cursor.string.isEmpty)
            }
            // Texts that are not the IDs: no leading zeros, no index past the list, no prefix alone
            // as an edge, no other key.
            for miss in [
                "\(edgePrefix):007", "\(edgePrefix):120", "\(edgePrefix):-1", "\(edgePrefix):1x",
                "\(edgePrefix):", "client:\(TodoListWorkload.userID):todos(first:\(todos)):nodes:1",
            ] {
                XCTAssertNil(s.symbol(miss), miss)
                if case .record = s.record(miss) { XCTFail("\(miss) found") }
            }
            // The prefix is interned (the items refer to it) but is no record.
            if case .record = s.record(edgePrefix) { XCTFail("the prefix is a record") }
        }
        let json = try JSONCompare.parse(store.relayJSON())
        guard case .object(let records) = json else { return XCTFail("export is not an object") }
        XCTAssertEqual(
            records.first { $0.key == "\(edgePrefix):42" }?.value.stableJSON,
            #"{"__id":"\#(edgePrefix):42","__typename":"TodoEdge","cursor":"YXJyYXljb25uZWN0aW9uOjQy","node":{"__ref":"VG9kbzo0Mg=="}}"#
        )
    }

    func testAnIDFieldReadsAsItsText() throws {
        let store = RecordStore()
        try store.commit(
            response: TodoListWorkload(todos: todos).response(), plan: try TodoListSetup.plan(todos: todos))
        store.withSnapshot { s in
            for id in [TodoListWorkload.userID, "VG9kbzow", "VG9kbzoxMTk="] {
                guard case .record(let r) = s.record(id) else { return XCTFail("\(id) not found") }
                guard case .string(let text)? = s.field(r, "id") else { return XCTFail("\(id) has no id string") }
                XCTAssertTrue(text == id, "\(text) != \(id)")
            }
        }
    }

    /// Readers share the read lock; a derived ID's text is written out once, under the cache's
    /// own lock, and stays where it is.
    func testConcurrentReadersGetTheSameTexts() throws {
        let store = RecordStore()
        try store.commit(
            response: TodoListWorkload(todos: todos).response(), plan: try TodoListSetup.plan(todos: todos))
        let wrong = Counter()
        let ids = (0..<todos).map { "\(edgePrefix):\($0)" }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            store.withSnapshot { s in
                for id in ids {
                    guard case .record(let edge) = s.record(id), s.text(s.id(of: edge)) == id else {
                        return wrong.add()
                    }
                }
            }
        }
        XCTAssertEqual(wrong.value, 0)
    }

    func testAStoreLoadedFromAFileMergesTheSameListItems() throws {
        let plan = try TodoListSetup.plan(todos: todos)
        let workload = TodoListWorkload(todos: todos)
        let normalized = RecordStore()
        try normalized.commit(response: workload.response(), plan: plan)
        // The file's IDs arrive as text, a payload's as prefix and index: the same records either way.
        let file = normalized.relayJSON()
        let loaded = try RecordStore(relayJSON: file)
        let again = Array(try loaded.commit(response: workload.response(), plan: plan))
        XCTAssertTrue(again.isEmpty, "\(again.count) records updated by an identical payload, e.g. \(again.prefix(3))")
        XCTAssertTrue(loaded.relayJSON() == file, "the loaded store changed")

        let changed = workload.response(changedPercent: 100)
        let a = Array(try normalized.commit(response: changed, plan: plan))
        let b = Array(try loaded.commit(response: changed, plan: plan))
        XCTAssertFalse(a.isEmpty)
        XCTAssertEqual(a.count, b.count)
        XCTAssertTrue(a.sorted() == b.sorted(), "different records updated")
        XCTAssertTrue(loaded.relayJSON() == normalized.relayJSON(), "the stores differ after the same merge")
    }

    /// "client:U2903594:friends(first:100):76" and "…:93" have the same length and the same 32-bit
    /// hash (found by search). As derived symbols they are told apart by their index: when the
    /// second is interned and its probe meets the first, and when a refetch guesses a store symbol
    /// by position (ra_publish.c) and the guess lands on the other one.
    func testListItemsWhoseClientIDsShareAHashStayDistinct() throws {
        let plan = try friendsPlan(first: 100, extra: "")
        let prefix = "client:U2903594:friends(first:100)"
        func response(_ friends: [String?]) -> [UInt8] {
            let items = friends.map { $0.map { #"{"name":"\#($0)"}"# } ?? "null" }.joined(separator: ",")
            return Array(#"{"data":{"user":{"id":"U2903594","friends":[\#(items)]}}}"#.utf8)
        }
        let store = RecordStore()
        try store.commit(response: response((0..<100).map { "f\($0)" }), plan: plan)
        func name(_ index: Int) -> String? {
            store.withSnapshot { s in
                guard case .record(let r) = s.record("\(prefix):\(index)"), case .string(let n)? = s.field(r, "name")
                else {
                    return nil
                }
                return n.string
            }
        }
        XCTAssertEqual(store.recordCount, 102, "the root, the user and 100 friends")
        XCTAssertEqual(name(76), "f76")
        XCTAssertEqual(name(93), "f93")
        // Items 0…75 and 93, nulls between: in the refetch's delta, item 93's ID comes right after
        // item 75's, so publish's first guess for it is the store's symbol after 75's: item 76's.
        var refetch: [String?] = (0..<100).map { "f\($0)" }
        for i in 76..<93 { refetch[i] = nil }
        refetch[93] = "changed"
        let updated = Array(try store.commit(response: response(refetch), plan: plan))
        XCTAssertEqual(name(76), "f76")
        XCTAssertEqual(name(93), "changed")
        XCTAssertTrue(updated.contains("\(prefix):93"))
        XCTAssertFalse(updated.contains("\(prefix):76"))
    }

    /// A list's items are interned through a remembered position of their prefix's table
    /// (ra_intern_derived_hinted). Here every item of the outer list holds three records whose
    /// data IDs are spelled like list items' client IDs, each of a prefix of its own
    /// ("client:p7_2:q:63"), so new prefix tables (of 64 slots) are made between two of the outer
    /// list's items: the map of tables grows (8 … 128 places) and moves the outer list's table;
    /// with these counts, another table then sits where the outer one was (at its 11th item). Every
    /// item must still get its own ID, in one payload and when the same payload comes again.
    func testListItemsKeepTheirIDsWhileTheTableMapGrowsUnderThem() throws {
        let plan = try self.plan(
            #"query Q { user(id: "me") { id friends(first: 40) { name friends(first: 3) { id name } } } }"#)
        let outer = "client:U1:friends(first:40)"
        let friends = (0..<40).map { i in
            let inner = (0..<3).map { k in #"{"id":"client:p\#(i)_\#(k):q:63","name":"g\#(i).\#(k)"}"# }
            return #"{"name":"f\#(i)","friends":[\#(inner.joined(separator: ","))]}"#
        }.joined(separator: ",")
        let response = Array(#"{"data":{"user":{"id":"U1","friends":[\#(friends)]}}}"#.utf8)
        let store = RecordStore()
        try store.commit(response: response, plan: plan)
        XCTAssertEqual(store.recordCount, 2 + 40 + 40 * 3, "the root, the user, 40 friends and 3 each of theirs")
        func check() {
            for i in 0..<40 {
                XCTAssertEqual(name(in: store, "\(outer):\(i)"), "f\(i)")
                for k in 0..<3 { XCTAssertEqual(name(in: store, "client:p\(i)_\(k):q:63"), "g\(i).\(k)") }
            }
        }
        check()
        XCTAssertEqual(
            try store.commit(response: response, plan: plan).count, 0, "the same payload again changes nothing")
        XCTAssertEqual(store.recordCount, 2 + 40 + 40 * 3)
        check()
    }

    /// Which texts are derived symbols is decided by the text alone, so a data ID spelled like a
    /// list item's client ID is that item, whichever arrives first, in one payload or across two.
    func testADataIDSpelledLikeAListItemIsThatItem() throws {
        let plan = try friendsPlan(first: 3, extra: "bestFriend { id name }")
        let item1 = "client:U1:friends(first:3):1"
        let friends = #""friends":[{"name":"a"},{"name":"b"},{"name":"c"}]"#
        let best = #""bestFriend":{"id":"\#(item1)","name":"B"}"#
        for (order, response, expected) in [
            ("list first", "\(friends),\(best)", "B"), ("ID first", "\(best),\(friends)", "b"),
        ] {
            let store = RecordStore()
            try store.commit(response: Array(#"{"data":{"user":{"id":"U1",\#(response)}}}"#.utf8), plan: plan)
            XCTAssertEqual(store.recordCount, 5, "\(order): the root, the user and 3 friends, one of them the best")
            XCTAssertEqual(name(in: store, item1), expected, order)
            store.withSnapshot { s in
                guard case .record(let user) = s.record("U1"), case .link(let link)? = s.field(user, "bestFriend")
                else {
                    return XCTFail("\(order): no best friend")
                }
                XCTAssertTrue(s.text(link) == item1, order)
            }
            let exported = try JSONCompare.parse(store.relayJSON())
            guard case .object(let records) = exported else { return XCTFail("export is not an object") }
            XCTAssertEqual(records.filter { $0.key == item1 }.count, 1, order)
            // Next payload: the best friend is item 2; its record is updated under the list's ID.
            let next = #"{"data":{"user":{"id":"U1","bestFriend":{"id":"client:U1:friends(first:3):2","name":"C2"}}}}"#
            let updated = Array(try store.commit(response: Array(next.utf8), plan: plan))
            XCTAssertTrue(updated.contains("client:U1:friends(first:3):2"), "\(order): \(updated)")
            XCTAssertEqual(store.recordCount, 5, order)
            XCTAssertEqual(name(in: store, "client:U1:friends(first:3):2"), "C2", order)
        }
    }

    /// A store file may hold list items no list put there: indices far apart, and texts that look
    /// like list items but are not (a leading zero, a prefix that itself ends in an index). Each is
    /// found by its text, exported as it came, and merged with a payload's items of the same text.
    func testListItemsFromAFileWithSparseIndices() throws {
        let prefix = "client:U1:friends(first:100)"
        let odd = [
            "\(prefix):0": "file0", "\(prefix):90": "file90", "\(prefix):4000000000": "far",
            "\(prefix):4294967296": "past32bits", "\(prefix):007": "zeros", "client:a:1:2": "nested",
        ]
        let ordered = [
            "\(prefix):0", "\(prefix):90", "\(prefix):4000000000", "\(prefix):4294967296", "\(prefix):007",
            "client:a:1:2",
        ]
        var file = #"{"client:root":{"__id":"client:root","__typename":"__Root","user(id:\"me\")":{"__ref":"U1"}},"#
        file +=
            #""U1":{"__id":"U1","__typename":"User","id":"U1","friends(first:100)":{"__refs":["\#(prefix):0","\#(prefix):90"]}}"#
        for id in ordered { file += #","\#(id)":{"__id":"\#(id)","__typename":"User","name":"\#(odd[id]!)"}"# }
        file += "}"
        let store = try RecordStore(relayJSON: Array(file.utf8))
        XCTAssertEqual(store.recordCount, 8)
        for (id, expected) in odd { XCTAssertEqual(name(in: store, id), expected, id) }
        XCTAssertNil(name(in: store, "\(prefix):7"), "…:007 is not …:7")
        XCTAssertNil(name(in: store, "\(prefix):4000000001"))
        XCTAssertNil(
            JSONCompare.difference(try JSONCompare.parse(store.relayJSON()), try JSONCompare.parse(Array(file.utf8))))

        let plan = try friendsPlan(first: 100, extra: "")
        let items = (0..<100).map { #"{"name":"p\#($0)"}"# }.joined(separator: ",")
        let updated = Array(
            try store.commit(response: Array(#"{"data":{"user":{"id":"U1","friends":[\#(items)]}}}"#.utf8), plan: plan))
        XCTAssertEqual(store.recordCount, 6 + 100, "the root, the user, 100 friends and the four that are no item")
        for i in [0, 1, 89, 90, 91, 99] { XCTAssertEqual(name(in: store, "\(prefix):\(i)"), "p\(i)") }
        XCTAssertTrue(updated.contains("\(prefix):90"))
        for id in ["\(prefix):4000000000", "\(prefix):4294967296", "\(prefix):007", "client:a:1:2"] {
            XCTAssertEqual(name(in: store, id), odd[id], id)
        }
        guard case .object(let records) = try JSONCompare.parse(store.relayJSON()) else { return XCTFail("export") }
        XCTAssertEqual(records.count, 106, "one record per ID")
    }

    /// A list's items interned front to back with nothing in between are one run of symbols, kept
    /// as the run's first (no slot per item); an item out of order, or another symbol made in
    /// between, gives the table its slots, the run written into them; an item far past the others
    /// goes into the index, and the run grows up to it and past it. Every ID stays its record.
    func testListItemsInRunsOutOfOrderAndFarAhead() throws {
        let p = "client:U1:friends(first:100)"
        let q = "client:U1:best"
        let r = "client:U1:friends(first:300)"
        var ids = (0..<3).map { "\(p):\($0)" } + ["other", "\(p):3", "\(p):5", "\(p):4"]  // a run, broken, out of order
        ids += ["\(q):2", "\(q):0", "\(q):1", "\(q):500"]  // out of order from the start
        ids += (0..<5).map { "\(r):\($0)" } + ["\(r):250"] + (5..<252).filter { $0 != 250 }.map { "\(r):\($0)" }
        var file = #"{"client:root":{"__id":"client:root","__typename":"__Root","user(id:\"me\")":{"__ref":"U1"}},"#
        file +=
            #""U1":{"__id":"U1","__typename":"User","id":"U1","friends(first:100)":{"__refs":["\#(p):5","\#(p):0"]}}"#
        for id in ids { file += #","\#(id)":{"__id":"\#(id)","__typename":"User","name":"n \#(id)"}"# }
        file += "}"
        let store = try RecordStore(relayJSON: Array(file.utf8))
        XCTAssertEqual(store.recordCount, 2 + ids.count)
        for id in ids { XCTAssertEqual(name(in: store, id), "n \(id)", id) }
        for id in ["\(p):6", "\(q):3", "\(q):499", "\(r):252", "\(r):249x"] { XCTAssertNil(name(in: store, id), id) }
        XCTAssertEqual(String(decoding: store.relayJSON(), as: UTF8.self), file, "loaded and written out in its order")

        // A payload finds the items where they are, and adds the rest after them.
        let plan = try friendsPlan(first: 100, extra: "")
        let items = (0..<100).map { #"{"name":"p\#($0)"}"# }.joined(separator: ",")
        _ = try store.commit(response: Array(#"{"data":{"user":{"id":"U1","friends":[\#(items)]}}}"#.utf8), plan: plan)
        XCTAssertEqual(store.recordCount, 2 + ids.count + 100 - 6, "it had items 0 to 5")
        for i in [0, 3, 4, 5, 6, 99] { XCTAssertEqual(name(in: store, "\(p):\(i)"), "p\(i)") }
        for id in ids where !id.hasPrefix("\(p):") { XCTAssertEqual(name(in: store, id), "n \(id)", id) }
    }

    /// A list of consecutive data IDs (a connection's edges, whose client IDs are made one after
    /// another) is kept as its first ID and count. Each list below must read back item by item,
    /// write out and load back byte for byte, and merge, whichever form it takes in the payload's
    /// delta, in the store and in a store file.
    func testLinkListsReadTheSameAsRunsAndAsItems() throws {
        let p = "client:U1:friends(first:100)"
        let plan = try plan(#"query Q { user(id: "me") { id friends(first: 100) { id name } } }"#)
        func payload(_ items: [String?]) -> [UInt8] {
            let json = items.map { $0.map { #"{"id":"\#($0)","name":"n"}"# } ?? "null" }.joined(separator: ",")
            return Array(#"{"data":{"user":{"id":"U1","friends":[\#(json)]}}}"#.utf8)
        }
        func friends(_ store: RecordStore) -> [String?]? {
            store.withSnapshot { s in
                guard case .record(let u) = s.record("U1"), case .links(let l)? = s.field(u, "friends(first:100)")
                else { return nil }
                return l.map { $0.map { s.text($0).string } }
            }
        }
        let fresh = (0..<40).map { "F\($0)" }
        let lists: [[String?]] = [
            fresh,  // new IDs, one after another: a run in the delta and the store
            [], ["F0"], ["F0", "F1"],  // too short for a run
            ["F0", "F1", "F2"],  // the shortest run
            ["F1", "F0", "F2", "F3"],  // known IDs out of order
            ["F0", "F1", nil, "F2", "F3"],  // a null breaks the run
            Array(fresh[5..<30]),  // a run from the middle of the store's IDs
            ["F0", "F1", "F2", "G0", "G1", "G2"],  // known IDs, then new ones: consecutive in the delta only
            ["G5", "G6", "G7", "F9"],
        ]
        let store = RecordStore()
        for (i, list) in lists.enumerated() {
            let updated = Array(try store.commit(response: payload(list), plan: plan))
            XCTAssertEqual(friends(store), list, "list \(i)")
            XCTAssertTrue(updated.contains("U1"), "list \(i) updates its owner")
            XCTAssertTrue(
                Array(try store.commit(response: payload(list), plan: plan)).isEmpty, "list \(i) again changes nothing")
            let file = store.relayJSON()
            let loaded = try RecordStore(relayJSON: file)
            XCTAssertEqual(friends(loaded), list, "list \(i) from a store file")
            XCTAssertTrue(loaded.relayJSON() == file, "list \(i) written out again")
            XCTAssertTrue(
                Array(try loaded.commit(response: payload(list), plan: plan)).isEmpty, "list \(i) into the loaded store"
            )
        }

        // Edges without IDs: client IDs made one after another, refound by a refetch that grows
        // the list (the new ones are consecutive, the whole list is not).
        let edges = try self.plan(#"query Q { user(id: "me") { id friends(first: 100) { name } } }"#)
        func names(_ n: Int) -> [UInt8] {
            let json = (0..<n).map { #"{"name":"e\#($0)"}"# }.joined(separator: ",")
            return Array(#"{"data":{"user":{"id":"U1","friends":[\#(json)]}}}"#.utf8)
        }
        let other = RecordStore()
        for n in [10, 10, 4, 12, 12] {
            _ = try other.commit(response: names(n), plan: edges)
            XCTAssertEqual(friends(other), (0..<n).map { "\(p):\($0)" }, "\(n) edges")
            XCTAssertEqual(name(in: other, "\(p):\(n - 1)"), "e\(n - 1)")
            XCTAssertTrue(
                try RecordStore(relayJSON: other.relayJSON()).relayJSON() == other.relayJSON(), "\(n) edges, round trip"
            )
        }
    }

    /// A list's items that wait for their owner's ID (it comes last) are kept in runs: alike
    /// items, one pending entry. Whatever breaks a run (another shape, a null, an item with a
    /// record waiting inside it) and however the items' IDs come (new client IDs, one after
    /// another, or the IDs an earlier list of the same owner links at those positions, which relay
    /// reuses), the store must be the one the same response makes with the owner's `id` first,
    /// where nothing waits.
    func testItemsWaitingForTheirOwnerMakeTheSameStoreAsWithItsIDFirst() throws {
        let plan = try plan(
            """
            query Q {
              a: user(id: "me") { id friends(first: 100) { id name } }
              b: user(id: "me") { friends(first: 100) { name email bestFriend { id name } friends(first: 100) { name } } id }
            }
            """)
        var seed: UInt64 = 0x5EED
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        func item(_ i: Int, depth: Int) -> String {
            switch next(10) {
            case 0: return "null"
            case 1: return #"{"name":"n\#(i)","email":"e\#(i)"}"#  // another shape
            case 2: return #"{"name":"n\#(i)","bestFriend":{"name":"bf\#(i)"}}"#  // a record waiting inside it
            // its values apart
            case 4, 5: return #"{"name":"n\#(i)","bestFriend":{"id":"B\#(i % 7)","name":"bf\#(i)"}}"#
            case 3 where depth == 0:  // a list of waiting items inside it
                return
                    #"{"name":"n\#(i)","friends":[\#((0..<next(6)).map { item($0, depth: 1) }.joined(separator: ","))]}"#
            default: return #"{"name":"n\#(i)"}"#
            }
        }
        for round in 0..<40 {
            let earlier = (0..<[0, 2, 5, 30][round % 4]).map { #"{"id":"F\#($0)","name":"f\#($0)"}"# }
            // (Every fifth round: alike items only, one run for the whole list, its IDs partly the
            // earlier list's and partly new: a run whose IDs are apart.)
            let items =
                round % 5 == 4
                ? (0..<(3 + next(20))).map { #"{"name":"n\#($0)"}"# }.joined(separator: ",")
                : (0..<next(60)).map { item($0, depth: 0) }.joined(separator: ",")
            let a = #""a":{"id":"U1","friends":[\#(earlier.joined(separator: ","))]}"#
            let members = #""friends":[\#(items)]"#
            var stores: [Any] = []
            for b in [#"{"id":"U1",\#(members)}"#, #"{\#(members),"id":"U1"}"#] {
                let store = RecordStore()
                try store.commit(response: Array(#"{"data":{\#(a),"b":\#(b)}}"#.utf8), plan: plan)
                stores.append(try JSONSerialization.jsonObject(with: Data(store.relayJSON())))
            }
            XCTAssertEqual(stores[0] as? NSDictionary, stores[1] as? NSDictionary, "round \(round): \(items)")
        }
    }

    private func friendsPlan(first: Int, extra: String) throws -> NormalizationPlan {
        try plan(#"query Q { user(id: "me") { id friends(first: \#(first)) { name } \#(extra) } }"#)
    }

    /// The plan of query `Q` in `text`, against the to-do schema.
    private func plan(_ text: String) throws -> NormalizationPlan {
        let compiler = try Compiler(
            schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql")))
        let docs = try compiler.compile([GraphQLSourceFile(name: "q.graphql", text: text)])
        return try NormalizationPlan(operation: docs.operations["Q"]!)
    }

    private func name(in store: RecordStore, _ id: String) -> String? {
        store.withSnapshot { s in
            guard case .record(let r) = s.record(id), case .string(let n)? = s.field(r, "name") else { return nil }
            return n.string
        }
    }
}
