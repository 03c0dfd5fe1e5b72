// JSON text read into JSONValue (variables, custom scalars, stored errors): members in the order
// written, escapes and surrogate pairs, numbers as integers when they are, and bad or deeply
// nested text refused with where.
import RelayArena
import XCTest

final class JSONTextParsingTests: XCTestCase {
    func testMembersKeepTheirOrder() throws {
        let keys = (0..<40).map { "k\(($0 * 7919) % 97)" }
        let text = "{" + keys.map { "\"\($0)\":1" }.joined(separator: ",") + "}"
        guard case .object(let members) = try JSONValue(parsing: text) else { return XCTFail("not an object") }
        XCTAssertEqual(members.map(\.key), keys)
        XCTAssertEqual(
            try JSONValue(parsing: #"{"message":"m","extensions":{"code":"E1"}}"#),
            .object([
                JSONMember("message", .string("m")),
                JSONMember("extensions", .object([JSONMember("code", .string("E1"))])),
            ]))
    }

    func testScalarsEscapesAndNumbers() throws {
        XCTAssertEqual(
            try JSONValue(
                parsing: #" [true, false, null, -12, 1.5, 1e3, 9223372036854775808, "a\"\\\/\n\u00e9\ud83d\ude00"] "#),
            .array([
                .bool(true), .bool(false), .null, .int(-12), .double(1.5), .double(1000),
                .double(9_223_372_036_854_775_808),
                .string("a\"\\/\né😀"),
            ]))
    }

    func testBadTextIsRefusedWithWhere() {
        for bad in ["", "{", #"{"a" 1}"#, "[1,]", "tru", #""a"#, "\"\u{01}\"", "1 2", "-", #"{"a":1,}"#] {
            XCTAssertThrowsError(try JSONValue(parsing: bad), bad) { error in
                XCTAssertTrue("\(error)".contains("invalid JSON"), "\(error)")
            }
        }
        XCTAssertThrowsError(try JSONValue(parsing: "[1, x]")) { error in
            XCTAssertTrue("\(error)".contains("at byte 4"), "\(error)")
        }
    }

    func testNestingIsBounded() throws {
        XCTAssertNoThrow(
            try JSONValue(parsing: String(repeating: "[", count: 500) + String(repeating: "]", count: 500)))
        XCTAssertThrowsError(try JSONValue(parsing: String(repeating: "[", count: 100_000))) { error in
            XCTAssertTrue("\(error)".contains("nested more than 512 levels"), "\(error)")
        }
    }
}
