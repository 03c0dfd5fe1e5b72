// Unit tests of the static storage-key formatting: JSON.stringify string escaping, sorted object
// keys, serde_json float output, null arguments skipped (semantics doc §2.1 step 4).
import RelayArena
import XCTest

@testable import RelayArenaCompiler

final class StorageKeyFormatterTests: XCTestCase {
    func testNoSurvivingArgumentsGivesTheName() {
        XCTAssertEqual(StorageKeyFormatter.format(name: "todos", args: []), "todos")
        XCTAssertEqual(StorageKeyFormatter.format(name: "todos", args: [("after", .null)]), "todos")
    }

    func testArgumentsSortedByCodeUnitsAndNullsSkipped() {
        let key = StorageKeyFormatter.format(
            name: "f", args: [("b", .int(1)), ("after", .null), ("Z", .bool(false)), ("a", .int(0))])
        XCTAssertEqual(key, "f(Z:false,a:0,b:1)")
    }

    func testStableStorageKeyExampleFromRelay() {
        // getStableStorageKey('foo', {first:10, orderBy:['name','age'], filter:{minSize:200, color:'red'}})
        let key = StorageKeyFormatter.format(
            name: "foo",
            args: [
                ("first", .int(10)),
                ("orderBy", .array([.string("name"), .string("age")])),
                ("filter", .object([JSONMember("minSize", .int(200)), JSONMember("color", .string("red"))])),
            ])
        XCTAssertEqual(key, #"foo(filter:{"color":"red","minSize":200},first:10,orderBy:["name","age"])"#)
    }

    func testNullsInsideObjectsAndListsAreKept() {
        let value = JSONValue.object([JSONMember("b", .array([.null, .int(1)])), JSONMember("a", .null)])
        XCTAssertEqual(StorageKeyFormatter.stringify(value), #"{"a":null,"b":[null,1]}"#)
    }

    func testStringEscapingMatchesJSONStringify() {
        XCTAssertEqual(StorageKeyFormatter.stringify(.string("a\"b\\c")), #""a\"b\\c""#)
        XCTAssertEqual(StorageKeyFormatter.stringify(.string("\n\t\r\u{08}\u{0C}")), #""\n\t\r\b\f""#)
        XCTAssertEqual(StorageKeyFormatter.stringify(.string("\u{01}\u{1F}\u{0B}")), #""\u0001\u001f\u000b""#)
        XCTAssertEqual(StorageKeyFormatter.stringify(.string("a/b\u{7F}")), "\"a/b\u{7F}\"")
        XCTAssertEqual(StorageKeyFormatter.stringify(.string("José 日本 😀")), "\"José 日本 😀\"")
    }

    func testScalars() {
        XCTAssertEqual(StorageKeyFormatter.stringify(.bool(true)), "true")
        XCTAssertEqual(StorageKeyFormatter.stringify(.int(-42)), "-42")
        XCTAssertEqual(StorageKeyFormatter.stringify(.int(Int64.max)), "9223372036854775807")
        XCTAssertEqual(StorageKeyFormatter.stringify(.array([])), "[]")
        XCTAssertEqual(StorageKeyFormatter.stringify(.object([])), "{}")
    }

    func testFloatsFormatLikeSerdeJSON() {
        let cases: [(Double, String)] = [
            (2.0, "2.0"), (0.0, "0.0"), (-0.0, "-0.0"), (1.5, "1.5"), (-2.5, "-2.5"), (0.1, "0.1"),
            (123456.789, "123456.789"), (1e15, "1000000000000000.0"), (1e16, "1e16"), (1.5e17, "1.5e17"),
            (1e21, "1e21"), (0.0001, "0.0001"), (0.00001, "0.00001"), (1e-6, "1e-6"), (1.5e-7, "1.5e-7"),
            (Double.leastNonzeroMagnitude, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e308"),
            (12345678901234567890.0, "1.2345678901234567e19"), (0.3, "0.3"), (100.25, "100.25"),
        ]
        for (value, expected) in cases {
            XCTAssertEqual(StorageKeyFormatter.formatDouble(value), expected, "\(value)")
        }
        XCTAssertEqual(StorageKeyFormatter.formatDouble(.infinity), "null")
    }
}
