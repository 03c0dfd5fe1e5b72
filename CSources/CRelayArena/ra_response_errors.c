// Response `errors` (relay-runtime >= v18): an error whose path ends at a field that normalized
// to null is stored on the parent record as `__errors: {"<storageKey>": [error, ...]}`.
#include "ra_normalize.h"
#include "ra_symbols.h"
#include "ra_records.h"
#include "ra_heap.h"
#include "ra_buf.h"
#include "ra_json.h"
#include "ra_alloc.h"
#include "ra_plan.h"
#include "ra_source.h"
#include <stdlib.h>
#include <yajl/yajl_tree.h>

typedef struct attached {
    uint32_t rec;
    uint32_t key;   // plan string of the storage key
    ra_buf text;    // the error object as JSON
    yajl_val path;  // the error's path; segments from `rel` on lie below the nulled field
    size_t rel;
} attached;

static bool segment_equal(yajl_val a, yajl_val b) {
    if (YAJL_IS_STRING(a) && YAJL_IS_STRING(b)) return strcmp(a->u.string, b->u.string) == 0;
    if (YAJL_IS_NUMBER(a) && YAJL_IS_NUMBER(b)) return strcmp(a->u.number.r, b->u.number.r) == 0;
    return false;
}

// Whether e's relative path starts with `depth` segments equal to p's.
static bool shares_prefix(const attached *e, const attached *p, size_t depth) {
    if (e->path->u.array.len - e->rel < depth) return false;
    for (size_t i = 0; i < depth; i++)
        if (!segment_equal(e->path->u.array.values[e->rel + i], p->path->u.array.values[p->rel + i])) return false;
    return true;
}

// The first entry (in response order) that reaches the same child below a shared prefix: how
// relay's error trie (a Map per level, filled in first-insertion order) orders siblings.
static size_t first_seen(const attached *group, size_t count, const attached *e, size_t depth) {
    for (size_t k = 0; k < count; k++)
        if (shares_prefix(&group[k], e, depth + 1)) return k;
    return count;
}

// Trie order: relay copies the trie depth-first, a node's own errors before its children's.
static bool trie_before(const attached *group, size_t count, const attached *a, const attached *b) {
    size_t la = a->path->u.array.len - a->rel, lb = b->path->u.array.len - b->rel;
    for (size_t depth = 0;; depth++) {
        if (depth == la || depth == lb) return la < lb;
        if (!segment_equal(a->path->u.array.values[a->rel + depth], b->path->u.array.values[b->rel + depth]))
            return first_seen(group, count, a, depth) < first_seen(group, count, b, depth);
    }
}

// Stable insertion sort of one field's errors (few per field) into trie order; `orig` is the
// group in response order, which decides sibling order.
static void sort_group(attached *group, const attached *orig, size_t count) {
    for (size_t i = 1; i < count; i++) {
        for (size_t j = i; j > 0 && trie_before(orig, count, &group[j], &group[j - 1]); j--) {
            attached t = group[j];
            group[j] = group[j - 1];
            group[j - 1] = t;
        }
    }
}

// Puts each field's errors together (fields in order of first appearance), each in trie order.
static bool order_groups(attached *list, uint32_t count) {
    attached *out = ra_malloc((count ? count : 1) * sizeof *out);
    attached *orig = ra_malloc((count ? count : 1) * sizeof *orig);
    bool *placed = ra_calloc(count ? count : 1, sizeof *placed);
    bool ok = out && orig && placed;
    uint32_t n = 0;
    for (uint32_t i = 0; ok && i < count; i++) {
        if (placed[i]) continue;
        uint32_t start = n;
        for (uint32_t j = i; j < count; j++) {
            if (placed[j] || list[j].rec != list[i].rec || list[j].key != list[i].key) continue;
            placed[j] = true;
            out[n++] = list[j];
        }
        memcpy(orig, out + start, (n - start) * sizeof *orig);
        sort_group(out + start, orig, n - start);
    }
    if (ok && count) memcpy(list, out, count * sizeof *list);
    ra_dealloc(out);
    ra_dealloc(orig);
    ra_dealloc(placed);
    return ok;
}

static bool put_json(ra_buf *b, yajl_val v) {
    if (!v || YAJL_IS_NULL(v)) return ra_buf_append(b, "null", 4);
    if (YAJL_IS_TRUE(v)) return ra_buf_append(b, "true", 4);
    if (YAJL_IS_FALSE(v)) return ra_buf_append(b, "false", 5);
    if (YAJL_IS_NUMBER(v)) return ra_buf_append(b, v->u.number.r, strlen(v->u.number.r));
    if (YAJL_IS_STRING(v)) return ra_json_escape(b, (const uint8_t *)v->u.string, strlen(v->u.string));
    if (YAJL_IS_ARRAY(v)) {
        bool ok = ra_buf_append(b, "[", 1);
        for (size_t i = 0; ok && i < v->u.array.len; i++)
            ok = (i == 0 || ra_buf_append(b, ",", 1)) && put_json(b, v->u.array.values[i]);
        return ok && ra_buf_append(b, "]", 1);
    }
    bool ok = ra_buf_append(b, "{", 1);
    for (size_t i = 0; ok && i < v->u.object.len; i++)
        ok = (i == 0 || ra_buf_append(b, ",", 1)) &&
             ra_json_escape(b, (const uint8_t *)v->u.object.keys[i], strlen(v->u.object.keys[i])) &&
             ra_buf_append(b, ":", 1) && put_json(b, v->u.object.values[i]);
    return ok && ra_buf_append(b, "}", 1);
}

// The error as relay stores it: without `path` and `locations`, with the path below the nulled
// field when the error points deeper.
static bool error_text(ra_buf *b, yajl_val e, yajl_val path, size_t rel_from) {
    bool ok = ra_buf_append(b, "{", 1), first = true;
    for (size_t i = 0; ok && i < e->u.object.len; i++) {
        const char *k = e->u.object.keys[i];
        if (strcmp(k, "path") == 0 || strcmp(k, "locations") == 0) continue;
        ok = (first || ra_buf_append(b, ",", 1)) && ra_json_escape(b, (const uint8_t *)k, strlen(k)) &&
             ra_buf_append(b, ":", 1) && put_json(b, e->u.object.values[i]);
        first = false;
    }
    if (ok && rel_from < path->u.array.len) {
        ok = (first || ra_buf_append(b, ",", 1)) && ra_buf_append(b, "\"path\":[", 8);
        for (size_t i = rel_from; ok && i < path->u.array.len; i++)
            ok = (i == rel_from || ra_buf_append(b, ",", 1)) && put_json(b, path->u.array.values[i]);
        ok = ok && ra_buf_append(b, "]", 1);
    }
    return ok && ra_buf_append(b, "}", 1);
}

static bool cond_holds_in_delta(ra_normalizer *n, uint32_t rec, const ra_plan_sel *s) {
    const ra_source *d = n->delta;
    uint32_t type = ra_rec_type(d, ra_rec(d, rec));
    uint32_t tlen = 0;
    const char *tname = type ? ra_sym_text_any(d, type, &tlen) : "";  // (a type may have a derived shape)
    if (!tname) tname = "";
    for (uint32_t c = s->cond_first; c < s->cond_first + s->cond_count; c++) {
        const ra_plan_cond *cond = &n->plan->conds[c];
        if (cond->kind == RA_COND_TYPE_IS) {
            if (!ra_plan_str_eq(n->plan, cond->name, tname, tlen)) return false;
            continue;
        }
        ra_buf *b = &n->scratch;
        b->len = 0;
        if (!ra_buf_append(b, "client:__type:", 14) || !ra_buf_append(b, tname, tlen)) return false;
        int64_t tr = ra_source_record_for_symbol(d, ra_source_find_symbol(d, (const char *)b->data, b->len));
        uint32_t kl;
        const char *k = ra_plan_str(n->plan, cond->name, &kl);
        uint32_t ks = ra_source_find_symbol(d, k, kl);
        if (tr < 0 || !ks || ra_record_get(d, (uint32_t)tr, ks) != ra_make(RA_TAG_TRUE, 0)) return false;
    }
    return true;
}

// Walks the error's path through the delta; returns true and fills rec/key/rel when it ends at
// (or passes through) a field that is null.
static bool locate(ra_normalizer *n, yajl_val path, uint32_t *out_rec, uint32_t *out_key, size_t *rel) {
    int64_t rec = ra_source_record_for_symbol(n->delta, n->root_sym);
    uint32_t set = 0;
    for (size_t i = 0; rec >= 0 && i < path->u.array.len; i++) {
        yajl_val el = path->u.array.values[i];
        if (!YAJL_IS_STRING(el)) return false;
        const ra_set_info *info = &n->plan->info[set];
        size_t kl = strlen(el->u.string);
        const ra_plan_sel *s = NULL;
        for (uint32_t e = 0; e < info->entry_count && !s; e++) {
            const ra_entry *en = &n->plan->entries[info->entry_first + e];
            if (!ra_plan_str_eq(n->plan, en->key, el->u.string, kl)) continue;
            for (uint32_t c = en->first; c < en->first + en->count && !s; c++)
                if (cond_holds_in_delta(n, (uint32_t)rec, &n->plan->sels[n->plan->cands[c]]))
                    s = &n->plan->sels[n->plan->cands[c]];
        }
        if (!s) return false;
        uint32_t skl;
        const char *sk = ra_plan_str(n->plan, s->storage_key, &skl);
        uint32_t ksym = ra_source_find_symbol(n->delta, sk, skl);
        uint64_t v = ksym ? ra_record_get(n->delta, (uint32_t)rec, ksym) : 0;
        if (ra_value_tag(v) == RA_TAG_NULL) {
            *out_rec = (uint32_t)rec;
            *out_key = s->storage_key;
            *rel = i + 1;
            return true;
        }
        // Only linked fields lead further (a scalar's child_set is not an index; the record may
        // hold a link there from another selection set).
        if (s->kind == RA_SEL_SCALAR) return false;
        if (ra_value_tag(v) == RA_TAG_REF) {
            rec = ra_source_record_for_symbol(n->delta, (uint32_t)ra_value_payload(v));
        } else if (ra_value_tag(v) == RA_TAG_REFS && i + 1 < path->u.array.len &&
                   YAJL_IS_INTEGER(path->u.array.values[i + 1])) {
            long long idx = YAJL_GET_INTEGER(path->u.array.values[i + 1]);
            if (idx < 0 || (uint64_t)idx >= ra_source_refs_count(n->delta, v)) return false;
            uint32_t item = ra_source_refs_at(n->delta, v, (uint32_t)idx);
            if (!item) return false;
            rec = ra_source_record_for_symbol(n->delta, item);
            i++;
        } else {
            return false;
        }
        set = s->child_set;
    }
    return false;
}

ra_status ra_normalizer_attach_errors(ra_normalizer *n) {
    if (!ra_buf_append(&n->errors_json, "", 1)) goto oom;
    char msg[128];
    yajl_val tree = yajl_tree_parse((const char *)n->errors_json.data, msg, sizeof msg);
    if (!tree) goto oom;  // the text was validated while streaming; failure here is memory
    attached *list = NULL;
    uint32_t count = 0, cap = 0;
    bool ok = true;
    for (size_t i = 0; ok && YAJL_IS_ARRAY(tree) && i < tree->u.array.len; i++) {
        yajl_val e = tree->u.array.values[i];
        if (!YAJL_IS_OBJECT(e)) continue;
        const char *pk[] = {"path", NULL};
        yajl_val path = yajl_tree_get(e, pk, yajl_t_array);
        uint32_t rec, key;
        size_t rel;
        if (!path || path->u.array.len == 0 || !locate(n, path, &rec, &key, &rel)) continue;
        if (!ra_grow((void **)&list, &cap, count + 1, sizeof *list)) { ok = false; break; }
        list[count] = (attached){.rec = rec, .key = key, .path = path, .rel = rel};
        ok = error_text(&list[count].text, e, path, rel);
        count++;
    }
    ok = ok && order_groups(list, count);
    // One __errors object per record, errors grouped by storage key in order of appearance.
    ra_buf out = {0};
    for (uint32_t i = 0; ok && i < count; i++) {
        if (list[i].rec == UINT32_MAX) continue;
        out.len = 0;
        ok = ra_buf_append(&out, "{", 1);
        bool first_key = true;
        for (uint32_t j = i; ok && j < count; j++) {
            if (list[j].rec != list[i].rec || list[j].key == UINT32_MAX) continue;
            uint32_t kl;
            const char *k = ra_plan_str(n->plan, list[j].key, &kl);
            ok = (first_key || ra_buf_append(&out, ",", 1)) && ra_json_escape(&out, (const uint8_t *)k, kl) &&
                 ra_buf_append(&out, ":[", 2);
            first_key = false;
            bool first_err = true;
            uint32_t this_key = list[j].key;
            for (uint32_t m = j; ok && m < count; m++) {
                if (list[m].rec != list[i].rec || list[m].key != this_key) continue;
                ok = (first_err || ra_buf_append(&out, ",", 1)) && ra_buf_append(&out, list[m].text.data, list[m].text.len);
                first_err = false;
                if (m != j) list[m].key = UINT32_MAX;
            }
            ok = ok && ra_buf_append(&out, "]", 1);
            if (j != i) list[j].key = UINT32_MAX;
        }
        ok = ok && ra_buf_append(&out, "}", 1);
        uint32_t rec = list[i].rec;
        for (uint32_t j = i; j < count; j++)
            if (list[j].rec == rec) list[j].rec = UINT32_MAX;
        uint32_t esym = ok ? ra_intern(n->delta, "__errors", 8) : 0;
        uint64_t v = esym && out.len <= UINT32_MAX - 16 ? ra_heap_put(n->delta, RA_TAG_JSON, out.data, (uint32_t)out.len) : 0;
        ok = v && ra_record_set(n->delta, rec, esym, v);
    }
    ra_buf_free(&out);
    for (uint32_t i = 0; i < count; i++) ra_buf_free(&list[i].text);
    ra_dealloc(list);
    yajl_tree_free(tree);
    if (ok) return RA_OK;
oom:
    n->failed = true;
    if (n->delta->shapes_full || n->delta->fields_full) {  // (the record that takes `__errors`)
        ra_error_set(&n->err, RA_ERR_LIMIT, n->consumed, "storing response errors passes the arena's limit of %s",
                     n->delta->shapes_full ? "65535 record shapes" : "32767 fields a record");
        return RA_ERR_LIMIT;
    }
    ra_error_set(&n->err, RA_ERR_NOMEM, n->consumed, "out of memory while storing response errors");
    return RA_ERR_NOMEM;
}
