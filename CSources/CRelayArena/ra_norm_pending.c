// The normalizer's pending stage: records parked until their parent's data ID is known (list
// items, a connection's edges in runs), settled when it is: their client IDs, their commits, and
// the staged lists that link them, translated into the delta's terms.
#include "ra_normalize.h"
#include "ra_norm_error.h"
#include "ra_symbols.h"
#include "ra_records.h"
#include "ra_heap.h"
#include "ra_buf.h"
#include "ra_plan.h"
#include "ra_source.h"

static inline uint32_t list_item_client_id(ra_normalizer *n, uint32_t parent, uint32_t storage_key, uint32_t index);

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
uint64_t ra_norm_to_delta_slow(ra_normalizer *n, uint64_t v, const uint8_t *base) {
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

// name_record for a parked record, whose header waited in its pending entry (commit_unnamed).
static inline __attribute__((always_inline)) int name_parked(ra_normalizer *n, uint32_t id, const ra_record *r) {
    ra_source *d = n->delta;
    if (__builtin_expect(ra_has_record(d, id), 0)) return ra_norm_merge_unnamed(n, id, r);
    ra_record_put(d, id, *r);
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

// generateClientID(parent, storageKey, index), or the ID the parent already links there.
uint32_t ra_norm_client_id(ra_normalizer *n, uint32_t parent, uint32_t storage_key, int64_t index) {
    uint32_t prev = previous_link(n, parent, storage_key, index);
    if (prev) return prev;
    if (index >= 0) return index <= UINT32_MAX ? list_item_client_id(n, parent, storage_key, (uint32_t)index) : 0;
    // "client:<parent>:<storage key>", written in place at the end of the symbol bytes.
    char *out = ra_sym_tail(n->delta, client_id_room(n, parent, storage_key));
    return out ? ra_intern_tail(n->delta, client_prefix(n, out, parent, storage_key)) : 0;
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

// Records `id` as the data ID of item `k` of pending entry `p` (ra_norm_settle_pending gives a run's in
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
// Item `k`'s list position as ra_norm_client_id takes it (-1: none).
static inline int64_t pend_item_index(const pend_rec *p, uint32_t k) {
    return p->index == PEND_NO_INDEX ? -1 : (int64_t)p->index + k;
}

// Resolves the pending records above `mark` now that the frame at `frame_depth` has its ID
// `frame_sym`, commits them in order, and drops them (and the parked fields above `fmark`).
// Their IDs stay readable (pend_id) until the next settle: for the frame's own commit, whose
// lists link them.
int ra_norm_settle_pending(ra_normalizer *n, uint32_t mark, uint32_t fmark, uint32_t frame_depth, uint32_t frame_sym) {
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
        if ((p->parent & ~RA_ITEM_PEND) != frame_depth) return ra_norm_fail(n, RA_ERR_STATE, "pending record lost its parent");
        bool name = fuse && p->committed;
        for (uint32_t k = 0, items = pend_items(p); k < items; k++) {
            uint32_t id = linked || p->index == PEND_NO_INDEX
                              ? ra_norm_client_id(n, frame_sym, p->storage_key, pend_item_index(p, k))
                              : list_item_client_id(n, frame_sym, p->storage_key, p->index + k);
            if (!id || !pend_set_id(n, p, k, id)) return ra_norm_oom(n);
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
            uint32_t id = ra_norm_client_id(n, owner, p->storage_key, pend_item_index(p, k));
            if (!id || !pend_set_id(n, p, k, id)) return ra_norm_oom(n);
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
        } else if (!ra_norm_commit(n, p->resolved, p->type, n->pfields + p->field_first, p->count, n->pbytes.data, p->unique,
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
