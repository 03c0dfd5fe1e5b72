// Counts heap allocations of the whole process, so the quick bench can report allocation counts
// next to its times. Built only as a shared library (the RelayArenaAllocationCounter product,
// libRelayArenaAllocationCounter.so) that no executable links: `relay-arena bench` finds it beside
// its own executable and preloads it (LD_PRELOAD) into a child, `relay-arena bench` re-executed,
// that counts the allocation rows; the parent looks the symbol up with dlsym and times everything
// without it.
#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H
#include <stdint.h>

/// Allocations (malloc, calloc, realloc of NULL, aligned forms) since the process started;
/// -1 when counting is compiled out (sanitizer builds bring their own allocator).
int64_t ra_process_allocations(void);

#endif
