// Publish: merge a delta into the store field by field (relay's updateTargetFromSource +
// RelayModernRecord.update). Everything that can fail happens before the first record changes.
#include "ra_source.h"
#include "ra_symbols.h"
#include "ra_records.h"
#include "ra_heap.h"
#include "ra_buf.h"
#include "ra_json.h"
#include "ra_alloc.h"
#include "ra_value_equal.h"
#include "ra_publish.h"

// ra_value_equal on slots (a store slot against a delta slot, their keys aside), the common cases
// read straight from the slots' tag and payload bits, without unpacking the values.
static inline __attribute__((always_inline)) bool slot_equal_fast(const ra_source *st, uint64_t ss, const ra_source *d,
                                                                  uint64_t ds, const uint32_t *tr) {
    unsigned tag = (unsigned)(ds >> 28) & 0xF;
    uint32_t sp = (uint32_t)(ss >> 32), dp = (uint32_t)(ds >> 32);
    if (tag == ((unsigned)(ss >> 28) & 0xF)) {
        switch (tag) {
        case RA_TAG_NULL:
        case RA_TAG_TRUE:
        case RA_TAG_FALSE:
        case RA_TAG_INT: return sp == dp;
        case RA_TAG_REF:
        case RA_TAG_IDSTR: return sp == tr[dp];
        case RA_TAG_STRING: {
            uint32_t la, lb;
            const uint8_t *a = ra_heap_value(st, sp, &la), *b = ra_heap_value(d, dp, &lb);
            return la == lb && ra_bytes_equal(a, b, la);
        }
        default: break;
        }
    }
    return ra_value_equal(st, ra_slot_value(ss), d, ra_slot_value(ds), tr);
}

// Field `f` of delta record `dr` (data ID `did`) as a slot: its slots, then the `id` kept in its
// flag (self_id).
static inline uint64_t delta_slot(const ra_source *d, const ra_record *dr, uint32_t did, uint32_t f) {
    return f < ra_rec_count(d, dr) ? ra_rec_slot(d, dr, f) : ra_slot_pack(d->id_key, ra_make(RA_TAG_IDSTR, did));
}

// The delta record's fields to compare with (and write into) an existing store record: its
// `id` kept in its flag only when the store record's is not (with both flags, both are the ID's).
static inline uint32_t fields_to_merge(const ra_source *d, const ra_record *dr, const ra_record *sr) {
    return ra_rec_count(d, dr) + (dr->self_id & !sr->self_id);
}

// The first store symbol of a delta list whose items are a run in the store's symbols (see
// ra_refs_of), else 0. (A null item ends a run: tr[0] is 0.)
static uint32_t store_run(ra_refs from, const uint32_t *tr) {
    uint32_t first = from.count ? tr[ra_refs_item(from, 0)] : 0;
    if (!ra_refs_is_run(first, from.count)) return 0;
    for (uint32_t i = 1; i < from.count; i++)
        if (tr[ra_refs_item(from, i)] != first + i) return 0;
    return first;
}

// Copies a delta value into the store's heap / symbol space. Cannot fail after reservation.
static uint64_t translate(ra_source *st, const ra_source *d, uint64_t dv, const uint32_t *tr) {
    switch (ra_value_tag(dv)) {
    case RA_TAG_NUMBER:
    case RA_TAG_STRING:
    case RA_TAG_JSON: {
        ra_bytes_ref r = ra_source_value_bytes(d, dv);
        return ra_heap_put(st, ra_value_tag(dv), r.ptr, (uint32_t)r.len);
    }
    case RA_TAG_REF:
    case RA_TAG_IDSTR: return ra_make(ra_value_tag(dv), tr[ra_value_payload(dv)]);
    case RA_TAG_REFS: {
        ra_refs from = ra_refs_of(d, ra_value_payload(dv));
        uint32_t first = store_run(from, tr);
        if (first) return ra_refs_put_run(st, first, from.count);
        uint64_t off;
        uint8_t *p = ra_heap_alloc(st, from.count * 4, &off);
        for (uint32_t i = 0; i < from.count; i++) {
            uint32_t ds = ra_refs_item(from, i), ss = ds ? tr[ds] : 0;
            memcpy(p + 4 * (size_t)i, &ss, 4);
        }
        return ra_make(RA_TAG_REFS, off);
    }
    default: return dv;
    }
}

// Heap bytes `translate` will append for a delta value (its length's bytes included).
static size_t heap_need(const ra_source *d, uint64_t dv, const uint32_t *tr) {
    switch (ra_value_tag(dv)) {
    case RA_TAG_NUMBER:
    case RA_TAG_STRING:
    case RA_TAG_JSON: {
        size_t len = ra_source_value_bytes(d, dv).len;
        return ra_len_size(len) + len;
    }
    case RA_TAG_REFS: {
        ra_refs from = ra_refs_of(d, ra_value_payload(dv));
        return store_run(from, tr) ? ra_len_size(RA_REFS_RUN_LEN) + RA_REFS_RUN_LEN : ra_refs_heap_need(from.count);
    }
    default: return 0;
    }
}

// Whether store symbol `ss` has the text of delta symbol `ds` (a derived one's prefix translated
// already), judged without the index. A text against a derivation of the same text says no: the
// lookup that follows finds it.
static inline bool same_symbol(const ra_source *st, uint32_t ss, const ra_source *d, uint32_t ds, const uint32_t *tr) {
    bool derived = ra_sym_derived(d, ds);
    if (ra_sym_derived(st, ss) != derived) return false;
    if (!derived) {
        if (ra_hash_key_equal(st->hkey, d->hkey) && st->syms[ss].hash != d->syms[ds].hash) return false;
        uint32_t la, lb;
        const char *ta = ra_sym_text(st, ss, &la), *tb = ra_sym_text(d, ds, &lb);
        return la == lb && ra_bytes_equal(ta, tb, lb);
    }
    uint32_t sp, sx, dp, dx;
    ra_sym_derivation(st, ss, &sp, &sx);
    ra_sym_derivation(d, ds, &dp, &dx);
    return sx == dx && dp < ds && sp == tr[dp];
}

// The store's type index of delta type `t`, resolved on first use. A typename the store lacks gets
// the index it will have once added (the store's count, then on in order of first use), and is
// listed in `missing`; nothing is added to the store here.
typedef struct {
    uint16_t *index;  // by delta type: store index, or TYPE_UNRESOLVED
    uint32_t *missing, nmissing;
} type_translation;

enum { TYPE_UNRESOLVED = 0xFFFF };  // (a store index is at most RA_MAX_TYPES + d->ntypes < 0xFFFF)

static uint32_t store_type_slow(const ra_source *st, const ra_source *d, const uint32_t *tr, type_translation *tt,
                                uint32_t t) {
    uint32_t index = ra_type_find(st, tr[d->types[t]]);
    // (A delta's typenames are distinct texts, except in a snapshot crafted otherwise, whose two
    // may come to one store symbol: it takes one new index, not two.)
    for (uint32_t k = 0; !index && k < tt->nmissing; k++)
        if (tr[d->types[tt->missing[k]]] == tr[d->types[t]]) index = st->ntypes + k;
    if (!index) {
        index = st->ntypes + tt->nmissing;
        tt->missing[tt->nmissing++] = t;
    }
    return tt->index[t] = (uint16_t)index;
}

static inline uint32_t store_type(const ra_source *st, const ra_source *d, const uint32_t *tr, type_translation *tt,
                                  uint32_t t) {
    uint32_t index = tt->index[t];
    return __builtin_expect(index != TYPE_UNRESOLVED, 1) ? index : store_type_slow(st, d, tr, tt, t);
}

ra_status ra_publish_out_of_room(const ra_source *s, ra_error *err) {
    if (s->names_full)
        ra_error_set(err, RA_ERR_LIMIT, 0, "the store's data IDs and names would pass %u bytes", RA_MAX_SYM_BYTES);
    else if (s->types_full)
        ra_error_set(err, RA_ERR_LIMIT, 0, "the store would hold more than %u typenames", RA_MAX_TYPES);
    else if (s->shapes_full)
        ra_error_set(err, RA_ERR_LIMIT, 0, "the store would hold more than %u record shapes", RA_MAX_SHAPES);
    else
        ra_error_set(err, RA_ERR_NOMEM, 0, "out of memory while publishing");
    return s->names_full || s->types_full || s->shapes_full ? RA_ERR_LIMIT : RA_ERR_NOMEM;
}

// Shapes a publish gives the store's records, as pass 1 finds them: a store shape, or one the
// store lacks, listed in `missing` with the index it will have once added (the store's count,
// then on in order of first use). Nothing is added to the store in pass 1.
typedef struct {
    uint32_t *index;            // by delta shape: the store's index of its translation, or SHAPE_UNRESOLVED
    ra_shape_table missing;
    uint32_t *merged, *from;    // a record's merged words, and where each value comes from (merge_fields)
    uint32_t capmerged;
} shape_translation;

enum { SHAPE_UNRESOLVED = 0xFFFFFFFFu, SHAPE_ABSENT = 0xFFFFFFFEu };

static void shapes_free(shape_translation *sh) {
    ra_dealloc(sh->index);
    ra_shape_table_free(&sh->missing);
    ra_dealloc(sh->merged);
    ra_dealloc(sh->from);
}

// The store's index of the shape of `words`: found, or listed as missing (with `add`; without,
// SHAPE_ABSENT). RA_NONE on OOM.
static uint32_t store_shape_of(const ra_source *st, shape_translation *sh, const uint32_t *words, uint32_t count,
                               bool add) {
    if (!count) return 0;
    uint32_t hash = ra_shape_hash(st->hkey, words, count);
    uint32_t k = ra_shape_find(st, words, count, hash);
    if (k != RA_NONE) return k;
    k = ra_shape_table_find(&sh->missing, words, count, hash);
    if (k != RA_NONE) return st->shapes.n + k;
    if (!add) return SHAPE_ABSENT;
    if (sh->missing.n > RA_MAX_SHAPES) return RA_NONE;  // (refused below as past the limit, before this grows)
    if (!ra_shape_table_reserve(&sh->missing, 1, count)) return RA_NONE;
    return st->shapes.n + ra_shape_table_add(&sh->missing, words, count, hash);
}

static bool merged_reserve(shape_translation *sh, uint32_t n) {
    uint32_t cap = sh->capmerged;
    if (!ra_grow((void **)&sh->merged, &cap, n, sizeof(uint32_t))) return false;
    uint32_t cap2 = sh->capmerged;
    if (!ra_grow((void **)&sh->from, &cap2, cap, sizeof(uint32_t))) return false;
    sh->capmerged = cap;
    return true;
}

// The store's index of delta shape `k` translated (its keys the store's symbols), resolved on
// first use: with `add`, listed as missing when the store lacks it; without, SHAPE_ABSENT then (a
// shape only compared with). RA_NONE on OOM.
__attribute__((noinline)) static uint32_t store_shape_slow(const ra_source *st, const ra_source *d, const uint32_t *tr,
                                                           shape_translation *sh, uint32_t k, bool add) {
    uint32_t count = d->shapes.at[k].count;
    if (!merged_reserve(sh, count)) return RA_NONE;
    const uint32_t *w = d->shapes.words + d->shapes.at[k].first;
    for (uint32_t i = 0; i < count; i++) sh->merged[i] = (w[i] & ~RA_SLOT_KEY) | tr[w[i] & RA_SLOT_KEY];
    uint32_t index = store_shape_of(st, sh, sh->merged, count, add);
    if (index != RA_NONE) sh->index[k] = index;
    return index;
}
static inline __attribute__((always_inline)) uint32_t store_shape(const ra_source *st, const ra_source *d, const uint32_t *tr,
                                                                  shape_translation *sh, uint32_t k, bool add) {
    uint32_t known = sh->index[k];
    if (__builtin_expect(known != SHAPE_UNRESOLVED, 1) && (known != SHAPE_ABSENT || !add)) return known;
    return store_shape_slow(st, d, tr, sh, k, add);
}

// Where a merged value comes from (merge_fields): the store record's value at a position, a
// delta field (FROM_DELTA | its index), or nowhere (a slot that goes: the record's own `id`
// moves to its flag).
#define FROM_DELTA 0x80000000u
#define FROM_NONE UINT32_MAX
#define RA_DIFFER_BITS 64u

// Which fields of a changing record differ past its first 64 (those are in its change's
// `differ`): pass 1 sets them, pass 2 reads them, so that it writes exactly what pass 1 found
// and made room for (a comparison that allocates could answer otherwise a second time).
typedef struct {
    uint64_t *words;
    uint32_t capwords;
    uint64_t nbits;
} differ_bits;

// Bits for a record of `fields` fields past the first 64; `*at` gets the first. False on OOM.
static bool more_reserve(differ_bits *b, uint32_t fields, uint32_t *at) {
    *at = 0;
    if (fields <= RA_DIFFER_BITS) return true;
    uint64_t extra = fields - RA_DIFFER_BITS, words = (b->nbits + extra + 63) / 64;
    if (b->nbits + extra > UINT32_MAX) return false;
    uint32_t old = b->capwords;
    if (!ra_grow((void **)&b->words, &b->capwords, (uint32_t)words, sizeof(uint64_t))) return false;
    if (b->capwords > old) memset(b->words + old, 0, (size_t)(b->capwords - old) * sizeof(uint64_t));
    *at = (uint32_t)b->nbits;
    b->nbits += extra;
    return true;
}
static inline void differ_set(differ_bits *b, uint64_t *differ, uint32_t at, uint32_t f) {
    if (f < RA_DIFFER_BITS) {
        *differ |= (uint64_t)1 << f;
        return;
    }
    uint64_t k = (uint64_t)at + f - RA_DIFFER_BITS;
    b->words[k / 64] |= (uint64_t)1 << (k % 64);
}
static inline bool differ_get(const differ_bits *b, uint64_t differ, uint32_t at, uint32_t f) {
    if (f < RA_DIFFER_BITS) return differ >> f & 1;
    uint64_t k = (uint64_t)at + f - RA_DIFFER_BITS;
    return b->words[k / 64] >> (k % 64) & 1;
}

// Relay's field-by-field merge of delta record `dr` (data ID `did`) into store record `ri` (both live): the
// fields that differ, and the record it makes, as words in sh->merged (`*count` of them; a
// position marked FROM_NONE goes) with sh->from saying where each value comes from, and whether
// its `id` is in its flag. `differ` and `bits` from `at` get the differing fields (by delta
// field: more_reserve made room), `*heap` what their values take. With `known`, the fields differ
// as they say already (pass 2 does not compare them again). Returns how many fields differ,
// UINT32_MAX on OOM.
static uint32_t merge_fields(const ra_source *st, const ra_source *d, const uint32_t *tr, shape_translation *sh,
                             const ra_record *dr, uint32_t did, uint32_t ri, uint32_t *count, bool *self_id,
                             uint64_t *differ, differ_bits *bits, uint32_t at, bool known, size_t *heap) {
    const ra_record *sr = &st->syms[ri].rec;
    uint32_t sc = ra_rec_count(st, sr), nf = fields_to_merge(d, dr, sr), m = sc, ndiff = 0;
    uint32_t own = tr[did];
    if (!merged_reserve(sh, sc + nf)) return UINT32_MAX;
    if (sc) memcpy(sh->merged, ra_rec_words(st, sr), (size_t)sc * 4);
    for (uint32_t j = 0; j < sc; j++) sh->from[j] = j;
    *self_id = sr->self_id;
    uint64_t was = *differ;
    if (!known) *differ = 0;
    for (uint32_t f = 0; f < nf; f++) {
        uint64_t dslot = delta_slot(d, dr, did, f);
        uint32_t key = tr[ra_slot_key(dslot)];
        uint32_t j;
        if (f < sc && (sh->merged[f] & RA_SLOT_KEY) == key) j = f;
        else for (j = 0; j < sc && (sh->merged[j] & RA_SLOT_KEY) != key; j++) {}
        uint64_t sslot = j < sc ? ra_rec_slot(st, sr, j)
                         : sr->self_id && key == st->id_key ? ra_slot_pack(key, ra_make(RA_TAG_IDSTR, ri))
                                                            : 0;
        if (known ? !differ_get(bits, was, at, f) : sslot && slot_equal_fast(st, sslot, d, dslot, tr)) continue;
        if (!known) differ_set(bits, differ, at, f);
        *heap += heap_need(d, ra_slot_value(dslot), tr);
        ndiff++;
        uint64_t dv = ra_slot_value(dslot);
        // The record's own ID as its `id` goes in the flag, from a slot if it had one (one form for
        // one value); any other `id` takes a slot, from the flag if the ID was there.
        if (key == st->id_key && key && ra_value_tag(dv) == RA_TAG_IDSTR && tr[ra_value_payload(dv)] == own) {
            if (j < sc) sh->from[j] = FROM_NONE;
            *self_id = true;
            continue;
        }
        if (key == st->id_key && key) *self_id = false;
        uint32_t word = ra_slot_word(dslot) & ~RA_SLOT_KEY;
        if (j == sc) j = m++;
        sh->merged[j] = word | key;
        sh->from[j] = FROM_DELTA | f;
    }
    // (A position that goes leaves the words: the caller compacts.)
    *count = m;
    return ndiff;
}

// Drops the positions merge_fields marked FROM_NONE from sh->merged (and sh->from); the count left.
static uint32_t compact_merged(shape_translation *sh, uint32_t m) {
    uint32_t k = 0;
    for (uint32_t j = 0; j < m; j++) {
        if (sh->from[j] == FROM_NONE) continue;
        sh->merged[k] = sh->merged[j];
        sh->from[k++] = sh->from[j];
    }
    return k;
}

// One delta record that will change the store: its data ID in the delta (the store record is
// that ID's, tr[drec], made in pass 2 when new), what it does, the shape it gives the store record and which of its fields
// differ, the first 64 in `differ`, the rest in differ_bits (pass 2 writes those without
// comparing again: by then the store's lines are long gone).
enum { CHANGE_COPY, CHANGE_TOMB, CHANGE_FIELDS, CHANGE_REBUILD };
typedef struct change {
    uint32_t drec;
    uint16_t shape;
    uint8_t kind;
    uint8_t self_id;
    uint64_t differ;
    uint32_t more;  // its fields past the first 64 in the publish's differ_bits, from here
} change;

// One publish's working state, shared by its passes: the delta's symbols, typenames and shapes in
// the store's terms, and the changes pass 1 finds for pass 2 to apply.
typedef struct publish {
    ra_source *st;
    const ra_source *d;
    uint32_t *tr;             // delta symbol -> store symbol
    type_translation tt;
    uint32_t untyped;         // the delta's type index of a record with no type (0: none)
    shape_translation sh;
    change *changes;
    uint32_t nchanges;
    differ_bits bits;
    uint64_t need_fields;     // pass 1: the values and heap bytes the changes need
    size_t need_heap;
} publish;

// The passes with a loop over every symbol, record or change are kept out of line (noinline):
// compiled on their own, each loop gets the registers to itself instead of sharing them with the
// whole publish inlined around it (about 1% fewer instructions on a refetch's merge).

// How a pass ended: on, or why the publish stops (publish_failed gives the error).
typedef enum { PUB_OK, PUB_OOM, PUB_SHAPES_OOM, PUB_LIMIT, PUB_HEAP_LIMIT, PUB_TYPES_LIMIT, PUB_SHAPES_LIMIT } pub_result;

// The publish's tables, sized by the delta. False on OOM (publish_end frees what was made).
static bool publish_begin(publish *p) {
    const ra_source *d = p->d;
    p->tr = ra_calloc(d->nsyms ? d->nsyms : 1, sizeof *p->tr);
    p->tt = (type_translation){ra_malloc((size_t)d->ntypes * sizeof *p->tt.index), ra_malloc((size_t)d->ntypes * sizeof *p->tt.missing), 0};
    p->sh = (shape_translation){.index = ra_malloc((size_t)d->shapes.n * sizeof(uint32_t))};
    p->changes = ra_malloc((d->nrecs ? d->nrecs : 1) * sizeof *p->changes);
    p->untyped = ra_untyped_type(d);
    return p->tr && p->changes && p->tt.index && p->tt.missing && p->sh.index;
}

// The delta's symbols in the store (tr), interned there when new. False on OOM / limit.
// Interning adds symbols only: invisible to readers of records, so it may run first.
// A refetch interns the symbols its store got from the first response, in the same order: the
// store symbol after the last one found is tried first, and while that guess holds, the
// store's symbols are read front to back and its index not at all. Otherwise the index and
// symbol entries are probed at random, each lookup's lines requested 16 and 8 symbols ahead.
__attribute__((noinline)) static bool translate_symbols(publish *p) {
    ra_source *st = p->st;
    const ra_source *d = p->d;
    uint32_t *tr = p->tr;
    uint32_t last = 0, dhint = UINT32_MAX;  // a list's items come one after another
    for (uint32_t sym = 1; sym < d->nsyms; sym++) {
        if (last + 1 < st->nsyms && same_symbol(st, last + 1, d, sym, tr)) {
            tr[sym] = ++last;
            continue;
        }
        // (Derived symbols are not in the index: their prefix's table is read in order. The
        // delta's hashes are the store's when they share a key, as a process's sources do; a
        // store opened from another process's snapshot, or rekeyed, hashes each text itself.)
        bool same_key = ra_hash_key_equal(st->hkey, d->hkey);
        if (same_key && sym + 16 < d->nsyms && !ra_sym_derived(d, sym + 16)) ra_prefetch_slot(st, d->syms[sym + 16].hash);
        if (same_key && sym + 8 < d->nsyms && !ra_sym_derived(d, sym + 8)) ra_prefetch_entry(st, d->syms[sym + 8].hash);
        if (ra_sym_derived(d, sym)) {
            uint32_t prefix, index;
            ra_sym_derivation(d, sym, &prefix, &index);  // the prefix came first: tr[prefix] is set
            tr[sym] = prefix < sym ? ra_intern_derived_hinted(st, tr[prefix], index, &dhint) : 0;
        } else {
            uint32_t len;
            const char *text = ra_sym_text(d, sym, &len);
            tr[sym] = ra_intern_hashed(st, text, len, same_key ? d->syms[sym].hash : ra_text_hash(st, text, len));
        }
        if (!tr[sym]) return false;
        last = tr[sym];
    }
    // Both are the symbol of `id` (or 0): a record's `id` kept in its flag keeps it in the store.
    if (d->id_key) st->id_key = tr[d->id_key];
    // The delta's typenames and shapes by their store indexes, as the changed records need them
    // (those of records that change nothing, or that were dropped, are not added).
    p->tt.index[0] = 0;
    for (uint32_t t = 1; t < d->ntypes; t++) p->tt.index[t] = TYPE_UNRESOLVED;
    p->sh.index[0] = 0;
    for (uint32_t k = 1; k < d->shapes.n; k++) p->sh.index[k] = SHAPE_UNRESOLVED;
    return true;
}

// What pass 1 has found so far: the changes and the room they take. find_changes keeps it in a
// local (its helpers are inlined into the loop) rather than in `publish`, whose address escapes
// to the out-of-line translations: the counters stay in registers instead of being reloaded
// after every call and every change written.
typedef struct found {
    change *changes;
    uint32_t n;
    uint64_t need_fields;
    size_t need_heap;
} found;

// Pass 1, a delta record that is new to the store, or a tombstone coming back: copied whole.
static inline __attribute__((always_inline)) pub_result find_copy(publish *p, const ra_source *st, const ra_source *d,
                                                                  const uint32_t *tr, found *fd, uint32_t i,
                                                                  const ra_record *dr) {
    (void)store_type(st, d, tr, &p->tt, dr->type);
    uint32_t shape = store_shape(st, d, tr, &p->sh, dr->shape, true), dc = ra_rec_count(d, dr);
    if (shape == RA_NONE) return PUB_SHAPES_OOM;
    fd->need_fields += dc;
    for (uint32_t f = 0; f < dc; f++) fd->need_heap += heap_need(d, ra_slot_value(ra_rec_slot(d, dr, f)), tr);
    fd->changes[fd->n++] = (change){i, (uint16_t)shape, CHANGE_COPY, dr->self_id, 0, 0};
    return PUB_OK;
}

// Pass 1, a live delta record over a live store record: what differs, and the shape it makes.
static inline __attribute__((always_inline)) pub_result find_merge(publish *p, const ra_source *st, const ra_source *d,
                                                                   const uint32_t *tr, found *fd, uint32_t i,
                                                                   const ra_record *dr, uint32_t sid,
                                                                   const ra_record *sr) {
    // A delta record with no type keeps the store record's (relay's update copies the delta's
    // fields, and it has no `__typename`); one with a type gives it, to an untyped one too.
    bool retyped = dr->type != p->untyped && sr->type != store_type(st, d, tr, &p->tt, dr->type);
    uint32_t dshape = store_shape(st, d, tr, &p->sh, dr->shape, false);
    if (dshape == RA_NONE) return PUB_SHAPES_OOM;
    uint64_t differ = 0;
    if (dshape == sr->shape && !(dr->self_id & !sr->self_id)) {
        // The same keys and tags in the same order (a refetch of the same selection, mostly):
        // the values alone are compared, and written in place.
        uint32_t dc = ra_rec_count(d, dr), ndiff = 0, at;
        if (!more_reserve(&p->bits, dc, &at)) return PUB_OOM;
        const uint32_t *dw = ra_rec_words(d, dr), *sw = ra_rec_words(st, sr);
        const uint32_t *dv = d->vals + dr->fields, *sv = st->vals + sr->fields;
        for (uint32_t f = 0; f < dc; f++) {
            uint64_t dslot = ((uint64_t)dv[f] << 32) | dw[f];
            if (slot_equal_fast(st, ((uint64_t)sv[f] << 32) | sw[f], d, dslot, tr)) continue;
            differ_set(&p->bits, &differ, at, f);
            fd->need_heap += heap_need(d, ra_slot_value(dslot), tr);
            ndiff++;
        }
        if (ndiff || retyped) fd->changes[fd->n++] = (change){i, (uint16_t)dshape, CHANGE_FIELDS, sr->self_id, differ, at};
        return PUB_OK;
    }
    uint32_t m, at;
    bool self_id;
    if (!more_reserve(&p->bits, fields_to_merge(d, dr, sr), &at)) return PUB_OOM;
    uint32_t ndiff = merge_fields(st, d, tr, &p->sh, dr, i, sid, &m, &self_id, &differ, &p->bits, at, false, &fd->need_heap);
    if (ndiff == UINT32_MAX) return PUB_OOM;
    if (!ndiff && !retyped) return PUB_OK;
    uint32_t sc = ra_rec_count(st, sr);
    m = compact_merged(&p->sh, m);
    // A record is capped at RA_MAX_FIELDS_PER_RECORD slots: refuse the payload up front
    // rather than drop a field halfway through the merge.
    if (m > RA_MAX_FIELDS_PER_RECORD) return PUB_LIMIT;
    uint32_t shape = store_shape_of(st, &p->sh, p->sh.merged, m, true);
    if (shape == RA_NONE) return PUB_SHAPES_OOM;
    if (m > sc) fd->need_fields += m;  // (at most: the tail grows in place)
    fd->changes[fd->n++] = (change){i, (uint16_t)shape, CHANGE_REBUILD, self_id, differ, at};
    return PUB_OK;
}

// Pass 1: find what changes and exactly how much room it needs. Nothing is written.
// The delta's records are in its data IDs' entries, in their order.
__attribute__((noinline)) static pub_result find_changes(publish *p) {
    const ra_source *st = p->st, *d = p->d;
    const uint32_t *tr = p->tr;
    found fd = {p->changes, 0, 0, 0};
    for (uint32_t i = 1; i < d->nsyms; i++) {
        // The store's entries ahead (a record is in its ID's), 8 on, then the values of the
        // record 4 on (tr[0] is 0 and syms[0] has no record: an empty slot needs no test).
        if (i + 8 < d->nsyms) __builtin_prefetch(&st->syms[tr[i + 8]]);
        if (i + 4 < d->nsyms) {
            uint32_t f4 = st->syms[tr[i + 4]].rec.fields;
            if (f4 != RA_NO_RECORD) __builtin_prefetch(&st->vals[f4]);
        }
        if (!ra_has_record(d, i)) continue;
        const ra_record *dr = &d->syms[i].rec;
        uint32_t sid = tr[i];
        const ra_record *sr = ra_has_record(st, sid) ? &st->syms[sid].rec : NULL;
        pub_result r;
        if (!sr || (!sr->type && dr->type)) {
            r = find_copy(p, st, d, tr, &fd, i, dr);
        } else if (!dr->type) {
            if (sr->type) fd.changes[fd.n++] = (change){i, 0, CHANGE_TOMB, 0, 0, 0};
            continue;
        } else {
            r = find_merge(p, st, d, tr, &fd, i, dr, sid, sr);
        }
        if (r != PUB_OK) return r;
    }
    p->nchanges = fd.n;
    p->need_fields = fd.need_fields;
    p->need_heap = fd.need_heap;
    return PUB_OK;
}

// Every allocation pass 2 needs, and the limits checked, so that pass 2 cannot fail; then the
// new typenames and shapes, at the indexes pass 1 gave them (like symbols, unseen by readers).
static pub_result reserve_room(publish *p) {
    ra_source *st = p->st;
    if (p->need_fields >= UINT32_MAX - (uint64_t)st->nfields) return PUB_LIMIT;
    if (p->need_heap > RA_MAX_HEAP - st->heap.len) return PUB_HEAP_LIMIT;
    if (st->ntypes + p->tt.nmissing > RA_MAX_TYPES + 1) return PUB_TYPES_LIMIT;  // (index 0 is the tombstone's)
    if (st->shapes.n + p->sh.missing.n > RA_MAX_SHAPES + 1) return PUB_SHAPES_LIMIT;
    if (!ra_grow((void **)&st->vals, &st->capfields, st->nfields + (uint32_t)p->need_fields, sizeof(uint32_t))) return PUB_OOM;
    if (!ra_buf_reserve(&st->heap, p->need_heap)) return PUB_OOM;
    if (!ra_grow((void **)&st->updated, &st->capupdated, p->nchanges + 1, sizeof(uint32_t))) return PUB_OOM;
    if (!ra_types_reserve(st, p->tt.nmissing)) return PUB_OOM;
    if (!ra_shapes_reserve(st, p->sh.missing.n, p->sh.missing.nwords)) return PUB_OOM;

    for (uint32_t k = 0; k < p->tt.nmissing; k++) (void)ra_type_index_slow(st, p->tr[p->d->types[p->tt.missing[k]]]);
    for (uint32_t k = 0; k < p->sh.missing.n; k++) {
        const ra_shape *m = &p->sh.missing.at[k];
        (void)ra_shape_add_reserved(st, p->sh.missing.words + m->first, m->count);
    }
    return PUB_OK;
}

// Pass 2, CHANGE_REBUILD: the merge again (the store record is as pass 1 saw it), now written:
// the values that stay, those the delta gives, in the order of the record's new shape.
static inline void apply_rebuild(publish *p, const change *ch, const ra_record *dr, int64_t ri, ra_record *sr) {
    ra_source *st = p->st;
    const ra_source *d = p->d;
    shape_translation *sh = &p->sh;
    if (dr->type != p->untyped) sr->type = p->tt.index[dr->type];  // (find_merge: the store's stays)
    uint32_t m, sc = ra_rec_count(st, sr);
    bool self_id;
    uint64_t differ = ch->differ;
    size_t heap = 0;
    (void)merge_fields(st, d, p->tr, sh, dr, ch->drec, (uint32_t)ri, &m, &self_id, &differ, &p->bits, ch->more, true, &heap);  // (room reserved in pass 1)
    m = compact_merged(sh, m);
    // The new values in the merged words' room (sh->merged is not needed any more): a
    // store value is read before anything is written over it.
    uint32_t *vals = sh->merged;
    for (uint32_t j = 0; j < m; j++) {
        uint32_t from = sh->from[j];
        vals[j] = from & FROM_DELTA ? (uint32_t)(ra_slot_pack(0, translate(st, d, ra_slot_value(delta_slot(d, dr, ch->drec, from & ~FROM_DELTA)), p->tr)) >> 32)
                                    : st->vals[sr->fields + from];
    }
    if (m > sc) ra_record_reserve(st, (uint32_t)ri, m);
    if (m) memcpy(st->vals + sr->fields, vals, (size_t)m * 4);
    sr->shape = ch->shape;
    sr->self_id = self_id;
    if (m != sc) ra_record_trim(st, (uint32_t)ri);
}

// Pass 2: apply. Every allocation was made above, so nothing here can fail.
__attribute__((noinline)) static void apply_changes(publish *p) {
    ra_source *st = p->st;
    const ra_source *d = p->d;
    const uint32_t *tr = p->tr;
    const change *changes = p->changes;
    uint32_t nchanges = p->nchanges;
    st->nupdated = 0;
    for (uint32_t c = 0; c < nchanges; c++) {
        // The records ahead, then (their headers in by now) their values.
        if (c + 8 < nchanges) {
            __builtin_prefetch(&d->syms[changes[c + 8].drec]);
            __builtin_prefetch(&st->syms[tr[changes[c + 8].drec]]);
        }
        if (c + 4 < nchanges) {
            __builtin_prefetch(&d->vals[d->syms[changes[c + 4].drec].rec.fields]);
            uint32_t f4 = st->syms[tr[changes[c + 4].drec]].rec.fields;
            if (f4 != RA_NO_RECORD) __builtin_prefetch(&st->vals[f4], 1);
        }
        const change *ch = &changes[c];
        const ra_record *dr = &d->syms[ch->drec].rec;
        uint32_t id = tr[ch->drec];
        bool created;
        int64_t ri = ra_record_get_or_create(st, id, 0, &created);  // (a new one is typed below)
        ra_record *sr = &st->syms[ri].rec;
        switch (ch->kind) {
        case CHANGE_TOMB:
            sr->type = 0;
            sr->shape = 0;
            sr->self_id = 0;
            break;
        case CHANGE_COPY: {
            uint32_t dc = ra_rec_count(d, dr);
            sr->type = p->tt.index[dr->type];
            sr->shape = 0;
            ra_record_reserve(st, (uint32_t)ri, dc);
            for (uint32_t f = 0; f < dc; f++)
                st->vals[sr->fields + f] = (uint32_t)(ra_slot_pack(0, translate(st, d, ra_slot_value(ra_rec_slot(d, dr, f)), tr)) >> 32);
            sr->shape = ch->shape;
            sr->self_id = ch->self_id;  // (st->id_key is the delta's, translated)
            break;
        }
        case CHANGE_FIELDS: {
            if (dr->type != p->untyped) sr->type = p->tt.index[dr->type];  // (find_merge: the store's stays)
            uint32_t dc = ra_rec_count(d, dr);
            for (uint32_t f = 0; f < dc; f++) {
                if (!differ_get(&p->bits, ch->differ, ch->more, f)) continue;
                uint64_t dslot = ra_rec_slot(d, dr, f);
                st->vals[sr->fields + f] = (uint32_t)(ra_slot_pack(0, translate(st, d, ra_slot_value(dslot), tr)) >> 32);
            }
            break;
        }
        case CHANGE_REBUILD: apply_rebuild(p, ch, dr, ri, sr); break;
        }
        st->updated[st->nupdated++] = id;
    }
}

// The error of a publish that stopped at `r`.
static ra_status publish_failed(publish *p, pub_result r, ra_error *err) {
    ra_source *st = p->st;
    switch (r) {
    case PUB_LIMIT:
        ra_error_set(err, RA_ERR_LIMIT, 0, "a record would hold more than %u fields", RA_MAX_FIELDS_PER_RECORD);
        return RA_ERR_LIMIT;
    case PUB_HEAP_LIMIT:
        ra_error_set(err, RA_ERR_LIMIT, 0, "the store's strings would pass %u bytes", RA_MAX_HEAP);
        return RA_ERR_LIMIT;
    case PUB_SHAPES_OOM:
        if (p->sh.missing.n > RA_MAX_SHAPES) st->shapes_full = true;
        break;
    case PUB_SHAPES_LIMIT: st->shapes_full = true; break;
    case PUB_TYPES_LIMIT: st->types_full = true; break;
    default: break;
    }
    return ra_publish_out_of_room(st, err);
}

static void publish_end(publish *p) {
    ra_dealloc(p->changes);
    ra_dealloc(p->tr);
    ra_dealloc(p->tt.index);
    ra_dealloc(p->tt.missing);
    ra_dealloc(p->bits.words);
    shapes_free(&p->sh);
}

ra_status ra_source_publish(ra_source *st, const ra_source *d, ra_error *err) {
    if (!ra_source_make_writable(st)) {  // (a store opened from a snapshot: its first write copies it)
        ra_error_set(err, RA_ERR_NOMEM, 0, "out of memory copying a snapshot's store");
        return RA_ERR_NOMEM;
    }
    st->names_full = st->types_full = st->shapes_full = false;  // set again if this publish meets the limit
    publish p = {.st = st, .d = d};
    pub_result r = publish_begin(&p) && translate_symbols(&p) ? PUB_OK : PUB_OOM;
    if (r == PUB_OK) r = find_changes(&p);
    if (r == PUB_OK) r = reserve_room(&p);
    ra_status status = RA_OK;
    if (r == PUB_OK) {
        apply_changes(&p);
        ra_dealloc_used(p.changes, (size_t)p.nchanges * sizeof *p.changes);
        p.changes = NULL;
    } else {
        status = publish_failed(&p, r, err);
    }
    publish_end(&p);
    return status;
}
