// What publish's two files share (ra_publish.c merges a delta into a store, ra_publish_adopt.c
// hands a pristine store the delta's arena): the error of a publish that ran out of room.
#ifndef RA_PUBLISH_H
#define RA_PUBLISH_H

#include "ra_source.h"

#pragma clang assume_nonnull begin

/// A failed allocation's error: the limit when `s` refused a name, typename or shape for it (its
/// flags, reset when the publish began), else out of memory.
ra_status ra_publish_out_of_room(const ra_source *s, ra_error *_Nullable err);

#pragma clang assume_nonnull end

#endif
