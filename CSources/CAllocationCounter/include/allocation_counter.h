// Counts heap allocations of the whole process (the relay-arena executable links this target),
// so the quick bench can report allocation counts next to times.
#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H
#include <stdint.h>

/// Allocations (malloc, calloc, realloc of NULL, aligned forms) since the process started;
/// -1 when counting is compiled out (sanitizer builds bring their own allocator).
int64_t ra_process_allocations(void);

#endif
