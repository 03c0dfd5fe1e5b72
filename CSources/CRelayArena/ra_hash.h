// Hashing of short texts (IDs, storage keys, shapes' words): word loads that stay inside a run and
// a keyed hash whose state can be continued. Header-only: every caller inlines it.
#ifndef RA_HASH_H
#define RA_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#pragma clang assume_nonnull begin

// The first 8 bytes of a run as one word (zero-padded), with loads that stay inside the run: one
// 8-byte load for long runs, two overlapping 4-byte loads for 4–7 bytes, three byte loads for 1–3.
static inline uint64_t ra_key_prefix(const void *s, size_t n) {
    const uint8_t *p = s;
    if (n >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    if (n >= 4) {
        uint32_t lo, hi;
        memcpy(&lo, p, 4);
        memcpy(&hi, p + n - 4, 4);
        return (uint64_t)lo | ((uint64_t)hi << (8 * (n - 4)));
    }
    if (n == 0) return 0;
    return (uint64_t)p[0] | ((uint64_t)p[n / 2] << (8 * (n / 2))) | ((uint64_t)p[n - 1] << (8 * (n - 1)));
}

/// The last `k` (< 8) of the `n` bytes at `p` as one zero-padded word, without a byte-wise copy:
/// one overlapping load of the last 8 bytes when there are 8, else the short-run loads above.
static inline uint64_t ra_tail_word(const void *p, size_t n, size_t k) {
    if (k == 0) return 0;
    if (n >= 8) {
        uint64_t v;
        memcpy(&v, (const uint8_t *)p + n - 8, 8);
        return v >> (8 * (8 - k));
    }
    return ra_key_prefix((const uint8_t *)p + n - k, k);
}

// A keyed hash over 8-byte words, each folded into the state by a 64x64->128-bit multiply whose
// halves are xored (wyhash's "mum"). The key is random: a source's own (ra_source.hkey), drawn
// from the process's key when the source is made (ra_hash_key_new, ra_symbols.c), kept in its
// snapshots. Without it an input cannot choose its collisions: the old fixed hash could be run
// backwards, 200k IDs of one hash found in seconds, and every lookup then walked past all of them.
// If a key leaks anyway, the index's probe bound (ra_symbols.c) rekeys the source. The length
// goes in last, so the state after a text's first full words can be kept and continued: client
// IDs that share everything but their index hash only their last bytes.
typedef struct ra_hash_key {
    uint64_t k0;  // the state before the first word
    uint64_t k1;  // the multiplier (its top bit set: k1 ^ a length is never 0)
} ra_hash_key;

static inline uint64_t ra_mum(uint64_t a, uint64_t b) {
    __uint128_t r = (__uint128_t)a * b;
    return (uint64_t)r ^ (uint64_t)(r >> 64);
}
static inline uint64_t ra_hash_words(ra_hash_key k, uint64_t h, const void *p, size_t words) {
    const uint8_t *s = p;
    for (size_t i = 0; i < words; i++, s += 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = ra_mum(h ^ w, k.k1);
    }
    return h;
}
/// Continues state `h` over `n` more bytes (starting on a word boundary of the whole text) and
/// finishes the hash of a text of `total` bytes.
static inline uint32_t ra_hash_continue(ra_hash_key k, uint64_t h, const void *p, size_t n, size_t total) {
    h = ra_hash_words(k, h, p, n / 8);
    h = ra_mum(h ^ ra_tail_word(p, n, n % 8), k.k1 ^ (uint64_t)total);
    return (uint32_t)(h ^ (h >> 32));
}
/// The hash of `n` bytes under key `k`. Inline: interning, lookups and shapes hash on every call,
/// and each caller's text is mostly a few words.
static inline uint32_t ra_hash(ra_hash_key k, const void *p, size_t n) { return ra_hash_continue(k, k.k0, p, n, n); }

#pragma clang assume_nonnull end

#endif
