// `@inline` fragments in generated views: the parent view's `readInlineData(F.self)` returns F's
// typed view over the same record, read with F's variables (`@arguments`, else its defaults);
// an aliased spread (conditional, so optional) is a member under its alias. F's fields stay
// masked on the parent (see MaskingCompileTests).
import RelayArena
import XCTest

final class InlineDataTests: XCTestCase {
    private static let response = #"""
        {"data":{"user":{"id":"me","name":"Me","email":"me@example.com",
          "bestFriend":{"name":"Pal","id":"pal"},"avatar":{"url":"https://example.com/me-64.png"}}}}
        """#

    func testReadInlineDataWithArgumentsAndCondition() throws {
        let query = InlineDataUserQuery(size: 64)
        let store = try store(query, Self.response)
        try store.withSnapshot { snapshot in
            let (data, missing) = snapshot.read(query)
            XCTAssertFalse(missing)
            let user = try XCTUnwrap(data?.user)
            let summary = try XCTUnwrap(user.summary)
            XCTAssertEqual(summary.name, "Me")
            XCTAssertEqual(summary.email, "me@example.com")
            XCTAssertEqual(summary.bestFriend?.name, "Pal")
            // `avatar(size: $size)` with the spread's `@arguments(size: $size)`: the fetched key.
            XCTAssertEqual(user.readInlineData(UserInlineAvatar_user.self).avatar?.url, "https://example.com/me-64.png")
        }
    }

    func testFragmentDefaultAndSkippedSpread() throws {
        // `$size` unset: the spread passes null (relay keeps the passed undefined), so both the
        // normalized key and the inline read are `avatar` without a size — not the default 32.
        let query = InlineDataUserQuery(withSummary: false)
        let store = try store(query, #"{"data":{"user":{"id":"me","avatar":{"url":"plain"}}}}"#)
        try store.withSnapshot { snapshot in
            let (data, missing) = snapshot.read(query)
            XCTAssertFalse(missing)
            let user = try XCTUnwrap(data?.user)
            XCTAssertNil(user.summary, "@include(if: false)")
            XCTAssertEqual(user.readInlineData(UserInlineAvatar_user.self).avatar?.url, "plain")
            // Through a pointer, with no spread to pass arguments, the fragment's default applies:
            // `avatar(size:32)` was never fetched.
            let pointer = FragmentPointer<UserInlineAvatar_user>(dataID: "me")
            let (viaPointer, pointerMissing) = snapshot.read(UserInlineAvatar_user.self, pointer)
            XCTAssertNil(viaPointer?.avatar)
            XCTAssertTrue(pointerMissing)
        }
    }

    func testUntypedReadShowsInlineDataWithoutOwner() throws {
        let query = InlineDataUserQuery(size: 64)
        let store = try store(query, Self.response)
        let result = store.read(operation: InlineDataUserQuery.artifact, variables: query.variables.asJSON)
        XCTAssertEqual(
            result.jsonText,
            #"{"data":{"user":{"id":"me","summary":{"__id":"me","__fragments":{"#
                + #""UserInlineSummary_user":{"name":"Me","email":"me@example.com","bestFriend":{"name":"Pal"}}}},"#
                + #""__id":"me","__fragments":{"#
                + #""UserInlineAvatar_user":{"avatar":{"url":"https://example.com/me-64.png"}}}}},"isMissingData":false}"#
        )
        XCTAssertTrue(result.seenRecords.isSuperset(of: ["me", "pal", "client:me:avatar(size:64)"]))
    }

    func testTypedInlineDataIsTheFragmentsOwnView() {
        // The accessor's type is the fragment's Data, not a pointer (compile-time check).
        let _: (InlineDataUserQuery.Data.User) -> UserInlineAvatar_user.Data = {
            $0.readInlineData(UserInlineAvatar_user.self)
        }
        let _: (InlineDataUserQuery.Data.User) -> UserInlineSummary_user.Data? = { $0.summary }
    }
}
