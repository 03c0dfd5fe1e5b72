// libFuzzer harness for the RelayArena C core: streaming normalize (chunked), publish into a
// pre-filled store, relay toJSON export / import round trips, and raw import of arbitrary bytes.
//
// Input layout: byte 0 picks the plan (and a small size limit when bit 7 is set), byte 1 the
// chunk size (0: whole, else 1..64), the rest is the response fed to the normalizer.
//
// Invariants (abort() on violation):
//   1. a response that normalizes fed in chunks also normalizes fed whole, and both deltas
//      export byte for byte the same;
//   2. export(delta) re-imports, and exports again to the same bytes;
//   3. publish(store, delta) succeeds; export(store) re-imports and exports to the same bytes;
//   4. publishing the same delta again changes nothing (no updated IDs, same export), and
//      publishing into an empty store gives a store that exports exactly as the delta;
//   5. raw bytes given to ra_source_import_json never crash; when they load, the source
//      round-trips through export/import and publishes into the store (3 and 4 again);
//   6. no internal error (RA_ERR_STATE / NOMEM / PLAN / LIMIT) for these small inputs, and a
//      failed or finished normalizer refuses further input.
#include "fuzz_support.h"

// MARK: - Plan builder

typedef struct plan_builder {
    char buf[16384];
    size_t len;
    ra_plan_string str[512];
    uint32_t nstr;
    ra_plan_set sets[16];
    uint32_t nsets;
    ra_plan_sel sels[256];
    uint32_t nsels;
    ra_plan_cond conds[128];
    uint32_t nconds;
    ra_plan_check checks[32];
    uint32_t nchecks;
} plan_builder;

static uint32_t S(plan_builder *b, const char *s) {
    size_t l = strlen(s);
    for (uint32_t i = 0; i < b->nstr; i++)
        if (b->str[i].length == l && memcmp(b->buf + b->str[i].offset, s, l) == 0) return i;
    if (b->len + l > sizeof b->buf || b->nstr >= 512) abort();
    memcpy(b->buf + b->len, s, l);
    b->str[b->nstr] = (ra_plan_string){(uint32_t)b->len, (uint32_t)l};
    b->len += l;
    return b->nstr++;
}

// Sets are built in index order: begin_set(k) must be called with k == number of sets so far.
static void begin_set(plan_builder *b, uint32_t index) {
    if (index != b->nsets) abort();
    b->sets[b->nsets++] = (ra_plan_set){.sel_first = b->nsels, .check_first = b->nchecks};
}

static void end_set(plan_builder *b) {
    ra_plan_set *s = &b->sets[b->nsets - 1];
    s->sel_count = b->nsels - s->sel_first;
    s->check_count = b->nchecks - s->check_first;
}

// conds: a string like "T:User,K:__isNamed" (T = RA_COND_TYPE_IS, K = RA_COND_HAS_KEY), or NULL.
static void add_conds(plan_builder *b, const char *conds, uint32_t *first, uint32_t *count) {
    *first = b->nconds;
    *count = 0;
    if (!conds) return;
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s", conds);
    for (char *save = NULL, *tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        b->conds[b->nconds++] = (ra_plan_cond){tok[0] == 'T' ? RA_COND_TYPE_IS : RA_COND_HAS_KEY, S(b, tok + 2)};
        (*count)++;
    }
}

static void scalar(plan_builder *b, const char *resp, const char *storage, uint32_t shape, const char *conds) {
    ra_plan_sel *s = &b->sels[b->nsels++];
    *s = (ra_plan_sel){.kind = RA_SEL_SCALAR, .response_key = S(b, resp), .storage_key = S(b, storage ? storage : resp),
                       .concrete_type = RA_NONE, .child_set = RA_NONE, .shape = shape};
    add_conds(b, conds, &s->cond_first, &s->cond_count);
}

static void linked(plan_builder *b, uint32_t kind, const char *resp, const char *storage, const char *concrete,
                   uint32_t child, const char *conds) {
    ra_plan_sel *s = &b->sels[b->nsels++];
    *s = (ra_plan_sel){.kind = kind, .response_key = S(b, resp), .storage_key = S(b, storage ? storage : resp),
                       .concrete_type = concrete ? S(b, concrete) : RA_NONE, .child_set = child};
    add_conds(b, conds, &s->cond_first, &s->cond_count);
}

static void check(plan_builder *b, const char *abstract_key, const char *conds) {
    ra_plan_check *c = &b->checks[b->nchecks++];
    c->abstract_key = S(b, abstract_key);
    add_conds(b, conds, &c->cond_first, &c->cond_count);
}

static ra_plan *finish_plan(plan_builder *b) {
    ra_error err;
    memset(&err, 0, sizeof err);
    ra_plan *p = ra_plan_create(b->buf, b->len, b->str, b->nstr, b->sets, b->nsets, b->sels, b->nsels, b->conds,
                                b->nconds, b->checks, b->nchecks, &err);
    if (!p) {
        fprintf(stderr, "ra_plan_create failed: %s\n", err.message);
        abort();
    }
    return p;
}

// Plan 0: a todo/node app. Concrete and abstract linked fields, plural fields, a response key
// shared by selections under different type conditions (buffered, replayed on close), HAS_KEY
// conditions on __isX keys, type-record checks, custom scalars.
static ra_plan *plan_app(void) {
    static plan_builder b;
    memset(&b, 0, sizeof b);
    begin_set(&b, 0);  // Query
    linked(&b, RA_SEL_LINKED, "viewer", NULL, "Viewer", 1, NULL);
    linked(&b, RA_SEL_LINKED, "node", "node(id:\"u1\")", NULL, 2, NULL);
    linked(&b, RA_SEL_PLURAL, "nodes", "nodes(first:3)", NULL, 2, NULL);
    scalar(&b, "count", NULL, RA_SHAPE_SCALAR, NULL);
    scalar(&b, "tags", NULL, RA_SHAPE_LIST, NULL);
    scalar(&b, "meta", NULL, RA_SHAPE_ANY, NULL);
    scalar(&b, "__typename", NULL, RA_SHAPE_SCALAR, NULL);
    end_set(&b);
    begin_set(&b, 1);  // Viewer
    scalar(&b, "id", NULL, RA_SHAPE_SCALAR, NULL);
    scalar(&b, "name", NULL, RA_SHAPE_SCALAR, NULL);
    linked(&b, RA_SEL_PLURAL, "friends", "friends(first:2)", "User", 3, NULL);
    linked(&b, RA_SEL_LINKED, "todos", NULL, "TodoConnection", 4, NULL);
    end_set(&b);
    begin_set(&b, 2);  // Node (abstract)
    scalar(&b, "__typename", NULL, RA_SHAPE_SCALAR, NULL);
    scalar(&b, "id", NULL, RA_SHAPE_SCALAR, NULL);
    scalar(&b, "name", NULL, RA_SHAPE_SCALAR, "T:User");
    scalar(&b, "name", "name(lang:\"en\")", RA_SHAPE_SCALAR, "T:Page");
    scalar(&b, "title", NULL, RA_SHAPE_SCALAR, "K:__isNamed");
    linked(&b, RA_SEL_LINKED, "owner", NULL, "User", 3, "T:Page");
    linked(&b, RA_SEL_PLURAL, "items", NULL, NULL, 2, "K:__isNamed");
    scalar(&b, "extra", NULL, RA_SHAPE_ANY, "T:User");
    scalar(&b, "extra", "extra(v:2)", RA_SHAPE_LIST, "T:Page,K:__isNamed");
    check(&b, "__isNamed", NULL);
    check(&b, "__isActor", "T:User");
    end_set(&b);
    begin_set(&b, 3);  // User
    scalar(&b, "id", NULL, RA_SHAPE_SCALAR, NULL);
    scalar(&b, "name", NULL, RA_SHAPE_SCALAR, NULL);
    linked(&b, RA_SEL_LINKED, "best", NULL, NULL, 2, NULL);
    scalar(&b, "avatar", NULL, RA_SHAPE_ANY, NULL);
    // Same storage key as Node's scalar `title`: one record reached through both sets.
    linked(&b, RA_SEL_LINKED, "title", NULL, NULL, 6, NULL);
    end_set(&b);
    begin_set(&b, 4);  // TodoConnection
    linked(&b, RA_SEL_PLURAL, "edges", NULL, "TodoEdge", 5, NULL);
    scalar(&b, "count", "totalCount", RA_SHAPE_SCALAR, NULL);
    end_set(&b);
    begin_set(&b, 5);  // TodoEdge
    scalar(&b, "cursor", NULL, RA_SHAPE_SCALAR, NULL);
    linked(&b, RA_SEL_LINKED, "node", NULL, "Todo", 6, NULL);
    end_set(&b);
    begin_set(&b, 6);  // Todo
    scalar(&b, "id", NULL, RA_SHAPE_SCALAR, NULL);
    scalar(&b, "text", NULL, RA_SHAPE_SCALAR, NULL);
    scalar(&b, "complete", NULL, RA_SHAPE_SCALAR, NULL);
    scalar(&b, "tags", NULL, RA_SHAPE_LIST, NULL);
    end_set(&b);
    return finish_plan(&b);
}

// Plan 1: conditions on the root set, linked fields sharing a response key (buffered objects
// and lists replayed into records), recursion through client IDs, a conditional `id`.
static ra_plan *plan_conditional(void) {
    static plan_builder b;
    memset(&b, 0, sizeof b);
    begin_set(&b, 0);  // root
    scalar(&b, "a", "a(x:1)", RA_SHAPE_ANY, NULL);
    scalar(&b, "b", NULL, RA_SHAPE_LIST, "K:__isB");
    scalar(&b, "b", "b(s:1)", RA_SHAPE_SCALAR, "T:__Root");
    linked(&b, RA_SEL_LINKED, "me", NULL, NULL, 1, "K:__isB");
    linked(&b, RA_SEL_LINKED, "me", "me(v:2)", "User", 1, "T:__Root");
    linked(&b, RA_SEL_PLURAL, "list", NULL, "Item", 2, NULL);
    linked(&b, RA_SEL_PLURAL, "any", NULL, NULL, 1, "T:__Root");
    linked(&b, RA_SEL_LINKED, "thing", NULL, NULL, 2, NULL);  // abstract, child set without __typename
    linked(&b, RA_SEL_PLURAL, "things", NULL, NULL, 3, NULL);
    scalar(&b, "id", NULL, RA_SHAPE_SCALAR, NULL);
    check(&b, "__isB", NULL);
    end_set(&b);
    begin_set(&b, 1);  // abstract child
    scalar(&b, "id", NULL, RA_SHAPE_SCALAR, "T:A");
    scalar(&b, "id", NULL, RA_SHAPE_SCALAR, "T:B");
    scalar(&b, "__typename", NULL, RA_SHAPE_SCALAR, NULL);
    scalar(&b, "x", NULL, RA_SHAPE_ANY, "T:A");
    scalar(&b, "x", "x(b:1)", RA_SHAPE_SCALAR, "T:B");
    linked(&b, RA_SEL_LINKED, "sub", NULL, "Sub", 2, NULL);
    linked(&b, RA_SEL_LINKED, "peer", NULL, NULL, 1, "K:__isB");
    linked(&b, RA_SEL_PLURAL, "peers", NULL, NULL, 1, "T:A");
    check(&b, "__isB", "T:B");
    check(&b, "__isA", NULL);
    end_set(&b);
    begin_set(&b, 2);  // Item / Sub
    scalar(&b, "id", NULL, RA_SHAPE_SCALAR, NULL);
    scalar(&b, "v", NULL, RA_SHAPE_ANY, NULL);
    linked(&b, RA_SEL_LINKED, "child", NULL, "Item", 2, NULL);
    linked(&b, RA_SEL_PLURAL, "kids", NULL, "Item", 2, NULL);
    end_set(&b);
    begin_set(&b, 3);  // __typename itself under conditions (buffered, replayed)
    scalar(&b, "__typename", NULL, RA_SHAPE_SCALAR, "K:__isT");
    scalar(&b, "id", NULL, RA_SHAPE_SCALAR, NULL);
    scalar(&b, "v", NULL, RA_SHAPE_SCALAR, "T:T");
    scalar(&b, "v", "v(t:2)", RA_SHAPE_ANY, "T:U");
    linked(&b, RA_SEL_LINKED, "next", NULL, NULL, 3, "K:__isT");
    check(&b, "__isT", "T:T");
    end_set(&b);
    return finish_plan(&b);
}

// Plan 2: a wide set (more than 64 response keys, so entries past the seen-bitmap and the
// unmatched-key hash table both run) and a self-recursive linked field.
static ra_plan *plan_wide(void) {
    static plan_builder b;
    memset(&b, 0, sizeof b);
    begin_set(&b, 0);
    char k[32], sk[48];
    for (int i = 0; i < 70; i++) {
        snprintf(k, sizeof k, "k%d", i);
        snprintf(sk, sizeof sk, "k%d(i:%d)", i, i);
        scalar(&b, k, i % 3 == 0 ? sk : NULL, i % 5 == 0 ? RA_SHAPE_ANY : i % 5 == 1 ? RA_SHAPE_LIST : RA_SHAPE_SCALAR,
               i % 7 == 6 ? "K:__isW" : NULL);
    }
    linked(&b, RA_SEL_LINKED, "n", NULL, "W", 0, NULL);
    linked(&b, RA_SEL_PLURAL, "ns", NULL, NULL, 0, NULL);
    scalar(&b, "id", NULL, RA_SHAPE_SCALAR, NULL);
    scalar(&b, "__typename", NULL, RA_SHAPE_SCALAR, NULL);
    check(&b, "__isW", NULL);
    end_set(&b);
    return finish_plan(&b);
}

// MARK: - Helpers

static const char store_json[] =
    "{\"client:root\":{\"__id\":\"client:root\",\"__typename\":\"__Root\","
    "\"viewer\":{\"__ref\":\"client:root:viewer\"},\"count\":3,\"nodes(first:3)\":{\"__refs\":[\"u1\",null,\"p1\"]},"
    "\"a(x:1)\":{\"k\":[1,2.5,\"s\"]},\"b\":[true,false,null]},"
    "\"client:root:viewer\":{\"__id\":\"client:root:viewer\",\"__typename\":\"Viewer\",\"name\":\"me\","
    "\"friends(first:2)\":{\"__refs\":[]}},"
    "\"u1\":{\"__id\":\"u1\",\"__typename\":\"User\",\"name\":\"Ann\",\"avatar\":{\"url\":\"x\",\"size\":[1,2]},"
    "\"best\":{\"__ref\":\"p1\"}},"
    "\"p1\":{\"__id\":\"p1\",\"__typename\":\"Page\",\"name(lang:\\\"en\\\")\":\"Home\",\"extra(v:2)\":[1,2]},"
    "\"gone\":null,\"w1\":{\"__id\":\"w1\",\"name\":\"no type\",\"next\":{\"__ref\":\"u1\"}},"
    "\"client:__type:User\":{\"__id\":\"client:__type:User\",\"__typename\":\"__TypeSchema\",\"__isNamed\":true},"
    "\"t1\":{\"__id\":\"t1\",\"__typename\":\"Todo\",\"text\":\"buy\\u0000milk\\n\",\"complete\":false,"
    "\"tags\":[\"a\",\"b\"],\"k1\":12345678901234567890,\"k2\":-0.0}}";

static ra_plan *plans[3];

static int init_plans(void) {
    plans[0] = plan_app();
    plans[1] = plan_conditional();
    plans[2] = plan_wide();
    return 1;
}

static void dump(const char *what, blob b) {
    fprintf(stderr, "%s (%zu bytes): %.*s\n", what, b.len, (int)(b.len > 4000 ? 4000 : b.len), (const char *)b.ptr);
}

// export(src) -> import -> export must succeed and give the same bytes. Returns the export.
static blob check_round_trip(const ra_source *src, const char *what) {
    blob e1 = export_of(src);
    ra_error err;
    ra_source *again = ra_source_import_json(e1.ptr, e1.len, 1000, &err);
    if (!again) dump(what, e1);
    FUZZ_CHECK(again != NULL, "%s: its export does not re-import: code %d at %llu: %s", what, (int)err.code,
               (unsigned long long)err.offset, err.message);
    blob e2 = export_of(again);
    if (!same(e1, e2)) {
        dump("first export", e1);
        dump("re-imported export", e2);
    }
    FUZZ_CHECK(same(e1, e2), "%s: export -> import -> export is not byte-identical", what);
    ra_free(e2.ptr);
    ra_source_destroy(again);
    return e1;
}

// Publishes `delta` into an empty store (the result exports exactly as the delta does) and
// into a fresh copy of the fixed store: checks the round trip and that a second publish of the
// same delta is a no-op.
static void check_publish(const ra_source *delta, const char *what) {
    ra_error err;
    memset(&err, 0, sizeof err);
    ra_source *empty = ra_source_create();
    FUZZ_CHECK(empty != NULL, "ra_source_create");
    ra_status st = ra_source_publish(empty, delta, &err);
    FUZZ_CHECK(st == RA_OK, "%s: publish into an empty store failed: %s", what, err.message);
    blob d = export_of(delta), e = export_of(empty);
    if (!same(d, e)) {
        dump("delta", d);
        dump("empty store after publish", e);
    }
    FUZZ_CHECK(same(d, e), "%s: an empty store after publishing does not export as the delta", what);
    ra_free(d.ptr);
    ra_free(e.ptr);
    ra_source_destroy(empty);

    ra_source *store = import_fixed_store(store_json, sizeof store_json - 1);
    st = ra_source_publish(store, delta, &err);
    FUZZ_CHECK(st == RA_OK, "%s: publish failed: %s", what, err.message);
    blob e1 = check_round_trip(store, what);
    st = ra_source_publish(store, delta, &err);
    FUZZ_CHECK(st == RA_OK, "%s: second publish failed: %s", what, err.message);
    blob e2 = export_of(store);
    if (!same(e1, e2) || ra_source_updated_count(store) != 0) {
        dump("after one publish", e1);
        dump("after two publishes", e2);
        for (uint32_t i = 0; i < ra_source_updated_count(store); i++) {
            ra_bytes_ref t = ra_source_symbol_text(store, ra_source_updated_at(store, i));
            fprintf(stderr, "updated again: %.*s\n", (int)t.len, (const char *)t.ptr);
        }
    }
    FUZZ_CHECK(same(e1, e2), "%s: publishing the same delta twice changed the store", what);
    FUZZ_CHECK(ra_source_updated_count(store) == 0, "%s: the second publish reported %u updated IDs", what,
               ra_source_updated_count(store));
    ra_free(e1.ptr);
    ra_free(e2.ptr);
    ra_source_destroy(store);
}

// Normalizes `body` with `plan`, fed in `chunk`-sized pieces (0: whole), told to expect
// `expect` bytes first when nonzero (a size hint, right or wrong). Returns the normalizer
// (caller destroys), its status and, on success, the delta it handed over (caller destroys).
static ra_normalizer *normalize(const ra_plan *plan, const uint8_t *body, size_t len, size_t chunk, ra_limits limits,
                                size_t expect, ra_status *status, ra_source **delta) {
    ra_normalizer *n = ra_normalizer_create(plan, "client:root", 11, limits);
    FUZZ_CHECK(n != NULL, "ra_normalizer_create failed");
    if (expect) ra_normalizer_expect(n, expect);
    ra_status st = RA_OK;
    if (!chunk) chunk = len ? len : 1;
    for (size_t off = 0; st == RA_OK && off < len; off += chunk) {
        size_t k = len - off < chunk ? len - off : chunk;
        // Copy each chunk into its own allocation so ASan sees reads past it.
        uint8_t *piece = malloc(k);
        FUZZ_CHECK(piece != NULL, "malloc");
        memcpy(piece, body + off, k);
        st = ra_normalizer_feed(n, piece, k);
        free(piece);
    }
    *delta = NULL;
    if (st == RA_OK) st = ra_normalizer_finish(n, delta);
    // Linear whatever the chunking: a token that spans chunks is handed to yajl in gathered pieces,
    // each at least a quarter of what yajl holds (the finish hands over the rest).
    FUZZ_CHECK(ra_normalizer_lexed_bytes(n) <= 7 * (uint64_t)len + 1, "yajl lexed %llu bytes of a %zu-byte response",
               (unsigned long long)ra_normalizer_lexed_bytes(n), len);
    FUZZ_CHECK((st == RA_OK) == (*delta != NULL), "finish: status %d but delta %p", (int)st, (void *)*delta);
    if (st != RA_OK) {
        const ra_error *e = ra_normalizer_error(n);
        // Internal failures (lost pending parents, replays that fail, ...) are bugs, and a
        // few KiB of input never exhausts memory or the arena's limits.
        FUZZ_CHECK(st != RA_ERR_STATE && st != RA_ERR_NOMEM && st != RA_ERR_PLAN && st != RA_ERR_LIMIT,
                   "internal normalizer error %d: %s at %s", (int)st, e->message, e->path);
        FUZZ_CHECK(e->code == st, "status %d but error code %d", (int)st, (int)e->code);
        FUZZ_CHECK(memchr(e->message, 0, sizeof e->message) && memchr(e->path, 0, sizeof e->path),
                   "error strings not terminated");
        // A failed normalizer stays failed.
        FUZZ_CHECK(ra_normalizer_feed(n, (const uint8_t *)"{}", 2) != RA_OK, "feed after failure succeeded");
    } else {
        FUZZ_CHECK(ra_normalizer_feed(n, (const uint8_t *)" ", 1) == RA_ERR_STATE, "feed after finish accepted");
    }
    *status = st;
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int ready = 0;
    if (!ready) ready = init_plans();
    if (size < 2) return 0;
    const ra_plan *plan = plans[(data[0] & 0x7F) % 3];
    size_t chunk = data[1] % 65;
    ra_limits limits = {.max_depth = 64, .max_bytes = (data[0] & 0x80) ? 256 : (1u << 20)};
    const uint8_t *body = data + 2;
    size_t len = size - 2;

    static int verbose = -1;
    if (verbose < 0) verbose = getenv("FUZZ_VERBOSE") != NULL;
    ra_status st;
    // Half the inputs give the size hint (the whole-input replay below never does): the store
    // must not depend on it.
    ra_source *delta = NULL;
    ra_normalizer *n = normalize(plan, body, len, chunk, limits, (data[1] & 0x80) ? len : 0, &st, &delta);
    if (verbose) {
        const ra_error *e = ra_normalizer_error(n);
        fprintf(stderr, "normalize: status %d %s%s%s\n", (int)st, e->message, e->path[0] ? " at " : "", e->path);
        if (st == RA_OK) {
            blob d = export_of(delta);
            dump("delta", d);
            ra_free(d.ptr);
        }
    }
    if (st == RA_OK) {
        blob e1 = check_round_trip(delta, "delta");
        if ((chunk && chunk < len) || (data[1] & 0x80)) {
            ra_status st2;
            ra_source *whole_delta = NULL;
            ra_normalizer *whole = normalize(plan, body, len, 0, limits, 0, &st2, &whole_delta);
            FUZZ_CHECK(st2 == RA_OK, "chunked (%zu) normalize succeeded but whole failed: %s", chunk,
                       ra_normalizer_error(whole)->message);
            blob e2 = export_of(whole_delta);
            if (!same(e1, e2)) {
                dump("chunked delta", e1);
                dump("whole delta", e2);
            }
            FUZZ_CHECK(same(e1, e2), "chunk size %zu and whole input give different deltas", chunk);
            ra_free(e2.ptr);
            ra_source_destroy(whole_delta);
            ra_normalizer_destroy(whole);
        }
        ra_free(e1.ptr);
        check_publish(delta, "store after publishing the delta");
    }
    ra_source_destroy(delta);
    ra_normalizer_destroy(n);

    // The raw input as a relay store: must never crash; when it loads it must round-trip.
    ra_error err;
    uint8_t *copy = malloc(len ? len : 1);
    FUZZ_CHECK(copy != NULL, "malloc");
    if (len) memcpy(copy, body, len);
    ra_source *imported = ra_source_import_json(copy, len, 64, &err);
    free(copy);
    if (imported) {
        blob e = check_round_trip(imported, "imported input");
        ra_free(e.ptr);
        check_publish(imported, "store after publishing the imported input");
        ra_source_destroy(imported);
    } else {
        FUZZ_CHECK(err.code != RA_OK && err.code != RA_ERR_NOMEM, "import failed with code %d: %s", (int)err.code,
                   err.message);
    }
    return 0;
}
