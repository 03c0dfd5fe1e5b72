// Internal layout of record sources and growable buffers shared by the C core's files.
// The arena format is described in ARENA.md beside this file.
#ifndef RA_INTERNAL_H
#define RA_INTERNAL_H

#include "relay_arena.h"
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>
#include <yajl/yajl_common.h>

#pragma clang assume_nonnull begin

#define RA_STAGE_ALIGN 4u  // staged values' slots (ra_buf_slot)
#define RA_MAX_SYMBOLS 0x0FFFFFF0u  // index slots keep 28 bits of symbol (ra_source.c)
#define RA_MAX_FIELDS_PER_RECORD 0x7FFFu  // values of a record (and its `id` bit: 2^15 fields)
#define RA_MAX_TYPES 0x7FFFu             // typenames of one source (ra_record.type keeps 15 bits)

/// Counted allocation (ra_alloc.c): every block of the core, yajl's included.
void *_Nullable ra_malloc(size_t n);
void *_Nullable ra_calloc(size_t count, size_t size);
/// ra_calloc for a table read at random (a filter, an index): a large one is given huge pages.
void *_Nullable ra_calloc_table(size_t count, size_t size);
void *_Nullable ra_realloc(void *_Nullable p, size_t n);
void ra_dealloc(void *_Nullable p);
/// ra_dealloc of a block of which only the first `used` bytes were ever written: a large block
/// kept for reuse counts (and keeps the pages of) only those against the retained-memory limit.
void ra_dealloc_used(void *_Nullable p, size_t used);
extern yajl_alloc_funcs ra_yajl_alloc_funcs;

/// Growable byte buffer; offsets into it stay valid when it moves.
typedef struct ra_buf {
    uint8_t *_Nullable data;
    size_t len, cap;
} ra_buf;

bool ra_buf_reserve_slow(ra_buf *b, size_t extra);
/// Room for `extra` more bytes; the common case (room left) is inline.
static inline bool ra_buf_reserve(ra_buf *b, size_t extra) {
    return b->cap - b->len >= extra || ra_buf_reserve_slow(b, extra);
}
bool ra_buf_append_slow(ra_buf *b, const void *_Nullable p, size_t n);
void ra_buf_free(ra_buf *b);

/// Appends `n` bytes; the common case (room left) is inline, growth is out of line.
static inline bool ra_buf_append(ra_buf *b, const void *_Nullable p, size_t n) {
    if (b->data && b->cap - b->len >= n) {
        if (n) memcpy(b->data + b->len, p, n);
        b->len += n;
        return true;
    }
    return ra_buf_append_slow(b, p, n);
}

/// Grows `*p` (an array of `elem` bytes with capacity `*cap`) to hold `need` elements.
bool ra_grow_slow(void *_Nullable *_Nonnull p, uint32_t *cap, uint32_t need, size_t elem);
static inline __attribute__((always_inline)) bool ra_grow(void *_Nullable *_Nonnull p, uint32_t *cap, uint32_t need, size_t elem) {
    return need <= *cap || ra_grow_slow(p, cap, need, elem);
}

// A record: where its values are, its type and its shape. It lives in its data ID's symbol entry
// (one table for the data IDs and their records: a record's index is its ID's symbol), or, while
// the normalizer makes it before its ID is known, in the source's `unnamed` records (below).
typedef struct ra_record {
    uint32_t fields;     // first of its values (`vals`); RA_NO_RECORD in a symbol entry: no record
    uint16_t type : 15;  // index in the source's type table (ra_rec_type gives the symbol); 0 = tombstone
    // An `id` field (key: the source's `id_key`) whose value is the record's own data ID, kept
    // in no slot: read as an IDSTR of its symbol, listed before the slots. A record with the flag
    // has no slot of that key.
    uint16_t self_id : 1;
    uint16_t shape;      // index in the source's shape table: its keys and their values' tags, in order
} ra_record;
_Static_assert(sizeof(ra_record) == 8, "a record header is 8 bytes");
#define RA_NO_RECORD UINT32_MAX

typedef struct ra_symbol {
    uint32_t offset;   // into sym_bytes; with RA_SYM_DERIVED, the prefix symbol of a derived one (below)
    uint32_t hash;     // of the text; for a derived symbol, its index (its hash is computed when needed)
    ra_record rec;     // the record whose data ID this is (rec.fields RA_NO_RECORD: none)
} ra_symbol;
_Static_assert(sizeof(ra_symbol) == 16, "a symbol entry is 16 bytes");

// A record handle: a data ID's symbol (its record is in the entry), or RA_REC_UNNAMED and an index
// in the source's `unnamed` records. Symbols stay below 2^28 (RA_MAX_SYMBOLS).
#define RA_REC_UNNAMED 0x80000000u
#define RA_MAX_UNNAMED 0x7FFFFFF0u

// Symbol texts and heap values are stored after their length: one byte for a length under 255,
// 0xFF and a u32 for a longer one (most are short: IDs, names, cursors), with no alignment and no
// NUL after the bytes.
#define RA_LEN_LONG 0xFFu
/// The bytes a length takes.
static inline size_t ra_len_size(size_t len) { return len < RA_LEN_LONG ? 1 : 5; }
/// Writes a length at `p` (ra_len_size(len) bytes).
static inline void ra_len_put(uint8_t *p, uint32_t len) {
    if (len < RA_LEN_LONG) {
        p[0] = (uint8_t)len;
    } else {
        p[0] = RA_LEN_LONG;
        memcpy(p + 1, &len, 4);
    }
}
/// Reads the length at `p`; returns where the bytes start.
static inline const uint8_t *ra_len_get(const uint8_t *p, uint32_t *len) {
    if (p[0] < RA_LEN_LONG) {
        *len = p[0];
        return p + 1;
    }
    memcpy(len, p + 1, 4);
    return p + 5;
}

// A list item's client ID, "<prefix>:<index>" (the prefix being "client:<parent>:<storage key>"),
// is not stored as text: its entry holds the prefix symbol and the index, no bytes instead of the
// ~50 of the text, which is written out only when asked for (ra_sym_write). Nor is it in the
// index: the prefix's derivation table holds it at its index (ra_dtable), so a list's items are
// found and added front to back with no hashing and no random probe. Which texts are derived is
// decided by the text alone (ra_derived_shape), so every text has one symbol however it arrives.
#define RA_SYM_DERIVED 0x80000000u

/// A prefix's derived symbols by index. A list's items are mostly interned front to back with
/// nothing in between (a connection's edges as it closes, a store file's in its order), so a table
/// starts *dense*: no slots (`cap` 0), the symbol of index i < `count` being `base` + i. An index
/// that would break the run (out of order, or another symbol made in between) gives it `cap`
/// slots from `start` in the source's `dslots` (0: no symbol), filled from the run. An index too
/// far past the others for a slot (a sparse one, from a store file say) is kept in the index
/// instead, hashed by its text, and counted in `overflow`.
typedef struct ra_dtable {
    uint32_t prefix;    // its prefix symbol; 0: an empty map slot
    uint32_t start, cap, count;
    uint32_t overflow;  // its symbols in the index
    uint32_t base;      // dense (cap 0): the symbol of index 0
} ra_dtable;
#define RA_MAX_SYM_BYTES (RA_SYM_DERIVED - 1)  // symbol bytes of one source

// A shape is what records with the same fields share: their keys and their values' tags, one
// word each (ra_slot_word), in the records' order. A record keeps only its values' payloads, 4
// bytes each, from `fields` in `vals`. Shape 0 has no field.
typedef struct ra_shape {
    uint32_t first;  // of its words, in `shape_words`
    uint32_t count;
    uint32_t hash;   // of its words
} ra_shape;
#define RA_MAX_SHAPES 0xFFFFu  // shapes of one source (ra_record.shape keeps 16 bits)

/// Shapes by index, their words, and an open-addressing map from the words (by their hash) to the
/// index (k + 1; 0: empty), a power of two at most half full: a source's, and the shapes a
/// publish will add to the store (ra_publish.c).
typedef struct ra_shape_table {
    ra_shape *at;
    uint32_t n, cap;
    uint32_t *words;         // the shapes' words (ra_slot_word)
    uint32_t nwords, capwords;
    uint32_t *map;
    uint32_t map_cap;
} ra_shape_table;
/// The index of the shape of these words in `t`, else RA_NONE.
uint32_t ra_shape_table_find(const ra_shape_table *t, const uint32_t *words, uint32_t count, uint32_t hash);
/// Room for `extra` more shapes of `words` words in all, so that adding them cannot fail.
bool ra_shape_table_reserve(ra_shape_table *t, uint32_t extra, uint64_t words);
/// Adds a shape `t` does not have, with room reserved; its index.
uint32_t ra_shape_table_add(ra_shape_table *t, const uint32_t *words, uint32_t count, uint32_t hash);
void ra_shape_table_free(ra_shape_table *t);

// A field, as the core passes it around, is a *slot*: one word with the key symbol in the low 28
// bits (symbols stay below 2^28, see RA_MAX_SYMBOLS), the value's tag in the next 4 and its payload
// in the top 32. A record keeps the low half in its shape and the payload in `vals`. Every payload
// a record holds fits: symbols, heap offsets (a heap stays under 4 GiB, RA_MAX_HEAP) and integers
// (32-bit, GraphQL's Int; wider ones keep their text, see ra_small_int). A boolean's tag is
// RA_TAG_TRUE whatever its value, which is its payload (1 or 0): a flipped boolean keeps its
// record's shape.
#define RA_SLOT_KEY 0x0FFFFFFFu
#define RA_MAX_HEAP UINT32_MAX
static inline __attribute__((always_inline)) uint64_t ra_slot_pack(uint32_t key, uint64_t value) {
    uint64_t tag = value >> 60;
    bool boolean = (tag | 1) == RA_TAG_FALSE;  // (TRUE 2, FALSE 3)
    uint64_t payload = boolean ? (tag == RA_TAG_TRUE) : (uint32_t)value;
    tag = boolean ? RA_TAG_TRUE : tag;
    return (payload << 32) | (tag << 28) | key;
}
static inline uint32_t ra_slot_key(uint64_t slot) { return (uint32_t)slot & RA_SLOT_KEY; }
/// The slot's shape word: its key and its tag.
static inline uint32_t ra_slot_word(uint64_t slot) { return (uint32_t)slot; }
/// The slot's value as the API's word (ra_value_tag, ra_value_payload, ra_value_int).
static inline uint64_t ra_slot_value(uint64_t slot) {
    uint64_t tag = (slot >> 28) & 0xF;
    uint64_t payload = slot >> 32;
    if (tag == RA_TAG_INT) return (tag << 60) | ((uint64_t)(int64_t)(int32_t)payload & 0x0FFFFFFFFFFFFFFFull);
    if (tag == RA_TAG_TRUE) return (uint64_t)(payload ? RA_TAG_TRUE : RA_TAG_FALSE) << 60;
    return (tag << 60) | payload;
}

struct ra_source {
    ra_buf sym_bytes;
    ra_symbol *syms;         // syms[0] unused
    uint32_t nsyms, capsyms;
    uint32_t *index;         // open addressing over symbol ids: texts, and overflowed derivations
    uint32_t index_cap;      // slots (any number: see ra_slot_home)
    uint32_t nindexed;       // symbols in the index, or on their way (`unindexed`)
    uint64_t *bloom;         // a filter over the text symbols' hashes (NULL: none; see ra_source.c)
    uint32_t bloom_words;
    uint32_t nunindexed;     // new texts not in the index yet: inserted in a batch (ra_source.c)
    uint32_t unindexed[64];
    ra_dtable *dtabs;        // derivation tables by prefix symbol (open addressing, power of two)
    uint32_t ndtabs, dtab_cap;
    uint32_t *dslots;        // the derivation tables' slots
    uint32_t ndslots, capdslots;
    uint32_t nrecs;          // records (in symbol entries: tombstones included)
    // Records the normalizer made before their data ID is known (a quick record while its object
    // is open, a connection's edge until its owner's ID is known): handles RA_REC_UNNAMED | index,
    // a free one's `fields` linking the next free (index + 1; 0: none). A payload's delta only:
    // named (moved to their ID's entry) or dropped by the time it finishes.
    ra_record *unnamed;
    uint32_t nunnamed, capunnamed, unnamed_free;
    uint32_t *vals;          // records' values' payloads (their keys and tags are their shapes')
    uint32_t nfields, capfields;
    // The record whose values end `vals` (its handle + 1; 0: none): it alone has room past its
    // count, up to `nfields`, and grows in place. Any other record grows by moving to the end.
    uint32_t tail;
    ra_shape_table shapes;   // at[0]: no field (not in the map)
    uint32_t *scratch;       // a shape being built (ra_record_set)
    uint32_t capscratch;
    uint32_t *types;         // type index -> typename symbol; [0] = 0, the tombstone's
    uint32_t ntypes, captypes;
    uint16_t *type_map;      // typename symbol -> type index (open addressing over `types`)
    uint32_t type_map_cap;
    struct { uint32_t sym, index; } type_cache[16];  // the last typenames looked up, by symbol
    ra_buf heap;
    bool heap_full;          // an append was refused for RA_MAX_HEAP (tells that failure from OOM)
    bool names_full;         // a symbol was refused for RA_MAX_SYM_BYTES (likewise)
    bool fields_full;        // a record was refused more than RA_MAX_FIELDS_PER_RECORD slots (likewise)
    bool types_full;         // a typename was refused for RA_MAX_TYPES (likewise)
    bool shapes_full;        // a shape was refused for RA_MAX_SHAPES (likewise)
    uint32_t id_key;         // the symbol of `id` (a delta's from the start; a store's from its first payload or file that has one): see ra_record.self_id
    uint32_t *updated;       // symbols updated by the last publish
    uint32_t nupdated, capupdated;
    struct ra_text_cache *texts;  // derived symbols' texts, written out on request (ra_source.c)
    pthread_rwlock_t lock;
};

// Word loads of short byte runs read the bytes in order only on a little-endian machine.
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the core's word loads assume a little-endian target");

// The first 8 bytes of a run as one word (zero-padded), with loads that stay inside the run: one
// 8-byte load for long runs, two overlapping 4-byte loads for 4–7 bytes, three byte loads for 1–3.
static inline uint64_t ra_key_prefix(const void *s, size_t n) {
    const uint8_t *p = s;
    if (n >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    if (n >= 4) {
        uint32_t lo, hi;
        memcpy(&lo, p, 4);
        memcpy(&hi, p + n - 4, 4);
        return (uint64_t)lo | ((uint64_t)hi << (8 * (n - 4)));
    }
    if (n == 0) return 0;
    return (uint64_t)p[0] | ((uint64_t)p[n / 2] << (8 * (n / 2))) | ((uint64_t)p[n - 1] << (8 * (n - 1)));
}

/// The last `k` (< 8) of the `n` bytes at `p` as one zero-padded word, without a byte-wise copy:
/// one overlapping load of the last 8 bytes when there are 8, else the short-run loads above.
static inline uint64_t ra_tail_word(const void *p, size_t n, size_t k) {
    if (k == 0) return 0;
    if (n >= 8) {
        uint64_t v;
        memcpy(&v, (const uint8_t *)p + n - 8, 8);
        return v >> (8 * (8 - k));
    }
    return ra_key_prefix((const uint8_t *)p + n - k, k);
}

// A small multiply-xorshift hash over 8-byte words (keys are short: IDs, storage keys). The
// length goes in last, so the state after a text's first full words can be kept and continued:
// client IDs that share everything but their index hash only their last bytes.
#define RA_HASH_SEED 0x9E3779B97F4A7C15ull
static inline uint64_t ra_hash_words(uint64_t h, const void *p, size_t words) {
    const uint8_t *s = p;
    for (size_t i = 0; i < words; i++, s += 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xC4CEB9FE1A85EC53ull;
        h ^= h >> 29;
    }
    return h;
}
/// Continues state `h` over `n` more bytes (starting on a word boundary of the whole text) and
/// finishes the hash of a text of `total` bytes.
static inline uint32_t ra_hash_continue(uint64_t h, const void *p, size_t n, size_t total) {
    h = ra_hash_words(h, p, n / 8);
    uint64_t w = ra_tail_word(p, n, n % 8);
    h = (h ^ w) * 0xC4CEB9FE1A85EC53ull;
    h ^= (uint64_t)total * 0xFF51AFD7ED558CCDull;
    h ^= h >> 32;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    return (uint32_t)h;
}
uint32_t ra_hash(const void *p, size_t n);

// Index slots (ra_source.c): the symbol in the low 28 bits, the lowest 4 bits of its hash above
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
// A blocked Bloom filter over a source's text symbols (ra_source.c): one word per hash, three
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
/// Interns `text`; returns the symbol (>0) or 0 when out of memory / past the limit.
uint32_t ra_intern(ra_source *s, const char *text, size_t len);
/// ra_intern with the hash already known (publish reuses the delta's).
uint32_t ra_intern_hashed(ra_source *s, const char *text, size_t len, uint32_t hash);
uint32_t ra_lookup(const ra_source *s, const char *text, size_t len, uint32_t hash);
/// Copies `len` bytes (after their length) to the end of sym_bytes without making them a symbol yet: the
/// text of a data ID whose interning waits until its record closes, so that its index slot can be
/// prefetched first. `*offset` gets where; false on OOM / past the limit.
static inline bool ra_sym_place(ra_source *s, const char *text, size_t len, uint32_t *offset);
/// Interns the text placed at `offset` (ra_sym_place): registered where it lies when new, so it is
/// copied once. When it was interned already, those bytes are given back if nothing was placed
/// after them (else they stay unused, as a found text's tail copy does). 0 on OOM / limits.
/// (ra_intern_placed, below, is the common case inline; this is the rest.)
uint32_t ra_intern_placed_slow(ra_source *s, uint32_t offset, size_t len, uint32_t hash);
/// Writes the index slots of the texts registered past the filter (ra_source.c).
void ra_insert_unindexed(ra_source *s);
/// Room for a symbol of up to `len` bytes written in place near the end of sym_bytes (no copy
/// through a scratch buffer; room for its length is left before it); NULL on OOM. The pointer is
/// valid until the source next grows.
char *_Nullable ra_sym_tail(ra_source *s, size_t len);
/// Interns the `len` bytes written at ra_sym_tail (at most the length reserved there).
uint32_t ra_intern_tail(ra_source *s, size_t len);
uint32_t ra_intern_tail_hashed(ra_source *s, size_t len, uint32_t hash);
/// Room for that many more symbols (`indexed` of them texts, the rest derived; a data ID's record
/// is in its entry) and their bytes, values and heap bytes, so a payload of known size grows its
/// arrays once. false on OOM / past the limits.
bool ra_source_reserve(ra_source *s, uint32_t syms, uint32_t indexed, size_t sym_bytes, uint32_t fields, size_t heap);
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
static inline __attribute__((always_inline)) uint32_t ra_intern_placed(ra_source *s, uint32_t offset, size_t len, uint32_t hash) {
    const char *text = (const char *)s->sym_bytes.data + offset + ra_len_size(len);
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
/// the filter (ra_source.c): a payload's delta calls it when it finishes, so a published source
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
    return ra_hash_continue(d->state, tail, rest + nd, d->len + nd);
}
/// The hash of symbol `sym`'s text; `*d` caches a derivation's prefix between calls.
static inline uint32_t ra_sym_hash(const ra_source *s, uint32_t sym, ra_derivation *d) {
    if (!ra_sym_derived(s, sym)) return s->syms[sym].hash;
    uint32_t prefix, index, len;
    ra_sym_derivation(s, sym, &prefix, &index);
    if (d->prefix != prefix) ra_derivation_start(s, d, prefix);
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

/// Whether data ID `sym` has a record (a tombstone included).
static inline bool ra_has_record(const ra_source *s, uint32_t sym) { return s->syms[sym].rec.fields != RA_NO_RECORD; }
/// The record of handle `h` (a data ID's symbol, or RA_REC_UNNAMED | index).
static inline ra_record *ra_rec(const ra_source *s, uint32_t h) {
    return h & RA_REC_UNNAMED ? &s->unnamed[h & ~RA_REC_UNNAMED] : &((ra_symbol *)s->syms)[h].rec;
}
/// The record of a handle known to be unnamed (a quick record frame's), without ra_rec's test.
static inline ra_record *ra_unnamed_rec(const ra_source *s, uint32_t h) { return &s->unnamed[h & ~RA_REC_UNNAMED]; }
/// Record `r` becomes data ID `id`'s (which has none): the one place a record is counted.
static inline void ra_record_put(ra_source *s, uint32_t id, ra_record r) {
    s->syms[id].rec = r;
    s->nrecs++;
}
/// The data ID of handle `h`: its symbol, 0 for an unnamed record.
static inline uint32_t ra_rec_id(uint32_t h) { return h & RA_REC_UNNAMED ? 0 : h; }
/// A record's fields in its slots (its `id` kept in the flag aside).
static inline uint32_t ra_rec_count(const ra_source *s, const ra_record *r) { return s->shapes.at[r->shape].count; }
/// The record's fields as the API counts them: its slots, and its `id` field if kept in the flag.
static inline uint32_t ra_record_field_count(const ra_source *s, const ra_record *r) {
    return ra_rec_count(s, r) + r->self_id;
}
/// The shape words of a record: its keys and tags.
static inline const uint32_t *ra_rec_words(const ra_source *s, const ra_record *r) {
    return s->shapes.words + s->shapes.at[r->shape].first;
}
/// Slot `i` of a record (i < ra_rec_count): its shape's word and its value's payload.
static inline uint64_t ra_rec_slot(const ra_source *s, const ra_record *r, uint32_t i) {
    return ((uint64_t)s->vals[r->fields + i] << 32) | ra_rec_words(s, r)[i];
}
/// The shape with these words (`count` of them, which must not lie in `shape_words`), added when
/// new; RA_NONE on OOM or past RA_MAX_SHAPES (`shapes_full`).
uint32_t ra_shape_of(ra_source *s, const uint32_t *words, uint32_t count);
/// The shape with these words if the source has it (`hash`: ra_shape_hash), else RA_NONE.
uint32_t ra_shape_find(const ra_source *s, const uint32_t *words, uint32_t count, uint32_t hash);
static inline uint32_t ra_shape_hash(const uint32_t *words, uint32_t count) {
    return ra_hash(words, (size_t)count * 4);
}
/// Makes room for `extra` more shapes of `words` words in all, so that adding them cannot fail.
bool ra_shapes_reserve(ra_source *s, uint32_t extra, uint64_t words);
/// Adds a shape the source does not have (ra_shape_find said so), with room reserved.
uint32_t ra_shape_add_reserved(ra_source *s, const uint32_t *words, uint32_t count, uint32_t hash);
/// Room for `n` words of a shape being built in `s->scratch`. False on OOM.
static inline bool ra_scratch_reserve(ra_source *s, uint32_t n) {
    return ra_grow((void **)&s->scratch, &s->capscratch, n ? n : 1, sizeof(uint32_t));
}

/// The typename symbol of a record (0: a tombstone).
static inline uint32_t ra_rec_type(const ra_source *s, const ra_record *r) { return s->types[r->type]; }
/// The type index of typename symbol `sym`, added to the table when new; 0 for `sym` 0 (the slow
/// path's first test), and on OOM or past RA_MAX_TYPES (`types_full`).
uint32_t ra_type_index_slow(ra_source *s, uint32_t sym);
/// The type index of typename symbol `sym` if the table has it, else 0; adds nothing.
uint32_t ra_type_find(const ra_source *s, uint32_t sym);
/// Makes room for `extra` more types, so that adding that many cannot fail. False on OOM.
bool ra_types_reserve(ra_source *s, uint32_t extra);
static inline __attribute__((always_inline)) uint32_t ra_type_index(ra_source *s, uint32_t sym) {
    uint32_t c = sym & 15;
    if (__builtin_expect(s->type_cache[c].sym == sym, 1)) return s->type_cache[c].index;
    return ra_type_index_slow(s, sym);
}

/// The record of data ID `id_sym` (its symbol), created empty with `type` when absent. -1 on OOM.
int64_t ra_record_get_or_create(ra_source *s, uint32_t id_sym, uint32_t type_sym, bool *created);
/// Room for a new record's `cap` values at the end of `vals`; `*first` gets where. False on OOM /
/// past the limits (`nfields` stays below RA_NO_RECORD, which no record's `fields` can be).
static inline __attribute__((always_inline)) bool ra_vals_take(ra_source *s, uint32_t cap, uint32_t *first) {
    if (cap > RA_MAX_FIELDS_PER_RECORD) {
        s->fields_full = true;
        return false;
    }
    if (s->nfields >= UINT32_MAX - cap) return false;
    if (!ra_grow((void **)&s->vals, &s->capfields, s->nfields + cap, sizeof(uint32_t))) return false;
    *first = s->nfields;
    s->nfields += cap;
    return true;
}
/// Appends a free entry to the unnamed table (ra_source.c). False on OOM / past RA_MAX_UNNAMED.
bool ra_unnamed_grow(ra_source *s);
/// A new unnamed record of type index `type` with room for exactly `cap` values (the
/// normalizer's records made before their data ID is known: named by ra_record_name, or dropped
/// by ra_record_drop_unnamed). Its handle (RA_REC_UNNAMED | index), -1 on OOM / past the limits.
static inline __attribute__((always_inline)) int64_t ra_record_new_typed(ra_source *s, uint32_t type, uint32_t cap) {
    uint32_t first;
    if ((!s->unnamed_free && !ra_unnamed_grow(s)) || !ra_vals_take(s, cap, &first)) return -1;
    uint32_t u = s->unnamed_free - 1;
    s->unnamed_free = s->unnamed[u].fields;
    s->unnamed[u] = (ra_record){.fields = first, .type = (uint16_t)type, .self_id = 0, .shape = 0};
    uint32_t h = RA_REC_UNNAMED | u;
    s->tail = h + 1;
    return h;
}
/// ra_record_new_typed by the typename's symbol.
static inline __attribute__((always_inline)) int64_t ra_record_new_unnamed(ra_source *s, uint32_t type_sym, uint32_t cap) {
    uint32_t type = ra_type_index(s, type_sym);
    if (!type && type_sym) return -1;
    return ra_record_new_typed(s, type, cap);
}
/// A new record for `id_sym` (which has none) with room for exactly `cap` values: `id_sym`, or -1
/// on OOM / past the limits.
static inline __attribute__((always_inline)) int64_t ra_record_new(ra_source *s, uint32_t id_sym, uint32_t type_sym, uint32_t cap) {
    uint32_t type = ra_type_index(s, type_sym), first;
    if ((!type && type_sym) || !ra_vals_take(s, cap, &first)) return -1;
    ra_record_put(s, id_sym, (ra_record){.fields = first, .type = (uint16_t)type, .self_id = 0, .shape = 0});
    s->tail = id_sym + 1;
    return id_sym;
}
/// Frees unnamed record `h`'s entry for the next one (its values stay where they are).
static inline void ra_unnamed_free(ra_source *s, uint32_t h) {
    uint32_t u = h & ~RA_REC_UNNAMED;
    s->unnamed[u].fields = s->unnamed_free;
    s->unnamed_free = u + 1;
}
/// Unnamed record `h` takes data ID `id` (which has no record): its header moves to the ID's entry.
static inline __attribute__((always_inline)) void ra_record_name(ra_source *s, uint32_t h, uint32_t id) {
    ra_record_put(s, id, s->unnamed[h & ~RA_REC_UNNAMED]);
    if (s->tail == h + 1) s->tail = id + 1;
    ra_unnamed_free(s, h);
}
/// Drops unnamed record `h` (merged into its ID's record, or given back to the staging stack):
/// its values become garbage, as a relocated record's old values do.
static inline void ra_record_drop_unnamed(ra_source *s, uint32_t h) {
    if (s->tail == h + 1) s->tail = 0;
    ra_unnamed_free(s, h);
}
/// Drops the records that never got a data ID and the table they were in (a payload's delta,
/// when it finishes).
void ra_source_drop_unnamed(ra_source *s);
/// Room for `cap` fields: in place when the record's slots end the arena, else moved to its end
/// (the old slots become garbage). false on OOM / limit.
bool ra_record_reserve(ra_source *s, uint32_t rec, uint32_t cap);
/// Gives back a record's room past its fields when its slots end the arena (a record just built).
void ra_record_trim(ra_source *s, uint32_t rec);
/// Whether `value` is record `rec`'s own data ID (its symbol, or a string of its text); never for
/// an unnamed record.
bool ra_is_own_id(const ra_source *s, uint32_t rec, uint64_t value);
/// Whether `text` is data ID `id`'s text (0: no ID, never).
bool ra_text_is_own_id(const ra_source *s, uint32_t id, const char *text, size_t len);
/// Sets a field; grows (relocates) the record's slots when full. false on OOM / limit. An `id`
/// (key `id_key`) set to the record's own data ID goes in the header bit, from a slot if it had
/// one: a record has one form for one value, whichever way it was written.
bool ra_record_set(ra_source *s, uint32_t rec, uint32_t key, uint64_t value);
/// ra_record_set of `n` fields (ra_slot_pack) in order, later ones winning, the record taking its
/// new shape once. False on OOM / limit, with the record's fields unchanged.
bool ra_record_set_all(ra_source *s, uint32_t rec, const uint64_t *slots, uint32_t n);
uint64_t ra_record_get(const ra_source *s, uint32_t rec, uint32_t key);

/// memcpy for the short texts most values are (IDs, names, cursors), without a libc call: two
/// overlapping loads and stores of the largest width that fits, read and written inside the runs.
static inline __attribute__((always_inline)) void ra_copy_short(void *dst, const void *src, size_t n) {
    uint8_t *d = dst;
    const uint8_t *s = src;
    if (n > 32) {
        memcpy(d, s, n);
    } else if (n >= 16) {
        uint8_t a[16], b[16];
        memcpy(a, s, 16);
        memcpy(b, s + n - 16, 16);
        memcpy(d, a, 16);
        memcpy(d + n - 16, b, 16);
    } else if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else if (n) {
        uint8_t a = s[0], b = s[n / 2], c = s[n - 1];
        d[0] = a;
        d[n / 2] = b;
        d[n - 1] = c;
    }
}

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

/// Appends a 4-byte aligned {u32 len, len bytes} slot to `b` (the layout of staged values); returns a pointer to the bytes, NULL on OOM. `*off` is the slot's offset.
static inline __attribute__((always_inline)) uint8_t *_Nullable ra_buf_slot(ra_buf *b, uint32_t len, uint64_t *off) {
    size_t pad = (size_t)(0 - b->len) & (RA_STAGE_ALIGN - 1);
    if (!ra_buf_reserve(b, pad + 4 + (size_t)len)) return NULL;
    uint8_t *p = b->data + b->len;
    memset(p, 0, 4);  // the padding (at most 3 bytes, the rest is overwritten by the length)
    p += pad;
    memcpy(p, &len, 4);
    *off = b->len + pad;
    b->len += pad + 4 + (size_t)len;
    return p + 4;
}
/// Appends a heap value of `len` bytes (after its length, see ra_len_put); returns a pointer to
/// where the bytes go, NULL on OOM or when the heap would pass RA_MAX_HEAP (its offsets are a
/// slot's 32-bit payload). `*off` is the value's offset.
static inline __attribute__((always_inline)) uint8_t *_Nullable ra_heap_alloc(ra_source *s, uint32_t len, uint64_t *off) {
    size_t head = ra_len_size(len);
    if (__builtin_expect(s->heap.len > (uint64_t)RA_MAX_HEAP - head - len, 0)) {
        s->heap_full = true;
        return NULL;
    }
    if (!ra_buf_reserve(&s->heap, head + len)) return NULL;
    uint8_t *p = s->heap.data + s->heap.len;
    ra_len_put(p, len);
    *off = s->heap.len;
    s->heap.len += head + len;
    return p + head;
}
/// The bytes of the heap value at `off`; `*len` gets their length.
static inline const uint8_t *ra_heap_value(const ra_source *s, uint64_t off, uint32_t *len) {
    return ra_len_get(s->heap.data + off, len);
}
static inline uint64_t ra_make(unsigned tag, uint64_t payload) { return ((uint64_t)tag << 60) | payload; }
/// Appends a value to the heap; returns the value word with `tag`, 0 on OOM.
static inline __attribute__((always_inline)) uint64_t ra_heap_put(ra_source *s, unsigned tag, const void *_Nullable bytes, uint32_t len) {
    uint64_t off;
    uint8_t *p = ra_heap_alloc(s, len, &off);
    if (!p) return 0;
    ra_copy_short(p, bytes, len);
    return ra_make(tag, off);
}
// A link list (RA_TAG_REFS) is a heap value of its items' symbols, 4 bytes each (0: null), or,
// when they are consecutive symbols, a *run*: the first symbol and the count, 8 bytes, and a ninth
// so that the length is no multiple of 4. A connection's edges are one: their client IDs are made
// one after another when the connection closes. A run is written for 3 items or more (then it is
// the shorter), whoever writes the list (ra_heap_put_refs, ra_refs_put_run), and read through
// ra_refs_of.
#define RA_REFS_RUN_LEN 9u
static inline uint32_t ra_load_u32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
#define RA_REFS_RUN_MIN 3u
typedef struct ra_refs {
    const uint8_t *_Nullable items;  // the symbols; NULL: a run
    uint32_t first, count;           // a run's first symbol; the items' count
} ra_refs;
static inline ra_refs ra_refs_of(const ra_source *s, uint64_t off) {
    uint32_t len;
    const uint8_t *p = ra_heap_value(s, off, &len);
    if (len == RA_REFS_RUN_LEN) return (ra_refs){NULL, ra_load_u32(p), ra_load_u32(p + 4)};
    return (ra_refs){p, 0, len / 4};
}
static inline uint32_t ra_refs_item(ra_refs r, uint32_t i) {
    return r.items ? ra_load_u32(r.items + 4 * (size_t)i) : r.first + i;
}
/// Whether `count` items from `first` are a run worth writing as one (see ra_refs_of).
static inline bool ra_refs_is_run(uint32_t first, uint32_t count) { return first && count >= RA_REFS_RUN_MIN; }
/// Appends the run of `count` symbols from `first`; returns a REFS word, 0 on OOM / past the heap's limit.
uint64_t ra_refs_put_run(ra_source *s, uint32_t first, uint32_t count);
/// Heap bytes a list of `count` items that is no run takes (its length's bytes included).
static inline size_t ra_refs_heap_need(uint32_t count) { return ra_len_size(4 * (size_t)count) + 4 * (size_t)count; }
/// Appends a link list of `count` symbols (0 for null), as a run when they are one; returns a
/// REFS word, 0 on OOM.
uint64_t ra_heap_put_refs(ra_source *s, const uint32_t *syms, uint32_t count);
/// A 32-bit integer (GraphQL's Int) is kept inline, exactly: true and the INT word when the text
/// is one. Any other number keeps its text.
static inline bool ra_small_int(const char *s, size_t len, uint64_t *out) {
    size_t i = len && s[0] == '-' ? 1 : 0;
    if (len - i < 1 || len - i > 10) return false;
    int64_t v = 0;
    for (size_t j = i; j < len; j++) {
        if (s[j] < '0' || s[j] > '9') return false;
        v = v * 10 + (s[j] - '0');
    }
    if (i) v = -v;
    if (v < INT32_MIN || v > INT32_MAX) return false;
    *out = ra_make(RA_TAG_INT, (uint64_t)v & 0x0FFFFFFFFFFFFFFFull);
    return true;
}
/// Equal byte runs, without a libc call for the short texts most IDs and values are: whole
/// words, and the last bytes as one overlapping load (never past either run).
static inline bool ra_bytes_equal(const void *x, const void *y, size_t n) {
    const uint8_t *a = x, *b = y;
    if (n >= 8) {
        if (n > 32) return memcmp(a, b, n) == 0;
        uint64_t u, v;
        for (size_t i = 0; i + 8 < n; i += 8) {
            memcpy(&u, a + i, 8);
            memcpy(&v, b + i, 8);
            if (u != v) return false;
        }
        memcpy(&u, a + n - 8, 8);
        memcpy(&v, b + n - 8, 8);
        return u == v;
    }
    if (n >= 4) {
        uint32_t u1, v1, u2, v2;
        memcpy(&u1, a, 4);
        memcpy(&v1, b, 4);
        memcpy(&u2, a + n - 4, 4);
        memcpy(&v2, b + n - 4, 4);
        return u1 == v1 && u2 == v2;
    }
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) return false;
    return true;
}

void ra_error_set(ra_error *_Nullable err, ra_status code, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/// JSON.stringify-style string escaping appended to `b`.
bool ra_json_escape(ra_buf *b, const uint8_t *s, size_t n);

#pragma clang assume_nonnull end

#endif
