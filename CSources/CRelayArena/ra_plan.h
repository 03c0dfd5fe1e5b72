// Internal form of a normalization plan: the caller's arrays plus, per selection set, the
// response keys grouped into entries (candidates) and the __isX keys the set watches for.
#ifndef RA_PLAN_H
#define RA_PLAN_H
#include "relay_arena.h"
#include "ra_buf.h"

#pragma clang assume_nonnull begin

#define RA_MAX_WATCH 64

// What a record frame expects after a key (frame.cur): nothing (skip it), the value of one
// selection (DIRECT; SCALAR, ID and LINKED are the direct cases the callbacks take without
// further checks: a plain scalar field, the record's `id`, a linked record), a value to buffer
// until the record's type is known; DATA and ERRORS are the top level's `data` and `errors`.
enum { CUR_SKIP, CUR_DIRECT, CUR_BUFFER, CUR_DATA, CUR_ERRORS, CUR_SCALAR, CUR_ID, CUR_LINKED };

// What a record frame expects after a matched key: an entry's members of the same names, laid
// out alike in the entry and the frame, so that matching a key copies them in one move.
typedef struct ra_expect {
    uint8_t cur;
    bool is_id, is_typename;
    uint8_t unused;
    uint32_t cur_sel, key, storage_key;
} ra_expect;
_Static_assert(sizeof(ra_expect) == 16, "ra_expect is one 16-byte move");

typedef struct ra_entry {
    uint64_t key_prefix;   // the key's first 8 bytes (zero-padded): most keys compare in one step
    uint32_t key_len;
    uint32_t key_lo, key_hi;  // a key of up to 8 bytes as ra_key_halves reads it (cb_map_key)
    uint32_t first, count; // candidate selection indices in plan->cands
    union {
        ra_expect expect;  // the members below, copied as one into the frame (expect_entry)
        struct {
            uint8_t cur;           // frame.cur after this key: CUR_BUFFER (candidates with conditions, or
                                   // several), or a direct kind (one candidate without conditions: streamed)
            bool is_id, is_typename;  // the key is `id` / `__typename` (decided once, not per member)
            uint8_t unused;
            uint32_t cur_sel;      // frame.cur_sel after this key: that one candidate, or this entry's index
            uint32_t key;          // string index of the response key
            uint32_t storage_key;  // when direct: the candidate's storage key
        };
    };
    uint64_t watch_bits;   // the set's watched names (bits as in ra_set_info's watch list) equal to the key
    uint64_t seen_bit;     // this entry's bit in a record frame's `seen` (the set's first 64 entries), else 0
} ra_entry;

// Each set's entries are followed by a sentinel entry that matches no key (its key_len is
// UINT32_MAX and its seen_bit 0), so a record's "next entry" never needs a bounds check.
typedef struct ra_set_info {
    uint32_t entry_first, entry_count;
    uint32_t watch_first, watch_count;   // HAS_KEY names (string indices) in plan->watch
    bool unique_storage;   // no two selections share a storage key: a new record's fields go in as staged
    bool plain;            // unique_storage, and no selection stores `__typename` (the record's type, not a field)
    bool self_id;          // an entry is the record's `id` (CUR_ID) stored as `id`: the record keeps it in its flag (ra_record.self_id), in no slot
} ra_set_info;

struct ra_plan {
    char *strings;
    size_t strings_len;
    ra_plan_string *str;
    uint32_t nstr;
    ra_plan_set *sets;
    uint32_t nsets;
    ra_plan_sel *sels;
    uint32_t nsels;
    ra_plan_cond *conds;
    uint32_t nconds;
    ra_plan_check *checks;
    uint32_t nchecks;
    ra_set_info *info;
    ra_entry *entries;
    uint32_t nentries;
    uint32_t *cands;
    uint32_t *watch;
    uint32_t nwatch;
    uint32_t typename_str;   // string index of "__typename", RA_NONE when the plan has none
    // Per selection: a record it opens has a concrete type (not `Viewer`) and a plain set
    // (ra_set_info) without `client:__type:` checks, lists of records or buffered members, so its
    // fields can go straight into its record and ra_norm_close_record may take its short paths.
    bool *quick;
};

// A key of 1 to 8 bytes in two words that together hold every byte of it: its first and last
// four (overlapping under 8), or, under 4, its first, middle and last byte. Compared with an
// entry's key_lo/key_hi, with the lengths equal, it matches exactly that key.
static inline void ra_key_halves(const uint8_t *p, size_t n, uint32_t *lo, uint32_t *hi) {
    if (n >= 4) {
        *lo = ra_load_u32(p);
        *hi = ra_load_u32(p + n - 4);
    } else {
        *lo = n ? (uint32_t)p[0] | (uint32_t)p[n / 2] << 8 | (uint32_t)p[n - 1] << 16 : 0;
        *hi = 0;
    }
}

static inline const char *ra_plan_str(const ra_plan *p, uint32_t i, uint32_t *len) {
    *len = p->str[i].length;
    return p->strings + p->str[i].offset;
}

static inline bool ra_plan_str_eq(const ra_plan *p, uint32_t i, const void *s, size_t n) {
    return p->str[i].length == n && memcmp(p->strings + p->str[i].offset, s, n) == 0;
}

#pragma clang assume_nonnull end

#endif
