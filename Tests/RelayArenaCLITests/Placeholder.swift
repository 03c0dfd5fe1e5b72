import XCTest
final class RelayArenaCLITestsPlaceholder: XCTestCase { func testNothingYet() {} }
