// Normalizer behaviour beyond the golden cases: data IDs that arrive after the children that
// need them, buffered type-dependent values, nested response errors, limits, error positions,
// and the same store from every chunking of a real workload.
import Foundation
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import RelayArenaWorkloads
import XCTest

final class NormalizerTests: XCTestCase {
    static let todo = try! Compiler(
        schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql")))
    static let starwars = try! Compiler(
        schema: GraphQLSourceFile(name: "starwars.graphql", text: Fixtures.text("starwars.graphql")))

    func plan(_ compiler: Compiler, _ doc: String, _ variables: Variables = [:]) throws -> NormalizationPlan {
        let docs = try compiler.compile([GraphQLSourceFile(name: "test.graphql", text: doc)])
        return try NormalizationPlan(operation: docs.operations.values.first!, variables: variables)
    }

    func store(
        _ plan: NormalizationPlan, _ response: String, chunk: Int = .max, into store: RecordStore = RecordStore()
    ) throws -> JSONValue {
        let n = try ResponseNormalizer(plan: plan)
        try Chunking.split(Array(response.utf8), size: chunk) { try n.feed($0) }
        try store.publish(try n.finish())
        return try JSONCompare.parse(store.relayJSON())
    }

    func record(_ s: JSONValue, _ id: String) -> String? {
        guard case .object(let m) = s else { return nil }
        return m.first { $0.key == id }?.value.stableJSON
    }

    /// A payload's new data IDs skip the index lookup (its delta's filter says they are new) and
    /// get their index slots in batches. IDs far denser than the size hint guesses (the index
    /// grows between batches), repeats inside a batch and across batches: one record per ID, the
    /// later values winning, every ID found by its text.
    func testDenseIDsAndRepeatsAroundTheIndexBatches() throws {
        let p = try plan(Self.todo, #"query Q { nodes(ids: ["x"]) { __typename id ... on Todo { text } } }"#)
        var ids: [String] = []
        var texts: [String: String] = [:]
        var items: [String] = []
        for i in 0..<5000 {
            // Every 5th item repeats the ID 3 before it (the same batch of 64), every 7th the one
            // 300 before (an earlier batch).
            let id = i % 5 == 4 ? ids[i - 3] : i % 7 == 6 && i > 300 ? ids[i - 300] : "n\(i)"
            ids.append(id)
            texts[id] = "t\(i)"
            items.append(#"{"__typename":"Todo","id":"\#(id)","text":"t\#(i)"}"#)
        }
        let response = Array(#"{"data":{"nodes":[\#(items.joined(separator: ","))]}}"#.utf8)
        let store = RecordStore()
        let updated = try store.commit(response: response, plan: p)
        XCTAssertEqual(store.recordCount, texts.count + 1, "one record per ID and the root")
        XCTAssertEqual(Array(updated).count, texts.count + 1)
        store.withSnapshot { s in
            for (id, text) in texts {
                guard case .record(let r) = s.record(id), case .string(let t)? = s.field(r, "text") else {
                    return XCTFail("\(id) not found")
                }
                XCTAssertTrue(t == text, "\(id): \(t) != \(text)")
            }
            guard case .record(let root) = s.record(RecordStore.rootID),
                case .links(let list)? = s.field(root, #"nodes(ids:["x"])"#)
            else { return XCTFail("no list") }
            XCTAssertEqual(list.count, ids.count)
            for i in [0, 4, 63, 64, 65, 306, 2999, 4999] {
                XCTAssertTrue(list[i].map { s.text($0) == ids[i] } ?? false, "item \(i)")
            }
        }
        XCTAssertTrue(
            Array(try store.commit(response: response, plan: p)).isEmpty, "the same payload again changes nothing")
    }

    /// The user's id comes last: its connection, edges and their id-less children can only get
    /// their client IDs when the user closes (pending records, resolved in a cascade).
    func testIDAfterNestedIdlessChildren() throws {
        let p = try plan(
            Self.todo,
            """
            query Q { user(id: "me") { settings { theme notifications { push } } todos(first: 2) { edges { cursor node { id text } } pageInfo { hasNextPage } } } }
            """)
        let response =
            #"{"data":{"user":{"settings":{"theme":"dark","notifications":{"push":true}},"todos":{"edges":[{"cursor":"a","node":{"text":"t0","id":"T0"}},null,{"cursor":"c","node":{"text":"t2"}}],"pageInfo":{"hasNextPage":false}},"id":"U1"}}}"#
        for chunk in Chunking.sizes {
            let s = try store(p, response, chunk: chunk)
            XCTAssertEqual(
                record(s, "client:U1:settings:notifications"),
                #"{"__id":"client:U1:settings:notifications","__typename":"NotificationSettings","push":true}"#)
            XCTAssertEqual(
                record(s, "client:U1:todos(first:2)"),
                #"{"__id":"client:U1:todos(first:2)","__typename":"TodoConnection","edges":{"__refs":["client:U1:todos(first:2):edges:0",null,"client:U1:todos(first:2):edges:2"]},"pageInfo":{"__ref":"client:U1:todos(first:2):pageInfo"}}"#
            )
            XCTAssertEqual(
                record(s, "client:U1:todos(first:2):edges:2:node"),
                #"{"__id":"client:U1:todos(first:2):edges:2:node","__typename":"Todo","text":"t2"}"#)
            XCTAssertEqual(record(s, "T0"), #"{"__id":"T0","__typename":"Todo","id":"T0","text":"t0"}"#)
            XCTAssertEqual(
                record(s, "U1"),
                #"{"__id":"U1","__typename":"User","id":"U1","settings":{"__ref":"client:U1:settings"},"todos(first:2)":{"__ref":"client:U1:todos(first:2)"}}"#
            )
        }
    }

    /// A record's member is matched first against the entry after the last one matched, in one
    /// compare of the key's first and last bytes. Keys that are not selected but share that
    /// entry's length with its first four bytes (`completX`), its last four (`Xomplete`), or a
    /// short key's first byte (`iX`, `ix`) must be ignored, and the real key still found after them.
    func testKeysThatNearlyMatchTheNextEntryAreIgnored() throws {
        let p = try plan(
            Self.todo, #"query Q { user(id: "me") { id todos(first: 1) { edges { node { id text complete } } } } }"#)
        let node =
            #"{"iX":1,"id":"T1","ix":2,"tezt":"no","text":"yes","completX":false,"Xomplete":false,"complete":true}"#
        let response = #"{"data":{"user":{"id":"U1","todos":{"edges":[{"node":\#(node)}]}}}}"#
        for chunk in Chunking.sizes {
            let s = try store(p, response, chunk: chunk)
            XCTAssertEqual(
                record(s, "T1"), #"{"__id":"T1","__typename":"Todo","complete":true,"id":"T1","text":"yes"}"#,
                "chunk \(chunk)")
        }
    }

    /// A record with a selected string `id`, closing inside another quick record, takes its data
    /// ID a record later (the normalizer interns it when the next symbol is needed, so that the
    /// filter word requested when the `id` arrived has come in). Meanwhile its parent's link to
    /// it and its `id` field wait. Whatever names, merges or reads records must intern it first:
    /// - an id-less record reached twice (two aliases of one storage key), the second merged into
    ///   the first while the record inside it waits: the merged link is the waiting record's;
    /// - a record reached again, as a type with no `id` field (none selected, the response's
    ///   still names it), before the waiting one's ID is interned: the later values win, as in
    ///   the response, and the record keeps its first type, as relay's does;
    /// - a to-do reached twice through a connection's edges, and one at the end of its list.
    func testRecordsNamedARecordLaterLinkAndMergeInResponseOrder() throws {
        let pins = try Compiler(
            schema: GraphQLSourceFile(
                name: "pins.graphql",
                text: """
                    type Query { user(id: ID!): User }
                    type User { id: ID! name: String pin: Pin other: Pin best: User }
                    type Pin { note: String target: User tag: Tag }
                    type Tag { name: String }
                    """))
        let twice = try plan(
            pins, #"query Q { user(id: "me") { id a: pin { note target { id name } } b: pin { target { id name } } } }"#
        )
        let twiceResponse =
            #"{"data":{"user":{"id":"U","a":{"note":"n","target":{"id":"T1","name":"x"}},"b":{"target":{"id":"T2","name":"y"}}}}}"#
        // (`pin` first: the keys and types the rest needs are interned by then, as a first use
        // would intern the waiting ID. `Tag` has no `id` field, so none is selected.)
        let again = try plan(
            pins,
            #"query Q { user(id: "me") { id pin { tag { name } target { name best { id } } } best { id name } other { tag { name } } } }"#
        )
        let againResponse =
            #"{"data":{"user":{"id":"U","pin":{"tag":{"name":"t"},"target":{"id":"A","name":"a","best":{"id":"C"}}},"best":{"id":"B","name":"first"},"other":{"tag":{"id":"B","name":"second"}}}}}"#
        let edges = try plan(
            Self.todo, #"query Q { user(id: "me") { id todos(first: 3) { edges { node { id text } } } } }"#)
        let node = { (id: String, text: String) in #"{"node":{"id":"\#(id)","text":"\#(text)"}}"# }
        let edgesResponse =
            #"{"data":{"user":{"id":"U","todos":{"edges":[\#(node("T1", "a")),\#(node("T2", "b")),\#(node("T1", "c"))]}}}}"#
        for chunk in Chunking.sizes {
            var s = try store(twice, twiceResponse, chunk: chunk)
            XCTAssertEqual(
                record(s, "client:U:pin"),
                #"{"__id":"client:U:pin","__typename":"Pin","note":"n","target":{"__ref":"T2"}}"#, "chunk \(chunk)")
            XCTAssertEqual(
                record(s, "T1"), #"{"__id":"T1","__typename":"User","id":"T1","name":"x"}"#, "chunk \(chunk)")
            XCTAssertEqual(
                record(s, "T2"), #"{"__id":"T2","__typename":"User","id":"T2","name":"y"}"#, "chunk \(chunk)")
            s = try store(again, againResponse, chunk: chunk)
            XCTAssertEqual(
                record(s, "B"), #"{"__id":"B","__typename":"User","id":"B","name":"second"}"#, "chunk \(chunk)")
            XCTAssertEqual(
                record(s, "client:U:other"), #"{"__id":"client:U:other","__typename":"Pin","tag":{"__ref":"B"}}"#,
                "chunk \(chunk)")
            XCTAssertEqual(
                record(s, "U"),
                #"{"__id":"U","__typename":"User","best":{"__ref":"B"},"id":"U","other":{"__ref":"client:U:other"},"pin":{"__ref":"client:U:pin"}}"#,
                "chunk \(chunk)")
            s = try store(edges, edgesResponse, chunk: chunk)
            XCTAssertEqual(
                record(s, "T1"), #"{"__id":"T1","__typename":"Todo","id":"T1","text":"c"}"#, "chunk \(chunk)")
            XCTAssertEqual(
                record(s, "T2"), #"{"__id":"T2","__typename":"Todo","id":"T2","text":"b"}"#, "chunk \(chunk)")
            for (i, id) in ["T1", "T2", "T1"].enumerated() {
                let edge = "client:U:todos(first:3):edges:\(i)"
                XCTAssertEqual(
                    record(s, edge), #"{"__id":"\#(edge)","__typename":"TodoEdge","node":{"__ref":"\#(id)"}}"#,
                    "chunk \(chunk)")
            }
        }
    }

    /// Falsy ids (`""`, `0`, `false`, `null`) mean "no id": relay falls back to the client ID.
    func testFalsyIDsFallBackToClientIDs() throws {
        let p = try plan(Self.todo, #"query Q { user(id: "me") { friends(first: 4) { name } } }"#)
        let s = try store(
            p,
            #"{"data":{"user":{"id":"U","friends":[{"id":"","name":"a"},{"id":0,"name":"b"},{"id":false,"name":"c"},{"id":null,"name":"d"}]}}}"#
        )
        for i in 0..<4 { XCTAssertNotNil(record(s, "client:U:friends(first:4):\(i)"), "friend \(i)") }
        XCTAssertThrowsError(try store(p, #"{"data":{"user":{"id":"U","friends":[{"id":7,"name":"a"}]}}}"#)) { e in
            XCTAssertTrue("\(e)".contains("Expected id on field `friends` to be a string"), "\(e)")
        }
    }

    /// relay's defaultGetDataID: a Viewer without id (or with a null one) is client:root:viewer,
    /// but a falsy id ("") is no id at all and the client ID follows the path.
    func testViewerRuleOnlyForMissingOrNullID() throws {
        let docs = try Self.todo.compile([
            GraphQLSourceFile(
                name: "m.graphql",
                text: #"mutation M { addTodo(input: {text: "x", userId: "me"}) { viewer { locale } } }"#)
        ])
        let p = try NormalizationPlan(operation: docs.operations["M"]!)
        let key = #"client:local:1:addTodo(input:{"text":"x","userId":"me"})"#
        for (id, expected) in [("", key + ":viewer"), ("null", "client:root:viewer")] {
            let store = RecordStore()
            let n = try ResponseNormalizer(plan: p, rootID: "client:local:1")
            let idJSON = id == "null" ? "null" : #""\#(id)""#
            try n.feed(Array(#"{"data":{"addTodo":{"viewer":{"id":\#(idJSON),"locale":"fr"}}}}"#.utf8))
            try store.publish(try n.finish())
            let s = try JSONCompare.parse(store.relayJSON())
            XCTAssertEqual(
                record(s, key),
                #"{"__id":"\#(key.replacingOccurrences(of: "\"", with: "\\\""))","__typename":"AddTodoPayload","viewer":{"__ref":"\#(expected.replacingOccurrences(of: "\"", with: "\\\""))"}}"#,
                "id \(idJSON)")
        }
    }

    /// The Viewer rule looks at the field's concrete type (or the response's own `__typename`),
    /// not at a `__typename` selected under an alias, which only retypes the record afterwards
    /// (relay's setValue of the `__typename` storage key). With and without a literal
    /// `__typename` key in the response (the second takes the normalizer's general path).
    func testViewerRuleIgnoresAnAliasedTypename() throws {
        let p = try plan(Self.todo, #"query Q { user(id: "me") { settings { t: __typename theme } } }"#)
        for settings in [
            #"{"t":"Viewer","theme":"dark"}"#, #"{"t":"Viewer","__typename":"UserSettings","theme":"dark"}"#,
        ] {
            let s = try store(p, #"{"data":{"user":{"id":"U1","settings":\#(settings)}}}"#)
            XCTAssertEqual(
                record(s, "client:U1:settings"), #"{"__id":"client:U1:settings","__typename":"Viewer","theme":"dark"}"#,
                settings)
            XCTAssertNil(record(s, "client:root:viewer"), settings)
        }
    }

    /// An inline fragment whose fields arrive before `__typename`: the values are buffered and
    /// replayed once the type is known; the non-matching branch writes nothing.
    func testTypeConditionDecidedAfterTheFields() throws {
        let p = try plan(
            Self.starwars,
            "query Q { hero { name ... on Droid { primaryFunction friends { name } } ... on Human { homePlanet } } }")
        let s = try store(
            p,
            #"{"data":{"hero":{"primaryFunction":"Astromech","friends":[{"name":"Luke","__typename":"Human","id":"1000"}],"homePlanet":"x","name":"R2","__typename":"Droid","id":"2001"}}}"#,
            chunk: 3)
        XCTAssertEqual(
            record(s, "2001"),
            #"{"__id":"2001","__typename":"Droid","friends":{"__refs":["1000"]},"id":"2001","name":"R2","primaryFunction":"Astromech"}"#
        )
        XCTAssertEqual(record(s, "1000"), #"{"__id":"1000","__typename":"Human","id":"1000","name":"Luke"}"#)
    }

    /// An error below a nulled field is stored on that field with the path relative to it.
    func testNestedErrorAttachesToTheNulledField() throws {
        let p = try plan(Self.todo, #"query Q { user(id: "me") { bestFriend { name email } } }"#)
        let s = try store(
            p,
            #"{"errors":[{"message":"boom","path":["user","bestFriend","email"],"locations":[{"line":1,"column":2}],"extensions":{"code":"X"}}],"data":{"user":{"id":"U","bestFriend":null}}}"#
        )
        XCTAssertEqual(
            record(s, "U"),
            #"{"__errors":{"bestFriend":[{"extensions":{"code":"X"},"message":"boom","path":["email"]}]},"__id":"U","__typename":"User","bestFriend":null,"id":"U"}"#
        )
    }

    func testLimitsAndPositions() throws {
        let p = try plan(Self.todo, #"query Q { user(id: "me") { name } }"#)
        let deep =
            #"{"data":{"user":{"id":"U","x":"# + String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
            + "}}}"
        let tight = try ResponseNormalizer(plan: p, limits: NormalizationLimits(maxDepth: 20))
        XCTAssertThrowsError(try tight.feed(Array(deep.utf8))) { e in
            XCTAssertEqual((e as? RelayArenaError)?.code, .tooDeep)
        }
        let small = try ResponseNormalizer(plan: p, limits: NormalizationLimits(maxBytes: 10))
        XCTAssertThrowsError(try small.feed(Array(#"{"data":{"user":null}}"#.utf8))) { e in
            XCTAssertEqual((e as? RelayArenaError)?.code, .tooLarge)
        }
        let bad = try ResponseNormalizer(plan: p)
        try bad.feed(Array(#"{"data":{"user":{"id":"U","#.utf8))
        XCTAssertThrowsError(try bad.feed(Array(#""name":tru}}}"#.utf8))) { e in
            let error = e as! RelayArenaError
            XCTAssertEqual(error.code, .malformedJSON)
            XCTAssertGreaterThanOrEqual(error.offset ?? 0, 26, "offsets count earlier chunks")
            XCTAssertEqual(error.path, "data.user.name", "\(error)")
        }
        let dup = try ResponseNormalizer(plan: p)
        XCTAssertThrowsError(try dup.feed(Array(#"{"data":{"user":{"id":"U","name":"a","name":"b"}}}"#.utf8))) { e in
            XCTAssertEqual((e as? RelayArenaError)?.code, .duplicateKey)
            XCTAssertTrue("\(e)".contains("duplicate key `name`"), "\(e)")
        }
        // Out of selection order, the repeated key comes back as the "next" member expected.
        let three = try plan(Self.todo, #"query Q { user(id: "me") { id name email } }"#)
        let late = try ResponseNormalizer(plan: three)
        XCTAssertThrowsError(
            try late.feed(Array(#"{"data":{"user":{"email":"e","id":"U","name":"a","email":"f"}}}"#.utf8))
        ) { e in
            XCTAssertEqual((e as? RelayArenaError)?.code, .duplicateKey)
            XCTAssertTrue("\(e)".contains("duplicate key `email`"), "\(e)")
        }
        XCTAssertThrowsError(try ResponseNormalizer(plan: p).finish()) { e in
            XCTAssertEqual((e as? RelayArenaError)?.code, .malformedJSON, "an empty response is not JSON")
        }
        let noData = try ResponseNormalizer(plan: p)
        XCTAssertThrowsError(
            try {
                try noData.feed(Array(#"{"errors":[{"message":"x"}]}"#.utf8))
                _ = try noData.finish()
            }()
        ) { e in
            XCTAssertEqual((e as? RelayArenaError)?.code, .invalidResponse)
        }
    }

    /// The whole generated workload, fed at several chunk sizes, gives byte-identical stores.
    /// A long string, key or number fed in small chunks: yajl would re-lex an unfinished token
    /// from its start at every chunk (L²/2C); gathered, its work stays linear, and the store is the
    /// one the whole response makes. (Each token here is 400 chunks long.)
    func testLongTokensStreamInLinearWorkAtAnyChunking() throws {
        let p = try plan(
            Self.todo,
            #"query Q { user(id: "me") { id name todos(first: 1) { edges { node { id text complete } } } } }"#)
        let long = 400_000
        let text = String(repeating: "ab\\\"c", count: long / 6)  // escapes and escaped quotes all along
        let key = String(repeating: "k", count: long)
        let number = String(repeating: "7", count: long)
        let response =
            #"{"data":{"user":{"id":"u","name":"\#(text)","\#(key)":1,"extra":\#(number),"todos":{"edges":[{"node":{"id":"t","text":"\#(String(repeating: "x", count: long))","complete":false}}]}}}}"#
        let bytes = Array(response.utf8)
        let whole = RecordStore()
        try whole.commit(response: bytes, plan: p)
        for chunk in [1_000, 997, 4_096, 65_536] {
            let n = try ResponseNormalizer(plan: p)
            try Chunking.split(bytes, size: chunk) { try n.feed($0) }
            XCTAssertLessThanOrEqual(n._lexedBytes, 4 * UInt64(bytes.count), "chunks of \(chunk)")
            let s = RecordStore()
            try s.publish(try n.finish())
            XCTAssert(s.relayJSON() == whole.relayJSON(), "chunks of \(chunk): another store than the whole response's")
        }
        // The limit still holds while bytes are gathered, at the byte where it is passed.
        let small = try ResponseNormalizer(plan: p, limits: NormalizationLimits(maxBytes: UInt64(bytes.count - 1)))
        XCTAssertThrowsError(try Chunking.split(bytes, size: 1_000) { try small.feed($0) }) { error in
            XCTAssertTrue("\(error)".contains("larger than the limit"), "\(error)")
        }
    }

    /// Long values (1 MiB and more) copied out of gathered bytes: the spent front of what was
    /// gathered is handed back to the kernel before the copy, and a long value that lies wholly
    /// inside the gathered bytes (not the token yajl held) is copied before its own bytes go.
    func testLongValuesCopiedOutOfGatheredBytesStayIntact() throws {
        let p = try plan(
            Self.todo,
            #"query Q { user(id: "me") { id name todos(first: 1) { edges { node { id text complete } } } } }"#)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        let name = String(decoding: (0..<3_000_000).map { alphabet[$0 * 7 % 36] }, as: UTF8.self)
        let text = String(repeating: "0123456789", count: 260_000)  // 2.6 MB: yajl hands it over in place
        let head = #"{"data":{"user":{"id":"u","name":""#
        let response =
            head + #"\#(name)","todos":{"edges":[{"node":{"id":"t","text":"\#(text)","complete":false}}]}}}}"#
        let bytes = Array(response.utf8)
        let whole = RecordStore()
        try whole.commit(response: bytes, plan: p)
        let nameStart = head.utf8.count
        // 64 KiB chunks (each long string held, then gathered), and: 100 bytes into the name, 1 MB
        // more of it, then the rest in one chunk (the text lies inside the gathered bytes).
        let splits: [[Int]] = [
            Array(stride(from: 65_536, to: bytes.count, by: 65_536)),
            [nameStart + 100, nameStart + 1_000_100],
        ]
        for cuts in splits {
            let n = try ResponseNormalizer(plan: p)
            var at = 0
            for end in cuts + [bytes.count] {
                try n.feed(Array(bytes[at..<end]))
                at = end
            }
            let s = RecordStore()
            try s.publish(try n.finish())
            XCTAssert(
                s.relayJSON() == whole.relayJSON(), "cut at \(cuts.prefix(2)): another store than the whole response's")
        }
        let stored = whole.withSnapshot { s -> (String?, String?) in
            guard case .record(let u) = s.record("u"), case .record(let t) = s.record("t"),
                let nk = s.symbol("name"), let tk = s.symbol("text"),
                case .string(let n)? = s.field(u, nk), case .string(let x)? = s.field(t, tk)
            else { return (nil, nil) }
            return (n.string, x.string)
        }
        XCTAssertEqual(stored.0, name)
        XCTAssertEqual(stored.1, text)
    }

    func testWorkloadIsTheSameAtEveryChunking() throws {
        let docs = try Self.todo.compile([
            GraphQLSourceFile(name: "q.graphql", text: Fixtures.text("todo-list-query.graphql"))
        ])
        let p = try NormalizationPlan(operation: docs.operations["TodoListQuery"]!, variables: ["first": .int(500)])
        let bytes = TodoListWorkload(todos: 500).response()
        let reference = RecordStore()
        try reference.commit(response: bytes, plan: p)
        XCTAssertEqual(reference.recordCount, 1 + 1 + 1 + 500 + 500 + 1)
        for chunk in [1, 2, 7, 64, 4096, 65536] {
            let s = RecordStore()
            let n = try ResponseNormalizer(plan: p)
            try Chunking.split(bytes, size: chunk) { try n.feed($0) }
            try s.publish(try n.finish())
            XCTAssertEqual(s.relayJSON(), reference.relayJSON(), "chunk \(chunk)")
        }
        // A size hint (right, far too small, far too large) changes how the arena grows, not what it holds.
        for hint in [bytes.count, 16, bytes.count * 40] {
            let s = RecordStore()
            let n = try ResponseNormalizer(plan: p, expectedBytes: hint)
            try Chunking.split(bytes, size: 4096) { try n.feed($0) }
            try s.publish(try n.finish())
            XCTAssertEqual(s.relayJSON(), reference.relayJSON(), "expectedBytes \(hint)")
        }
        // Streaming from a file in 64 KiB chunks gives the same too.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("workload-\(UUID()).json")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let fromFile = RecordStore()
        try fromFile.publish(try ResponseNormalizer.normalize(fileAt: url.path, plan: p))
        XCTAssertEqual(fromFile.relayJSON(), reference.relayJSON())
    }

    /// Refetch merge: identical updates nothing; k changed todos update exactly k records.
    func testRefetchUpdatesOnlyChangedRecords() throws {
        let docs = try Self.todo.compile([
            GraphQLSourceFile(name: "q.graphql", text: Fixtures.text("todo-list-query.graphql"))
        ])
        let p = try NormalizationPlan(operation: docs.operations["TodoListQuery"]!, variables: ["first": .int(1000)])
        let w = TodoListWorkload(todos: 1000)
        let s = RecordStore()
        try s.commit(response: w.response(), plan: p)
        XCTAssertEqual(Array(try s.commit(response: w.response(), plan: p)), [])
        let changed = try s.commit(response: w.response(changedPercent: 10), plan: p)
        XCTAssertTrue(changed.allSatisfy { !$0.hasPrefix("client:") }, "only todos change")
        XCTAssertGreaterThan(changed.count, 50)
        XCTAssertLessThan(changed.count, 150)
        // Shrinking the list replaces the edge list (and totalCount) but keeps the dropped records.
        try s.commit(response: w.response(), plan: p)
        let shrunk = try s.commit(response: w.response(count: 500), plan: p)
        XCTAssertEqual(
            Set(shrunk),
            ["VXNlcjptZQ==", "client:VXNlcjptZQ==:todos(first:1000)", "client:VXNlcjptZQ==:todos(first:1000):pageInfo"])
        XCTAssertEqual(s.recordCount, 1 + 1 + 1 + 1000 + 1000 + 1)
    }
}
