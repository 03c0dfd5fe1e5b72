// Records: the type table, shapes (the keys and tags records share) and records themselves,
// named by their data ID's symbol or unnamed while the normalizer makes them (ra_records.c). The
// slots their values are packed as, and the value words, are ra_value.h's.
#ifndef RA_RECORDS_H
#define RA_RECORDS_H

#include "ra_source.h"
#include "ra_value.h"
#include "ra_buf.h"
#include "ra_hash.h"

#pragma clang assume_nonnull begin

/// The index of the shape of these words in `t`, else RA_NONE.
uint32_t ra_shape_table_find(const ra_shape_table *t, const uint32_t *words, uint32_t count, uint32_t hash);
/// Room for `extra` more shapes of `words` words in all, so that adding them cannot fail.
bool ra_shape_table_reserve(ra_shape_table *t, uint32_t extra, uint64_t words);
/// Adds a shape `t` does not have, with room reserved; its index.
uint32_t ra_shape_table_add(ra_shape_table *t, const uint32_t *words, uint32_t count, uint32_t hash);
void ra_shape_table_free(ra_shape_table *t);

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
static inline uint32_t ra_shape_hash(ra_hash_key key, const uint32_t *words, uint32_t count) {
    return ra_hash(key, words, (size_t)count * 4);
}
/// Makes room for `extra` more shapes of `words` words in all, so that adding them cannot fail.
bool ra_shapes_reserve(ra_source *s, uint32_t extra, uint64_t words);
/// Adds a shape the source does not have (ra_shape_find said so), with room reserved. Its hash is
/// taken anew: the adds of one publish may rekey the store between them (the probe bound).
uint32_t ra_shape_add_reserved(ra_source *s, const uint32_t *words, uint32_t count);
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
/// The type index of a record with no `__typename` (relay's records made by updaters, older
/// stores): the typename symbol of the empty text, which no GraphQL type has (the normalizer
/// refuses an empty `__typename`). 0 when the source has no such record type.
uint32_t ra_untyped_type(const ra_source *s);
/// ra_untyped_type, added to the table when new; 0 on OOM or past RA_MAX_TYPES.
uint32_t ra_untyped_type_add(ra_source *s);
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
/// Appends a free entry to the unnamed table (ra_records.c). False on OOM / past RA_MAX_UNNAMED.
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

#pragma clang assume_nonnull end

#endif
