// Allocation: every block of the core goes through these counted functions (ra_alloc.c), yajl's
// too, through ra_yajl_alloc_funcs; this is the one header that knows yajl's allocator type.
#ifndef RA_ALLOC_H
#define RA_ALLOC_H

#include "relay_arena.h"
#include <stddef.h>
#include <yajl/yajl_common.h>

#pragma clang assume_nonnull begin

/// Counted allocation (ra_alloc.c): every block of the core, yajl's included.
void *_Nullable ra_malloc(size_t n);
void *_Nullable ra_calloc(size_t count, size_t size);
/// ra_calloc for a table read at random (a filter, an index): a large one is given huge pages.
void *_Nullable ra_calloc_table(size_t count, size_t size);
/// ra_malloc on huge pages for a large block (not zeroed): one filled at once, a file read whole,
/// faults ~7 times for 12 MB instead of 3,000.
void *_Nullable ra_malloc_huge(size_t n);
void *_Nullable ra_realloc(void *_Nullable p, size_t n);
void ra_dealloc(void *_Nullable p);
/// ra_dealloc of a block of which only the first `used` bytes were ever written: a large block
/// kept for reuse counts (and keeps the pages of) only those against the retained-memory limit.
void ra_dealloc_used(void *_Nullable p, size_t used);
/// Hands the kernel back the whole pages among a mapped block's first `bytes` (they read as zeros
/// afterwards): the front of a buffer that is spent need hold no memory. A no-op for a small block.
void ra_discard_front(void *_Nullable p, size_t bytes);
/// The usable size of a block (what it was last allocated or grown to).
size_t ra_block_size(const void *p);
extern yajl_alloc_funcs ra_yajl_alloc_funcs;

#pragma clang assume_nonnull end

#endif
