import XCTest
final class RelayArenaCompilerTestsPlaceholder: XCTestCase { func testNothingYet() {} }
