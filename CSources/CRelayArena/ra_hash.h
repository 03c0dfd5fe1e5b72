// Hashing of short texts (IDs, storage keys, shapes' words): word loads that stay inside a run and
// a multiply-xorshift hash whose state can be continued. Header-only: every caller inlines it.
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

// A small multiply-xorshift hash over 8-byte words (keys are short: IDs, storage keys). The
// length goes in last, so the state after a text's first full words can be kept and continued:
// client IDs that share everything but their index hash only their last bytes.
#define RA_HASH_SEED 0x9E3779B97F4A7C15ull
static inline uint64_t ra_hash_words(uint64_t h, const void *p, size_t words) {
    const uint8_t *s = p;
    for (size_t i = 0; i < words; i++, s += 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xC4CEB9FE1A85EC53ull;
        h ^= h >> 29;
    }
    return h;
}
/// Continues state `h` over `n` more bytes (starting on a word boundary of the whole text) and
/// finishes the hash of a text of `total` bytes.
static inline uint32_t ra_hash_continue(uint64_t h, const void *p, size_t n, size_t total) {
    h = ra_hash_words(h, p, n / 8);
    uint64_t w = ra_tail_word(p, n, n % 8);
    h = (h ^ w) * 0xC4CEB9FE1A85EC53ull;
    h ^= (uint64_t)total * 0xFF51AFD7ED558CCDull;
    h ^= h >> 32;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    return (uint32_t)h;
}
/// The hash of `n` bytes. Inline: interning, lookups and shapes hash on every call, and each
/// caller's text is mostly a few words.
static inline uint32_t ra_hash(const void *p, size_t n) { return ra_hash_continue(RA_HASH_SEED, p, n, n); }

#pragma clang assume_nonnull end

#endif
