// Every allocation of the C core (and yajl's, through yajl_alloc_funcs) goes through here and is
// counted, so tests can require the live count to come back to where it was: zero leaks, exactly.
//
// Blocks of 256 KiB and more (arenas, heaps, slot arrays, indexes) are mapped directly and grow with mremap:
// the pages move instead of being copied, and growth never holds two copies at once.
//
// Freed mapped blocks are kept, up to a limit (256 MiB unless set, counting the bytes that were
// written, not the address space reserved), for the next arena to reuse: a
// batch job that normalizes one response after another then writes into pages it already owns,
// instead of paying the kernel to unmap them, fault them in again and zero them (a fifth of a
// 100k-todo ingest's time was that). ra_release_retained_memory() hands them back. Under
// AddressSanitizer retained blocks are poisoned, so a stale pointer into one is still reported.
#define _GNU_SOURCE 1  // mremap
#include "ra_alloc.h"
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/asan_interface.h>
#define RA_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define RA_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#endif
#endif
#ifndef RA_POISON
#define RA_POISON(p, n) ((void)(p), (void)(n))
#define RA_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

static _Atomic int64_t live_blocks;

#define RA_MAP_MIN ((size_t)1 << 18)
#define RA_HEADER 16u
// KIND_TABLE: a mapped block read at random (ra_calloc_table), given huge pages from 1 MiB.
enum { KIND_HEAP = 0x48454150u, KIND_MAP = 0x4d415050u, KIND_TABLE = 0x5441424cu };

// Header before every block: its usable size and how it was obtained; a mapped block also
// records how many bytes are mapped (a reused block may have more than its size needs).
typedef struct header {
    size_t size;
    uint32_t kind;
    uint32_t mapped_pages;
} header;

_Static_assert(sizeof(header) == RA_HEADER, "header keeps blocks 16-byte aligned");

#define RA_PAGE ((size_t)4096)
#define RA_HUGE_PAGE ((size_t)2 << 20)
#define RA_RETAIN_SLOTS 64

static size_t page_round(size_t n) { return (n + RA_PAGE - 1) & ~(RA_PAGE - 1); }
static size_t mapped_bytes(const header *h) { return (size_t)h->mapped_pages * RA_PAGE; }

// Huge pages cut the page faults of fresh memory and the TLB misses (a page walk costs the most
// in a virtual machine): a 1M-todo ingest in a loop runs ~4% faster with its arrays in them. The
// kernel gives them only to aligned 2 MiB runs inside a mapping, so such a block is mapped at a
// huge-page boundary and rounded up to whole huge pages. But a huge page is faulted in whole: at
// the end of an array still being written, half a huge page on average is held for nothing,
// which over a 100k-todo store's dozen arrays came to 0.4x the store. So an array gets huge pages
// from 32 MiB (where that is at most ~3% of it), and a table read at random (ra_calloc_table: a
// payload's Bloom filter, an index), which is written all over, from 1 MiB: a million IDs'
// 1.4 MiB filter, one random word read per ID, had no huge page before it was rounded up.
static bool in_huge_pages(size_t bytes, bool table) {
    return bytes >= (table ? RA_HUGE_PAGE / 2 : 16 * RA_HUGE_PAGE);
}
static size_t huge_round(size_t bytes, bool table) {
    return in_huge_pages(bytes, table) ? (bytes + RA_HUGE_PAGE - 1) & ~(RA_HUGE_PAGE - 1) : bytes;
}

// Retained blocks, oldest first. Only blocks of 256 KiB and more pass through here, a dozen per
// payload, so one mutex is no contention.
static pthread_mutex_t retain_lock = PTHREAD_MUTEX_INITIALIZER;
static struct retained {
    void *base;
    size_t bytes;     // mapped
    size_t resident;  // at most this much of it was written (what the limit counts)
    size_t last;      // the size its last holder asked for
    bool table;       // in huge pages (KIND_TABLE)
} retained[RA_RETAIN_SLOTS];
static size_t nretained, retained_total;
static size_t retain_limit = (size_t)256 << 20;

static void retained_remove(size_t i) {
    retained_total -= retained[i].resident;
    memmove(&retained[i], &retained[i + 1], (nretained - i - 1) * sizeof retained[0]);
    nretained--;
}

// A retained block of at least `bytes` and not much more (a small array must not pin a large
// mapping), or NULL. A payload asks for the same sizes as the last one, array by array, and each
// array should get back the block it filled, its pages still in. So a block whose last holder
// asked for exactly `bytes` comes first, the one with the most pages in among those (two arrays
// of one size, a full one and an idle one, must not trade blocks); else the smallest that fits,
// the one with the fewest pages in among equals (leaving full blocks to their own arrays).
static bool better_fit(const struct retained *a, const struct retained *b, size_t bytes) {
    bool ea = a->last == bytes, eb = b->last == bytes;
    if (ea != eb) return ea;
    if (ea) return a->resident > b->resident;
    if (a->bytes != b->bytes) return a->bytes < b->bytes;
    return a->resident < b->resident;
}

// A table takes only a table's block, an array only an array's (their pages differ).
static void *retained_take(size_t bytes, bool table, size_t *got) {
    pthread_mutex_lock(&retain_lock);
    size_t best = nretained;
    for (size_t i = 0; i < nretained; i++) {
        size_t have = retained[i].bytes;
        if (retained[i].table == table && have >= bytes && have / 4 <= bytes + RA_MAP_MIN &&
            (best == nretained || better_fit(&retained[i], &retained[best], bytes)))
            best = i;
    }
    void *m = NULL;
    if (best < nretained) {
        m = retained[best].base;
        *got = retained[best].bytes;
        retained_remove(best);
    }
    pthread_mutex_unlock(&retain_lock);
    if (m) RA_UNPOISON(m, *got);
    return m;
}

// Keeps a freed mapping for reuse; unmaps what is not kept (outside the lock). `resident`: the
// bytes of it that may hold pages. Past the budget, the oldest kept blocks give back the pages at
// their tails but stay mapped: the next payload asks for blocks of the same sizes, and a block
// unmapped whole would leave it no block of the size it needs (a fresh mapping, every page
// faulted in again) while a smaller kept block sat idle. The pages given back are the budget's
// excess either way. (Under the lock: a block taken meanwhile must not lose what is written.)
static void retained_give(void *base, size_t bytes, size_t resident, size_t last, bool table) {
    void *evict = NULL, *oldest = NULL;
    size_t nevict = 0, noldest = 0;
    pthread_mutex_lock(&retain_lock);
    if (!retain_limit) {
        evict = base, nevict = bytes;
    } else {
        if (nretained == RA_RETAIN_SLOTS) {
            oldest = retained[0].base, noldest = retained[0].bytes;
            retained_remove(0);
        }
        RA_POISON(base, bytes);
        retained[nretained++] = (struct retained){base, bytes, resident, last, table};
        retained_total += resident;
        for (size_t i = 0; retained_total > retain_limit && i < nretained; i++) {
            struct retained *r = &retained[i];
            size_t excess = retained_total - retain_limit;
            // A block in huge pages keeps whole ones (a partial one would be split into small ones).
            size_t unit = in_huge_pages(r->bytes, r->table) ? RA_HUGE_PAGE : RA_PAGE;
            size_t keep = r->resident > excess ? (r->resident - excess) & ~(unit - 1) : 0;
            if (keep >= r->resident) continue;
            (void)madvise((uint8_t *)r->base + keep, r->resident - keep, MADV_DONTNEED);
            retained_total -= r->resident - keep;
            r->resident = keep;
        }
    }
    pthread_mutex_unlock(&retain_lock);
    if (evict) munmap(evict, nevict);
    if (oldest) {
        RA_UNPOISON(oldest, noldest);
        munmap(oldest, noldest);
    }
}

// Unmaps retained blocks, oldest first, until at most `keep` bytes are kept (all of them for 0).
static void trim_retained(size_t keep) {
    for (;;) {
        pthread_mutex_lock(&retain_lock);
        if ((keep && retained_total <= keep) || !nretained) {
            pthread_mutex_unlock(&retain_lock);
            return;
        }
        struct retained r = retained[0];
        retained_remove(0);
        pthread_mutex_unlock(&retain_lock);
        RA_UNPOISON(r.base, r.bytes);
        munmap(r.base, r.bytes);
    }
}

void ra_release_retained_memory(void) { trim_retained(0); }

void ra_set_retained_memory_limit(uint64_t bytes) {
    size_t limit = bytes > SIZE_MAX ? SIZE_MAX : (size_t)bytes;
    pthread_mutex_lock(&retain_lock);
    retain_limit = limit;
    pthread_mutex_unlock(&retain_lock);
    trim_retained(limit);  // what is kept past the new limit goes now
}

uint32_t ra_retained_memory_blocks(void) {
    pthread_mutex_lock(&retain_lock);
    uint32_t n = (uint32_t)nretained;
    pthread_mutex_unlock(&retain_lock);
    return n;
}

uint64_t ra_retained_memory_bytes(void) {
    pthread_mutex_lock(&retain_lock);
    uint64_t total = retained_total;
    pthread_mutex_unlock(&retain_lock);
    return total;
}

// A fresh mapping of at least `*want` bytes (page-rounded); sets `*want` to what was mapped.
static void *map_fresh(size_t *want, bool table) {
    size_t bytes = huge_round(*want, table), slack = in_huge_pages(*want, table) ? RA_HUGE_PAGE : 0;
    uint8_t *m = mmap(NULL, bytes + slack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return NULL;
    uint8_t *at = m;
    if (slack) {  // keep the aligned run, give back the rest
        at = (uint8_t *)(((uintptr_t)m + RA_HUGE_PAGE - 1) & ~(uintptr_t)(RA_HUGE_PAGE - 1));
        if (at > m) munmap(m, (size_t)(at - m));
        if (m + slack > at) munmap(at + bytes, (size_t)(m + slack - at));
        (void)madvise(at, bytes, MADV_HUGEPAGE);  // advice only; mapped pages come zeroed
    }
    *want = bytes;
    return at;
}

// A mapped block grown to at least `*want` bytes: in place when the address space after it is
// free, else moved (its pages, not copied) into a fresh mapping, an aligned one when it is to
// have huge pages. Sets `*want` to what is mapped now; NULL (the block untouched) when neither
// works.
static void *map_grow(header *h, size_t *want, bool table) {
    size_t bytes = huge_round(*want, table);
    void *m = mremap(h, mapped_bytes(h), bytes, 0);
    if (m != MAP_FAILED) {
        if (in_huge_pages(bytes, table)) (void)madvise(m, bytes, MADV_HUGEPAGE);  // (its aligned runs)
    } else {
        size_t got = bytes;
        void *to = map_fresh(&got, table);
        if (!to) return NULL;
        m = mremap(h, mapped_bytes(h), got, MREMAP_MAYMOVE | MREMAP_FIXED, to);
        if (m == MAP_FAILED) {
            munmap(to, got);
            return NULL;
        }
        bytes = got;
    }
    *want = bytes;
    return m;
}

static void *finish(header *h, size_t n, uint32_t kind) {
    h->size = n;
    h->kind = kind;
    atomic_fetch_add_explicit(&live_blocks, 1, memory_order_relaxed);
    return (uint8_t *)h + RA_HEADER;
}

static void *alloc(size_t n, bool zero, bool table) {
    if (n > SIZE_MAX / 2) return NULL;
    if (n >= RA_MAP_MIN) {
        size_t want = page_round(n + RA_HEADER), got;
        if (huge_round(want, table) / RA_PAGE > UINT32_MAX) return NULL;  // (mapped_pages)
        void *m = retained_take(want, table, &got);
        if (m) {
            if (zero) memset(m, 0, n + RA_HEADER);  // reused pages hold the last block's bytes
        } else {
            m = map_fresh(&want, table);
            if (!m) return NULL;
            got = want;
        }
        ((header *)m)->mapped_pages = (uint32_t)(got / RA_PAGE);
        return finish(m, n, table ? KIND_TABLE : KIND_MAP);
    }
    header *h = zero ? calloc(1, n + RA_HEADER) : malloc(n + RA_HEADER);
    return h ? finish(h, n, KIND_HEAP) : NULL;
}

void *ra_malloc(size_t n) { return alloc(n, false, false); }

void *ra_calloc(size_t count, size_t size) {
    if (size && count > SIZE_MAX / 2 / size) return NULL;
    return alloc(count * size, true, false);
}

void *ra_malloc_huge(size_t n) { return alloc(n, false, true); }

void *ra_calloc_table(size_t count, size_t size) {
    if (size && count > SIZE_MAX / 2 / size) return NULL;
    return alloc(count * size, true, true);
}

void *ra_realloc(void *p, size_t n) {
    if (!p) return alloc(n, false, false);
    if (n > SIZE_MAX / 2) return NULL;
    header *h = (header *)((uint8_t *)p - RA_HEADER);
    bool table = h->kind == KIND_TABLE;
    if ((h->kind == KIND_MAP || table) && n >= RA_MAP_MIN) {
        size_t want = page_round(n + RA_HEADER);
        if (huge_round(want, table) / RA_PAGE > UINT32_MAX) return NULL;  // (mapped_pages)
        if (want <= mapped_bytes(h)) {  // a reused block may have the room already
            h->size = n;
            return p;
        }
        header *m = map_grow(h, &want, table);
        if (!m) return NULL;
        m->size = n;
        m->mapped_pages = (uint32_t)(want / RA_PAGE);
        return (uint8_t *)m + RA_HEADER;
    }
    if (h->kind == KIND_HEAP && n < RA_MAP_MIN) {
        header *q = realloc(h, n + RA_HEADER);
        if (!q) return NULL;
        q->size = n;
        return (uint8_t *)q + RA_HEADER;
    }
    // Crossing the threshold: one copy into the other kind of block.
    void *q = alloc(n, false, table);
    if (!q) return NULL;
    memcpy(q, p, h->size < n ? h->size : n);
    ra_dealloc(p);
    return q;
}

void ra_dealloc(void *p) { ra_dealloc_used(p, SIZE_MAX); }

void ra_dealloc_used(void *p, size_t used) {
    if (!p) return;
    header *h = (header *)((uint8_t *)p - RA_HEADER);
    atomic_fetch_sub_explicit(&live_blocks, 1, memory_order_relaxed);
    if (h->kind == KIND_HEAP) {
        free(h);
        return;
    }
    // A mapping is sized from a guess (the normalizer's hint) and its tail is often never
    // written: hand the pages past `used` back (a no-op where none were faulted in), so that the
    // budget counts the memory a kept block holds, not the address space it spans.
    size_t mapped = mapped_bytes(h), keep = used < mapped - RA_HEADER ? page_round(RA_HEADER + used) : mapped;
    if (keep < mapped) (void)madvise((uint8_t *)h + keep, mapped - keep, MADV_DONTNEED);
    retained_give(h, mapped, keep, page_round(h->size + RA_HEADER), h->kind == KIND_TABLE);
}

void ra_discard_front(void *p, size_t bytes) {
    if (!p) return;
    header *h = (header *)((uint8_t *)p - RA_HEADER);
    if (h->kind == KIND_HEAP) return;
    if (bytes > h->size) bytes = h->size;
    uintptr_t from = ((uintptr_t)p + RA_PAGE - 1) & ~(uintptr_t)(RA_PAGE - 1);
    uintptr_t to = ((uintptr_t)p + bytes) & ~(uintptr_t)(RA_PAGE - 1);
    if (to > from) (void)madvise((void *)from, to - from, MADV_DONTNEED);
}

size_t ra_block_size(const void *p) { return ((const header *)((const uint8_t *)p - RA_HEADER))->size; }

int64_t ra_live_allocations(void) { return atomic_load_explicit(&live_blocks, memory_order_relaxed); }

static void *yajl_malloc_fn(void *ctx, size_t n) { (void)ctx; return ra_malloc(n); }
static void *yajl_realloc_fn(void *ctx, void *p, size_t n) { (void)ctx; return ra_realloc(p, n); }
static void yajl_free_fn(void *ctx, void *p) { (void)ctx; ra_dealloc(p); }

// Not const: yajl_alloc takes a mutable pointer (it only copies the struct).
yajl_alloc_funcs ra_yajl_alloc_funcs = {yajl_malloc_fn, yajl_realloc_fn, yajl_free_fn, NULL};

void ra_free(void *p) { ra_dealloc(p); }
