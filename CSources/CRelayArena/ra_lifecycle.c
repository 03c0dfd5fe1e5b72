// A store's lifecycle: removing the records garbage collection did not reach (relay's sweep),
// measuring what the arena holds that no record does, and compaction, which rewrites the values
// and the heap to hold only what records hold. Symbols are kept (a removed record's data ID stays
// interned, unknown to readers): their numbers do not change, so nothing that holds a symbol
// (a reader's snapshot between publishes, a subscription's index) needs translating.
#include "ra_alloc.h"
#include "ra_heap.h"
#include "ra_records.h"
#include "ra_source.h"

/// Whether a slot's value lives in the heap (and so takes heap bytes a record holds).
static inline bool heap_tag(unsigned tag) {
    return tag == RA_TAG_NUMBER || tag == RA_TAG_STRING || tag == RA_TAG_REFS || tag == RA_TAG_JSON;
}

/// The bytes of the heap value at `off`, its length's bytes included.
static inline size_t heap_size(const ra_source *s, uint64_t off) {
    uint32_t len;
    const uint8_t *p = ra_heap_value(s, off, &len);
    return (size_t)(p - (s->heap.data + off)) + len;
}

ra_status ra_source_remove_unmarked(ra_source *s, const uint64_t *marked, uint32_t marked_words,
                                    uint32_t *_Nullable *_Nonnull removed, uint32_t *nremoved) {
    *removed = NULL;
    *nremoved = 0;
    if (s->nrecs == 0) return RA_OK;
    if (!ra_source_make_writable(s)) return RA_ERR_NOMEM;  // a snapshot's arrays are read-only
    // At most every record goes: one pass, into room for all of them.
    uint32_t *out = ra_malloc((size_t)s->nrecs * sizeof(uint32_t));
    if (!out) return RA_ERR_NOMEM;
    uint32_t k = 0;
    for (uint32_t i = 1; i < s->nsyms; i++) {
        bool keep = (i >> 6) < marked_words && (marked[i >> 6] >> (i & 63)) & 1;
        if (keep || !ra_has_record(s, i)) continue;
        // The record's values (and the room after them, if it was the tail) become garbage.
        if (s->tail == i + 1) s->tail = 0;
        s->syms[i].rec = (ra_record){.fields = RA_NO_RECORD};
        out[k++] = i;
    }
    s->nrecs -= k;
    if (k == 0) {
        ra_dealloc(out);
        return RA_OK;
    }
    *removed = out;
    *nremoved = k;
    return RA_OK;
}

ra_status ra_source_remove_records(ra_source *s, const uint32_t *syms, uint32_t n) {
    if (s->nrecs == 0) return RA_OK;
    if (!ra_source_make_writable(s)) return RA_ERR_NOMEM;  // a snapshot's arrays are read-only
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = syms[k];
        if (i == 0 || i >= s->nsyms || !ra_has_record(s, i)) continue;
        if (s->tail == i + 1) s->tail = 0;  // (as in ra_source_remove_unmarked)
        s->syms[i].rec = (ra_record){.fields = RA_NO_RECORD};
        s->nrecs--;
    }
    return RA_OK;
}

void ra_source_live_bytes(const ra_source *s, uint64_t *vals_bytes, uint64_t *heap_bytes) {
    uint64_t vals = 0, heap = 0;
    for (uint32_t i = 1; i < s->nsyms; i++) {
        if (!ra_has_record(s, i)) continue;
        const ra_record *r = &s->syms[i].rec;
        uint32_t count = ra_rec_count(s, r);
        vals += count;
        const uint32_t *words = ra_rec_words(s, r);
        for (uint32_t f = 0; f < count; f++)
            if (heap_tag((words[f] >> 28) & 0xF)) heap += heap_size(s, s->vals[r->fields + f]);
    }
    *vals_bytes = vals * sizeof(uint32_t);
    *heap_bytes = heap;
}

ra_status ra_source_compact(ra_source *s) {
    if (!ra_source_make_writable(s)) return RA_ERR_NOMEM;  // a snapshot's arrays are read-only
    uint64_t live_vals, live_heap;
    ra_source_live_bytes(s, &live_vals, &live_heap);
    uint32_t nvals = (uint32_t)(live_vals / sizeof(uint32_t));  // at most nfields: fits
    // Both new arrays are made before anything changes: out of memory leaves the source as it was.
    uint32_t *vals = ra_malloc((size_t)(nvals ? nvals : 1) * sizeof(uint32_t));
    ra_buf heap = {0};
    if (!vals || !ra_buf_reserve(&heap, live_heap ? live_heap : 1)) {
        ra_dealloc(vals);
        ra_buf_free(&heap);
        return RA_ERR_NOMEM;
    }
    uint32_t at = 0, tail = 0;
    for (uint32_t i = 1; i < s->nsyms; i++) {
        if (!ra_has_record(s, i)) continue;
        ra_record *r = &s->syms[i].rec;
        uint32_t count = ra_rec_count(s, r);
        const uint32_t *words = ra_rec_words(s, r);
        for (uint32_t f = 0; f < count; f++) {
            uint32_t payload = s->vals[r->fields + f];
            if (heap_tag((words[f] >> 28) & 0xF)) {
                // Each value is copied where a record holds it, its length's bytes with it (a
                // value two slots shared would be copied twice: still exact, never the case today).
                size_t size = heap_size(s, payload);
                uint32_t off = (uint32_t)heap.len;  // the new heap is no larger than the old
                memcpy(heap.data + heap.len, s->heap.data + payload, size);
                heap.len += size;
                payload = off;
            }
            vals[at + f] = payload;
        }
        r->fields = at;
        at += count;
        tail = i + 1;
    }
    ra_dealloc(s->vals);
    s->vals = vals;
    s->nfields = at;
    s->capfields = nvals ? nvals : 1;
    // The last record holds the end of the values (with no room to spare): it is the tail.
    s->tail = tail;
    ra_buf_free(&s->heap);
    s->heap = heap;
    memset(s->refs_room, 0, sizeof s->refs_room);  // (offsets moved)
    return RA_OK;
}

uint32_t ra_source_symbol_bound(const ra_source *s) { return s->nsyms; }

void ra_source_array_bytes(const ra_source *s, uint64_t *vals_bytes, uint64_t *heap_bytes) {
    *vals_bytes = (uint64_t)s->nfields * sizeof(uint32_t);
    *heap_bytes = s->heap.len;
}
