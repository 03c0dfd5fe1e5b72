// Benchmark comparator: yajl alone, with callbacks that do nothing. Not part of the runtime; only
// the CLI's quick bench and the Benchmarks package link it.
#ifndef YAJL_BASELINE_H
#define YAJL_BASELINE_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Parses `bytes` with yajl and no-op callbacks in `chunk`-sized pieces (0: all at once); 1 when
/// the JSON is valid.
int yajl_baseline_noop_parse(const uint8_t *bytes, size_t len, size_t chunk);

#ifdef __cplusplus
}
#endif
#endif
