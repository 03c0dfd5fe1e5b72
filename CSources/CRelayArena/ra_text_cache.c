// The text cache: a derived symbol's text, written out the first time a caller asks for it
// (ra_source_symbol_text), at an address that stays valid as long as its source.
#include "ra_symbols.h"
#include "ra_alloc.h"
#include "ra_buf.h"
#include "ra_source.h"
#include <pthread.h>

// Derived symbols' texts, written out the first time a caller asks for one, into chunks that
// never move: the pointer handed out stays valid as long as the source. Readers ask under the
// source's read lock, many at once, so the cache has a mutex of its own.
typedef struct text_chunk {
    struct text_chunk *next;
    size_t used, cap;
    char bytes[];
} text_chunk;

struct ra_text_cache {
    pthread_mutex_t lock;
    const char **texts;  // by symbol; NULL = not written yet
    uint32_t cap;
    text_chunk *chunks;
};

struct ra_text_cache *ra_text_cache_create(void) {
    struct ra_text_cache *c = ra_calloc(1, sizeof *c);
    if (c && pthread_mutex_init(&c->lock, NULL) != 0) {
        ra_dealloc(c);
        return NULL;
    }
    return c;
}

void ra_text_cache_destroy(struct ra_text_cache *c) {
    if (!c) return;
    for (text_chunk *k = c->chunks, *next; k; k = next) {
        next = k->next;
        ra_dealloc(k);
    }
    ra_dealloc(c->texts);
    pthread_mutex_destroy(&c->lock);
    ra_dealloc(c);
}

static const char *text_cache_get(struct ra_text_cache *c, const ra_source *s, uint32_t sym) {
    if (sym >= c->cap) {
        uint32_t cap = c->cap;
        if (!ra_grow((void **)&c->texts, &cap, s->nsyms, sizeof *c->texts)) return NULL;
        memset(c->texts + c->cap, 0, (size_t)(cap - c->cap) * sizeof *c->texts);
        c->cap = cap;
    }
    if (c->texts[sym]) return c->texts[sym];
    size_t need = (size_t)ra_sym_length(s, sym) + 1;
    text_chunk *k = c->chunks;
    if (!k || k->cap - k->used < need) {
        size_t cap = need > 65536 - sizeof *k ? need : 65536 - sizeof *k;
        k = ra_malloc(sizeof *k + cap);
        if (!k) return NULL;
        *k = (text_chunk){.next = c->chunks, .used = 0, .cap = cap};
        c->chunks = k;
    }
    char *t = k->bytes + k->used;
    ra_sym_write(s, sym, t);
    t[need - 1] = 0;
    k->used += need;
    c->texts[sym] = t;
    return t;
}

ra_bytes_ref ra_source_symbol_text(const ra_source *s, uint32_t sym) {
    if (sym == 0 || sym >= s->nsyms) return (ra_bytes_ref){NULL, 0};
    uint32_t len;
    if (!ra_sym_derived(s, sym)) {
        const char *t = ra_sym_text(s, sym, &len);
        return (ra_bytes_ref){(const uint8_t *)t, len};
    }
    pthread_mutex_lock(&s->texts->lock);
    const char *t = text_cache_get(s->texts, s, sym);
    pthread_mutex_unlock(&s->texts->lock);
    return t ? (ra_bytes_ref){(const uint8_t *)t, ra_sym_length(s, sym)} : (ra_bytes_ref){NULL, 0};
}
