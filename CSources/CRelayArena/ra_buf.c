// Growable buffers' and arrays' slow paths: their inline fast paths are in ra_buf.h, and grow
// out of line only when they are full.
#include "ra_buf.h"
#include "ra_alloc.h"

bool ra_buf_reserve_slow(ra_buf *b, size_t extra) {
    if (extra > SIZE_MAX / 2 - b->len) return false;
    size_t need = b->len + extra;
    if (need <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need) cap *= 2;
    uint8_t *p = ra_realloc(b->data, cap);
    if (!p) return false;
    b->data = p;
    b->cap = cap;
    return true;
}

bool ra_buf_append_slow(ra_buf *b, const void *p, size_t n) {
    if (!ra_buf_reserve(b, n)) return false;
    if (n) memcpy(b->data + b->len, p, n);
    b->len += n;
    return true;
}

void ra_buf_free(ra_buf *b) {
    ra_dealloc(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

bool ra_grow_slow(void *_Nullable *_Nonnull p, uint32_t *cap, uint32_t need, size_t elem) {
    if (need <= *cap) return true;
    uint64_t c = *cap ? *cap : 16;
    while (c < need) c *= 2;
    if (c > UINT32_MAX) c = UINT32_MAX;
    if (c < need || c > SIZE_MAX / elem) return false;
    void *q = ra_realloc(*p, (size_t)c * elem);
    if (!q) return false;
    *p = q;
    *cap = (uint32_t)c;
    return true;
}
