// The store as relay toJSON text: every value kind round trips, bad files are refused with what and
// where, and a file keeps its record order.
import Foundation
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import RelayArenaWorkloads
import XCTest

final class StoreFileTests: XCTestCase {
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
}
