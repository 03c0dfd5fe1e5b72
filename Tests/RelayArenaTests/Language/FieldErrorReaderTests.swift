// relay's field errors in the reader, ported from RelayReader-RequiredFields-test.js and
// RelayReader-CatchFields-test.js and the worked example of relay's v19 field-error handling:
// `fieldErrors` (server errors stored on null fields, missing data, `@required`), `@required`
// bubbling to the nearest nullable parent, `@catch` as a result or null, `@throwOnFieldError`.
// Stores are relay's records (toJSON), or a real response with `errors` through the normalizer.
import RelayArena
import RelayArenaCompiler
import XCTest

final class FieldErrorReaderTests: XCTestCase {
    static let schema = """
        type Query { me: User }
        type User {
          id: ID!
          firstName: String
          lastName: String
          name: String
          emailAddresses: [String]
          backgroundImage: Image
          screennames: [Screenname]
          bestFriend: Friend
        }
        type Image { uri: String }
        type Screenname { name: String service: String }
        type Friend { id: ID! name: String! }
        """

    static func compile(_ document: String) throws -> CompiledDocuments {
        try Compiler(schema: GraphQLSourceFile(name: "schema.graphql", text: schema)).compile([
            GraphQLSourceFile(name: "doc.graphql", text: document)
        ])
    }

    /// `client:root.me` → `1` of `fields`, plus the other records given.
    static func store(_ me: String, _ others: String = "") throws -> RecordStore {
        let json = #"""
            {"client:root":{"__id":"client:root","__typename":"__Root","me":{"__ref":"1"}},
             "1":{"__id":"1","id":"1","__typename":"User"\#(me.isEmpty ? "" : "," + me)}\#(others.isEmpty ? "" : "," + others)}
            """#
        return try RecordStore(relayJSON: Array(json.utf8))
    }

    static let image = #""client:2":{"__id":"client:2","__typename":"Image","uri":null}"#

    func read(_ store: RecordStore, _ document: String, _ variables: Variables = [:]) throws -> ReadResult {
        let docs = try Self.compile(document)
        return store.read(operation: docs.operations.values.first!, variables: variables)
    }

    // MARK: @required (RelayReader-RequiredFields-test.js)

    func testRequiredLogBubblesToTheLinkedField() throws {
        let r = try read(
            try Self.store(#""firstName":"Alice","lastName":null"#),
            "query Q { me { firstName lastName @required(action: LOG) } }")
        XCTAssertEqual(r.data?.jsonText, #"{"me":null}"#)
        XCTAssertEqual(
            r.fieldErrors, [FieldError(kind: .missingRequiredFieldLog, owner: "Q", fieldPath: "me.lastName")])
        XCTAssertNil(r.throwingFieldError(), "LOG never throws")
    }

    func testRequiredBubblesToAnAliasedInlineFragment() throws {
        let store = try Self.store(#""backgroundImage":{"__ref":"client:2"}"#, Self.image)
        for inline in ["... @alias(as: \"requiredFields\")", "... on User @alias(as: \"requiredFields\")"] {
            let r = try read(
                store,
                "query Q { me { \(inline) { backgroundImage @required(action: LOG) { uri @required(action: LOG) } } } }"
            )
            XCTAssertEqual(r.data?.jsonText, #"{"me":{"requiredFields":null}}"#, inline)
        }
    }

    func testTwoCascadingThrowsReportTheDeeperOne() throws {
        let r = try read(
            try Self.store(#""lastName":null"#),
            "query Q { me @required(action: THROW) { lastName @required(action: THROW) } }")
        XCTAssertEqual(r.data, .null)
        XCTAssertEqual(r.fieldErrors.first?.fieldPath, "me.lastName")
        XCTAssertEqual(
            r.throwingFieldError()?.description, "Relay: Missing @required value at path 'me.lastName' in 'Q'.")
        XCTAssertTrue(
            r.jsonText.hasPrefix(#"{"throws":"Relay: Missing @required value at path 'me.lastName' in 'Q'.""#),
            r.jsonText)
    }

    func testLaterSiblingsDoNotSaveTheParent() throws {
        let r = try read(
            try Self.store(#""firstName":"Alice","lastName":null"#),
            "query Q { me { lastName @required(action: LOG) firstName @required(action: LOG) } }")
        XCTAssertEqual(r.data?.jsonText, #"{"me":null}"#)
    }

    func testOnlyTheNearestNullableParentIsNulled() throws {
        let store = try Self.store(#""backgroundImage":{"__ref":"client:2"}"#, Self.image)
        let r = try read(store, "query Q { me { backgroundImage { uri @required(action: LOG) } } }")
        XCTAssertEqual(r.data?.jsonText, #"{"me":{"backgroundImage":null}}"#)
        let through = try read(
            store, "query Q { me { backgroundImage @required(action: LOG) { uri @required(action: LOG) } } }")
        XCTAssertEqual(through.data?.jsonText, #"{"me":null}"#)
        let root = try read(
            try Self.store(#""lastName":null"#),
            "query Q { me @required(action: LOG) { lastName @required(action: LOG) } }")
        XCTAssertEqual(root.data, .null, "bubbles to the query root")
    }

    func testAPluralItemIsNulledNotTheList() throws {
        let store = try Self.store(
            #""screennames":{"__refs":["client:5:screennames:0","client:5:screennames:1"]}"#,
            #""client:5:screennames:0":{"__id":"client:5:screennames:0","__typename":"Screenname","name":"neo","service":"IRC"},"#
                + #""client:5:screennames:1":{"__id":"client:5:screennames:1","__typename":"Screenname","name":"beast","service":null}"#
        )
        for directive in ["", " @required(action: LOG)"] {
            let r = try read(
                store, "query Q { me { screennames\(directive) { name service @required(action: LOG) } } }")
            XCTAssertEqual(r.data?.jsonText, #"{"me":{"screennames":[{"name":"neo","service":"IRC"},null]}}"#)
            XCTAssertEqual(r.fieldErrors.map(\.fieldPath), ["me.screennames.1.service"])
        }
    }

    func testARequiredNullScalarListAndConditions() throws {
        let store = try Self.store(#""emailAddresses":null,"name":"Zucc""#)
        XCTAssertEqual(
            try read(store, "query Q { me { emailAddresses @required(action: LOG) } }").data?.jsonText, #"{"me":null}"#)
        let q =
            "query Q($include: Boolean!) { me { emailAddresses @include(if: $include) @required(action: LOG) name } }"
        XCTAssertEqual(try read(store, q, ["include": .bool(true)]).data?.jsonText, #"{"me":null}"#)
        XCTAssertEqual(
            try read(store, q, ["include": .bool(false)]).data?.jsonText, #"{"me":{"name":"Zucc"}}"#,
            "not included: nothing to require")
    }

    func testRequiredNoneReportsNothing() throws {
        let r = try read(try Self.store(#""lastName":null"#), "query Q { me { lastName @required(action: NONE) } }")
        XCTAssertEqual(r.data?.jsonText, #"{"me":null}"#)
        XCTAssertEqual(r.fieldErrors, [])
    }

    // MARK: @catch (RelayReader-CatchFields-test.js)

    func testCatchToResultWrapsTheValue() throws {
        let store = try Self.store(#""firstName":"Alice","lastName":null"#)
        let ok = try read(store, "query Q { me @catch { firstName } }")
        XCTAssertEqual(ok.data?.jsonText, #"{"me":{"ok":true,"value":{"firstName":"Alice"}}}"#)
        let caught = try read(store, "query Q { me @catch { lastName @required(action: THROW) } }")
        XCTAssertEqual(
            caught.data?.jsonText,
            #"{"me":{"ok":false,"errors":[{"message":"Relay: Missing @required value at path 'me.lastName' in 'Q'."}]}}"#
        )
        XCTAssertNil(caught.throwingFieldError(), "caught, so handled")
        XCTAssertEqual(caught.fieldErrors.map(\.handled), [true])
    }

    func testCatchToNullOnAnyError() throws {
        let store = try Self.store(#""firstName":"Alice""#)
        // `lastName` was never fetched: missing data.
        let r = try read(store, "query Q { me @catch(to: NULL) { firstName lastName } }")
        XCTAssertEqual(r.data?.jsonText, #"{"me":null}"#)
        XCTAssertEqual(r.fieldErrors.map(\.kind), [.missingExpectedDataLog])
        XCTAssertTrue(r.isMissingData)
        let fine = try read(store, "query Q { me @catch(to: NULL) { firstName } }")
        XCTAssertEqual(fine.data?.jsonText, #"{"me":{"firstName":"Alice"}}"#)
    }

    func testCatchOnTheOperationAndOnAnAliasedInlineFragment() throws {
        let store = try Self.store(#""firstName":"Alice""#)
        let r = try read(store, "query Q @catch { me { lastName } }")
        XCTAssertEqual(r.data?.jsonText, #"{"ok":false,"errors":[{"path":["me","lastName"]}]}"#)
        let aliased = try read(
            store, "query Q { me { ... @alias(as: \"a\") @catch(to: NULL) { lastName } firstName } }")
        XCTAssertEqual(aliased.data?.jsonText, #"{"me":{"a":null,"firstName":"Alice"}}"#)
        XCTAssertThrowsError(try Self.compile("query Q { me { ... on User @catch { firstName } } }")) { error in
            XCTAssertEqual((error as? CompilerError)?.message, "Unexpected `@catch` on unaliased inline fragment.")
        }
        XCTAssertThrowsError(try Self.compile("query Q { me { firstName @catch @required(action: LOG) } }")) { error in
            XCTAssertEqual(
                (error as? CompilerError)?.message, "@catch and @required directives cannot be on the same field.")
        }
    }

    // MARK: The server's errors (relay's worked example)

    static let document = "query Q { me { id name bestFriend { id name } } }"
    static let response = #"""
        {"data": {"me": {"id": "u1", "name": null, "bestFriend": null}},
         "errors": [
           {"message": "name failed", "path": ["me", "name"], "locations": [{"line": 1, "column": 15}],
            "extensions": {"code": "E1"}},
           {"message": "friend name failed", "path": ["me", "bestFriend", "name"]},
           {"message": "rate limited"}]}
        """#

    func normalized(_ document: String) throws -> (RecordStore, OperationArtifact) {
        let docs = try Self.compile(document)
        let operation = docs.operations.values.first!
        let store = RecordStore()
        try store.commit(response: Array(Self.response.utf8), plan: try NormalizationPlan(operation: operation))
        return (store, operation)
    }

    func testServerErrorsAreReportedAtTheirFields() throws {
        let (store, operation) = try normalized(Self.document)
        let r = store.read(operation: operation)
        XCTAssertEqual(r.data?.jsonText, #"{"me":{"id":"u1","name":null,"bestFriend":null}}"#)
        XCTAssertEqual(r.fieldErrors.map(\.kind), [.payloadError, .payloadError])
        // The stored paths, as relay keeps them: none at the failing field, relative below it.
        XCTAssertEqual(r.fieldErrors.map(\.fieldPath), ["", "name"])
        XCTAssertEqual(
            r.fieldErrors[0].error,
            .object([
                JSONMember("message", .string("name failed")),
                JSONMember("extensions", .object([JSONMember("code", .string("E1"))])),
            ]))
        XCTAssertEqual(r.fieldErrors.map(\.shouldThrow), [false, false])
        XCTAssertNil(r.throwingFieldError())
        XCTAssertTrue(
            r.jsonText.contains(
                #""fieldErrors":[{"kind":"relay_field_payload.error","fieldPath":"","error":{"message":"name failed""#),
            r.jsonText)
    }

    func testCaughtServerErrorsLoseTheirMessage() throws {
        let (store, _) = try normalized(Self.document)
        let caught = try Self.compile("query Q { me @catch { id name bestFriend { id name } } }").operations["Q"]!
        let r = store.read(operation: caught)
        XCTAssertEqual(
            r.data?.jsonText, #"{"me":{"ok":false,"errors":[{"extensions":{"code":"E1"}},{"path":["name"]}]}}"#)
        XCTAssertEqual(r.fieldErrors.map(\.handled), [true, true])
    }

    func testARequiredFieldTheServerFailed() throws {
        let (store, _) = try normalized(Self.document)
        let required = try Self.compile("query Q { me { id name @required(action: LOG) bestFriend { id name } } }")
        let r = store.read(operation: required.operations["Q"]!)
        XCTAssertEqual(r.data?.jsonText, #"{"me":null}"#)
        XCTAssertEqual(r.fieldErrors.map(\.kind), [.payloadError, .missingRequiredFieldLog])
        XCTAssertEqual(r.fieldErrors.map(\.fieldPath), ["", "me.name"])
    }

    func testThrowOnFieldErrorThrowsRelaysMessage() throws {
        let (store, _) = try normalized(Self.document)
        let throwing = try Self.compile("query Q @throwOnFieldError { me { id name bestFriend { id name } } }")
        let r = store.read(operation: throwing.operations["Q"]!)
        XCTAssertEqual(r.fieldErrors.map(\.shouldThrow), [true, true])
        XCTAssertEqual(
            r.throwingFieldError()?.description, "Relay: Unexpected response payload - check server logs for details.")
        // A caught field does not throw, even there.
        let caught = try Self.compile(
            "query Q @throwOnFieldError { me { id name @catch(to: NULL) bestFriend @catch(to: NULL) { id name } } }")
        XCTAssertNil(store.read(operation: caught.operations["Q"]!).throwingFieldError())
    }

    func testMissingDataUnderThrowOnFieldErrorThrows() throws {
        let store = try Self.store(#""firstName":"Alice""#)
        let r = try read(store, "query Q @throwOnFieldError { me { firstName lastName } }")
        XCTAssertEqual(r.fieldErrors.map(\.kind), [.missingExpectedDataThrow])
        XCTAssertEqual(
            r.throwingFieldError()?.description, "Relay: Missing expected data at path 'me.lastName' in 'Q'.")
    }

    func testAFragmentsOwnDirectives() throws {
        let store = try Self.store(#""firstName":"Alice","lastName":null"#)
        let docs = try Self.compile(
            "fragment F on User @throwOnFieldError { lastName @required(action: LOG) firstName }\nquery Q { me { ...F } }"
        )
        let r = store.read(fragment: docs.fragments["F"]!, dataID: "1")
        XCTAssertEqual(r.data, .null)
        XCTAssertEqual(r.fieldErrors, [FieldError(kind: .missingRequiredFieldLog, owner: "F", fieldPath: "lastName")])
    }
}
