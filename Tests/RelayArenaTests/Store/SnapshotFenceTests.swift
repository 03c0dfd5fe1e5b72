// The snapshot fence: a value borrowed from a snapshot (text, a link list, the snapshot itself)
// traps when used after its withSnapshot closure returned, even once the store is gone.
import Foundation
import RelayArena
import XCTest

final class SnapshotFenceTests: XCTestCase {
    /// Names the misuse the child process commits; unset, the child test does nothing.
    static let childVariable = "RELAY_ARENA_FENCE_CHILD"
    static let message = "used after its withSnapshot closure returned"

    static func store() throws -> RecordStore {
        try RecordStore(
            relayJSON: Array(
                #"""
                {"client:root":{"__id":"client:root","__typename":"__Root","me":{"__ref":"U"}},
                 "U":{"__id":"U","__typename":"User","name":"Ada","friends":{"__refs":["U",null]}}}
                """#.utf8))
    }

    func testBorrowedValuesWorkInsideTheSnapshot() throws {
        let store = try Self.store()
        store.withSnapshot { s in
            guard case .record(let u) = s.record("U"), case .string(let name)? = s.field(u, "name"),
                case .links(let friends)? = s.field(u, "friends")
            else { return XCTFail("fixture") }
            XCTAssertEqual(name.count, 3)
            XCTAssertTrue(name == "Ada")
            XCTAssertEqual(name.withUnsafeBytes { Array($0) }, Array("Ada".utf8))
            XCTAssertEqual(friends.map { $0.map { s.text($0).string } }, ["U", nil])
        }
    }

    /// The child: commits the misuse `RELAY_ARENA_FENCE_CHILD` names; it should trap.
    func testEscapedValueChild() throws {
        guard let misuse = ProcessInfo.processInfo.environment[Self.childVariable] else { return }
        var store: RecordStore? = try Self.store()
        switch misuse {
        case "text":
            let name = store!.withSnapshot { s -> BorrowedUTF8 in
                guard case .record(let u) = s.record("U"), case .string(let t)? = s.field(u, "name") else {
                    fatalError("fixture")
                }
                return t
            }
            store = nil  // the arena is freed: reading `name` now would read freed memory
            print(name.string)
        case "links":
            let friends = store!.withSnapshot { s -> LinkList in
                guard case .record(let u) = s.record("U"), case .links(let l)? = s.field(u, "friends") else {
                    fatalError("fixture")
                }
                return l
            }
            print(friends[0] as Any)
        case "snapshot":
            let snapshot = store!.withSnapshot { $0 }
            print(snapshot.record("U"))
        default:
            XCTFail("unknown misuse \(misuse)")
        }
    }

    func testEscapedTextTraps() throws { try expectTrap("text") }
    func testEscapedLinkListTraps() throws { try expectTrap("links") }
    func testEscapedSnapshotTraps() throws { try expectTrap("snapshot") }

    /// Runs this test binary again on `testEscapedValueChild` alone, with the misuse named, and
    /// requires it to die with the fence's message.
    func expectTrap(_ misuse: String) throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["RelayArenaTests.SnapshotFenceTests/testEscapedValueChild"]
        // No crash backtracer: it would hold the child's stderr open (for minutes in a sanitizer
        // build) after the trap, and the message comes before it anyway.
        child.environment = ProcessInfo.processInfo.environment.merging(
            [Self.childVariable: misuse, "SWIFT_BACKTRACE": "enable=no"]) { $1 }
        let stderr = Pipe()
        child.standardError = stderr
        child.standardOutput = FileHandle.nullDevice
        try child.run()
        let text = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        XCTAssertEqual(child.terminationReason, .uncaughtSignal, "the escaped \(misuse) did not trap: \(text)")
        XCTAssertTrue(text.contains(Self.message), "no fence message for the escaped \(misuse): \(text)")
    }
}
