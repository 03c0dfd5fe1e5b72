// Loads relay RecordSource.toJSON() text into a fresh source, streaming: `{"__ref": id}` and
// `{"__refs": [...]}` become links, other objects and lists stay JSON text (custom scalars).
#include "ra_source.h"
#include "ra_symbols.h"
#include "ra_records.h"
#include "ra_heap.h"
#include "ra_buf.h"
#include "ra_json.h"
#include "ra_alloc.h"
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <yajl/yajl_parse.h>

#pragma clang assume_nonnull begin

enum { REF_NONE, REF_ONE, REF_MANY, REF_BAD };

typedef struct importer {
    ra_source *src;
    yajl_handle yh;
    ra_error *err;
    bool failed;
    uint32_t depth, max_depth;
    int64_t rec;               // current record, -1 outside
    bool in_id, in_typename;
    uint32_t key;              // field key symbol at depth 2
    uint32_t id_sym;
    ra_buf text;               // JSON text of a container value
    uint32_t cap_depth;        // depth at which the captured value started (0: none)
    uint32_t member_count[4];  // per capture level 3.. (only the first levels matter for refs)
    int ref_kind;
    uint32_t ref_sym;
    uint32_t *refs;
    uint32_t nrefs, caprefs;
    uint64_t *fields;          // the current record's fields (ra_slot_pack), set at its end at once
    uint32_t nfields, capfields;
    bool need_comma[1024], is_map[1024];
} importer;

__attribute__((format(printf, 2, 3))) static int ifail(importer *im, const char *fmt, ...) {
    if (im->failed) return 0;
    im->failed = true;
    im->err->code = RA_ERR_SHAPE;
    im->err->offset = im->yh ? yajl_get_bytes_consumed(im->yh) : 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(im->err->message, sizeof im->err->message, fmt, ap);
    va_end(ap);
    return 0;
}

static int ioom(importer *im) {
    if (im->src->heap_full || im->src->names_full) {
        ifail(im, "the store's %s pass the arena's limit of %u bytes",
              im->src->heap_full ? "strings and lists" : "data IDs and names",
              im->src->heap_full ? RA_MAX_HEAP : RA_MAX_SYM_BYTES);
        im->err->code = RA_ERR_LIMIT;
        return 0;
    }
    if (im->src->types_full) {
        ifail(im, "the store has more than %u typenames, the arena's limit", RA_MAX_TYPES);
        im->err->code = RA_ERR_LIMIT;
        return 0;
    }
    if (im->src->shapes_full) {
        ifail(im, "the store has more than %u record shapes, the arena's limit", RA_MAX_SHAPES);
        im->err->code = RA_ERR_LIMIT;
        return 0;
    }
    if (im->src->fields_full) {
        ifail(im, "a record would hold more than %u fields, the arena's limit", RA_MAX_FIELDS_PER_RECORD);
        im->err->code = RA_ERR_LIMIT;
        return 0;
    }
    ifail(im, "out of memory while loading a store");
    im->err->code = RA_ERR_NOMEM;
    return 0;
}

// Heap slots hold a u32 length: longer values are refused rather than cut.
static int itoo_long(importer *im) {
    ifail(im, "a value is longer than the arena's 4 GiB limit");
    im->err->code = RA_ERR_LIMIT;
    return 0;
}

static bool set_field(importer *im, uint64_t v) {
    if (v && im->nfields > 2 * RA_MAX_FIELDS_PER_RECORD) {  // (set what there is: past the limit, that fails)
        if (!ra_record_set_all(im->src, (uint32_t)im->rec, im->fields, im->nfields)) return false;
        im->nfields = 0;
    }
    if (!v || !ra_grow((void **)&im->fields, &im->capfields, im->nfields + 1, sizeof(uint64_t))) return false;
    im->fields[im->nfields++] = ra_slot_pack(im->key, v);
    return true;
}

// Separators inside captured text: maps get theirs from the key, arrays from each value.
static bool value_sep(importer *im, uint32_t level) {
    if (im->is_map[level]) return true;
    if (im->need_comma[level]) return ra_buf_append(&im->text, ",", 1);
    im->need_comma[level] = true;
    return true;
}

static int scalar(importer *im, int kind, const char *s, size_t len) {
    if (im->failed) return 0;
    if (im->depth == 1) {
        if (kind != 0) return ifail(im, "record values must be objects or null");
        bool created;
        int64_t r = ra_record_get_or_create(im->src, im->id_sym, 0, &created);
        if (r < 0) return ioom(im);
        // A repeated data ID replaces the earlier record (JSON.parse keeps the last value).
        im->src->syms[r].rec.type = 0;
        im->src->syms[r].rec.shape = 0;
        im->src->syms[r].rec.self_id = 0;
        return 1;
    }
    if (im->depth == 2) {
        if (im->in_id) {
            if (kind != 3) return ifail(im, "`__id` must be a string");
            // relay keeps a record under its key and getDataID reads `__id`: when they differ the
            // store is inconsistent, and the arena, which keeps a record in its ID's entry, cannot
            // hold it. (No `__id` at all: the key is the ID.)
            if (ra_text_is_own_id(im->src, im->id_sym, s, len)) return 1;
            uint32_t idlen;
            const char *id = ra_sym_text_any(im->src, im->id_sym, &idlen);
            if (!id) return ioom(im);
            return ifail(im, "record `%.*s` has `__id` `%.*s`: a record's `__id` must be its key",
                         (int)(idlen > 200 ? 200 : idlen), id, (int)(len > 200 ? 200 : len), s);
        }
        if (im->in_typename) {
            if (kind != 3) return ifail(im, "`__typename` must be a string");
            if (!len) {  // (the empty typename is a record's with none: it would not write back)
                uint32_t idlen;
                const char *id = ra_sym_text_any(im->src, im->id_sym, &idlen);
                if (!id) return ioom(im);
                return ifail(im, "record `%.*s` has an empty `__typename`", (int)(idlen > 200 ? 200 : idlen), id);
            }
            uint32_t t = ra_intern(im->src, s, len), ti = t ? ra_type_index(im->src, t) : 0;
            if (!ti) return ioom(im);
            im->src->syms[im->rec].rec.type = (uint16_t)ti;
            return 1;
        }
        if (len > UINT32_MAX - 16) return itoo_long(im);
        uint64_t v;
        switch (kind) {
        case 0: v = ra_make(RA_TAG_NULL, 0); break;
        case 1: v = ra_make(len == 4 ? RA_TAG_TRUE : RA_TAG_FALSE, 0); break;
        case 2: v = ra_small_int(s, len, &v) ? v : ra_heap_put(im->src, RA_TAG_NUMBER, s, (uint32_t)len); break;
        default:
            // An `id` that is the record's own data ID: the header bit, as a payload leaves it.
            v = im->key == im->src->id_key && ra_text_is_own_id(im->src, im->id_sym, s, len) ? ra_make(RA_TAG_IDSTR, im->id_sym)
                                                               : ra_heap_put(im->src, RA_TAG_STRING, s, (uint32_t)len);
            break;
        }
        return set_field(im, v) ? 1 : ioom(im);
    }
    // Inside a captured value: `{"__ref": "id"}` or `{"__refs": ["id", null, ...]}` are links.
    if (im->depth == im->cap_depth) {
        if (im->ref_kind == REF_ONE && kind == 3 && im->member_count[0] == 1) {
            im->ref_sym = ra_intern(im->src, s, len);
            if (!im->ref_sym) return ioom(im);
        } else {
            im->ref_kind = REF_BAD;
        }
    } else if (im->depth == im->cap_depth + 1 && im->ref_kind == REF_MANY) {
        if (kind == 3 || kind == 0) {
            uint32_t sym = kind == 3 ? ra_intern(im->src, s, len) : 0;
            if (kind == 3 && !sym) return ioom(im);
            if (!ra_grow((void **)&im->refs, &im->caprefs, im->nrefs + 1, 4)) return ioom(im);
            im->refs[im->nrefs++] = sym;
        } else {
            im->ref_kind = REF_BAD;
        }
    }
    bool ok = value_sep(im, im->depth - im->cap_depth) && (kind == 3 ? ra_json_escape(&im->text, (const uint8_t *)s, len) : ra_buf_append(&im->text, s, len));
    return ok ? 1 : ioom(im);
}

static int i_null(void *c) { return scalar(c, 0, "null", 4); }
static int i_bool(void *c, int b) { return scalar(c, 1, b ? "true" : "false", b ? 4 : 5); }
static int i_number(void *c, const char *s, size_t l) { return scalar(c, 2, s, l); }
static int i_string(void *c, const unsigned char *s, size_t l) { return scalar(c, 3, (const char *)s, l); }

static int start(importer *im, bool map) {
    if (im->failed) return 0;
    if (++im->depth > im->max_depth) {
        ifail(im, "nesting depth exceeds the limit of %u", im->max_depth);
        im->err->code = RA_ERR_DEPTH;
        return 0;
    }
    if (im->depth == 1) return map ? 1 : ifail(im, "a store is a JSON object of records");
    if (im->depth == 2) {
        if (!map) return ifail(im, "record values must be objects or null");
        bool created;
        im->rec = ra_record_get_or_create(im->src, im->id_sym, 0, &created);
        if (im->rec < 0) return ioom(im);
        im->src->syms[im->rec].rec.type = 0;
        im->src->syms[im->rec].rec.shape = 0;
        im->src->syms[im->rec].rec.self_id = 0;
        im->nfields = 0;
        return 1;
    }
    if (im->depth == 3) {
        if (im->in_id || im->in_typename) return ifail(im, "`__id` and `__typename` must be strings");
        im->cap_depth = 3;
        im->text.len = 0;
        im->ref_kind = REF_NONE;  // decided by the first key of a map; a list is never a link
        if (!map) im->ref_kind = REF_BAD;
        im->member_count[0] = 0;
        im->nrefs = 0;
        im->ref_sym = 0;
    } else {
        // `{"__refs": [...]}`: the list directly under the link object is expected; nothing else.
        if (!(im->depth == im->cap_depth + 1 && im->ref_kind == REF_MANY && !map)) {
            if (im->depth <= im->cap_depth + 1 || im->ref_kind == REF_MANY) im->ref_kind = REF_BAD;
        }
        if (!value_sep(im, im->depth - 1 - im->cap_depth)) return ioom(im);
    }
    uint32_t level = im->depth - im->cap_depth;
    im->is_map[level] = map;
    im->need_comma[level] = false;
    return ra_buf_append(&im->text, map ? "{" : "[", 1) ? 1 : ioom(im);
}

static int i_start_map(void *c) { return start(c, true); }
static int i_start_array(void *c) { return start(c, false); }

static int i_key(void *c, const unsigned char *k, size_t len) {
    importer *im = c;
    if (im->failed) return 0;
    if (im->depth == 1) {
        im->id_sym = ra_intern(im->src, (const char *)k, len);
        return im->id_sym ? 1 : ioom(im);
    }
    if (im->depth == 2) {
        im->in_id = len == 4 && memcmp(k, "__id", 4) == 0;
        im->in_typename = len == 10 && memcmp(k, "__typename", 10) == 0;
        if (!im->in_id && !im->in_typename) {
            im->key = ra_intern(im->src, (const char *)k, len);
            if (!im->key) return ioom(im);
            if (len == 2 && k[0] == 'i' && k[1] == 'd') im->src->id_key = im->key;
        }
        return 1;
    }
    if (im->depth == im->cap_depth) {
        uint32_t n = ++im->member_count[0];
        if (n == 1 && len == 5 && memcmp(k, "__ref", 5) == 0) im->ref_kind = REF_ONE;
        else if (n == 1 && len == 6 && memcmp(k, "__refs", 6) == 0) im->ref_kind = REF_MANY;
        else im->ref_kind = REF_BAD;
    }
    uint32_t level = im->depth - im->cap_depth;
    bool ok = (!im->need_comma[level] || ra_buf_append(&im->text, ",", 1)) && ra_json_escape(&im->text, k, len) &&
              ra_buf_append(&im->text, ":", 1);
    im->need_comma[level] = true;
    return ok ? 1 : ioom(im);
}

static int end(importer *im, bool map) {
    if (im->failed) return 0;
    uint32_t d = im->depth--;
    if (d == 2) {
        if (!im->src->syms[im->rec].rec.type) {
            // No `__typename`: relay keeps such a record (an updater's, an older store's) with no
            // type, and so does the arena (ra_untyped_type).
            uint32_t ti = ra_untyped_type_add(im->src);
            if (!ti) return ioom(im);
            im->src->syms[im->rec].rec.type = (uint16_t)ti;
        }
        // Its fields at once: one shape for the record, not one per field on the way.
        if (!ra_record_set_all(im->src, (uint32_t)im->rec, im->fields, im->nfields)) return ioom(im);
        im->nfields = 0;
        ra_record_trim(im->src, (uint32_t)im->rec);  // (a slot given up for the `id` bit, a repeated data ID)
        im->rec = -1;
        return 1;
    }
    if (d < 3) return 1;
    if (!ra_buf_append(&im->text, map ? "}" : "]", 1)) return ioom(im);
    if (d > 3) return 1;
    uint64_t v;
    if (map && im->ref_kind == REF_ONE && im->member_count[0] == 1 && im->ref_sym) v = ra_make(RA_TAG_REF, im->ref_sym);
    else if (map && im->ref_kind == REF_MANY && im->member_count[0] == 1) v = ra_heap_put_refs(im->src, im->refs ? im->refs : (uint32_t[]){0}, im->nrefs);
    else if (im->text.len > UINT32_MAX - 16) return itoo_long(im);
    else v = ra_heap_put(im->src, RA_TAG_JSON, im->text.data, (uint32_t)im->text.len);
    im->cap_depth = 0;
    return set_field(im, v) ? 1 : ioom(im);
}

static int i_end_map(void *c) { return end(c, true); }
static int i_end_array(void *c) { return end(c, false); }

static const yajl_callbacks import_callbacks = {
    .yajl_null = i_null, .yajl_boolean = i_bool, .yajl_number = i_number, .yajl_string = i_string,
    .yajl_start_map = i_start_map, .yajl_map_key = i_key, .yajl_end_map = i_end_map,
    .yajl_start_array = i_start_array, .yajl_end_array = i_end_array,
};

// The data IDs first, in the file's order. A record is kept in its ID's symbol entry, and
// records are in their IDs' order, so that order is the file's only if each record's ID is
// interned before any link to it (a record linking one further down would otherwise take its
// ID's place first): a file loaded and written out again is the same file. This pass interns the
// top-level keys and nothing else (scan_ids, else yajl's pass below); it stops at a file nested
// past the load's depth limit (yajl's, at a malformed one too), and the load that follows says
// what is wrong and where. (One exception to the file's order: a
// list item's client ID interns its prefix first, "client:X:edges" for "client:X:edges:3", so a
// record of that prefix's ID further down comes before the item. A file this store wrote has it
// before: a prefix's symbol is always older than its derivations.)
typedef struct id_pass {
    ra_source *src;
    uint32_t depth, max_depth;
    bool oom;
} id_pass;
static int ip_scalar(void *c) { return 1; }
static int ip_bool(void *c, int b) { return 1; }
static int ip_number(void *c, const char *s, size_t l) { return 1; }
static int ip_string(void *c, const unsigned char *s, size_t l) { return 1; }
static int ip_start(void *c) { return ++((id_pass *)c)->depth <= ((id_pass *)c)->max_depth; }
static int ip_end(void *c) { ((id_pass *)c)->depth--; return 1; }
static int ip_key(void *c, const unsigned char *k, size_t len) {
    id_pass *p = c;
    if (p->depth != 1) return 1;
    if (len > UINT32_MAX) p->src->names_full = true;  // (ra_intern refuses it: a limit, not out of memory)
    if (len > UINT32_MAX || !ra_intern(p->src, (const char *)k, len)) {
        p->oom = true;
        return 0;
    }
    return 1;
}
static const yajl_callbacks id_pass_callbacks = {
    .yajl_null = ip_scalar, .yajl_boolean = ip_bool, .yajl_number = ip_number, .yajl_string = ip_string,
    .yajl_start_map = ip_start, .yajl_map_key = ip_key, .yajl_end_map = ip_end,
    .yajl_start_array = ip_start, .yajl_end_array = ip_end,
};

// The pass by yajl: for a file whose top-level keys scan_ids leaves to it (a `\u` escape).
static bool intern_ids_parsed(ra_source *src, const uint8_t *bytes, size_t len, uint32_t max_depth) {
    id_pass p = {.src = src, .max_depth = max_depth};
    yajl_handle h = yajl_alloc(&id_pass_callbacks, &ra_yajl_alloc_funcs, &p);
    if (!h) return false;
    yajl_status st = yajl_parse(h, bytes, len);
    if (st == yajl_status_ok) (void)yajl_complete_parse(h);
    yajl_free(h);
    return !p.oom;
}

// The `n` bytes of a JSON string's text at `p`, unescaped into `out` (from its start): its length,
// or SIZE_MAX for a `\u` escape (left to yajl) or a bad one (the load rejects the file), or on OOM.
static size_t unescape_simple(ra_buf *out, const uint8_t *p, size_t n) {
    out->len = 0;
    if (!ra_buf_reserve(out, n ? n : 1)) return SIZE_MAX;
    uint8_t *o = out->data;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        if (c == '\\') {
            if (++i == n) return SIZE_MAX;
            switch (p[i]) {
            case '"': c = '"'; break;
            case '\\': c = '\\'; break;
            case '/': c = '/'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            default: return SIZE_MAX;
            }
        }
        *o++ = c;
    }
    return (size_t)(o - out->data);
}

// The pass by a scan of the bytes, not a parse (yajl's took 38% of a 20k-todo file's load; the
// scan takes ~13%, mostly interning): the load that follows validates the file, and a file that
// fails it loses its source, so only a well-formed file's keys matter, and for one the scan finds
// what yajl's pass would. Strings are skipped quote to quote (memchr; a quote after an odd run of
// backslashes is escaped), brackets counted; in a root object, a string at depth 1 after `{` or
// `,` is a key, unescaped when it has an escape. 1: done; 0: interning failed (out of memory, or
// past a limit); -1: a top-level key has a `\u` escape, or a bad one, or unescaping it ran out
// of memory: yajl's pass does it all.
static int scan_ids(ra_source *src, const uint8_t *b, size_t len, uint32_t max_depth, ra_buf *scratch) {
    const uint8_t *p = b, *end = b + len;
    uint64_t depth = 0;
    bool object = false;  // the root is an object (an array's strings are no keys)
    bool key = false;     // at depth 1, the next string is a key
    while (p < end) {
        uint8_t c = *p++;
        switch (c) {
        case '"': {
            const uint8_t *q = p;
            for (;;) {
                q = memchr(q, '"', (size_t)(end - q));
                if (!q) return 1;  // (unterminated: the load says so)
                size_t slashes = 0;
                while (q - slashes > p && q[-1 - (ptrdiff_t)slashes] == '\\') slashes++;
                if (!(slashes & 1)) break;
                q++;
            }
            if (depth == 1 && key) {
                size_t n = (size_t)(q - p);
                const char *text = (const char *)p;
                if (memchr(p, '\\', n)) {  // (a client ID of a field with a string argument: `\"`)
                    n = unescape_simple(scratch, p, n);
                    if (n == SIZE_MAX) return -1;
                    text = (const char *)scratch->data;
                }
                if (n > UINT32_MAX) src->names_full = true;  // (ra_intern refuses it: a limit, not out of memory)
                if (n > UINT32_MAX || !ra_intern(src, text, n)) return 0;
                key = false;
            }
            p = q + 1;
            break;
        }
        case '{':
        case '[':
            if (++depth > max_depth) return 1;  // (the load stops there too, and says so)
            if (depth == 1) object = key = c == '{';
            break;
        case '}':
        case ']':
            if (!depth) return 1;
            depth--;
            break;
        case ',': key = depth == 1 && object; break;
        default: break;
        }
    }
    return 1;
}

// False only when interning failed (out of memory, or past a limit).
static bool intern_ids(ra_source *src, const uint8_t *bytes, size_t len, uint32_t max_depth) {
    ra_buf scratch = {0};
    int scanned = scan_ids(src, bytes, len, max_depth, &scratch);
    ra_buf_free(&scratch);
    return scanned < 0 ? intern_ids_parsed(src, bytes, len, max_depth) : scanned == 1;
}

ra_source *_Nullable ra_source_import_json(const uint8_t *_Nullable bytes, size_t len, uint32_t max_depth, ra_error *err) {
    importer im = {.max_depth = max_depth && max_depth < 1000 ? max_depth : 1000, .rec = -1, .err = err};
    memset(err, 0, sizeof *err);
    im.src = ra_source_create();
    if (!im.src) {
        ra_error_set(err, RA_ERR_NOMEM, 0, "out of memory while loading a store");
        return NULL;
    }
    im.yh = yajl_alloc(&import_callbacks, &ra_yajl_alloc_funcs, &im);
    if (!im.yh) {
        ra_source_destroy(im.src);
        ra_error_set(err, RA_ERR_NOMEM, 0, "out of memory while loading a store");
        return NULL;
    }
    if (!intern_ids(im.src, bytes ? bytes : (const uint8_t *)"", len, im.max_depth)) {
        yajl_free(im.yh);
        im.yh = NULL;
        ioom(&im);
        ra_source_destroy(im.src);
        return NULL;
    }
    yajl_status st = yajl_parse(im.yh, bytes ? bytes : (const uint8_t *)"", len);
    if (st == yajl_status_ok) st = yajl_complete_parse(im.yh);
    if (st != yajl_status_ok && !im.failed) {
        unsigned char *msg = yajl_get_error(im.yh, 0, bytes, len);
        ra_error_set(err, RA_ERR_JSON, yajl_get_bytes_consumed(im.yh), "malformed store JSON: %s", msg ? (char *)msg : "parse error");
        if (msg) yajl_free_error(im.yh, msg);
        size_t ml = strlen(err->message);
        while (ml && (err->message[ml - 1] == '\n' || err->message[ml - 1] == ' ')) err->message[--ml] = 0;
        im.failed = true;
    }
    yajl_free(im.yh);
    ra_dealloc(im.refs);
    ra_dealloc(im.fields);
    ra_buf_free(&im.text);
    if (im.failed || st != yajl_status_ok) {
        ra_source_destroy(im.src);
        return NULL;
    }
    ra_source_trim_tables(im.src);  // (the last derivation table's room, as a payload's)
    return im.src;
}

#pragma clang assume_nonnull end
