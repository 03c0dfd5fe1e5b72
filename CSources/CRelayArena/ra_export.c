// relay RecordSource.toJSON() output: every record in data-ID order (the order its symbols were made), tombstones as null,
// strings escaped the way JSON.stringify escapes them.
#include "ra_source.h"
#include "ra_symbols.h"
#include "ra_records.h"
#include "ra_buf.h"
#include "ra_json.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

// Where the text goes: a buffer, which the writer to a file descriptor (fd >= 0) drains whenever
// it holds RA_EXPORT_DRAIN bytes, so that a store is written with a buffer's worth of memory
// however long its values; a string longer than that is escaped a piece at a time.
#define RA_EXPORT_DRAIN ((size_t)1 << 16)
typedef struct out {
    ra_buf b;
    int fd;
    int error;  // errno of the failed write
} out;

static bool write_out(out *o) {
    const uint8_t *p = o->b.data;
    size_t n = o->b.len;
    while (n) {
        ssize_t w = write(o->fd, p, n > ((size_t)1 << 30) ? (size_t)1 << 30 : n);
        if (w < 0) {
            if (errno == EINTR) continue;
            o->error = errno;
            return false;
        }
        p += w;
        n -= (size_t)w;
    }
    o->b.len = 0;
    return true;
}
static bool drain(out *o) { return o->fd < 0 || o->b.len < RA_EXPORT_DRAIN || write_out(o); }

static bool put_escaped(out *o, const uint8_t *p, size_t n) {
    if (o->fd < 0 || n <= RA_EXPORT_DRAIN) return ra_json_escape(&o->b, p, n);
    if (!ra_buf_append(&o->b, "\"", 1)) return false;
    for (size_t at = 0; at < n; at += RA_EXPORT_DRAIN) {
        size_t k = n - at < RA_EXPORT_DRAIN ? n - at : RA_EXPORT_DRAIN;
        if (!ra_json_escape_inner(&o->b, p + at, k) || !drain(o)) return false;
    }
    return ra_buf_append(&o->b, "\"", 1);
}

static bool put_sym(out *o, const ra_source *s, uint32_t sym) {
    ra_buf *b = &o->b;
    uint32_t len;
    if (!ra_sym_derived(s, sym)) {
        const char *t = ra_sym_text(s, sym, &len);
        return put_escaped(o, (const uint8_t *)t, len);
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

static bool put_str(out *o, const char *lit) { return ra_buf_append(&o->b, lit, strlen(lit)); }

static bool put_value(out *o, const ra_source *s, uint64_t v) {
    char tmp[32];
    switch (ra_value_tag(v)) {
    case RA_TAG_NULL: return put_str(o, "null");
    case RA_TAG_TRUE: return put_str(o, "true");
    case RA_TAG_FALSE: return put_str(o, "false");
    case RA_TAG_INT: {
        int k = snprintf(tmp, sizeof tmp, "%" PRId64, ra_value_int(v));
        return ra_buf_append(&o->b, tmp, (size_t)k);
    }
    case RA_TAG_NUMBER:
    case RA_TAG_JSON: {
        ra_bytes_ref r = ra_source_value_bytes(s, v);
        return ra_buf_append(&o->b, r.ptr, r.len);
    }
    case RA_TAG_STRING: {
        ra_bytes_ref r = ra_source_value_bytes(s, v);
        return put_escaped(o, r.ptr, r.len);
    }
    case RA_TAG_IDSTR: return put_sym(o, s, (uint32_t)ra_value_payload(v));
    case RA_TAG_REF:
        return put_str(o, "{\"__ref\":") && put_sym(o, s, (uint32_t)ra_value_payload(v)) && put_str(o, "}");
    case RA_TAG_REFS: {
        uint32_t n = ra_source_refs_count(s, v);
        if (!put_str(o, "{\"__refs\":[")) return false;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t sym = ra_source_refs_at(s, v, i);
            if ((i && !put_str(o, ",")) || !drain(o)) return false;
            if (!(sym ? put_sym(o, s, sym) : put_str(o, "null"))) return false;
        }
        return put_str(o, "]}");
    }
    default: return put_str(o, "null");
    }
}

// `"<id>":<record>`: the record at symbol `id` (which has one), a tombstone as null.
static bool put_record(out *o, const ra_source *s, uint32_t id, uint32_t untyped) {
    const ra_record *r = &s->syms[id].rec;
    if (!(put_sym(o, s, id) && put_str(o, ":"))) return false;
    if (!r->type) return put_str(o, "null");
    // A record with no type is written with no `__typename`, as relay has it.
    bool ok = put_str(o, "{\"__id\":") && put_sym(o, s, id) &&
              (r->type == untyped || (put_str(o, ",\"__typename\":") && put_sym(o, s, ra_rec_type(s, r))));
    if (ok && r->self_id)
        ok = put_str(o, ",") && put_sym(o, s, s->id_key) && put_str(o, ":") && put_value(o, s, ra_make(RA_TAG_IDSTR, id));
    for (uint32_t f = 0; ok && f < ra_rec_count(s, r); f++) {
        uint64_t slot = ra_rec_slot(s, r, f);
        ok = put_str(o, ",") && put_sym(o, s, ra_slot_key(slot)) && put_str(o, ":") && put_value(o, s, ra_slot_value(slot)) &&
             drain(o);
    }
    return ok && put_str(o, "}");
}

static ra_status finish(out *o, bool ok, uint8_t **out_bytes, size_t *out_len) {
    ok = ok && put_str(o, "}");
    if (!ok) {
        ra_buf_free(&o->b);
        *out_bytes = NULL;
        *out_len = 0;
        return RA_ERR_NOMEM;
    }
    *out_bytes = o->b.data;
    *out_len = o->b.len;
    return RA_OK;
}

static bool put_all(out *o, const ra_source *s) {
    bool ok = put_str(o, "{"), first = true;
    uint32_t untyped = ra_untyped_type(s);  // (0: none; a live record's type is never 0)
    // Records in their data IDs' order (one table holds both: a record is in its ID's entry).
    for (uint32_t id = 1; ok && id < s->nsyms; id++) {
        if (!ra_has_record(s, id)) continue;
        ok = (first || put_str(o, ",")) && put_record(o, s, id, untyped) && drain(o);
        first = false;
    }
    return ok;
}

ra_status ra_source_export_json(const ra_source *s, uint8_t **out_bytes, size_t *out_len) {
    out o = {.fd = -1};
    return finish(&o, put_all(&o, s), out_bytes, out_len);
}

ra_status ra_source_write_json(const ra_source *s, int fd, int *error) {
    out o = {.fd = fd};
    bool ok = put_all(&o, s) && put_str(&o, "}\n") && write_out(&o);
    ra_buf_free(&o.b);
    if (error) *error = o.error;
    return ok ? RA_OK : o.error ? RA_ERR_IO : RA_ERR_NOMEM;
}

ra_status ra_source_export_records_json(const ra_source *s, const uint32_t *syms, uint32_t n, uint8_t **out_bytes,
                                        size_t *out_len) {
    out o = {.fd = -1};
    bool ok = put_str(&o, "{"), first = true;
    uint32_t untyped = ra_untyped_type(s);
    for (uint32_t i = 0; ok && i < n; i++) {
        uint32_t id = syms[i];
        if (id == 0 || id >= s->nsyms || !ra_has_record(s, id)) continue;
        ok = (first || put_str(&o, ",")) && put_record(&o, s, id, untyped);
        first = false;
    }
    return finish(&o, ok, out_bytes, out_len);
}
