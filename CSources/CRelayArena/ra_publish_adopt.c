// Publishing into a pristine store (only its root, as `RecordStore()` starts): the store takes
// the delta's arena whole instead of copying it, plus that root. Any other store is merged
// (ra_publish.c).
#include "ra_publish.h"
#include "ra_source.h"
#include "ra_symbols.h"
#include "ra_records.h"
#include "ra_buf.h"
#include "ra_alloc.h"
#include "ra_json.h"

// The data ID of a store's only record (0: none), looking no further than its first symbols.
static uint32_t first_record(const ra_source *st, uint32_t within) {
    for (uint32_t id = 1; id < st->nsyms && id <= within; id++)
        if (ra_has_record(st, id)) return id;
    return 0;
}

// A store holding only its root record, with no field, and no other symbol: what `RecordStore()`
// starts as. (No symbol of it can be held by an earlier UpdatedRecordIDs, so renumbering is safe.)
static bool pristine(const ra_source *st) {
    uint32_t root = st->nrecs == 1 && st->nsyms <= 3 ? first_record(st, 2) : 0;
    return root && st->syms[root].rec.type && ra_record_field_count(st, &st->syms[root].rec) == 0;
}

// Exchanges everything but the locks (a pthread_rwlock_t must not move).
static void swap_contents(ra_source *a, ra_source *b) {
    pthread_rwlock_t la, lb;
    memcpy(&la, &a->lock, sizeof la);
    memcpy(&lb, &b->lock, sizeof lb);
    ra_source tmp;
    memcpy(&tmp, a, sizeof tmp);
    memcpy(a, b, sizeof tmp);
    memcpy(b, &tmp, sizeof tmp);
    memcpy(&a->lock, &la, sizeof la);
    memcpy(&b->lock, &lb, sizeof lb);
    memset(a->refs_room, 0, sizeof a->refs_room);  // (heaps exchanged: no room is where it was)
    memset(b->refs_room, 0, sizeof b->refs_room);
}

ra_status ra_source_publish_consuming(ra_source *st, ra_source *d, ra_error *err) {
    if (!ra_source_make_writable(st) || !ra_source_make_writable(d)) {  // (the store may take d's arrays)
        ra_error_set(err, RA_ERR_NOMEM, 0, "out of memory copying a snapshot's store");
        return RA_ERR_NOMEM;
    }
    if (!pristine(st)) return ra_source_publish(st, d, err);
    // Merging into a store that holds only its root gives the delta itself, plus that root:
    // take the delta's arena instead of copying it (no second copy, no second peak).
    // (A root ID like "client:x:0" is a derived symbol: the texts are written out.)
    uint32_t root_id = first_record(st, 2), root_type = ra_rec_type(st, &st->syms[root_id].rec);
    uint32_t root_len = ra_sym_length(st, root_id), type_len = ra_sym_length(st, root_type);
    char stack[128];
    char *root = root_len + type_len <= sizeof stack ? stack : ra_malloc((size_t)root_len + type_len + 1);
    if (!root) goto oom;
    ra_sym_write(st, root_id, root);
    char *type = root + root_len;
    ra_sym_write(st, root_type, type);
    // Everything that can fail happens on the delta before the swap.
    d->names_full = d->types_full = d->shapes_full = false;
    uint32_t rsym = ra_intern(d, root, root_len), tsym = ra_intern(d, type, type_len);
    bool ok = rsym && tsym && ra_grow((void **)&d->updated, &d->capupdated, d->nrecs + 1, sizeof(uint32_t));
    bool created = false;
    int64_t ri = ok ? ra_record_get_or_create(d, rsym, tsym, &created) : -1;
    // A delta root with no type keeps the store root's, as a merge would (ra_publish.c).
    if (ri >= 0 && !created && d->syms[ri].rec.type && d->syms[ri].rec.type == ra_untyped_type(d)) {
        uint32_t t = ra_type_index(d, tsym);
        if (t) d->syms[ri].rec.type = (uint16_t)t;
        else ri = -1;
    }
    if (root != stack) ra_dealloc(root);
    if (ri < 0) goto oom;
    d->nupdated = 0;
    for (uint32_t i = 1; i < d->nsyms; i++) {
        if (!ra_has_record(d, i)) continue;
        const ra_record *r = &d->syms[i].rec;
        // The root was there before: it changed only if the payload gave it a field or a type.
        if ((int64_t)i == ri && (created || (ra_rec_type(d, r) == tsym && ra_record_field_count(d, r) == 0))) continue;
        d->updated[d->nupdated++] = i;
    }
    swap_contents(st, d);
    return RA_OK;
oom:
    return ra_publish_out_of_room(d, err);  // (the root's ID or typename may be what the delta has no room for)
}
