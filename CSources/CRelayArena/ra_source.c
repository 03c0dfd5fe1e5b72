// The arena: one record source = a symbol table (interned data IDs, typenames, storage keys),
// each data ID's entry holding its record, record shapes (keys and tags), the records' values
// and a heap for variable-size values.
#include "ra_internal.h"
#include <stdio.h>
#include <stdlib.h>

bool ra_buf_reserve_slow(ra_buf *b, size_t extra) {
    if (extra > SIZE_MAX / 2 - b->len) return false;
    size_t need = b->len + extra;
    if (need <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need) cap *= 2;
    uint8_t *p = ra_realloc(b->data, cap);
    if (!p) return false;
    b->data = p;
    b->cap = cap;
    return true;
}

bool ra_buf_append_slow(ra_buf *b, const void *p, size_t n) {
    if (!ra_buf_reserve(b, n)) return false;
    if (n) memcpy(b->data + b->len, p, n);
    b->len += n;
    return true;
}

void ra_buf_free(ra_buf *b) {
    ra_dealloc(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

bool ra_grow_slow(void *_Nullable *_Nonnull p, uint32_t *cap, uint32_t need, size_t elem) {
    if (need <= *cap) return true;
    uint64_t c = *cap ? *cap : 16;
    while (c < need) c *= 2;
    if (c > UINT32_MAX) c = UINT32_MAX;
    if (c < need || c > SIZE_MAX / elem) return false;
    void *q = ra_realloc(*p, (size_t)c * elem);
    if (!q) return false;
    *p = q;
    *cap = (uint32_t)c;
    return true;
}

void ra_free(void *p) { ra_dealloc(p); }

void ra_error_set(ra_error *err, ra_status code, uint64_t offset, const char *fmt, ...) {
    if (!err) return;
    err->code = code;
    err->offset = offset;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

uint32_t ra_hash(const void *p, size_t n) { return ra_hash_continue(RA_HASH_SEED, p, n, n); }

static struct ra_text_cache *text_cache_create(void);
static void text_cache_destroy(struct ra_text_cache *_Nullable c);

ra_source *ra_source_create(void) {
    ra_source *s = ra_calloc(1, sizeof *s);
    if (!s) return NULL;
    if (pthread_rwlock_init(&s->lock, NULL) != 0) {
        ra_dealloc(s);
        return NULL;
    }
    s->nsyms = 1;  // symbol 0 means "none"
    s->ntypes = 1;  // type 0 is the tombstone's
    s->texts = text_cache_create();
    if (!s->texts || !ra_grow((void **)&s->syms, &s->capsyms, 64, sizeof(ra_symbol)) ||
        !ra_grow((void **)&s->types, &s->captypes, 16, sizeof(uint32_t)) ||
        !ra_grow((void **)&s->shapes, &s->shapes.cap, 16, sizeof(ra_shape))) {
        ra_source_destroy(s);
        return NULL;
    }
    s->syms[0] = (ra_symbol){.rec = {.fields = RA_NO_RECORD}};  // symbol 0: no text, no record
    s->types[0] = 0;
    s->shapes.at[0] = (ra_shape){0, 0, 0};
    s->shapes.n = 1;  // shape 0 has no field
    return s;
}

void ra_source_destroy(ra_source *s) {
    if (!s) return;
    // What each array holds now: past it, a hinted reservation was never written, or holds what
    // is garbage anyway (a symbol's text found already interned, an earlier publish's longer
    // updated list).
    ra_dealloc_used(s->sym_bytes.data, s->sym_bytes.len);
    ra_dealloc_used(s->heap.data, s->heap.len);
    ra_dealloc_used(s->syms, (size_t)s->nsyms * sizeof(ra_symbol));
    ra_dealloc(s->index);
    ra_dealloc(s->dtabs);
    ra_dealloc(s->bloom);
    ra_dealloc_used(s->dslots, (size_t)s->ndslots * sizeof(uint32_t));
    ra_dealloc(s->unnamed);
    ra_dealloc_used(s->vals, (size_t)s->nfields * sizeof(uint32_t));
    ra_shape_table_free(&s->shapes);
    ra_dealloc(s->scratch);
    ra_dealloc_used(s->updated, (size_t)s->nupdated * sizeof(uint32_t));
    ra_dealloc(s->types);
    ra_dealloc(s->type_map);
    text_cache_destroy(s->texts);
    pthread_rwlock_destroy(&s->lock);
    ra_dealloc(s);
}

void ra_source_read_lock(ra_source *s) { pthread_rwlock_rdlock(&s->lock); }
void ra_source_write_lock(ra_source *s) { pthread_rwlock_wrlock(&s->lock); }
void ra_source_unlock(ra_source *s) { pthread_rwlock_unlock(&s->lock); }

// An index slot holds the symbol in its low 28 bits and the top 4 bits of the symbol's hash above
// them: a probe that meets another symbol's slot skips it without touching the symbol table
// (15 times in 16), so a miss costs one cache line of the index, not one per probed symbol.

// Whether "<text of prefix>:<index>" is `text` (of `len` bytes); the prefix is never derived.
static bool derived_equals(const ra_source *s, uint32_t prefix, uint32_t index, const char *text, size_t len) {
    uint32_t pl;
    const char *pt = ra_sym_text(s, prefix, &pl);
    char digits[20];
    size_t nd = ra_index_digits(digits, index);
    return pl + 1 + nd == len && memcmp(pt, text, pl) == 0 && text[pl] == ':' &&
           memcmp(text + pl + 1, digits, nd) == 0;
}

// Whether symbol `sym` has the text `text`, or with `text` NULL, the text "<prefix>:<index>".
// Derivations are equal exactly when their texts are (the text after the last ':' is the index).
static inline bool sym_matches(const ra_source *s, uint32_t sym, const char *_Nullable text, size_t len,
                               uint32_t prefix, uint32_t index) {
    if (__builtin_expect(ra_sym_derived(s, sym), 0)) {
        uint32_t p, x;
        ra_sym_derivation(s, sym, &p, &x);
        return text ? derived_equals(s, p, x, text, len) : p == prefix && x == index;
    }
    uint32_t l;
    const char *t = ra_sym_text(s, sym, &l);
    return text ? l == len && ra_bytes_equal(t, text, len) : derived_equals(s, prefix, index, t, l);
}

// The symbol with that hash, length and text (see sym_matches), or 0; then `*empty` gets the
// index position where the probe ended, the slot a new symbol of that hash would take. Inlined
// into each interning path (the compiler stopped doing so once the length moved into the bytes).
static inline __attribute__((always_inline)) uint32_t find(const ra_source *s, uint32_t hash, size_t len,
                                                           const char *_Nullable text, uint32_t prefix,
                                                           uint32_t index, uint32_t *empty) {
    *empty = UINT32_MAX;
    if (!s->index_cap) return 0;
    uint32_t cap = s->index_cap, tag = ra_slot_tag(hash);
    for (uint32_t i = ra_slot_home(hash, cap);; i = i + 1 == cap ? 0 : i + 1) {
        uint32_t slot = s->index[i];
        if (!slot) {
            *empty = i;
            return 0;
        }
        if ((slot & RA_SLOT_TAG) != tag) continue;
        uint32_t sym = slot & RA_SLOT_SYM;
        // (A derived symbol's entry holds its index where a text's holds its hash.)
        if ((ra_sym_derived(s, sym) || s->syms[sym].hash == hash) && sym_matches(s, sym, text, len, prefix, index))
            return sym;
    }
}

// MARK: Derivation tables

// The count of the digits that end `t` after a ':' when they are a decimal index (no leading
// zero, at most UINT32_MAX, which `*index` gets); 0 when it does not end so.
static size_t index_suffix(const char *t, size_t len, uint32_t *index) {
    size_t d = 0;
    while (d < len && d <= 10 && t[len - 1 - d] >= '0' && t[len - 1 - d] <= '9') d++;
    if (d == 0 || d > 10 || d == len || t[len - 1 - d] != ':') return 0;
    const char *p = t + len - d;
    if (d > 1 && p[0] == '0') return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < d; i++) v = v * 10 + (uint64_t)(p[i] - '0');
    if (v > UINT32_MAX) return 0;
    *index = (uint32_t)v;
    return d;
}

bool ra_derived_shape(const char *text, size_t len, size_t *prefix_len, uint32_t *index) {
    if (!ra_starts_client(text, len)) return false;
    size_t d = index_suffix(text, len, index);
    if (!d) return false;
    size_t pl = len - d - 1;
    uint32_t ignored;
    if (pl < 7 || index_suffix(text, pl, &ignored)) return false;
    *prefix_len = pl;
    return true;
}

// Whether "<prefix>:<index>" has the derived shape for every index: the prefix is a text that
// starts "client:" and does not end like an index itself.
static bool derivable(const ra_source *s, uint32_t prefix) {
    if (ra_sym_derived(s, prefix)) return false;
    uint32_t len, ignored;
    const char *t = ra_sym_text(s, prefix, &len);
    return ra_starts_client(t, len) && !index_suffix(t, len, &ignored);
}

static inline uint32_t dtab_home(uint32_t prefix, uint32_t cap) {
    return (uint32_t)(((uint64_t)(prefix * 0x9E3779B1u) * cap) >> 32);
}

// The derivation table of `prefix`, or NULL.
static inline ra_dtable *_Nullable dtab_find(const ra_source *s, uint32_t prefix) {
    if (!s->dtab_cap) return NULL;
    for (uint32_t i = dtab_home(prefix, s->dtab_cap);; i = i + 1 == s->dtab_cap ? 0 : i + 1) {
        ra_dtable *t = &s->dtabs[i];
        if (t->prefix == prefix) return t;
        if (!t->prefix) return NULL;
    }
}

static void dtab_put(ra_dtable *tabs, uint32_t cap, ra_dtable t) {
    uint32_t i = dtab_home(t.prefix, cap);
    while (tabs[i].prefix) i = i + 1 == cap ? 0 : i + 1;
    tabs[i] = t;
}

// The table of `prefix`, made empty when it has none (the map kept at most half full); NULL on OOM.
static ra_dtable *_Nullable dtab_make(ra_source *s, uint32_t prefix) {
    ra_dtable *t = dtab_find(s, prefix);
    if (t) return t;
    if ((uint64_t)(s->ndtabs + 1) * 2 > s->dtab_cap) {
        uint64_t cap = s->dtab_cap ? (uint64_t)s->dtab_cap * 2 : 2;  // (a store of one list has one table: 24 bytes a slot)
        if (cap > UINT32_MAX) return NULL;  // (tables are fewer than symbols: not reached)
        ra_dtable *tabs = ra_calloc((size_t)cap, sizeof *tabs);
        if (!tabs) return NULL;
        for (uint32_t i = 0; i < s->dtab_cap; i++)
            if (s->dtabs[i].prefix) dtab_put(tabs, (uint32_t)cap, s->dtabs[i]);
        ra_dealloc(s->dtabs);
        s->dtabs = tabs;
        s->dtab_cap = (uint32_t)cap;
    }
    dtab_put(s->dtabs, s->dtab_cap, (ra_dtable){.prefix = prefix, .start = s->ndslots});
    s->ndtabs++;
    return dtab_find(s, prefix);
}

// Gives `t` a slot for `index` (its slots grow by half, in place when they end the pool, else
// moved to its end, the old ones becoming garbage). false when the index is too far past the
// table's symbols for a slot (it goes in the index), or on OOM (`*oom` set).
// A dense table (cap 0) that takes a slot is given them all, its run written into them.
static bool dtab_reach(ra_source *s, ra_dtable *t, uint32_t index, bool *oom) {
    if (index < t->cap) return true;
    uint64_t need = (uint64_t)index + 1;
    if (need > 4 * ((uint64_t)t->count + 1) + 60) return false;
    uint64_t cap = (uint64_t)t->cap + t->cap / 2;
    if (cap < need) cap = need;
    if (cap < t->count) cap = t->count;  // (a dense table's run: need passes it, as index >= count)
    if (cap < 4) cap = 4;
    bool at_end = t->start + t->cap == s->ndslots;
    uint64_t base = at_end ? t->start : s->ndslots;
    if (base + cap > UINT32_MAX || !ra_grow((void **)&s->dslots, &s->capdslots, (uint32_t)(base + cap), sizeof(uint32_t))) {
        *oom = true;
        return false;
    }
    if (!at_end && t->cap) memcpy(s->dslots + base, s->dslots + t->start, (size_t)t->cap * sizeof(uint32_t));
    memset(s->dslots + base + t->cap, 0, (size_t)(cap - t->cap) * sizeof(uint32_t));
    if (!t->cap) {
        for (uint32_t i = 0; i < t->count; i++) s->dslots[base + i] = t->base + i;
        t->base = 0;
    }
    t->start = (uint32_t)base;
    t->cap = (uint32_t)cap;
    s->ndslots = (uint32_t)(base + cap);
    return true;
}

void ra_source_trim_tables(ra_source *s) {
    for (uint32_t i = 0; i < s->dtab_cap; i++) {
        ra_dtable *t = &s->dtabs[i];
        if (!t->prefix || !t->cap || t->start + t->cap != s->ndslots) continue;
        uint32_t cap = t->cap;
        while (cap && !s->dslots[t->start + cap - 1]) cap--;
        t->cap = cap;
        s->ndslots = t->start + cap;
        return;
    }
}

static uint32_t derived_hash(const ra_source *s, uint32_t prefix, uint32_t index, uint32_t *len) {
    ra_derivation d;
    ra_derivation_start(s, &d, prefix);
    return ra_derivation_hash(&d, index, len);
}

// The derived symbol (prefix, index) of table `t` (NULL: none), or 0.
static inline uint32_t derived_find(const ra_source *s, const ra_dtable *_Nullable t, uint32_t prefix, uint32_t index) {
    if (!t) return 0;
    if (!t->cap) {
        if (index < t->count) return t->base + index;
    } else if (index < t->cap && s->dslots[t->start + index]) {
        return s->dslots[t->start + index];
    }
    if (!t->overflow) return 0;
    uint32_t len, empty, hash = derived_hash(s, prefix, index, &len);
    return find(s, hash, len, NULL, prefix, index, &empty);
}

// Whether symbol `sym` is in the index: a text, or a derivation its table had no slot for.
static bool in_index(const ra_source *s, uint32_t sym) {
    if (!ra_sym_derived(s, sym)) return true;
    uint32_t prefix, index;
    ra_sym_derivation(s, sym, &prefix, &index);
    const ra_dtable *t = dtab_find(s, prefix);
    if (!t) return true;
    return !(t->cap ? index < t->cap && s->dslots[t->start + index] == sym : index < t->count && t->base + index == sym);
}

uint32_t ra_lookup(const ra_source *s, const char *text, size_t len, uint32_t hash) {
    size_t pl;
    uint32_t index, empty;
    if (__builtin_expect(ra_starts_client(text, len), 0) && ra_derived_shape(text, len, &pl, &index)) {
        uint32_t prefix = ra_lookup(s, text, pl, ra_hash(text, pl));
        return prefix ? derived_find(s, dtab_find(s, prefix), prefix, index) : 0;
    }
    for (uint32_t i = 0; i < s->nunindexed; i++)  // (none once a payload has finished)
        if (sym_matches(s, s->unindexed[i], text, len, 0, 0)) return s->unindexed[i];
    return find(s, hash, len, text, 0, 0, &empty);
}

void ra_sym_write(const ra_source *s, uint32_t sym, char *out) {
    uint32_t len;
    if (!ra_sym_derived(s, sym)) {
        memcpy(out, ra_sym_text(s, sym, &len), len);
        return;
    }
    uint32_t prefix, index;
    ra_sym_derivation(s, sym, &prefix, &index);
    const char *pt = ra_sym_text(s, prefix, &len);
    size_t pl = len;
    memcpy(out, pt, pl);
    out[pl] = ':';
    ra_index_digits(out + pl + 1, index);
}

static inline void index_put(uint32_t *idx, uint32_t cap, uint32_t sym, uint32_t hash) {
    uint32_t i = ra_slot_home(hash, cap);
    while (idx[i]) i = i + 1 == cap ? 0 : i + 1;
    idx[i] = sym | ra_slot_tag(hash);
}

// MARK: The filter and the batch
//
// Most of a payload's data IDs are new to it, and looking each up in the index cost a cache miss
// per ID at its record's close (a 100k-todo payload's index is ~0.6 MB, its lines scattered; the
// slot prefetched when the `id` arrived was seldom in by then). A payload's delta keeps a blocked
// Bloom filter over its texts' hashes instead (~11 bits a text, one word a lookup, small enough
// to stay in the core's cache): a text it has not seen is registered at once, and its index slot
// is written later, with up to 63 others, its line requested now. Whatever reads the
// index writes the waiting slots first (settle_index); the const lookup checks them itself.

static void bloom_build(ra_source *s, uint64_t texts) {
    uint64_t words = texts / 6 + 64;
    if (words > UINT32_MAX) words = UINT32_MAX;
    uint64_t *b = ra_calloc_table((size_t)words, sizeof *b);
    ra_dealloc(s->bloom);
    s->bloom = b;  // NULL on OOM: no filter, every text is looked up (the filter is only a shortcut)
    s->bloom_words = b ? (uint32_t)words : 0;
    if (!b) return;
    for (uint32_t sym = 1; sym < s->nsyms; sym++)
        if (!ra_sym_derived(s, sym)) b[ra_bloom_at(s->syms[sym].hash, (uint32_t)words)] |= ra_bloom_bits(s->syms[sym].hash);
}

// (Each slot's line was requested when its text was registered, up to 63 records ago.)
void ra_insert_unindexed(ra_source *s) {
    for (uint32_t i = 0; i < s->nunindexed; i++) {
        uint32_t sym = s->unindexed[i];
        index_put(s->index, s->index_cap, sym, s->syms[sym].hash);
    }
    s->nunindexed = 0;
}

static inline void settle_index(ra_source *s) {
    if (s->nunindexed) ra_insert_unindexed(s);
}

void ra_source_settle_index(ra_source *s) {
    settle_index(s);
    // Only a payload's own data IDs go past the index: a finished delta (a store, once
    // published into an empty one) needs no filter.
    ra_dealloc(s->bloom);
    s->bloom = NULL;
    s->bloom_words = 0;
}

// find for a text about to be interned. A text found in the index is the only symbol of its
// text (whatever waits to be indexed was checked against the index when it came, and everything
// indexed since checked the waiting ones), so the batch is written only on a miss: a type name
// or storage key found on every record does not break it up.
static inline __attribute__((always_inline)) uint32_t find_settled(ra_source *s, uint32_t hash, size_t len,
                                                                   const char *text, uint32_t *empty) {
    uint32_t found = find(s, hash, len, text, 0, 0, empty);
    if (found || !s->nunindexed) return found;
    settle_index(s);
    return find(s, hash, len, text, 0, 0, empty);
}

// Gives the index room for `want` symbols at a load of 2/3 (it grows again past 3/4, see
// register_symbol), and at least twice its old room, so that growth one symbol at a time stays
// amortized. A payload's size hint sizes it once (ra_source_reserve), for at most `want`: at a
// load of 3/4 with that many, the most it holds before it would grow (the hint is a generous
// guess; a to-do list's index ends at ~0.69, and would at 0.6 sized at 2/3: 0.7 bytes a todo).
static bool ra_index_grow(ra_source *s, uint64_t want, bool at_most) {
    uint64_t cap = at_most ? want * 4 / 3 + 1 : want * 3 / 2 + 1;
    if (cap <= s->index_cap) return true;
    if (cap < 2 * (uint64_t)s->index_cap) cap = 2 * (uint64_t)s->index_cap;
    if (cap < 256) cap = 256;
    if (cap > (1u << 31)) return false;
    uint32_t *idx = ra_calloc_table((size_t)cap, sizeof *idx);
    if (!idx) return false;
    ra_derivation d = {.prefix = 0};
    for (uint32_t sym = 1; sym < s->nsyms; sym++)
        if (in_index(s, sym)) index_put(idx, (uint32_t)cap, sym, ra_sym_hash(s, sym, &d));
    ra_dealloc(s->index);
    s->index = idx;
    s->index_cap = (uint32_t)cap;
    s->nunindexed = 0;  // (the waiting texts are in it now)
    if (s->bloom) bloom_build(s, want);
    return true;
}

bool ra_source_reserve(ra_source *s, uint32_t syms, uint32_t indexed, size_t sym_bytes, uint32_t fields, size_t heap) {
    uint64_t want_syms = (uint64_t)s->nsyms + syms;
    if (want_syms > RA_MAX_SYMBOLS || indexed > syms) return false;
    if (!ra_index_grow(s, (uint64_t)s->nindexed + indexed, true)) return false;
    if (!s->bloom && indexed) bloom_build(s, (uint64_t)s->nindexed + indexed);  // a payload's delta
    if (!ra_grow((void **)&s->syms, &s->capsyms, (uint32_t)want_syms, sizeof(ra_symbol))) return false;
    // (Derived symbols take no table slot while their tables stay dense, as a payload's lists do.)
    // The heap first: the two ask for blocks of one size, and the one that asks first gets the
    // retained block with the most pages in (see ra_alloc.c), which the heap fills more of.
    if (!ra_buf_reserve(&s->heap, heap) || !ra_buf_reserve(&s->sym_bytes, sym_bytes)) return false;
    if ((uint64_t)s->nfields + fields >= UINT32_MAX) return false;
    return ra_grow((void **)&s->vals, &s->capfields, s->nfields + fields, sizeof(uint32_t));
}

uint32_t ra_intern(ra_source *s, const char *text, size_t len) {
    if (len > UINT32_MAX) return 0;
    return ra_intern_hashed(s, text, len, ra_hash(text, len));
}

// A symbol entry {offset, word} (a text's offset and hash, or a derivation's prefix and index)
// and its index slot for `hash`. `empty`: where find's probe for it ended (taken unless the index
// must grow first). Changes nothing when it fails.
static inline uint32_t register_symbol(ra_source *s, uint32_t offset, uint32_t word, uint32_t hash, uint32_t empty) {
    if (s->nsyms >= RA_MAX_SYMBOLS) return 0;
    if ((uint64_t)(s->nindexed + 1) * 4 > (uint64_t)s->index_cap * 3) {
        if (!ra_index_grow(s, (uint64_t)s->nindexed + 1, false)) return 0;
        empty = UINT32_MAX;
    }
    uint32_t sym = ra_new_symbol(s, offset, word);
    if (!sym) return 0;
    if (empty != UINT32_MAX) s->index[empty] = sym | ra_slot_tag(hash);
    else index_put(s->index, s->index_cap, sym, hash);
    s->nindexed++;
    if (!(offset & RA_SYM_DERIVED)) ra_bloom_add(s, hash);
    return sym;
}

// Interns a text of the derived shape (ra_derived_shape): its prefix as text, then the
// derivation. `text` may lie in the source's own bytes: the prefix is copied out first.
static uint32_t intern_shaped(ra_source *s, const char *text, size_t prefix_len, uint32_t index) {
    char stack[256];
    char *copy = prefix_len <= sizeof stack ? stack : ra_malloc(prefix_len);
    if (!copy) return 0;
    memcpy(copy, text, prefix_len);
    uint32_t prefix = ra_intern(s, copy, prefix_len);
    if (copy != stack) ra_dealloc(copy);
    return prefix ? ra_intern_derived(s, prefix, index) : 0;
}

// Registers a text whose `bytes` bytes (its length, then the text) are already at the end of
// sym_bytes.
static inline uint32_t add_entry(ra_source *s, size_t bytes, uint32_t hash, uint32_t empty) {
    if (s->sym_bytes.len + bytes >= RA_MAX_SYM_BYTES) {
        s->names_full = true;
        return 0;
    }
    uint32_t off = (uint32_t)s->sym_bytes.len;
    uint32_t sym = register_symbol(s, off, hash, hash, empty);
    if (!sym) return 0;
    s->sym_bytes.len += bytes;
    return sym;
}

uint32_t ra_intern_placed_slow(ra_source *s, uint32_t offset, size_t len, uint32_t hash) {
    size_t head = ra_len_size(len), pl;
    const char *text = (const char *)s->sym_bytes.data + offset + head;
    uint32_t index;
    if (__builtin_expect(ra_starts_client(text, len), 0) && ra_derived_shape(text, len, &pl, &index)) {
        if ((size_t)offset + head + len == s->sym_bytes.len) s->sym_bytes.len = offset;  // (still readable)
        return intern_shaped(s, text, pl, index);
    }
    if (ra_unseen(s, hash)) return ra_register_unseen(s, offset, hash);  // (a client: text not derived)
    uint32_t empty, found = find_settled(s, hash, len, text, &empty);
    if (!found) return register_symbol(s, offset, hash, hash, empty);
    // Interned already: the copy goes back when nothing was placed after it.
    if ((size_t)offset + head + len == s->sym_bytes.len) s->sym_bytes.len = offset;
    return found;
}

// Adds a text whose bytes (after room for the long form of its length) are at the end of
// sym_bytes: a short text moves up to follow its one-byte length.
static uint32_t add_symbol(ra_source *s, size_t len, uint32_t hash, uint32_t empty) {
    uint8_t *p = s->sym_bytes.data + s->sym_bytes.len;
    size_t head = ra_len_size(len);
    if (head == 1) memmove(p + 1, p + 5, len);
    ra_len_put(p, (uint32_t)len);
    return add_entry(s, head + len, hash, empty);
}

// "<prefix>:<index>" as text, for a prefix that cannot take derivations.
static uint32_t intern_derived_text(ra_source *s, uint32_t prefix, uint32_t index) {
    size_t pl = ra_sym_length(s, prefix);
    char *out = ra_sym_tail(s, pl + 21);
    if (!out) return 0;
    ra_sym_write(s, prefix, out);
    out[pl] = ':';
    return ra_intern_tail(s, pl + 1 + ra_index_digits(out + pl + 1, index));
}

uint32_t ra_intern_derived(ra_source *s, uint32_t prefix, uint32_t index) {
    if (!prefix || prefix >= s->nsyms) return 0;
    ra_dtable *t = dtab_find(s, prefix);
    uint32_t found = derived_find(s, t, prefix, index);
    if (found) return found;
    if (!t) {
        if (!derivable(s, prefix)) return intern_derived_text(s, prefix, index);
        t = dtab_make(s, prefix);
        if (!t) return 0;
    }
    if (ra_dtable_extends(s, t, index)) return ra_dtable_append(s, t, prefix, index);  // (derived_find searched the index)
    bool oom = false;
    if (dtab_reach(s, t, index, &oom)) return ra_dtable_add(s, t, prefix, index);
    if (oom) return 0;
    // Too sparse for a slot: into the index, by its text's hash.
    uint32_t len, empty, hash = derived_hash(s, prefix, index, &len);
    (void)find(s, hash, len, NULL, prefix, index, &empty);
    uint32_t sym = register_symbol(s, prefix | RA_SYM_DERIVED, index, hash, empty);
    if (sym) t->overflow++;
    return sym;
}

uint32_t ra_intern_derived_hinted_slow(ra_source *s, uint32_t prefix, uint32_t index, uint32_t *hint) {
    uint32_t sym = ra_intern_derived(s, prefix, index);
    const ra_dtable *t = sym && prefix < s->nsyms ? dtab_find(s, prefix) : NULL;
    *hint = t ? (uint32_t)(t - s->dtabs) : UINT32_MAX;
    return sym;
}

void ra_derivation_start(const ra_source *s, ra_derivation *d, uint32_t prefix) {
    uint32_t pl;
    const char *t = ra_sym_text(s, prefix, &pl);
    size_t len = (size_t)pl + 1, words = len / 8;
    // The whole words of "<prefix>:" that lie in the prefix's text are hashed where they are; the
    // rest (1 to 15 bytes, the ':' last) goes through `last`.
    size_t direct = words * 8 <= pl ? words : words - 1, r = len - direct * 8;
    uint8_t last[16];
    uint64_t h = ra_hash_words(RA_HASH_SEED, t, direct);
    memcpy(last, t + direct * 8, r - 1);
    last[r - 1] = ':';
    if (r >= 8) {
        h = ra_hash_words(h, last, 1);
        r -= 8;
        memmove(last, last + 8, r);
    }
    *d = (ra_derivation){.prefix = prefix, .len = len, .state = h, .rest = ra_key_prefix(last, r)};
}

uint32_t ra_intern_hashed(ra_source *s, const char *text, size_t len, uint32_t hash) {
    if (len > UINT32_MAX) return 0;
    size_t pl;
    uint32_t index;
    if (__builtin_expect(ra_starts_client(text, len), 0) && ra_derived_shape(text, len, &pl, &index)) return intern_shaped(s, text, pl, index);
    uint32_t empty, found = find_settled(s, hash, len, text, &empty);
    if (found) return found;
    size_t head = ra_len_size(len);
    if (!ra_buf_reserve(&s->sym_bytes, head + len)) return 0;
    uint8_t *p = s->sym_bytes.data + s->sym_bytes.len;
    ra_len_put(p, (uint32_t)len);
    if (len) memcpy(p + head, text, len);
    return add_entry(s, head + len, hash, empty);
}

char *_Nullable ra_sym_tail(ra_source *s, size_t len) {
    if (len >= UINT32_MAX || !ra_buf_reserve(&s->sym_bytes, 5 + len)) return NULL;
    return (char *)s->sym_bytes.data + s->sym_bytes.len + 5;
}

uint32_t ra_intern_tail_hashed(ra_source *s, size_t len, uint32_t hash) {
    const char *text = (const char *)s->sym_bytes.data + s->sym_bytes.len + 5;
    size_t pl;
    uint32_t index;
    if (__builtin_expect(ra_starts_client(text, len), 0) && ra_derived_shape(text, len, &pl, &index)) return intern_shaped(s, text, pl, index);
    uint32_t empty, found = find_settled(s, hash, len, text, &empty);
    return found ? found : add_symbol(s, len, hash, empty);
}

uint32_t ra_intern_tail(ra_source *s, size_t len) {
    return ra_intern_tail_hashed(s, len, ra_hash(s->sym_bytes.data + s->sym_bytes.len + 5, len));
}

// MARK: Types
//
// A record keeps its typename as a 15-bit index into `types`; `type_map` finds a typename's index
// (open addressing by symbol, a power of two at most half full), and `type_cache` skips even that
// for the typenames of the last records made.

// (Fibonacci hashing: the product's high bits, which every bit of `sym` reaches.)
static inline uint32_t type_home(uint32_t sym, uint32_t cap) {
    return (uint32_t)(((uint64_t)(sym * 0x9E3779B1u) * cap) >> 32);
}

uint32_t ra_type_find(const ra_source *s, uint32_t sym) {
    if (!sym || !s->type_map_cap) return 0;
    for (uint32_t i = type_home(sym, s->type_map_cap); s->type_map[i]; i = (i + 1) & (s->type_map_cap - 1))
        if (s->types[s->type_map[i]] == sym) return s->type_map[i];
    return 0;
}

// Moves the map to `cap` entries (a power of two over twice the types). False on OOM, unchanged.
static bool type_map_resize(ra_source *s, uint32_t cap) {
    uint16_t *map = ra_calloc(cap, sizeof *map);
    if (!map) return false;
    for (uint32_t t = 1; t < s->ntypes; t++) {
        uint32_t j = type_home(s->types[t], cap);
        while (map[j]) j = (j + 1) & (cap - 1);
        map[j] = (uint16_t)t;
    }
    ra_dealloc(s->type_map);
    s->type_map = map;
    s->type_map_cap = cap;
    return true;
}

bool ra_types_reserve(ra_source *s, uint32_t extra) {
    if (!extra) return true;
    uint32_t last = s->ntypes + extra - 1;  // the index the last one takes
    if (!ra_grow((void **)&s->types, &s->captypes, last + 1, sizeof(uint32_t))) return false;
    uint32_t cap = s->type_map_cap ? s->type_map_cap : 16;
    while (2 * last >= cap) cap *= 2;  // (the map stays under half full: ntypes counts the tombstone's)
    return cap == s->type_map_cap || type_map_resize(s, cap);
}

uint32_t ra_type_index_slow(ra_source *s, uint32_t sym) {
    if (!sym) return 0;
    uint32_t t = ra_type_find(s, sym);
    if (!t) {
        if (s->ntypes > RA_MAX_TYPES) {
            s->types_full = true;
            return 0;
        }
        if (!ra_types_reserve(s, 1)) return 0;
        uint32_t i = type_home(sym, s->type_map_cap);
        while (s->type_map[i]) i = (i + 1) & (s->type_map_cap - 1);
        s->types[s->ntypes] = sym;
        s->type_map[i] = (uint16_t)(t = s->ntypes++);
    }
    s->type_cache[sym & 15].sym = sym;
    s->type_cache[sym & 15].index = t;
    return t;
}

// MARK: Shapes
//
// Records with the same keys and tags share one shape (ra_shape), found by its words through its
// table's map (ra_shape_table). Shapes are never removed: one no record has any more stays (a
// handful of words).

static inline uint32_t shape_home(uint32_t hash, uint32_t cap) { return (uint32_t)(((uint64_t)hash * cap) >> 32); }

uint32_t ra_shape_table_find(const ra_shape_table *t, const uint32_t *words, uint32_t count, uint32_t hash) {
    if (!t->map_cap) return RA_NONE;
    for (uint32_t i = shape_home(hash, t->map_cap); t->map[i]; i = (i + 1) & (t->map_cap - 1)) {
        const ra_shape *sh = &t->at[t->map[i] - 1];
        if (sh->hash == hash && sh->count == count && memcmp(t->words + sh->first, words, (size_t)count * 4) == 0)
            return t->map[i] - 1;
    }
    return RA_NONE;
}

bool ra_shape_table_reserve(ra_shape_table *t, uint32_t extra, uint64_t words) {
    if (!extra) return true;
    uint64_t last = (uint64_t)t->n + extra;  // shapes then (the map keeps k + 1)
    if (last > UINT32_MAX / 4 || (uint64_t)t->nwords + words > UINT32_MAX) return false;
    if (!ra_grow((void **)&t->at, &t->cap, (uint32_t)last, sizeof(ra_shape)) ||
        !ra_grow((void **)&t->words, &t->capwords, t->nwords + (uint32_t)words, sizeof(uint32_t)))
        return false;
    uint32_t cap = t->map_cap ? t->map_cap : 16;
    while (2 * last >= cap) cap *= 2;
    if (cap == t->map_cap) return true;
    uint32_t *map = ra_calloc(cap, sizeof *map);
    if (!map) return false;
    for (uint32_t k = 0; k < t->n; k++) {
        if (!t->at[k].count) continue;  // (a source's shape 0 is found without the map)
        uint32_t j = shape_home(t->at[k].hash, cap);
        while (map[j]) j = (j + 1) & (cap - 1);
        map[j] = k + 1;
    }
    ra_dealloc(t->map);
    t->map = map;
    t->map_cap = cap;
    return true;
}

uint32_t ra_shape_table_add(ra_shape_table *t, const uint32_t *words, uint32_t count, uint32_t hash) {
    uint32_t k = t->n++;
    t->at[k] = (ra_shape){.first = t->nwords, .count = count, .hash = hash};
    memcpy(t->words + t->nwords, words, (size_t)count * 4);
    t->nwords += count;
    uint32_t j = shape_home(hash, t->map_cap);
    while (t->map[j]) j = (j + 1) & (t->map_cap - 1);
    t->map[j] = k + 1;
    return k;
}

void ra_shape_table_free(ra_shape_table *t) {
    ra_dealloc(t->at);
    ra_dealloc(t->words);
    ra_dealloc(t->map);
}

uint32_t ra_shape_find(const ra_source *s, const uint32_t *words, uint32_t count, uint32_t hash) {
    return count ? ra_shape_table_find(&s->shapes, words, count, hash) : 0;
}

bool ra_shapes_reserve(ra_source *s, uint32_t extra, uint64_t words) {
    if ((uint64_t)s->shapes.n + extra > (uint64_t)RA_MAX_SHAPES + 1) {
        s->shapes_full = true;
        return false;
    }
    return ra_shape_table_reserve(&s->shapes, extra, words);
}

uint32_t ra_shape_add_reserved(ra_source *s, const uint32_t *words, uint32_t count, uint32_t hash) {
    return ra_shape_table_add(&s->shapes, words, count, hash);
}

uint32_t ra_shape_of(ra_source *s, const uint32_t *words, uint32_t count) {
    if (!count) return 0;
    uint32_t hash = ra_shape_hash(words, count);
    uint32_t k = ra_shape_find(s, words, count, hash);
    if (k != RA_NONE) return k;
    if (!ra_shapes_reserve(s, 1, count)) return RA_NONE;
    return ra_shape_add_reserved(s, words, count, hash);
}

int64_t ra_record_get_or_create(ra_source *s, uint32_t id_sym, uint32_t type_sym, bool *created) {
    if (ra_has_record(s, id_sym)) {
        if (created) *created = false;
        return id_sym;
    }
    // (A typename is added only for a record that is made.)
    uint32_t type = type_sym ? ra_type_index(s, type_sym) : 0;
    if (!type && type_sym) return -1;
    // (No room: it takes some when it gets a field, at the end of the values.)
    ra_record_put(s, id_sym, (ra_record){.fields = s->nfields, .type = (uint16_t)type, .self_id = 0, .shape = 0});
    if (created) *created = true;
    return id_sym;
}

// The value under `key` of record `r`, whose data ID is `id` (0: unnamed).
static inline uint64_t record_get(const ra_source *s, const ra_record *r, uint32_t id, uint32_t key) {
    if (r->self_id && key == s->id_key) return ra_make(RA_TAG_IDSTR, id);
    const ra_shape *sh = &s->shapes.at[r->shape];
    const uint32_t *w = s->shapes.words + sh->first;
    for (uint32_t i = 0; i < sh->count; i++)
        if ((w[i] & RA_SLOT_KEY) == key) return ra_slot_value(((uint64_t)s->vals[r->fields + i] << 32) | w[i]);
    return 0;
}

uint64_t ra_record_get(const ra_source *s, uint32_t rec, uint32_t key) {
    return record_get(s, ra_rec(s, rec), ra_rec_id(rec), key);
}

// Gives the record room for `cap` fields in all (a new record gets exactly what it needs).
bool ra_record_reserve(ra_source *s, uint32_t rec, uint32_t cap) {
    ra_record *r = ra_rec(s, rec);
    bool tail = s->tail == rec + 1;
    uint32_t count = ra_rec_count(s, r);
    if (tail ? (uint64_t)r->fields + cap <= s->nfields : cap <= count) return true;
    if (cap > RA_MAX_FIELDS_PER_RECORD) {
        s->fields_full = true;
        return false;
    }
    if (tail) {
        // The last values of the arena (a record being built, the last one to grow): they grow
        // in place, leaving no garbage.
        if (r->fields >= UINT32_MAX - cap) return false;
        if (!ra_grow((void **)&s->vals, &s->capfields, r->fields + cap, sizeof(uint32_t))) return false;
        s->nfields = r->fields + cap;
        return true;
    }
    if (s->nfields >= UINT32_MAX - cap) return false;
    if (!ra_grow((void **)&s->vals, &s->capfields, s->nfields + cap, sizeof(uint32_t))) return false;
    if (count) memcpy(s->vals + s->nfields, s->vals + r->fields, (size_t)count * sizeof(uint32_t));
    r->fields = s->nfields;
    s->nfields += cap;
    s->tail = rec + 1;
    return true;
}

bool ra_text_is_own_id(const ra_source *s, uint32_t id, const char *text, size_t len) {
    return id && ra_source_find_symbol(s, text, len) == id;  // (a text has one symbol)
}

bool ra_is_own_id(const ra_source *s, uint32_t rec, uint64_t value) {
    uint32_t id = ra_rec_id(rec);
    if (!id) return false;
    if (value == ra_make(RA_TAG_IDSTR, id)) return true;
    if (ra_value_tag(value) != RA_TAG_STRING) return false;
    uint32_t len;
    const uint8_t *text = ra_heap_value(s, ra_value_payload(value), &len);
    return ra_text_is_own_id(s, id, (const char *)text, len);
}

bool ra_record_set_all(ra_source *s, uint32_t rec, const uint64_t *slots, uint32_t n) {
    ra_record *r = ra_rec(s, rec);
    uint32_t count = ra_rec_count(s, r);
    uint64_t cap = (uint64_t)count + n;
    // The record as it becomes, in the scratch words: its shape's words, then its values (a
    // shape's own words may move when one is added).
    if (2 * cap > UINT32_MAX - 1 || !ra_scratch_reserve(s, (uint32_t)(2 * cap))) return false;
    uint32_t *w = s->scratch, *v = s->scratch + cap, m = count;
    if (count) {
        memcpy(w, ra_rec_words(s, r), (size_t)count * 4);
        memcpy(v, s->vals + r->fields, (size_t)count * 4);
    }
    bool self_id = r->self_id;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t key = ra_slot_key(slots[i]);
        bool own = key == s->id_key && key && ra_is_own_id(s, rec, ra_slot_value(slots[i]));
        uint32_t j = 0;
        while (j < m && (w[j] & RA_SLOT_KEY) != key) j++;
        if (j < m && own) {  // (the slot goes: one form for one value)
            memmove(w + j, w + j + 1, (size_t)(m - j - 1) * 4);
            memmove(v + j, v + j + 1, (size_t)(m - j - 1) * 4);
            m--;
            self_id = true;
            continue;
        }
        if (j == m && m == RA_MAX_FIELDS_PER_RECORD) {  // (refused now, not after the rest)
            s->fields_full = true;
            return false;
        }
        if (j == m && key == s->id_key && key) {
            // The `id` field: its record's own data ID goes in the flag, anything else in a slot.
            self_id = own;
            if (own) continue;
        }
        w[j] = ra_slot_word(slots[i]);
        v[j] = (uint32_t)(slots[i] >> 32);
        if (j == m) m++;
    }
    if (m > RA_MAX_FIELDS_PER_RECORD) {
        s->fields_full = true;
        return false;
    }
    // Room first (the tail record grows in place; any other that grows moves to the end, its old
    // values becoming garbage), then the shape: a failure leaves the record as it was.
    if (m > count && !ra_record_reserve(s, rec, m)) return false;
    uint32_t shape = ra_shape_of(s, w, m);
    if (shape == RA_NONE) return false;
    if (m) memcpy(s->vals + r->fields, v, (size_t)m * 4);
    r->shape = (uint16_t)shape;
    r->self_id = self_id;
    return true;
}

bool ra_record_set(ra_source *s, uint32_t rec, uint32_t key, uint64_t value) {
    uint64_t slot = ra_slot_pack(key, value);
    return ra_record_set_all(s, rec, &slot, 1);
}

uint64_t ra_refs_put_run(ra_source *s, uint32_t first, uint32_t count) {
    uint64_t off;
    uint8_t *p = ra_heap_alloc(s, RA_REFS_RUN_LEN, &off);
    if (!p) return 0;
    memcpy(p, &first, 4);
    memcpy(p + 4, &count, 4);
    p[8] = 0;
    return ra_make(RA_TAG_REFS, off);
}

uint64_t ra_heap_put_refs(ra_source *s, const uint32_t *syms, uint32_t count) {
    if (count > (UINT32_MAX - 4) / 4) return 0;
    if (count && ra_refs_is_run(syms[0], count)) {
        uint32_t i = 1;
        while (i < count && syms[i] == syms[0] + i) i++;
        if (i == count) return ra_refs_put_run(s, syms[0], count);
    }
    uint64_t off;
    uint8_t *p = ra_heap_alloc(s, count * 4, &off);
    if (!p) return 0;
    if (count) memcpy(p, syms, (size_t)count * 4);
    return ra_make(RA_TAG_REFS, off);
}

// MARK: - Public accessors

ra_status ra_source_ensure_record(ra_source *s, const char *id, size_t id_len, const char *type, size_t type_len) {
    s->names_full = s->types_full = false;  // (set again if this call meets a limit)
    uint32_t idsym = ra_intern(s, id, id_len);
    uint32_t tsym = idsym ? ra_intern(s, type, type_len) : 0;
    if (!tsym) return s->names_full ? RA_ERR_LIMIT : RA_ERR_NOMEM;
    bool created;
    int64_t r = ra_record_get_or_create(s, idsym, tsym, &created);
    if (r >= 0 && !ra_rec(s, (uint32_t)r)->type) {  // (a tombstone comes back typed; a live record keeps its type)
        uint32_t t = ra_type_index(s, tsym);
        if (!t) r = -1;
        else ra_rec(s, (uint32_t)r)->type = (uint16_t)t;
    }
    if (r < 0) return s->types_full ? RA_ERR_LIMIT : RA_ERR_NOMEM;
    return RA_OK;
}

bool ra_unnamed_grow(ra_source *s) {
    if (s->nunnamed >= RA_MAX_UNNAMED || !ra_grow((void **)&s->unnamed, &s->capunnamed, s->nunnamed + 1, sizeof(ra_record)))
        return false;
    s->unnamed[s->nunnamed] = (ra_record){.fields = s->unnamed_free};
    s->unnamed_free = ++s->nunnamed;
    return true;
}

void ra_source_drop_unnamed(ra_source *s) {
    // (Their values stay, garbage: as a relocated record's old ones.)
    if (s->tail & RA_REC_UNNAMED) s->tail = 0;
    ra_dealloc(s->unnamed);
    s->unnamed = NULL;
    s->nunnamed = s->capunnamed = s->unnamed_free = 0;
}

uint32_t ra_source_record_count(const ra_source *s) { return s->nrecs; }
uint32_t ra_source_shape_count(const ra_source *s) { return s->shapes.n; }

void ra_record_trim(ra_source *s, uint32_t rec) {
    if (s->tail == rec + 1) s->nfields = ra_rec(s, rec)->fields + ra_rec_count(s, ra_rec(s, rec));
}

uint64_t ra_source_unused_slot_bytes(const ra_source *s) {
    uint64_t used = 0;
    // (A store's: a payload's delta, while it is normalized, has records whose headers are
    // elsewhere, in its unnamed table or the normalizer's pending entries.)
    for (uint32_t i = 1; i < s->nsyms; i++)
        if (ra_has_record(s, i)) used += ra_rec_count(s, &s->syms[i].rec);
    return ((uint64_t)s->nfields - used) * sizeof(uint32_t);
}

uint64_t ra_source_arena_bytes(const ra_source *s) {
    return (uint64_t)s->sym_bytes.len + (uint64_t)s->nsyms * sizeof(ra_symbol) + (uint64_t)s->index_cap * 4 +
           (uint64_t)s->dtab_cap * sizeof(ra_dtable) + (uint64_t)s->ndslots * 4 + (uint64_t)s->bloom_words * 8 +
           (uint64_t)s->nunnamed * sizeof(ra_record) + (uint64_t)s->nfields * sizeof(uint32_t) + s->heap.len +
           (uint64_t)s->ntypes * 4 + (uint64_t)s->type_map_cap * 2 + (uint64_t)s->shapes.n * sizeof(ra_shape) +
           (uint64_t)s->shapes.nwords * 4 + (uint64_t)s->shapes.map_cap * 4;
}

uint32_t ra_source_find_symbol(const ra_source *s, const char *text, size_t len) {
    return ra_lookup(s, text, len, ra_hash(text, len));
}

// Derived symbols' texts, written out the first time a caller asks for one, into chunks that
// never move: the pointer handed out stays valid as long as the source. Readers ask under the
// source's read lock, many at once, so the cache has a mutex of its own.
typedef struct text_chunk {
    struct text_chunk *next;
    size_t used, cap;
    char bytes[];
} text_chunk;

struct ra_text_cache {
    pthread_mutex_t lock;
    const char **texts;  // by symbol; NULL = not written yet
    uint32_t cap;
    text_chunk *chunks;
};

static struct ra_text_cache *text_cache_create(void) {
    struct ra_text_cache *c = ra_calloc(1, sizeof *c);
    if (c && pthread_mutex_init(&c->lock, NULL) != 0) {
        ra_dealloc(c);
        return NULL;
    }
    return c;
}

static void text_cache_destroy(struct ra_text_cache *c) {
    if (!c) return;
    for (text_chunk *k = c->chunks, *next; k; k = next) {
        next = k->next;
        ra_dealloc(k);
    }
    ra_dealloc(c->texts);
    pthread_mutex_destroy(&c->lock);
    ra_dealloc(c);
}

static const char *text_cache_get(struct ra_text_cache *c, const ra_source *s, uint32_t sym) {
    if (sym >= c->cap) {
        uint32_t cap = c->cap;
        if (!ra_grow((void **)&c->texts, &cap, s->nsyms, sizeof *c->texts)) return NULL;
        memset(c->texts + c->cap, 0, (size_t)(cap - c->cap) * sizeof *c->texts);
        c->cap = cap;
    }
    if (c->texts[sym]) return c->texts[sym];
    size_t need = (size_t)ra_sym_length(s, sym) + 1;
    text_chunk *k = c->chunks;
    if (!k || k->cap - k->used < need) {
        size_t cap = need > 65536 - sizeof *k ? need : 65536 - sizeof *k;
        k = ra_malloc(sizeof *k + cap);
        if (!k) return NULL;
        *k = (text_chunk){.next = c->chunks, .used = 0, .cap = cap};
        c->chunks = k;
    }
    char *t = k->bytes + k->used;
    ra_sym_write(s, sym, t);
    t[need - 1] = 0;
    k->used += need;
    c->texts[sym] = t;
    return t;
}

ra_bytes_ref ra_source_symbol_text(const ra_source *s, uint32_t sym) {
    if (sym == 0 || sym >= s->nsyms) return (ra_bytes_ref){NULL, 0};
    uint32_t len;
    if (!ra_sym_derived(s, sym)) {
        const char *t = ra_sym_text(s, sym, &len);
        return (ra_bytes_ref){(const uint8_t *)t, len};
    }
    pthread_mutex_lock(&s->texts->lock);
    const char *t = text_cache_get(s->texts, s, sym);
    pthread_mutex_unlock(&s->texts->lock);
    return t ? (ra_bytes_ref){(const uint8_t *)t, ra_sym_length(s, sym)} : (ra_bytes_ref){NULL, 0};
}

int64_t ra_source_record_for_symbol(const ra_source *s, uint32_t sym) {
    if (sym == 0 || sym >= s->nsyms || !ra_has_record(s, sym)) return -1;
    return sym;
}

int ra_source_record_at(const ra_source *s, uint32_t index, uint32_t *id_sym, uint32_t *type_sym,
                        uint32_t *field_count) {
    if (index == 0 || index >= s->nsyms || !ra_has_record(s, index)) return 0;
    const ra_record *r = &s->syms[index].rec;
    *id_sym = index;
    *type_sym = ra_rec_type(s, r);
    *field_count = ra_record_field_count(s, r);
    return 1;
}

uint64_t ra_source_record_field(const ra_source *s, uint32_t index, uint32_t key_sym) {
    if (index >= s->nsyms) return 0;
    const ra_record *r = &s->syms[index].rec;
    return r->fields == RA_NO_RECORD ? 0 : record_get(s, r, index, key_sym);  // (symbol 0 has no record)
}

void ra_source_record_field_at(const ra_source *s, uint32_t index, uint32_t i, uint32_t *key_sym, uint64_t *value) {
    const ra_record *r = &s->syms[index].rec;
    if (r->self_id) {  // the `id` kept in the flag comes first
        if (i == 0) {
            *key_sym = s->id_key;
            *value = ra_make(RA_TAG_IDSTR, index);
            return;
        }
        i--;
    }
    uint64_t slot = ra_rec_slot(s, r, i);
    *key_sym = ra_slot_key(slot);
    *value = ra_slot_value(slot);
}

ra_bytes_ref ra_source_value_bytes(const ra_source *s, uint64_t v) {
    unsigned tag = ra_value_tag(v);
    if (tag == RA_TAG_IDSTR) return ra_source_symbol_text(s, (uint32_t)ra_value_payload(v));
    if (tag != RA_TAG_STRING && tag != RA_TAG_NUMBER && tag != RA_TAG_JSON) return (ra_bytes_ref){NULL, 0};
    uint32_t len;
    const uint8_t *p = ra_heap_value(s, ra_value_payload(v), &len);
    return (ra_bytes_ref){p, len};
}

uint32_t ra_source_refs_count(const ra_source *s, uint64_t v) {
    if (ra_value_tag(v) != RA_TAG_REFS) return 0;
    return ra_refs_of(s, ra_value_payload(v)).count;
}

uint32_t ra_source_refs_at(const ra_source *s, uint64_t v, uint32_t i) {
    return ra_refs_item(ra_refs_of(s, ra_value_payload(v)), i);
}

uint32_t ra_source_updated_count(const ra_source *s) { return s->nupdated; }
uint32_t ra_source_updated_at(const ra_source *s, uint32_t i) { return i < s->nupdated ? s->updated[i] : 0; }
uint32_t *ra_source_take_updated(ra_source *s, uint32_t *count) {
    *count = s->nupdated;
    if (!s->nupdated) return NULL;
    uint32_t *u = s->updated;
    s->updated = NULL;
    s->nupdated = s->capupdated = 0;
    return u;
}
