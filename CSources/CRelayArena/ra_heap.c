// Heap values' out-of-line writers: link lists, written as a run when their items are
// consecutive symbols (the inline writers and readers are in ra_heap.h).
#include "ra_heap.h"
#include "ra_records.h"
#include "ra_source.h"

uint64_t ra_refs_put_run(ra_source *s, uint32_t first, uint32_t count) {
    uint64_t off;
    uint8_t *p = ra_heap_alloc(s, RA_REFS_RUN_LEN, &off);
    if (!p) return 0;
    memcpy(p, &first, 4);
    memcpy(p + 4, &count, 4);
    p[8] = 0;
    return ra_make(RA_TAG_REFS, off);
}

uint64_t ra_heap_put_refs(ra_source *s, const uint32_t *syms, uint32_t count) {
    if (count > (UINT32_MAX - 4) / 4) return 0;
    if (count && ra_refs_is_run(syms[0], count)) {
        uint32_t i = 1;
        while (i < count && syms[i] == syms[0] + i) i++;
        if (i == count) return ra_refs_put_run(s, syms[0], count);
    }
    uint64_t off;
    uint8_t *p = ra_heap_alloc(s, count * 4, &off);
    if (!p) return 0;
    if (count) memcpy(p, syms, (size_t)count * 4);
    return ra_make(RA_TAG_REFS, off);
}
