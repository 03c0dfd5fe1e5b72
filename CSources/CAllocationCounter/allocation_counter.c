// Interposes the allocator entry points and forwards to glibc's own (__libc_*), counting each
// allocation. Preloaded (LD_PRELOAD), the library comes first in the lookup order, so ELF symbol
// interposition makes every library in the process (Swift runtime, Foundation, yajl) allocate
// through these. Not built under ASan or other sanitizers, which interpose the same symbols
// themselves.
#include "allocation_counter.h"
#include <stddef.h>
#include <stdatomic.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define RA_NO_INTERPOSER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define RA_NO_INTERPOSER 1
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(RA_NO_INTERPOSER)
#include <errno.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

static _Atomic int64_t allocations;

static inline void count(void) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); }

void *malloc(size_t n) { count(); return __libc_malloc(n); }
void *calloc(size_t c, size_t n) { count(); return __libc_calloc(c, n); }
void *realloc(void *p, size_t n) {
    if (!p) count();
    return __libc_realloc(p, n);
}
void free(void *p) { __libc_free(p); }
void *memalign(size_t a, size_t n) { count(); return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { count(); return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
    if (a % sizeof(void *) != 0 || (a & (a - 1)) != 0) return EINVAL;
    count();
    void *p = __libc_memalign(a, n);
    if (!p && n) return ENOMEM;
    *out = p;
    return 0;
}

int64_t ra_process_allocations(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }
#else
int64_t ra_process_allocations(void) { return -1; }
#endif
