// Symbols: interning texts into a source's symbol table, its index and the Bloom filter that lets
// a payload's new texts skip it, derived symbols (list items' client IDs) and their derivation
// tables, and the cache of their written-out texts (ra_symbols.c, ra_text_cache.c).
#ifndef RA_SYMBOLS_H
#define RA_SYMBOLS_H

#include "ra_source.h"
#include "ra_buf.h"
#include "ra_hash.h"

#pragma clang assume_nonnull begin

// Index slots (ra_symbols.c): the symbol in the low 28 bits, the lowest 4 bits of its hash above
// (its highest bits choose the slot). The index is sized to its symbols, not to a power of two:
// a probe starts at the hash scaled to the index's length.
#define RA_SLOT_SYM 0x0FFFFFFFu
#define RA_SLOT_TAG 0xF0000000u
static inline uint32_t ra_slot_tag(uint32_t hash) { return hash << 28; }
static inline uint32_t ra_slot_home(uint32_t hash, uint32_t cap) { return (uint32_t)(((uint64_t)hash * cap) >> 32); }

// Lookups pipeline their cache misses: a lookup's index slot is prefetched some iterations (or
// members) ahead, then, in bulk lookups (publish), the symbol entry it names once that line is in.
static inline void ra_prefetch_slot(const ra_source *s, uint32_t hash) {
    if (s->index_cap) __builtin_prefetch(&s->index[ra_slot_home(hash, s->index_cap)]);
}
// A blocked Bloom filter over a source's text symbols (ra_symbols.c): one word per hash, three
// bits in it.
static inline uint32_t ra_bloom_at(uint32_t hash, uint32_t words) { return (uint32_t)(((uint64_t)hash * words) >> 32); }
static inline uint64_t ra_bloom_bits(uint32_t hash) {
    uint64_t x = (uint64_t)hash * 0x9E3779B97F4A7C15ull;
    return (1ull << (x >> 58)) | (1ull << ((x >> 52) & 63)) | (1ull << ((x >> 46) & 63));
}
static inline bool ra_bloom_has(const ra_source *s, uint32_t hash) {
    uint64_t bits = ra_bloom_bits(hash);
    return (s->bloom[ra_bloom_at(hash, s->bloom_words)] & bits) == bits;
}
static inline void ra_bloom_add(ra_source *s, uint32_t hash) {
    if (s->bloom) s->bloom[ra_bloom_at(hash, s->bloom_words)] |= ra_bloom_bits(hash);
}
/// Requests what interning a text of `hash` will read first: its filter word, or its index slot.
static inline void ra_prefetch_text(const ra_source *s, uint32_t hash) {
    if (s->bloom) __builtin_prefetch(&s->bloom[ra_bloom_at(hash, s->bloom_words)]);
    else ra_prefetch_slot(s, hash);
}
static inline void ra_prefetch_entry(const ra_source *s, uint32_t hash) {
    if (!s->index_cap) return;
    uint32_t slot = s->index[ra_slot_home(hash, s->index_cap)];
    if (slot && (slot & RA_SLOT_TAG) == ra_slot_tag(hash)) __builtin_prefetch(&s->syms[slot & RA_SLOT_SYM]);
}
/// A fresh random key (the system's random source; ra_symbols.c).
ra_hash_key ra_hash_key_random(void);
/// The key new sources take: drawn once a process, so that a payload's delta and the store it is
/// published into share it and the publish reuses the delta's hashes (ra_set_hash_key sets it).
ra_hash_key ra_process_hash_key(void);
static inline bool ra_hash_key_equal(ra_hash_key a, ra_hash_key b) { return a.k0 == b.k0 && a.k1 == b.k1; }
/// The hash of `n` bytes under the source's key.
static inline uint32_t ra_text_hash(const ra_source *s, const void *p, size_t n) { return ra_hash(s->hkey, p, n); }
/// Gives the source a fresh key and hashes everything anew under it: its texts' hashes, the index,
/// the filter, the shapes' hashes and map (ra_symbols.c). The probe bound calls it when inserts
/// pass too many slots, a snapshot's opener when its index or shapes have runs no random key
/// makes, or when it was written under version 1's fixed hash. The source must be writable. False
/// on OOM (the source unchanged, under its old key).
bool ra_source_rekey(ra_source *s);
/// The probe bound: whether `probes` slots passed by `inserts` inserts (or one insert passing more
/// than RA_PROBE_LIMIT) are more than any random key makes. A random key passes ~2.5 slots an
/// insert at the index's load of at most 3/4; RA_PROBE_AVERAGE is far past that, and the slack
/// keeps a small table from rekeying on a few unlucky inserts.
#define RA_PROBE_LIMIT 1024u
#define RA_PROBE_AVERAGE 32u
#define RA_PROBE_SLACK 65536u
static inline bool ra_probes_exceed(uint64_t probes, uint64_t inserts) {
    return probes > RA_PROBE_AVERAGE * inserts + RA_PROBE_SLACK;
}
/// Interns `text`; returns the symbol (>0) or 0 when out of memory / past the limit.
uint32_t ra_intern(ra_source *s, const char *text, size_t len);
/// ra_intern with the hash already known (publish reuses the delta's).
uint32_t ra_intern_hashed(ra_source *s, const char *text, size_t len, uint32_t hash);
uint32_t ra_lookup(const ra_source *s, const char *text, size_t len, uint32_t hash);
/// Copies `len` bytes (after their length) to the end of sym_bytes without making them a symbol yet: the
/// text of a data ID whose interning waits until its record closes, so that its index slot can be
/// prefetched first. `*offset` gets where; false on OOM / past the limit.
static inline __attribute__((always_inline)) bool ra_sym_place(ra_source *s, const char *text, size_t len, uint32_t *offset) {
    size_t head = ra_len_size(len);
    if (len >= RA_MAX_SYM_BYTES || s->sym_bytes.len + head + len >= RA_MAX_SYM_BYTES) {
        s->names_full = true;
        return false;
    }
    if (!ra_buf_reserve(&s->sym_bytes, head + len)) return false;
    uint32_t off = (uint32_t)s->sym_bytes.len;
    ra_len_put(s->sym_bytes.data + off, (uint32_t)len);
    ra_copy_short(s->sym_bytes.data + off + head, text, len);
    s->sym_bytes.len += head + len;
    *offset = off;
    return true;
}
/// Interns the text placed at `offset` (ra_sym_place): registered where it lies when new, so it is
/// copied once. When it was interned already, those bytes are given back if nothing was placed
/// after them (else they stay unused, as a found text's tail copy does). 0 on OOM / limits.
/// (ra_intern_placed, below, is the common case inline; this is the rest.)
uint32_t ra_intern_placed_slow(ra_source *s, uint32_t offset, size_t len, uint32_t hash);
/// Writes the index slots of the texts registered past the filter (ra_symbols.c).
void ra_insert_unindexed(ra_source *s);
/// Room for a symbol of up to `len` bytes written in place near the end of sym_bytes (no copy
/// through a scratch buffer; room for its length is left before it); NULL on OOM. The pointer is
/// valid until the source next grows.
char *_Nullable ra_sym_tail(ra_source *s, size_t len);
/// Interns the `len` bytes written at ra_sym_tail (at most the length reserved there).
uint32_t ra_intern_tail(ra_source *s, size_t len);
uint32_t ra_intern_tail_hashed(ra_source *s, size_t len, uint32_t hash);
/// The text of a symbol that is not derived; `*len` gets its length.
static inline const char *ra_sym_text(const ra_source *s, uint32_t sym, uint32_t *len) {
    return (const char *)ra_len_get(s->sym_bytes.data + s->syms[sym].offset, len);
}
static inline bool ra_sym_derived(const ra_source *s, uint32_t sym) { return s->syms[sym].offset & RA_SYM_DERIVED; }
/// A derived symbol's prefix symbol and index.
static inline void ra_sym_derivation(const ra_source *s, uint32_t sym, uint32_t *prefix, uint32_t *index) {
    *prefix = s->syms[sym].offset & ~RA_SYM_DERIVED;
    *index = s->syms[sym].hash;
}
/// Writes the symbol's text (ra_sym_length bytes, no NUL) to `out`.
void ra_sym_write(const ra_source *s, uint32_t sym, char *out);
/// Interns "<text of prefix>:<index>": a derived symbol when the prefix can be one (a text
/// starting "client:" and not ending like an index, see ra_derived_shape), else as text.
/// 0 on OOM / past the limits.
uint32_t ra_intern_derived(ra_source *s, uint32_t prefix, uint32_t index);
/// A new symbol entry (a text's offset and hash, or a derivation's), no record. 0 on OOM / past the limit.
static inline __attribute__((always_inline)) uint32_t ra_new_symbol(ra_source *s, uint32_t offset, uint32_t word) {
    if (s->nsyms >= RA_MAX_SYMBOLS || !ra_grow((void **)&s->syms, &s->capsyms, s->nsyms + 1, sizeof(ra_symbol)))
        return 0;
    uint32_t sym = s->nsyms++;
    s->syms[sym] = (ra_symbol){.offset = offset, .hash = word, .rec = {.fields = RA_NO_RECORD}};
    return sym;
}
/// Whether a text of `hash` is new for certain (a payload's delta: its filter has not seen it) and
/// the index has room for it once the batch is written.
static inline bool ra_unseen(const ra_source *s, uint32_t hash) {
    return s->bloom && !ra_bloom_has(s, hash) && (uint64_t)(s->nindexed + 1) * 4 <= (uint64_t)s->index_cap * 3;
}
/// Registers an ra_unseen text where it lies (at `offset` in sym_bytes), its index slot written
/// with the next batch of 64. 0 on OOM / past the limit.
static inline __attribute__((always_inline)) uint32_t ra_register_unseen(ra_source *s, uint32_t offset, uint32_t hash) {
    uint32_t sym = ra_new_symbol(s, offset, hash);
    if (!sym) return 0;
    ra_bloom_add(s, hash);
    s->nindexed++;
    s->unindexed[s->nunindexed++] = sym;
    ra_prefetch_slot(s, hash);
    if (s->nunindexed == sizeof s->unindexed / sizeof s->unindexed[0]) ra_insert_unindexed(s);
    return sym;
}
/// Whether a text starts "client:" (the first test of ra_derived_shape).
static inline bool ra_starts_client(const char *t, size_t len) { return len >= 7 && memcmp(t, "client:", 7) == 0; }
/// (ra_intern_placed's common case inline: an unseen text that is not `client:`-shaped.)
/// `hash` is the text's under the source's key when the text was placed; a source rekeyed since
/// (ra_source_rekey: only under attack) hashes it again.
static inline __attribute__((always_inline)) uint32_t ra_intern_placed(ra_source *s, uint32_t offset, size_t len, uint32_t hash) {
    const char *text = (const char *)s->sym_bytes.data + offset + ra_len_size(len);
    if (__builtin_expect(s->rekeys != 0, 0)) hash = ra_hash(s->hkey, text, len);
    if (!ra_starts_client(text, len) && ra_unseen(s, hash)) return ra_register_unseen(s, offset, hash);
    return ra_intern_placed_slow(s, offset, len, hash);
}
/// A new derived symbol for `prefix` and `index`, in its free slot of the prefix's table `t`. 0 on
/// OOM / past the limit.
static inline __attribute__((always_inline)) uint32_t ra_dtable_add(ra_source *s, ra_dtable *t, uint32_t prefix, uint32_t index) {
    uint32_t sym = ra_new_symbol(s, prefix | RA_SYM_DERIVED, index);
    if (!sym) return 0;
    s->dslots[t->start + index] = sym;
    t->count++;
    return sym;
}
/// Whether dense table `t` takes `index` next, keeping its run: the index after its last, the
/// symbol after its last the next one made (the index is searched first when it has overflowed).
static inline bool ra_dtable_extends(const ra_source *s, const ra_dtable *t, uint32_t index) {
    return !t->cap && index == t->count && (!t->count || t->base + t->count == s->nsyms);
}
/// A new derived symbol for `prefix` and `index` at the end of dense table `t` (ra_dtable_extends).
static inline __attribute__((always_inline)) uint32_t ra_dtable_append(ra_source *s, ra_dtable *t, uint32_t prefix, uint32_t index) {
    uint32_t sym = ra_new_symbol(s, prefix | RA_SYM_DERIVED, index);
    if (!sym) return 0;
    if (!t->count) t->base = sym;
    t->count++;
    return sym;
}
uint32_t ra_intern_derived_hinted_slow(ra_source *s, uint32_t prefix, uint32_t index, uint32_t *hint);
/// ra_intern_derived for the items of one list, interned one after another: `*hint` remembers
/// where the prefix's table sits in the table map (UINT32_MAX at first), so that the next index,
/// usually the slot after the last, is taken without finding the table again (inline: a list's
/// items are a connection's edges, a million for a million todos). A stale hint (the map grew,
/// the prefix changed) only costs the full search, which refreshes it.
static inline __attribute__((always_inline)) uint32_t ra_intern_derived_hinted(ra_source *s, uint32_t prefix, uint32_t index,
                                                                               uint32_t *hint) {
    uint32_t h = *hint;
    if (h < s->dtab_cap && s->dtabs[h].prefix == prefix && prefix) {
        ra_dtable *t = &s->dtabs[h];
        if (!t->cap) {  // dense
            if (index < t->count) return t->base + index;
            if (!t->overflow && ra_dtable_extends(s, t, index)) return ra_dtable_append(s, t, prefix, index);
        } else if (index < t->cap) {
            uint32_t found = s->dslots[t->start + index];
            if (found) return found;
            if (!t->overflow) return ra_dtable_add(s, t, prefix, index);  // (else the index may hold it: the full search)
        }
    }
    return ra_intern_derived_hinted_slow(s, prefix, index, hint);
}
/// Writes the index slots of the texts interned past the filter and not yet indexed, and drops
/// the filter (ra_symbols.c): a payload's delta calls it when it finishes, so a published source
/// has none waiting.
void ra_source_settle_index(ra_source *s);
/// Gives back the unused slots at the end of the derivation table that ends `dslots` (a list's
/// table grows by half: up to a third of it is room). A payload's delta calls it when it finishes.
void ra_source_trim_tables(ra_source *s);
/// Whether `text` is a derived symbol's: "client:…" ending in ':' and a decimal index (no leading
/// zero, at most UINT32_MAX), its prefix not ending so itself. `*prefix_len` and `*index` get the
/// parts. Texts of this shape are never interned as text, so a text has one symbol.
bool ra_derived_shape(const char *text, size_t len, size_t *prefix_len, uint32_t *index);
/// The text of any symbol, derived ones written out once (ra_source_symbol_text); NULL on OOM.
static inline const char *_Nullable ra_sym_text_any(const ra_source *s, uint32_t sym, uint32_t *len) {
    ra_bytes_ref r = ra_source_symbol_text(s, sym);
    *len = (uint32_t)r.len;
    return (const char *)r.ptr;
}

/// The number of decimal digits of `v`: the bit length gives log10 to within one (1233/4096 is
/// just above log10 2), one table compare settles it.
static inline size_t ra_digit_count(uint64_t v) {
    static const uint64_t pow10[20] = {1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
                                       100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
                                       1000000000000ull, 10000000000000ull, 100000000000000ull,
                                       1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
                                       1000000000000000000ull, 10000000000000000000ull};
    if (v < 10) return 1;
    unsigned t = (unsigned)(64 - __builtin_clzll(v)) * 1233 >> 12;
    return t + (v >= pow10[t]);
}

/// The decimal digits of `v` at the start of `out` (room for 20); their count. Two digits per
/// division, written in place: every list item's client ID ends in one of these.
static inline size_t ra_index_digits(char *out, uint64_t v) {
    static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                "8081828384858687888990919293949596979899";
    size_t len = ra_digit_count(v);
    char *w = out + len;
    for (; v >= 100; v /= 100) {
        w -= 2;
        memcpy(w, pairs + v % 100 * 2, 2);
    }
    if (v >= 10) {
        memcpy(w - 2, pairs + v * 2, 2);
    } else {
        w[-1] = (char)('0' + v);
    }
    return len;
}

/// The hash state of "<prefix>:", a derived symbol's text up to its index: kept while the prefix
/// stays the same, so that each item's hash costs only its digits (a list's items share it).
typedef struct ra_derivation {
    uint32_t prefix;       // its symbol (0: none yet)
    size_t len;            // the prefix's length and the ':'
    uint64_t state;        // hash state after the whole 8-byte words of "<prefix>:"
    uint64_t rest;         // its bytes after those words (fewer than 8), as one word
    ra_hash_key key;       // the source's
} ra_derivation;
/// Sets `d` up for `prefix` (a text symbol of `s`).
void ra_derivation_start(const ra_source *s, ra_derivation *d, uint32_t prefix);
/// The hash of "<prefix>:<index>"; `*len` gets that text's length.
static inline uint32_t ra_derivation_hash(const ra_derivation *d, uint64_t index, uint32_t *len) {
    char tail[32];
    size_t rest = d->len % 8;
    memcpy(tail, &d->rest, 8);  // the prefix's last bytes; the digits go after them
    size_t nd = ra_index_digits(tail + rest, index);
    *len = (uint32_t)(d->len + nd);
    return ra_hash_continue(d->key, d->state, tail, rest + nd, d->len + nd);
}
/// The hash of symbol `sym`'s text; `*d` caches a derivation's prefix between calls.
static inline uint32_t ra_sym_hash(const ra_source *s, uint32_t sym, ra_derivation *d) {
    if (!ra_sym_derived(s, sym)) return s->syms[sym].hash;
    uint32_t prefix, index, len;
    ra_sym_derivation(s, sym, &prefix, &index);
    if (d->prefix != prefix || !ra_hash_key_equal(d->key, s->hkey)) ra_derivation_start(s, d, prefix);
    return ra_derivation_hash(d, index, &len);
}

/// The length of a symbol's text, derived or not.
static inline uint32_t ra_sym_length(const ra_source *s, uint32_t sym) {
    uint32_t len;
    if (!ra_sym_derived(s, sym)) {
        (void)ra_sym_text(s, sym, &len);
        return len;
    }
    uint32_t prefix, index;
    ra_sym_derivation(s, sym, &prefix, &index);
    (void)ra_sym_text(s, prefix, &len);
    return len + 1 + (uint32_t)ra_digit_count(index);
}

/// Room for `syms` more symbol entries, `indexed` of them in the index (ra_source_reserve's
/// symbol part). false on OOM / past the limits.
bool ra_symbols_reserve(ra_source *s, uint32_t syms, uint32_t indexed);
/// The cache of derived symbols' written-out texts (ra_text_cache.c): one per source.
struct ra_text_cache *_Nullable ra_text_cache_create(void);
void ra_text_cache_destroy(struct ra_text_cache *_Nullable c);

#pragma clang assume_nonnull end

#endif
