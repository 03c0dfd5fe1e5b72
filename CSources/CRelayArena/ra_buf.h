// Growable byte buffers and arrays, length-prefixed byte runs, and the short-run copy and compare
// every concept uses for its IDs and values (slow paths in ra_buf.c).
#ifndef RA_BUF_H
#define RA_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#pragma clang assume_nonnull begin

// Word loads of short byte runs read the bytes in order only on a little-endian machine.
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the core's word loads assume a little-endian target");

/// Growable byte buffer; offsets into it stay valid when it moves.
typedef struct ra_buf {
    uint8_t *_Nullable data;
    size_t len, cap;
} ra_buf;

bool ra_buf_reserve_slow(ra_buf *b, size_t extra);
/// Room for `extra` more bytes; the common case (room left) is inline.
static inline bool ra_buf_reserve(ra_buf *b, size_t extra) {
    return b->cap - b->len >= extra || ra_buf_reserve_slow(b, extra);
}
bool ra_buf_append_slow(ra_buf *b, const void *_Nullable p, size_t n);
void ra_buf_free(ra_buf *b);

/// Appends `n` bytes; the common case (room left) is inline, growth is out of line.
static inline bool ra_buf_append(ra_buf *b, const void *_Nullable p, size_t n) {
    if (b->data && b->cap - b->len >= n) {
        if (n) memcpy(b->data + b->len, p, n);
        b->len += n;
        return true;
    }
    return ra_buf_append_slow(b, p, n);
}

/// Grows `*p` (an array of `elem` bytes with capacity `*cap`) to hold `need` elements.
bool ra_grow_slow(void *_Nullable *_Nonnull p, uint32_t *cap, uint32_t need, size_t elem);
static inline __attribute__((always_inline)) bool ra_grow(void *_Nullable *_Nonnull p, uint32_t *cap, uint32_t need, size_t elem) {
    return need <= *cap || ra_grow_slow(p, cap, need, elem);
}

// Symbol texts and heap values are stored after their length: one byte for a length under 255,
// 0xFF and a u32 for a longer one (most are short: IDs, names, cursors), with no alignment and no
// NUL after the bytes.
#define RA_LEN_LONG 0xFFu
/// The bytes a length takes.
static inline size_t ra_len_size(size_t len) { return len < RA_LEN_LONG ? 1 : 5; }
/// Writes a length at `p` (ra_len_size(len) bytes).
static inline void ra_len_put(uint8_t *p, uint32_t len) {
    if (len < RA_LEN_LONG) {
        p[0] = (uint8_t)len;
    } else {
        p[0] = RA_LEN_LONG;
        memcpy(p + 1, &len, 4);
    }
}
/// Reads the length at `p`; returns where the bytes start.
static inline const uint8_t *ra_len_get(const uint8_t *p, uint32_t *len) {
    if (p[0] < RA_LEN_LONG) {
        *len = p[0];
        return p + 1;
    }
    memcpy(len, p + 1, 4);
    return p + 5;
}

/// memcpy for the short texts most values are (IDs, names, cursors), without a libc call: two
/// overlapping loads and stores of the largest width that fits, read and written inside the runs.
static inline __attribute__((always_inline)) void ra_copy_short(void *dst, const void *src, size_t n) {
    uint8_t *d = dst;
    const uint8_t *s = src;
    if (n > 32) {
        memcpy(d, s, n);
    } else if (n >= 16) {
        uint8_t a[16], b[16];
        memcpy(a, s, 16);
        memcpy(b, s + n - 16, 16);
        memcpy(d, a, 16);
        memcpy(d + n - 16, b, 16);
    } else if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else if (n) {
        uint8_t a = s[0], b = s[n / 2], c = s[n - 1];
        d[0] = a;
        d[n / 2] = b;
        d[n - 1] = c;
    }
}

#define RA_STAGE_ALIGN 4u  // staged values' slots (ra_buf_slot)
/// Appends a 4-byte aligned {u32 len, len bytes} slot to `b` (the layout of staged values); returns a pointer to the bytes, NULL on OOM. `*off` is the slot's offset.
static inline __attribute__((always_inline)) uint8_t *_Nullable ra_buf_slot(ra_buf *b, uint32_t len, uint64_t *off) {
    size_t pad = (size_t)(0 - b->len) & (RA_STAGE_ALIGN - 1);
    if (!ra_buf_reserve(b, pad + 4 + (size_t)len)) return NULL;
    uint8_t *p = b->data + b->len;
    memset(p, 0, 4);  // the padding (at most 3 bytes, the rest is overwritten by the length)
    p += pad;
    memcpy(p, &len, 4);
    *off = b->len + pad;
    b->len += pad + 4 + (size_t)len;
    return p + 4;
}

/// A little-endian u32 at `p`, wherever it lies.
static inline uint32_t ra_load_u32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }

/// Equal byte runs, without a libc call for the short texts most IDs and values are: whole
/// words, and the last bytes as one overlapping load (never past either run).
static inline bool ra_bytes_equal(const void *x, const void *y, size_t n) {
    const uint8_t *a = x, *b = y;
    if (n >= 8) {
        if (n > 32) return memcmp(a, b, n) == 0;
        uint64_t u, v;
        for (size_t i = 0; i + 8 < n; i += 8) {
            memcpy(&u, a + i, 8);
            memcpy(&v, b + i, 8);
            if (u != v) return false;
        }
        memcpy(&u, a + n - 8, 8);
        memcpy(&v, b + n - 8, 8);
        return u == v;
    }
    if (n >= 4) {
        uint32_t u1, v1, u2, v2;
        memcpy(&u1, a, 4);
        memcpy(&v1, b, 4);
        memcpy(&u2, a + n - 4, 4);
        memcpy(&v2, b + n - 4, 4);
        return u1 == v1 && u2 == v2;
    }
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) return false;
    return true;
}

#pragma clang assume_nonnull end

#endif
