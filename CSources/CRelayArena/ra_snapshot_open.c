// Snapshots, opening: a file read (or bytes copied) into a block of its own and checked, every
// bound a reader or publish relies on (on two threads for a large file), then read in place as a
// source's arrays, the block handed to the source (ra_source_mapping.c owns it from then on); a
// version 1 file, or one whose index no random key would lay out, is rekeyed.
#include "ra_snapshot.h"
#include "ra_source.h"
#include "ra_symbols.h"
#include "ra_records.h"
#include "ra_heap.h"
#include "ra_alloc.h"
#include "ra_buf.h"
#include "ra_json.h"
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

bool ra_snapshot_sniff(const uint8_t *bytes, size_t len) {
    return bytes && len >= 8 && memcmp(bytes, SNAP_MAGIC, 8) == 0;
}

static bool fail(ra_error *err, uint64_t offset, const char *fmt, ...) __attribute__((format(printf, 3, 4), cold, noinline));
static bool fail(ra_error *err, uint64_t offset, const char *fmt, ...) {
    if (!err) return false;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ra_error_set(err, RA_ERR_SNAPSHOT, offset, "%s", msg);
    return false;
}

static bool checked_header(const uint8_t *b, size_t n, snap_header *h, ra_error *err) {
    if (n < 8 || memcmp(b, SNAP_MAGIC, 8) != 0) {
        if (n < 8 && n > 0 && memcmp(b, SNAP_MAGIC, n) == 0)
            return fail(err, n, "truncated snapshot: the file ends inside its header, at byte %zu", n);
        return fail(err, 0, "not a snapshot: the file does not start with the snapshot magic");
    }
    if (n < sizeof *h) {
        if (n >= 12) {
            uint32_t v;
            memcpy(&v, b + 8, 4);
            if (v > SNAP_VERSION)
                return fail(err, 8, "snapshot format version %u is newer than this build reads (%u)", v, SNAP_VERSION);
        }
        return fail(err, n, "truncated snapshot: the file ends inside its header, at byte %zu", n);
    }
    memcpy(h, b, sizeof *h);
    if (h->version > SNAP_VERSION)
        return fail(err, 8, "snapshot format version %u is newer than this build reads (%u)", h->version, SNAP_VERSION);
    if (h->version == 0) return fail(err, 8, "bad snapshot format version 0");
    if (h->byte_order != SNAP_BYTE_ORDER)
        return fail(err, 12, "the snapshot was written with another byte order (mark 0x%08x)", h->byte_order);
    if (h->header_size != sizeof *h) return fail(err, 16, "bad snapshot header size %u", h->header_size);
    if (h->flags) return fail(err, 20, "unknown snapshot flags 0x%x", h->flags);
    for (size_t i = 0; i < sizeof h->reserved; i++)
        if (h->reserved[i]) return fail(err, offsetof(snap_header, reserved) + i, "reserved header byte is not zero");
    if (h->version == 1 && (h->hash_k0 || h->hash_k1))
        return fail(err, offsetof(snap_header, hash_k0), "reserved header byte is not zero");
    if (h->version >= 2 && !(h->hash_k1 >> 63))
        return fail(err, offsetof(snap_header, hash_k1), "bad hash key: its multiplier's top bit is clear");
    if (h->file_size > n)
        return fail(err, n, "truncated snapshot: the file is %zu bytes, its header says %llu", n,
                    (unsigned long long)h->file_size);
    if (h->file_size < n)
        return fail(err, h->file_size, "the snapshot has %llu bytes past its end (byte %llu)",
                    (unsigned long long)(n - h->file_size), (unsigned long long)h->file_size);
    if (h->sym_bytes_len > RA_MAX_SYM_BYTES)
        return fail(err, offsetof(snap_header, sym_bytes_len), "bad bound: %llu symbol bytes (at most %u)",
                    (unsigned long long)h->sym_bytes_len, RA_MAX_SYM_BYTES);
    if (h->heap_len > RA_MAX_HEAP)
        return fail(err, offsetof(snap_header, heap_len), "bad bound: %llu heap bytes (at most %u)",
                    (unsigned long long)h->heap_len, RA_MAX_HEAP);
    uint64_t off[SNAP_NARRAYS], len[SNAP_NARRAYS];
    if (snap_layout(h, off, len) != h->file_size)
        return fail(err, offsetof(snap_header, file_size),
                    "bad bound: the arrays' sizes in the header add up to %llu bytes, not the file's %llu",
                    (unsigned long long)snap_layout(h, off, len), (unsigned long long)h->file_size);
    return true;
}

// The checksum, over every byte before it. A large file's is computed on a thread of its own
// while the bounds are checked (the checks never read outside the file, whatever its bytes):
// see snap_open.
typedef struct snap_sum {
    const uint8_t *b;
    size_t n;
    bool ok;
} snap_sum;
static void *sum_run(void *arg) {
    snap_sum *c = arg;
    uint64_t sum;
    memcpy(&sum, c->b + c->n - 8, 8);
    c->ok = XXH3_64bits(c->b, c->n - 8) == sum;
    return NULL;
}
#ifndef RA_SNAPSHOT_THREAD_MIN  // (the fuzzer sets it low, so that its small files take the two threads)
#define RA_SNAPSHOT_THREAD_MIN ((size_t)8 << 20)
#endif

// The arrays of a checked file, read in place, and their counts.
typedef struct snap_view {
    const snap_header *h;
    uint64_t off[SNAP_NARRAYS];
    const uint8_t *symb, *heap;
    const ra_symbol *syms;
    const uint32_t *index, *dslots, *vals, *words, *types;
    const ra_dtable *dtabs;
    const ra_shape *shapes;
} snap_view;

// A heap value at `off` lies within the heap: `*start` and `*len` get where its bytes are.
static inline __attribute__((always_inline)) bool heap_value_ok(const snap_view *v, uint64_t off, uint64_t *start, uint32_t *len) {
    uint64_t n = v->h->heap_len;
    if (off >= n) return false;
    if (v->heap[off] < RA_LEN_LONG) {
        *len = v->heap[off];
        *start = off + 1;
    } else {
        if (off + 5 > n) return false;
        memcpy(len, v->heap + off + 1, 4);
        *start = off + 5;
    }
    return *start + *len <= n;
}

// Where in the file the value of record `sym`'s slot `j` lies (for the error's offset).
static uint64_t val_at(const snap_view *v, uint32_t fields, uint32_t j) {
    return v->off[A_VALS] + 4 * ((uint64_t)fields + j);
}

static inline __attribute__((always_inline)) bool check_value(const snap_view *v, uint32_t sym, const ra_record *r, uint32_t j, uint32_t word, ra_error *err) {
    uint32_t p = v->vals[r->fields + j], nsyms = v->h->nsyms, len;
    uint64_t start;
    switch (word >> 28) {
    case RA_TAG_NUMBER:
    case RA_TAG_STRING:
    case RA_TAG_JSON:
        if (!heap_value_ok(v, p, &start, &len))
            return fail(err, val_at(v, r->fields, j), "bad bound: record %u's value %u (heap offset %u) lies past the heap (%llu bytes)",
                        sym, j, p, (unsigned long long)v->h->heap_len);
        return true;
    case RA_TAG_REF:
    case RA_TAG_IDSTR:
        if (!p || p >= nsyms)
            return fail(err, val_at(v, r->fields, j), "bad bound: record %u's value %u links symbol %u (of %u)", sym, j, p, nsyms);
        return true;
    case RA_TAG_REFS: {
        if (!heap_value_ok(v, p, &start, &len))
            return fail(err, val_at(v, r->fields, j), "bad bound: record %u's link list (heap offset %u) lies past the heap", sym, p);
        const uint8_t *q = v->heap + start;
        if (len == RA_REFS_RUN_LEN) {
            uint32_t first = ra_load_u32(q), count = ra_load_u32(q + 4);
            if (!first || (uint64_t)first + count > nsyms)
                return fail(err, v->off[A_HEAP] + start, "bad bound: a link run of %u symbols from %u (of %u)", count, first, nsyms);
            return true;
        }
        if (len % 4) return fail(err, v->off[A_HEAP] + p, "bad bound: a link list of %u bytes", len);
        for (uint32_t i = 0; i < len / 4; i++) {
            uint32_t item = ra_load_u32(q + 4 * (size_t)i);
            if (item >= nsyms)
                return fail(err, v->off[A_HEAP] + start + 4 * (uint64_t)i, "bad bound: a link list's item %u is symbol %u (of %u)",
                            i, item, nsyms);
        }
        return true;
    }
    default: return true;  // (null, booleans, ints: the payload is the value)
    }
}

// The counts, shapes and types, which the symbols' checks rely on.
static bool check_tables(const snap_view *v, ra_error *err) {
    const snap_header *h = v->h;
    uint32_t nsyms = h->nsyms;
    // Counts and limits.
    if (nsyms < 1 || nsyms > RA_MAX_SYMBOLS)
        return fail(err, offsetof(snap_header, nsyms), "bad bound: %u symbols (1 to %u)", nsyms, RA_MAX_SYMBOLS);
    if (h->ntypes < 1 || h->ntypes > RA_MAX_TYPES + 1)
        return fail(err, offsetof(snap_header, ntypes), "bad bound: %u types (1 to %u)", h->ntypes, RA_MAX_TYPES + 1);
    if (h->nshapes < 1 || h->nshapes > RA_MAX_SHAPES + 1)
        return fail(err, offsetof(snap_header, nshapes), "bad bound: %u shapes (1 to %u)", h->nshapes, RA_MAX_SHAPES + 1);
    if (h->nfields >= RA_NO_RECORD) return fail(err, offsetof(snap_header, nfields), "bad bound: %u values", h->nfields);
    if (h->id_key >= nsyms) return fail(err, offsetof(snap_header, id_key), "bad bound: the id key is symbol %u (of %u)", h->id_key, nsyms);
    if (h->index_cap ? h->nindexed >= h->index_cap : h->nindexed != 0)
        return fail(err, offsetof(snap_header, nindexed), "bad bound: %u symbols indexed in %u slots", h->nindexed, h->index_cap);
    if ((uint64_t)h->ndtabs * 2 > h->dtab_cap)
        return fail(err, offsetof(snap_header, ndtabs), "bad bound: %u derivation tables in %u slots", h->ndtabs, h->dtab_cap);

    // Shapes: their words within shape_words; every word a key symbol and a known tag.
    for (uint32_t k = 0; k < h->nshapes; k++) {
        const ra_shape *sh = &v->shapes[k];
        if ((uint64_t)sh->first + sh->count > h->nwords || sh->count > RA_MAX_FIELDS_PER_RECORD || (k == 0 && sh->count))
            return fail(err, v->off[A_SHAPES] + 12 * (uint64_t)k, "bad bound: shape %u's %u words from %u (of %u)", k, sh->count,
                        sh->first, h->nwords);
    }
    for (uint32_t i = 0; i < h->nwords; i++) {
        uint32_t w = v->words[i], key = w & RA_SLOT_KEY;
        if (!key || key >= nsyms || (w >> 28) > RA_TAG_IDSTR)
            return fail(err, v->off[A_WORDS] + 4 * (uint64_t)i, "bad bound: shape word %u (key %u of %u symbols, tag %u)", i, key,
                        nsyms, w >> 28);
    }
    // Types: typename symbols; type 0, the tombstone's, has none.
    if (v->types[0]) return fail(err, v->off[A_TYPES], "bad bound: type 0 has a typename");
    for (uint32_t t = 1; t < h->ntypes; t++)
        if (!v->types[t] || v->types[t] >= nsyms)
            return fail(err, v->off[A_TYPES] + 4 * (uint64_t)t, "bad bound: type %u is symbol %u (of %u)", t, v->types[t], nsyms);

    // Symbols: texts within sym_bytes, derivations of text prefixes; records within vals, their
    // types and shapes known, their values' heap offsets and symbols within bounds.
    const ra_symbol *s0 = &v->syms[0];
    if (s0->offset || s0->hash || s0->rec.fields != RA_NO_RECORD)
        return fail(err, v->off[A_SYMS], "bad bound: symbol 0 is not empty");
    return true;
}

// Symbols [from, to) (check_tables passed): texts, derivations, records and their values.
// `taken`: a bit for each of the values, to find records whose values overlap (a write into one
// would change the other's, under the other's tags); `*nrecs` gets the records counted.
static bool check_symbols(const snap_view *view, uint32_t from, uint32_t to, uint64_t *taken, uint32_t *nrecs_out,
                          ra_error *err) {
    // (Local copies, which the writes into `taken` cannot alias: their fields stay in registers.)
    snap_header header = *view->h;
    snap_view local = *view;
    local.h = &header;
    const snap_view *v = &local;
    const snap_header *h = &header;
    uint32_t nrecs = 0;
    for (uint32_t i = from; i < to; i++) {
        const ra_symbol *e = &v->syms[i];
        uint64_t at = v->off[A_SYMS] + 16 * (uint64_t)i;
        if (e->offset & RA_SYM_DERIVED) {
            uint32_t prefix = e->offset & ~RA_SYM_DERIVED;
            // (Its prefix comes before it, as publish relies on: the prefix is translated first.)
            if (!prefix || prefix >= i || (v->syms[prefix].offset & RA_SYM_DERIVED))
                return fail(err, at, "bad bound: derived symbol %u's prefix %u is no text symbol before it", i, prefix);
        } else {
            uint64_t off = e->offset, n = h->sym_bytes_len, start;
            uint32_t len = 0;
            bool ok = off < n;
            if (ok && v->symb[off] < RA_LEN_LONG) {
                len = v->symb[off];
                start = off + 1;
            } else if (ok) {
                ok = off + 5 <= n;
                if (ok) memcpy(&len, v->symb + off + 1, 4);
                start = off + 5;
            }
            if (!ok || start + len > n)
                return fail(err, at, "bad bound: symbol %u's text (offset %llu, %u bytes) lies past the symbol bytes (%llu)", i,
                            (unsigned long long)off, len, (unsigned long long)n);
        }
        const ra_record *r = &e->rec;
        if (r->fields == RA_NO_RECORD) continue;
        nrecs++;
        if (r->type >= h->ntypes) return fail(err, at + 12, "bad bound: record %u's type %u (of %u)", i, r->type, h->ntypes);
        if (r->shape >= h->nshapes) return fail(err, at + 14, "bad bound: record %u's shape %u (of %u)", i, r->shape, h->nshapes);
        if (r->self_id && !h->id_key) return fail(err, at + 12, "bad bound: record %u has its own id but the store no id key", i);
        const ra_shape *sh = &v->shapes[r->shape];
        // (A record with no value may point anywhere, past the values too: a record trimmed to
        // nothing at the end of them. Nothing reads there, and it moves when it grows.)
        if (sh->count && (uint64_t)r->fields + sh->count > h->nfields)
            return fail(err, at + 8, "bad bound: record %u's %u values from %u lie past the values (%u)", i, sh->count, r->fields,
                        h->nfields);
        for (uint32_t j = 0; j < sh->count; j++) {
            uint32_t k = r->fields + j;
            if (taken[k / 64] >> (k % 64) & 1)
                return fail(err, at + 8, "bad bound: record %u's values from %u overlap another record's", i, r->fields);
            taken[k / 64] |= (uint64_t)1 << (k % 64);
            if (!check_value(v, i, r, j, v->words[sh->first + j], err)) return false;
        }
    }
    *nrecs_out = nrecs;
    return true;
}

// The index and the derivation tables (check_tables passed).
static bool check_maps(const snap_view *v, ra_error *err) {
    const snap_header *h = v->h;
    uint32_t nsyms = h->nsyms;

    // The index: each slot empty or a symbol; as many symbols as counted (so that one slot at
    // least stays empty and a probe ends).
    // (Without a branch a slot, so that it vectorizes: a bad slot is looked for once one is seen.)
    uint32_t used = 0, bad = 0;
    for (uint32_t i = 0; i < h->index_cap; i++) {
        uint32_t slot = v->index[i], full = slot != 0;
        used += full;
        bad |= full & ((slot & RA_SLOT_SYM) - 1 >= nsyms - 1);  // (symbol 0 wraps round: bad too)
    }
    for (uint32_t i = 0; bad && i < h->index_cap; i++) {
        uint32_t slot = v->index[i], sym = slot & RA_SLOT_SYM;
        if (slot && (!sym || sym >= nsyms))
            return fail(err, v->off[A_INDEX] + 4 * (uint64_t)i, "bad bound: index slot %u names symbol %u (of %u)", i, sym, nsyms);
    }
    if (used != h->nindexed)
        return fail(err, offsetof(snap_header, nindexed), "bad bound: %u index slots used, %u in the header", used, h->nindexed);
    // Derivation tables: prefixes are text symbols; a dense table's run within the symbols, a
    // table's slots within dslots, every slot empty or a symbol.
    for (uint32_t i = 0; i < h->ndslots; i++)
        if (v->dslots[i] >= nsyms)
            return fail(err, v->off[A_DSLOTS] + 4 * (uint64_t)i, "bad bound: derivation slot %u names symbol %u (of %u)", i,
                        v->dslots[i], nsyms);
    uint32_t ntabs = 0;
    for (uint32_t i = 0; i < h->dtab_cap; i++) {
        const ra_dtable *t = &v->dtabs[i];
        uint64_t at = v->off[A_DTABS] + sizeof(ra_dtable) * (uint64_t)i;
        if (!t->prefix) continue;
        ntabs++;
        if (t->prefix >= nsyms || (v->syms[t->prefix].offset & RA_SYM_DERIVED))
            return fail(err, at, "bad bound: derivation table %u's prefix %u is no text symbol (of %u)", i, t->prefix, nsyms);
        if (t->cap ? (uint64_t)t->start + t->cap > h->ndslots || t->count > t->cap
                   : t->count && (!t->base || (uint64_t)t->base + t->count > nsyms))
            return fail(err, at + 4, "bad bound: derivation table %u (start %u, cap %u, count %u, base %u)", i, t->start, t->cap,
                        t->count, t->base);
    }
    if (ntabs != h->ndtabs)
        return fail(err, offsetof(snap_header, ndtabs), "bad bound: %u derivation tables, %u in the header", ntabs, h->ndtabs);
    return true;
}

// The symbols' checks, shared out in runs of SNAP_RUN symbols taken in order by whichever thread
// is free (a large file's second thread takes its first once the checksum is done): how long
// each part takes depends on the file's size and the caches, so no fixed split fits all.
#ifndef RA_SNAPSHOT_RUN  // (the fuzzer sets it low, so that its small files take many runs)
#define RA_SNAPSHOT_RUN 8192u
#endif
#define SNAP_RUN ((uint32_t)RA_SNAPSHOT_RUN)
typedef struct snap_runs {
    const snap_view *v;
    uint32_t nsyms;
    _Atomic uint32_t next;  // the first symbol of the next run to take
} snap_runs;

// One thread's part: its own bitmap of the values seen, the records counted, and its first
// failure (the run it was in, so that the earliest run's is reported, as one thread would).
typedef struct snap_part {
    snap_runs *runs;
    uint64_t *_Nullable taken;
    uint32_t nrecs, failed_run;
    bool ok;
    ra_error err;
} snap_part;

static void check_runs(snap_part *p) {
    p->ok = true;
    p->nrecs = 0;
    for (;;) {
        uint32_t from = atomic_fetch_add_explicit(&p->runs->next, SNAP_RUN, memory_order_relaxed);
        if (from >= p->runs->nsyms) return;
        uint32_t to = p->runs->nsyms - from > SNAP_RUN ? from + SNAP_RUN : p->runs->nsyms, n = 0;
        if (!check_symbols(p->runs->v, from ? from : 1, to, p->taken, &n, &p->err)) {
            // (Runs are taken in order: every earlier one is checked by some thread.)
            p->ok = false;
            p->failed_run = from;
            return;
        }
        p->nrecs += n;
    }
}

// A large file's second thread: the checksum, then runs of symbols.
typedef struct snap_helper {
    snap_sum sum;
    snap_part part;
    pthread_t thread;
} snap_helper;
static void *helper_run(void *arg) {
    snap_helper *c = arg;
    sum_run(&c->sum);
    check_runs(&c->part);
    return NULL;
}

// The maps a loaded source rebuilds rather than trusts (small: one entry a type, a shape).
static bool rebuild_maps(ra_source *s) {
    uint32_t cap = 16;
    while (2 * (s->ntypes - 1) >= cap) cap *= 2;
    s->type_map = ra_calloc(cap, sizeof *s->type_map);
    if (!s->type_map) return false;
    s->type_map_cap = cap;
    for (uint32_t t = 1; t < s->ntypes; t++) {
        uint32_t j = (uint32_t)(((uint64_t)(s->types[t] * 0x9E3779B1u) * cap) >> 32);  // (ra_records.c's type_home)
        while (s->type_map[j]) j = (j + 1) & (cap - 1);
        s->type_map[j] = (uint16_t)t;
    }
    ra_shape_table *t = &s->shapes;
    cap = 16;
    while (2 * (uint64_t)t->n >= cap) cap *= 2;
    t->map = ra_calloc(cap, sizeof *t->map);
    if (!t->map) return false;
    t->map_cap = cap;
    for (uint32_t k = 1; k < t->n; k++) {
        if (!t->at[k].count) continue;
        uint32_t j = (uint32_t)(((uint64_t)t->at[k].hash * cap) >> 32);  // (ra_records.c's shape_home)
        while (t->map[j]) {
            j = (j + 1) & (cap - 1);
            t->probes++;
        }
        t->map[j] = k + 1;
    }
    return true;
}

// The longest run of full slots in an index (a probe passes at most that many; runs wrap round).
static uint32_t longest_run(const uint32_t *index, uint32_t cap) {
    uint32_t first = 0, run = 0, most = 0;
    while (first < cap && index[first]) first++;
    for (uint32_t i = first; i < cap; i++) {
        run = index[i] ? run + 1 : 0;
        most = run > most ? run : most;
    }
    run += first;  // (the run that ends the index goes on at its start)
    return run > most ? run : most;
}

// Whether an opened source must be hashed anew: a version 1 file's hashes are the fixed hash of
// before, and a file may bring a key chosen with its records (its index then has runs, or its
// shapes probes, that no random key makes: the probe bound, ra_symbols.h).
static bool needs_rekey(const ra_source *s, const snap_header *h) {
    if (h->version == 1) return true;
    return longest_run(s->index, s->index_cap) > RA_PROBE_LIMIT || ra_probes_exceed(s->shapes.probes, s->shapes.n);
}

// A source over checked bytes `b` (a block of ra_malloc's or ra_malloc_huge's), which it then owns; `*rekey` says
// whether it must be hashed anew (opened, below, does it).
static ra_source *_Nullable snap_open(uint8_t *b, size_t n, ra_error *err, bool *rekey) {
    snap_header h;
    if (!checked_header(b, n, &h, err)) return NULL;
    snap_view v = {.h = &h};
    uint64_t len[SNAP_NARRAYS];
    snap_layout(&h, v.off, len);
    v.symb = b + v.off[A_SYMB];
    v.syms = (const ra_symbol *)(b + v.off[A_SYMS]);
    v.index = (const uint32_t *)(b + v.off[A_INDEX]);
    v.dtabs = (const ra_dtable *)(b + v.off[A_DTABS]);
    v.dslots = (const uint32_t *)(b + v.off[A_DSLOTS]);
    v.vals = (const uint32_t *)(b + v.off[A_VALS]);
    v.shapes = (const ra_shape *)(b + v.off[A_SHAPES]);
    v.words = (const uint32_t *)(b + v.off[A_WORDS]);
    v.types = (const uint32_t *)(b + v.off[A_TYPES]);
    v.heap = b + v.off[A_HEAP];
    // A large file's checksum is computed on a thread of its own, which then helps with the
    // symbols (each thread marks the values it sees in a bitmap of its own; the two must not
    // meet). A corrupt file is reported as such, whatever bound its corruption broke.
    snap_runs runs = {.v = &v, .nsyms = h.nsyms};
    atomic_init(&runs.next, 0);
    snap_part part = {.runs = &runs};
    snap_helper helper = {.sum = {b, n, false}, .part = {.runs = &runs, .ok = true}};
    ra_error bounds = {0};
    bool ok = check_tables(&v, &bounds), threaded = false;
    size_t words = (size_t)h.nfields / 64 + 1;
    part.taken = ok ? ra_calloc(words, 8) : NULL;
    if (ok && n >= RA_SNAPSHOT_THREAD_MIN) {
        helper.part.taken = ra_calloc(words, 8);
        threaded = part.taken && helper.part.taken && pthread_create(&helper.thread, NULL, helper_run, &helper) == 0;
    }
    if (!threaded) sum_run(&helper.sum);
    // The index and derivation tables first, while the other thread sums; a symbol's failure is
    // the one reported if both fail.
    ra_error maps = {0};
    bool maps_ok = ok && check_maps(&v, &maps);
    if (ok && part.taken) {
        check_runs(&part);
        ok = part.ok;
    } else {
        ok = false;
    }
    if (threaded) pthread_join(helper.thread, NULL);
    uint32_t nrecs = part.nrecs;
    if (!helper.sum.ok) {
        ra_dealloc(part.taken);
        ra_dealloc(helper.part.taken);
        fail(err, n - 8, "snapshot checksum mismatch (the file is corrupt)");
        return NULL;
    }
    if (threaded && !helper.part.ok && (ok || helper.part.failed_run < part.failed_run)) {
        ok = false;
        part.err = helper.part.err;
    }
    if (!ok && part.taken) bounds = part.err;
    if (ok && !maps_ok) {
        ok = false;
        bounds = maps;
    }
    if (ok && threaded) {
        uint64_t *taken = part.taken, *other = helper.part.taken;
        for (size_t w = 0; w < words; w++)
            if (taken[w] & other[w]) {
                uint64_t k = 64 * (uint64_t)w + (uint64_t)__builtin_ctzll(taken[w] & other[w]);
                ok = fail(&bounds, v.off[A_VALS] + 4 * k, "bad bound: two records' values overlap at value %llu",
                          (unsigned long long)k);
                break;
            }
        nrecs += helper.part.nrecs;
    }
    if (ok && nrecs != h.nrecs)
        ok = fail(&bounds, offsetof(snap_header, nrecs), "bad bound: %u records counted, %u in the header", nrecs, h.nrecs);
    bool oom = !bounds.code && !ok;  // (no check failed: an allocation did)
    ra_dealloc(part.taken);
    ra_dealloc(helper.part.taken);
    if (oom) goto oom;
    if (!ok) {
        if (err) *err = bounds;
        return NULL;
    }
    ra_source *s = ra_source_create();
    if (!s) goto oom;
    // The new source's own first arrays give way to the file's.
    ra_dealloc(s->syms);
    ra_dealloc(s->types);
    ra_dealloc(s->shapes.at);
    s->mapped = b;
    s->mapped_len = n;
    s->sym_bytes = (ra_buf){(uint8_t *)v.symb, h.sym_bytes_len, h.sym_bytes_len};
    s->syms = (ra_symbol *)v.syms;
    s->nsyms = s->capsyms = h.nsyms;
    s->index = (uint32_t *)v.index;
    s->index_cap = h.index_cap;
    s->nindexed = h.nindexed;
    s->dtabs = (ra_dtable *)v.dtabs;
    s->dtab_cap = h.dtab_cap;
    s->ndtabs = h.ndtabs;
    s->dslots = (uint32_t *)v.dslots;
    s->ndslots = s->capdslots = h.ndslots;
    s->nrecs = h.nrecs;
    s->vals = (uint32_t *)v.vals;
    s->nfields = s->capfields = h.nfields;
    s->shapes.at = (ra_shape *)v.shapes;
    s->shapes.n = s->shapes.cap = h.nshapes;
    s->shapes.words = (uint32_t *)v.words;
    s->shapes.nwords = s->shapes.capwords = h.nwords;
    s->types = (uint32_t *)v.types;
    s->ntypes = s->captypes = h.ntypes;
    s->heap = (ra_buf){(uint8_t *)v.heap, h.heap_len, h.heap_len};
    s->id_key = h.id_key;
    s->hkey = (ra_hash_key){.k0 = h.hash_k0, .k1 = h.hash_k1};
    if (!rebuild_maps(s)) {
        ra_source_forget_mapped_arrays(s);  // (the caller keeps the bytes: it frees them on failure)
        s->mapped = NULL;
        ra_source_destroy(s);
        ra_error_set(err, RA_ERR_NOMEM, 0, "out of memory opening a snapshot");
        return NULL;
    }
    *rekey = needs_rekey(s, &h);
    return s;
oom:
    ra_error_set(err, RA_ERR_NOMEM, 0, "out of memory opening a snapshot");
    return NULL;
}

// snap_open of bytes the caller gives up to it (freed here when the open fails), and the rekey it
// asks for.
static ra_source *_Nullable opened(uint8_t *b, size_t n, ra_error *err) {
    bool rekey = false;
    ra_source *s = snap_open(b, n, err, &rekey);
    if (!s) {
        ra_dealloc(b);
        return NULL;
    }
    if (rekey && !ra_source_rekey(s)) {
        ra_source_destroy(s);  // (the bytes with it)
        ra_error_set(err, RA_ERR_NOMEM, 0, "out of memory opening a snapshot");
        return NULL;
    }
    return s;
}

ra_source *ra_source_load_snapshot(const uint8_t *bytes, size_t len, ra_error *err) {
    uint8_t *copy = ra_malloc(len ? len : 1);
    if (!copy) {
        ra_error_set(err, RA_ERR_NOMEM, 0, "out of memory opening a snapshot");
        return NULL;
    }
    if (len) memcpy(copy, bytes, len);
    return opened(copy, len, err);
}

// A snapshot file is read into memory the source owns, not mapped: a mapping is the file itself,
// and another process that truncates it, or rewrites it in place, while a store reads it would
// kill the reader (SIGBUS past the new end, other bytes than were checked). Read once, the bytes
// are checked once and stay what was checked whatever happens to the file. (The checksum reads
// every page anyway; the read costs a copy from the page cache.)
ra_source *ra_source_open_snapshot(const char *path, ra_error *err) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        ra_error_set(err, RA_ERR_IO, 0, "cannot open the snapshot %s: %s", path, strerror(errno));
        if (fd >= 0) close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        ra_error_set(err, RA_ERR_IO, 0, "cannot open the snapshot %s: not a regular file", path);
        return NULL;
    }
    if ((uint64_t)st.st_size > (uint64_t)SIZE_MAX - 1) {
        close(fd);
        ra_error_set(err, RA_ERR_IO, 0, "cannot open the snapshot %s: too large", path);
        return NULL;
    }
    size_t n = (size_t)st.st_size;
    uint8_t *b = ra_malloc_huge(n ? n : 1);  // (a 100k-todo file: 3 ms to read so, 11 ms on small pages)
    if (!b) {
        close(fd);
        ra_error_set(err, RA_ERR_NOMEM, 0, "out of memory opening a snapshot");
        return NULL;
    }
    // Its size as fstat saw it: a file that shrinks meanwhile ends early (a truncated snapshot),
    // one that grows is read to that size (its header's size then disagrees, or its checksum).
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, b + got, n - got > ((size_t)1 << 30) ? (size_t)1 << 30 : n - got, (off_t)got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            int error = errno;
            close(fd);
            ra_dealloc(b);
            ra_error_set(err, RA_ERR_IO, got, "cannot read the snapshot %s: %s", path, strerror(error));
            return NULL;
        }
        if (r == 0) break;
        got += (size_t)r;
    }
    close(fd);
    return opened(b, got, err);
}
