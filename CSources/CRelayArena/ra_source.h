// A record source's layout: the struct every concept works on and the entries it is made of
// (symbol entries, record headers, derivation tables, shapes), with their limits. Its lifetime
// and source-wide public accessors are in ra_source.c, a snapshot's mapping in
// ra_source_mapping.c; the operations on each part in ra_symbols.h, ra_records.h and ra_heap.h
// (value words and slots: ra_value.h). The arena format is described in ARENA.md.
#ifndef RA_SOURCE_H
#define RA_SOURCE_H

#include "relay_arena.h"
#include "ra_buf.h"
#include "ra_hash.h"
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#pragma clang assume_nonnull begin

#define RA_MAX_SYMBOLS 0x0FFFFFF0u  // index slots keep 28 bits of symbol (ra_symbols.c)
#define RA_MAX_FIELDS_PER_RECORD 0x7FFFu  // values of a record (and its `id` bit: 2^15 fields)
#define RA_MAX_TYPES 0x7FFFu             // typenames of one source (ra_record.type keeps 15 bits)
#define RA_MAX_HEAP UINT32_MAX  // heap bytes of one source: its offsets are a slot's 32-bit payload

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
    uint64_t probes;         // map slots passed by adds since the map was built (the probe bound, ra_symbols.c)
} ra_shape_table;

struct ra_source {
    ra_hash_key hkey;        // the key of its texts' and shapes' hashes (ra_hash.h; kept in its snapshots)
    uint32_t rekeys;         // times the probe bound gave it a fresh key (ra_symbols.c): 0 but under attack
    uint32_t probe_base;     // nindexed when the index was last built
    uint64_t probes;         // index slots passed by inserts since then (the probe bound)
    uint64_t probes_total;   // and since the source was made (ra_source_probe_count)
    ra_buf sym_bytes;
    ra_symbol *syms;         // syms[0] unused
    uint32_t nsyms, capsyms;
    uint32_t *index;         // open addressing over symbol ids: texts, and overflowed derivations
    uint32_t index_cap;      // slots (any number: see ra_slot_home)
    uint32_t nindexed;       // symbols in the index, or on their way (`unindexed`)
    uint64_t *bloom;         // a filter over the text symbols' hashes (NULL: none; see ra_symbols.c)
    uint32_t bloom_words;
    uint32_t nunindexed;     // new texts not in the index yet: inserted in a batch (ra_symbols.c)
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
    // Link lists a page merge grew (ra_source_splice_refs), written with room after their items
    // so the next page goes in place: each list's heap offset and the items its room holds
    // (0: none). Forgotten whenever heap offsets may change (compaction, a consuming publish).
    struct { uint32_t off, cap; } refs_room[16];
    uint32_t refs_room_next;
    uint32_t *updated;       // symbols updated by the last publish
    uint32_t nupdated, capupdated;
    struct ra_text_cache *texts;  // derived symbols' texts, written out on request (ra_text_cache.c)
    // A source opened from a snapshot reads its arrays in place (ra_snapshot_open.c): `mapped` is
    // the file's bytes, read into a block of its own, which sym_bytes, syms, index,
    // dtabs, dslots, vals, shapes.at/words, types and heap point into (read-only) until the first
    // write copies them out (ra_source_make_writable). The source owns it (ra_source_mapping.c).
    // NULL: every array is the source's own.
    void *_Nullable mapped;
    size_t mapped_len;
    pthread_rwlock_t lock;
};

/// Makes a source opened from a snapshot writable: copies the arrays that point into its mapping
/// into blocks of its own and drops the mapping (ra_source_mapping.c). A no-op for any other
/// source. Every public function that writes into a source calls it first (publish,
/// ensure_record): a new one must too. False on OOM (the source unchanged).
bool ra_source_make_writable(ra_source *s);
/// Drops a snapshot's mapping and forgets the arrays in it (ra_source_destroy's first step).
void ra_source_release_mapping(ra_source *s);
/// Forgets the arrays that point into the mapping (NULL, counts 0), leaving the mapping itself
/// alone: for a source given up before it owns the bytes (ra_snapshot_open.c's failure path).
void ra_source_forget_mapped_arrays(ra_source *s);

/// Room for that many more symbols (`indexed` of them texts, the rest derived; a data ID's record
/// is in its entry) and their bytes, values and heap bytes, so a payload of known size grows its
/// arrays once. false on OOM / past the limits.
bool ra_source_reserve(ra_source *s, uint32_t syms, uint32_t indexed, size_t sym_bytes, uint32_t fields, size_t heap);

#pragma clang assume_nonnull end

#endif
