// Relay's areEqual on field values, between a store's value and a delta's (ra_value_equal.c).
#ifndef RA_VALUE_EQUAL_H
#define RA_VALUE_EQUAL_H

#include "ra_source.h"

#pragma clang assume_nonnull begin

/// Deep equality between store value `sv` and delta value `dv` (their symbols compared through
/// `tr`, the delta's symbols in the store).
bool ra_value_equal(const ra_source *st, uint64_t sv, const ra_source *d, uint64_t dv, const uint32_t *tr);

#pragma clang assume_nonnull end

#endif
