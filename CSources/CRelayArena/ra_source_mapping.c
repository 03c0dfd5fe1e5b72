// A source's mapping: the snapshot file's bytes (read into one block, never mapped: see
// ra_source_open_snapshot) that a source opened from one
// reads its arrays in place from. The source owns it from the open on: the first write copies
// the arrays out into blocks of their own and drops it (ra_source_make_writable), and destroying
// the source drops it (ra_source_release_mapping). The snapshot files only hand it over.
#include "ra_source.h"
#include "ra_alloc.h"
#include <string.h>

// Which arrays of a snapshot's source point into its mapping: where each pointer is, and its bytes
// (the arrays ra_snapshot_open.c points into the file; the index is the third).
#define MAPPED_NARRAYS 10
enum { MAPPED_INDEX = 2 };
#define MAPPED_ARRAYS(s)                                                                                        \
    {                                                                                                           \
        {(void **)&(s)->sym_bytes.data, (s)->sym_bytes.len}, {(void **)&(s)->syms, (size_t)(s)->nsyms * 16},     \
            {(void **)&(s)->index, (size_t)(s)->index_cap * 4},                                                 \
            {(void **)&(s)->dtabs, (size_t)(s)->dtab_cap * sizeof(ra_dtable)},                                  \
            {(void **)&(s)->dslots, (size_t)(s)->ndslots * 4}, {(void **)&(s)->vals, (size_t)(s)->nfields * 4}, \
            {(void **)&(s)->shapes.at, (size_t)(s)->shapes.n * sizeof(ra_shape)},                               \
            {(void **)&(s)->shapes.words, (size_t)(s)->shapes.nwords * 4},                                      \
            {(void **)&(s)->types, (size_t)(s)->ntypes * 4}, {(void **)&(s)->heap.data, (s)->heap.len},          \
    }
typedef struct mapped_array {
    void **at;
    size_t bytes;
} mapped_array;

static void drop_mapping(ra_source *s) {
    ra_dealloc(s->mapped);
    s->mapped = NULL;
    s->mapped_len = 0;
}

bool ra_source_make_writable(ra_source *s) {
    if (!s->mapped) return true;
    mapped_array a[MAPPED_NARRAYS] = MAPPED_ARRAYS(s);
    void *copies[MAPPED_NARRAYS] = {0};
    for (int i = 0; i < MAPPED_NARRAYS; i++) {
        if (!a[i].bytes) continue;
        // (The index is read at random: a large one gets huge pages, as ra_index_grow's does.)
        copies[i] = i == MAPPED_INDEX ? ra_calloc_table(a[i].bytes / 4, 4) : ra_malloc(a[i].bytes);
        if (!copies[i]) {
            for (int j = 0; j < i; j++) ra_dealloc(copies[j]);
            return false;
        }
        memcpy(copies[i], *a[i].at, a[i].bytes);
    }
    for (int i = 0; i < MAPPED_NARRAYS; i++) *a[i].at = copies[i];
    drop_mapping(s);
    return true;
}

void ra_source_release_mapping(ra_source *s) {
    ra_source_forget_mapped_arrays(s);
    drop_mapping(s);
}

void ra_source_forget_mapped_arrays(ra_source *s) {
    mapped_array a[MAPPED_NARRAYS] = MAPPED_ARRAYS(s);
    for (int i = 0; i < MAPPED_NARRAYS; i++) *a[i].at = NULL;
    s->sym_bytes.len = s->sym_bytes.cap = s->heap.len = s->heap.cap = 0;
    s->nsyms = s->capsyms = s->ndslots = s->capdslots = s->nfields = s->capfields = 0;
    s->shapes.n = s->shapes.cap = s->shapes.nwords = s->shapes.capwords = s->ntypes = s->captypes = 0;
    s->index_cap = s->dtab_cap = 0;
}
