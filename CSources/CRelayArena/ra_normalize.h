// The streaming normalizer's private header, shared by its entry points (ra_normalizer.c) and
// its stage files (ra_norm_parse.c, ra_norm_capture.c, ra_norm_records.c, ra_norm_pending.c,
// ra_norm_gather.c, ra_response_errors.c; the error stage below them, ra_norm_error.c):
// its state (the frame stack, the staging stacks, the pending records whose data ID awaits a
// parent), the functions one file calls in another, and the helpers every hot path inlines.
#ifndef RA_NORMALIZE_H
#define RA_NORMALIZE_H
#include "ra_norm_error.h"
#include "ra_plan.h"
#include "ra_source.h"
#include "ra_buf.h"
#include "ra_records.h"
#include <yajl/yajl_parse.h>

#pragma clang assume_nonnull begin

enum { F_TOP, F_RECORD, F_LIST, F_CAPTURE_MAP, F_CAPTURE_ARRAY, F_SKIP_MAP, F_SKIP_ARRAY };
enum { CAP_STAGING, CAP_ERRORS, CAP_HEAP };
// ID_NULL: `id` was null; ID_FALSY: "", 0 or false (no data ID, and not the Viewer's either).
enum { ID_NONE, ID_STRING, ID_FALSY, ID_NULL };
#define ID_IN_FLAG UINT32_MAX  // frame.id_field of a quick record that keeps its `id` in its flag

// A staged value uses the store's tags. STRING, NUMBER and JSON field values are written straight
// into the delta's heap (a failed payload discards the whole delta); REFS lists and buffered
// values point into the staging bytes (or the pending bytes once a record is parked).
// RA_TAG_PEND links to a pending record.
#define RA_TAG_PEND 15u
#define RA_ITEM_PEND 0x80000000u

typedef struct staged_field {
    uint32_t key;     // delta symbol of the storage key (or plan entry index when buffered)
    uint32_t buffered;
    uint64_t value;
} staged_field;

typedef struct frame {
    uint8_t kind, id_state;
    bool has_tn, outer;
    bool buffered;         // RECORD: some member waits for the type to be replayed
    bool special;          // RECORD: a new record cannot take the staged fields as they are (see ra_norm_commit)
    bool quick;            // RECORD: its selection is quick (ra_plan) and it is neither buffered nor special;
                           // its fields go straight into its record (`rec`), not the staging stack
    uint8_t target;        // captures: CAP_STAGING (buffered values), CAP_ERRORS, CAP_HEAP (field values)
    uint32_t set;          // RECORD: selection set; LIST: element set
    uint32_t sel;          // the selection that opened a RECORD/LIST (RA_NONE for the root)
    union {
        ra_expect expect;  // a matched entry's, in one move (expect_entry)
        struct {
            uint8_t cur;           // what the next value is for (CUR_*)
            bool cur_id, cur_tn;   // the current key is `id` / `__typename`
            uint8_t unused;
            uint32_t cur_sel;      // candidate (CUR_DIRECT) or entry (CUR_BUFFER) for the next value
            uint32_t cur_key;      // plan string of the current key, RA_NONE when unmatched
            uint32_t cur_skey;     // with a direct `cur`: the storage key (plan string) of cur_sel
        };
    };
    uint32_t field_base, item_base, pend_base, pfield_base;
    uint32_t count;        // capture: members written; LIST: next index
    int64_t index;         // RECORD inside a LIST: its index; otherwise -1
    uint64_t byte_base;    // staging bytes length at open
    uint64_t cap_off;      // outermost capture: heap-style slot of the JSON text
    uint64_t seen, present;
    uint32_t key_base, nkeys, tbl_base, tbl_cap;
    uint64_t tn_off, id_off;  // id_off: where the `id` text was placed in the delta's symbol bytes, while id_deferred
    uint32_t tn_len, id_len, id_hash;
    bool id_deferred;      // a string `id` arrived; resolved (interned) on first need
    uint32_t id_field;     // 1 + the staged `id` field's position in the record's fields (IDSTR), 0 for none,
                           // ID_IN_FLAG for a quick record's kept in its flag (ra_record.self_id)
    const ra_entry *next_en;  // RECORD: the entry after the last matched key (members usually arrive in selection
                              // order); other frames: a sentinel that matches no key (cb_map_key)
    uint32_t resolved;     // delta symbol once the data ID is known
    uint32_t rec;          // quick RECORD: its record's handle in the delta's unnamed table, made when it opened (push_record)
    uint32_t slot, slot_end;  // quick RECORD: the next of its record's values, and the end of its room
    uint32_t qword_base;   // `qwords` at open: a quick RECORD's fields' shape words from there
    uint32_t qw_off;       // quick RECORD: qword_base less its first value (a value's word is at slot + qw_off)
} frame;

// One per record waiting for its parent's data ID, or, for a committed one, per *run* of them: the
// next items of one list whose records are alike (type, shape, their values as far apart as the
// first two's), as a connection's edges are. A million edges take one entry, not a million.
typedef struct pend_rec {
    uint32_t index;        // its list position (a list's count: below 2^32 - 1), or PEND_NO_INDEX; a run's first's
    uint32_t parent;       // pending index, or RA_ITEM_PEND | frame depth
    uint32_t storage_key;  // plan string
    uint32_t resolved;     // its data ID once settled; a run's: its first item's, the next ones' following
                           // it, or (`ids_apart`) where its items' IDs are in `run_ids`
    uint32_t count : 20;     // committed: its run's items less one; else its parked fields (at most RA_MAX_PARKED)
    uint32_t stride : 8;     // a run's: how far apart its items' values are (see pend_item_rec)
    uint32_t ids_apart : 1;  // a run whose items' data IDs are not consecutive symbols (see pend_id)
    uint32_t unique : 1;     // its set's storage keys are distinct (see ra_set_info)
    uint32_t plain : 1;      // its fields go into a new record as they are (see ra_norm_commit)
    uint32_t committed : 1;  // its record is made, its values in the delta: `rec` is its header (see name_parked)
    union {
        ra_record rec;       // committed: its (a run's first item's) record's header, moved to its data ID's entry when named
        struct {
            uint32_t field_first;  // else its parked fields' first in pfields
            uint32_t type;         // and its creation type (delta symbol)
        };
    };
} pend_rec;
_Static_assert(sizeof(pend_rec) == 28, "pend_rec packs into 28 bytes");
#define PEND_NO_INDEX UINT32_MAX  // (a record that is not a list item: index -1)
#define RA_MAX_PARKED ((1u << 20) - 1)  // a pending entry's count: fields of a parked record, items of a run less one
#define RA_MAX_STRIDE 0xFFu

#define RA_MAX_COLLISIONS 16  // id collisions kept for the log (the count goes on)
#define RA_YAJL_BIG 4  // (yajl has two buffers; more tracked blocks than that are only not given back)
struct ra_normalizer {
    const ra_plan *plan;
    ra_source *delta;
    yajl_handle yh;
    ra_limits limits;
    ra_error err;
    bool failed, finished, saw_data, saw_top;
    uint64_t consumed;     // bytes of earlier chunks
    uint32_t root_sym;
    frame *frames;
    frame *top;            // &frames[depth - 1] while depth > 0 (the callbacks' frame), else &bottom
    frame bottom;          // what `top` is at depth 0: expects nothing (CUR_SKIP, ra_norm_no_entry)
    uint32_t depth, cap_frames;
    staged_field *fields;
    uint32_t nfields, cap_fields;
    ra_buf bytes;          // staging bytes (aligned {u32 len, bytes} slots and raw text)
    uint32_t *items;       // open lists' entries (see staged_list: a run of waiting items is one)
    uint32_t nitems, cap_items;
    ra_buf keys;           // unmatched keys of open maps: {u32 len, bytes} slots
    uint32_t *tbl;         // per-map hash tables over `keys`, stacked
    uint32_t ntbl, cap_tbl;
    ra_hash_key tkey;      // their hashes' key (ra_norm_capture.c; fresh when a probe runs long)
    pend_rec *pend;
    uint32_t npend, cap_pend;
    staged_field *pfields;
    uint32_t npfields, cap_pfields;
    uint32_t hw_items, hw_pend, hw_pfields;  // high-water marks: what was written of each array
    uint32_t placed;       // 1 + depth of the record whose `id` text waits at the end of the symbol bytes, 0: none
    // A closed quick record whose `id` text still waits there (see close_identified): 1 + its
    // record (0: none; never while `placed`), the text, the slot of its `id` field and the slot
    // of its parent's link to it, both written when the ID is interned.
    uint32_t late_rec, late_off, late_len, late_hash, late_id_slot, late_link;
    uint32_t nested;       // pending records whose parent is another pending record (not a frame)
    uint32_t *run_ids;     // the data IDs of runs whose items' are not consecutive (pend_rec.ids_apart)
    uint32_t nrun_ids, cap_run_ids, hw_run_ids;
    ra_buf pbytes;
    ra_buf errors_json;    // the response's `errors` member, as received
    // Long tokens (ra_norm_gather.c): `events` counts the callbacks (a token or a bracket each);
    // while a chunk completes none, yajl is holding an unfinished token, and the chunks after it
    // gather in `gathered` until they are worth handing over.
    uint64_t events;
    ra_buf gathered;
    uint64_t held;         // bytes yajl got since its last callback (what it re-lexes at the next feed)
    uint64_t lexed;        // bytes yajl was given, plus what it held each time (ra_normalizer_lexed_bytes)
    uint8_t gather_kind;   // RA_GATHER_*
    bool gather_odd;       // the gathered bytes end in an odd run of backslashes
    bool gather_may_end;   // the gathered bytes may end the token yajl holds
    bool flushing;         // yajl is parsing `gathered`, from `flush_base` on
    size_t gather_end;     // where in `gathered` a string may end (its first unescaped quote), once gather_may_end
    size_t flush_base;
    // yajl's own buffers of RA_LONG_VALUE bytes or more (its lexer's copy of a token that spanned
    // feeds, its unescaped text): yajl keeps them until it is freed, so once a long value is copied
    // out their pages go back (ra_norm_long_value_copied). yajl allocates through `yajl_funcs`.
    yajl_alloc_funcs yajl_funcs;
    void *_Nullable yajl_big[RA_YAJL_BIG];
    ra_buf scratch;
    uint32_t *plan_syms;   // plan string index -> delta symbol, 0 until first needed
    uint16_t *plan_types;  // plan string index -> the delta's type index of that type name, likewise
    // The shape words of the open quick records' fields (their values go straight into their
    // records), stacked by frame: a record takes its shape when it closes.
    uint32_t *qwords;
    uint32_t nqwords, cap_qwords;
    uint16_t *set_shapes;  // plan set -> the shape its last record took (0: none yet), tried first
    uint64_t *setbuf;      // fields set on an existing record at once (ra_record_set_all)
    uint32_t cap_setbuf;
    uint32_t cid_parent, cid_key, cid_prefix;  // the last list's client-ID prefix: its parent, storage key, symbol
    uint32_t cid_hint;     // where that prefix's derivation table sits (ra_intern_derived_hinted)
    uint32_t sym_type_schema;
    // relay's `idCollision.typename`: records this payload reached again as another type, the
    // first RA_MAX_COLLISIONS of them (data ID, previous and new type, delta symbols); `ncollisions`
    // counts them all (saturating).
    struct { uint32_t id, previous, next; } collisions[RA_MAX_COLLISIONS];
    uint32_t ncollisions;
};

// MARK: - Called across the stage files

// (ra_norm_error.c: ra_norm_fail, ra_norm_oom, ra_norm_parse_failed, in ra_norm_error.h)
// (ra_norm_parse.c)
int ra_norm_replay(ra_normalizer *n, uint32_t depth, uint32_t cand, uint64_t text_value);
enum { RA_GATHER_NONE = 0, RA_GATHER_STRING, RA_GATHER_NUMBER, RA_GATHER_BLANK };
/// Feeds yajl a chunk, or gathers it while yajl holds a long token (ra_norm_gather.c).
ra_status ra_norm_feed(ra_normalizer *n, const uint8_t *bytes, size_t len);
/// Hands yajl what is gathered (before the end of the input).
ra_status ra_norm_flush_gathered(ra_normalizer *n);
/// A scalar of RA_LONG_VALUE bytes or more is about to be copied into the delta: the gathered
/// bytes yajl has passed are spent, and so are yajl's buffers that do not hold `text` (its lexer's
/// copy of a string it unescaped); their pages are handed back first, so that a long text is held
/// twice at most (yajl's copy and the store's), never three times.
#define RA_LONG_VALUE ((size_t)1 << 20)
void ra_norm_long_value(ra_normalizer *n, const void *_Nullable text);
/// After the copy: yajl's copy is spent too.
void ra_norm_long_value_copied(ra_normalizer *n);
/// yajl's allocation functions for `n`'s parser (they track its long buffers).
void ra_norm_init_yajl_funcs(ra_normalizer *n);
extern const yajl_callbacks ra_norm_callbacks __attribute__((visibility("hidden")));
// (ra_norm_capture.c)
int ra_norm_remember_key(ra_normalizer *n, frame *f, const unsigned char *key, size_t len);
// (ra_norm_records.c)
/// Notes an id collision when record `id`, of type index `before`, is reached as `after`.
void ra_norm_note_collision(ra_normalizer *n, uint32_t id, uint32_t before, uint32_t after);
int ra_norm_capture_begin(ra_normalizer *n, uint8_t target, uint8_t kind);
int ra_norm_capture_end(ra_normalizer *n, frame *f);
int ra_norm_capture_scalar(ra_normalizer *n, frame *f, const char *text, size_t len, bool quote);
// (ra_norm_records.c)
__attribute__((noinline)) bool ra_norm_resolve_placed_slow(ra_normalizer *n);
__attribute__((noinline)) bool ra_norm_demote(ra_normalizer *n, frame *f);
__attribute__((noinline)) uint32_t ra_norm_plan_sym_intern(ra_normalizer *n, uint32_t str);
__attribute__((noinline)) uint32_t ra_norm_plan_type_index(ra_normalizer *n, uint32_t str);
int ra_norm_stage_value(ra_normalizer *n, frame *rec, uint64_t value);
__attribute__((noinline)) int ra_norm_merge_unnamed(ra_normalizer *n, uint32_t id, const ra_record *r);
int ra_norm_commit(ra_normalizer *n, uint32_t id, uint32_t type, const staged_field *fields, uint32_t count,
                   const uint8_t *base, bool unique, bool plain);
int ra_norm_close_record(ra_normalizer *n);
// (ra_norm_pending.c)
uint64_t ra_norm_to_delta_slow(ra_normalizer *n, uint64_t v, const uint8_t *base);
uint32_t ra_norm_client_id(ra_normalizer *n, uint32_t parent, uint32_t storage_key, int64_t index);
int ra_norm_settle_pending(ra_normalizer *n, uint32_t mark, uint32_t fmark, uint32_t frame_depth, uint32_t frame_sym);
ra_status ra_normalizer_attach_errors(ra_normalizer *n);  // (ra_response_errors.c)

// What a frame that is not a record expects of its keys: never the next entry (cb_map_key).
extern const ra_entry ra_norm_no_entry __attribute__((visibility("hidden")));

// MARK: - Inline helpers of every stage's hot path

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
static inline __attribute__((always_inline)) bool resolve_placed(ra_normalizer *n) {
    return !(n->placed | n->late_rec) || ra_norm_resolve_placed_slow(n);
}
/// The closed record's waiting ID, if there is one (before reading or naming records).
static inline __attribute__((always_inline)) bool resolve_late_if_any(ra_normalizer *n) {
    return !n->late_rec || ra_norm_resolve_placed_slow(n);
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
        if (!ra_norm_demote(n, f)) return false;
    }
    return stage_field(n, key, value, 0);
}

// How many fields the record frame has so far.
static inline uint32_t field_count(const ra_normalizer *n, const frame *f) {
    return f->quick ? f->slot - (f->qword_base - f->qw_off) : n->nfields - f->field_base;  // (its first value: qw_off)
}

static inline __attribute__((always_inline)) uint32_t plan_sym(ra_normalizer *n, uint32_t str) {
    uint32_t sym = n->plan_syms[str];
    return sym ? sym : ra_norm_plan_sym_intern(n, str);
}
static inline __attribute__((always_inline)) uint32_t plan_type(ra_normalizer *n, uint32_t str) {
    uint32_t t = n->plan_types[str];
    return t ? t : ra_norm_plan_type_index(n, str);
}

// The list-item and pending stacks only shrink in a few places: their high-water marks (what
// ra_normalizer_destroy hands back as written) are taken there, not per item.
static inline void note_high_water(ra_normalizer *n) {
    if (n->nitems > n->hw_items) n->hw_items = n->nitems;
    if (n->npend > n->hw_pend) n->hw_pend = n->npend;
    if (n->npfields > n->hw_pfields) n->hw_pfields = n->npfields;
}


static inline __attribute__((always_inline)) frame *_Nullable push(ra_normalizer *n, uint8_t kind) {
    if (n->depth >= n->limits.max_depth) {
        ra_norm_fail(n, RA_ERR_DEPTH, "nesting depth exceeds the limit of %u", n->limits.max_depth);
        return NULL;
    }
    if (!ra_grow((void **)&n->frames, &n->cap_frames, n->depth + 1, sizeof(frame))) {
        ra_norm_oom(n);
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
                 .next_en = &ra_norm_no_entry};
    return f;
}

static inline __attribute__((always_inline)) void pop(ra_normalizer *n) {
    frame *f = &n->frames[--n->depth];
    n->top = n->depth ? f - 1 : &n->bottom;
    if (n->placed > n->depth) n->placed = 0;  // a record interns its ID before it is popped: a failed payload
    n->keys.len = f->key_base;
    n->ntbl = f->tbl_base;
    n->nqwords = f->qword_base;
}


static inline ra_buf *capture_buf(ra_normalizer *n, const frame *f) {
    return f->target == CAP_ERRORS ? &n->errors_json : f->target == CAP_HEAP ? &n->delta->heap : &n->bytes;
}

static inline bool capture_sep(ra_normalizer *n, frame *f) {
    if (f->kind == F_CAPTURE_ARRAY && f->count++ > 0) return ra_buf_append(capture_buf(n, f), ",", 1);
    return true;
}

// Its items: a committed entry's run, else the one record.
static inline uint32_t pend_items(const pend_rec *p) { return p->committed ? p->count + 1 : 1; }
// The data ID of item `k` of pending entry `p` (k 0 for a record that is no run), once settled.
static inline uint32_t pend_id(const ra_normalizer *n, const pend_rec *p, uint32_t k) {
    return p->ids_apart ? n->run_ids[p->resolved + k] : p->resolved + k;
}

// A frame's list position as a pending record keeps it.
static inline uint32_t pend_index_of(const frame *f) { return f->index < 0 ? PEND_NO_INDEX : (uint32_t)f->index; }

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

#pragma clang assume_nonnull end

#endif
