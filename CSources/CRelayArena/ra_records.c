// Records: the type table, shapes (found and added by their words), records' values (made,
// grown, set, read), unnamed records, and the public accessors that read a record.
#include "ra_records.h"
#include "ra_heap.h"
#include "ra_alloc.h"
#include "ra_buf.h"
#include "ra_source.h"
#include "ra_symbols.h"

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

uint32_t ra_untyped_type(const ra_source *s) {
    uint32_t sym = ra_source_find_symbol(s, "", 0);
    return sym ? ra_type_find(s, sym) : 0;
}

uint32_t ra_untyped_type_add(ra_source *s) {
    uint32_t sym = ra_intern(s, "", 0);
    return sym ? ra_type_index(s, sym) : 0;
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
    t->probes = 0;
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
    while (t->map[j]) {
        j = (j + 1) & (t->map_cap - 1);
        t->probes++;
    }
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

uint32_t ra_shape_add_reserved(ra_source *s, const uint32_t *words, uint32_t count) {
    uint32_t k = ra_shape_table_add(&s->shapes, words, count, ra_shape_hash(s->hkey, words, count));
    // The probe bound (ra_symbols.c), for shapes: a rekey hashes them anew with the texts.
    if (__builtin_expect(ra_probes_exceed(s->shapes.probes, s->shapes.n), 0) && !ra_source_rekey(s)) s->shapes.probes = 0;
    return k;
}

uint32_t ra_shape_of(ra_source *s, const uint32_t *words, uint32_t count) {
    if (!count) return 0;
    uint32_t k = ra_shape_find(s, words, count, ra_shape_hash(s->hkey, words, count));
    if (k != RA_NONE) return k;
    if (!ra_shapes_reserve(s, 1, count)) return RA_NONE;
    return ra_shape_add_reserved(s, words, count);
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

void ra_record_trim(ra_source *s, uint32_t rec) {
    if (s->tail == rec + 1) s->nfields = ra_rec(s, rec)->fields + ra_rec_count(s, ra_rec(s, rec));
}

// MARK: - Public accessors of records

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
