// Every allocation of the C core (and yajl's, through yajl_alloc_funcs) goes through here and is
// counted, so tests can require the live count to come back to where it was: zero leaks, exactly.
#include "ra_internal.h"
#include <stdatomic.h>
#include <stdlib.h>

static _Atomic int64_t live_blocks;

void *ra_malloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (p) atomic_fetch_add_explicit(&live_blocks, 1, memory_order_relaxed);
    return p;
}

void *ra_calloc(size_t count, size_t size) {
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (p) atomic_fetch_add_explicit(&live_blocks, 1, memory_order_relaxed);
    return p;
}

void *ra_realloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (q && !p) atomic_fetch_add_explicit(&live_blocks, 1, memory_order_relaxed);
    return q;
}

void ra_dealloc(void *p) {
    if (!p) return;
    atomic_fetch_sub_explicit(&live_blocks, 1, memory_order_relaxed);
    free(p);
}

int64_t ra_live_allocations(void) { return atomic_load_explicit(&live_blocks, memory_order_relaxed); }

static void *yajl_malloc_fn(void *ctx, size_t n) { (void)ctx; return ra_malloc(n); }
static void *yajl_realloc_fn(void *ctx, void *p, size_t n) { (void)ctx; return ra_realloc(p, n); }
static void yajl_free_fn(void *ctx, void *p) { (void)ctx; ra_dealloc(p); }

// Not const: yajl_alloc takes a mutable pointer (it only copies the struct).
yajl_alloc_funcs ra_yajl_alloc_funcs = {yajl_malloc_fn, yajl_realloc_fn, yajl_free_fn, NULL};
