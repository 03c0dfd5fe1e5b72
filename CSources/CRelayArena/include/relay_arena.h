// Public C interface of the RelayArena core: record sources (the arena), normalization plans,
// the streaming yajl normalizer, publish (field-level merge) and relay toJSON import/export.
#ifndef RELAY_ARENA_H
#define RELAY_ARENA_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma clang assume_nonnull begin

// MARK: - Status and errors

typedef enum ra_status {
    RA_OK = 0,
    RA_ERR_NOMEM = 1,       // an allocation failed
    RA_ERR_JSON = 2,        // malformed, truncated or non-UTF-8 JSON
    RA_ERR_SHAPE = 3,       // a value of the wrong kind for its selection
    RA_ERR_ID = 4,          // a data ID that is not a string
    RA_ERR_DUPLICATE_KEY = 5,
    RA_ERR_DEPTH = 6,       // nesting past the depth limit
    RA_ERR_SIZE = 7,        // input past the size limit
    RA_ERR_TYPENAME = 8,    // an abstract field's object without a string __typename
    RA_ERR_PLAN = 9,        // a malformed plan (a bug in the caller)
    RA_ERR_STATE = 10,      // API misuse (feed after finish, ...)
    RA_ERR_RESPONSE = 11,   // response without data, data not an object, ...
    RA_ERR_LIMIT = 12,      // an internal limit (symbol count, record size, out-of-line value bytes)
    RA_ERR_SNAPSHOT = 13,   // a snapshot file that is truncated, corrupt, of a newer version or no snapshot
    RA_ERR_IO = 14,         // a file could not be read or written (the message has the cause)
} ra_status;

typedef struct ra_error {
    ra_status code;
    /// Byte offset in the input where the problem was found (0 when not about input).
    uint64_t offset;
    /// Response path (`data.user.todos.edges.3`), empty when not known.
    char path[512];
    char message[512];
} ra_error;

// MARK: - Values
//
// A field value is one 64-bit word with the tag in the top 4 bits (see ARENA.md). 0 means absent.

enum {
    RA_TAG_ABSENT = 0,
    RA_TAG_NULL = 1,
    RA_TAG_TRUE = 2,
    RA_TAG_FALSE = 3,
    RA_TAG_INT = 4,     // payload: 60-bit two's complement integer (the arena keeps 32-bit ones inline)
    RA_TAG_NUMBER = 5,  // payload: heap offset of the number's text as received (floats, wider integers)
    RA_TAG_STRING = 6,  // payload: heap offset of the UTF-8 bytes
    RA_TAG_REF = 7,     // payload: symbol of the linked data ID
    RA_TAG_REFS = 8,    // payload: heap offset of the list (read it with ra_source_refs_*: a run of consecutive symbols is kept as its first and count)
    RA_TAG_JSON = 9,    // payload: heap offset of minified JSON text (lists, custom scalars)
    RA_TAG_IDSTR = 10,  // payload: symbol; a string whose text is that symbol's (a record's `id`, its data ID)
};

#define RA_NULL_REF 0u

static inline unsigned ra_value_tag(uint64_t v) { return (unsigned)(v >> 60); }
static inline uint64_t ra_value_payload(uint64_t v) { return v & 0x0FFFFFFFFFFFFFFFull; }
static inline int64_t ra_value_int(uint64_t v) { return ((int64_t)(v << 4)) >> 4; }
/// Asks for the cache line at `p` ahead of use (Swift has no prefetch of its own).
static inline void ra_prefetch(const void *_Nullable p) { if (p) __builtin_prefetch(p); }

typedef struct ra_bytes_ref {
    const uint8_t *_Nullable ptr;
    size_t len;
} ra_bytes_ref;

// MARK: - Record sources

/// A record source: the store, or the delta one payload normalizes into. One writer, many
/// readers: callers take the lock around reads and writes of a shared store.
typedef struct ra_source ra_source;

ra_source *_Nullable ra_source_create(void);
void ra_source_destroy(ra_source *_Nullable src);

void ra_source_read_lock(ra_source *src);
void ra_source_write_lock(ra_source *src);
void ra_source_unlock(ra_source *src);

/// Adds (or keeps) a record with this ID and type; returns RA_OK or RA_ERR_NOMEM / RA_ERR_LIMIT.
ra_status ra_source_ensure_record(ra_source *src, const char *id, size_t id_len, const char *type,
                                  size_t type_len);

/// Number of data IDs in the source (records and tombstones).
uint32_t ra_source_record_count(const ra_source *src);
/// Bytes held by the arena (symbols, records, fields, heap), garbage included.
uint64_t ra_source_arena_bytes(const ra_source *src);
/// Bytes of field values (part of ra_source_arena_bytes) that hold no record's field: the values
/// a record left behind when it grew, room it was given and did not fill. Walks the symbol table.
uint64_t ra_source_unused_slot_bytes(const ra_source *src);

/// Record shapes in the source (the keys and value tags that records with the same fields share;
/// shape 0 has none). At most 65,536.
uint32_t ra_source_shape_count(const ra_source *src);

/// Symbol lookup: 0 when the text was never interned.
uint32_t ra_source_find_symbol(const ra_source *src, const char *text, size_t len);
ra_bytes_ref ra_source_symbol_text(const ra_source *src, uint32_t sym);

/// Record lookup by data ID symbol: the record's index, -1 when unknown. A record is kept in its
/// data ID's symbol entry, so its index is that symbol.
int64_t ra_source_record_for_symbol(const ra_source *src, uint32_t sym);
/// The record at `index` (its data ID's symbol: records are in data-ID order): its data ID symbol,
/// type symbol (0 for a tombstone) and field count. Returns 0 when that symbol has no record.
int ra_source_record_at(const ra_source *src, uint32_t index, uint32_t *id_sym, uint32_t *type_sym,
                        uint32_t *field_count);
/// The value stored under `key_sym` on the record, 0 (absent) when there is none.
uint64_t ra_source_record_field(const ra_source *src, uint32_t index, uint32_t key_sym);
void ra_source_record_field_at(const ra_source *src, uint32_t index, uint32_t i, uint32_t *key_sym,
                               uint64_t *value);

/// The bytes of a STRING, NUMBER or JSON value.
ra_bytes_ref ra_source_value_bytes(const ra_source *src, uint64_t value);
/// The elements of a REFS value.
uint32_t ra_source_refs_count(const ra_source *src, uint64_t value);
uint32_t ra_source_refs_at(const ra_source *src, uint64_t value, uint32_t i);

/// Merges `delta` into `store` field by field (relay's RelayModernRecord.update) and records
/// the data IDs that changed (see ra_source_updated_*). Atomic: on error the store is unchanged.
ra_status ra_source_publish(ra_source *store, const ra_source *delta, ra_error *err);
/// ra_source_publish for a delta nobody else will publish: into a store that holds only its root
/// record, the store takes the delta's arena instead of copying it (the delta is left empty).
ra_status ra_source_publish_consuming(ra_source *store, ra_source *delta, ra_error *err);
uint32_t ra_source_updated_count(const ra_source *store);
uint32_t ra_source_updated_at(const ra_source *store, uint32_t i);
/// All of them at once: the caller owns the array (free it with ra_free) and the store starts
/// a new one at its next publish; `*count` gets their number. NULL when there are none.
uint32_t *_Nullable ra_source_take_updated(ra_source *store, uint32_t *count);

// The store's lifecycle (ra_lifecycle.c). Call under the write lock, ra_source_live_bytes under
// the read lock at least.

/// relay's GC sweep: removes the record of every data ID whose symbol's bit is not set in
/// `marked` (bit i of word i/64; symbols past the bitmap count as unmarked): the IDs become
/// unknown, not tombstones, and their values garbage. `*removed` gets the removed symbols, in
/// order (free with ra_free; NULL when none), `*nremoved` their number. RA_ERR_NOMEM leaves the
/// store unchanged.
ra_status ra_source_remove_unmarked(ra_source *src, const uint64_t *marked, uint32_t marked_words,
                                    uint32_t *_Nullable *_Nonnull removed, uint32_t *nremoved);
/// Removes the records of `syms` (a symbol with none, or out of range, is skipped): their data IDs
/// become unknown and their values garbage, as a sweep leaves them. What an optimistic update's
/// rollback does before it publishes the records as they were. RA_ERR_NOMEM (a snapshot's arrays
/// copied out first) leaves the store unchanged.
ra_status ra_source_remove_records(ra_source *src, const uint32_t *_Nullable syms, uint32_t n);
/// Writes the link list under `key_sym` of the record `rec_sym` as `front`, the list's items, then
/// `back`: a connection's page merge, its edges never leaving the arena. The list is written with
/// room after its items, and a list that has room for `back` (and no `front`) grows in place, so a
/// page costs what it adds, not the list's length. RA_ERR_STATE when the record has no link list
/// under that key; RA_ERR_NOMEM / RA_ERR_LIMIT (heap full) leave the source as it was.
ra_status ra_source_splice_refs(ra_source *src, uint32_t rec_sym, uint32_t key_sym, const uint32_t *_Nullable front,
                                uint32_t nfront, const uint32_t *_Nullable back, uint32_t nback);
/// The bytes of values and heap values that records hold (what compaction keeps of `vals` and
/// the heap).
void ra_source_live_bytes(const ra_source *src, uint64_t *vals_bytes, uint64_t *heap_bytes);
/// The bytes of `vals` and of the heap as they are (garbage included).
void ra_source_array_bytes(const ra_source *src, uint64_t *vals_bytes, uint64_t *heap_bytes);
/// Rewrites the values and the heap to hold only what records hold, in record order; symbols,
/// shapes and types are kept, so every symbol keeps its number. RA_ERR_NOMEM leaves the store
/// unchanged.
ra_status ra_source_compact(ra_source *src);
/// Symbols the source holds, plus one: symbols are 1 ..< this (0 means none).
uint32_t ra_source_symbol_bound(const ra_source *src);

/// relay RecordSource.toJSON() text of the whole source. The caller frees `*out` with ra_free.
ra_status ra_source_export_json(const ra_source *src, uint8_t *_Nullable *_Nonnull out, size_t *out_len);
/// The same text and a newline written to `fd`, a buffer at a time (a long value too): RA_ERR_IO
/// with the write's errno in `*error` when a write fails, RA_ERR_NOMEM.
ra_status ra_source_write_json(const ra_source *src, int fd, int *_Nullable error);
/// The same for the records of `syms` alone, in that order (symbols with no record are skipped):
/// what an optimistic update keeps to roll back to.
ra_status ra_source_export_records_json(const ra_source *src, const uint32_t *_Nullable syms, uint32_t n,
                                        uint8_t *_Nullable *_Nonnull out, size_t *out_len);
/// Builds a source from relay toJSON text. NULL on error (err filled).
ra_source *_Nullable ra_source_import_json(const uint8_t *_Nullable bytes, size_t len, uint32_t max_depth,
                                           ra_error *err);

/// Snapshots (ra_snapshot_write.c, ra_snapshot_open.c; the format is in ARENA.md): writes `src`
/// (a store, or a finished payload's delta) to `path` atomically: a temporary file in the same
/// directory, fsync'd, renamed over `path`, the directory fsync'd. On error (RA_ERR_IO,
/// RA_ERR_NOMEM, RA_ERR_STATE) the previous file is whole and no temporary file is left.
ra_status ra_source_write_snapshot(const ra_source *src, const char *path, ra_error *err);
/// The snapshot file's bytes in memory; the caller frees `*out` with ra_free.
ra_status ra_source_snapshot_bytes(const ra_source *src, uint8_t *_Nullable *_Nonnull out, size_t *out_len);
/// Opens a snapshot file: maps it, verifies its header, checksum and every bound, and reads its
/// arrays in place (the first write copies them out). NULL on error: RA_ERR_SNAPSHOT (which check
/// failed, `offset` the file offset it applies to), RA_ERR_IO, RA_ERR_NOMEM.
ra_source *_Nullable ra_source_open_snapshot(const char *path, ra_error *err);
/// ra_source_open_snapshot of bytes in memory (copied).
ra_source *_Nullable ra_source_load_snapshot(const uint8_t *_Nullable bytes, size_t len, ra_error *err);
/// Whether `bytes` start as a snapshot does (its magic; `len` may be shorter than the magic).
bool ra_snapshot_sniff(const uint8_t *_Nullable bytes, size_t len);
/// Rewrites the checksum of the snapshot bytes (tests and the fuzzer: structural checks past
/// the checksum). False when the bytes are too short to hold one.
bool ra_snapshot_fix_checksum(uint8_t *bytes, size_t len);

void ra_free(void *_Nullable p);

/// Hashing: every table keyed by input text hashes it under a random key no input can learn,
/// drawn once a process and carried by each source and its snapshots; a source whose inserts
/// probe further than a random key makes is rekeyed. ra_set_hash_key fixes the key that sources
/// made from now on take (tests and benchmarks that play an attacker who knows it; a program
/// never needs it). ra_source_rekey_count says how often the bound rekeyed a source,
/// ra_source_probe_count how many index slots its inserts and rebuilds passed in all.
void ra_set_hash_key(uint64_t k0, uint64_t k1);
uint32_t ra_source_rekey_count(const ra_source *src);
uint64_t ra_source_probe_count(const ra_source *src);

// MARK: - Plans
//
// A normalization plan with variables already bound: storage keys are final strings and
// @skip/@include are resolved. Selections of one set may share a response key; each carries the
// type conditions (AND) under which it applies.

enum {
    RA_SEL_SCALAR = 0,
    RA_SEL_LINKED = 1,
    RA_SEL_PLURAL = 2,
};
enum {
    RA_SHAPE_ANY = 0,      // custom scalar: any JSON value
    RA_SHAPE_SCALAR = 1,   // built-in scalar: no object, no array
    RA_SHAPE_LIST = 2,     // list of built-in scalars: no object
};
enum {
    RA_COND_TYPE_IS = 0,   // the record's type equals `name`
    RA_COND_HAS_KEY = 1,   // the response object has the key `name` (an __isX discriminator)
};
#define RA_NONE 0xFFFFFFFFu

typedef struct ra_plan_string { uint32_t offset, length; } ra_plan_string;
typedef struct ra_plan_set { uint32_t sel_first, sel_count, check_first, check_count; } ra_plan_set;
typedef struct ra_plan_sel {
    uint32_t kind;           // RA_SEL_*
    uint32_t response_key;   // string index
    uint32_t storage_key;    // string index
    uint32_t concrete_type;  // string index, RA_NONE for an abstract linked field
    uint32_t child_set;      // set index for linked fields
    uint32_t shape;          // RA_SHAPE_* for scalars
    uint32_t cond_first, cond_count;
} ra_plan_sel;
typedef struct ra_plan_cond { uint32_t kind, name; } ra_plan_cond;
/// Record `client:__type:<record type>.<abstract_key> = has(abstract_key)` when the conds hold.
typedef struct ra_plan_check { uint32_t abstract_key, cond_first, cond_count; } ra_plan_check;

typedef struct ra_plan ra_plan;

/// Copies and validates the arrays. Set 0 is the root. NULL on error (err filled).
ra_plan *_Nullable ra_plan_create(const char *strings, size_t strings_len,
                                  const ra_plan_string *string_table, uint32_t string_count,
                                  const ra_plan_set *sets, uint32_t set_count,
                                  const ra_plan_sel *sels, uint32_t sel_count,
                                  const ra_plan_cond *_Nullable conds, uint32_t cond_count,
                                  const ra_plan_check *_Nullable checks, uint32_t check_count,
                                  ra_error *err);
void ra_plan_destroy(ra_plan *_Nullable plan);

// MARK: - Normalizer

typedef struct ra_limits {
    uint32_t max_depth;   // JSON nesting (objects + arrays)
    uint64_t max_bytes;   // response size
} ra_limits;

typedef struct ra_normalizer ra_normalizer;

/// A normalizer for one response, onto the root record `root_id` (`client:root` for queries).
ra_normalizer *_Nullable ra_normalizer_create(const ra_plan *plan, const char *root_id, size_t root_len,
                                              ra_limits limits);
/// Tells the normalizer how large the whole response will be (when the caller knows: a buffer, a
/// file), so the delta's arrays are sized once instead of doubling (and rehashing) as they fill.
/// A hint only: reservations are address space until written (under strict overcommit they
/// count against the commit limit), and a wrong hint costs nothing but that; hints past 16 GiB
/// are ignored. Call before the first feed.
void ra_normalizer_expect(ra_normalizer *n, uint64_t total_bytes);
/// Feeds the next chunk. On failure the normalizer is done; read ra_normalizer_error.
ra_status ra_normalizer_feed(ra_normalizer *n, const uint8_t *_Nullable bytes, size_t len);
/// Ends the input, finishes the delta (attaches response errors) and hands it over: on RA_OK
/// `*delta` is the caller's (free it with ra_source_destroy) and the normalizer keeps nothing of
/// it, so destroy the normalizer at once (its parser, stacks and staging go with it). On failure
/// `*delta` is NULL; read ra_normalizer_error.
ra_status ra_normalizer_finish(ra_normalizer *n, ra_source *_Nullable *_Nonnull delta);
const ra_error *ra_normalizer_error(const ra_normalizer *n);
/// Bytes yajl has lexed for this response so far: each feed's, plus those of an unfinished token
/// it was holding, which it lexes again from its start. A token that spans chunks is handed over
/// in gathered pieces, so this stays within a small multiple of the response's size however it
/// is chunked (a diagnostic: tests hold it to that bound).
uint64_t ra_normalizer_lexed_bytes(const ra_normalizer *n);
/// relay's `idCollision.typename` for a finished payload: how many of its records were reached
/// again as another type (a strong ID given to two types), with the first `max` of them (at most
/// 16 are kept): the data ID and the previous and new type, as symbols of the finished delta.
uint32_t ra_normalizer_id_collisions(const ra_normalizer *n, uint32_t *_Nullable ids, uint32_t *_Nullable previous,
                                     uint32_t *_Nullable next, uint32_t max);
void ra_normalizer_destroy(ra_normalizer *_Nullable n);

// MARK: - Allocation accounting

/// Blocks the C core (and yajl under it) currently holds; tests require it to return to its
/// starting value once every source, plan and normalizer is destroyed.
int64_t ra_live_allocations(void);

/// Large blocks (256 KiB and more) that sources and normalizers have freed are kept, for the next
/// ones to reuse without the kernel's unmap, fault and zeroing: their written pages up to a limit
/// (256 MiB unless set); past it the oldest blocks give back pages but stay mapped (64 blocks at
/// most). ra_release_retained_memory() unmaps them now; a limit of 0 keeps none.
void ra_release_retained_memory(void);
uint64_t ra_retained_memory_bytes(void);
/// How many freed blocks are kept mapped (past the limit, kept blocks give back pages, not
/// their mappings).
uint32_t ra_retained_memory_blocks(void);
void ra_set_retained_memory_limit(uint64_t bytes);

#pragma clang assume_nonnull end

#ifdef __cplusplus
}
#endif
#endif
