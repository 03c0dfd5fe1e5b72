// `relay-arena replay` run as people and scripts run it: the real executable, a script file or
// stdin, NDJSON on stdout, one line on stderr and no output at all for a script that is wrong.
import Foundation
import RelayArena
import RelayArenaTestSupport
import XCTest

final class ReplayTests: XCTestCase {
    var dir: URL!
    var schema: String!

    /// The documents of the contract's example.
    static let todoDocuments = """
        query Q { user(id: "me") { todos(first: 1) { edges { node { id ...Item } } } } }
        fragment Item on Todo { text }
        """

    /// The contract's documents and `R`, a second query of the same user (its ID alone).
    static let todoAndRDocuments = todoDocuments + "\nquery R { user(id: \"me\") { id } }"

    /// Two to-dos, each read by `Item`.
    static let twoTodoDocuments = """
        query Two { user(id: "me") { todos(first: 2) { edges { node { id ...Item } } } } }
        fragment Item on Todo { text }
        """

    /// A `@refetchable` fragment with a local argument (given by the owner's spread), a global
    /// variable (`$format`) and a spread of its own (whose `__fragmentOwner` shows the owner).
    static let avatarDocuments = """
        query UserQ($size: Int, $format: ImageFormat) { user(id: "me") { id ...Avatar @arguments(size: $size) } }
        fragment Avatar on User @refetchable(queryName: "AvatarRefetch")
          @argumentDefinitions(size: {type: "Int", defaultValue: 32}) {
          avatar(size: $size, format: $format) { url }
          ...UserName
        }
        fragment UserName on User { name }
        """

    override func setUpWithError() throws {
        dir = try CLI.tempDir()
        schema = Fixtures.url("todo.graphql").path
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func write(_ name: String, _ text: String) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Runs `replay` on `script` (a file, or stdin with `stdin: true`).
    func replay(
        _ script: String, documents: String = todoDocuments, options: [String] = [], stdin: Bool = false
    ) throws -> CLIResult {
        let doc = try write("documents.graphql", documents)
        let args: [String] = ["replay", "--schema", schema!, "--document", doc] + options
        if stdin { return try CLI.run(args + ["-"], stdin: Array(script.utf8)) }
        return try CLI.run(args + [try write("script.json", script)])
    }

    func lines(_ r: CLIResult) -> [String] { r.stdoutText.split(separator: "\n").map(String.init) }

    /// A `publish` of `Q` (one to-do) with `text` for `t1`.
    func publishQ(_ text: String) -> String {
        #"{"step":"publish","operation":"Q","variables":{},"response":{"data":{"user":{"id":"u","todos":{"edges":[{"node":{"id":"t1","text":"\#(text)"}}]}}}}}"#
    }

    /// A `publish` of `R` (in `todoAndRDocuments`).
    let publishR = #"{"step":"publish","operation":"R","variables":{},"response":{"data":{"user":{"id":"u"}}}}"#

    /// A `publish` of `Two` with the texts of `t1` and `t2`.
    func publishTwo(_ first: String, _ second: String) -> String {
        #"{"step":"publish","operation":"Two","variables":{},"response":{"data":{"user":{"id":"u","todos":{"edges":["#
            + #"{"node":{"id":"t1","text":"\#(first)"}},{"node":{"id":"t2","text":"\#(second)"}}]}}}}}"#
    }

    func subscribeItem(_ name: String, _ id: String, owner: String = "Q") -> String {
        #"{"step":"subscribe","name":"\#(name)","fragment":"Item","operation":"\#(owner)","variables":{},"id":"\#(id)"}"#
    }

    func testContractExamplePrintsExactlyWhatItShows() throws {
        let script = """
            [
              {"step": "publish", "operation": "Q", "variables": {}, "response": {"data": {"user": {"id": "u",
                "todos": {"edges": [{"node": {"id": "t1", "text": "Milk"}}]}}}}},
              {"step": "subscribe", "name": "row", "fragment": "Item", "operation": "Q", "variables": {}, "id": "t1"},
              {"step": "publish", "operation": "Q", "variables": {}, "response": {"data": {"user": {"id": "u",
                "todos": {"edges": [{"node": {"id": "t1", "text": "Milk"}}]}}}}},
              {"step": "publish", "operation": "Q", "variables": {}, "response": {"data": {"user": {"id": "u",
                "todos": {"edges": [{"node": {"id": "t1", "text": "Oat milk"}}]}}}}}
            ]
            """
        let r = try replay(script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(
            r.stdoutText,
            #"""
            {"event":"snapshot","name":"row","data":{"text":"Milk"},"isMissingData":false}
            {"event":"notify","name":"row","data":{"text":"Oat milk"},"isMissingData":false}

            """#)
        // The same script on stdin prints the same.
        let fromStdin = try replay(script, stdin: true)
        XCTAssertEqual(fromStdin.status, 0, fromStdin.stderr)
        XCTAssertEqual(fromStdin.stdout, r.stdout)
    }

    func testASubscriptionToARecordNotYetFetchedIsNotifiedWhenItArrives() throws {
        let r = try replay("[\(subscribeItem("later", "t1")), \(publishQ("Milk"))]")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            lines(r),
            [
                #"{"event":"snapshot","name":"later","data":null,"isMissingData":true,"#
                    + #""fieldErrors":[{"kind":"missing_expected_data.log","fieldPath":"<record>"}]}"#,
                #"{"event":"notify","name":"later","data":{"text":"Milk"},"isMissingData":false}"#,
            ])
    }

    func testOnlyTheSubscriptionsWhoseDataChangedAreNotifiedInTheOrderTheyWereMade() throws {
        let script = [
            publishTwo("Milk", "Eggs"), subscribeItem("second", "t2", owner: "Two"),
            subscribeItem("first", "t1", owner: "Two"), publishTwo("Milk", "Free-range eggs"),
            publishTwo("Oat milk", "Duck eggs"),
        ]
        let r = try replay("[" + script.joined(separator: ",") + "]", documents: Self.twoTodoDocuments)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            lines(r),
            [
                #"{"event":"snapshot","name":"second","data":{"text":"Eggs"},"isMissingData":false}"#,
                #"{"event":"snapshot","name":"first","data":{"text":"Milk"},"isMissingData":false}"#,
                // Only t2 changed: `first` hears nothing.
                #"{"event":"notify","name":"second","data":{"text":"Free-range eggs"},"isMissingData":false}"#,
                // Both changed: in the order the subscriptions were made, not the records'.
                #"{"event":"notify","name":"second","data":{"text":"Duck eggs"},"isMissingData":false}"#,
                #"{"event":"notify","name":"first","data":{"text":"Oat milk"},"isMissingData":false}"#,
            ])
    }

    func testUnsubscribedSubscriptionsHearNothing() throws {
        let script = [
            publishTwo("Milk", "Eggs"), subscribeItem("a", "t1", owner: "Two"), subscribeItem("b", "t1", owner: "Two"),
            #"{"step":"unsubscribe","name":"a"}"#, publishTwo("Oat milk", "Eggs"),
            // Ending it again does nothing (relay's dispose).
            #"{"step":"unsubscribe","name":"a"}"#,
        ]
        let r = try replay("[" + script.joined(separator: ",") + "]", documents: Self.twoTodoDocuments)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            lines(r),
            [
                #"{"event":"snapshot","name":"a","data":{"text":"Milk"},"isMissingData":false}"#,
                #"{"event":"snapshot","name":"b","data":{"text":"Milk"},"isMissingData":false}"#,
                #"{"event":"notify","name":"b","data":{"text":"Oat milk"},"isMissingData":false}"#,
            ])
    }

    /// relay's worked example: `refetch({size: 64})` on a fragment the owner spread with
    /// `@arguments(size: $size)` merges the owner's, the fragment's and the given variables, takes
    /// `id` from the record, and keeps only what the refetch query declares. The subscription
    /// follows the refetch query once a publish of exactly that request runs.
    func testRefetchPrintsTheRequestAndFollowsTheRefetchQueryOnceItIsPublished() throws {
        func user(_ operation: String, _ variables: String, _ url: String, name: String = "Ann") -> String {
            let field = operation == "UserQ" ? "user" : "node"
            return
                #"{"step":"publish","operation":"\#(operation)","variables":\#(variables),"response":{"data":{"\#(field)":"#
                + #"{"__typename":"User","id":"u1","name":"\#(name)","avatar":{"url":"\#(url)"}}}}}"#
        }
        let owner = #"{"size":48,"format":"JPEG"}"#
        let script = [
            user("UserQ", owner, "a48.jpg"),
            #"{"step":"subscribe","name":"av","fragment":"Avatar","operation":"UserQ","variables":\#(owner),"id":"u1"}"#,
            #"{"step":"refetch","name":"av","variables":{"size":64,"undeclared":1}}"#,
            // Another request of the refetch query (format PNG): the subscription stays put.
            user("AvatarRefetch", #"{"id":"u1","size":64,"format":"PNG"}"#, "a64.png"),
            // The request itself: the subscription now reads size 64, owned by AvatarRefetch.
            user("AvatarRefetch", #"{"id":"u1","size":64,"format":"JPEG"}"#, "a64.jpg"),
            // The original owner's data changes: no longer what the subscription reads.
            user("UserQ", owner, "a48-new.jpg"),
            // A name change: read by UserName (masked here), so no notification.
            user("AvatarRefetch", #"{"id":"u1","size":64,"format":"JPEG"}"#, "a64.jpg", name: "Bo"),
            user("AvatarRefetch", #"{"id":"u1","size":64,"format":"JPEG"}"#, "a64-v2.jpg", name: "Bo"),
        ]
        let r = try replay("[" + script.joined(separator: ",\n") + "]", documents: Self.avatarDocuments)
        XCTAssertEqual(r.status, 0, r.stderr)
        func pointer(_ owner: String) -> String {
            #""__id":"u1","__fragments":{"UserName":{}},"__fragmentOwner":\#(owner)"#
        }
        let userQ = #"{"name":"UserQ","variables":{"size":48,"format":"JPEG"}}"#
        let refetchQ = #"{"name":"AvatarRefetch","variables":{"format":"JPEG","size":64,"id":"u1"}}"#
        XCTAssertEqual(
            lines(r),
            [
                #"{"event":"snapshot","name":"av","data":{"avatar":{"url":"a48.jpg"},\#(pointer(userQ)),"id":"u1"},"isMissingData":false}"#,
                #"{"event":"request","name":"av","operation":"AvatarRefetch","variables":{"format":"JPEG","id":"u1","size":64}}"#,
                #"{"event":"notify","name":"av","data":{"avatar":{"url":"a64.jpg"},\#(pointer(refetchQ)),"id":"u1"},"isMissingData":false}"#,
                #"{"event":"notify","name":"av","data":{"avatar":{"url":"a64-v2.jpg"},\#(pointer(refetchQ)),"id":"u1"},"isMissingData":false}"#,
            ])
        XCTAssertFalse(r.stdoutText.contains("undeclared"))
    }

    /// A declared variable no one gives is `null` in the request; one given wins over the owner's.
    func testRefetchRequestVariablesAreTheQuerysDeclaredOnes() throws {
        let script = """
            [{"step":"subscribe","name":"av","fragment":"Avatar","operation":"UserQ","variables":{"size":16},"id":"u7"},
             {"step":"refetch","name":"av"},
             {"step":"refetch","name":"av","variables":{"format":"WEBP","id":"u8"}}]
            """
        let r = try replay(script, documents: Self.avatarDocuments)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            Array(lines(r).dropFirst()),
            [
                #"{"event":"request","name":"av","operation":"AvatarRefetch","variables":{"format":null,"id":"u7","size":16}}"#,
                #"{"event":"request","name":"av","operation":"AvatarRefetch","variables":{"format":"WEBP","id":"u8","size":16}}"#,
            ])
    }

    func testAFragmentReadsWithTheArgumentsOfItsSpreadInTheOwner() throws {
        let store = try write(
            "store.json",
            #"{"client:root":{"__id":"client:root","__typename":"__Root"},"#
                + #""u1":{"__id":"u1","__typename":"User","id":"u1","name":"Ann","#
                + #""avatar(format:\"PNG\",size:48)":{"__ref":"a48"},"avatar(format:\"PNG\",size:32)":{"__ref":"a32"}},"#
                + #""a48":{"__id":"a48","__typename":"Image","url":"48.png"},"#
                + #""a32":{"__id":"a32","__typename":"Image","url":"32.png"}}"#)
        let subscribe = { (owner: String, variables: String) in
            #"[{"step":"subscribe","name":"av","fragment":"Avatar","operation":"\#(owner)","variables":\#(variables),"id":"u1"}]"#
        }
        // `@arguments(size: $size)` with $size 48: the size-48 avatar (the default would be 32).
        let spread = try replay(
            subscribe("UserQ", #"{"size":48,"format":"PNG"}"#), documents: Self.avatarDocuments,
            options: ["--store", store])
        XCTAssertEqual(spread.status, 0, spread.stderr)
        XCTAssertTrue(
            spread.stdoutText.hasPrefix(#"{"event":"snapshot","name":"av","data":{"avatar":{"url":"48.png"}"#),
            spread.stdoutText)
        // Spread without arguments in another owner: the argument's default (32).
        let documents =
            Self.avatarDocuments + """

                query Plain($format: ImageFormat) { user(id: "me") { ...Avatar } }
                query Twice($a: Int, $b: Int, $format: ImageFormat) { user(id: "me") { ...Avatar @arguments(size: $a) friends { ...Avatar @arguments(size: $b) } } }
                query Same($a: Int, $format: ImageFormat) { user(id: "me") { ...Avatar @arguments(size: $a) bestFriend { ...Avatar @arguments(size: $a) } } }
                query Nowhere { user(id: "me") { id } }
                query Nested($s: Int, $format: ImageFormat) { user(id: "me") { ...Outer @arguments(s: $s) } }
                fragment Outer on User @argumentDefinitions(s: {type: "Int"}) { ...Avatar @arguments(size: $s) }
                """
        let plain = try replay(
            subscribe("Plain", #"{"format":"PNG"}"#), documents: documents, options: ["--store", store])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertTrue(plain.stdoutText.contains(#""avatar":{"url":"32.png"}"#), plain.stdoutText)
        // Spread inside another fragment, its argument passed down through that fragment's.
        let nested = try replay(
            subscribe("Nested", #"{"s":48,"format":"PNG"}"#), documents: documents, options: ["--store", store])
        XCTAssertEqual(nested.status, 0, nested.stderr)
        XCTAssertTrue(nested.stdoutText.contains(#""avatar":{"url":"48.png"}"#), nested.stdoutText)
        // Spread twice with the same arguments: one reference, fine.
        let same = try replay(subscribe("Same", #"{"a":48}"#), documents: documents, options: ["--store", store])
        XCTAssertEqual(same.status, 0, same.stderr)
        // Twice with different arguments, or not at all: no one reference to take.
        for (owner, expected) in [("Twice", "different arguments"), ("Nowhere", "does not spread")] {
            let r = try replay(subscribe(owner, #"{"a":1,"b":2}"#), documents: documents, options: ["--store", store])
            XCTAssertEqual(r.status, 1, owner)
            XCTAssertEqual(r.stdout, [], owner)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains("step 0"), r.stderr)
            XCTAssertTrue(r.stderr.contains(expected), r.stderr)
        }
    }

    func testABadResponseIsAnErrorEventAndTheScriptGoesOn() throws {
        let script = [
            publishQ("Milk"), subscribeItem("row", "t1"), #"{"step":"store"}"#,
            // Wrong shape (edges not a list), errors without data, a cut-off text:
            #"{"step":"publish","operation":"Q","variables":{},"response":{"data":{"user":{"id":"u","todos":{"edges":{"node":{"id":"t1","text":"X"}}}}}}}"#,
            #"{"step":"publish","operation":"Q","variables":{},"response":{"errors":[{"message":"boom"}]}}"#,
            #"{"step":"store"}"#, publishQ("Oat milk"),
        ]
        let r = try replay("[" + script.joined(separator: ",") + "]")
        XCTAssertEqual(r.status, 0, r.stderr)
        let out = lines(r)
        XCTAssertEqual(out.count, 6, r.stdoutText)
        guard out.count == 6 else { return }
        XCTAssertTrue(out[0].hasPrefix(#"{"event":"snapshot","name":"row""#), out[0])
        XCTAssertTrue(out[1].hasPrefix(#"{"event":"store","records":{"client:root":"#), out[1])
        XCTAssertTrue(out[2].hasPrefix(#"{"event":"error","step":3,"message":""#), out[2])
        XCTAssertTrue(out[2].contains("edges"), out[2])
        XCTAssertTrue(out[3].hasPrefix(#"{"event":"error","step":4,"message":""#), out[3])
        XCTAssertEqual(out[4], out[1], "the bad responses changed nothing")
        XCTAssertEqual(out[5], #"{"event":"notify","name":"row","data":{"text":"Oat milk"},"isMissingData":false}"#)
        for line in out { XCTAssertNoThrow(try JSONCompare.parse(Array(line.utf8)), line) }
    }

    func testResponseTextMayBeMalformedJSON() throws {
        let script = [
            publishQ("Milk"), subscribeItem("row", "t1"),
            #"{"step":"publish","operation":"Q","variables":{},"response_text":"{\"data\":{\"user\":{\"id\":"}"#,
            #"{"step":"publish","operation":"Q","variables":{},"response_text":"{\"data\":{\"user\":{\"id\":\"u\",\"todos\":{\"edges\":[{\"node\":{\"id\":\"t1\",\"text\":\"Tea\"}}]}}}}"}"#,
        ]
        let r = try replay("[" + script.joined(separator: ",") + "]")
        XCTAssertEqual(r.status, 0, r.stderr)
        let out = lines(r)
        XCTAssertEqual(out.count, 3, r.stdoutText)
        guard out.count == 3 else { return }
        XCTAssertTrue(out[1].hasPrefix(#"{"event":"error","step":2,"message":"malformed JSON"#), out[1])
        XCTAssertTrue(out[1].contains("byte "), "says where: \(out[1])")
        XCTAssertEqual(out[2], #"{"event":"notify","name":"row","data":{"text":"Tea"},"isMissingData":false}"#)
    }

    func testStoreStepPrintsRelayJSONAndStoreLoadsOne() throws {
        let first = try replay("[\(publishQ("Milk")), {\"step\":\"store\"}]")
        XCTAssertEqual(first.status, 0, first.stderr)
        let line = lines(first).first ?? ""
        XCTAssertTrue(line.hasPrefix(#"{"event":"store","records":"#) && line.hasSuffix("}"), line)
        let records = String(line.dropFirst(#"{"event":"store","records":"#.count).dropLast())
        XCTAssertTrue(records.contains(#""t1":{"__id":"t1","__typename":"Todo","id":"t1","text":"Milk"}"#), records)
        // That store loaded with --store: a subscription reads from it at once.
        let store = try write("store.json", records)
        let loaded = try replay("[\(subscribeItem("row", "t1"))]", options: ["--store", store])
        XCTAssertEqual(loaded.status, 0, loaded.stderr)
        XCTAssertEqual(
            loaded.stdoutText, #"{"event":"snapshot","name":"row","data":{"text":"Milk"},"isMissingData":false}"# + "\n"
        )
    }

    func check(_ operation: String = "Q") -> String {
        #"{"step":"check","operation":"\#(operation)","variables":{}}"#
    }

    /// `invalidate` marks a record (relay's toJSON shows `__invalidated_at`) and notifies no one
    /// (no data changed); `check` is stale until the operation is written again, and a whole
    /// store invalidated is stale the same way.
    func testInvalidateAndCheck() throws {
        let r = try replay(
            "["
                + [
                    check(), publishQ("Milk"), check(), subscribeItem("row", "t1"), #"{"step":"invalidate","id":"t1"}"#,
                    check(), publishQ("Milk"), check(), #"{"step":"invalidate_store"}"#, check(), publishQ("Milk"),
                    check(), #"{"step":"invalidate","id":"nowhere"}"#, check(), #"{"step":"store"}"#,
                ].joined(separator: ",") + "]")
        XCTAssertEqual(r.status, 0, r.stderr)
        let events = lines(r)
        XCTAssertEqual(
            Array(events.dropLast()),
            [
                #"{"event":"check","status":"missing"}"#, #"{"event":"check","status":"available"}"#,
                #"{"event":"snapshot","name":"row","data":{"text":"Milk"},"isMissingData":false}"#,
                #"{"event":"check","status":"stale"}"#, #"{"event":"check","status":"available"}"#,
                #"{"event":"check","status":"stale"}"#, #"{"event":"check","status":"available"}"#,
                #"{"event":"check","status":"available"}"#,
            ])
        XCTAssertTrue(
            events.last?.contains(
                #""t1":{"__id":"t1","__typename":"Todo","id":"t1","text":"Milk","__invalidated_at":2}"#)
                ?? false, events.last ?? "")
    }

    /// The virtual clock: a query written at 0 is stale from the expiration time on; written
    /// again, fresh again.
    func testQueryCacheExpirationOnTheVirtualClock() throws {
        let script =
            "["
            + [
                publishQ("Milk"), #"{"step":"advance_clock","ms":999}"#, check(),
                #"{"step":"advance_clock","ms":1}"#, check(), publishQ("Milk"), check(),
            ].joined(separator: ",") + "]"
        let r = try replay(script, options: ["--query-cache-expiration-ms", "1000"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            lines(r).map { $0.contains("available") ? "available" : "stale" }, ["available", "stale", "available"])
        // With no expiration nothing expires.
        let never = try replay(script)
        XCTAssertEqual(lines(never).filter { $0.contains("stale") }, [])
    }

    /// With a release buffer of 1, releasing two retained queries drops the first's root: after
    /// the store is invalidated and both are written again, the one still a root is fresh, the
    /// other (written with the buffer full, so never a root) stays stale.
    func testReleaseBufferOverflowDropsTheOldestRoot() throws {
        let script =
            "["
            + [
                #"{"step":"retain","name":"q","operation":"Q","variables":{}}"#,
                #"{"step":"retain","name":"r","operation":"R","variables":{}}"#, publishQ("Milk"), publishR,
                #"{"step":"release","name":"q"}"#, #"{"step":"release","name":"r"}"#,
                #"{"step":"release","name":"r"}"#, #"{"step":"invalidate_store"}"#, publishQ("Milk"), publishR,
                check("Q"), check("R"),
            ].joined(separator: ",") + "]"
        let r = try replay(script, documents: Self.todoAndRDocuments, options: ["--release-buffer", "1"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(lines(r), [#"{"event":"check","status":"stale"}"#, #"{"event":"check","status":"available"}"#])
        // A buffer of 2 keeps both.
        let both = try replay(script, documents: Self.todoAndRDocuments, options: ["--release-buffer", "2"])
        XCTAssertEqual(lines(both), Array(repeating: #"{"event":"check","status":"available"}"#, count: 2))
    }

    /// `gc` collects what no root reaches (relay v18: subscriptions do not count) and lists it;
    /// only a `gc` step removes anything.
    func testGCRemovesWhatNoRootReaches() throws {
        let script =
            "["
            + [
                #"{"step":"retain","name":"r","operation":"R","variables":{}}"#, publishQ("Milk"), publishR,
                subscribeItem("row", "t1"), #"{"step":"gc"}"#, #"{"step":"gc"}"#, check("Q"), check("R"),
                #"{"step":"release","name":"r"}"#, #"{"step":"gc"}"#,
            ].joined(separator: ",") + "]"
        let r = try replay(script, documents: Self.todoAndRDocuments, options: ["--release-buffer", "0"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            lines(r),
            [
                #"{"event":"snapshot","name":"row","data":{"text":"Milk"},"isMissingData":false}"#,
                #"{"event":"gc","removed":["client:u:todos(first:1)","client:u:todos(first:1):edges:0","t1"]}"#,
                #"{"event":"gc","removed":[]}"#, #"{"event":"check","status":"missing"}"#,
                #"{"event":"check","status":"available"}"#, #"{"event":"gc","removed":["client:root","u"]}"#,
            ])
    }

    /// relay's `__gc()` does nothing while an optimistic update is applied: the `gc` under the
    /// layer removes nothing, the one after `revert` removes what no root reaches.
    func testGCUnderAnOptimisticLayerRemovesNothing() throws {
        let documents = Self.renameDocuments
        let script = [
            publishTwo("a", "b"),
            #"{"step":"optimistic","name":"o","operation":"Rename","variables":{"input":{"id":"t1","text":"x"}},"response":{"data":{"renameTodo":{"todo":{"id":"t1","text":"x"}}}}}"#,
            #"{"step":"gc"}"#, #"{"step":"revert","name":"o"}"#, #"{"step":"gc"}"#,
        ]
        // No release buffer: the published query is no root, so only the hold keeps its records.
        let r = try replay(
            "[" + script.joined(separator: ",") + "]", documents: documents, options: ["--release-buffer", "0"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(lines(r).count, 2, r.stdoutText)
        XCTAssertEqual(lines(r).first, #"{"event":"gc","removed":[]}"#)
        for id in ["client:root", "t1", "t2", "u"] {
            XCTAssertTrue(lines(r).last?.contains(#""\#(id)""#) == true, r.stdoutText)
        }
    }

    /// `--client-schema`: a client field is selected, absent from the server's answer without
    /// making the data missing, and kept when a publish without it comes again.
    func testClientSchemaFieldsAreReadAndKept() throws {
        let client = try write("client.graphql", "extend type Todo { isSelected: Boolean }\n")
        let documents = """
            query S { user(id: "me") { id todos(first: 1) { edges { node { id text isSelected } } } } }
            """
        let withSelection =
            #"{"step":"publish","operation":"S","variables":{},"response":{"data":{"user":{"id":"u","todos":{"edges":[{"node":{"id":"t1","text":"a","isSelected":true}}]}}}}}"#
        let server =
            #"{"step":"publish","operation":"S","variables":{},"response":{"data":{"user":{"id":"u","todos":{"edges":[{"node":{"id":"t1","text":"b"}}]}}}}}"#
        let check = #"{"step":"check","operation":"S","variables":{}}"#
        let r = try replay(
            "[" + [server, check, withSelection, server, #"{"step":"store"}"#].joined(separator: ",") + "]",
            documents: documents, options: ["--client-schema", client])
        XCTAssertEqual(r.status, 0, r.stderr)
        let out = lines(r)
        XCTAssertEqual(out.first, #"{"event":"check","status":"available"}"#)
        XCTAssertTrue(
            out.last?.contains(#""t1":{"__id":"t1","__typename":"Todo","id":"t1","text":"b","isSelected":true}"#)
                == true, r.stdoutText)
        // Without the client schema the document does not compile.
        let without = try replay("[" + check + "]", documents: documents)
        XCTAssertEqual(without.status, 1)
        XCTAssertTrue(without.stderr.contains("isSelected"), without.stderr)
    }

    /// Two optimistic layers, one rolled back by its mutation's response in the same publish,
    /// the other by `revert`: each subscription hears what relay would tell it, once.
    func testOptimisticLayersRollBackAndRebase() throws {
        let documents = Self.renameDocuments
        func rename(_ id: String, _ text: String) -> String {
            #""operation":"Rename","variables":{"input":{"id":"\#(id)","text":"\#(text)"}},"response":{"data":{"renameTodo":{"todo":{"id":"\#(id)","text":"\#(text)"}}}}"#
        }
        let script = [
            publishTwo("a", "b"), subscribeItem("r1", "t1", owner: "Two"), subscribeItem("r2", "t2", owner: "Two"),
            #"{"step":"optimistic","name":"o1","# + rename("t1", "opt1") + "}",
            #"{"step":"optimistic","name":"o2","# + rename("t2", "opt2") + "}",
            #"{"step":"optimistic","name":"bad","operation":"Rename","variables":{"input":{"id":"t1","text":"x"}},"response":{"data":{"renameTodo":{"todo":7}}}}"#,
            #"{"step":"publish","revert":"o1","# + rename("t1", "server") + "}",
            #"{"step":"revert","name":"o2"}"#, #"{"step":"revert","name":"bad"}"#, #"{"step":"revert","name":"o2"}"#,
            #"{"step":"store"}"#,
        ]
        let r = try replay("[" + script.joined(separator: ",") + "]", documents: documents)
        XCTAssertEqual(r.status, 0, r.stderr)
        let out = lines(r)
        XCTAssertEqual(out.count, 8, r.stdoutText)
        XCTAssertEqual(
            Array(out.prefix(7)),
            [
                #"{"event":"snapshot","name":"r1","data":{"text":"a"},"isMissingData":false}"#,
                #"{"event":"snapshot","name":"r2","data":{"text":"b"},"isMissingData":false}"#,
                #"{"event":"notify","name":"r1","data":{"text":"opt1"},"isMissingData":false}"#,
                #"{"event":"notify","name":"r2","data":{"text":"opt2"},"isMissingData":false}"#,
                out[4],
                #"{"event":"notify","name":"r1","data":{"text":"server"},"isMissingData":false}"#,
                #"{"event":"notify","name":"r2","data":{"text":"b"},"isMissingData":false}"#,
            ])
        XCTAssertTrue(out[4].hasPrefix(#"{"event":"error","step":5,"#), out[4])
        XCTAssertTrue(out[4].contains("renameTodo.todo"), out[4])
        XCTAssertFalse(out[7].contains("opt"), out[7])
        XCTAssertTrue(out[7].contains(#""text":"server""#), out[7])
    }

    /// `twoTodoDocuments` and a mutation renaming a to-do (for optimistic layers).
    static let renameDocuments =
        twoTodoDocuments + """

            mutation Rename($input: RenameTodoInput!) { renameTodo(input: $input) { todo { id text } } }
            """

    /// A query over a pagination fragment of the user's to-dos (`PagQuery` fetches its pages).
    static let pagDocuments = """
        query Q2 { user(id: "me") { ...Pag } }
        fragment Pag on User @refetchable(queryName: "PagQuery")
          @argumentDefinitions(count: {type: "Int", defaultValue: 1}, cursor: {type: "String"}) {
          todos(first: $count, after: $cursor) @connection(key: "Pag_todos") { edges { node { id text } } }
        }
        """

    /// A pagination fragment's `load_next`: the page query's variables from the connection's end
    /// cursor; nothing while its request is unanswered; the page merged into the connection.
    func testLoadNextBuildsThePageQueryAndThePageMerges() throws {
        func edge(_ cursor: String, _ id: String) -> String {
            #"{"cursor":"\#(cursor)","node":{"__typename":"Todo","id":"\#(id)","text":"\#(id)"}}"#
        }
        let first =
            #"{"step":"publish","operation":"Q2","variables":{},"response":{"data":{"user":{"__typename":"User","id":"u","todos":{"edges":["#
            + edge("c1", "t1") + #"],"pageInfo":{"endCursor":"c1","hasNextPage":true}}}}}}"#
        let next =
            #"{"step":"publish","operation":"PagQuery","variables":{"count":2,"cursor":"c1","id":"u"},"response":{"data":{"node":{"__typename":"User","id":"u","todos":{"edges":["#
            + edge("c2", "t2") + "," + edge("c3", "t3") + #"],"pageInfo":{"endCursor":"c3","hasNextPage":false}}}}}}"#
        let script = [
            first, #"{"step":"subscribe","name":"p","fragment":"Pag","operation":"Q2","variables":{},"id":"u"}"#,
            #"{"step":"load_next","name":"p","count":2}"#, #"{"step":"load_next","name":"p","count":2}"#, next,
            #"{"step":"load_next","name":"p","count":5}"#,
        ]
        let r = try replay("[" + script.joined(separator: ",") + "]", documents: Self.pagDocuments)
        XCTAssertEqual(r.status, 0, r.stderr)
        let out = lines(r)
        XCTAssertEqual(out.count, 5, r.stdoutText)
        guard out.count == 5 else { return }
        XCTAssertTrue(out[0].hasPrefix(#"{"event":"snapshot","name":"p""#), out[0])
        XCTAssertTrue(out[0].contains(#""text":"t1""#), out[0])
        XCTAssertEqual(
            out[1],
            #"{"event":"request","name":"p","operation":"PagQuery","variables":{"count":2,"cursor":"c1","id":"u"}}"#)
        XCTAssertTrue(out[2].hasPrefix(#"{"event":"request","skipped":"#), out[2])
        XCTAssertTrue(out[3].hasPrefix(#"{"event":"notify","name":"p""#), out[3])
        for text in ["t1", "t2", "t3"] { XCTAssertTrue(out[3].contains(#""text":"\#(text)""#), out[3]) }
        XCTAssertEqual(
            out[4],
            #"{"event":"request","name":"p","operation":"PagQuery","variables":{"count":5,"cursor":"c3","id":"u"}}"#)
    }

    /// A page after a cursor that is not the connection's end: relay drops it and warns; `replay`
    /// prints the warning on stderr, no `error` event, and the subscriber's data does not change.
    func testAPageAfterAnotherCursorIsAWarningNotAnError() throws {
        let first =
            #"{"step":"publish","operation":"Q2","variables":{},"response":{"data":{"user":{"__typename":"User","id":"u","todos":{"edges":["#
            + #"{"cursor":"c1","node":{"__typename":"Todo","id":"t1","text":"t1"}}],"pageInfo":{"endCursor":"c1","hasNextPage":true}}}}}}"#
        let late =
            #"{"step":"publish","operation":"PagQuery","variables":{"count":1,"cursor":"c0","id":"u"},"response":{"data":{"node":{"__typename":"User","id":"u","todos":{"edges":["#
            + #"{"cursor":"c9","node":{"__typename":"Todo","id":"t9","text":"t9"}}],"pageInfo":{"endCursor":"c9","hasNextPage":false}}}}}}"#
        let script = [
            first, #"{"step":"subscribe","name":"p","fragment":"Pag","operation":"Q2","variables":{},"id":"u"}"#, late,
            #"{"step":"load_next","name":"p","count":1}"#,
        ]
        let r = try replay("[" + script.joined(separator: ",") + "]", documents: Self.pagDocuments)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            r.stderr,
            "relay-arena: warning: Relay: Unexpected after cursor `c0`, edges must be fetched from the end of the list (`c1`).\n"
        )
        let out = lines(r)
        XCTAssertFalse(out.contains { $0.contains(#""event":"error""#) }, r.stdoutText)
        XCTAssertFalse(out.contains { $0.contains("t9") }, r.stdoutText)
        // The next page still starts at the connection's own end cursor.
        XCTAssertEqual(
            out.last,
            #"{"event":"request","name":"p","operation":"PagQuery","variables":{"count":1,"cursor":"c1","id":"u"}}"#)
    }

    func testTheGCAndExpiryOptionsAreChecked() throws {
        let script = "[\(publishQ("Milk")), \(subscribeItem("row", "t1"))]"
        let ok = try replay(script, options: ["--release-buffer", "3", "--query-cache-expiration-ms", "1000"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(lines(ok).count, 1)
        for bad in [["--release-buffer=-1"], ["--query-cache-expiration-ms=-5"], ["--release-buffer", "many"]] {
            let r = try replay(script, options: bad)
            XCTAssertEqual(r.status, 1, "\(bad)")
            XCTAssertEqual(r.stdout, [], "\(bad)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
    }

    /// Each script starts with steps that would print if they ran: a script is checked whole first.
    func testAWrongScriptExitsOneNamingTheStepAndPrintsNothing() throws {
        let prefix = publishQ("Milk") + "," + subscribeItem("row", "t1") + ","
        let cases: [(String, String, String)] = [
            (#"{"step":"frobnicate"}"#, "step 2", "unknown step `frobnicate`"),
            (#"{"step":"load_next","name":"row","count":1}"#, "step 2", "pagination fragment"),
            (#"{"step":"load_previous","name":"row","count":-1}"#, "step 2", "`count`"),
            (#"{"step":"optimistic","name":"o","operation":"Q","variables":{}}"#, "step 2", "missing key `response`"),
            (#"{"step":"revert","name":"o"}"#, "step 2", "no optimistic layer `o`"),
            (#"{"step":"subscribe","name":"x","operation":"Q","variables":{},"id":"t1"}"#, "step 2", "`fragment`"),
            (#"{"step":"publish","operation":"Q","variables":{}}"#, "step 2", "missing key `response`"),
            (#"{"name":"row"}"#, "step 2", "missing key `step`"),
            (subscribeItem("x", "t1").replacingOccurrences(of: "Item", with: "Nope"), "step 2", "`Nope`"),
            (#"{"step":"publish","operation":"Nope","variables":{},"response":{}}"#, "step 2", "`Nope`"),
            (#"{"step":"unsubscribe","name":"never"}"#, "step 2", "`never`"),
            (#"{"step":"refetch","name":"never"}"#, "step 2", "`never`"),
            (#"{"step":"refetch","name":"row"}"#, "step 2", "@refetchable"),
            (subscribeItem("row", "t1"), "step 2", "already active"),
            (
                publishQ("X").replacingOccurrences(of: "\"step\":", with: "\"revert\":\"o\",\"step\":"), "step 2",
                "no optimistic layer `o`"
            ),
            (#"{"step":"publish","operation":"Q","variables":[],"response":{}}"#, "step 2", "`variables`"),
            (#"{"step":"release","name":"never"}"#, "step 2", "no retain named `never`"),
            (#"{"step":"retain","name":"q","operation":"Nope","variables":{}}"#, "step 2", "`Nope`"),
            (#"{"step":"check","operation":"Q"}"#, "step 2", "missing key `variables`"),
            (#"{"step":"invalidate"}"#, "step 2", "missing key `id`"),
            (#"{"step":"advance_clock","ms":-1}"#, "step 2", "`ms`"),
            (#"{"step":"advance_clock","ms":1.5}"#, "step 2", "`ms`"),
            (#"{"step":"advance_clock"}"#, "step 2", "missing key `ms`"),
        ]
        for (step, index, says) in cases {
            let r = try replay("[" + prefix + step + #",{"step":"store"}]"#)
            XCTAssertEqual(r.status, 1, step)
            XCTAssertEqual(r.stdoutText, "", step)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains(index), "\(step): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(says), "\(step): \(r.stderr)")
        }
        // Not an array, or not JSON at all: one line too.
        for script in [#"{"step":"store"}"#, #"[{"step":"store"},"#] {
            let r = try replay(script)
            XCTAssertEqual(r.status, 1, script)
            XCTAssertEqual(r.stdoutText, "")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
    }
}
