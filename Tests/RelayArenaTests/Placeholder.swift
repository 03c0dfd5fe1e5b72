import XCTest
final class RelayArenaTestsPlaceholder: XCTestCase { func testNothingYet() {} }
