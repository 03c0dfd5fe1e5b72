// A record source's lifetime (create, reserve, destroy), its lock, and the public accessors that
// read the source as a whole: counts, sizes, symbols, values and the last publish's updated IDs.
// Records are read through ra_records.c's accessors.
#include "ra_source.h"
#include "ra_symbols.h"
#include "ra_records.h"
#include "ra_heap.h"
#include "ra_alloc.h"
#include "ra_buf.h"
#include "ra_hash.h"
#include <pthread.h>

ra_source *ra_source_create(void) {
    ra_source *s = ra_calloc(1, sizeof *s);
    if (!s) return NULL;
    if (pthread_rwlock_init(&s->lock, NULL) != 0) {
        ra_dealloc(s);
        return NULL;
    }
    s->hkey = ra_process_hash_key();
    s->nsyms = 1;  // symbol 0 means "none"
    s->ntypes = 1;  // type 0 is the tombstone's
    s->texts = ra_text_cache_create();
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
    if (s->mapped) ra_source_release_mapping(s);  // (a snapshot's arrays in its mapping are not blocks to free)
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
    ra_text_cache_destroy(s->texts);
    pthread_rwlock_destroy(&s->lock);
    ra_dealloc(s);
}

void ra_source_read_lock(ra_source *s) { pthread_rwlock_rdlock(&s->lock); }
void ra_source_write_lock(ra_source *s) { pthread_rwlock_wrlock(&s->lock); }
void ra_source_unlock(ra_source *s) { pthread_rwlock_unlock(&s->lock); }

bool ra_source_reserve(ra_source *s, uint32_t syms, uint32_t indexed, size_t sym_bytes, uint32_t fields, size_t heap) {
    if (!ra_symbols_reserve(s, syms, indexed)) return false;
    // The heap first: the two ask for blocks of one size, and the one that asks first gets the
    // retained block with the most pages in (see ra_alloc.c), which the heap fills more of.
    if (!ra_buf_reserve(&s->heap, heap) || !ra_buf_reserve(&s->sym_bytes, sym_bytes)) return false;
    if ((uint64_t)s->nfields + fields >= UINT32_MAX) return false;
    return ra_grow((void **)&s->vals, &s->capfields, s->nfields + fields, sizeof(uint32_t));
}

// MARK: - Public accessors

ra_status ra_source_ensure_record(ra_source *s, const char *id, size_t id_len, const char *type, size_t type_len) {
    if (!ra_source_make_writable(s)) return RA_ERR_NOMEM;
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

uint32_t ra_source_record_count(const ra_source *s) { return s->nrecs; }
uint32_t ra_source_shape_count(const ra_source *s) { return s->shapes.n; }

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
    return ra_lookup(s, text, len, ra_text_hash(s, text, len));
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
