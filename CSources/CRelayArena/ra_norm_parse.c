// The normalizer's parse stage: the yajl callbacks that interpret the plan as the response
// streams by, the frames they push and pop, and the errors they find (reported through the error
// stage, ra_norm_error.c, which adds the response path).
#include "ra_normalize.h"
#include "ra_norm_error.h"
#include "ra_symbols.h"
#include "ra_records.h"
#include "ra_heap.h"
#include "ra_buf.h"
#include "ra_json.h"
#include "ra_alloc.h"
#include "ra_hash.h"
#include "ra_plan.h"
#include "ra_source.h"
#include <stdlib.h>

static int map_key(ra_normalizer *n, const unsigned char *key, size_t len);

const ra_entry ra_norm_no_entry = {.key_len = UINT32_MAX, .key = RA_NONE, .cur_sel = RA_NONE};

// A scalar longer than a heap slot can hold (4 GiB).
__attribute__((cold, noinline)) static int too_long(ra_normalizer *n) {
    return ra_norm_fail(n, RA_ERR_LIMIT, "a value is longer than the arena's 4 GiB limit");
}

static const char *sel_name(const ra_normalizer *n, uint32_t sel, int *len) {
    uint32_t l;
    const char *s = ra_plan_str(n->plan, n->plan->sels[sel].response_key, &l);
    *len = (int)(l > 200 ? 200 : l);
    return s;
}


static uint64_t stage_bytes(ra_normalizer *n, unsigned tag, const void *_Nullable p, size_t len) {
    if (len > UINT32_MAX - 16) return 0;
    uint64_t off;
    uint8_t *dst = ra_buf_slot(&n->bytes, (uint32_t)len, &off);
    if (!dst) return 0;
    if (len) memcpy(dst, p, len);
    return ra_make(tag, off);
}

// A record of selection set `set`, opened by selection `sel` (RA_NONE for the root).
static inline __attribute__((always_inline)) frame *push_record(ra_normalizer *n, uint32_t set, uint32_t sel) {
    // The owner's ID, before the child's symbols. (A closed record's may wait: opening a record
    // adds no symbol and reads none.)
    if (n->placed && !ra_norm_resolve_placed_slow(n)) {
        ra_norm_oom(n);
        return NULL;
    }
    frame *r = push(n, F_RECORD);
    if (!r) return NULL;
    r->set = set;
    r->sel = sel;
    const ra_set_info *info = &n->plan->info[set];
    r->next_en = n->plan->entries + info->entry_first;
    r->special = !info->plain;
    if (sel != RA_NONE && n->plan->quick[sel]) {
        // Its record now, unnamed (in the delta's unnamed table until it is named: see
        // name_record), with room for every entry of its set (each can give one field at most)
        // but a string `id`, which goes in the record's flag.
        uint32_t type = plan_type(n, n->plan->sels[sel].concrete_type), room = info->entry_count - info->self_id;
        int64_t rec = type ? ra_record_new_typed(n->delta, type, room) : -1;
        if (rec < 0 || !ra_grow((void **)&n->qwords, &n->cap_qwords, n->nqwords + room, sizeof(uint32_t))) {
            ra_norm_oom(n);
            return NULL;
        }
        n->nqwords += room;
        r->quick = true;
        r->rec = (uint32_t)rec;
        r->slot = ra_unnamed_rec(n->delta, (uint32_t)rec)->fields;
        r->slot_end = r->slot + room;
        r->qw_off = r->qword_base - r->slot;
    }
    return r;
}

static bool is_zero_number(const char *s, size_t len) {
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c == 'e' || c == 'E') break;
        if (c >= '1' && c <= '9') return false;
    }
    return true;
}

// Integers stay exact inline (see ra_small_int); anything else keeps its text.
static uint64_t number_value(ra_normalizer *n, const char *s, size_t len) {
    uint64_t v;
    return ra_small_int(s, len, &v) ? v : ra_heap_put(n->delta, RA_TAG_NUMBER, s, (uint32_t)len);
}


// Feeds a buffered value back through the callbacks as the value of candidate `cand`.
int ra_norm_replay(ra_normalizer *n, uint32_t depth, uint32_t cand, uint64_t text_value) {
    const uint8_t *p = n->bytes.data + ra_value_payload(text_value);
    uint32_t len = ra_load_u32(p);
    uint8_t *copy = ra_malloc(len ? len : 1);
    if (!copy) return ra_norm_oom(n);
    memcpy(copy, p + 4, len);
    frame *f = &n->frames[depth];
    f->cur = CUR_DIRECT;
    f->cur_sel = cand;
    f->cur_skey = n->plan->sels[cand].storage_key;
    f->cur_key = n->plan->sels[cand].response_key;
    f->cur_id = f->cur_tn = false;
    yajl_handle inner = yajl_alloc(&ra_norm_callbacks, &ra_yajl_alloc_funcs, n);
    yajl_handle outer = n->yh;
    int ok = inner != NULL;
    if (ok) {
        n->yh = NULL;  // offsets in errors point at the record, not into the buffered text
        yajl_status st = yajl_parse(inner, copy, len);
        if (st == yajl_status_ok) st = yajl_complete_parse(inner);
        ok = st == yajl_status_ok && !n->failed;
        if (!ok && !n->failed) ra_norm_fail(n, RA_ERR_STATE, "buffered value failed to replay");
        yajl_free(inner);
        n->yh = outer;
    } else {
        ra_norm_oom(n);
    }
    ra_dealloc(copy);
    if (ok) n->frames[depth].cur = CUR_SKIP;
    return ok;
}

// The usual selected `id` (a non-empty string, a direct scalar member of a non-root record): its
// text is the record's data ID, copied now to where the delta keeps symbol texts (ra_sym_place)
// and interned there when the record closes (see frame_id), its index slot prefetched now. The field's value is that symbol (IDSTR), not a
// second copy of the text: ra_norm_commit fills it in.
static inline __attribute__((always_inline)) int stage_id(ra_normalizer *n, frame *f, const char *text, size_t len) {
    uint32_t off, key = plan_sym(n, f->cur_skey);
    if (!key || !resolve_placed(n) || !ra_sym_place(n->delta, text, len, &off)) return ra_norm_oom(n);
    if (f->quick && n->plan->info[f->set].self_id) {  // kept in the record's flag, no slot (push_record)
        f->id_field = ID_IN_FLAG;
    } else {
        f->id_field = field_count(n, f) + 1;
        if (!add_field(n, f, key, ra_make(RA_TAG_IDSTR, 0))) return ra_norm_oom(n);
    }
    n->placed = (uint32_t)(f - n->frames) + 1;
    f->id_state = ID_STRING;
    f->id_off = off;
    f->id_len = (uint32_t)len;
    f->id_hash = ra_text_hash(n->delta, text, len);
    f->id_deferred = true;
    ra_prefetch_text(n->delta, f->id_hash);
    return 1;
}


static int on_scalar(ra_normalizer *n, uint64_t value, const char *text, size_t len, bool is_string, int kind) {
    // kind: 0 null, 1 bool, 2 number, 3 string
    if (n->failed) return 0;
    if (!n->depth) return ra_norm_fail(n, RA_ERR_RESPONSE, "the response is not a JSON object");
    frame *f = n->top;
    switch (f->kind) {
    case F_TOP:
        if (f->cur == CUR_DATA) {
            return kind == 0 ? ra_norm_fail(n, RA_ERR_RESPONSE, "the response has `data: null` (a failed request)")
                             : ra_norm_fail(n, RA_ERR_RESPONSE, "`data` is not an object");
        }
        if (f->cur == CUR_ERRORS && kind != 0) return ra_norm_fail(n, RA_ERR_RESPONSE, "`errors` is not a list");
        return 1;
    case F_CAPTURE_MAP:
    case F_CAPTURE_ARRAY: return ra_norm_capture_scalar(n, f, text, len, is_string);
    case F_SKIP_MAP:
    case F_SKIP_ARRAY: return 1;
    case F_LIST:
        if (kind != 0) {
            int nl;
            const char *nm = sel_name(n, f->sel, &nl);
            return ra_norm_fail(n, RA_ERR_SHAPE, "Expected elements for field `%.*s` to be objects", nl, nm);
        }
        return ra_norm_stage_value(n, f, ra_make(RA_TAG_NULL, 0));
    default: break;
    }
    // A record's member.
    if (f->cur_id && f->sel != RA_NONE) {
        bool falsy = kind == 0 || (kind == 1 && value == ra_make(RA_TAG_FALSE, 0)) || (kind == 3 && len == 0) ||
                     (kind == 2 && is_zero_number(text, len));
        if (kind == 3 && len > 0) {
            // (A selected scalar `id` took direct_scalar's stage_id: this one is not selected,
            // under a type condition, or too long to place.)
            f->id_state = ID_STRING;
            if (!resolve_placed(n)) return ra_norm_oom(n);  // (a closed record's ID may be waiting)
            f->resolved = ra_intern(n->delta, text, len);
            if (!f->resolved) return ra_norm_oom(n);
        } else if (falsy) {
            f->id_state = kind == 0 ? ID_NULL : ID_FALSY;
        } else {
            int nl = 0;
            const char *nm = sel_name(n, f->sel, &nl);
            return ra_norm_fail(n, RA_ERR_ID, "Expected id on field `%.*s` to be a string", nl, nm);
        }
    }
    if (f->cur_tn && kind == 3) {
        // The empty typename is a record's with none (a store file's, ra_untyped_type): no
        // GraphQL type has it, and a response giving it would be read back as untyped.
        if (__builtin_expect(!len, 0)) return ra_norm_fail(n, RA_ERR_TYPENAME, "Expected a typename for record: `__typename` is the empty string");
        uint64_t v = stage_bytes(n, RA_TAG_STRING, text, len);
        if (!v) return ra_norm_oom(n);
        f = n->top;
        f->has_tn = true;  // (a quick record's type is its concrete type all the same)
        f->tn_off = ra_value_payload(v) + 4;
        f->tn_len = (uint32_t)len;
    }
    if (f->cur == CUR_SKIP) return 1;
    if (f->cur == CUR_BUFFER) {
        // Buffer as JSON text: replayed when the record closes.
        ra_buf tmp = {0};
        bool ok = is_string ? ra_json_escape(&tmp, (const uint8_t *)text, len) : ra_buf_append(&tmp, text, len);
        uint64_t v = ok ? stage_bytes(n, RA_TAG_JSON, tmp.data, tmp.len) : 0;
        ra_buf_free(&tmp);
        return ra_norm_stage_value(n, n->top, v);
    }
    const ra_plan_sel *s = &n->plan->sels[f->cur_sel];
    if (s->kind != RA_SEL_SCALAR && kind != 0) {
        int nl;
        const char *nm = sel_name(n, f->cur_sel, &nl);
        return ra_norm_fail(n, RA_ERR_SHAPE,
                    s->kind == RA_SEL_LINKED ? "Expected data for field `%.*s` to be an object"
                                             : "Expected data for field `%.*s` to be an array of objects",
                    nl, nm);
    }
    if (kind >= 2 && len >= RA_LONG_VALUE) {
        if (len > UINT32_MAX - 16) return too_long(n);
        ra_norm_long_value(n, text);
    }
    if (kind == 2) value = number_value(n, text, len);
    else if (kind == 3) value = ra_heap_put(n->delta, RA_TAG_STRING, text, (uint32_t)len);
    if (kind >= 2 && len >= RA_LONG_VALUE) ra_norm_long_value_copied(n);
    return ra_norm_stage_value(n, n->top, value);
}

// The common members — a selected scalar field of a record (CUR_SCALAR: neither `id` nor
// `__typename`), and a record's string `id` (CUR_ID) — go straight to their staged slot;
// everything else takes on_scalar's general path. Returns -1 when the member is not one of those.
static inline __attribute__((always_inline)) int direct_scalar(ra_normalizer *n, int kind, uint64_t value,
                                                               const char *text, size_t len) {
    frame *f = n->top;  // (&n->bottom at depth 0: neither case below)
    // Only record frames ever hold CUR_SCALAR or CUR_ID (set from a plan entry by expect_entry).
    if (f->cur == CUR_SCALAR) {
        if (kind >= 2 && len >= RA_LONG_VALUE) {
            if (len > UINT32_MAX - 16) return too_long(n);
            ra_norm_long_value(n, text);
        }
        if (kind == 2) value = number_value(n, text, len);
        else if (kind == 3) value = ra_heap_put(n->delta, RA_TAG_STRING, text, (uint32_t)len);
        if (kind >= 2 && len >= RA_LONG_VALUE) ra_norm_long_value_copied(n);
        uint32_t key = plan_sym(n, f->cur_skey);
        if (!value || !key || !add_field(n, f, key, value)) return ra_norm_oom(n);
        return 1;
    }
    if (f->cur == CUR_ID && kind == 3 && len > 0 && len <= UINT32_MAX - 16 && f->sel != RA_NONE)
        return stage_id(n, f, text, len);
    return -1;
}

static int cb_null(void *ctx) {
    ((ra_normalizer *)ctx)->events++;
    int r = direct_scalar(ctx, 0, ra_make(RA_TAG_NULL, 0), NULL, 0);
    return r >= 0 ? r : on_scalar(ctx, ra_make(RA_TAG_NULL, 0), "null", 4, false, 0);
}
static int cb_boolean(void *ctx, int b) {
    ((ra_normalizer *)ctx)->events++;
    uint64_t v = ra_make(b ? RA_TAG_TRUE : RA_TAG_FALSE, 0);
    int r = direct_scalar(ctx, 1, v, NULL, 0);
    return r >= 0 ? r : on_scalar(ctx, v, b ? "true" : "false", b ? 4 : 5, false, 1);
}
static int cb_number(void *ctx, const char *s, size_t l) {
    ((ra_normalizer *)ctx)->events++;
    int r = direct_scalar(ctx, 2, 0, s, l);
    return r >= 0 ? r : on_scalar(ctx, 0, s, l, false, 2);
}
static int cb_string(void *ctx, const unsigned char *s, size_t l) {
    ((ra_normalizer *)ctx)->events++;
    int r = direct_scalar(ctx, 3, 0, (const char *)s, l);
    return r >= 0 ? r : on_scalar(ctx, 0, (const char *)s, l, true, 3);
}

// An object or a list where selection `cs` takes something else.
__attribute__((cold, noinline)) static int shape_error(ra_normalizer *n, uint32_t cs, bool map) {
    const ra_plan_sel *s = &n->plan->sels[cs];
    int nl;
    const char *nm = sel_name(n, cs, &nl);
    switch (s->kind) {
    case RA_SEL_SCALAR:
        return ra_norm_fail(n, RA_ERR_SHAPE, "Expected a %s for field `%.*s`, got %s",
                    s->shape == RA_SHAPE_SCALAR ? "scalar" : "list", nl, nm, map ? "an object" : "a list");
    case RA_SEL_LINKED: return ra_norm_fail(n, RA_ERR_SHAPE, "Expected data for field `%.*s` to be an object", nl, nm);
    default: return ra_norm_fail(n, RA_ERR_SHAPE, "Expected data for field `%.*s` to be an array of objects", nl, nm);
    }
}

static inline __attribute__((always_inline)) int on_start(ra_normalizer *n, bool map) {
    frame *f = n->top;  // (&n->bottom at depth 0: it expects nothing)
    if (map && f->cur == CUR_LINKED) return push_record(n, n->plan->sels[f->cur_sel].child_set, f->cur_sel) ? 1 : 0;
    if (!n->depth) {
        if (n->saw_top || !map) return ra_norm_fail(n, RA_ERR_RESPONSE, "the response is not a JSON object");
        n->saw_top = true;
        return push(n, F_TOP) ? 1 : 0;
    }
    switch (f->kind) {
    case F_TOP:
        if (f->cur == CUR_DATA) {
            if (!map) return ra_norm_fail(n, RA_ERR_RESPONSE, "`data` is not an object");
            n->saw_data = true;
            frame *r = push_record(n, 0, RA_NONE);
            if (!r) return 0;
            r->resolved = n->root_sym;
            return 1;
        }
        if (f->cur == CUR_ERRORS) {
            if (map) return ra_norm_fail(n, RA_ERR_RESPONSE, "`errors` is not a list");
            n->errors_json.len = 0;
            return ra_norm_capture_begin(n, CAP_ERRORS, F_CAPTURE_ARRAY);
        }
        return push(n, map ? F_SKIP_MAP : F_SKIP_ARRAY) ? 1 : 0;
    case F_CAPTURE_MAP:
    case F_CAPTURE_ARRAY: {
        if (!capture_sep(n, f) || !ra_buf_append(capture_buf(n, f), map ? "{" : "[", 1)) return ra_norm_oom(n);
        uint8_t target = f->target;
        frame *c = push(n, map ? F_CAPTURE_MAP : F_CAPTURE_ARRAY);
        if (c) c->target = target;
        return c ? 1 : 0;
    }
    case F_SKIP_MAP:
    case F_SKIP_ARRAY: return push(n, map ? F_SKIP_MAP : F_SKIP_ARRAY) ? 1 : 0;
    case F_LIST: {
        if (!map) {
            int nl;
            const char *nm = sel_name(n, f->sel, &nl);
            return ra_norm_fail(n, RA_ERR_SHAPE, "Expected elements for field `%.*s` to be objects", nl, nm);
        }
        uint32_t index = f->count;
        frame *r = push_record(n, f->set, f->sel);
        if (!r) return 0;
        r->index = index;
        return 1;
    }
    default: break;
    }
    // A record's member.
    if (f->cur_id && f->sel != RA_NONE) {
        int nl;
        const char *nm = sel_name(n, f->sel, &nl);
        return ra_norm_fail(n, RA_ERR_ID, "Expected id on field `%.*s` to be a string", nl, nm);
    }
    if (f->cur == CUR_SKIP) return push(n, map ? F_SKIP_MAP : F_SKIP_ARRAY) ? 1 : 0;
    if (f->cur == CUR_BUFFER) return ra_norm_capture_begin(n, CAP_STAGING, map ? F_CAPTURE_MAP : F_CAPTURE_ARRAY);
    uint32_t cs = f->cur_sel;
    const ra_plan_sel *s = &n->plan->sels[cs];
    switch (s->kind) {
    case RA_SEL_SCALAR:
        if (s->shape == RA_SHAPE_SCALAR || (s->shape == RA_SHAPE_LIST && map)) return shape_error(n, cs, map);
        return ra_norm_capture_begin(n, CAP_HEAP, map ? F_CAPTURE_MAP : F_CAPTURE_ARRAY);
    case RA_SEL_LINKED: {
        if (!map) return shape_error(n, cs, map);
        return push_record(n, s->child_set, cs) ? 1 : 0;
    }
    default: {
        if (map) return shape_error(n, cs, map);
        frame *l = push(n, F_LIST);
        if (!l) return 0;
        l->set = s->child_set;
        l->sel = cs;
        return 1;
    }
    }
}

static int cb_start_map(void *ctx) {
    ((ra_normalizer *)ctx)->events++;
    return on_start(ctx, true);
}
static int cb_start_array(void *ctx) {
    ((ra_normalizer *)ctx)->events++;
    return on_start(ctx, false);
}

// A matched member: the frame now expects the value of entry `en`.
static inline __attribute__((always_inline)) void expect_entry(frame *f, const ra_entry *en) {
    f->seen |= en->seen_bit;
    f->next_en = en + 1;
    f->present |= en->watch_bits;
    f->expect = en->expect;  // cur, cur_id, cur_tn, cur_sel, cur_key, cur_skey
}

// Whether a key of `len` (the entry's, at most 8) bytes is the entry's.
static inline __attribute__((always_inline)) bool short_key_is(const ra_entry *en, const unsigned char *key, size_t len) {
    uint32_t lo, hi;
    ra_key_halves(key, len, &lo, &hi);
    return lo == en->key_lo && hi == en->key_hi;
}

// The common case inline and call-free: a record's member that is the entry after the last one
// matched (members arrive in selection order), not seen before. Everything else: map_key. (A
// set's sentinel entry, entries past the 64th and the ra_norm_no_entry of the frames that are not
// records have no seen bit and never match here.)
static int cb_map_key(void *ctx, const unsigned char *key, size_t len) {
    ra_normalizer *n = ctx;
    n->events++;
    frame *f = n->top;
    const ra_entry *en = f->next_en;
    if ((en->seen_bit & ~f->seen) && en->key_len == len && len <= 8 && short_key_is(en, key, len)) {
        expect_entry(f, en);
        return 1;
    }
    return map_key(n, key, len);
}

__attribute__((noinline)) static int map_key(ra_normalizer *n, const unsigned char *key, size_t len) {
    frame *f = n->top;
    if (f->kind == F_RECORD) {
        const ra_set_info *info = &n->plan->info[f->set];
        const ra_entry *entries = n->plan->entries + info->entry_first;
        uint32_t count = info->entry_count;
        f->cur = CUR_SKIP;
        f->cur_key = RA_NONE;
        // Members usually arrive in selection order: try the entry after the last match first.
        uint64_t prefix = ra_key_prefix(key, len);
        uint32_t next = (uint32_t)(f->next_en - entries);
        uint32_t e = next < count ? next : 0, tries = 0;
        for (; tries < count; tries++, e = e + 1 == count ? 0 : e + 1) {
            const ra_entry *en = &entries[e];
            if (en->key_len == len && en->key_prefix == prefix &&
                (len <= 8 || ra_plan_str_eq(n->plan, en->key, key, len)))
                break;
        }
        const ra_entry *en = tries < count ? &entries[e] : NULL;
        bool dup;
        if (en && e < 64) {
            dup = (f->seen >> e) & 1;
            f->seen |= 1ull << e;
        } else {
            int r = ra_norm_remember_key(n, f, key, len);
            if (r < 0) return ra_norm_oom(n);
            dup = r == 0;
        }
        if (dup) return ra_norm_fail(n, RA_ERR_DUPLICATE_KEY, "duplicate key `%.*s` in one object", (int)(len > 200 ? 200 : len), key);
        f = n->top;
        if (!en) {
            // Not selected: ignored, except that an `id` still names the record (relay reads the
            // response object's id whatever the selection) and watched `__isX` names count.
            f->cur_id = len == 2 && key[0] == 'i' && key[1] == 'd';
            f->cur_tn = len == 10 && memcmp(key, "__typename", 10) == 0;
            for (uint32_t w = 0; w < info->watch_count; w++)
                if (ra_plan_str_eq(n->plan, n->plan->watch[info->watch_first + w], key, len)) f->present |= 1ull << w;
            return 1;
        }
        expect_entry(f, en);
        return 1;
    }
    int r = ra_norm_remember_key(n, f, key, len);
    if (r < 0) return ra_norm_oom(n);
    f = n->top;
    if (r == 0) return ra_norm_fail(n, RA_ERR_DUPLICATE_KEY, "duplicate key `%.*s` in one object", (int)(len > 200 ? 200 : len), key);
    if (f->kind == F_TOP) {
        f->cur = (len == 4 && memcmp(key, "data", 4) == 0)     ? CUR_DATA
                 : (len == 6 && memcmp(key, "errors", 6) == 0) ? CUR_ERRORS
                                                               : CUR_SKIP;
        return 1;
    }
    if (f->kind == F_CAPTURE_MAP) {
        ra_buf *b = capture_buf(n, f);
        bool ok = (f->count++ == 0 || ra_buf_append(b, ",", 1)) && ra_json_escape(b, key, len) && ra_buf_append(b, ":", 1);
        return ok ? 1 : ra_norm_oom(n);
    }
    return 1;
}

static int cb_end_map(void *ctx) {
    ra_normalizer *n = ctx;
    n->events++;
    frame *f = n->top;
    switch (f->kind) {
    case F_RECORD: return ra_norm_close_record(n);
    case F_CAPTURE_MAP:
        if (!ra_buf_append(capture_buf(n, f), "}", 1)) return ra_norm_oom(n);
        if (f->outer) return ra_norm_capture_end(n, f);
        pop(n);
        return 1;
    case F_TOP:
        pop(n);
        if (!n->saw_data) return ra_norm_fail(n, RA_ERR_RESPONSE, "the response has no `data`");
        return 1;
    default: pop(n); return 1;
    }
}

static int cb_end_array(void *ctx) {
    ra_normalizer *n = ctx;
    n->events++;
    frame *f = n->top;
    if (f->kind == F_CAPTURE_ARRAY) {
        if (!ra_buf_append(capture_buf(n, f), "]", 1)) return ra_norm_oom(n);
        if (f->outer) return ra_norm_capture_end(n, f);
        pop(n);
        return 1;
    }
    if (f->kind == F_LIST) {  // (staged as its count, then its entries: see staged_list)
        uint32_t entries = n->nitems - f->item_base;
        if (entries > (UINT32_MAX - 32) / 4) return too_long(n);
        uint64_t off;
        uint8_t *dst = ra_buf_slot(&n->bytes, 4 + entries * 4, &off);
        if (!dst) return ra_norm_oom(n);
        memcpy(dst, &f->count, 4);
        if (entries) memcpy(dst + 4, n->items + f->item_base, (size_t)entries * 4);
        uint64_t v = ra_make(RA_TAG_REFS, off);
        note_high_water(n);
        n->nitems = f->item_base;
        pop(n);
        return ra_norm_stage_value(n, n->top, v);
    }
    pop(n);
    return 1;
}

// The callbacks every parser of a response is made with: the normalizer's (ra_normalizer.c) and
// replay's, for a buffered value.
const yajl_callbacks ra_norm_callbacks = {
    .yajl_null = cb_null,
    .yajl_boolean = cb_boolean,
    .yajl_number = cb_number,
    .yajl_string = cb_string,
    .yajl_start_map = cb_start_map,
    .yajl_map_key = cb_map_key,
    .yajl_end_map = cb_end_map,
    .yajl_start_array = cb_start_array,
    .yajl_end_array = cb_end_array,
};
