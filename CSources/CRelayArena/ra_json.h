// JSON text helpers shared by the files that read or write JSON (ra_json.c): string escaping as
// JSON.stringify does it, and error reports at a byte offset of the text.
#ifndef RA_JSON_H
#define RA_JSON_H

#include "relay_arena.h"
#include "ra_buf.h"

#pragma clang assume_nonnull begin

void ra_error_set(ra_error *_Nullable err, ra_status code, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/// JSON.stringify-style string escaping appended to `b`.
bool ra_json_escape(ra_buf *b, const uint8_t *s, size_t n);
/// The same without the quotes: the escaping of a string's bytes, which may be cut anywhere (it
/// escapes byte by byte).
bool ra_json_escape_inner(ra_buf *b, const uint8_t *s, size_t n);

#pragma clang assume_nonnull end

#endif
