// Store subscriptions: relay's notification rules (RelayStoreSubscriptions) over a real store —
// re-read only what saw an updated record, call only when the data changed, in subscription
// order — and the record → subscriptions index behind them.
import RelayArena
import RelayArenaTestSupport
import XCTest

final class StoreSubscriptionsTests: XCTestCase {
    static let docs = try! Fixtures.compile(
        """
        query UserQuery($id: String!) { user(id: $id) { id name ...Name_user } }
        query TodoQuery($id: ID!) { node(id: $id) { ... on Todo { id text complete } } }
        fragment Name_user on User { name }
        fragment Text_todo on Todo { text }
        fragment Todo_user on User { todos(first: 2) { edges { node { text } } } }
        """)

    func publish(_ store: RecordStore, _ op: String, _ variables: Variables, _ data: String) throws -> UpdatedRecordIDs
    {
        try store.commit(
            response: Array(#"{"data":\#(data)}"#.utf8),
            plan: NormalizationPlan(operation: Self.docs.operations[op]!, variables: variables))
    }

    func fragment(_ name: String, _ id: String) -> ReadSelector {
        ReadSelector(node: .fragment(Self.docs.fragments[name]!), dataID: id, variables: [:], owner: nil)
    }

    /// relay's worked example (S1–S4): a field change calls those whose data changed; one whose
    /// selection does not read it is re-read silently; a record not yet fetched calls its reader
    /// when it arrives; publishing the same payload again calls nobody.
    func testRelaysWorkedExample() throws {
        let store = RecordStore()
        let me: Variables = ["id": .string("4")]
        _ = try publish(store, "UserQuery", me, #"{"user":{"id":"4","name":"Zuck"}}"#)
        let subs = StoreSubscriptions(store: store)
        var calls: [String] = []
        let (s1First, _) = subs.subscribe(fragment("Name_user", "4")) { _ in calls.append("S1") }
        _ = subs.subscribe(.operation(Self.docs.operations["UserQuery"]!, variables: me)) { _ in calls.append("S2") }
        _ = subs.subscribe(fragment("Todo_user", "4")) { _ in calls.append("S3") }
        let (s4First, s4) = subs.subscribe(fragment("Name_user", "5")) { _ in calls.append("S4") }
        XCTAssertEqual(s1First.data?["name"], .string("Zuck"))
        XCTAssertTrue(s4First.isMissingData)

        subs.notify(try publish(store, "UserQuery", me, #"{"user":{"id":"4","name":"Mark"}}"#))
        XCTAssertEqual(calls, ["S1", "S2"])  // S3 re-read (it saw "4") but its data is the same

        calls = []
        subs.notify(try publish(store, "UserQuery", ["id": .string("5")], #"{"user":{"id":"5","name":"Priscilla"}}"#))
        XCTAssertEqual(calls, ["S4"])
        XCTAssertEqual(subs.result(s4)?.data?["name"], .string("Priscilla"))
        XCTAssertEqual(subs.result(s4)?.isMissingData, false)

        calls = []
        XCTAssertEqual(subs.notify(try publish(store, "UserQuery", me, #"{"user":{"id":"4","name":"Mark"}}"#)), [])
        XCTAssertEqual(calls, [])
    }

    /// A subscription made on a store holding only its root survives the first publish, which
    /// gives the store the payload's arena (and its numbering of records) whole.
    func testSubscriptionsOnAnEmptyStoreFollowItsFirstPublish() throws {
        let store = RecordStore()
        let subs = StoreSubscriptions(store: store)
        let op = Self.docs.operations["TodoQuery"]!
        var seen: [ReadValue?] = []
        _ = subs.subscribe(.operation(op, variables: ["id": .string("t1")])) { seen.append($0.data) }
        _ = subs.subscribe(fragment("Text_todo", "t1")) { seen.append($0.data) }
        subs.notify(
            try publish(
                store, "TodoQuery", ["id": .string("t1")],
                #"{"node":{"__typename":"Todo","id":"t1","text":"a","complete":false}}"#))
        XCTAssertEqual(seen.count, 2)
        XCTAssertEqual(seen.last??["text"], .string("a"))
        // And the index still finds them after the renumbering.
        subs.notify(
            try publish(
                store, "TodoQuery", ["id": .string("t1")],
                #"{"node":{"__typename":"Todo","id":"t1","text":"b","complete":false}}"#))
        XCTAssertEqual(seen.count, 4)
        XCTAssertEqual(seen.last??["text"], .string("b"))
    }

    /// Ended subscriptions are neither re-read nor called; a callback may end another.
    func testUnsubscribeAndOrder() throws {
        let store = RecordStore()
        _ = try publish(store, "UserQuery", ["id": .string("4")], #"{"user":{"id":"4","name":"A"}}"#)
        let subs = StoreSubscriptions(store: store)
        var calls: [Int] = []
        var ids: [SubscriptionID] = []
        for i in 0..<5 {
            let (_, id) = subs.subscribe(fragment("Name_user", "4")) { _ in
                calls.append(i)
                if i == 1 { subs.unsubscribe(ids[3]) }
            }
            ids.append(id)
        }
        subs.unsubscribe(ids[0])
        subs.unsubscribe(ids[0])  // twice: nothing
        subs.notify(try publish(store, "UserQuery", ["id": .string("4")], #"{"user":{"id":"4","name":"B"}}"#))
        XCTAssertEqual(calls, [1, 2, 4])
        XCTAssertEqual(subs.count, 3)
        // The record's index holds the rest whichever ended first, the first made or the last.
        calls = []
        subs.unsubscribe(ids[4])
        subs.notify(try publish(store, "UserQuery", ["id": .string("4")], #"{"user":{"id":"4","name":"C"}}"#))
        XCTAssertEqual(calls, [1, 2])
        calls = []
        subs.unsubscribe(ids[1])
        subs.unsubscribe(ids[2])
        subs.notify(try publish(store, "UserQuery", ["id": .string("4")], #"{"user":{"id":"4","name":"D"}}"#))
        XCTAssertEqual(calls, [])
        XCTAssertEqual(subs.lastReReadCount, 0)
    }

    /// A callback that publishes notifies in turn; a subscription ended in that inner round is
    /// not called by the outer one, and one the inner round called with newer data is not called
    /// again with older data by the outer one.
    func testACallbackMayPublishAndEndALaterSubscription() throws {
        let store = RecordStore()
        let me: Variables = ["id": .string("4")]
        _ = try publish(store, "UserQuery", me, #"{"user":{"id":"4","name":"A"}}"#)
        let subs = StoreSubscriptions(store: store)
        var calls: [String] = []
        var ids: [SubscriptionID] = []
        for i in 0..<3 {
            let (_, id) = subs.subscribe(fragment("Name_user", "4")) { result in
                let name = result.data?["name"]
                calls.append("\(i):\(name.map { "\($0)" } ?? "nil")")
                if i == 0, name == .string("B") {
                    subs.unsubscribe(ids[1])
                    subs.notify(try! self.publish(store, "UserQuery", me, #"{"user":{"id":"4","name":"C"}}"#))
                }
            }
            ids.append(id)
        }
        subs.notify(try publish(store, "UserQuery", me, #"{"user":{"id":"4","name":"B"}}"#))
        // Inner round (C): 0 and 2; the outer round's 2 (B) is already past; 1 never.
        XCTAssertEqual(calls, [#"0:string("B")"#, #"0:string("C")"#, #"2:string("C")"#])
        XCTAssertEqual(subs.count, 2)
        XCTAssertEqual(subs.result(ids[2])?.data?["name"], .string("C"))
    }

    /// The cost follows what changed: with many subscriptions on other records, a publish that
    /// touches one record re-reads only that record's subscriptions.
    func testOnlyTheSubscriptionsOfUpdatedRecordsAreReRead() throws {
        let store = RecordStore()
        let op = Self.docs.operations["TodoQuery"]!
        for i in 0..<200 {
            _ = try publish(
                store, "TodoQuery", ["id": .string("t\(i)")],
                #"{"node":{"__typename":"Todo","id":"t\#(i)","text":"x","complete":false}}"#)
        }
        let subs = StoreSubscriptions(store: store)
        var calls: [Int] = []
        for i in 0..<200 { _ = subs.subscribe(fragment("Text_todo", "t\(i)")) { _ in calls.append(i) } }
        let updated = try publish(
            store, "TodoQuery", ["id": .string("t7")],
            #"{"node":{"__typename":"Todo","id":"t7","text":"y","complete":false}}"#)
        XCTAssertEqual(Array(updated), ["t7"])
        XCTAssertEqual(subs.notify(updated).count, 1)
        XCTAssertEqual(calls, [7])
        XCTAssertEqual(subs.lastReReadCount, 1)
        _ = op
    }

    /// A repointed subscription is re-read at the next notify whatever that publish updated,
    /// called when its data changed, then follows its new records (and no longer its old ones).
    func testRepointReReadsAtTheNextNotifyInPlace() throws {
        let store = RecordStore()
        let todo = { (id: String, text: String) in
            #"{"node":{"__typename":"Todo","id":"\#(id)","text":"\#(text)","complete":false}}"#
        }
        _ = try publish(store, "TodoQuery", ["id": .string("t1")], todo("t1", "one"))
        _ = try publish(store, "TodoQuery", ["id": .string("t2")], todo("t2", "two"))
        let subs = StoreSubscriptions(store: store)
        var calls: [String] = []
        let (_, a) = subs.subscribe(fragment("Text_todo", "t1")) {
            calls.append("a:\($0.data?["text"]?.jsonText ?? "")")
        }
        _ = subs.subscribe(fragment("Text_todo", "t1")) { calls.append("b:\($0.data?["text"]?.jsonText ?? "")") }
        subs.repoint(a, to: fragment("Text_todo", "t2"))
        XCTAssertEqual(subs.selector(a)?.dataID, "t2")
        // A publish that updates nothing: `a` is re-read all the same.
        XCTAssertEqual(subs.notify(try publish(store, "TodoQuery", ["id": .string("t1")], todo("t1", "one"))), [a])
        XCTAssertEqual(calls, [#"a:"two""#])
        calls = []
        // t2 changes: `a` follows it now, `b` does not.
        subs.notify(try publish(store, "TodoQuery", ["id": .string("t2")], todo("t2", "dos")))
        XCTAssertEqual(calls, [#"a:"dos""#])
        calls = []
        subs.notify(try publish(store, "TodoQuery", ["id": .string("t1")], todo("t1", "eins")))
        XCTAssertEqual(calls, [#"b:"eins""#], "a no longer follows t1")
    }

    /// A subscription keeps its own copy of a data ID too long to be held inline (over 15 bytes):
    /// it reads, follows and repoints by that ID.
    func testLongDataIDsAreFollowedByValue() throws {
        let store = RecordStore()
        let long = { (n: Int) in "Todo:a-data-id-longer-than-fifteen-bytes-\(n)" }
        let todo = { (id: String, text: String) in
            #"{"node":{"__typename":"Todo","id":"\#(id)","text":"\#(text)","complete":false}}"#
        }
        for n in 1...2 { _ = try publish(store, "TodoQuery", ["id": .string(long(n))], todo(long(n), "t\(n)")) }
        let subs = StoreSubscriptions(store: store)
        var calls: [String] = []
        let (first, sub) = subs.subscribe(fragment("Text_todo", long(1))) {
            calls.append($0.data?["text"]?.jsonText ?? "")
        }
        XCTAssertEqual(first.data?["text"]?.jsonText, #""t1""#)
        XCTAssertEqual(first.seenRecords, [long(1)])
        subs.notify(try publish(store, "TodoQuery", ["id": .string(long(1))], todo(long(1), "one")))
        XCTAssertEqual(calls, [#""one""#])
        subs.repoint(sub, to: fragment("Text_todo", long(2)))
        XCTAssertEqual(subs.selector(sub)?.dataID, long(2))
        subs.notify(try publish(store, "TodoQuery", ["id": .string(long(1))], todo(long(1), "uno")))
        XCTAssertEqual(calls, [#""one""#, #""t2""#], "re-read at its new record, not called for the old one")
        subs.notify(try publish(store, "TodoQuery", ["id": .string(long(2))], todo(long(2), "two")))
        XCTAssertEqual(calls, [#""one""#, #""t2""#, #""two""#])
        XCTAssertEqual(subs.result(sub)?.seenRecords, [long(2)])
    }

    /// The table keeps seen records as runs of symbols in one pool, and packs the pool when
    /// replaced runs are most of it: after thousands of re-reads that change what subscriptions
    /// saw (a user linked, unlinked, linked again), each still follows exactly its records.
    func testSeenRecordsFollowedThroughManyChangesOfWhatWasSeen() throws {
        let store = RecordStore()
        let users = 40
        let vars = { (n: Int) -> Variables in ["id": .string("\(n)")] }
        for n in 0..<users { _ = try publish(store, "UserQuery", vars(n), #"{"user":{"id":"\#(n)","name":"u\#(n)"}}"#) }
        let subs = StoreSubscriptions(store: store)
        var queries: [SubscriptionID] = []
        var names: [SubscriptionID] = []
        for n in 0..<users {
            queries.append(
                subs.subscribe(.operation(Self.docs.operations["UserQuery"]!, variables: vars(n))) { _ in }.1)
            names.append(subs.subscribe(fragment("Name_user", "\(n)")) { _ in }.1)
        }
        // Each round unlinks and relinks one user: the query's seen set changes twice a round, and
        // its replaced runs (three symbols a round) pass the packing threshold several times.
        var lastName: [Int: String] = [:]
        for round in 0..<1200 {
            let n = round % users
            subs.notify(try publish(store, "UserQuery", vars(n), #"{"user":null}"#))
            XCTAssertEqual(subs.result(queries[n])?.seenRecords, [RecordStore.rootID])
            subs.notify(try publish(store, "UserQuery", vars(n), #"{"user":{"id":"\#(n)","name":"r\#(round)"}}"#))
            XCTAssertEqual(subs.result(queries[n])?.seenRecords, [RecordStore.rootID, "\(n)"])
            lastName[n] = "r\(round)"
        }
        // A change of one user's name re-reads that user's query and name fragment, and no other
        // (the root's link is unchanged, so the root is not updated).
        subs.notify(try publish(store, "UserQuery", vars(7), #"{"user":{"id":"7","name":"seven"}}"#))
        XCTAssertEqual(subs.lastReReadCount, 2)
        XCTAssertEqual(subs.result(names[7])?.data?["name"], .string("seven"))
        XCTAssertEqual(subs.result(queries[7])?.data?["user"]?["name"], .string("seven"))
        XCTAssertEqual(subs.result(names[8])?.data?["name"], .string(lastName[8]!))
        for id in queries { subs.unsubscribe(id) }
        subs.notify(try publish(store, "UserQuery", vars(8), #"{"user":{"id":"8","name":"eight"}}"#))
        XCTAssertEqual(subs.lastReReadCount, 1, "only the name fragment of 8 is left to re-read")
        XCTAssertEqual(subs.result(names[8])?.data?["name"], .string("eight"))
    }

    /// A re-read's seen records are what it visited this time (a re-read hands back the last
    /// read's set only when it saw just that one record again): the same record, a linked record
    /// gone, a linked record back.
    func testAReReadSeesWhatItVisitsNow() throws {
        let store = RecordStore()
        let me: Variables = ["id": .string("4")]
        _ = try publish(store, "UserQuery", me, #"{"user":{"id":"4","name":"Zuck"}}"#)
        let subs = StoreSubscriptions(store: store)
        let (nameFirst, name) = subs.subscribe(fragment("Name_user", "4")) { _ in }
        let (queryFirst, query) = subs.subscribe(.operation(Self.docs.operations["UserQuery"]!, variables: me)) { _ in }
        XCTAssertEqual(nameFirst.seenRecords, ["4"])
        XCTAssertEqual(queryFirst.seenRecords, [RecordStore.rootID, "4"])

        subs.notify(try publish(store, "UserQuery", me, #"{"user":{"id":"4","name":"Mark"}}"#))
        XCTAssertEqual(subs.result(name)?.seenRecords, ["4"])
        XCTAssertEqual(subs.result(name)?.data?["name"], .string("Mark"))
        XCTAssertEqual(subs.result(query)?.seenRecords, [RecordStore.rootID, "4"])

        subs.notify(try publish(store, "UserQuery", me, #"{"user":null}"#))
        XCTAssertEqual(subs.result(query)?.seenRecords, [RecordStore.rootID])
        XCTAssertEqual(subs.result(query)?.data?["user"], .null)

        subs.notify(try publish(store, "UserQuery", me, #"{"user":{"id":"4","name":"Mark"}}"#))
        XCTAssertEqual(subs.result(query)?.seenRecords, [RecordStore.rootID, "4"])
        // And the index follows: a change of "4" alone re-reads both again.
        subs.notify(try publish(store, "UserQuery", me, #"{"user":{"id":"4","name":"Zuck"}}"#))
        XCTAssertEqual(subs.lastReReadCount, 2)
        XCTAssertEqual(subs.result(query)?.data?["user"]?["name"], .string("Zuck"))
    }
}
