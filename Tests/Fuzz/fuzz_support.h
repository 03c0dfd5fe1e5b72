// What the libFuzzer harnesses share (fuzz_normalize.c, fuzz_snapshot.c): the invariant check,
// exports as byte blobs, and the import of a harness's fixed store.
#ifndef RELAY_ARENA_FUZZ_SUPPORT_H
#define RELAY_ARENA_FUZZ_SUPPORT_H

#include "relay_arena.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_CHECK(cond, ...)                                                                  \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "fuzz invariant failed (%s:%d): %s\n  ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                                      \
            fprintf(stderr, "\n");                                                             \
            abort();                                                                           \
        }                                                                                      \
    } while (0)

typedef struct blob {
    uint8_t *ptr;
    size_t len;
} blob;

static inline blob export_of(const ra_source *s) {
    blob b = {NULL, 0};
    ra_status st = ra_source_export_json(s, &b.ptr, &b.len);
    FUZZ_CHECK(st == RA_OK, "export failed with %d", (int)st);
    return b;
}

static inline bool same(blob a, blob b) { return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0); }

// The harness's fixed store: `json`'s `len` bytes, which must import.
static inline ra_source *import_fixed_store(const char *json, size_t len) {
    ra_error err;
    ra_source *s = ra_source_import_json((const uint8_t *)json, len, 64, &err);
    FUZZ_CHECK(s != NULL, "the fixed store did not import: %s", err.message);
    return s;
}

#endif
