// Symbols: interning a text once per source (the index, probed by hash; the Bloom filter and the
// batch that let a payload's new texts skip it), derived symbols (a list item's client ID kept as
// its prefix and index) and their derivation tables, and lookups that intern nothing.
#include "ra_symbols.h"
#include "ra_alloc.h"
#include "ra_buf.h"
#include "ra_hash.h"
#include "ra_source.h"
#include <fcntl.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/random.h>  // getrandom (elsewhere: stdlib.h's arc4random_buf)
#endif

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
        uint32_t prefix = ra_lookup(s, text, pl, ra_text_hash(s, text, pl));
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

// Puts `sym` in the first free slot from its home; the slots it passed.
static inline uint32_t index_put(uint32_t *idx, uint32_t cap, uint32_t sym, uint32_t hash) {
    uint32_t i = ra_slot_home(hash, cap), passed = 0;
    while (idx[i]) {
        i = i + 1 == cap ? 0 : i + 1;
        passed++;
    }
    idx[i] = sym | ra_slot_tag(hash);
    return passed;
}

// MARK: Keys and the probe bound
//
// Every hash of a source's texts is keyed by its `hkey` (ra_hash.h), a random key no input can
// learn. The bound below holds even if one leaks (or a snapshot brings one chosen with its
// records): inserts that pass more slots than a random key makes (ra_probes_exceed) give the
// source a fresh key, and everything is hashed anew. Rekeying costs one pass over the symbols; a
// random key never asks for it, so an attacker who knew the old key is left with one pass and a
// key they do not know.

static void bloom_build(ra_source *s, uint64_t texts);

static _Atomic uint64_t process_k0, process_k1;  // (k1 0: not drawn yet)
static pthread_once_t process_key_once = PTHREAD_ONCE_INIT;

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

ra_hash_key ra_hash_key_random(void) {
    uint64_t k[2] = {0, 0};
    bool got = false;
#if defined(__linux__)
    got = getrandom(k, sizeof k, GRND_NONBLOCK) == (ssize_t)sizeof k;
    if (!got) {
        int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            got = read(fd, k, sizeof k) == (ssize_t)sizeof k;
            close(fd);
        }
    }
#else
    arc4random_buf(k, sizeof k);
    got = true;
#endif
    // (No system randomness: the clock, the process and an address, never the same key twice.)
    static _Atomic uint64_t calls;
    struct timespec ts = {0, 0};
    (void)clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 48) ^
                 (uint64_t)(uintptr_t)&calls ^ atomic_fetch_add(&calls, 1) * 0xD6E8FEB86659FD93ull;
    if (!got) {
        k[0] ^= splitmix64(&x);
        k[1] ^= splitmix64(&x);
    }
    return (ra_hash_key){.k0 = k[0], .k1 = k[1] | (1ull << 63)};
}

// RELAY_ARENA_HASH_KEY, 32 hex digits (k0 then k1), fixes the process's key, as PYTHONHASHSEED
// does Python's: for jobs whose snapshots are compared byte for byte across processes (a
// snapshot's bytes are laid out under its key). The probe bound still rekeys a source that is
// flooded under it. Anything else there is ignored.
static bool key_from_environment(ra_hash_key *k) {
    const char *e = getenv("RELAY_ARENA_HASH_KEY");
    if (!e || strlen(e) != 32) return false;
    uint64_t w[2] = {0, 0};
    for (int i = 0; i < 32; i++) {
        char c = e[i];
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                            : 16u;
        if (d == 16) return false;
        w[i / 16] = w[i / 16] << 4 | d;
    }
    *k = (ra_hash_key){.k0 = w[0], .k1 = w[1] | (1ull << 63)};
    return true;
}

static void draw_process_key(void) {
    ra_hash_key k;
    if (!key_from_environment(&k)) k = ra_hash_key_random();
    uint64_t none = 0;
    atomic_store(&process_k0, k.k0);
    (void)atomic_compare_exchange_strong(&process_k1, &none, k.k1);  // (unless ra_set_hash_key came first)
}

ra_hash_key ra_process_hash_key(void) {
    if (!atomic_load_explicit(&process_k1, memory_order_acquire)) pthread_once(&process_key_once, draw_process_key);
    return (ra_hash_key){.k0 = atomic_load(&process_k0), .k1 = atomic_load(&process_k1)};
}

void ra_set_hash_key(uint64_t k0, uint64_t k1) {
    pthread_once(&process_key_once, draw_process_key);
    atomic_store(&process_k0, k0);
    atomic_store(&process_k1, k1 | (1ull << 63));
}

uint32_t ra_source_rekey_count(const ra_source *s) { return s->rekeys; }
uint64_t ra_source_probe_count(const ra_source *s) { return s->probes_total; }

// Counts `passed` slots of one insert against the bound; rekeys when it is past.
static void probe_bound(ra_source *s, uint32_t passed) {
    s->probes += passed;
    s->probes_total += passed;
    if (__builtin_expect(passed <= RA_PROBE_LIMIT && !ra_probes_exceed(s->probes, s->nindexed - s->probe_base), 1))
        return;
    if (!ra_source_rekey(s)) {  // (OOM: the count starts again, so a failing rekey is not retried each insert)
        s->probes = 0;
        s->probe_base = s->nindexed;
    }
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
    uint32_t passed = 0, most = 0;
    for (uint32_t i = 0; i < s->nunindexed; i++) {
        uint32_t sym = s->unindexed[i];
        uint32_t p = index_put(s->index, s->index_cap, sym, s->syms[sym].hash);
        passed += p;
        most = p > most ? p : most;
    }
    s->nunindexed = 0;
    s->probes += passed - most;
    s->probes_total += passed - most;
    probe_bound(s, most);
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
// Writing the batch may rekey the source (the probe bound): `*hash` is then the text's new hash.
static inline __attribute__((always_inline)) uint32_t find_settled(ra_source *s, uint32_t *hash, size_t len,
                                                                   const char *text, uint32_t *empty) {
    uint32_t found = find(s, *hash, len, text, 0, 0, empty);
    if (found || !s->nunindexed) return found;
    uint32_t rekeys = s->rekeys;
    settle_index(s);
    if (s->rekeys != rekeys) *hash = ra_text_hash(s, text, len);
    return find(s, *hash, len, text, 0, 0, empty);
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
    uint64_t passed = 0;
    for (uint32_t sym = 1; sym < s->nsyms; sym++)
        if (in_index(s, sym)) passed += index_put(idx, (uint32_t)cap, sym, ra_sym_hash(s, sym, &d));
    ra_dealloc(s->index);
    s->index = idx;
    s->index_cap = (uint32_t)cap;
    s->nunindexed = 0;  // (the waiting texts are in it now)
    // (The bound counts from here; what the rebuild passed is its first count.)
    s->probes = passed;
    s->probes_total += passed;
    s->probe_base = 0;
    if (s->bloom) bloom_build(s, want);
    return true;
}

bool ra_symbols_reserve(ra_source *s, uint32_t syms, uint32_t indexed) {
    uint64_t want_syms = (uint64_t)s->nsyms + syms;
    if (want_syms > RA_MAX_SYMBOLS || indexed > syms) return false;
    if (!ra_index_grow(s, (uint64_t)s->nindexed + indexed, true)) return false;
    if (!s->bloom && indexed) bloom_build(s, (uint64_t)s->nindexed + indexed);  // a payload's delta
    // (Derived symbols take no table slot while their tables stay dense, as a payload's lists do.)
    return ra_grow((void **)&s->syms, &s->capsyms, (uint32_t)want_syms, sizeof(ra_symbol));
}

uint32_t ra_intern(ra_source *s, const char *text, size_t len) {
    if (len > UINT32_MAX) return 0;
    return ra_intern_hashed(s, text, len, ra_text_hash(s, text, len));
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
    uint32_t sym = ra_new_symbol(s, offset, word), passed;
    if (!sym) return 0;
    if (empty != UINT32_MAX) {
        s->index[empty] = sym | ra_slot_tag(hash);
        uint32_t home = ra_slot_home(hash, s->index_cap);
        passed = empty >= home ? empty - home : empty + s->index_cap - home;
    } else {
        passed = index_put(s->index, s->index_cap, sym, hash);
    }
    s->nindexed++;
    if (!(offset & RA_SYM_DERIVED)) ra_bloom_add(s, hash);
    probe_bound(s, passed);
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
    uint32_t empty, found = find_settled(s, &hash, len, text, &empty);
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
    uint64_t h = ra_hash_words(s->hkey, s->hkey.k0, t, direct);
    memcpy(last, t + direct * 8, r - 1);
    last[r - 1] = ':';
    if (r >= 8) {
        h = ra_hash_words(s->hkey, h, last, 1);
        r -= 8;
        memmove(last, last + 8, r);
    }
    *d = (ra_derivation){.prefix = prefix, .len = len, .state = h, .rest = ra_key_prefix(last, r), .key = s->hkey};
}

uint32_t ra_intern_hashed(ra_source *s, const char *text, size_t len, uint32_t hash) {
    if (len > UINT32_MAX) return 0;
    size_t pl;
    uint32_t index;
    if (__builtin_expect(ra_starts_client(text, len), 0) && ra_derived_shape(text, len, &pl, &index)) return intern_shaped(s, text, pl, index);
    uint32_t empty, found = find_settled(s, &hash, len, text, &empty);
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
    uint32_t empty, found = find_settled(s, &hash, len, text, &empty);
    return found ? found : add_symbol(s, len, hash, empty);
}

uint32_t ra_intern_tail(ra_source *s, size_t len) {
    return ra_intern_tail_hashed(s, len, ra_text_hash(s, s->sym_bytes.data + s->sym_bytes.len + 5, len));
}

bool ra_source_rekey(ra_source *s) {
    if (s->mapped && !ra_source_make_writable(s)) return false;
    // What can fail first: the new index and shape map, before anything changes.
    uint32_t *idx = s->index_cap ? ra_calloc_table(s->index_cap, sizeof *idx) : NULL;
    uint32_t *map = s->shapes.map_cap ? ra_calloc(s->shapes.map_cap, sizeof *map) : NULL;
    if ((s->index_cap && !idx) || (s->shapes.map_cap && !map)) {
        ra_dealloc(idx);
        ra_dealloc(map);
        return false;
    }
    ra_hash_key key;
    do key = ra_hash_key_random();
    while (ra_hash_key_equal(key, s->hkey));
    s->hkey = key;
    s->rekeys++;
    for (uint32_t sym = 1; sym < s->nsyms; sym++) {
        if (ra_sym_derived(s, sym)) continue;
        uint32_t len;
        const char *t = ra_sym_text(s, sym, &len);
        s->syms[sym].hash = ra_hash(key, t, len);
    }
    if (idx) {
        ra_derivation d = {.prefix = 0};
        for (uint32_t sym = 1; sym < s->nsyms; sym++)
            if (in_index(s, sym)) (void)index_put(idx, s->index_cap, sym, ra_sym_hash(s, sym, &d));
        ra_dealloc(s->index);
        s->index = idx;
    }
    s->nunindexed = 0;  // (the waiting texts are in the new index)
    s->probes = 0;
    s->probe_base = s->nindexed;
    if (s->bloom) bloom_build(s, (uint64_t)(s->bloom_words > 64 ? s->bloom_words - 64 : 0) * 6);
    ra_shape_table *t = &s->shapes;
    for (uint32_t k = 1; k < t->n; k++)  // (ra_records.h's ra_shape_hash)
        t->at[k].hash = ra_hash(key, t->words + t->at[k].first, (size_t)t->at[k].count * 4);
    if (map) {
        for (uint32_t k = 1; k < t->n; k++) {
            uint32_t j = (uint32_t)(((uint64_t)t->at[k].hash * t->map_cap) >> 32);
            while (map[j]) j = (j + 1) & (t->map_cap - 1);
            map[j] = k + 1;
        }
        ra_dealloc(t->map);
        t->map = map;
    }
    t->probes = 0;
    return true;
}
