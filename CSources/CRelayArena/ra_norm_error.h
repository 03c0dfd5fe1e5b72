// The normalizer's error stage (ra_norm_error.c): how any stage reports the payload's first
// error and stops the parse. Below the others: it needs only the public types, so the private
// header (ra_normalize.h) and every stage file include it, and it includes none of them.
#ifndef RA_NORM_ERROR_H
#define RA_NORM_ERROR_H

#include "relay_arena.h"
#include <stddef.h>
#include <stdint.h>
#include <yajl/yajl_parse.h>

#pragma clang assume_nonnull begin

/// Records the first error (its code, the input offset, the message and the response path) and
/// stops the parse; 0, a yajl callback's "stop".
__attribute__((format(printf, 3, 4), cold, noinline)) int ra_norm_fail(ra_normalizer *n, ra_status code, const char *fmt, ...);
/// Allocation failed, or interning hit one of the arena's limits (which it says): ra_norm_fail.
__attribute__((cold, noinline)) int ra_norm_oom(ra_normalizer *n);
/// A JSON syntax error from yajl (`bytes`: the chunk it failed in, for its message), recorded as
/// the first error; the error's code.
ra_status ra_norm_parse_failed(ra_normalizer *n, yajl_status st, const uint8_t *_Nullable bytes, size_t len);

#pragma clang assume_nonnull end

#endif
