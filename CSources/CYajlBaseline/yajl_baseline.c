// Comparator for benchmarks: yajl with callbacks that do nothing (numbers kept as text), the
// ceiling for any yajl-driven normalizer. Fed in chunks like the real normalizer.
#include "yajl_baseline.h"
#include <yajl/yajl_parse.h>

static int nop0(void *c) { (void)c; return 1; }
static int nop_bool(void *c, int b) { (void)c; (void)b; return 1; }
static int nop_str(void *c, const unsigned char *s, size_t l) { (void)c; (void)s; (void)l; return 1; }
static int nop_num(void *c, const char *s, size_t l) { (void)c; (void)s; (void)l; return 1; }

static const yajl_callbacks nop_callbacks = {
    .yajl_null = nop0, .yajl_boolean = nop_bool, .yajl_number = nop_num, .yajl_string = nop_str,
    .yajl_start_map = nop0, .yajl_map_key = nop_str, .yajl_end_map = nop0,
    .yajl_start_array = nop0, .yajl_end_array = nop0,
};

int yajl_baseline_noop_parse(const uint8_t *bytes, size_t len, size_t chunk) {
    // yajl's default allocator: this target knows nothing of the C core, whose allocator counts
    // blocks for its leak tests.
    yajl_handle h = yajl_alloc(&nop_callbacks, NULL, NULL);
    if (!h) return 0;
    if (!chunk) chunk = len ? len : 1;
    int ok = 1;
    for (size_t off = 0; ok && off < len; off += chunk) {
        size_t n = len - off < chunk ? len - off : chunk;
        ok = yajl_parse(h, bytes + off, n) == yajl_status_ok;
    }
    ok = ok && yajl_complete_parse(h) == yajl_status_ok;
    yajl_free(h);
    return ok;
}
