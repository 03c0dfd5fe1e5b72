// Heap values: a source's variable-size values (strings, numbers' and JSON's text) after their
// length, and link lists, written as runs when their items are consecutive symbols (ra_heap.c).
#ifndef RA_HEAP_H
#define RA_HEAP_H

#include "ra_source.h"
#include "ra_value.h"
#include "ra_buf.h"

#pragma clang assume_nonnull begin

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

#pragma clang assume_nonnull end

#endif
