// Snapshots' private header, shared by their writer (ra_snapshot_write.c) and their opener
// (ra_snapshot_open.c): the file's header, its arrays in file order and where each lies. The
// format is described in ARENA.md ("Snapshots").
#ifndef RA_SNAPSHOT_H
#define RA_SNAPSHOT_H

#include "ra_source.h"
#include <stdint.h>

#define SNAP_MAGIC "\x89RASNAP\n"  // (a first byte no JSON text starts with)
// Version 2 keeps the source's hash key (ra_hash.h) in the header: its hashes and index are laid
// out under it. Version 1 files (the fixed hash of before) still open: they are rekeyed.
#define SNAP_VERSION 2u
#define SNAP_BYTE_ORDER 0x01020304u
#define SNAP_ALIGN 64u  // every array starts at a multiple of this (the mapping is page-aligned)
#define SNAP_NARRAYS 10

typedef struct snap_header {
    uint8_t magic[8];
    uint32_t version;
    uint32_t byte_order;  // SNAP_BYTE_ORDER as the writer's machine stores it
    uint32_t header_size;
    uint32_t flags;       // 0
    uint64_t file_size;   // every byte, the checksum included
    uint64_t sym_bytes_len, heap_len;
    uint32_t nsyms, nindexed, index_cap, ndtabs;
    uint32_t dtab_cap, ndslots, nrecs, nfields;
    uint32_t nshapes, nwords, ntypes, id_key;
    uint64_t hash_k0, hash_k1;  // version 2: the key of every hash in the file (version 1: zeros)
    uint8_t reserved[16];  // zeros
} snap_header;
_Static_assert(sizeof(snap_header) == 128, "a snapshot header is 128 bytes");
_Static_assert(sizeof(ra_dtable) == 24 && sizeof(ra_shape) == 12, "the arrays' elements as the format has them");

// The arrays in file order: sym_bytes, syms, index, dtabs, dslots, vals, shapes, shape_words,
// types, heap. Each starts at the next multiple of SNAP_ALIGN (zeros between); the checksum, a u64,
// follows the last at the next multiple of 8.
enum { A_SYMB, A_SYMS, A_INDEX, A_DTABS, A_DSLOTS, A_VALS, A_SHAPES, A_WORDS, A_TYPES, A_HEAP };

// Array sizes in bytes from the header's counts, and where each starts; the file's total size.
// (Every count is at most 2^32 and every element at most 24 bytes, the two byte lengths are
// checked against their limits first: no sum overflows 64 bits.)
static inline uint64_t snap_layout(const snap_header *h, uint64_t off[SNAP_NARRAYS], uint64_t len[SNAP_NARRAYS]) {
    len[A_SYMB] = h->sym_bytes_len;
    len[A_SYMS] = (uint64_t)h->nsyms * sizeof(ra_symbol);
    len[A_INDEX] = (uint64_t)h->index_cap * 4;
    len[A_DTABS] = (uint64_t)h->dtab_cap * sizeof(ra_dtable);
    len[A_DSLOTS] = (uint64_t)h->ndslots * 4;
    len[A_VALS] = (uint64_t)h->nfields * 4;
    len[A_SHAPES] = (uint64_t)h->nshapes * sizeof(ra_shape);
    len[A_WORDS] = (uint64_t)h->nwords * 4;
    len[A_TYPES] = (uint64_t)h->ntypes * 4;
    len[A_HEAP] = h->heap_len;
    uint64_t at = sizeof(snap_header);
    for (int i = 0; i < SNAP_NARRAYS; i++) {
        at = (at + SNAP_ALIGN - 1) & ~(uint64_t)(SNAP_ALIGN - 1);
        off[i] = at;
        at += len[i];
    }
    return ((at + 7) & ~(uint64_t)7) + 8;
}

#endif
