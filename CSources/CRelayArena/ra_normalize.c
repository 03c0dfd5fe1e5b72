// The streaming normalizer: yajl callbacks interpret the plan, stage each record until its
// object closes (id and __typename may come last), then commit it into the delta source.
#include "ra_normalize.h"
#include "ra_symbols.h"
#include "ra_records.h"
#include "ra_heap.h"
#include "ra_buf.h"
#include "ra_json.h"
#include "ra_alloc.h"
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>

static const yajl_callbacks callbacks;

// MARK: - Errors

static void append_path(ra_normalizer *n, char *out, size_t cap) {
    size_t len = 0;
    out[0] = 0;
    for (uint32_t d = 0; d < n->depth; d++) {
        const frame *f = &n->frames[d];
        char part[160];
        part[0] = 0;
        if (f->kind == F_RECORD && f->sel == RA_NONE) {
            snprintf(part, sizeof part, "data");
        } else if (f->kind == F_RECORD && f->index >= 0) {
            snprintf(part, sizeof part, ".%lld", (long long)f->index);
        } else if ((f->kind == F_RECORD || f->kind == F_LIST) && f->sel != RA_NONE) {
            uint32_t kl;
            const char *k = ra_plan_str(n->plan, n->plan->sels[f->sel].response_key, &kl);
            snprintf(part, sizeof part, ".%.*s", (int)(kl > 120 ? 120 : kl), k);
        }
        size_t pl = strlen(part);
        if (len + pl + 1 < cap) {
            memcpy(out + len, part, pl + 1);
            len += pl;
        }
    }
    if (n->depth) {
        const frame *top = n->top;
        if (top->kind == F_RECORD && top->cur_key != RA_NONE) {
            uint32_t kl;
            const char *k = ra_plan_str(n->plan, top->cur_key, &kl);
            snprintf(out + len, cap - len, ".%.*s", (int)(kl > 120 ? 120 : kl), k);
        } else if (top->kind == F_LIST) {
            snprintf(out + len, cap - len, ".%u", top->count);
        }
    }
}

// Records the first error (with the response path) and stops the parse.
__attribute__((format(printf, 3, 4), cold, noinline)) static int fail(ra_normalizer *n, ra_status code, const char *fmt, ...) {
    if (n->failed) return 0;
    n->failed = true;
    n->err.code = code;
    n->err.offset = n->consumed + (n->yh ? yajl_get_bytes_consumed(n->yh) : 0);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->err.message, sizeof n->err.message, fmt, ap);
    va_end(ap);
    append_path(n, n->err.path, sizeof n->err.path);
    return 0;
}

// Allocation failed, or interning hit one of the arena's limits (which says so).
__attribute__((cold, noinline)) static int oom(ra_normalizer *n) {
    if (n->delta && n->delta->nsyms >= RA_MAX_SYMBOLS)
        return fail(n, RA_ERR_LIMIT, "the response has more than %u data IDs and names, the arena's limit",
                    RA_MAX_SYMBOLS - 1);
    if (n->delta && n->delta->heap_full)
        return fail(n, RA_ERR_LIMIT, "the response's strings and lists pass the arena's limit of %u bytes", RA_MAX_HEAP);
    if (n->delta && n->delta->names_full)
        return fail(n, RA_ERR_LIMIT, "the response's data IDs and names pass the arena's limit of %u bytes",
                    RA_MAX_SYM_BYTES);
    if (n->delta && n->delta->types_full)
        return fail(n, RA_ERR_LIMIT, "the response has more than %u typenames, the arena's limit", RA_MAX_TYPES);
    if (n->delta && n->delta->shapes_full)
        return fail(n, RA_ERR_LIMIT, "the response has more than %u record shapes, the arena's limit", RA_MAX_SHAPES);
    if (n->delta && n->delta->fields_full)
        return fail(n, RA_ERR_LIMIT, "a record would hold more than %u fields, the arena's limit",
                    RA_MAX_FIELDS_PER_RECORD);
    return fail(n, RA_ERR_NOMEM, "out of memory while normalizing");
}

// A scalar longer than a heap slot can hold (4 GiB).
__attribute__((cold, noinline)) static int too_long(ra_normalizer *n) {
    return fail(n, RA_ERR_LIMIT, "a value is longer than the arena's 4 GiB limit");
}

static const char *sel_name(const ra_normalizer *n, uint32_t sel, int *len) {
    uint32_t l;
    const char *s = ra_plan_str(n->plan, n->plan->sels[sel].response_key, &l);
    *len = (int)(l > 200 ? 200 : l);
    return s;
}

// MARK: - Staging helpers

static uint64_t stage_bytes(ra_normalizer *n, unsigned tag, const void *_Nullable p, size_t len) {
    if (len > UINT32_MAX - 16) return 0;
    uint64_t off;
    uint8_t *dst = ra_buf_slot(&n->bytes, (uint32_t)len, &off);
    if (!dst) return 0;
    if (len) memcpy(dst, p, len);
    return ra_make(tag, off);
}

static inline __attribute__((always_inline)) bool stage_field(ra_normalizer *n, uint32_t key, uint64_t value, uint32_t buffered) {
    if (!ra_grow((void **)&n->fields, &n->cap_fields, n->nfields + 1, sizeof(staged_field))) return false;
    n->fields[n->nfields++] = (staged_field){.key = key, .buffered = buffered, .value = value};
    return true;
}

// A record's `id` text is placed at the end of the symbol bytes when it arrives and interned
// when the record closes (frame_id), so that a repeat can give its copy back. That needs the copy
// to be last then: before anything else adds a symbol (a child record opening, a first use of a
// storage key or type), the waiting ID is interned. At most one waits at a time: an open
// record's (`placed`), or a closed quick record's (`late_rec`, see close_late), which also waits
// for anything that reads or names records.
static inline uint32_t frame_id(ra_normalizer *n, frame *f);
static inline int resolve_late(ra_normalizer *n);
__attribute__((noinline)) static bool resolve_placed_slow(ra_normalizer *n) {
    if (n->late_rec) return resolve_late(n) != 0;
    return frame_id(n, &n->frames[n->placed - 1]) != 0;
}
static inline __attribute__((always_inline)) bool resolve_placed(ra_normalizer *n) {
    return !(n->placed | n->late_rec) || resolve_placed_slow(n);
}
/// The closed record's waiting ID, if there is one (before reading or naming records).
static inline __attribute__((always_inline)) bool resolve_late_if_any(ra_normalizer *n) {
    return !n->late_rec || resolve_placed_slow(n);
}

// A quick record frame (frame.quick) that turns out to need the general path after all (a
// pending link, a record parked inside; a buffered value or a list, which the plan keeps from
// quick sets, would be the same): its fields go back to the staging stack, and its unnamed
// record is dropped (its values become garbage).
__attribute__((noinline)) static bool demote(ra_normalizer *n, frame *f) {
    if (!resolve_late_if_any(n)) return false;  // (a closed record's link may be one of these slots)
    ra_source *d = n->delta;
    uint32_t first = f->qword_base - f->qw_off, count = f->slot - first;
    f->quick = false;
    if (!ra_grow((void **)&n->fields, &n->cap_fields, n->nfields + count, sizeof(staged_field))) return false;
    for (uint32_t i = 0; i < count; i++) {
        uint64_t slot = ((uint64_t)d->vals[first + i] << 32) | n->qwords[f->qword_base + i];
        n->fields[n->nfields++] = (staged_field){.key = ra_slot_key(slot), .value = ra_slot_value(slot)};
    }
    if (f->id_field == ID_IN_FLAG) {  // the `id` kept for the flag becomes a staged field, filled in at commit
        if (!stage_field(n, d->id_key, ra_make(RA_TAG_IDSTR, 0), 0)) return false;
        f->id_field = count + 1;
    }
    ra_record_drop_unnamed(d, f->rec);
    return true;
}

// A field of a record frame: a quick one's value goes straight into its record's next value, its
// key and tag into the shape words waiting for the record's close (there is room for each entry
// of its set, but for a string `id`, kept in the record's flag; past that it is demoted: a quick
// record whose `id` is not a string), another's onto the staging stack.
static inline __attribute__((always_inline)) bool add_field(ra_normalizer *n, frame *f, uint32_t key, uint64_t value) {
    if (f->quick) {
        if (__builtin_expect(f->slot < f->slot_end, 1)) {
            uint64_t slot = ra_slot_pack(key, value);
            n->qwords[f->slot + f->qw_off] = ra_slot_word(slot);
            n->delta->vals[f->slot++] = (uint32_t)(slot >> 32);
            return true;
        }
        if (!demote(n, f)) return false;
    }
    return stage_field(n, key, value, 0);
}

// How many fields the record frame has so far.
static inline uint32_t field_count(const ra_normalizer *n, const frame *f) {
    return f->quick ? f->slot - (f->qword_base - f->qw_off) : n->nfields - f->field_base;  // (its first value: qw_off)
}

// Storage keys and type names come from the plan: intern each once per payload, not per field.
__attribute__((noinline)) static uint32_t plan_sym_intern(ra_normalizer *n, uint32_t str) {
    if (!resolve_placed(n)) return 0;
    uint32_t l;
    const char *s = ra_plan_str(n->plan, str, &l);
    return n->plan_syms[str] = ra_intern(n->delta, s, l);
}
static inline __attribute__((always_inline)) uint32_t plan_sym(ra_normalizer *n, uint32_t str) {
    uint32_t sym = n->plan_syms[str];
    return sym ? sym : plan_sym_intern(n, str);
}
// And a type name's index in the delta's type table (0 on OOM / limit).
__attribute__((noinline)) static uint32_t plan_type_index(ra_normalizer *n, uint32_t str) {
    uint32_t sym = plan_sym(n, str), t = sym ? ra_type_index(n->delta, sym) : 0;
    n->plan_types[str] = (uint16_t)t;
    return t;
}
static inline __attribute__((always_inline)) uint32_t plan_type(ra_normalizer *n, uint32_t str) {
    uint32_t t = n->plan_types[str];
    return t ? t : plan_type_index(n, str);
}

// The list-item and pending stacks only shrink in a few places: their high-water marks (what
// ra_normalizer_destroy hands back as written) are taken there, not per item.
static void note_high_water(ra_normalizer *n) {
    if (n->nitems > n->hw_items) n->hw_items = n->nitems;
    if (n->npend > n->hw_pend) n->hw_pend = n->npend;
    if (n->npfields > n->hw_pfields) n->hw_pfields = n->npfields;
}

// What a frame that is not a record expects of its keys: never the next entry (cb_map_key).
static const ra_entry no_entry = {.key_len = UINT32_MAX, .key = RA_NONE, .cur_sel = RA_NONE};

static inline __attribute__((always_inline)) frame *push(ra_normalizer *n, uint8_t kind) {
    if (n->depth >= n->limits.max_depth) {
        fail(n, RA_ERR_DEPTH, "nesting depth exceeds the limit of %u", n->limits.max_depth);
        return NULL;
    }
    if (!ra_grow((void **)&n->frames, &n->cap_frames, n->depth + 1, sizeof(frame))) {
        oom(n);
        return NULL;
    }
    frame *f = &n->frames[n->depth++];
    n->top = f;
    *f = (frame){.kind = kind,
                 .sel = RA_NONE,
                 .cur_key = RA_NONE,
                 .index = -1,
                 .field_base = n->nfields,
                 .item_base = n->nitems,
                 .pend_base = n->npend,
                 .pfield_base = n->npfields,
                 .byte_base = n->bytes.len,
                 .key_base = (uint32_t)n->keys.len,
                 .tbl_base = n->ntbl,
                 .qword_base = n->nqwords,
                 .next_en = &no_entry};
    return f;
}

// A record of selection set `set`, opened by selection `sel` (RA_NONE for the root).
static inline __attribute__((always_inline)) frame *push_record(ra_normalizer *n, uint32_t set, uint32_t sel) {
    // The owner's ID, before the child's symbols. (A closed record's may wait: opening a record
    // adds no symbol and reads none.)
    if (n->placed && !resolve_placed_slow(n)) {
        oom(n);
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
            oom(n);
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

// MARK: - Duplicate keys among unmatched keys of one map

static bool key_at(const ra_normalizer *n, uint32_t off, const uint8_t **p, uint32_t *len) {
    *len = ra_load_u32(n->keys.data + off);
    *p = n->keys.data + off + 4;
    return true;
}

static bool tbl_insert(ra_normalizer *n, frame *f, uint32_t off) {
    const uint8_t *p;
    uint32_t len;
    key_at(n, off, &p, &len);
    uint32_t mask = f->tbl_cap - 1;
    for (uint32_t i = ra_hash(p, len) & mask;; i = (i + 1) & mask) {
        if (!n->tbl[f->tbl_base + i]) {
            n->tbl[f->tbl_base + i] = off + 1;
            return true;
        }
    }
}

// Returns 1 when the key was new, 0 for a duplicate, -1 on OOM.
static int remember_key(ra_normalizer *n, frame *f, const unsigned char *key, size_t len) {
    if (f->nkeys < 8) {
        uint64_t off = f->key_base;
        for (uint32_t i = 0; i < f->nkeys; i++) {
            uint32_t kl = ra_load_u32(n->keys.data + off);
            if (kl == len && memcmp(n->keys.data + off + 4, key, len) == 0) return 0;
            off += 4 + kl + ((4 - (kl % 4)) % 4);
        }
    } else {
        if (f->tbl_cap < 4 * (f->nkeys + 1)) {
            // Rebuild this map's table (it sits on top of the table stack).
            uint32_t cap = f->tbl_cap ? f->tbl_cap * 2 : 64;
            while (cap < 4 * (f->nkeys + 1)) cap *= 2;
            if (!ra_grow((void **)&n->tbl, &n->cap_tbl, f->tbl_base + cap, sizeof(uint32_t))) return -1;
            memset(n->tbl + f->tbl_base, 0, cap * sizeof(uint32_t));
            f->tbl_cap = cap;
            n->ntbl = f->tbl_base + cap;
            uint64_t off = f->key_base;
            for (uint32_t i = 0; i < f->nkeys; i++) {
                tbl_insert(n, f, (uint32_t)off);
                uint32_t kl = ra_load_u32(n->keys.data + off);
                off += 4 + kl + ((4 - (kl % 4)) % 4);
            }
        }
        uint32_t mask = f->tbl_cap - 1;
        for (uint32_t i = ra_hash(key, len) & mask;; i = (i + 1) & mask) {
            uint32_t e = n->tbl[f->tbl_base + i];
            if (!e) break;
            const uint8_t *p;
            uint32_t kl;
            key_at(n, e - 1, &p, &kl);
            if (kl == len && memcmp(p, key, len) == 0) return 0;
        }
    }
    if (len > UINT32_MAX - 8 || n->keys.len + len + 8 > UINT32_MAX) return -1;
    uint32_t off = (uint32_t)n->keys.len;
    uint32_t l = (uint32_t)len;
    size_t pad = (4 - (len % 4)) % 4;
    static const uint8_t zeros[4] = {0};
    if (!ra_buf_append(&n->keys, &l, 4) || !ra_buf_append(&n->keys, key, len) || !ra_buf_append(&n->keys, zeros, pad))
        return -1;
    f->nkeys++;
    if (f->tbl_cap) tbl_insert(n, f, off);
    return 1;
}

static inline __attribute__((always_inline)) void pop(ra_normalizer *n) {
    frame *f = &n->frames[--n->depth];
    n->top = n->depth ? f - 1 : &n->bottom;
    if (n->placed > n->depth) n->placed = 0;  // a record interns its ID before it is popped: a failed payload
    n->keys.len = f->key_base;
    n->ntbl = f->tbl_base;
    n->nqwords = f->qword_base;
}

// MARK: - Capture (custom scalars, buffered values, the errors member) as minified JSON

static ra_buf *capture_buf(ra_normalizer *n, const frame *f) {
    return f->target == CAP_ERRORS ? &n->errors_json : f->target == CAP_HEAP ? &n->delta->heap : &n->bytes;
}

static bool capture_sep(ra_normalizer *n, frame *f) {
    if (f->kind == F_CAPTURE_ARRAY && f->count++ > 0) return ra_buf_append(capture_buf(n, f), ",", 1);
    return true;
}

static int capture_begin(ra_normalizer *n, uint8_t target, uint8_t kind) {
    frame *f = push(n, kind);
    if (!f) return 0;
    f->outer = true;
    f->target = target;
    ra_buf *b = capture_buf(n, f);
    // Room for the value's length; the text grows after it and the length is written at the end
    // (a heap value's in its long form, until then).
    static const uint8_t long_head[5] = {RA_LEN_LONG};
    f->cap_off = b->len;
    if (target == CAP_HEAP && !ra_buf_append(b, long_head, sizeof long_head)) return oom(n);
    if (target == CAP_STAGING && !ra_buf_slot(b, 0, &f->cap_off)) return oom(n);
    return ra_buf_append(b, kind == F_CAPTURE_MAP ? "{" : "[", 1) ? 1 : oom(n);
}

static int stage_value(ra_normalizer *n, frame *rec, uint64_t value);

// The outermost capture closed: its text becomes the parent's staged value.
static int capture_end(ra_normalizer *n, frame *f) {
    uint8_t target = f->target;
    uint64_t off = f->cap_off;
    ra_buf *b = capture_buf(n, f);
    pop(n);
    if (target == CAP_ERRORS) return 1;
    size_t head = target == CAP_HEAP ? 5 : 4;
    if (b->len - off - head > UINT32_MAX - 16 || (target == CAP_HEAP && b->len > RA_MAX_HEAP))
        return fail(n, RA_ERR_LIMIT, "a custom scalar value passes the arena's 4 GiB limit");
    uint32_t len = (uint32_t)(b->len - off - head);
    if (target == CAP_STAGING) {
        memcpy(b->data + off, &len, 4);
    } else if (len < RA_LEN_LONG) {
        b->data[off] = (uint8_t)len;  // the short form: the text moves up to follow one byte
        memmove(b->data + off + 1, b->data + off + 5, len);
        b->len -= 4;
    } else {
        memcpy(b->data + off + 1, &len, 4);
    }
    return stage_value(n, n->top, ra_make(RA_TAG_JSON, off));
}

static int capture_scalar(ra_normalizer *n, frame *f, const char *text, size_t len, bool quote) {
    ra_buf *b = capture_buf(n, f);
    if (!capture_sep(n, f)) return oom(n);
    bool ok = quote ? ra_json_escape(b, (const uint8_t *)text, len) : ra_buf_append(b, text, len);
    return ok ? 1 : oom(n);
}

// MARK: - Records: conditions, IDs, commit

static bool watch_present(const ra_normalizer *n, const frame *f, uint32_t name) {
    const ra_set_info *info = &n->plan->info[f->set];
    uint32_t nl;
    const char *s = ra_plan_str(n->plan, name, &nl);
    for (uint32_t w = 0; w < info->watch_count; w++)
        if (ra_plan_str_eq(n->plan, n->plan->watch[info->watch_first + w], s, nl)) return (f->present >> w) & 1;
    return false;
}

static bool conds_hold(const ra_normalizer *n, const frame *f, const char *type, size_t type_len, uint32_t first,
                       uint32_t count) {
    for (uint32_t c = first; c < first + count; c++) {
        const ra_plan_cond *cond = &n->plan->conds[c];
        if (cond->kind == RA_COND_TYPE_IS) {
            if (!ra_plan_str_eq(n->plan, cond->name, type, type_len)) return false;
        } else if (!watch_present(n, f, cond->name)) {
            return false;
        }
    }
    return true;
}

static int stage_value(ra_normalizer *n, frame *rec, uint64_t value) {
    if (!value) return oom(n);
    if (rec->kind == F_LIST) {
        // Only records and nulls reach a list (checked by the callers).
        uint32_t item = value == ra_make(RA_TAG_NULL, 0) ? 0
                        : ra_value_tag(value) == RA_TAG_PEND ? (RA_ITEM_PEND | (uint32_t)ra_value_payload(value))
                                                             : (uint32_t)ra_value_payload(value);
        if (!ra_grow((void **)&n->items, &n->cap_items, n->nitems + 1, sizeof(uint32_t))) return oom(n);
        n->items[n->nitems++] = item;
        rec->count++;
        return 1;
    }
    bool buffered = rec->cur == CUR_BUFFER;
    rec->buffered |= buffered;
    unsigned tag = ra_value_tag(value);
    bool special = tag == RA_TAG_PEND || tag == RA_TAG_REFS;  // translated at commit
    rec->special |= special;
    if ((buffered || special) && rec->quick && !demote(n, rec)) return oom(n);
    uint32_t key = buffered ? rec->cur_sel : plan_sym(n, n->plan->sels[rec->cur_sel].storage_key);
    return key && (rec->quick ? add_field(n, rec, key, value) : stage_field(n, key, value, buffered)) ? 1 : oom(n);
}

// Its items: a committed entry's run, else the one record.
static inline uint32_t pend_items(const pend_rec *p) { return p->committed ? p->count + 1 : 1; }
// The data ID of item `k` of pending entry `p` (k 0 for a record that is no run), once settled.
static inline uint32_t pend_id(const ra_normalizer *n, const pend_rec *p, uint32_t k) {
    return p->ids_apart ? n->run_ids[p->resolved + k] : p->resolved + k;
}

// A staged list: its slot's length, its items' count, then its entries, each an item's symbol or
// its pending entry (RA_ITEM_PEND), which stands for all the items of its run (an edge that
// extends the run before it adds no entry: see park_item). Read front to back, in the delta's
// terms, with staged_next.
typedef struct staged_list {
    const uint8_t *entries;
    uint32_t count, nentries;  // its items; its entries
    uint32_t j, k;             // the next item: its entry, and its place in the entry's run
} staged_list;
static inline staged_list staged_list_at(const uint8_t *p) {
    uint32_t len = ra_load_u32(p);
    return (staged_list){.entries = p + 8, .count = ra_load_u32(p + 4), .nentries = (len - 4) / 4};
}
// The next item's data ID (the entries cover the items: 0 past them, which does not happen).
static inline uint32_t staged_next(const ra_normalizer *n, staged_list *l) {
    if (l->j >= l->nentries) return 0;
    uint32_t item = ra_load_u32(l->entries + 4 * (size_t)l->j);
    if (!(item & RA_ITEM_PEND)) {
        l->j++;
        return item;
    }
    const pend_rec *e = &n->pend[item & ~RA_ITEM_PEND];
    uint32_t id = pend_id(n, e, l->k);
    if (++l->k == pend_items(e)) {
        l->k = 0;
        l->j++;
    }
    return id;
}

// The first item of a staged list whose items are one run of consecutive symbols (ra_refs_of),
// else 0. Entry by entry, not item by item: a run of waiting items whose IDs follow its first's
// (not ids_apart) is consecutive in itself, so a connection's million edges are one test.
static uint32_t staged_run_first(const ra_normalizer *n, staged_list l) {
    uint64_t first = 0, i = 0;
    for (uint32_t j = 0; j < l.nentries; j++) {
        uint32_t item = ra_load_u32(l.entries + 4 * (size_t)j), m = 1, id = item;
        if (item & RA_ITEM_PEND) {
            const pend_rec *e = &n->pend[item & ~RA_ITEM_PEND];
            m = pend_items(e);
            id = pend_id(n, e, 0);
            for (uint32_t k = 1; e->ids_apart && k < m; k++)
                if (pend_id(n, e, k) != (uint64_t)id + k) return 0;
        }
        if (!id) return 0;
        if (i == 0) first = id;
        else if (id != first + i) return 0;
        i += m;
    }
    return i == l.count && ra_refs_is_run((uint32_t)first, l.count) ? (uint32_t)first : 0;
}

// The staged value in the delta's terms: lists copied, pending links resolved. (The record's own
// `id`, staged before its data ID was interned, gets that symbol in finish_record.)
static uint64_t to_delta_slow(ra_normalizer *n, uint64_t v, const uint8_t *base) {
    switch (ra_value_tag(v)) {
    case RA_TAG_PEND: return ra_make(RA_TAG_REF, pend_id(n, &n->pend[ra_value_payload(v)], 0));
    case RA_TAG_REFS: {
        staged_list l = staged_list_at(base + ra_value_payload(v));
        uint32_t count = l.count, first = staged_run_first(n, l);
        if (first) return ra_refs_put_run(n->delta, first, count);  // (a connection's edges, named one after another)
        uint64_t off;
        uint8_t *out = ra_heap_alloc(n->delta, count * 4, &off);
        if (!out) return 0;
        for (uint32_t i = 0; i < count; i++) {
            uint32_t item = staged_next(n, &l);
            memcpy(out + 4 * (size_t)i, &item, 4);
        }
        return ra_make(RA_TAG_REFS, off);
    }
    default: return v;
    }
}

static inline __attribute__((always_inline)) uint64_t to_delta(ra_normalizer *n, uint64_t v, const uint8_t *base) {
    unsigned tag = ra_value_tag(v);
    return tag == RA_TAG_PEND || tag == RA_TAG_REFS ? to_delta_slow(n, v, base) : v;
}

// __typename is the record's type key, not a field of its own.
static int set_type_from(ra_normalizer *n, int64_t rec, uint64_t v) {
    if (ra_value_tag(v) != RA_TAG_STRING) return 1;
    uint32_t len;
    const uint8_t *p = ra_heap_value(n->delta, ra_value_payload(v), &len);
    uint32_t t = ra_intern(n->delta, (const char *)p, len), ti = t ? ra_type_index(n->delta, t) : 0;
    if (!ti) return oom(n);
    ra_rec(n->delta, (uint32_t)rec)->type = (uint16_t)ti;
    return 1;
}

// Whether a staged field's key is the `__typename` storage key (the record's type, not a field).
static inline bool is_typename_key(const ra_normalizer *n, uint32_t key) {
    return n->plan->typename_str != RA_NONE && key == n->plan_syms[n->plan->typename_str];
}

// seal_shape's search (and the set's shape from then).
__attribute__((noinline)) static bool seal_shape_slow(ra_normalizer *n, ra_record *r, const uint32_t *words, uint32_t count,
                                                      uint32_t set) {
    uint32_t shape = ra_shape_of(n->delta, words, count);  // (adds a shape at most: `r` stays where it is)
    if (shape == RA_NONE) return false;
    r->shape = (uint16_t)shape;
    if (set != RA_NONE) n->set_shapes[set] = (uint16_t)shape;
    return true;
}

// Gives record `r` the shape of its `count` fields' `words` (not in the delta's shape words):
// the last shape a record of set `set` took when it is the same (records of one selection
// mostly are), else found or added. False on OOM / past the shapes' limit.
static inline __attribute__((always_inline)) bool seal_shape(ra_normalizer *n, ra_record *r, const uint32_t *words,
                                                             uint32_t count, uint32_t set) {
    ra_source *d = n->delta;
    uint32_t last = set != RA_NONE ? n->set_shapes[set] : 0;
    if (last && d->shapes.at[last].count == count) {
        // (A few words: a loop, not a libc call.)
        const uint32_t *w = d->shapes.words + d->shapes.at[last].first;
        uint32_t i = 0;
        while (i < count && w[i] == words[i]) i++;
        if (i == count) {
            r->shape = (uint16_t)last;
            return true;
        }
    }
    return seal_shape_slow(n, r, words, count, set);
}

// Room for `count` shape words past the open quick records' (where a record's shape is built).
static inline __attribute__((always_inline)) uint32_t *_Nullable shape_scratch(ra_normalizer *n, uint32_t count) {
    // (At least one word: a record with no field still gets a pointer.)
    if (!ra_grow((void **)&n->qwords, &n->cap_qwords, n->nqwords + count + 1, sizeof(uint32_t))) return NULL;
    return n->qwords + n->nqwords;
}

// Staged fields into values and shape words, as they are.
static inline __attribute__((always_inline)) void put_fields(uint32_t *vals, uint32_t *words, const staged_field *fields,
                                                             uint32_t count) {
    // A handful of fields: a plain loop, not a vectorized one with its overlap checks.
#pragma clang loop vectorize(disable) interleave(disable)
    for (uint32_t i = 0; i < count; i++) {
        uint64_t slot = ra_slot_pack(fields[i].key, fields[i].value);
        vals[i] = (uint32_t)(slot >> 32);
        words[i] = ra_slot_word(slot);
    }
}

// A new record's fields, exactly as staged (see commit's `plain`). False on OOM / limit.
static inline __attribute__((always_inline)) bool copy_fields(ra_normalizer *n, uint32_t rec, const staged_field *fields,
                                                              uint32_t count, uint32_t set) {
    uint32_t *w = shape_scratch(n, count);
    if (!w) return false;
    ra_record *r = ra_rec(n->delta, rec);
    put_fields(n->delta->vals + r->fields, w, fields, count);
    return seal_shape(n, r, w, count, set);
}

// Which staged field is the record's `id` holding data ID `id` (kept in the record's flag, in
// no slot: see ra_record.self_id), `count` for none.
static uint32_t self_id_at(const ra_source *d, uint32_t id, const staged_field *fields, uint32_t count) {
    for (uint32_t i = 0; i < count; i++)
        if (!fields[i].buffered && fields[i].key == d->id_key && fields[i].value == ra_make(RA_TAG_IDSTR, id)) return i;
    return count;
}

// A new record named `id` with the staged fields as they are (commit's `plain`), its `id` in its
// flag.
static inline __attribute__((always_inline)) int64_t new_record_with(ra_normalizer *n, uint32_t id, uint32_t type,
                                                                     const staged_field *fields, uint32_t count,
                                                                     uint32_t set) {
    ra_source *d = n->delta;
    uint32_t skip = self_id_at(d, id, fields, count);
    bool flag = skip < count;
    uint32_t *w = shape_scratch(n, count);
    int64_t rec = w ? ra_record_new(d, id, type, count - flag) : -1;
    if (rec < 0) return rec;
    ra_record *r = &d->syms[rec].rec;
    put_fields(d->vals + r->fields, w, fields, skip);
    if (flag) put_fields(d->vals + r->fields + skip, w + skip, fields + skip + 1, count - skip - 1);
    r->self_id = flag;
    return seal_shape(n, r, w, count - flag, set) ? rec : -1;
}

// A record made before its data ID was known (a quick record, whose `id` may come last; one
// whose client ID waited for its owner's ID: a connection's edge, say) takes that ID: its header
// moves to the ID's entry. When the ID has a record already (the same item reached twice in one
// payload), the fields are set there instead, later values winning as in commit, and the unnamed
// record is dropped (its values become garbage).
// (`r`: the unnamed record's header, in the unnamed table or a parked record's entry.)
__attribute__((noinline)) static int merge_unnamed(ra_normalizer *n, uint32_t id, const ra_record *r) {
    ra_source *d = n->delta;
    uint32_t count = ra_rec_count(d, r);
    if (!ra_grow((void **)&n->setbuf, &n->cap_setbuf, count + 1, sizeof(uint64_t))) return oom(n);
    for (uint32_t i = 0; i < count; i++) n->setbuf[i] = ra_rec_slot(d, r, i);
    if (r->self_id) n->setbuf[count++] = ra_slot_pack(d->id_key, ra_make(RA_TAG_IDSTR, id));
    return ra_record_set_all(d, id, n->setbuf, count) ? 1 : oom(n);
}
static inline __attribute__((always_inline)) int name_record(ra_normalizer *n, uint32_t id, uint32_t rec) {
    ra_source *d = n->delta;
    if (__builtin_expect(ra_has_record(d, id), 0)) {
        if (!merge_unnamed(n, id, ra_rec(d, rec))) return 0;
        ra_record_drop_unnamed(d, rec);
        return 1;
    }
    ra_record_name(d, rec, id);
    return 1;
}
// name_record for a parked record, whose header waited in its pending entry (commit_unnamed).
static inline __attribute__((always_inline)) int name_parked(ra_normalizer *n, uint32_t id, const ra_record *r) {
    ra_source *d = n->delta;
    if (__builtin_expect(ra_has_record(d, id), 0)) return merge_unnamed(n, id, r);
    ra_record_put(d, id, *r);
    return 1;
}

// Interns the ID a closed record left waiting (close_late), writes it into the record's `id`
// field and its parent's link, and names the record (or merges it into the ID's record).
static inline __attribute__((always_inline)) int resolve_late(ra_normalizer *n) {
    ra_source *d = n->delta;
    uint32_t rec = n->late_rec - 1;
    n->late_rec = 0;
    uint32_t id = ra_intern_placed(d, n->late_off, n->late_len, n->late_hash);
    if (!id) return oom(n);
    // (Their shape words have their tags, IDSTR and REF, already.)
    if (n->late_id_slot != UINT32_MAX) d->vals[n->late_id_slot] = id;  // (else the record keeps its `id` in its flag)
    d->vals[n->late_link] = id;
    return name_record(n, id, rec);
}

// A quick record frame's record, its fields all in: its shape, and the `id` field's value, the
// data ID's symbol (0 while the frame's data ID is not known). False on OOM / limit.
static inline __attribute__((always_inline)) bool seal_quick(ra_normalizer *n, const frame *f, uint32_t id) {
    ra_source *d = n->delta;
    ra_record *r = ra_unnamed_rec(d, f->rec);
    if (f->id_field == ID_IN_FLAG) r->self_id = 1;
    else if (f->id_field) d->vals[r->fields + f->id_field - 1] = id;  // (its word's tag is IDSTR: stage_id)
    return seal_shape(n, r, n->qwords + f->qword_base, f->slot - r->fields, f->set);
}

// `unique`: the fields' storage keys are known to be distinct (ra_set_info.unique_storage), so a
// record created here takes them as staged, without looking for an earlier slot of each key.
// `plain`: moreover none is buffered, `__typename`, a pending link or a list (whose items need
// translating), and the `id` field has its symbol already, so they are copied as they are.
static int commit(ra_normalizer *n, uint32_t id, uint32_t type, const staged_field *fields, uint32_t count,
                  const uint8_t *base, bool unique, bool plain) {
    bool created = !ra_has_record(n->delta, id);
    if (created && plain) return new_record_with(n, id, type, fields, count, RA_NONE) >= 0 ? 1 : oom(n);
    uint32_t skip = created && unique ? self_id_at(n->delta, id, fields, count) : count;
    // The room a record needs: a slot for each field written below, none for a buffered field,
    // `__typename` (the record's type) or, when known, its own `id` (the header bit). Without
    // `unique` that is at most what the record takes, since ra_record_set keeps one slot a key.
    // (Needed for a new record, and for an existing one with no field yet: the root, made with
    // the normalizer, which takes its room at once rather than a slot at a time.)
    bool empty = created || ra_rec_count(n->delta, &n->delta->syms[id].rec) == 0;
    uint32_t room = 0;
    for (uint32_t i = 0; empty && i < count; i++) room += !fields[i].buffered && i != skip && !is_typename_key(n, fields[i].key);
    int64_t rec = created ? ra_record_new(n->delta, id, type, room) : id;
    if (rec < 0) return oom(n);
    if (!created && empty && !ra_record_reserve(n->delta, (uint32_t)rec, room)) return oom(n);
    if (created && unique) {
        uint32_t at = n->delta->syms[id].rec.fields, c = 0, *w = shape_scratch(n, count);
        if (!w) return oom(n);
        n->delta->syms[id].rec.self_id = skip < count;
        for (uint32_t i = 0; i < count; i++) {
            if (fields[i].buffered || i == skip) continue;
            if (is_typename_key(n, fields[i].key)) {
                if (!set_type_from(n, rec, fields[i].value)) return 0;
                continue;
            }
            uint64_t dv = to_delta(n, fields[i].value, base);
            if (!dv) return oom(n);
            if (fields[i].key == n->delta->id_key && ra_is_own_id(n->delta, (uint32_t)rec, dv)) {
                n->delta->syms[id].rec.self_id = 1;  // (an `id` replayed as text, say)
                continue;
            }
            uint64_t slot = ra_slot_pack(fields[i].key, dv);
            n->delta->vals[at + c] = (uint32_t)(slot >> 32);
            w[c++] = ra_slot_word(slot);
        }
        if (!seal_shape(n, &n->delta->syms[id].rec, w, c, RA_NONE)) return oom(n);
        ra_record_trim(n->delta, (uint32_t)rec);
        return 1;
    }
    // The fields set at once, the record taking its new shape once.
    if (!ra_grow((void **)&n->setbuf, &n->cap_setbuf, count ? count : 1, sizeof(uint64_t))) return oom(n);
    uint32_t nset = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (fields[i].buffered) continue;
        uint64_t v = fields[i].value;
        if (is_typename_key(n, fields[i].key)) {
            if (!set_type_from(n, rec, v)) return 0;
            continue;
        }
        uint64_t dv = to_delta(n, v, base);
        if (!dv) return oom(n);
        n->setbuf[nset++] = ra_slot_pack(fields[i].key, dv);
    }
    if (!ra_record_set_all(n->delta, (uint32_t)rec, n->setbuf, nset)) return oom(n);
    ra_record_trim(n->delta, (uint32_t)rec);  // (room left, when its slots end the arena)
    return 1;
}

// Writes "client:<parent>:<storage key>" (no second "client:" when the parent is a client ID)
// to `out`, which has room for 7 + the parent's length + 1 + the key's; returns its length.
static size_t client_prefix(ra_normalizer *n, char *out, uint32_t parent, uint32_t storage_key) {
    uint32_t pl = ra_sym_length(n->delta, parent), kl;
    const char *k = ra_plan_str(n->plan, storage_key, &kl);
    // The parent's text after a "client:" that goes again when the parent has one already.
    memcpy(out, "client:", 7);
    ra_sym_write(n->delta, parent, out + 7);
    char *w = out + 7;
    if (pl >= 7 && memcmp(w, "client:", 7) == 0) {
        memmove(out, w, pl);
        w = out;
    }
    w += pl;
    *w++ = ':';
    memcpy(w, k, kl);
    return (size_t)(w + kl - out);
}

// Room for client_prefix's text plus ":" and an index.
static size_t client_id_room(ra_normalizer *n, uint32_t parent, uint32_t storage_key) {
    return 7 + (size_t)ra_sym_length(n->delta, parent) + 1 + n->plan->str[storage_key].length + 1 + 24;
}


// The ID the parent already links there in this payload (relay reuses it when the same field is
// normalized twice), or 0.
static uint32_t previous_link(ra_normalizer *n, uint32_t parent, uint32_t storage_key, int64_t index) {
    int64_t prec = ra_source_record_for_symbol(n->delta, parent);
    if (prec < 0) return 0;
    uint32_t ksym = plan_sym(n, storage_key);
    uint64_t prev = ksym ? ra_record_get(n->delta, (uint32_t)prec, ksym) : 0;
    if (index < 0 && ra_value_tag(prev) == RA_TAG_REF) return (uint32_t)ra_value_payload(prev);
    if (index >= 0 && ra_value_tag(prev) == RA_TAG_REFS && (uint64_t)index < ra_source_refs_count(n->delta, prev))
        return ra_source_refs_at(n->delta, prev, (uint32_t)index);
    return 0;
}

static inline uint32_t list_item_client_id(ra_normalizer *n, uint32_t parent, uint32_t storage_key, uint32_t index);

// generateClientID(parent, storageKey, index), or the ID the parent already links there.
static uint32_t client_id(ra_normalizer *n, uint32_t parent, uint32_t storage_key, int64_t index) {
    uint32_t prev = previous_link(n, parent, storage_key, index);
    if (prev) return prev;
    if (index >= 0) return index <= UINT32_MAX ? list_item_client_id(n, parent, storage_key, (uint32_t)index) : 0;
    // "client:<parent>:<storage key>", written in place at the end of the symbol bytes.
    char *out = ra_sym_tail(n->delta, client_id_room(n, parent, storage_key));
    return out ? ra_intern_tail(n->delta, client_prefix(n, out, parent, storage_key)) : 0;
}

// The frame's data ID. A string `id` is interned when first needed, not when it arrives: its
// index slot was prefetched then, and the record's other members hide the wait.
static inline __attribute__((always_inline)) uint32_t frame_id(ra_normalizer *n, frame *f) {
    if (f->id_deferred) {
        f->id_deferred = false;
        if (n->placed == (uint32_t)(f - n->frames) + 1) n->placed = 0;
        f->resolved = ra_intern_placed(n->delta, f->id_off, f->id_len, f->id_hash);
    }
    return f->resolved;
}

// The record's type for conditions and creation: __typename staged as a field wins, then the
// field's concrete type, then the response's __typename.
static const char *record_type(ra_normalizer *n, frame *f, size_t *len, uint32_t *plan_str) {
    *plan_str = RA_NONE;
    for (uint32_t i = n->plan->typename_str == RA_NONE ? n->nfields : f->field_base; i < n->nfields; i++) {
        if (!n->fields[i].buffered && ra_value_tag(n->fields[i].value) == RA_TAG_STRING &&
            is_typename_key(n, n->fields[i].key)) {
            uint32_t l;
            const uint8_t *p = ra_heap_value(n->delta, ra_value_payload(n->fields[i].value), &l);
            *len = l;
            return (const char *)p;
        }
    }
    if (f->sel == RA_NONE) {
        *len = 6;
        return "__Root";
    }
    uint32_t ct = n->plan->sels[f->sel].concrete_type;
    if (ct != RA_NONE) {
        uint32_t l;
        const char *s = ra_plan_str(n->plan, ct, &l);
        *len = l;
        *plan_str = ct;
        return s;
    }
    if (f->has_tn) {
        *len = f->tn_len;
        return (const char *)n->bytes.data + f->tn_off;
    }
    return NULL;
}

static int replay(ra_normalizer *n, uint32_t depth, uint32_t cand, uint64_t text_value);

static int write_type_record(ra_normalizer *n, const char *type, size_t tlen, uint32_t key_str, bool value) {
    ra_buf *b = &n->scratch;
    b->len = 0;
    if (!ra_buf_append(b, "client:__type:", 14) || !ra_buf_append(b, type, tlen)) return oom(n);
    uint32_t id = ra_intern(n->delta, (const char *)b->data, b->len);
    uint32_t key = plan_sym(n, key_str);
    if (!id || !key || !n->sym_type_schema) return oom(n);
    bool created;
    int64_t rec = ra_record_get_or_create(n->delta, id, n->sym_type_schema, &created);
    if (rec < 0 || !ra_record_set(n->delta, (uint32_t)rec, key, ra_make(value ? RA_TAG_TRUE : RA_TAG_FALSE, 0)))
        return oom(n);
    return 1;
}

// The client IDs of one list's items, "client:<parent>:<storage key>:<index>", share all but
// the index: they are derived symbols of the prefix "client:<parent>:<storage key>", interned
// once per list (the last prefix is kept).
__attribute__((noinline)) static bool list_prefix(ra_normalizer *n, uint32_t parent, uint32_t storage_key) {
    ra_buf *b = &n->scratch;
    if (!ra_buf_reserve(b, client_id_room(n, parent, storage_key))) return false;
    size_t len = client_prefix(n, (char *)b->data, parent, storage_key);
    uint32_t sym = ra_intern(n->delta, (const char *)b->data, len);
    if (!sym) return false;
    n->cid_parent = parent;
    n->cid_key = storage_key;
    n->cid_prefix = sym;
    n->cid_hint = UINT32_MAX;
    return true;
}
static inline __attribute__((always_inline)) uint32_t list_item_client_id(ra_normalizer *n, uint32_t parent,
                                                                          uint32_t storage_key, uint32_t index) {
    if ((n->cid_parent != parent || n->cid_key != storage_key) && !list_prefix(n, parent, storage_key)) return 0;
    return ra_intern_derived_hinted(n->delta, n->cid_prefix, index, &n->cid_hint);
}

// A frame's list position as a pending record keeps it.
static inline uint32_t pend_index_of(const frame *f) { return f->index < 0 ? PEND_NO_INDEX : (uint32_t)f->index; }

// Records `id` as the data ID of item `k` of pending entry `p` (settle_pending gives a run's in
// order): a run's IDs are kept as its first's while they follow it, as a connection's new edges'
// client IDs do, else in `run_ids` (items of a list met before in the payload, say). False on OOM.
__attribute__((noinline)) static bool pend_ids_apart(ra_normalizer *n, pend_rec *p, uint32_t k, uint32_t id) {
    uint32_t items = p->count + 1, at = n->nrun_ids;
    if ((uint64_t)at + items > UINT32_MAX || !ra_grow((void **)&n->run_ids, &n->cap_run_ids, at + items, sizeof(uint32_t)))
        return false;
    for (uint32_t j = 0; j < k; j++) n->run_ids[at + j] = p->resolved + j;
    n->run_ids[at + k] = id;
    n->nrun_ids = at + items;
    if (n->nrun_ids > n->hw_run_ids) n->hw_run_ids = n->nrun_ids;
    p->resolved = at;
    p->ids_apart = 1;
    return true;
}
static inline __attribute__((always_inline)) bool pend_set_id(ra_normalizer *n, pend_rec *p, uint32_t k, uint32_t id) {
    if (k == 0) {
        p->resolved = id;
        p->ids_apart = 0;
        return true;
    }
    if (p->ids_apart) {
        n->run_ids[p->resolved + k] = id;
        return true;
    }
    return id == p->resolved + k || pend_ids_apart(n, p, k, id);
}

// The header of item `k` of a committed pending entry: a run's items are alike but for their
// values, `stride` apart (see extend_run).
static inline ra_record pend_item_rec(const pend_rec *p, uint32_t k) {
    ra_record r = p->rec;
    r.fields += k * p->stride;
    return r;
}
// Item `k`'s list position as client_id takes it (-1: none).
static inline int64_t pend_item_index(const pend_rec *p, uint32_t k) {
    return p->index == PEND_NO_INDEX ? -1 : (int64_t)p->index + k;
}

// Resolves the pending records above `mark` now that the frame at `frame_depth` has its ID
// `frame_sym`, commits them in order, and drops them (and the parked fields above `fmark`).
// Their IDs stay readable (pend_id) until the next settle: for the frame's own commit, whose
// lists link them.
static int settle_pending(ra_normalizer *n, uint32_t mark, uint32_t fmark, uint32_t frame_depth, uint32_t frame_sym) {
    // The frame's own list items first, front to back (so their client IDs fill their prefix's
    // table in order), then the records parked inside them from the back: a parked record's
    // parent was parked after it, so it has its ID by then.
    // A frame without a record yet links nothing it could reuse (previous_link), and this loop
    // makes no record: its list items go straight to their derived IDs.
    bool linked = ra_source_record_for_symbol(n->delta, frame_sym) >= 0;
    // With no record parked inside another, the items committed unnamed at the front (a
    // connection's edges: all of them) are named as they resolve, in the same order as the
    // commit loop below would, so that the pending records are read once, not three times.
    bool fuse = n->nested == 0;
    uint32_t named = mark, nested = 0;
    n->nrun_ids = 0;
    for (uint32_t i = mark; i < n->npend; i++) {
        pend_rec *p = &n->pend[i];
        if (!(p->parent & RA_ITEM_PEND)) {
            nested++;
            continue;
        }
        if ((p->parent & ~RA_ITEM_PEND) != frame_depth) return fail(n, RA_ERR_STATE, "pending record lost its parent");
        bool name = fuse && p->committed;
        for (uint32_t k = 0, items = pend_items(p); k < items; k++) {
            uint32_t id = linked || p->index == PEND_NO_INDEX
                              ? client_id(n, frame_sym, p->storage_key, pend_item_index(p, k))
                              : list_item_client_id(n, frame_sym, p->storage_key, p->index + k);
            if (!id || !pend_set_id(n, p, k, id)) return oom(n);
            if (name) {
                ra_record r = pend_item_rec(p, k);
                if (!name_parked(n, id, &r)) return 0;
            }
        }
        if (name) named = i + 1;
        else fuse = false;
    }
    for (uint32_t i = n->npend; nested && i-- > mark;) {
        pend_rec *p = &n->pend[i];
        if (p->parent & RA_ITEM_PEND) continue;
        // (Its parent is no run: a record with another parked inside it is parked uncommitted.)
        uint32_t owner = pend_id(n, &n->pend[p->parent], 0);
        for (uint32_t k = 0, items = pend_items(p); k < items; k++) {
            uint32_t id = client_id(n, owner, p->storage_key, pend_item_index(p, k));
            if (!id || !pend_set_id(n, p, k, id)) return oom(n);
        }
    }
    n->nested -= nested;
    for (uint32_t i = named; i < n->npend; i++) {
        pend_rec *p = &n->pend[i];
        if (p->committed) {
            for (uint32_t k = 0, items = pend_items(p); k < items; k++) {
                ra_record r = pend_item_rec(p, k);
                if (!name_parked(n, pend_id(n, p, k), &r)) return 0;
            }
        } else if (!commit(n, p->resolved, p->type, n->pfields + p->field_first, p->count, n->pbytes.data, p->unique,
                           p->plain)) {
            return 0;
        }
    }
    if (mark < n->npend) {
        note_high_water(n);
        n->npfields = fmark;
        n->npend = mark;
        if (mark == 0) n->pbytes.len = 0;
    }
    return 1;
}

// A parked record whose staged fields go in as they are (nothing in it waits for another
// record: a list's edge, say): into the delta now, its values where they stay, instead of being
// copied twice; its header (`*out`) waits in its pending entry, or is counted into the run the
// entry before is (extend_run: a million edges, one entry), and goes to its data ID's entry when
// it settles (name_parked). False on OOM.
static inline __attribute__((always_inline)) bool commit_unnamed(ra_normalizer *n, const frame *f, uint32_t type_sym,
                                                                 ra_record *out) {
    ra_source *d = n->delta;
    int64_t rec = f->rec;
    if (f->quick) {  // its record holds its fields already
        if (!seal_quick(n, f, 0)) return false;
    } else {
        uint32_t count = n->nfields - f->field_base;
        rec = ra_record_new_unnamed(d, type_sym, count);
        if (rec < 0 || !copy_fields(n, (uint32_t)rec, n->fields + f->field_base, count, f->set)) return false;
    }
    *out = *ra_rec(d, (uint32_t)rec);
    ra_record_drop_unnamed(d, (uint32_t)rec);  // (its values stay: the header moved)
    return true;
}

// A closed record's link goes to its parent: the next item of a list, or the field of the
// record member that opened it (always a direct one: a buffered member is captured as text).
// (stage_value, for a link: a REF, or a PEND to a parked record.)
static inline __attribute__((always_inline)) int link_to_parent(ra_normalizer *n, uint64_t link) {
    frame *p = n->top;
    bool pend = ra_value_tag(link) == RA_TAG_PEND;
    if (p->kind == F_LIST) {
        if (!ra_grow((void **)&n->items, &n->cap_items, n->nitems + 1, sizeof(uint32_t))) return oom(n);
        n->items[n->nitems++] = (pend ? RA_ITEM_PEND : 0) | (uint32_t)ra_value_payload(link);
        p->count++;
        return 1;
    }
    if (pend) return stage_value(n, p, link);
    uint32_t key = plan_sym(n, p->cur_skey);  // (cur_sel's storage key)
    return key && add_field(n, p, key, link) ? 1 : oom(n);
}

static int finish_record(ra_normalizer *n, uint32_t depth, uint32_t type_sym, bool viewer);

// relay's getDataID sees the field's concrete type, else the response object's own `__typename`
// key; a `__typename` selected under an alias does not count (it only retypes the record later).
static bool is_viewer(const ra_normalizer *n, const frame *f) {
    if (f->sel == RA_NONE) return false;
    uint32_t ct = n->plan->sels[f->sel].concrete_type;
    if (ct != RA_NONE) return ra_plan_str_eq(n->plan, ct, "Viewer", 6);
    return f->has_tn && f->tn_len == 6 && memcmp(n->bytes.data + f->tn_off, "Viewer", 6) == 0;
}

// A quick record that closes with its `id` text placed, inside a quick record: its ID is
// interned later, when the next symbol is needed (resolve_placed: most often at the next
// record's `id`), not now. An ID new to the payload is registered through the Bloom filter,
// whose word, requested when the `id` arrived, is seldom in by the record's close in a large
// payload (the filter outgrows the core's cache: a million todos' is 1.4 MB); a record later it
// is. Until then the record is unnamed, and its `id` field and its parent's link to it hold
// symbol 0. Whatever reads, names or merges records interns it first (resolve_late_if_any), as
// whatever adds a symbol does (resolve_placed), so nothing sees the difference.
static inline __attribute__((always_inline)) int close_late(ra_normalizer *n, frame *f, frame *p, uint32_t key) {
    ra_source *d = n->delta;
    ra_record *r = ra_unnamed_rec(d, f->rec);
    if (!seal_shape(n, r, n->qwords + f->qword_base, f->slot - r->fields, f->set)) return oom(n);
    n->late_rec = f->rec + 1;
    n->late_off = (uint32_t)f->id_off;
    n->late_len = f->id_len;
    n->late_hash = f->id_hash;
    // (stage_id gave it one, as it placed the text, or the flag)
    if (f->id_field == ID_IN_FLAG) r->self_id = 1;
    n->late_id_slot = f->id_field == ID_IN_FLAG ? UINT32_MAX : r->fields + f->id_field - 1;
    n->placed = 0;
    f->id_deferred = false;
    n->nfields = f->field_base;
    n->bytes.len = f->byte_base;
    pop(n);
    n->late_link = p->slot;
    n->qwords[p->slot + p->qw_off] = ra_slot_word(ra_slot_pack(key, ra_make(RA_TAG_REF, 0)));
    d->vals[p->slot++] = 0;
    return 1;
}

// finish_record for the common record: one with its data ID (a string `id`), typed by its
// field's concrete type, whose staged fields go into a new record as they are (see commit's
// `plain`), with no record parked under it.
// (`type_sym`: for a frame that is not quick.)
static inline __attribute__((always_inline)) int close_identified(ra_normalizer *n, frame *f, uint32_t type_sym) {
    if (!resolve_late_if_any(n)) return 0;  // (a record that closed before this one is named before it)
    if (f->id_deferred && f->quick) {
        frame *p = f - 1;  // (a quick record has a parent)
        if (p->quick && p->slot < p->slot_end) {  // (only record frames are quick)
            uint32_t key = plan_sym(n, p->cur_skey);  // (cur_sel's storage key)
            if (!key) return oom(n);
            if (f->id_deferred) return close_late(n, f, p, key);  // (a first use of the key interns the ID)
        }
    }
    uint32_t id = frame_id(n, f);
    if (!id) return oom(n);
    uint32_t base = f->field_base, count = n->nfields - base;
    if (f->quick) {  // its record holds its fields: it takes the ID, or merges into the ID's record
        if (!seal_quick(n, f, id)) return oom(n);
        if (!name_record(n, id, f->rec)) return 0;
    } else {
        if (f->id_field) n->fields[base + f->id_field - 1].value = ra_make(RA_TAG_IDSTR, id);
        if (__builtin_expect(ra_has_record(n->delta, id), 0)) {  // reached before in this payload: merged
            if (!commit(n, id, type_sym, n->fields + base, count, n->bytes.data, true, true)) return 0;
        } else if (new_record_with(n, id, type_sym, n->fields + base, count, f->set) < 0) {
            return oom(n);
        }
    }
    n->nfields = base;
    n->bytes.len = f->byte_base;
    pop(n);
    return link_to_parent(n, ra_make(RA_TAG_REF, id));
}

// Whether a parked list item (`rec`, at `index` of the list `key` of the frame `parent`) is the
// next of the run that pending entry `last` is (then it is counted in): the next item of the same
// list, its record alike (type, shape, its own `id`) and its values as far from the run's last
// item's as the run's first two are apart (an edge's values and its node's, say).
static inline __attribute__((always_inline)) bool extend_run(pend_rec *last, uint32_t parent, uint32_t key,
                                                             uint32_t index, ra_record rec) {
    // (An edge a million times: the tests in few instructions. The type, `self_id` and shape
    // are one word of the header; an entry that is not committed has no run to extend, nor does
    // a full one, nor one that is no list item: its index, PEND_NO_INDEX, puts `next` past any
    // index. `stride` is 0 until a run has two items.)
    uint32_t items = last->count + 1, kind_last, kind_rec;
    memcpy(&kind_last, (const uint8_t *)&last->rec + 4, 4);
    memcpy(&kind_rec, (const uint8_t *)&rec + 4, 4);
    uint64_t next = (uint64_t)last->index + items, step = rec.fields - (uint64_t)last->rec.fields;
    if (((last->parent ^ parent) | (last->storage_key ^ key) | (kind_last ^ kind_rec)) || next != index ||
        !last->committed || items > RA_MAX_PARKED || rec.fields <= last->rec.fields)
        return false;
    if (last->stride) {
        if (step != (uint64_t)items * last->stride) return false;
    } else {
        if (items != 1 || step > RA_MAX_STRIDE) return false;
        last->stride = (uint32_t)step;
    }
    last->count = items;
    return true;
}

// finish_record for a list's item that waits for its list's owner (a connection's edge, until
// the connection closes) and holds nothing that waits itself: its values go into the delta now,
// its header into its pending entry (commit_unnamed), and it takes its client ID when the
// owner's ID is known (settle_pending).
static inline __attribute__((always_inline)) int park_item(ra_normalizer *n, frame *f, uint32_t depth, uint32_t type_sym) {
    ra_record rec;
    if (!commit_unnamed(n, f, type_sym, &rec)) return oom(n);
    uint32_t parent = RA_ITEM_PEND | (depth - 2), key = n->plan->sels[f->sel].storage_key, index = pend_index_of(f);
    uint32_t me = n->npend - 1;
    bool extended = n->npend && extend_run(&n->pend[me], parent, key, index, rec);
    if (!extended) {
        if (!ra_grow((void **)&n->pend, &n->cap_pend, n->npend + 1, sizeof(pend_rec))) return oom(n);
        me = n->npend++;
        n->pend[me] = (pend_rec){.index = index, .parent = parent, .storage_key = key, .committed = 1, .unique = 1,
                                 .plain = 1, .rec = rec};
    }
    n->nfields = f->field_base;
    n->bytes.len = f->byte_base;
    pop(n);
    if (extended) {  // (its run's entry is in the list already, for all its items: a million edges, one entry)
        n->top->count++;
        return 1;
    }
    return link_to_parent(n, ra_make(RA_TAG_PEND, me));
}

static int close_record(ra_normalizer *n) {
    uint32_t depth = n->depth - 1;
    frame *f = n->top;
    // The common record (a quick one, see ra_plan): typed by its field's concrete type, not
    // `Viewer` (whatever `__typename` the response has), nothing buffered, no `client:__type:`
    // checks, no list of records, no pending link and nothing parked inside it (else demoted).
    if (f->quick && __builtin_expect(n->npend != f->pend_base, 0) && !demote(n, f)) return oom(n);
    if (f->quick) {
        if (f->id_deferred || f->resolved) return close_identified(n, f, 0);  // (its record has its type)
        uint32_t type_sym = ra_rec_type(n->delta, ra_unnamed_rec(n->delta, f->rec));
        if (f->id_state == ID_NONE && f->index >= 0) {
            const frame *owner = &n->frames[depth - 2];  // (a list item: the list's record)
            if (!owner->resolved && !owner->id_deferred) return park_item(n, f, depth, type_sym);
        }
        return finish_record(n, depth, type_sym, false);
    }
    // The same, with a type that may be `Viewer`, or records parked inside.
    if (!f->has_tn && !f->buffered && f->sel != RA_NONE) {
        uint32_t ct = n->plan->sels[f->sel].concrete_type;
        if (ct != RA_NONE && n->plan->sets[f->set].check_count == 0) {
            uint32_t type_sym = plan_sym(n, ct);
            if (!type_sym) return oom(n);
            f = &n->frames[depth];
            if (!f->special && n->npend == f->pend_base) {
                if (f->id_deferred || f->resolved) return close_identified(n, f, type_sym);
                if (f->id_state == ID_NONE && f->index >= 0 && !is_viewer(n, f)) {
                    const frame *owner = &n->frames[depth - 2];  // (a list item: the list's record)
                    if (!owner->resolved && !owner->id_deferred) return park_item(n, f, depth, type_sym);
                }
            }
            return finish_record(n, depth, type_sym, is_viewer(n, f));
        }
    }
    if (!resolve_placed(n)) return oom(n);  // before types and client:__type: records are interned
    f = &n->frames[depth];
    size_t tlen = 0;
    uint32_t type_str;
    const char *type = record_type(n, f, &tlen, &type_str);
    if (!type) {
        f->cur_key = RA_NONE;
        return fail(n, RA_ERR_TYPENAME, "Expected a typename for record: the object has no string `__typename`");
    }
    // Values whose selection depended on the type: replay them now that it is known.
    for (uint32_t i = f->field_base; i < n->nfields; i++) {
        if (!n->fields[i].buffered) continue;
        const ra_entry *e = &n->plan->entries[n->fields[i].key];
        uint64_t text = n->fields[i].value;
        for (uint32_t c = e->first; c < e->first + e->count; c++) {
            uint32_t cand = n->plan->cands[c];
            const ra_plan_sel *s = &n->plan->sels[cand];
            f = &n->frames[depth];
            type = record_type(n, f, &tlen, &type_str);
            if (conds_hold(n, f, type, tlen, s->cond_first, s->cond_count) && !replay(n, depth, cand, text)) return 0;
        }
    }
    f = &n->frames[depth];
    type = record_type(n, f, &tlen, &type_str);
    // Copy a type that came from the response: replays and commits below may move the buffer
    // it sits in. A type from the plan stays put.
    char type_copy[256];
    char *type_heap = NULL;
    const char *type_text = type_copy;
    if (type_str != RA_NONE) {
        type_text = type;
    } else if (tlen < sizeof type_copy) {
        memcpy(type_copy, type, tlen);
    } else {
        type_heap = ra_malloc(tlen);
        if (!type_heap) return oom(n);
        memcpy(type_heap, type, tlen);
        type_text = type_heap;
    }
    int ok = 1;
    const ra_plan_set *set = &n->plan->sets[f->set];
    for (uint32_t c = set->check_first; ok && c < set->check_first + set->check_count; c++) {
        const ra_plan_check *chk = &n->plan->checks[c];
        if (conds_hold(n, f, type_text, tlen, chk->cond_first, chk->cond_count))
            ok = write_type_record(n, type_text, tlen, chk->abstract_key, watch_present(n, f, chk->abstract_key));
    }
    uint32_t type_sym = !ok ? 0 : type_str != RA_NONE ? plan_sym(n, type_str) : ra_intern(n->delta, type_text, tlen);
    bool viewer = is_viewer(n, f);
    ra_dealloc(type_heap);
    if (!ok) return 0;
    if (!type_sym) return oom(n);
    return finish_record(n, depth, type_sym, viewer);
}

// Decides the closed record's data ID, commits it (or parks it until its parent's ID is known)
// and hands the link to the parent.
static int finish_record(ra_normalizer *n, uint32_t depth, uint32_t type_sym, bool viewer) {
    if (!resolve_late_if_any(n)) return 0;
    frame *f = &n->frames[depth];
    bool root = f->sel == RA_NONE;
    if (f->id_deferred && !frame_id(n, f)) return oom(n);
    // relay's defaultGetDataID: a Viewer whose id is null or absent is client:root:viewer; a
    // falsy id ("", 0, false) falls through to a client ID like any other type.
    if (!f->resolved && viewer && (f->id_state == ID_NONE || f->id_state == ID_NULL)) {
        f->resolved = ra_intern(n->delta, "client:root:viewer", 18);
        if (!f->resolved) return oom(n);
    }
    frame *owner = root ? NULL : &n->frames[depth - 1];
    if (owner && owner->kind == F_LIST) owner = &n->frames[depth - 2];
    if (!f->resolved && owner && owner->id_deferred && !frame_id(n, owner)) return oom(n);
    if (!f->resolved && owner && owner->resolved) {
        f->resolved = client_id(n, owner->resolved, n->plan->sels[f->sel].storage_key, f->index);
        if (!f->resolved) return oom(n);
    }

    uint64_t link;
    if (f->resolved) {
        if (n->npend > f->pend_base && !settle_pending(n, f->pend_base, f->pfield_base, depth, f->resolved)) return 0;
        f = &n->frames[depth];
        if (f->quick) {
            if (!seal_quick(n, f, f->resolved)) return oom(n);
            if (!name_record(n, f->resolved, f->rec)) return 0;
        } else {
            // The `id` field's value is the data ID's symbol, now known.
            if (f->id_field) n->fields[f->field_base + f->id_field - 1].value = ra_make(RA_TAG_IDSTR, f->resolved);
            if (!commit(n, f->resolved, type_sym, n->fields + f->field_base, n->nfields - f->field_base,
                        n->bytes.data, n->plan->info[f->set].unique_storage, !f->special && !f->buffered))
                return 0;
        }
        link = ra_make(RA_TAG_REF, f->resolved);
    } else {
        // Park the record until its parent's data ID is known (its client ID derives from it).
        if (!ra_grow((void **)&n->pend, &n->cap_pend, n->npend + 1, sizeof(pend_rec))) return oom(n);
        pend_rec park = {.field_first = n->npfields, .count = 0, .parent = RA_ITEM_PEND | (depth - 1),
                         .storage_key = n->plan->sels[f->sel].storage_key, .index = pend_index_of(f),
                         .type = type_sym, .unique = n->plan->info[f->set].unique_storage,
                         .plain = !f->special};  // buffered fields (replayed already) are not parked
        if (n->frames[depth - 1].kind == F_LIST) park.parent = RA_ITEM_PEND | (depth - 2);
        uint32_t count = n->nfields - f->field_base;
        if (!f->special && !f->buffered) {
            if (!commit_unnamed(n, f, type_sym, &park.rec)) return oom(n);
            park.committed = 1;
        } else {
            if (!ra_grow((void **)&n->pfields, &n->cap_pfields, n->npfields + count, sizeof(staged_field)))
                return oom(n);
            size_t pad = (4 - (n->pbytes.len % 4)) % 4, staged = n->bytes.len - f->byte_base;
            static const uint8_t zeros[4] = {0};
            if (staged && !ra_buf_append(&n->pbytes, zeros, pad)) return oom(n);
            uint64_t rebase = n->pbytes.len;
            if (staged && !ra_buf_append(&n->pbytes, n->bytes.data + f->byte_base, staged)) return oom(n);
            for (uint32_t i = f->field_base; i < n->nfields; i++) {
                staged_field sf = n->fields[i];
                if (sf.buffered) continue;
                unsigned tag = ra_value_tag(sf.value);
                if (tag == RA_TAG_REFS)  // heap values are in the delta already; lists live in staging
                    sf.value = ra_make(tag, ra_value_payload(sf.value) - f->byte_base + rebase);
                if (park.count == RA_MAX_PARKED)
                    return fail(n, RA_ERR_LIMIT, "a record waiting for its parent's data ID has more than %u fields",
                                RA_MAX_PARKED);
                n->pfields[n->npfields++] = sf;
                park.count++;
            }
        }
        uint32_t me = n->npend++;
        n->pend[me] = park;
        for (uint32_t i = f->pend_base; i < me; i++)
            if (n->pend[i].parent == (RA_ITEM_PEND | depth)) {
                n->pend[i].parent = me;
                n->nested++;
            }
        link = ra_make(RA_TAG_PEND, me);
    }
    n->nfields = f->field_base;
    n->bytes.len = f->byte_base;
    pop(n);
    if (root) return 1;
    return link_to_parent(n, link);
}

// Feeds a buffered value back through the callbacks as the value of candidate `cand`.
static int replay(ra_normalizer *n, uint32_t depth, uint32_t cand, uint64_t text_value) {
    const uint8_t *p = n->bytes.data + ra_value_payload(text_value);
    uint32_t len = ra_load_u32(p);
    uint8_t *copy = ra_malloc(len ? len : 1);
    if (!copy) return oom(n);
    memcpy(copy, p + 4, len);
    frame *f = &n->frames[depth];
    f->cur = CUR_DIRECT;
    f->cur_sel = cand;
    f->cur_skey = n->plan->sels[cand].storage_key;
    f->cur_key = n->plan->sels[cand].response_key;
    f->cur_id = f->cur_tn = false;
    yajl_handle inner = yajl_alloc(&callbacks, &ra_yajl_alloc_funcs, n);
    yajl_handle outer = n->yh;
    int ok = inner != NULL;
    if (ok) {
        n->yh = NULL;  // offsets in errors point at the record, not into the buffered text
        yajl_status st = yajl_parse(inner, copy, len);
        if (st == yajl_status_ok) st = yajl_complete_parse(inner);
        ok = st == yajl_status_ok && !n->failed;
        if (!ok && !n->failed) fail(n, RA_ERR_STATE, "buffered value failed to replay");
        yajl_free(inner);
        n->yh = outer;
    } else {
        oom(n);
    }
    ra_dealloc(copy);
    if (ok) n->frames[depth].cur = CUR_SKIP;
    return ok;
}

// The usual selected `id` (a non-empty string, a direct scalar member of a non-root record): its
// text is the record's data ID, copied now to where the delta keeps symbol texts (ra_sym_place)
// and interned there when the record closes (see frame_id), its index slot prefetched now. The field's value is that symbol (IDSTR), not a
// second copy of the text: commit fills it in.
static inline __attribute__((always_inline)) int stage_id(ra_normalizer *n, frame *f, const char *text, size_t len) {
    uint32_t off, key = plan_sym(n, f->cur_skey);
    if (!key || !resolve_placed(n) || !ra_sym_place(n->delta, text, len, &off)) return oom(n);
    if (f->quick && n->plan->info[f->set].self_id) {  // kept in the record's flag, no slot (push_record)
        f->id_field = ID_IN_FLAG;
    } else {
        f->id_field = field_count(n, f) + 1;
        if (!add_field(n, f, key, ra_make(RA_TAG_IDSTR, 0))) return oom(n);
    }
    n->placed = (uint32_t)(f - n->frames) + 1;
    f->id_state = ID_STRING;
    f->id_off = off;
    f->id_len = (uint32_t)len;
    f->id_hash = ra_hash_continue(RA_HASH_SEED, text, len, len);
    f->id_deferred = true;
    ra_prefetch_text(n->delta, f->id_hash);
    return 1;
}

// MARK: - yajl callbacks

static int on_scalar(ra_normalizer *n, uint64_t value, const char *text, size_t len, bool is_string, int kind) {
    // kind: 0 null, 1 bool, 2 number, 3 string
    if (n->failed) return 0;
    if (!n->depth) return fail(n, RA_ERR_RESPONSE, "the response is not a JSON object");
    frame *f = n->top;
    switch (f->kind) {
    case F_TOP:
        if (f->cur == CUR_DATA) {
            return kind == 0 ? fail(n, RA_ERR_RESPONSE, "the response has `data: null` (a failed request)")
                             : fail(n, RA_ERR_RESPONSE, "`data` is not an object");
        }
        if (f->cur == CUR_ERRORS && kind != 0) return fail(n, RA_ERR_RESPONSE, "`errors` is not a list");
        return 1;
    case F_CAPTURE_MAP:
    case F_CAPTURE_ARRAY: return capture_scalar(n, f, text, len, is_string);
    case F_SKIP_MAP:
    case F_SKIP_ARRAY: return 1;
    case F_LIST:
        if (kind != 0) {
            int nl;
            const char *nm = sel_name(n, f->sel, &nl);
            return fail(n, RA_ERR_SHAPE, "Expected elements for field `%.*s` to be objects", nl, nm);
        }
        return stage_value(n, f, ra_make(RA_TAG_NULL, 0));
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
            if (!resolve_placed(n)) return oom(n);  // (a closed record's ID may be waiting)
            f->resolved = ra_intern(n->delta, text, len);
            if (!f->resolved) return oom(n);
        } else if (falsy) {
            f->id_state = kind == 0 ? ID_NULL : ID_FALSY;
        } else {
            int nl = 0;
            const char *nm = sel_name(n, f->sel, &nl);
            return fail(n, RA_ERR_ID, "Expected id on field `%.*s` to be a string", nl, nm);
        }
    }
    if (f->cur_tn && kind == 3) {
        uint64_t v = stage_bytes(n, RA_TAG_STRING, text, len);
        if (!v) return oom(n);
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
        return stage_value(n, n->top, v);
    }
    const ra_plan_sel *s = &n->plan->sels[f->cur_sel];
    if (s->kind != RA_SEL_SCALAR && kind != 0) {
        int nl;
        const char *nm = sel_name(n, f->cur_sel, &nl);
        return fail(n, RA_ERR_SHAPE,
                    s->kind == RA_SEL_LINKED ? "Expected data for field `%.*s` to be an object"
                                             : "Expected data for field `%.*s` to be an array of objects",
                    nl, nm);
    }
    if (kind >= 2 && len > UINT32_MAX - 16) return too_long(n);
    if (kind == 2) value = number_value(n, text, len);
    else if (kind == 3) value = ra_heap_put(n->delta, RA_TAG_STRING, text, (uint32_t)len);
    return stage_value(n, n->top, value);
}

// The common members — a selected scalar field of a record (CUR_SCALAR: neither `id` nor
// `__typename`), and a record's string `id` (CUR_ID) — go straight to their staged slot;
// everything else takes on_scalar's general path. Returns -1 when the member is not one of those.
static inline __attribute__((always_inline)) int direct_scalar(ra_normalizer *n, int kind, uint64_t value,
                                                               const char *text, size_t len) {
    frame *f = n->top;  // (&n->bottom at depth 0: neither case below)
    // Only record frames ever hold CUR_SCALAR or CUR_ID (set from a plan entry by expect_entry).
    if (f->cur == CUR_SCALAR) {
        if (kind >= 2 && len > UINT32_MAX - 16) return too_long(n);
        if (kind == 2) value = number_value(n, text, len);
        else if (kind == 3) value = ra_heap_put(n->delta, RA_TAG_STRING, text, (uint32_t)len);
        uint32_t key = plan_sym(n, f->cur_skey);
        if (!value || !key || !add_field(n, f, key, value)) return oom(n);
        return 1;
    }
    if (f->cur == CUR_ID && kind == 3 && len > 0 && len <= UINT32_MAX - 16 && f->sel != RA_NONE)
        return stage_id(n, f, text, len);
    return -1;
}

static int cb_null(void *ctx) {
    int r = direct_scalar(ctx, 0, ra_make(RA_TAG_NULL, 0), NULL, 0);
    return r >= 0 ? r : on_scalar(ctx, ra_make(RA_TAG_NULL, 0), "null", 4, false, 0);
}
static int cb_boolean(void *ctx, int b) {
    uint64_t v = ra_make(b ? RA_TAG_TRUE : RA_TAG_FALSE, 0);
    int r = direct_scalar(ctx, 1, v, NULL, 0);
    return r >= 0 ? r : on_scalar(ctx, v, b ? "true" : "false", b ? 4 : 5, false, 1);
}
static int cb_number(void *ctx, const char *s, size_t l) {
    int r = direct_scalar(ctx, 2, 0, s, l);
    return r >= 0 ? r : on_scalar(ctx, 0, s, l, false, 2);
}
static int cb_string(void *ctx, const unsigned char *s, size_t l) {
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
        return fail(n, RA_ERR_SHAPE, "Expected a %s for field `%.*s`, got %s",
                    s->shape == RA_SHAPE_SCALAR ? "scalar" : "list", nl, nm, map ? "an object" : "a list");
    case RA_SEL_LINKED: return fail(n, RA_ERR_SHAPE, "Expected data for field `%.*s` to be an object", nl, nm);
    default: return fail(n, RA_ERR_SHAPE, "Expected data for field `%.*s` to be an array of objects", nl, nm);
    }
}

static inline __attribute__((always_inline)) int on_start(ra_normalizer *n, bool map) {
    frame *f = n->top;  // (&n->bottom at depth 0: it expects nothing)
    if (map && f->cur == CUR_LINKED) return push_record(n, n->plan->sels[f->cur_sel].child_set, f->cur_sel) ? 1 : 0;
    if (!n->depth) {
        if (n->saw_top || !map) return fail(n, RA_ERR_RESPONSE, "the response is not a JSON object");
        n->saw_top = true;
        return push(n, F_TOP) ? 1 : 0;
    }
    switch (f->kind) {
    case F_TOP:
        if (f->cur == CUR_DATA) {
            if (!map) return fail(n, RA_ERR_RESPONSE, "`data` is not an object");
            n->saw_data = true;
            frame *r = push_record(n, 0, RA_NONE);
            if (!r) return 0;
            r->resolved = n->root_sym;
            return 1;
        }
        if (f->cur == CUR_ERRORS) {
            if (map) return fail(n, RA_ERR_RESPONSE, "`errors` is not a list");
            n->errors_json.len = 0;
            return capture_begin(n, CAP_ERRORS, F_CAPTURE_ARRAY);
        }
        return push(n, map ? F_SKIP_MAP : F_SKIP_ARRAY) ? 1 : 0;
    case F_CAPTURE_MAP:
    case F_CAPTURE_ARRAY: {
        if (!capture_sep(n, f) || !ra_buf_append(capture_buf(n, f), map ? "{" : "[", 1)) return oom(n);
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
            return fail(n, RA_ERR_SHAPE, "Expected elements for field `%.*s` to be objects", nl, nm);
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
        return fail(n, RA_ERR_ID, "Expected id on field `%.*s` to be a string", nl, nm);
    }
    if (f->cur == CUR_SKIP) return push(n, map ? F_SKIP_MAP : F_SKIP_ARRAY) ? 1 : 0;
    if (f->cur == CUR_BUFFER) return capture_begin(n, CAP_STAGING, map ? F_CAPTURE_MAP : F_CAPTURE_ARRAY);
    uint32_t cs = f->cur_sel;
    const ra_plan_sel *s = &n->plan->sels[cs];
    switch (s->kind) {
    case RA_SEL_SCALAR:
        if (s->shape == RA_SHAPE_SCALAR || (s->shape == RA_SHAPE_LIST && map)) return shape_error(n, cs, map);
        return capture_begin(n, CAP_HEAP, map ? F_CAPTURE_MAP : F_CAPTURE_ARRAY);
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

static int cb_start_map(void *ctx) { return on_start(ctx, true); }
static int cb_start_array(void *ctx) { return on_start(ctx, false); }

// A matched member: the frame now expects the value of entry `en`.
static inline __attribute__((always_inline)) void expect_entry(frame *f, const ra_entry *en) {
    f->seen |= en->seen_bit;
    f->next_en = en + 1;
    f->present |= en->watch_bits;
    f->expect = en->expect;  // cur, cur_id, cur_tn, cur_sel, cur_key, cur_skey
}

static int map_key(ra_normalizer *n, const unsigned char *key, size_t len);

// Whether a key of `len` (the entry's, at most 8) bytes is the entry's.
static inline __attribute__((always_inline)) bool short_key_is(const ra_entry *en, const unsigned char *key, size_t len) {
    uint32_t lo, hi;
    ra_key_halves(key, len, &lo, &hi);
    return lo == en->key_lo && hi == en->key_hi;
}

// The common case inline and call-free: a record's member that is the entry after the last one
// matched (members arrive in selection order), not seen before. Everything else: map_key. (A
// set's sentinel entry, entries past the 64th and the no_entry of the frames that are not
// records have no seen bit and never match here.)
static int cb_map_key(void *ctx, const unsigned char *key, size_t len) {
    ra_normalizer *n = ctx;
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
            int r = remember_key(n, f, key, len);
            if (r < 0) return oom(n);
            dup = r == 0;
        }
        if (dup) return fail(n, RA_ERR_DUPLICATE_KEY, "duplicate key `%.*s` in one object", (int)(len > 200 ? 200 : len), key);
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
    int r = remember_key(n, f, key, len);
    if (r < 0) return oom(n);
    f = n->top;
    if (r == 0) return fail(n, RA_ERR_DUPLICATE_KEY, "duplicate key `%.*s` in one object", (int)(len > 200 ? 200 : len), key);
    if (f->kind == F_TOP) {
        f->cur = (len == 4 && memcmp(key, "data", 4) == 0)     ? CUR_DATA
                 : (len == 6 && memcmp(key, "errors", 6) == 0) ? CUR_ERRORS
                                                               : CUR_SKIP;
        return 1;
    }
    if (f->kind == F_CAPTURE_MAP) {
        ra_buf *b = capture_buf(n, f);
        bool ok = (f->count++ == 0 || ra_buf_append(b, ",", 1)) && ra_json_escape(b, key, len) && ra_buf_append(b, ":", 1);
        return ok ? 1 : oom(n);
    }
    return 1;
}

static int cb_end_map(void *ctx) {
    ra_normalizer *n = ctx;
    frame *f = n->top;
    switch (f->kind) {
    case F_RECORD: return close_record(n);
    case F_CAPTURE_MAP:
        if (!ra_buf_append(capture_buf(n, f), "}", 1)) return oom(n);
        if (f->outer) return capture_end(n, f);
        pop(n);
        return 1;
    case F_TOP:
        pop(n);
        if (!n->saw_data) return fail(n, RA_ERR_RESPONSE, "the response has no `data`");
        return 1;
    default: pop(n); return 1;
    }
}

static int cb_end_array(void *ctx) {
    ra_normalizer *n = ctx;
    frame *f = n->top;
    if (f->kind == F_CAPTURE_ARRAY) {
        if (!ra_buf_append(capture_buf(n, f), "]", 1)) return oom(n);
        if (f->outer) return capture_end(n, f);
        pop(n);
        return 1;
    }
    if (f->kind == F_LIST) {  // (staged as its count, then its entries: see staged_list)
        uint32_t entries = n->nitems - f->item_base;
        if (entries > (UINT32_MAX - 32) / 4) return too_long(n);
        uint64_t off;
        uint8_t *dst = ra_buf_slot(&n->bytes, 4 + entries * 4, &off);
        if (!dst) return oom(n);
        memcpy(dst, &f->count, 4);
        if (entries) memcpy(dst + 4, n->items + f->item_base, (size_t)entries * 4);
        uint64_t v = ra_make(RA_TAG_REFS, off);
        note_high_water(n);
        n->nitems = f->item_base;
        pop(n);
        return stage_value(n, n->top, v);
    }
    pop(n);
    return 1;
}

static const yajl_callbacks callbacks = {
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

// MARK: - Public API

ra_normalizer *ra_normalizer_create(const ra_plan *plan, const char *root_id, size_t root_len, ra_limits limits) {
    ra_normalizer *n = ra_calloc(1, sizeof *n);
    if (!n) return NULL;
    n->bottom = (frame){.kind = F_SKIP_MAP, .sel = RA_NONE, .cur_key = RA_NONE, .index = -1, .next_en = &no_entry};
    n->top = &n->bottom;
    n->plan = plan;
    n->limits = limits;
    if (!n->limits.max_depth) n->limits.max_depth = 1000;
    if (!n->limits.max_bytes) n->limits.max_bytes = UINT64_MAX;
    n->delta = ra_source_create();
    n->yh = yajl_alloc(&callbacks, &ra_yajl_alloc_funcs, n);
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
    ra_buf_free(&n->scratch);
    ra_dealloc(n->plan_syms);
    ra_dealloc(n->plan_types);
    ra_dealloc(n->set_shapes);
    ra_dealloc(n->setbuf);
    ra_dealloc(n->qwords);
    ra_dealloc(n);
}

static ra_status parse_failed(ra_normalizer *n, yajl_status st, const uint8_t *bytes, size_t len) {
    if (!n->failed) {
        n->failed = true;
        n->err.code = RA_ERR_JSON;
        n->err.offset = n->consumed + yajl_get_bytes_consumed(n->yh);
        unsigned char *msg = yajl_get_error(n->yh, 0, bytes, len);
        snprintf(n->err.message, sizeof n->err.message, "malformed JSON: %s",
                 msg ? (const char *)msg : "parse error");
        if (msg) yajl_free_error(n->yh, msg);
        // yajl's messages end with a newline; keep the error on one line.
        size_t ml = strlen(n->err.message);
        while (ml && (n->err.message[ml - 1] == '\n' || n->err.message[ml - 1] == ' ')) n->err.message[--ml] = 0;
        append_path(n, n->err.path, sizeof n->err.path);
    }
    (void)st;
    return n->err.code;
}

void ra_normalizer_expect(ra_normalizer *n, uint64_t total_bytes) {
    // Past 16 GiB (the default size limit) a guess is not worth its address space.
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
    if (len > n->limits.max_bytes - n->consumed) {
        n->failed = true;
        ra_error_set(&n->err, RA_ERR_SIZE, n->limits.max_bytes, "the response is larger than the limit of %llu bytes",
                     (unsigned long long)n->limits.max_bytes);
        return RA_ERR_SIZE;
    }
    if (!len) return RA_OK;
    yajl_status st = yajl_parse(n->yh, bytes, len);
    if (st != yajl_status_ok) return parse_failed(n, st, bytes, len);
    if (n->failed) return n->err.code;  // (the callbacks stop yajl when they fail: not expected)
    n->consumed += len;
    return RA_OK;
}

ra_status ra_normalizer_attach_errors(ra_normalizer *n);

static ra_status finish(ra_normalizer *n) {
    if (n->failed) return n->err.code;
    n->finished = true;
    yajl_status st = yajl_complete_parse(n->yh);
    if (st != yajl_status_ok) return parse_failed(n, st, NULL, 0);
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
