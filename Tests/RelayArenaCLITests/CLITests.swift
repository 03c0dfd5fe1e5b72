// The command line as people and scripts use it: the real executable, real files, stdin,
// exit statuses, and nothing written when something fails.
import Foundation
import RelayArena
import RelayArenaTestSupport
import RelayArenaWorkloads
import XCTest

final class CLITests: CLITestCase {
    func normalizeArgs(_ response: String, _ extra: [String] = []) -> [String] {
        ["normalize", "--schema", schema, "--document", query, "--variables", #"{"first":3}"#] + extra + [response]
    }

    func testNormalizePrintsTheStoreAsRelayJSON() throws {
        let response = try write("r.json", TodoListWorkload(todos: 3).response())
        let r = try CLI.run(normalizeArgs(response))
        XCTAssertEqual(r.status, 0, r.stderr)
        let store = try JSONCompare.parse(r.stdout)
        guard case .object(let records) = store else { return XCTFail("not an object") }
        // root, user, connection, 3 edges, 3 todos, pageInfo
        XCTAssertEqual(records.count, 10)
        let conn = "client:VXNlcjptZQ==:todos(first:3)"
        XCTAssertEqual(
            records.first { $0.key == "client:root" }?.value.stableJSON,
            #"{"__id":"client:root","__typename":"__Root","user(id:\"me\")":{"__ref":"VXNlcjptZQ=="}}"#)
        XCTAssertNotNil(records.first { $0.key == conn + ":edges:2" })
        XCTAssertEqual(
            records.first { $0.key == "VXNlcjptZQ==" }?.value.stableJSON,
            #"{"__id":"VXNlcjptZQ==","__typename":"User","id":"VXNlcjptZQ==","todos(first:3)":{"__ref":"\#(conn)"},"totalCount":3}"#
        )
    }

    func testStdinStoreRoundTripAndUpdatedIDs() throws {
        let bytes = TodoListWorkload(todos: 3).response()
        let storePath = dir.appendingPathComponent("store.json").path
        let idsPath = dir.appendingPathComponent("ids.json").path
        let first = try CLI.run(
            normalizeArgs("-", ["--write-store", storePath, "--updated-ids", idsPath]), stdin: bytes)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.isEmpty, "--write-store writes nothing to stdout")
        let ids = try JSONCompare.parse(Data(contentsOf: URL(fileURLWithPath: idsPath)))
        guard case .array(let firstIDs) = ids else { return XCTFail("ids not a list") }
        XCTAssertEqual(firstIDs.count, 10, "every record is new, the root changed")

        // The same response again, into the stored store: nothing changes.
        let again = try CLI.run(
            normalizeArgs("-", ["--store", storePath, "--write-store", storePath, "--updated-ids", idsPath]),
            stdin: bytes)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try String(contentsOfFile: idsPath, encoding: .utf8), "[]\n")

        // A changed todo text: exactly that record.
        let changed = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "#1\"", with: "#1 changed\"")
        let third = try CLI.run(normalizeArgs("-", ["--store", storePath, "--quiet"]), stdin: Array(changed.utf8))
        XCTAssertEqual(third.status, 0, third.stderr)
        XCTAssertTrue(third.stdout.isEmpty, "--quiet prints nothing")
        let fourth = try CLI.run(
            normalizeArgs("-", ["--store", storePath, "--updated-ids", idsPath]), stdin: Array(changed.utf8))
        XCTAssertEqual(fourth.status, 0, fourth.stderr)
        XCTAssertEqual(try String(contentsOfFile: idsPath, encoding: .utf8), #"["VG9kbzox"]"# + "\n")
    }

    /// A store file as relay writes it: records with no `__typename` (an updater's, an older
    /// client's) load, and are written back as they were, byte for byte.
    func testStoreFilesWithUntypedRecordsLoadAndWriteBack() throws {
        let untyped = #""client:1":{"__id":"client:1","x":1,"u":{"__ref":"VXNlcjptZQ=="}}"#
        let file = #"{"client:root":{"__id":"client:root","__typename":"__Root"},"# + untyped + "}"
        let storePath = try write("untyped.json", Array(file.utf8))
        let outPath = dir.appendingPathComponent("out.json").path
        let response = TodoListWorkload(todos: 3).response()
        let r = try CLI.run(normalizeArgs("-", ["--store", storePath, "--write-store", outPath]), stdin: response)
        XCTAssertEqual(r.status, 0, r.stderr)
        let out = try String(contentsOfFile: outPath, encoding: .utf8)
        XCTAssertTrue(out.contains("," + untyped + ","), "written back with no `__typename`: \(out)")
        // Loaded again and given the same response: the same file.
        let againPath = dir.appendingPathComponent("again.json").path
        let again = try CLI.run(normalizeArgs("-", ["--store", outPath, "--write-store", againPath]), stdin: response)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try String(contentsOfFile: againPath, encoding: .utf8), out)

        // A record whose `__id` is not its key: refused, naming both.
        let bad = try write("bad-id.json", Array(#"{"a":{"__id":"b","__typename":"T"}}"#.utf8))
        let refused = try CLI.run(normalizeArgs("-", ["--store", bad, "--write-store", bad]), stdin: response)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(
            refused.stderr.contains("record `a` has `__id` `b`: a record's `__id` must be its key"), refused.stderr)
        XCTAssertEqual(try String(contentsOfFile: bad, encoding: .utf8), #"{"a":{"__id":"b","__typename":"T"}}"#)
    }

    func testErrorsExitOneWithOneLineAndWriteNothing() throws {
        let good = try write("good.json", TodoListWorkload(todos: 3).response())
        let storePath = dir.appendingPathComponent("store.json").path
        XCTAssertEqual(try CLI.run(normalizeArgs(good, ["--write-store", storePath])).status, 0)
        let storeBefore = try Data(contentsOf: URL(fileURLWithPath: storePath))
        let idsPath = dir.appendingPathComponent("ids.json").path

        let truncated = Array(TodoListWorkload(todos: 3).response().dropLast(7))
        let bad = try write("bad.json", truncated)
        let r = try CLI.run(
            normalizeArgs(bad, ["--store", storePath, "--write-store", storePath, "--updated-ids", idsPath]))
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.isEmpty)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("malformed JSON"), r.stderr)
        XCTAssertTrue(r.stderr.contains("byte "), "says where: \(r.stderr)")
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: storePath)), storeBefore, "the store file is untouched")
        XCTAssertFalse(FileManager.default.fileExists(atPath: idsPath))

        let shape = try write(
            "shape.json", Array(#"{"data":{"user":{"id":"u","totalCount":1,"todos":{"edges":{"cursor":"c"}}}}}"#.utf8))
        let s = try CLI.run(normalizeArgs(shape))
        XCTAssertEqual(s.status, 1)
        XCTAssertTrue(s.stderr.contains("Expected data for field `edges` to be an array of objects"), s.stderr)
        XCTAssertTrue(s.stderr.contains("at data.user.todos.edges"), s.stderr)

        let missing = try CLI.run(normalizeArgs(dir.appendingPathComponent("nope.json").path))
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.hasPrefix("relay-arena: error: "), missing.stderr)

        let usage = try CLI.run(["normalize", "--schema", schema])
        XCTAssertEqual(usage.status, 1, "usage errors exit 1 too")
        XCTAssertTrue(usage.stdout.isEmpty)
    }

    func testCompileErrorsPointAtFileLineColumn() throws {
        let doc = try write("bad.graphql", Array("query Q {\n  user(id: \"me\") {\n    nope\n  }\n}\n".utf8))
        let response = try write("r.json", Array(#"{"data":{}}"#.utf8))
        let r = try CLI.run(["normalize", "--schema", schema, "--document", doc, response])
        XCTAssertEqual(r.status, 1)
        // One `error:` in the line: the prefix's.
        XCTAssertTrue(r.stderr.hasPrefix("relay-arena: error: "), r.stderr)
        XCTAssertTrue(r.stderr.contains("bad.graphql:3:5: Cannot query field"), r.stderr)
        XCTAssertEqual(r.stderr.components(separatedBy: "error:").count, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("nope"), r.stderr)
    }

    func testRootIDForMutations() throws {
        let doc = try write(
            "m.graphql",
            Array(
                #"mutation AddTodo($input: AddTodoInput!) { addTodo(input: $input) { clientMutationId todoEdge { cursor node { id text } } } }"#
                    .utf8))
        let response = try write(
            "m.json",
            Array(
                #"{"data":{"addTodo":{"clientMutationId":"c1","todoEdge":{"cursor":"x","node":{"id":"T9","text":"Milk"}}}}}"#
                    .utf8))
        let r = try CLI.run([
            "normalize", "--schema", schema, "--document", doc, "--root-id", "client:local:0",
            "--variables", #"{"input":{"userId":"me","text":"Milk","clientMutationId":"c1"}}"#, response,
        ])
        XCTAssertEqual(r.status, 0, r.stderr)
        let key = #"client:local:0:addTodo(input:{"clientMutationId":"c1","text":"Milk","userId":"me"})"#
        guard case .object(let records) = try JSONCompare.parse(r.stdout) else { return XCTFail() }
        XCTAssertEqual(Set(records.map(\.key)), ["client:root", "client:local:0", key, key + ":todoEdge", "T9"])
    }

    /// relay's field errors on the command line: `fieldErrors` beside `data`, and a read relay
    /// would throw for (`@throwOnFieldError`) exits 1 with relay's message.
    func testReadPrintsFieldErrorsAndThrowsAsRelayWould() throws {
        let doc = try write(
            "e.graphql",
            Array(
                """
                query E { user(id: "me") { id name } }
                query T @throwOnFieldError { user(id: "me") { id name } }
                """.utf8))
        let response = try write(
            "e.json",
            Array(
                #"{"data":{"user":{"id":"me","name":null}},"errors":[{"message":"boom","path":["user","name"]}]}"#.utf8)
        )
        let storePath = dir.appendingPathComponent("e-store.json").path
        let normalize = try CLI.run([
            "normalize", "--schema", schema, "--document", doc, "--operation", "E", "--write-store", storePath,
            "--quiet",
            response,
        ])
        XCTAssertEqual(normalize.status, 0, normalize.stderr)
        func read(_ operation: String) throws -> CLIResult {
            try CLI.run([
                "read", "--schema", schema, "--document", doc, "--operation", operation, "--store", storePath,
                "--fragment", operation, "--id", "client:root",
            ])
        }
        let plain = try read("E")
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(
            plain.stdoutText,
            #"{"data":{"user":{"id":"me","name":null}},"isMissingData":false,"#
                + #""fieldErrors":[{"kind":"relay_field_payload.error","fieldPath":"","error":{"message":"boom"}}]}"#
                + "\n")
        let throwing = try read("T")
        XCTAssertEqual(throwing.status, 1)
        XCTAssertEqual(throwing.stdoutText, "")
        XCTAssertTrue(
            throwing.stderr.contains("Relay: Unexpected response payload - check server logs for details."),
            throwing.stderr)
    }

    /// A strong ID given two types in one response is relay's `idCollision.typename` warning on
    /// stderr (exit 0; the response is written).
    func testNormalizeWarnsOfAnIDGivenTwoTypes() throws {
        let doc = try write(
            "n.graphql",
            Array(#"query N { node(id: "t1") { id __typename ... on Todo { owner { id __typename } } } }"#.utf8))
        let response = try write(
            "n.json",
            Array(#"{"data":{"node":{"id":"t1","__typename":"Todo","owner":{"id":"t1","__typename":"User"}}}}"#.utf8))
        let r = try CLI.run(["normalize", "--schema", schema, "--document", doc, "--quiet", response])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            r.stderr,
            "relay-arena: warning: RelayResponseNormalizer: Invalid record `t1`. Expected __typename to be consistent, but the record was assigned conflicting types `User` and `Todo`. The GraphQL server likely violated the globally unique id requirement by returning the same id for different objects.\n"
        )
    }

    /// `normalize` runs the `@connection` handler as the environment does: two pages written one
    /// after the other read back through the handle as one list, and a page that does not follow
    /// the connection's end is a warning on stderr (exit 0), its edges left out.
    func testNormalizeMergesConnectionPages() throws {
        let doc = try write(
            "p.graphql",
            Array(
                """
                query P($count: Int!, $cursor: String) {
                  user(id: "me") { id todos(first: $count, after: $cursor) @connection(key: "P_todos") { edges { node { id } } } }
                }
                """.utf8))
        func page(_ ids: [Int], end: Int) throws -> String {
            let edges = ids.map { #"{"cursor":"c\#($0)","node":{"id":"t\#($0)","__typename":"Todo"}}"# }
            return try write(
                "page\(ids[0]).json",
                Array(
                    (#"{"data":{"user":{"id":"me","todos":{"edges":[\#(edges.joined(separator: ","))],"#
                        + #""pageInfo":{"endCursor":"c\#(end)","hasNextPage":true}}}}}"#).utf8))
        }
        let storePath = dir.appendingPathComponent("s.json").path
        func normalize(_ response: String, cursor: String?, store: Bool) throws -> CLIResult {
            let variables = #"{"count":2,"cursor":\#(cursor.map { "\"\($0)\"" } ?? "null")}"#
            return try CLI.run(
                ["normalize", "--schema", schema, "--document", doc, "--variables", variables]
                    + (store ? ["--store", storePath] : []) + ["--write-store", storePath, "--quiet", response])
        }
        XCTAssertEqual(try normalize(try page([1, 2], end: 2), cursor: nil, store: false).status, 0)
        let next = try normalize(try page([3], end: 3), cursor: "c2", store: true)
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertEqual(next.stderr, "")
        let stale = try normalize(try page([9], end: 9), cursor: "c1", store: true)
        XCTAssertEqual(stale.status, 0, stale.stderr)
        XCTAssertTrue(stale.stderr.hasPrefix("relay-arena: warning: Relay: Unexpected after cursor `c1`"), stale.stderr)
        let read = try CLI.run([
            "read", "--schema", schema, "--document", doc, "--operation", "P", "--variables", #"{"count":2}"#,
            "--store", storePath, "--fragment", "P", "--id", "client:root",
        ])
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertEqual(
            read.stdoutText,
            #"{"data":{"user":{"id":"me","todos":{"edges":[{"node":{"id":"t1","__typename":"Todo"},"cursor":"c1"},"#
                + #"{"node":{"id":"t2","__typename":"Todo"},"cursor":"c2"},{"node":{"id":"t3","__typename":"Todo"},"cursor":"c3"}],"#
                + #""pageInfo":{"endCursor":"c3","hasNextPage":true}}}},"isMissingData":false}"# + "\n")
    }

    func testReadPrintsMaskedDataWithPointers() throws {
        let doc = try write(
            "q.graphql",
            Array(
                """
                query ListQuery { user(id: "me") { id todos(first: 2) { edges { node { id ...Item_todo } } } } }
                fragment Item_todo on Todo { text complete }
                """.utf8))
        let response = try write("r.json", TodoListWorkload(todos: 2).response())
        let storePath = dir.appendingPathComponent("s.json").path
        let n = try CLI.run(["normalize", "--schema", schema, "--document", doc, "--write-store", storePath, response])
        XCTAssertEqual(n.status, 0, n.stderr)
        let list = try CLI.run([
            "read", "--schema", schema, "--document", doc, "--operation", "ListQuery", "--store", storePath,
            "--fragment", "ListQuery", "--id", "client:root",
        ])
        XCTAssertEqual(list.status, 0, list.stderr)
        let listJSON = try JSONCompare.parse(list.stdout)
        let node =
            #"{"id":"VG9kbzow","__id":"VG9kbzow","__fragments":{"Item_todo":{}},"__fragmentOwner":{"name":"ListQuery","variables":{}}}"#
        XCTAssertNil(
            JSONCompare.difference(
                listJSON,
                try JSONCompare.parse(
                    Array(
                        (#"{"data":{"user":{"id":"VXNlcjptZQ==","todos":{"edges":[{"node":"# + node
                            + #"},{"node":{"id":"VG9kbzox","__id":"VG9kbzox","__fragments":{"Item_todo":{}},"__fragmentOwner":{"name":"ListQuery","variables":{}}}}]}}},"isMissingData":false}"#)
                            .utf8))))
        let item = try CLI.run([
            "read", "--schema", schema, "--document", doc, "--operation", "ListQuery", "--store", storePath,
            "--fragment", "Item_todo", "--id", "VG9kbzow",
        ])
        XCTAssertEqual(item.status, 0, item.stderr)
        guard case .object(let top) = try JSONCompare.parse(item.stdout),
            case .object(let data)? = top.first(where: { $0.key == "data" })?.value
        else {
            return XCTFail(item.stdoutText)
        }
        XCTAssertEqual(Set(data.map(\.key)), ["text", "complete"], "the item view sees exactly its fields")
        XCTAssertTrue(item.stdoutText.hasPrefix(#"{"data":{"text":"#), "selection order: \(item.stdoutText)")
        let unknown = try CLI.run([
            "read", "--schema", schema, "--document", doc, "--operation", "ListQuery", "--store", storePath,
            "--fragment", "Item_todo", "--id", "nope",
        ])
        XCTAssertEqual(unknown.status, 0)
        // relay's fieldErrors: the record itself is missing.
        XCTAssertEqual(
            unknown.stdoutText,
            #"{"data":null,"isMissingData":true,"fieldErrors":[{"kind":"missing_expected_data.log","fieldPath":"<record>"}]}"#
                + "\n")
    }

    func testReadPrintsInlineDataOfInlineFragments() throws {
        // relay's readInlineData: an @inline spread's data is read with the parent, into
        // __fragments, with no __fragmentOwner for it.
        let doc = try write(
            "q.graphql",
            Array(
                """
                query InlineQuery { user(id: "me") { todos(first: 2) { edges { node { ...Item_inline } } } } }
                fragment Item_inline on Todo @inline { text complete }
                """.utf8))
        let response = try write("r.json", TodoListWorkload(todos: 2).response())
        let storePath = dir.appendingPathComponent("s.json").path
        let n = try CLI.run(["normalize", "--schema", schema, "--document", doc, "--write-store", storePath, response])
        XCTAssertEqual(n.status, 0, n.stderr)
        let read = try CLI.run([
            "read", "--schema", schema, "--document", doc, "--store", storePath,
            "--fragment", "InlineQuery", "--id", "client:root",
        ])
        XCTAssertEqual(read.status, 0, read.stderr)
        func node(_ id: String, _ text: String, _ complete: Bool) -> String {
            #"{"node":{"__id":"\#(id)","__fragments":{"Item_inline":{"text":"\#(text)","complete":\#(complete)}}}}"#
        }
        XCTAssertEqual(
            read.stdoutText,
            #"{"data":{"user":{"todos":{"edges":["#
                + node("VG9kbzow", "pay the report #0", false) + "," + node("VG9kbzox", "trip the rent #1", false)
                + #"]}}},"isMissingData":false}"# + "\n")
    }

    /// The shipped executable links no allocation counter: nothing in it defines (or exports) the
    /// allocator's entry points, so users' normalize, fetch and ingest allocate through glibc's.
    /// The counter lives only in its own library, which the quick bench preloads into a child.
    func testRelayArenaDefinesNoMalloc() throws {
        guard let nm = ["/usr/bin/nm", "/bin/nm"].first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { throw XCTSkip("nm (binutils) is not installed") }
        func defined(_ flags: [String], _ file: URL) throws -> Set<String> {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: nm)
            process.arguments = flags + ["--defined-only", file.path]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, "nm \(flags) \(file.path)")
            return Set(text.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
        }
        // A sanitizer's runtime brings its own allocator into every executable it instruments (and
        // compiles the counter's interposer out): there only the counter's own symbol is looked for.
        let allocator: Set =
            CLI.underSanitizer
            ? ["ra_process_allocations"] : ["malloc", "calloc", "realloc", "free", "ra_process_allocations"]
        for flags in [[], ["--dynamic"]] {
            let symbols = try defined(flags, CLI.executable)
            XCTAssertFalse(symbols.isEmpty, "nm \(flags) read no symbols of relay-arena")
            XCTAssertEqual(symbols.intersection(allocator), [], "relay-arena defines these (nm \(flags))")
        }
        // The same check finds the counter where it does belong, when it was built.
        if FileManager.default.fileExists(atPath: CLI.allocationCounterLibrary.path) {
            XCTAssertTrue(try defined(["--dynamic"], CLI.allocationCounterLibrary).isSuperset(of: allocator))
        }
    }

    func testQuickBenchPrintsJSONWithTheAgreedKeys() throws {
        let r = try CLI.run(["bench", "--todos", "300", "--repetitions", "1", "--format", "json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        guard case .object(let m) = try JSONCompare.parse(r.stdout) else { return XCTFail(r.stdoutText) }
        let keys = Set(m.map(\.key))
        for key in [
            "todos", "input_bytes", "ingest_seconds", "ingest_mb_per_s", "yajl_noop_mb_per_s", "jsondecoder_mb_per_s",
            "jsonserialization_mb_per_s", "refetch_identical_seconds", "refetch_10pct_seconds",
            "refetch_identical_updated_ids", "store_bytes", "read_ns_per_field", "read_allocations",
            "read_todos_seconds", "read_todos_allocations",
        ] {
            XCTAssertTrue(keys.contains(key), "missing \(key)")
        }
        XCTAssertEqual(m.first { $0.key == "refetch_identical_updated_ids" }?.value, .int(0))
        XCTAssertEqual(m.first { $0.key == "todos" }?.value, .int(300))
        func number(_ key: String) -> Double? {
            switch m.first(where: { $0.key == key })?.value {
            case .int(let i)?: return Double(i)
            case .double(let d)?: return d
            default: return nil
            }
        }
        // One field read: a positive time, and no allocation. The allocations are counted by a
        // child with the counter library preloaded, which `swift build` and `swift test` build
        // beside relay-arena: integers whenever it is there, null only without it or under a
        // sanitizer (its runtime brings its own allocator; the test bundle runs under the same one).
        XCTAssertGreaterThan(number("read_ns_per_field") ?? 0, 0)
        XCTAssertGreaterThan(number("read_todos_seconds") ?? 0, 0)
        let counted = FileManager.default.fileExists(atPath: CLI.allocationCounterLibrary.path) && !CLI.underSanitizer
        for key in ["read_allocations", "read_todos_allocations"] {
            switch m.first(where: { $0.key == key })?.value {
            case .null? where !counted: break
            case .int(let n)? where key == "read_allocations": XCTAssertEqual(n, 0, "a field read allocates")
            case .int(let n)?: XCTAssertGreaterThanOrEqual(n, 0)
            default: XCTFail("\(key) is not an integer (counter library there: \(counted)); stderr: \(r.stderr)")
            }
        }
        // The notification figures' medians of paired rounds: positive ratios. The 1% refetch
        // called some models (the bench fails unless it called one on each changed todo, on both
        // sides, in every round); the identical one none.
        for key in ["notify_1pct_ratio_median", "refetch_10pct_ratio_median", "refetch_identical_ratio_median"] {
            XCTAssertGreaterThan(number(key) ?? 0, 0, key)
        }
        XCTAssertGreaterThan(number("notify_1pct_models_called") ?? 0, 0)
        // The flooding figures: flooded ÷ random ingest, medians of paired rounds.
        for key in [
            "flood_ids_old_hash_ratio_median", "flood_ids_known_key_ratio_median", "flood_keys_old_hash_ratio_median",
            "flood_keys_known_key_ratio_median", "flood_store_old_hash_ratio_median",
            "flood_store_known_key_ratio_median",
        ] {
            XCTAssertGreaterThan(number(key) ?? 0, 0, key)
        }
        XCTAssertEqual(number("refetch_identical_models_called"), 0)
    }
}
