// The normalizer's lifetime and entry points: create (its delta, its parser and the plan's
// tables), the size hint, feed, finish (the delta settled and handed over, the response's
// `errors` attached) and destroy. The work happens in the stage files' callbacks.
#include "ra_normalize.h"
#include "ra_norm_error.h"
#include "ra_symbols.h"
#include "ra_records.h"
#include "ra_source.h"
#include "ra_plan.h"
#include "ra_buf.h"
#include "ra_json.h"
#include "ra_alloc.h"

ra_normalizer *ra_normalizer_create(const ra_plan *plan, const char *root_id, size_t root_len, ra_limits limits) {
    ra_normalizer *n = ra_calloc(1, sizeof *n);
    if (!n) return NULL;
    n->bottom = (frame){.kind = F_SKIP_MAP, .sel = RA_NONE, .cur_key = RA_NONE, .index = -1, .next_en = &ra_norm_no_entry};
    n->top = &n->bottom;
    n->plan = plan;
    n->limits = limits;
    if (!n->limits.max_depth) n->limits.max_depth = 1000;
    if (!n->limits.max_bytes) n->limits.max_bytes = UINT64_MAX;
    n->delta = ra_source_create();
    n->tkey = ra_process_hash_key();
    ra_norm_init_yajl_funcs(n);
    n->yh = yajl_alloc(&ra_norm_callbacks, &n->yajl_funcs, n);
    n->plan_syms = ra_calloc(plan->nstr ? plan->nstr : 1, sizeof(uint32_t));
    n->plan_types = ra_calloc(plan->nstr ? plan->nstr : 1, sizeof(uint16_t));
    n->set_shapes = ra_calloc(plan->nsets ? plan->nsets : 1, sizeof(uint16_t));
    if (!n->delta || !n->yh || !n->plan_syms || !n->plan_types || !n->set_shapes) goto fail;
    n->root_sym = ra_intern(n->delta, root_id, root_len);
    uint32_t root_type = ra_intern(n->delta, "__Root", 6);
    n->sym_type_schema = ra_intern(n->delta, "__TypeSchema", 12);
    // (Any `id` field whose value is its record's own data ID goes in the header bit, as a store
    // file's does: one form for one value.)
    n->delta->id_key = ra_intern(n->delta, "id", 2);
    bool created;
    if (!n->root_sym || !root_type || !n->sym_type_schema || !n->delta->id_key ||
        ra_record_get_or_create(n->delta, n->root_sym, root_type, &created) < 0)
        goto fail;
    return n;
fail:
    ra_normalizer_destroy(n);
    return NULL;
}

void ra_normalizer_destroy(ra_normalizer *n) {
    if (!n) return;
    if (n->yh) yajl_free(n->yh);
    ra_source_destroy(n->delta);
    ra_dealloc(n->frames);
    ra_dealloc(n->fields);
    note_high_water(n);  // a failed payload stops with its stacks full
    ra_dealloc_used(n->items, (size_t)n->hw_items * sizeof *n->items);
    ra_dealloc(n->tbl);
    ra_dealloc_used(n->pend, (size_t)n->hw_pend * sizeof *n->pend);
    ra_dealloc_used(n->run_ids, (size_t)n->hw_run_ids * sizeof *n->run_ids);
    ra_dealloc_used(n->pfields, (size_t)n->hw_pfields * sizeof *n->pfields);
    ra_buf_free(&n->bytes);
    ra_buf_free(&n->keys);
    ra_buf_free(&n->pbytes);
    ra_buf_free(&n->errors_json);
    ra_buf_free(&n->gathered);
    ra_buf_free(&n->scratch);
    ra_dealloc(n->plan_syms);
    ra_dealloc(n->plan_types);
    ra_dealloc(n->set_shapes);
    ra_dealloc(n->setbuf);
    ra_dealloc(n->qwords);
    ra_dealloc(n);
}

void ra_normalizer_expect(ra_normalizer *n, uint64_t total_bytes) {
    // Past the byte limit (the response will fail there) or 16 GiB, a guess is not worth its address space.
    if (n->failed || n->consumed || total_bytes > n->limits.max_bytes || total_bytes > ((uint64_t)1 << 34)) return;
    // Generous per-byte guesses (a to-do list needs a symbol, with its record, per ~60 bytes,
    // half of them texts in the index, a value per ~24 and about half its bytes again as heap and
    // symbol text); past a guess the arrays grow as usual. Failing to reserve is not an error
    // here: growth will report it.
    uint64_t b = total_bytes;
    (void)ra_source_reserve(n->delta, (uint32_t)(b / 64), (uint32_t)(b / 112), (size_t)(b * 3 / 4), (uint32_t)(b / 16),
                            (size_t)(b * 3 / 4));
    // List items (of lists of identified records, say): one per ~100 bytes at most. Sized once,
    // these come back from the retained blocks on the next payload instead of growing into fresh
    // pages. (Items that wait for their owner, a connection's edges, take an entry a run, here
    // and in the pending records: those grow as needed.)
    (void)ra_grow((void **)&n->items, &n->cap_items, (uint32_t)(b / 96), sizeof(uint32_t));
    (void)ra_grow((void **)&n->pfields, &n->cap_pfields, (uint32_t)(b / 48), sizeof(staged_field));
}

ra_status ra_normalizer_feed(ra_normalizer *n, const uint8_t *bytes, size_t len) {
    if (n->failed) return n->err.code;
    if (n->finished) {
        ra_error_set(&n->err, RA_ERR_STATE, n->consumed, "feed after finish");
        n->failed = true;
        return RA_ERR_STATE;
    }
    if (len > n->limits.max_bytes - n->consumed - n->gathered.len) {
        n->failed = true;
        ra_error_set(&n->err, RA_ERR_SIZE, n->limits.max_bytes, "the response is larger than the limit of %llu bytes",
                     (unsigned long long)n->limits.max_bytes);
        return RA_ERR_SIZE;
    }
    if (!len) return RA_OK;
    return ra_norm_feed(n, bytes, len);
}

static ra_status finish(ra_normalizer *n) {
    if (n->failed) return n->err.code;
    n->finished = true;
    if (n->gathered.len && ra_norm_flush_gathered(n) != RA_OK) return n->err.code;
    yajl_status st = yajl_complete_parse(n->yh);
    if (st != yajl_status_ok) return ra_norm_parse_failed(n, st, NULL, 0);
    if (n->failed) return n->err.code;
    if (!n->saw_top) {
        n->failed = true;
        ra_error_set(&n->err, RA_ERR_RESPONSE, n->consumed, "the response is empty");
        return RA_ERR_RESPONSE;
    }
    if (!resolve_late_if_any(n)) return n->err.code;
    ra_source_drop_unnamed(n->delta);
    ra_source_trim_tables(n->delta);
    ra_source_settle_index(n->delta);
    if (n->errors_json.len) {
        ra_status s = ra_normalizer_attach_errors(n);
        if (s != RA_OK) return s;
    }
    return RA_OK;
}

ra_status ra_normalizer_finish(ra_normalizer *n, ra_source **delta) {
    *delta = NULL;
    if (n->finished && !n->failed) {
        ra_error_set(&n->err, RA_ERR_STATE, n->consumed, "finish called twice");
        n->failed = true;
        return RA_ERR_STATE;
    }
    ra_status st = finish(n);
    if (st != RA_OK) return st;
    *delta = n->delta;
    n->delta = NULL;
    return RA_OK;
}

const ra_error *ra_normalizer_error(const ra_normalizer *n) { return &n->err; }

uint32_t ra_normalizer_id_collisions(const ra_normalizer *n, uint32_t *ids, uint32_t *previous, uint32_t *next,
                                     uint32_t max) {
    uint32_t kept = n->ncollisions < RA_MAX_COLLISIONS ? n->ncollisions : RA_MAX_COLLISIONS;
    for (uint32_t i = 0; i < kept && i < max; i++) {
        ids[i] = n->collisions[i].id;
        previous[i] = n->collisions[i].previous;
        next[i] = n->collisions[i].next;
    }
    return n->ncollisions;
}
