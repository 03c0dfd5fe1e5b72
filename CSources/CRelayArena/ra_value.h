// Value words and slots: the API's tagged 64-bit value word (the tag in the top 4 bits) as the
// core makes it, and the slot a record's field travels as (key, tag and payload in one word).
// It includes only the public header (the tags): records, heap and everything above build on it.
#ifndef RA_VALUE_H
#define RA_VALUE_H

#include "relay_arena.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#pragma clang assume_nonnull begin

// A field, as the core passes it around, is a *slot*: one word with the key symbol in the low 28
// bits (symbols stay below 2^28, see RA_MAX_SYMBOLS), the value's tag in the next 4 and its payload
// in the top 32. A record keeps the low half in its shape and the payload in `vals`. Every payload
// a record holds fits: symbols, heap offsets (a heap stays under 4 GiB, RA_MAX_HEAP) and integers
// (32-bit, GraphQL's Int; wider ones keep their text, see ra_small_int). A boolean's tag is
// RA_TAG_TRUE whatever its value, which is its payload (1 or 0): a flipped boolean keeps its
// record's shape.
#define RA_SLOT_KEY 0x0FFFFFFFu
static inline __attribute__((always_inline)) uint64_t ra_slot_pack(uint32_t key, uint64_t value) {
    uint64_t tag = value >> 60;
    bool boolean = (tag | 1) == RA_TAG_FALSE;  // (TRUE 2, FALSE 3)
    uint64_t payload = boolean ? (tag == RA_TAG_TRUE) : (uint32_t)value;
    tag = boolean ? RA_TAG_TRUE : tag;
    return (payload << 32) | (tag << 28) | key;
}
static inline uint32_t ra_slot_key(uint64_t slot) { return (uint32_t)slot & RA_SLOT_KEY; }
/// The slot's shape word: its key and its tag.
static inline uint32_t ra_slot_word(uint64_t slot) { return (uint32_t)slot; }
/// The slot's value as the API's word (ra_value_tag, ra_value_payload, ra_value_int).
static inline uint64_t ra_slot_value(uint64_t slot) {
    uint64_t tag = (slot >> 28) & 0xF;
    uint64_t payload = slot >> 32;
    if (tag == RA_TAG_INT) return (tag << 60) | ((uint64_t)(int64_t)(int32_t)payload & 0x0FFFFFFFFFFFFFFFull);
    if (tag == RA_TAG_TRUE) return (uint64_t)(payload ? RA_TAG_TRUE : RA_TAG_FALSE) << 60;
    return (tag << 60) | payload;
}

/// A value word of the API (ra_value_tag, ra_value_payload) from its tag and payload.
static inline uint64_t ra_make(unsigned tag, uint64_t payload) { return ((uint64_t)tag << 60) | payload; }
/// A 32-bit integer (GraphQL's Int) is kept inline, exactly: true and the INT word when the text
/// is one. Any other number keeps its text.
static inline bool ra_small_int(const char *s, size_t len, uint64_t *out) {
    size_t i = len && s[0] == '-' ? 1 : 0;
    if (len - i < 1 || len - i > 10) return false;
    int64_t v = 0;
    for (size_t j = i; j < len; j++) {
        if (s[j] < '0' || s[j] > '9') return false;
        v = v * 10 + (s[j] - '0');
    }
    if (i) v = -v;
    if (v < INT32_MIN || v > INT32_MAX) return false;
    *out = ra_make(RA_TAG_INT, (uint64_t)v & 0x0FFFFFFFFFFFFFFFull);
    return true;
}

#pragma clang assume_nonnull end

#endif
