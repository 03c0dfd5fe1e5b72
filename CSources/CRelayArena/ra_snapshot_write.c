// Snapshots, writing: a store's arrays streamed as one versioned file (the header, the arrays,
// an XXH3 checksum over every byte before it), into memory or atomically into a file (a temporary
// beside it, fsync'd, renamed over it, the directory fsync'd; the temporaries that killed writers
// left are removed first); and the checksum fix tests use.
#include "ra_snapshot.h"
#include "ra_source.h"
#include "ra_alloc.h"
#include "ra_buf.h"
#include "ra_json.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

// The pieces of a source's file: the header, then each array.
static bool snap_pieces(const ra_source *s, snap_header *h, const void *ptr[SNAP_NARRAYS], uint64_t off[SNAP_NARRAYS],
                        uint64_t len[SNAP_NARRAYS], ra_error *err) {
    if (s->bloom || s->nunindexed) {
        ra_error_set(err, RA_ERR_STATE, 0, "a payload still being normalized cannot be written as a snapshot");
        return false;
    }
    *h = (snap_header){.version = SNAP_VERSION, .byte_order = SNAP_BYTE_ORDER, .header_size = sizeof(snap_header),
                       .sym_bytes_len = s->sym_bytes.len, .heap_len = s->heap.len, .nsyms = s->nsyms,
                       .nindexed = s->nindexed, .index_cap = s->index_cap, .ndtabs = s->ndtabs,
                       .dtab_cap = s->dtab_cap, .ndslots = s->ndslots, .nrecs = s->nrecs, .nfields = s->nfields,
                       .nshapes = s->shapes.n, .nwords = s->shapes.nwords, .ntypes = s->ntypes, .id_key = s->id_key,
                       .hash_k0 = s->hkey.k0, .hash_k1 = s->hkey.k1};
    memcpy(h->magic, SNAP_MAGIC, 8);
    h->file_size = snap_layout(h, off, len);
    const void *p[SNAP_NARRAYS] = {s->sym_bytes.data, s->syms,        s->index, s->dtabs, s->dslots,
                                   s->vals,           s->shapes.at,   s->shapes.words, s->types, s->heap.data};
    memcpy(ptr, p, sizeof p);
    return true;
}

static const uint8_t zeros[SNAP_ALIGN];

// Streams the file's bytes to `put` (the header, arrays, padding, then the checksum).
typedef bool (*snap_put)(void *ctx, const void *p, size_t n);
static bool snap_emit(const ra_source *s, snap_put put, void *ctx, ra_error *err) {
    snap_header h;
    const void *ptr[SNAP_NARRAYS];
    uint64_t off[SNAP_NARRAYS], len[SNAP_NARRAYS];
    if (!snap_pieces(s, &h, ptr, off, len, err)) return false;
    XXH3_state_t *st = XXH3_createState();
    if (!st) {
        ra_error_set(err, RA_ERR_NOMEM, 0, "out of memory writing a snapshot");
        return false;
    }
    XXH3_64bits_reset(st);
    bool ok = true;
#define EMIT(p, n)                                               \
    do {                                                         \
        XXH3_64bits_update(st, (p), (n));                        \
        if (ok && !put(ctx, (p), (n))) ok = false;               \
    } while (0)
    EMIT(&h, sizeof h);
    uint64_t at = sizeof h;
    for (int i = 0; i < SNAP_NARRAYS && ok; i++) {
        if (off[i] > at) EMIT(zeros, (size_t)(off[i] - at));
        if (len[i]) EMIT(ptr[i], (size_t)len[i]);
        at = off[i] + len[i];
    }
    uint64_t end = h.file_size - 8;
    if (ok && end > at) EMIT(zeros, (size_t)(end - at));
#undef EMIT
    uint64_t sum = XXH3_64bits_digest(st);
    XXH3_freeState(st);
    if (ok && !put(ctx, &sum, 8)) ok = false;
    return ok;
}

// Writes to a file descriptor, a buffer at a time, retrying short writes.
typedef struct fd_out {
    int fd;
    int error;  // errno of the failed write
} fd_out;
static bool put_fd(void *ctx, const void *p, size_t n) {
    fd_out *o = ctx;
    const uint8_t *b = p;
    while (n) {
        ssize_t w = write(o->fd, b, n > ((size_t)1 << 30) ? (size_t)1 << 30 : n);
        if (w < 0) {
            if (errno == EINTR) continue;
            o->error = errno;
            return false;
        }
        b += w;
        n -= (size_t)w;
    }
    return true;
}

static bool put_buf(void *ctx, const void *p, size_t n) { return ra_buf_append(ctx, p, n); }

ra_status ra_source_snapshot_bytes(const ra_source *s, uint8_t **out, size_t *out_len) {
    ra_buf b = {0};
    ra_error err = {0};
    if (!snap_emit(s, put_buf, &b, &err)) {
        ra_buf_free(&b);
        *out = NULL;
        *out_len = 0;
        return err.code ? err.code : RA_ERR_NOMEM;
    }
    *out = b.data;
    *out_len = b.len;
    return RA_OK;
}

// A temporary is `.<name>.tmp-<pid>-<nonce>-<attempt>` beside its target. A writer killed before
// its rename leaves its own behind; the next write of the same target removes those whose process
// no longer runs (kill(pid, 0) fails with ESRCH). A live writer's stays, however old: age says
// nothing about whether a slow write is still under way, a process ID does (a reused one only
// keeps a stale file a little longer). Best effort: what cannot be removed is left.
static void remove_stale_temporaries(const char *dir, const char *name, size_t name_len) {
    DIR *d = opendir(dir);
    if (!d) return;
    size_t dlen = strlen(dir);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *f = e->d_name;
        if (f[0] != '.' || strncmp(f + 1, name, name_len) != 0 || strncmp(f + 1 + name_len, ".tmp-", 5) != 0)
            continue;
        const char *digits = f + 1 + name_len + 5;
        char *end;
        errno = 0;
        long pid = strtol(digits, &end, 10);
        if (end == digits || *end != '-' || errno || pid <= 0 || pid == (long)getpid() || pid > INT32_MAX) continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
        size_t flen = strlen(f);
        char *full = ra_malloc(dlen + flen + 2);
        if (!full) break;
        memcpy(full, dir, dlen);
        full[dlen] = '/';
        memcpy(full + dlen + 1, f, flen + 1);
        (void)unlink(full);
        ra_dealloc(full);
    }
    closedir(d);
}

ra_status ra_source_write_snapshot(const ra_source *s, const char *path, ra_error *err) {
    // The temporary file is in the target's directory (a rename within one file system is atomic).
    size_t plen = strlen(path);
    const char *slash = strrchr(path, '/');
    size_t dlen = slash ? (size_t)(slash - path) : 0;
    char *tmp = ra_malloc(plen + 64), *dir = ra_malloc(dlen + 2);
    if (!tmp || !dir) {
        ra_dealloc(tmp);
        ra_dealloc(dir);
        ra_error_set(err, RA_ERR_NOMEM, 0, "out of memory writing a snapshot");
        return RA_ERR_NOMEM;
    }
    if (slash) {
        memcpy(dir, path, dlen ? dlen : 1);  // ("/name": the root)
        dir[dlen ? dlen : 1] = 0;
    } else {
        strcpy(dir, ".");
    }
    const char *name = slash ? slash + 1 : path;
    remove_stale_temporaries(dir, name, strlen(name));
    int fd = -1;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    for (unsigned attempt = 0; attempt < 100 && fd < 0; attempt++) {
        snprintf(tmp, plen + 64, "%.*s%s.%s.tmp-%ld-%lx-%u", (int)dlen, path, slash ? "/" : "",
                 slash ? slash + 1 : path, (long)getpid(), (unsigned long)now.tv_nsec, attempt);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    ra_status status = RA_OK;
    const char *step = NULL;
    int error = 0;
    if (fd < 0) {
        step = "cannot create a temporary file beside it";
        error = errno;
    } else {
        fd_out o = {fd, 0};
        ra_error inner = {0};
        bool ok = snap_emit(s, put_fd, &o, &inner);
        if (!ok && inner.code) {
            if (err) *err = inner;
            status = inner.code;
        } else if (!ok) {
            step = "cannot write";
            error = o.error;
        } else if (fsync(fd) != 0) {
            step = "cannot flush (fsync)";
            error = errno;
        }
        if (close(fd) != 0 && !step && status == RA_OK) {
            step = "cannot write (close)";
            error = errno;
        }
        if (!step && status == RA_OK && rename(tmp, path) != 0) {
            step = "cannot rename the temporary file over it";
            error = errno;
        }
        if (step || status != RA_OK) {
            unlink(tmp);
        } else {
            // The rename is durable once the directory is: flush it (a failure here leaves the new
            // file in place, whole; it is reported all the same).
            int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (dfd < 0 || fsync(dfd) != 0) {
                step = "cannot flush its directory (fsync)";
                error = errno;
            }
            if (dfd >= 0) close(dfd);
        }
    }
    if (step) {
        status = RA_ERR_IO;
        ra_error_set(err, RA_ERR_IO, 0, "cannot write the snapshot %s: %s: %s", path, step, strerror(error));
    }
    ra_dealloc(tmp);
    ra_dealloc(dir);
    return status;
}

bool ra_snapshot_fix_checksum(uint8_t *bytes, size_t len) {
    if (len < 8) return false;
    uint64_t sum = XXH3_64bits(bytes, len - 8);
    memcpy(bytes + len - 8, &sum, 8);
    return true;
}
