// Relay's areEqual on field values, between a store's value and a delta's: strings and links by
// identity, numbers as JavaScript numbers, JSON text by structure (fbjs areEqual). Publish asks
// it when a field's bits differ, to tell a changed field from the same value written otherwise.
#define _GNU_SOURCE 1  // strtod_l, memmem
#include "ra_value_equal.h"
#include "ra_heap.h"
#include "ra_alloc.h"
#include "ra_source.h"
#include <locale.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <yajl/yajl_tree.h>

static bool numeric(unsigned tag) { return tag == RA_TAG_INT || tag == RA_TAG_NUMBER; }
static bool stringish(unsigned tag) { return tag == RA_TAG_STRING || tag == RA_TAG_IDSTR; }

// strtod in the C locale whatever the process's locale is ("1.5" must not read as 1).
static locale_t c_locale(void) {
    static _Atomic(locale_t) loc = (locale_t)0;
    locale_t l = atomic_load(&loc);
    if (!l) {
        locale_t fresh = newlocale(LC_ALL_MASK, "C", (locale_t)0);
        locale_t expected = (locale_t)0;
        if (fresh && !atomic_compare_exchange_strong(&loc, &expected, fresh)) freelocale(fresh);
        l = atomic_load(&loc);
    }
    return l;
}

static double number_of(const ra_source *s, uint64_t v) {
    if (ra_value_tag(v) == RA_TAG_INT) return (double)ra_value_int(v);
    ra_bytes_ref r = ra_source_value_bytes(s, v);
    // The whole text: a cut one can read as another number (1e130 vs 1e131 past 127 digits).
    char tmp[128];
    char *text = r.len < sizeof tmp ? tmp : ra_malloc(r.len + 1);
    if (!text) return NAN;  // unequal to everything: the field counts as changed
    if (r.len) memcpy(text, r.ptr, r.len);
    text[r.len] = 0;
    locale_t loc = c_locale();
    double d = loc ? strtod_l(text, NULL, loc) : strtod(text, NULL);
    if (text != tmp) ra_dealloc(text);
    return d;
}

// fbjs areEqual on parsed JSON: object key order does not matter, numbers compare as JavaScript
// numbers (1.0 == 1).
static bool tree_equal(yajl_val a, yajl_val b) {
    if (YAJL_IS_NUMBER(a) && YAJL_IS_NUMBER(b)) {
        if ((a->u.number.flags & YAJL_NUMBER_DOUBLE_VALID) && (b->u.number.flags & YAJL_NUMBER_DOUBLE_VALID))
            return a->u.number.d == b->u.number.d;
        return strcmp(a->u.number.r, b->u.number.r) == 0;
    }
    if (a->type != b->type) return false;
    switch (a->type) {
    case yajl_t_string: return strcmp(a->u.string, b->u.string) == 0;
    case yajl_t_array:
        if (a->u.array.len != b->u.array.len) return false;
        for (size_t i = 0; i < a->u.array.len; i++)
            if (!tree_equal(a->u.array.values[i], b->u.array.values[i])) return false;
        return true;
    case yajl_t_object:
        if (a->u.object.len != b->u.object.len) return false;
        for (size_t i = 0; i < a->u.object.len; i++) {
            size_t j = 0;
            while (j < b->u.object.len && strcmp(a->u.object.keys[i], b->u.object.keys[j]) != 0) j++;
            if (j == b->u.object.len || !tree_equal(a->u.object.values[i], b->u.object.values[j])) return false;
        }
        return true;
    default: return true;  // true, false, null: equal types are equal values
    }
}

static yajl_val parse_tree(ra_bytes_ref r) {
    char *text = ra_malloc(r.len + 1);
    if (!text) return NULL;
    if (r.len) memcpy(text, r.ptr, r.len);
    text[r.len] = 0;
    yajl_val v = yajl_tree_parse(text, NULL, 0);
    ra_dealloc(text);
    return v;
}

static bool same_bytes(ra_bytes_ref a, ra_bytes_ref b) {
    return a.len == b.len && (a.len == 0 || (a.ptr && b.ptr && memcmp(a.ptr, b.ptr, a.len) == 0));
}

// JSON values (lists of scalars, custom scalars) that differ as text may still be equal values.
// Only runs when the bytes differ; anything it cannot decide (a NUL escape, which yajl_tree's C
// strings would cut, or no memory) counts as a change.
static bool json_equal(ra_bytes_ref a, ra_bytes_ref b) {
    if (same_bytes(a, b)) return true;
    if ((a.len >= 6 && memmem(a.ptr, a.len, "\\u0000", 6)) || (b.len >= 6 && memmem(b.ptr, b.len, "\\u0000", 6))) return false;
    yajl_val x = parse_tree(a), y = x ? parse_tree(b) : NULL;
    bool equal = x && y && tree_equal(x, y);
    yajl_tree_free(x);
    yajl_tree_free(y);
    return equal;
}

bool ra_value_equal(const ra_source *st, uint64_t sv, const ra_source *d, uint64_t dv, const uint32_t *tr) {
    unsigned st_tag = ra_value_tag(sv), d_tag = ra_value_tag(dv);
    if (st_tag != d_tag) {
        if (stringish(st_tag) && stringish(d_tag))  // an `id` kept as its symbol against one as text
            return same_bytes(ra_source_value_bytes(st, sv), ra_source_value_bytes(d, dv));
        return numeric(st_tag) && numeric(d_tag) && number_of(st, sv) == number_of(d, dv);
    }
    switch (d_tag) {
    case RA_TAG_NUMBER:
        return same_bytes(ra_source_value_bytes(st, sv), ra_source_value_bytes(d, dv)) ||
               number_of(st, sv) == number_of(d, dv);
    case RA_TAG_STRING: return same_bytes(ra_source_value_bytes(st, sv), ra_source_value_bytes(d, dv));
    case RA_TAG_JSON: return json_equal(ra_source_value_bytes(st, sv), ra_source_value_bytes(d, dv));
    case RA_TAG_REF:
    case RA_TAG_IDSTR: return ra_value_payload(sv) == tr[ra_value_payload(dv)];
    case RA_TAG_REFS: {
        ra_refs a = ra_refs_of(st, ra_value_payload(sv)), b = ra_refs_of(d, ra_value_payload(dv));
        if (a.count != b.count) return false;
        for (uint32_t i = 0; i < b.count; i++) {
            uint32_t ds = ra_refs_item(b, i);
            if (ra_refs_item(a, i) != (ds ? tr[ds] : 0)) return false;
        }
        return true;
    }
    default: return sv == dv;
    }
}
