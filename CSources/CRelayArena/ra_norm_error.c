// The normalizer's error stage, below the others: the first error a payload meets (its code,
// the input offset and the response path), from a check of any stage (ra_norm_fail), an
// allocation or a limit (ra_norm_oom), or yajl's syntax error (ra_norm_parse_failed). It calls
// into no other stage.
#include "ra_norm_error.h"
#include "ra_normalize.h"
#include "ra_plan.h"
#include "ra_source.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void append_path(ra_normalizer *n, char *out, size_t cap) {
    size_t len = 0;
    out[0] = 0;
    for (uint32_t d = 0; d < n->depth; d++) {
        const frame *f = &n->frames[d];
        char part[160];
        part[0] = 0;
        if (f->kind == F_RECORD && f->sel == RA_NONE) {
            snprintf(part, sizeof part, "data");
        } else if (f->kind == F_RECORD && f->index >= 0) {
            snprintf(part, sizeof part, ".%lld", (long long)f->index);
        } else if ((f->kind == F_RECORD || f->kind == F_LIST) && f->sel != RA_NONE) {
            uint32_t kl;
            const char *k = ra_plan_str(n->plan, n->plan->sels[f->sel].response_key, &kl);
            snprintf(part, sizeof part, ".%.*s", (int)(kl > 120 ? 120 : kl), k);
        }
        size_t pl = strlen(part);
        if (len + pl + 1 < cap) {
            memcpy(out + len, part, pl + 1);
            len += pl;
        }
    }
    if (n->depth) {
        const frame *top = n->top;
        if (top->kind == F_RECORD && top->cur_key != RA_NONE) {
            uint32_t kl;
            const char *k = ra_plan_str(n->plan, top->cur_key, &kl);
            snprintf(out + len, cap - len, ".%.*s", (int)(kl > 120 ? 120 : kl), k);
        } else if (top->kind == F_LIST) {
            snprintf(out + len, cap - len, ".%u", top->count);
        }
    }
}

// Records the first error (with the response path) and stops the parse.
__attribute__((format(printf, 3, 4), cold, noinline)) int ra_norm_fail(ra_normalizer *n, ra_status code, const char *fmt, ...) {
    if (n->failed) return 0;
    n->failed = true;
    n->err.code = code;
    n->err.offset = n->consumed + (n->yh ? yajl_get_bytes_consumed(n->yh) : 0);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->err.message, sizeof n->err.message, fmt, ap);
    va_end(ap);
    append_path(n, n->err.path, sizeof n->err.path);
    return 0;
}

// Allocation failed, or interning hit one of the arena's limits (which says so).
__attribute__((cold, noinline)) int ra_norm_oom(ra_normalizer *n) {
    if (n->delta && n->delta->nsyms >= RA_MAX_SYMBOLS)
        return ra_norm_fail(n, RA_ERR_LIMIT, "the response has more than %u data IDs and names, the arena's limit",
                    RA_MAX_SYMBOLS - 1);
    if (n->delta && n->delta->heap_full)
        return ra_norm_fail(n, RA_ERR_LIMIT, "the response's strings and lists pass the arena's limit of %u bytes", RA_MAX_HEAP);
    if (n->delta && n->delta->names_full)
        return ra_norm_fail(n, RA_ERR_LIMIT, "the response's data IDs and names pass the arena's limit of %u bytes",
                    RA_MAX_SYM_BYTES);
    if (n->delta && n->delta->types_full)
        return ra_norm_fail(n, RA_ERR_LIMIT, "the response has more than %u typenames, the arena's limit", RA_MAX_TYPES);
    if (n->delta && n->delta->shapes_full)
        return ra_norm_fail(n, RA_ERR_LIMIT, "the response has more than %u record shapes, the arena's limit", RA_MAX_SHAPES);
    if (n->delta && n->delta->fields_full)
        return ra_norm_fail(n, RA_ERR_LIMIT, "a record would hold more than %u fields, the arena's limit",
                    RA_MAX_FIELDS_PER_RECORD);
    return ra_norm_fail(n, RA_ERR_NOMEM, "out of memory while normalizing");
}

// A JSON syntax error from yajl: the first error, with its offset and the response path.
ra_status ra_norm_parse_failed(ra_normalizer *n, yajl_status st, const uint8_t *bytes, size_t len) {
    if (!n->failed) {
        n->failed = true;
        n->err.code = RA_ERR_JSON;
        n->err.offset = n->consumed + yajl_get_bytes_consumed(n->yh);
        unsigned char *msg = yajl_get_error(n->yh, 0, bytes, len);
        snprintf(n->err.message, sizeof n->err.message, "malformed JSON: %s",
                 msg ? (const char *)msg : "parse error");
        if (msg) yajl_free_error(n->yh, msg);
        // yajl's messages end with a newline; keep the error on one line.
        size_t ml = strlen(n->err.message);
        while (ml && (n->err.message[ml - 1] == '\n' || n->err.message[ml - 1] == ' ')) n->err.message[--ml] = 0;
        append_path(n, n->err.path, sizeof n->err.path);
    }
    (void)st;
    return n->err.code;
}
