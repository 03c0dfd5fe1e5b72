// relay RecordSource.toJSON() output: every record in data-ID order (the order its symbols were made), tombstones as null,
// strings escaped the way JSON.stringify escapes them.
#include "ra_source.h"
#include "ra_symbols.h"
#include "ra_records.h"
#include "ra_buf.h"
#include "ra_json.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static bool put_sym(ra_buf *b, const ra_source *s, uint32_t sym) {
    uint32_t len;
    if (!ra_sym_derived(s, sym)) {
        const char *t = ra_sym_text(s, sym, &len);
        return ra_json_escape(b, (const uint8_t *)t, len);
    }
    // "<prefix>:<index>": the prefix escaped, then the rest, which needs no escaping.
    uint32_t prefix, index;
    ra_sym_derivation(s, sym, &prefix, &index);
    char tail[24] = {':'};
    size_t n = 1 + ra_index_digits(tail + 1, index);
    const char *pt = ra_sym_text(s, prefix, &len);
    if (!ra_json_escape(b, (const uint8_t *)pt, len)) return false;
    b->len--;  // reopen the string: drop the closing quote just written
    return ra_buf_append(b, tail, n) && ra_buf_append(b, "\"", 1);
}

static bool put_str(ra_buf *b, const char *lit) { return ra_buf_append(b, lit, strlen(lit)); }

static bool put_value(ra_buf *b, const ra_source *s, uint64_t v) {
    char tmp[32];
    switch (ra_value_tag(v)) {
    case RA_TAG_NULL: return put_str(b, "null");
    case RA_TAG_TRUE: return put_str(b, "true");
    case RA_TAG_FALSE: return put_str(b, "false");
    case RA_TAG_INT: {
        int k = snprintf(tmp, sizeof tmp, "%" PRId64, ra_value_int(v));
        return ra_buf_append(b, tmp, (size_t)k);
    }
    case RA_TAG_NUMBER:
    case RA_TAG_JSON: {
        ra_bytes_ref r = ra_source_value_bytes(s, v);
        return ra_buf_append(b, r.ptr, r.len);
    }
    case RA_TAG_STRING: {
        ra_bytes_ref r = ra_source_value_bytes(s, v);
        return ra_json_escape(b, r.ptr, r.len);
    }
    case RA_TAG_IDSTR: return put_sym(b, s, (uint32_t)ra_value_payload(v));
    case RA_TAG_REF:
        return put_str(b, "{\"__ref\":") && put_sym(b, s, (uint32_t)ra_value_payload(v)) && put_str(b, "}");
    case RA_TAG_REFS: {
        uint32_t n = ra_source_refs_count(s, v);
        if (!put_str(b, "{\"__refs\":[")) return false;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t sym = ra_source_refs_at(s, v, i);
            if (i && !put_str(b, ",")) return false;
            if (!(sym ? put_sym(b, s, sym) : put_str(b, "null"))) return false;
        }
        return put_str(b, "]}");
    }
    default: return put_str(b, "null");
    }
}

// `"<id>":<record>`: the record at symbol `id` (which has one), a tombstone as null.
static bool put_record(ra_buf *b, const ra_source *s, uint32_t id, uint32_t untyped) {
    const ra_record *r = &s->syms[id].rec;
    if (!(put_sym(b, s, id) && put_str(b, ":"))) return false;
    if (!r->type) return put_str(b, "null");
    // A record with no type is written with no `__typename`, as relay has it.
    bool ok = put_str(b, "{\"__id\":") && put_sym(b, s, id) &&
              (r->type == untyped || (put_str(b, ",\"__typename\":") && put_sym(b, s, ra_rec_type(s, r))));
    if (ok && r->self_id)
        ok = put_str(b, ",") && put_sym(b, s, s->id_key) && put_str(b, ":") && put_value(b, s, ra_make(RA_TAG_IDSTR, id));
    for (uint32_t f = 0; ok && f < ra_rec_count(s, r); f++) {
        uint64_t slot = ra_rec_slot(s, r, f);
        ok = put_str(b, ",") && put_sym(b, s, ra_slot_key(slot)) && put_str(b, ":") && put_value(b, s, ra_slot_value(slot));
    }
    return ok && put_str(b, "}");
}

static ra_status finish(ra_buf *b, bool ok, uint8_t **out, size_t *out_len) {
    ok = ok && put_str(b, "}");
    if (!ok) {
        ra_buf_free(b);
        *out = NULL;
        *out_len = 0;
        return RA_ERR_NOMEM;
    }
    *out = b->data;
    *out_len = b->len;
    return RA_OK;
}

ra_status ra_source_export_json(const ra_source *s, uint8_t **out, size_t *out_len) {
    ra_buf b = {0};
    bool ok = put_str(&b, "{"), first = true;
    uint32_t untyped = ra_untyped_type(s);  // (0: none; a live record's type is never 0)
    // Records in their data IDs' order (one table holds both: a record is in its ID's entry).
    for (uint32_t id = 1; ok && id < s->nsyms; id++) {
        if (!ra_has_record(s, id)) continue;
        ok = (first || put_str(&b, ",")) && put_record(&b, s, id, untyped);
        first = false;
    }
    return finish(&b, ok, out, out_len);
}

ra_status ra_source_export_records_json(const ra_source *s, const uint32_t *syms, uint32_t n, uint8_t **out,
                                        size_t *out_len) {
    ra_buf b = {0};
    bool ok = put_str(&b, "{"), first = true;
    uint32_t untyped = ra_untyped_type(s);
    for (uint32_t i = 0; ok && i < n; i++) {
        uint32_t id = syms[i];
        if (id == 0 || id >= s->nsyms || !ra_has_record(s, id)) continue;
        ok = (first || put_str(&b, ",")) && put_record(&b, s, id, untyped);
        first = false;
    }
    return finish(&b, ok, out, out_len);
}
