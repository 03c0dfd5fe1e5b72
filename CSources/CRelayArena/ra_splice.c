// A page merged into a connection's edges (ra_source_splice_refs): the list is rewritten with
// room after its items, and the next page at its end goes into the room, so paging a long list
// writes each edge once instead of the whole list a page.
#include "ra_heap.h"
#include "ra_records.h"
#include "ra_source.h"

// The list's slot in the record's values: its index, or -1 when the record has no link list there.
static int64_t refs_slot(const ra_source *s, uint32_t rec, uint32_t key) {
    if (rec == 0 || rec >= s->nsyms || key == 0 || !ra_has_record(s, rec)) return -1;
    const ra_record *r = &s->syms[rec].rec;
    if (r->type == 0) return -1;  // (a tombstone)
    uint32_t count = ra_rec_count(s, r);
    const uint32_t *words = ra_rec_words(s, r);
    for (uint32_t f = 0; f < count; f++)
        if ((words[f] & 0x0FFFFFFFu) == key) return (words[f] >> 28) == RA_TAG_REFS ? (int64_t)f : -1;
    return -1;
}

// The room entry of the list at heap offset `off`, NULL when it has none.
static uint32_t *room_of(ra_source *s, uint32_t off) {
    for (unsigned i = 0; i < sizeof s->refs_room / sizeof s->refs_room[0]; i++)
        if (s->refs_room[i].cap && s->refs_room[i].off == off) return &s->refs_room[i].cap;
    return NULL;
}

// Whether every symbol of `syms` is one of the source's (0: null).
static bool symbols_ok(const ra_source *s, const uint32_t *_Nullable syms, uint32_t n) {
    for (uint32_t i = 0; i < n; i++)
        if (syms[i] >= s->nsyms) return false;
    return true;
}

ra_status ra_source_splice_refs(ra_source *s, uint32_t rec, uint32_t key, const uint32_t *front, uint32_t nfront,
                                const uint32_t *back, uint32_t nback) {
    int64_t f = refs_slot(s, rec, key);
    if (f < 0 || (nfront && !front) || (nback && !back) || !symbols_ok(s, front, nfront) || !symbols_ok(s, back, nback))
        return RA_ERR_STATE;
    if (nfront == 0 && nback == 0) return RA_OK;
    if (!ra_source_make_writable(s)) return RA_ERR_NOMEM;  // a snapshot's arrays are read-only
    uint32_t fields = s->syms[rec].rec.fields;
    uint32_t off = s->vals[fields + f];
    ra_refs old = ra_refs_of(s, off);
    uint64_t total = (uint64_t)nfront + old.count + nback;
    if (total > (RA_MAX_HEAP - 5) / 4) {
        s->heap_full = true;
        return RA_ERR_LIMIT;
    }
    // In place: a list written here before, with room for `back` after its items.
    uint32_t *cap = nfront == 0 && old.items ? room_of(s, off) : NULL;
    // (Its length is always written long, 0xFF and a u32, and its room lies within the heap.)
    if (cap && total <= *cap && s->heap.data[off] == RA_LEN_LONG && (uint64_t)off + 5 + 4 * (uint64_t)*cap <= s->heap.len) {
        uint8_t *p = s->heap.data + off;
        memcpy(p + 5 + 4 * (size_t)old.count, back, 4 * (size_t)nback);
        uint32_t len = (uint32_t)(4 * total);
        memcpy(p + 1, &len, 4);
        return RA_OK;
    }
    // Else a new list with room for half as many items again (at least 64 more), zeroed so that
    // the heap's bytes are all written (a snapshot holds them).
    uint64_t room = total + (total / 2 > 64 ? total / 2 : 64);
    if (room > (RA_MAX_HEAP - 5) / 4) room = total;
    size_t bytes = 5 + 4 * (size_t)room;
    if (s->heap.len > (uint64_t)RA_MAX_HEAP - bytes) {
        s->heap_full = true;
        return RA_ERR_LIMIT;
    }
    if (!ra_buf_reserve(&s->heap, bytes)) return RA_ERR_NOMEM;
    old = ra_refs_of(s, off);  // (the heap may have moved)
    uint8_t *p = s->heap.data + s->heap.len;
    uint32_t len = (uint32_t)(4 * total);
    p[0] = RA_LEN_LONG;
    memcpy(p + 1, &len, 4);
    uint8_t *items = p + 5;
    if (nfront) memcpy(items, front, 4 * (size_t)nfront);
    items += 4 * (size_t)nfront;
    if (old.items) {
        memcpy(items, old.items, 4 * (size_t)old.count);
    } else {
        for (uint32_t i = 0; i < old.count; i++) {
            uint32_t sym = old.first + i;
            memcpy(items + 4 * (size_t)i, &sym, 4);
        }
    }
    items += 4 * (size_t)old.count;
    if (nback) memcpy(items, back, 4 * (size_t)nback);
    memset(p + 5 + 4 * (size_t)total, 0, 4 * (size_t)(room - total));
    uint32_t at = (uint32_t)s->heap.len;
    s->heap.len += bytes;
    s->vals[fields + f] = at;
    unsigned slot = s->refs_room_next++ % (sizeof s->refs_room / sizeof s->refs_room[0]);
    s->refs_room[slot].off = at;
    s->refs_room[slot].cap = (uint32_t)room;
    return RA_OK;
}
