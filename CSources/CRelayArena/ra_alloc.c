// Every allocation of the C core (and yajl's, through yajl_alloc_funcs) goes through here and is
// counted, so tests can require the live count to come back to where it was: zero leaks, exactly.
// Blocks of 1 MiB and more (arenas, heaps, slot arrays) are mapped directly and grow with mremap:
// the pages move instead of being copied, and growth never holds two copies at once.
#define _GNU_SOURCE 1  // mremap
#include "ra_internal.h"
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>

static _Atomic int64_t live_blocks;

#define RA_MAP_MIN ((size_t)1 << 20)
#define RA_HEADER 16u
enum { KIND_HEAP = 0x48454150u, KIND_MAP = 0x4d415050u };

// Header before every block: its usable size and how it was obtained.
typedef struct header {
    size_t size;
    uint32_t kind;
    uint32_t pad;
} header;

_Static_assert(sizeof(header) == RA_HEADER, "header keeps blocks 16-byte aligned");

static size_t page_round(size_t n) { return (n + 4095) & ~(size_t)4095; }

static void *finish(header *h, size_t n, uint32_t kind) {
    h->size = n;
    h->kind = kind;
    atomic_fetch_add_explicit(&live_blocks, 1, memory_order_relaxed);
    return (uint8_t *)h + RA_HEADER;
}

static void *alloc(size_t n, bool zero) {
    if (n > SIZE_MAX / 2) return NULL;
    if (n >= RA_MAP_MIN) {
        void *m = mmap(NULL, page_round(n + RA_HEADER), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) return NULL;
        // Arenas are written front to back and read at random: huge pages cut the page faults
        // (half the time of a large ingest was the kernel's) and TLB misses. Advice only.
        (void)madvise(m, page_round(n + RA_HEADER), MADV_HUGEPAGE);
        return finish(m, n, KIND_MAP);  // mapped pages come zeroed
    }
    header *h = zero ? calloc(1, n + RA_HEADER) : malloc(n + RA_HEADER);
    return h ? finish(h, n, KIND_HEAP) : NULL;
}

void *ra_malloc(size_t n) { return alloc(n, false); }

void *ra_calloc(size_t count, size_t size) {
    if (size && count > SIZE_MAX / 2 / size) return NULL;
    return alloc(count * size, true);
}

void *ra_realloc(void *p, size_t n) {
    if (!p) return alloc(n, false);
    if (n > SIZE_MAX / 2) return NULL;
    header *h = (header *)((uint8_t *)p - RA_HEADER);
    if (h->kind == KIND_MAP && n >= RA_MAP_MIN) {
        void *m = mremap(h, page_round(h->size + RA_HEADER), page_round(n + RA_HEADER), MREMAP_MAYMOVE);
        if (m == MAP_FAILED) return NULL;
        ((header *)m)->size = n;
        return (uint8_t *)m + RA_HEADER;
    }
    if (h->kind == KIND_HEAP && n < RA_MAP_MIN) {
        header *q = realloc(h, n + RA_HEADER);
        if (!q) return NULL;
        q->size = n;
        return (uint8_t *)q + RA_HEADER;
    }
    // Crossing the threshold: one copy into the other kind of block.
    void *q = alloc(n, false);
    if (!q) return NULL;
    memcpy(q, p, h->size < n ? h->size : n);
    ra_dealloc(p);
    return q;
}

void ra_dealloc(void *p) {
    if (!p) return;
    header *h = (header *)((uint8_t *)p - RA_HEADER);
    atomic_fetch_sub_explicit(&live_blocks, 1, memory_order_relaxed);
    if (h->kind == KIND_MAP) munmap(h, page_round(h->size + RA_HEADER));
    else free(h);
}

int64_t ra_live_allocations(void) { return atomic_load_explicit(&live_blocks, memory_order_relaxed); }

static void *yajl_malloc_fn(void *ctx, size_t n) { (void)ctx; return ra_malloc(n); }
static void *yajl_realloc_fn(void *ctx, void *p, size_t n) { (void)ctx; return ra_realloc(p, n); }
static void yajl_free_fn(void *ctx, void *p) { (void)ctx; ra_dealloc(p); }

// Not const: yajl_alloc takes a mutable pointer (it only copies the struct).
yajl_alloc_funcs ra_yajl_alloc_funcs = {yajl_malloc_fn, yajl_realloc_fn, yajl_free_fn, NULL};
