// libFuzzer harness for the snapshot loader (ra_snapshot_open.c): arbitrary bytes given to
// ra_source_load_snapshot never crash nor read out of bounds, and a snapshot that loads is a store
// that every reader and publish can use.
//
// Input layout: byte 0 is the mode, the rest the bytes:
//   bit 0 clear: the checksum is recomputed before loading, so that mutations reach the checks
//                past it (header counts, every bound); set: loaded as is (the checksum check);
//   bit 1 set:   the rest is relay toJSON JSON instead: when it imports, its snapshot must load
//                and export as the source did (a valid store always round-trips).
//
// Invariants (abort() on violation), for a snapshot that loads:
//   1. it exports (every record, field and link read), and its snapshot bytes load again and
//      export the same;
//   2. it publishes into a store holding records, and a store publishes into it (its first write
//      copies the mapping out), both exporting afterwards;
//   3. a failure is RA_ERR_SNAPSHOT with a message, never another code (inputs are small).
#include "fuzz_support.h"

static const char store_json[] =
    "{\"client:root\":{\"__id\":\"client:root\",\"__typename\":\"__Root\","
    "\"viewer\":{\"__ref\":\"client:root:viewer\"},\"nodes(first:3)\":{\"__refs\":[\"u1\",null,\"p1\"]}},"
    "\"client:root:viewer\":{\"__id\":\"client:root:viewer\",\"__typename\":\"Viewer\",\"name\":\"me\"},"
    "\"u1\":{\"__id\":\"u1\",\"__typename\":\"User\",\"name\":\"Ann\",\"best\":{\"__ref\":\"p1\"}},"
    "\"p1\":{\"__id\":\"p1\",\"__typename\":\"Page\",\"tags\":[\"a\",\"b\"],\"n\":1.5},\"gone\":null}";

// Exports `s` (every record, field and link read). (Not required to import again: the loader
// checks bounds, not texts, so a file crafted with a fitting checksum may hold a number or JSON
// value whose text is none, which export writes as it is.)
static void check_exports(const ra_source *s) {
    blob e = export_of(s);
    ra_free(e.ptr);
}

static void check_loaded(ra_source *s) {
    blob e1 = export_of(s);
    // 1. Its own snapshot loads again and exports the same.
    uint8_t *bytes;
    size_t len;
    FUZZ_CHECK(ra_source_snapshot_bytes(s, &bytes, &len) == RA_OK, "snapshot bytes failed");
    ra_error err;
    ra_source *again = ra_source_load_snapshot(bytes, len, &err);
    FUZZ_CHECK(again != NULL, "a loaded snapshot's own snapshot does not load: %s", err.message);
    blob e2 = export_of(again);
    FUZZ_CHECK(same(e1, e2), "the snapshot of a loaded snapshot exports otherwise");
    ra_free(e2.ptr);
    ra_free(bytes);
    // 2. Publish both ways (the loaded sources are read-only until their first write).
    ra_source *store = import_fixed_store(store_json, sizeof store_json - 1);
    ra_status st = ra_source_publish(store, s, &err);
    if (st == RA_OK) check_exports(store);
    ra_source_destroy(store);
    ra_source *delta = import_fixed_store(store_json, sizeof store_json - 1);
    st = ra_source_publish(again, delta, &err);
    if (st == RA_OK) check_exports(again);
    ra_source_destroy(delta);
    ra_source_destroy(again);
    ra_free(e1.ptr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    uint8_t mode = data[0];
    const uint8_t *rest = data + 1;
    size_t n = size - 1;
    ra_error err;
    if (mode & 2) {
        ra_source *src = ra_source_import_json(rest, n, 64, &err);
        if (!src) return 0;
        uint8_t *bytes;
        size_t len;
        FUZZ_CHECK(ra_source_snapshot_bytes(src, &bytes, &len) == RA_OK, "snapshot bytes failed");
        ra_source *s = ra_source_load_snapshot(bytes, len, &err);
        FUZZ_CHECK(s != NULL, "an imported store's snapshot does not load: %s", err.message);
        blob a = export_of(src), b = export_of(s);
        FUZZ_CHECK(same(a, b), "an imported store's snapshot exports otherwise");
        ra_free(a.ptr);
        ra_free(b.ptr);
        check_loaded(s);
        ra_source_destroy(s);
        ra_source_destroy(src);
        ra_free(bytes);
        return 0;
    }
    uint8_t *copy = malloc(n ? n : 1);
    if (n) memcpy(copy, rest, n);
    if (!(mode & 1)) ra_snapshot_fix_checksum(copy, n);
    ra_source *s = ra_source_load_snapshot(copy, n, &err);
    free(copy);
    if (!s) {
        FUZZ_CHECK(err.code == RA_ERR_SNAPSHOT && err.message[0], "a bad snapshot failed with %d: %s", (int)err.code,
                   err.message);
        return 0;
    }
    check_loaded(s);
    ra_source_destroy(s);
    return 0;
}
