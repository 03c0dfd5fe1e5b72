// JSON text helpers shared by the files that read or write JSON: string escaping as
// JSON.stringify does it (export, the response's `errors`, import's JSON values) and error
// reports at a byte offset of the text.
#include "ra_json.h"
#include "ra_buf.h"
#include <stdarg.h>
#include <stdio.h>

bool ra_json_escape(ra_buf *b, const uint8_t *s, size_t n) {
    if (n > SIZE_MAX - 2 || !ra_buf_reserve(b, n + 2)) return false;
    b->data[b->len++] = '"';
    return ra_json_escape_inner(b, s, n) && ra_buf_append(b, "\"", 1);
}

bool ra_json_escape_inner(ra_buf *b, const uint8_t *s, size_t n) {
    static const char hex[] = "0123456789abcdef";
    if (!ra_buf_reserve(b, n)) return false;
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        const char *esc = NULL;
        char u[6];
        switch (c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        default:
            if (c < 0x20) {
                u[0] = '\\'; u[1] = 'u'; u[2] = '0'; u[3] = '0'; u[4] = hex[c >> 4]; u[5] = hex[c & 15];
                if (!ra_buf_append(b, s + run, i - run) || !ra_buf_append(b, u, 6)) return false;
                run = i + 1;
            }
            continue;
        }
        if (!ra_buf_append(b, s + run, i - run) || !ra_buf_append(b, esc, 2)) return false;
        run = i + 1;
    }
    return ra_buf_append(b, s + run, n - run);
}

void ra_error_set(ra_error *err, ra_status code, uint64_t offset, const char *fmt, ...) {
    if (!err) return;
    err->code = code;
    err->offset = offset;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}
