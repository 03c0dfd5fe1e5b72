// The C core's plan constructor is the boundary for plans built outside the Swift compiler: it
// must refuse what would make the normalizer read or write outside its tables.
import CRelayArena
import XCTest

final class PlanValidationTests: XCTestCase {
    /// Three scalar selections "a", "b", "c" grouped into `sets`; whether ra_plan_create accepts it.
    func accepts(_ sets: [ra_plan_set]) -> Bool {
        let strings = Array("abc".utf8CString.map { CChar($0) })
        let table = (0..<3).map { ra_plan_string(offset: UInt32($0), length: 1) }
        let sels = (0..<3).map {
            ra_plan_sel(
                kind: UInt32(RA_SEL_SCALAR), response_key: UInt32($0), storage_key: UInt32($0),
                concrete_type: RA_NONE, child_set: 0, shape: UInt32(RA_SHAPE_ANY), cond_first: 0, cond_count: 0)
        }
        var err = ra_error()
        guard let plan = ra_plan_create(strings, 3, table, 3, sets, UInt32(sets.count), sels, 3, nil, 0, nil, 0, &err)
        else {
            XCTAssertEqual(err.code, RA_ERR_PLAN)
            return false
        }
        ra_plan_destroy(plan)
        return true
    }

    func testSetsMustNotShareSelections() {
        let all = ra_plan_set(sel_first: 0, sel_count: 3, check_first: 0, check_count: 0)
        XCTAssertTrue(accepts([all]))
        XCTAssertTrue(
            accepts([
                ra_plan_set(sel_first: 0, sel_count: 1, check_first: 0, check_count: 0),
                ra_plan_set(sel_first: 1, sel_count: 2, check_first: 0, check_count: 0),
            ]))
        // Four sets over the same three selections overran the entries table before this check.
        XCTAssertFalse(accepts([all, all, all, all]))
        XCTAssertFalse(accepts([all, ra_plan_set(sel_first: 2, sel_count: 1, check_first: 0, check_count: 0)]))
        XCTAssertFalse(
            accepts([ra_plan_set(sel_first: 1, sel_count: 3, check_first: 0, check_count: 0)]), "past the end")
    }

    /// A string table may hold "__typename" twice (the C API does not forbid it): a selection
    /// stored under either is the record's type, never a field.
    func testTypenameUnderEitherOfTwoEqualStringsIsTheType() throws {
        let text = "__typename__typenamenamexrecord"
        let strings = Array(text.utf8CString.map { CChar($0) })
        // 0, 1: "__typename" twice; 2: "name"; 3: "x"; 4: "record"
        let table = [
            ra_plan_string(offset: 0, length: 10), ra_plan_string(offset: 10, length: 10),
            ra_plan_string(offset: 20, length: 4), ra_plan_string(offset: 24, length: 1),
            ra_plan_string(offset: 25, length: 6),
        ]
        func scalar(_ key: UInt32) -> ra_plan_sel {
            ra_plan_sel(
                kind: UInt32(RA_SEL_SCALAR), response_key: key, storage_key: key, concrete_type: RA_NONE,
                child_set: 0, shape: UInt32(RA_SHAPE_ANY), cond_first: 0, cond_count: 0)
        }
        let sels = [
            ra_plan_sel(
                kind: UInt32(RA_SEL_LINKED), response_key: 3, storage_key: 3, concrete_type: RA_NONE,
                child_set: 1, shape: 0, cond_first: 0, cond_count: 0),
            scalar(0),  // the first "__typename" string; the plan's own is the last one
            scalar(2),
        ]
        let sets = [
            ra_plan_set(sel_first: 0, sel_count: 1, check_first: 0, check_count: 0),
            ra_plan_set(sel_first: 1, sel_count: 2, check_first: 0, check_count: 0),
        ]
        var err = ra_error()
        let plan = try XCTUnwrap(
            ra_plan_create(strings, text.utf8.count, table, 5, sets, 2, sels, 3, nil, 0, nil, 0, &err))
        defer { ra_plan_destroy(plan) }
        let n = try XCTUnwrap(ra_normalizer_create(plan, "client:root", 11, ra_limits(max_depth: 0, max_bytes: 0)))
        defer { ra_normalizer_destroy(n) }
        let response = Array(#"{"data":{"x":{"__typename":"T","id":"X1","name":"n"}}}"#.utf8)
        XCTAssertEqual(ra_normalizer_feed(n, response, response.count), RA_OK)
        var handedOver: OpaquePointer?
        XCTAssertEqual(ra_normalizer_finish(n, &handedOver), RA_OK)
        let delta = try XCTUnwrap(handedOver)
        defer { ra_source_destroy(delta) }
        let x = ra_source_record_for_symbol(delta, ra_source_find_symbol(delta, "X1", 2))
        XCTAssertGreaterThanOrEqual(x, 0)
        var id: UInt32 = 0
        var type: UInt32 = 0
        var fields: UInt32 = 0
        XCTAssertEqual(ra_source_record_at(delta, UInt32(x), &id, &type, &fields), 1)
        let typeText = ra_source_symbol_text(delta, type)
        XCTAssertEqual(
            String(decoding: UnsafeBufferPointer(start: typeText.ptr, count: typeText.len), as: UTF8.self), "T")
        XCTAssertEqual(fields, 1, "only `name`: `__typename` is the type")
    }
}
