// The normalizer's capture stage: values kept as minified JSON text (custom scalars, values
// buffered until their record's type is known, the response's `errors` member), and the check
// for duplicate keys among a map's unmatched keys.
#include "ra_normalize.h"
#include "ra_norm_error.h"
#include "ra_records.h"
#include "ra_buf.h"
#include "ra_json.h"
#include "ra_hash.h"
#include "ra_symbols.h"
#include "ra_source.h"

static bool key_at(const ra_normalizer *n, uint32_t off, const uint8_t **p, uint32_t *len) {
    *len = ra_load_u32(n->keys.data + off);
    *p = n->keys.data + off + 4;
    return true;
}

// A map's unmatched keys are checked for duplicates through a table of its own (past 8 keys),
// kept at most a quarter full and keyed by `tkey`: a random key makes a probe of more than
// TBL_PROBE_LIMIT slots all but impossible (a quarter to the 64th), so one means the key is
// known; every open map's table is then hashed anew under a fresh one (rekey_tables).
#define TBL_PROBE_LIMIT 64u

static bool tbl_insert(ra_normalizer *n, frame *f, uint32_t off) {
    const uint8_t *p;
    uint32_t len;
    key_at(n, off, &p, &len);
    uint32_t mask = f->tbl_cap - 1;
    for (uint32_t i = ra_hash(n->tkey, p, len) & mask;; i = (i + 1) & mask) {
        if (!n->tbl[f->tbl_base + i]) {
            n->tbl[f->tbl_base + i] = off + 1;
            return true;
        }
    }
}

// Fills frame `f`'s table (its size set) from its keys.
static void tbl_fill(ra_normalizer *n, frame *f) {
    memset(n->tbl + f->tbl_base, 0, f->tbl_cap * sizeof(uint32_t));
    uint64_t off = f->key_base;
    for (uint32_t i = 0; i < f->nkeys; i++) {
        tbl_insert(n, f, (uint32_t)off);
        uint32_t kl = ra_load_u32(n->keys.data + off);
        off += 4 + kl + ((4 - (kl % 4)) % 4);
    }
}

static void rekey_tables(ra_normalizer *n) {
    ra_hash_key key;
    do key = ra_hash_key_random();
    while (ra_hash_key_equal(key, n->tkey));
    n->tkey = key;
    for (uint32_t d = 0; d < n->depth; d++)
        if (n->frames[d].tbl_cap) tbl_fill(n, &n->frames[d]);
}

// Returns 1 when the key was new, 0 for a duplicate, -1 on OOM.
int ra_norm_remember_key(ra_normalizer *n, frame *f, const unsigned char *key, size_t len) {
    uint32_t passed = 0;
    if (f->nkeys < 8) {
        uint64_t off = f->key_base;
        for (uint32_t i = 0; i < f->nkeys; i++) {
            uint32_t kl = ra_load_u32(n->keys.data + off);
            if (kl == len && memcmp(n->keys.data + off + 4, key, len) == 0) return 0;
            off += 4 + kl + ((4 - (kl % 4)) % 4);
        }
    } else {
        if (f->tbl_cap < 4 * (f->nkeys + 1)) {
            // Rebuild this map's table (it sits on top of the table stack).
            uint32_t cap = f->tbl_cap ? f->tbl_cap * 2 : 64;
            while (cap < 4 * (f->nkeys + 1)) cap *= 2;
            if (!ra_grow((void **)&n->tbl, &n->cap_tbl, f->tbl_base + cap, sizeof(uint32_t))) return -1;
            memset(n->tbl + f->tbl_base, 0, cap * sizeof(uint32_t));
            f->tbl_cap = cap;
            n->ntbl = f->tbl_base + cap;
            tbl_fill(n, f);
        }
        uint32_t mask = f->tbl_cap - 1;
        for (uint32_t i = ra_hash(n->tkey, key, len) & mask;; i = (i + 1) & mask, passed++) {
            uint32_t e = n->tbl[f->tbl_base + i];
            if (!e) break;
            const uint8_t *p;
            uint32_t kl;
            key_at(n, e - 1, &p, &kl);
            if (kl == len && memcmp(p, key, len) == 0) return 0;
        }
    }
    if (len > UINT32_MAX - 8 || n->keys.len + len + 8 > UINT32_MAX) return -1;
    uint32_t off = (uint32_t)n->keys.len;
    uint32_t l = (uint32_t)len;
    size_t pad = (4 - (len % 4)) % 4;
    static const uint8_t zeros[4] = {0};
    if (!ra_buf_append(&n->keys, &l, 4) || !ra_buf_append(&n->keys, key, len) || !ra_buf_append(&n->keys, zeros, pad))
        return -1;
    f->nkeys++;
    if (f->tbl_cap) tbl_insert(n, f, off);
    if (__builtin_expect(passed > TBL_PROBE_LIMIT, 0)) rekey_tables(n);
    return 1;
}

int ra_norm_capture_begin(ra_normalizer *n, uint8_t target, uint8_t kind) {
    frame *f = push(n, kind);
    if (!f) return 0;
    f->outer = true;
    f->target = target;
    ra_buf *b = capture_buf(n, f);
    // Room for the value's length; the text grows after it and the length is written at the end
    // (a heap value's in its long form, until then).
    static const uint8_t long_head[5] = {RA_LEN_LONG};
    f->cap_off = b->len;
    if (target == CAP_HEAP && !ra_buf_append(b, long_head, sizeof long_head)) return ra_norm_oom(n);
    if (target == CAP_STAGING && !ra_buf_slot(b, 0, &f->cap_off)) return ra_norm_oom(n);
    return ra_buf_append(b, kind == F_CAPTURE_MAP ? "{" : "[", 1) ? 1 : ra_norm_oom(n);
}

// The outermost capture closed: its text becomes the parent's staged value.
int ra_norm_capture_end(ra_normalizer *n, frame *f) {
    uint8_t target = f->target;
    uint64_t off = f->cap_off;
    ra_buf *b = capture_buf(n, f);
    pop(n);
    if (target == CAP_ERRORS) return 1;
    size_t head = target == CAP_HEAP ? 5 : 4;
    if (b->len - off - head > UINT32_MAX - 16 || (target == CAP_HEAP && b->len > RA_MAX_HEAP))
        return ra_norm_fail(n, RA_ERR_LIMIT, "a custom scalar value passes the arena's 4 GiB limit");
    uint32_t len = (uint32_t)(b->len - off - head);
    if (target == CAP_STAGING) {
        memcpy(b->data + off, &len, 4);
    } else if (len < RA_LEN_LONG) {
        b->data[off] = (uint8_t)len;  // the short form: the text moves up to follow one byte
        memmove(b->data + off + 1, b->data + off + 5, len);
        b->len -= 4;
    } else {
        memcpy(b->data + off + 1, &len, 4);
    }
    return ra_norm_stage_value(n, n->top, ra_make(RA_TAG_JSON, off));
}

int ra_norm_capture_scalar(ra_normalizer *n, frame *f, const char *text, size_t len, bool quote) {
    ra_buf *b = capture_buf(n, f);
    if (!capture_sep(n, f)) return ra_norm_oom(n);
    bool ok = quote ? ra_json_escape(b, (const uint8_t *)text, len) : ra_buf_append(b, text, len);
    return ok ? 1 : ra_norm_oom(n);
}
