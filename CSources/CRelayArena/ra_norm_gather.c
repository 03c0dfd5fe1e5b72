// Long tokens: yajl re-lexes a token that spans chunks from its first byte at every chunk, so a
// string of L bytes fed in chunks of C would cost about L²/2C. While yajl holds an unfinished
// token, the chunks that follow are gathered here and handed over only once they may end it, so
// that each byte is lexed a bounded number of times whatever the chunking.
#include "ra_normalize.h"
#include "ra_norm_error.h"
#include "ra_buf.h"
#include "ra_alloc.h"

// A chunk that completes no token lies inside one (a string, a key, a number) or is blank. What it
// holds says which, and so what can end it: a string ends at a quote after an even run of
// backslashes, a number at a byte no number has, blanks at anything else. The guess only decides
// when the gathered bytes are handed over, never what yajl makes of them.
static bool is_number_byte(uint8_t c) { return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'; }
static bool is_blank(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static uint8_t classify(const uint8_t *p, size_t len) {
    bool number = true, blank = true;
    for (size_t i = 0; i < len && (number || blank); i++) {
        number = number && is_number_byte(p[i]);
        blank = blank && is_blank(p[i]);
    }
    return blank ? RA_GATHER_BLANK : number ? RA_GATHER_NUMBER : RA_GATHER_STRING;
}

// Where `p` holds its first quote that is not escaped (`len` when none), given that the bytes
// before it end in an odd run of backslashes when `*odd`; leaves in `*odd` whether `p` does.
static size_t unescaped_quote(const uint8_t *p, size_t len, bool *odd) {
    size_t i = 0;
    bool carry = *odd;  // the run before p[i] is odd
    for (;;) {
        const uint8_t *q = memchr(p + i, '"', len - i);
        size_t end = q ? (size_t)(q - p) : len;
        size_t k = end;
        while (k > i && p[k - 1] == '\\') k--;
        bool run_odd = ((end - k) & 1) != (k == i && carry);
        if (!q) {
            *odd = run_odd;
            return len;
        }
        if (!run_odd) return end;
        carry = false;  // an escaped quote ends the run
        i = end + 1;
        if (i == len) {
            *odd = false;
            return len;
        }
    }
}

// Whether `p`, gathered at `at`, may end the token yajl holds (for a string, `gather_end` then
// says where).
static bool may_end(ra_normalizer *n, const uint8_t *p, size_t len, size_t at) {
    switch (n->gather_kind) {
    case RA_GATHER_STRING: {
        size_t q = unescaped_quote(p, len, &n->gather_odd);
        if (q == len) return false;
        n->gather_end = at + q;
        return true;
    }
    case RA_GATHER_NUMBER:
        for (size_t i = 0; i < len; i++)
            if (!is_number_byte(p[i])) return true;
        return false;
    default:
        for (size_t i = 0; i < len; i++)
            if (!is_blank(p[i])) return true;
        return false;
    }
}

// yajl over `bytes`; afterwards, when nothing completed, start (or go on) gathering.
static ra_status parse(ra_normalizer *n, const uint8_t *bytes, size_t len) {
    uint64_t before = n->events;
    n->lexed += n->held + len;
    yajl_status st = yajl_parse(n->yh, bytes, len);
    if (st != yajl_status_ok) return ra_norm_parse_failed(n, st, bytes, len);
    if (n->failed) return n->err.code;  // (the callbacks stop yajl when they fail: not expected)
    n->consumed += len;
    if (n->events != before) {
        n->held = 0;
        n->gather_kind = RA_GATHER_NONE;
        return RA_OK;
    }
    // Nothing completed: yajl holds what it got since its last callback (or it was blank).
    n->held += len;
    n->gather_kind = classify(bytes, len);
    n->gather_odd = false;
    if (n->gather_kind == RA_GATHER_STRING) (void)unescaped_quote(bytes, len, &n->gather_odd);
    n->gather_may_end = false;
    return RA_OK;
}

ra_status ra_norm_flush_gathered(ra_normalizer *n) {
    n->flushing = true;
    ra_status st = RA_OK;
    // A long string is handed over in two parts: first the bytes before its closing quote, which
    // yajl only appends to its copy of the token, so that their pages can go back before yajl
    // unescapes the string into a third buffer; then the rest, which ends the token. (yajl lexes
    // its copy once more: the cost of holding the text twice at most, not three times.)
    size_t first = 0;
    if (n->gather_kind == RA_GATHER_STRING && n->gather_may_end && n->gather_end >= RA_LONG_VALUE &&
        n->gather_end < n->gathered.len) {
        first = n->gather_end;
        uint64_t before = n->events;
        n->lexed += n->held + first;
        yajl_status ys = yajl_parse(n->yh, n->gathered.data, first);
        if (ys != yajl_status_ok) st = ra_norm_parse_failed(n, ys, n->gathered.data, first);
        else if (n->failed) st = n->err.code;
        if (st == RA_OK) {
            n->consumed += first;
            n->held = n->events != before ? 0 : n->held + first;
            ra_discard_front(n->gathered.data, first);
        }
    }
    n->flush_base = first;
    if (st == RA_OK) st = parse(n, n->gathered.data + first, n->gathered.len - first);
    n->flushing = false;
    n->flush_base = 0;
    n->gathered.len = 0;
    return st;
}

void ra_norm_long_value(ra_normalizer *n, const void *text) {
    uintptr_t t = (uintptr_t)text;
    if (n->flushing) {
        // yajl reports a token it held from its own buffer, but a token inside the gathered bytes
        // from where it lies: those bytes are not spent yet.
        uintptr_t g = (uintptr_t)n->gathered.data;
        size_t spent = n->flush_base + yajl_get_bytes_consumed(n->yh);  // (just past the token)
        if (t >= g && t - g < spent) spent = (size_t)(t - g);
        ra_discard_front(n->gathered.data, spent);
    }
    for (int i = 0; i < RA_YAJL_BIG; i++) {
        uintptr_t b = (uintptr_t)n->yajl_big[i];
        if (b && !(t >= b && t - b < ra_block_size(n->yajl_big[i]))) ra_discard_front(n->yajl_big[i], SIZE_MAX);
    }
}

void ra_norm_long_value_copied(ra_normalizer *n) {
    for (int i = 0; i < RA_YAJL_BIG; i++)
        if (n->yajl_big[i]) ra_discard_front(n->yajl_big[i], SIZE_MAX);
}

// yajl's allocations, as ra_yajl_alloc_funcs makes them, with its long buffers noted: a block
// that grows to RA_LONG_VALUE bytes takes a free entry, and leaves it when it is freed or shrinks.
static void note_block(ra_normalizer *n, void *_Nullable old, void *_Nullable p, size_t size) {
    bool big = p && size >= RA_LONG_VALUE;
    for (int i = 0; old && i < RA_YAJL_BIG; i++) {
        if (n->yajl_big[i] != old) continue;
        n->yajl_big[i] = big ? p : NULL;
        return;
    }
    for (int i = 0; big && i < RA_YAJL_BIG; i++) {
        if (n->yajl_big[i]) continue;
        n->yajl_big[i] = p;
        return;
    }
}
static void *yajl_malloc_fn(void *ctx, size_t size) {
    void *p = ra_malloc(size);
    note_block(ctx, NULL, p, size);
    return p;
}
static void *yajl_realloc_fn(void *ctx, void *p, size_t size) {
    void *q = ra_realloc(p, size);
    if (q) note_block(ctx, p, q, size);
    return q;
}
static void yajl_free_fn(void *ctx, void *p) {
    note_block(ctx, p, NULL, 0);
    ra_dealloc(p);
}

void ra_norm_init_yajl_funcs(ra_normalizer *n) {
    n->yajl_funcs = (yajl_alloc_funcs){yajl_malloc_fn, yajl_realloc_fn, yajl_free_fn, n};
}

ra_status ra_norm_feed(ra_normalizer *n, const uint8_t *bytes, size_t len) {
    if (n->gather_kind == RA_GATHER_NONE) return parse(n, bytes, len);
    if (!ra_buf_append(&n->gathered, bytes, len)) {
        ra_norm_oom(n);
        return n->err.code;
    }
    n->gather_may_end = n->gather_may_end || may_end(n, bytes, len, n->gathered.len - len);
    // Handed over once it may end the token, and is at least a quarter of what yajl holds: yajl
    // then re-lexes what it holds at most five times the gathered bytes in all, however often a
    // guess is wrong; a right guess hands the rest of the token over once.
    if (n->gather_may_end && n->gathered.len >= n->held / 4) return ra_norm_flush_gathered(n);
    return RA_OK;
}

uint64_t ra_normalizer_lexed_bytes(const ra_normalizer *n) { return n->lexed; }
