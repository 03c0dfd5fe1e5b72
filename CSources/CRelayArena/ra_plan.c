// Plan construction: copies the caller's arrays, checks every index once (so the normalizer
// can trust them), and groups each set's selections by response key.
#include "ra_plan.h"
#include "ra_alloc.h"
#include "ra_json.h"
#include "ra_source.h"
#include "ra_buf.h"
#include <stdlib.h>

void ra_plan_destroy(ra_plan *p) {
    if (!p) return;
    ra_dealloc(p->strings);
    ra_dealloc(p->str);
    ra_dealloc(p->sets);
    ra_dealloc(p->sels);
    ra_dealloc(p->conds);
    ra_dealloc(p->checks);
    ra_dealloc(p->info);
    ra_dealloc(p->entries);
    ra_dealloc(p->cands);
    ra_dealloc(p->watch);
    ra_dealloc(p->quick);
    ra_dealloc(p);
}

static void *dup_array(const void *src, size_t n, size_t elem) {
    void *p = ra_malloc(n ? n * elem : 1);
    if (p && n) memcpy(p, src, n * elem);
    return p;
}

static bool conds_ok(const ra_plan *p, uint32_t first, uint32_t count) {
    if (first > p->nconds || count > p->nconds - first) return false;
    for (uint32_t i = first; i < first + count; i++)
        if (p->conds[i].kind > RA_COND_HAS_KEY || p->conds[i].name >= p->nstr) return false;
    return true;
}

static bool add_watch(ra_plan *p, ra_set_info *info, uint32_t name, uint32_t *cap) {
    for (uint32_t w = info->watch_first; w < info->watch_first + info->watch_count; w++) {
        uint32_t a, b;
        const char *x = ra_plan_str(p, p->watch[w], &a);
        const char *y = ra_plan_str(p, name, &b);
        if (a == b && memcmp(x, y, a) == 0) return true;
    }
    if (info->watch_count >= RA_MAX_WATCH) return false;
    if (!ra_grow((void **)&p->watch, cap, p->nwatch + 1, sizeof(uint32_t))) return false;
    p->watch[p->nwatch++] = name;
    info->watch_count++;
    return true;
}

// How a step of ra_plan_create ended: on, or why the plan is refused.
typedef enum { PLAN_OK, PLAN_OOM, PLAN_BAD } plan_result;

// The caller's arrays, copied, and the tables built from them, allocated. False on OOM.
static bool plan_copy(ra_plan *p, const char *strings, size_t strings_len, const ra_plan_string *string_table,
                      uint32_t string_count, const ra_plan_set *sets, uint32_t set_count, const ra_plan_sel *sels,
                      uint32_t sel_count, const ra_plan_cond *conds, uint32_t cond_count, const ra_plan_check *checks,
                      uint32_t check_count) {
    p->strings = dup_array(strings, strings_len, 1);
    p->str = dup_array(string_table, string_count, sizeof *string_table);
    p->sets = dup_array(sets, set_count, sizeof *sets);
    p->sels = dup_array(sels, sel_count, sizeof *sels);
    p->conds = dup_array(conds, cond_count, sizeof(ra_plan_cond));
    p->checks = dup_array(checks, check_count, sizeof(ra_plan_check));
    p->info = ra_calloc(set_count ? set_count : 1, sizeof *p->info);
    p->entries = ra_malloc(((size_t)sel_count + set_count + 1) * sizeof *p->entries);
    p->cands = ra_malloc((sel_count ? sel_count : 1) * sizeof *p->cands);
    p->quick = ra_calloc(sel_count ? sel_count : 1, sizeof *p->quick);
    if (!p->strings || !p->str || !p->sets || !p->sels || !p->conds || !p->checks || !p->info || !p->entries ||
        !p->cands || !p->quick)
        return false;
    p->strings_len = strings_len;
    p->nstr = string_count;
    p->nsets = set_count;
    p->nsels = sel_count;
    p->nconds = cond_count;
    p->nchecks = check_count;
    return true;
}

// Every index of the caller's arrays checked once, so that the normalizer can trust them.
static bool plan_indexes_ok(const ra_plan *p) {
    if (p->nsets == 0) return false;
    for (uint32_t i = 0; i < p->nstr; i++)
        if (p->str[i].offset > p->strings_len || p->str[i].length > p->strings_len - p->str[i].offset) return false;
    for (uint32_t i = 0; i < p->nsels; i++) {
        const ra_plan_sel *s = &p->sels[i];
        if (s->kind > RA_SEL_PLURAL || s->response_key >= p->nstr || s->storage_key >= p->nstr) return false;
        if (s->kind != RA_SEL_SCALAR && s->child_set >= p->nsets) return false;
        if (s->kind != RA_SEL_SCALAR && s->concrete_type != RA_NONE && s->concrete_type >= p->nstr) return false;
        if (s->kind == RA_SEL_SCALAR && s->shape > RA_SHAPE_LIST) return false;
        if (!conds_ok(p, s->cond_first, s->cond_count)) return false;
    }
    for (uint32_t i = 0; i < p->nchecks; i++)
        if (p->checks[i].abstract_key >= p->nstr || !conds_ok(p, p->checks[i].cond_first, p->checks[i].cond_count))
            return false;
    return true;
}

// One string for `__typename` as a storage key, however many the table has: the normalizer
// tells the type from the fields by that index (and its symbol).
static void plan_unify_typename(ra_plan *p) {
    p->typename_str = RA_NONE;
    for (uint32_t i = 0; i < p->nstr; i++)
        if (ra_plan_str_eq(p, i, "__typename", 10)) p->typename_str = i;
    for (uint32_t i = 0; i < p->nsels; i++)
        if (ra_plan_str_eq(p, p->sels[i].storage_key, "__typename", 10)) p->sels[i].storage_key = p->typename_str;
}

// Each selection belongs to one set at most: a set's entries (and their sentinel) are sized
// by its selections, so sets sharing selections would overrun them.
static plan_result plan_sets_disjoint(const ra_plan *p) {
    uint32_t sel_count = p->nsels;
    uint8_t *owned = ra_calloc(sel_count ? sel_count : 1, 1);
    if (!owned) return PLAN_OOM;
    for (uint32_t si = 0; si < p->nsets; si++) {
        const ra_plan_set *set = &p->sets[si];
        bool overlap = set->sel_first > sel_count || set->sel_count > sel_count - set->sel_first;
        for (uint32_t k = set->sel_first; !overlap && k < set->sel_first + set->sel_count; k++) {
            overlap = owned[k];
            owned[k] = 1;
        }
        if (overlap) {
            ra_dealloc(owned);
            return PLAN_BAD;
        }
    }
    ra_dealloc(owned);
    return PLAN_OK;
}

// A set's entries: its candidates grouped by response key, keeping selection order within a
// key, each entry saying what its key's value is for (ra_entry), then the sentinel.
static void plan_group_entries(ra_plan *p, const ra_plan_set *set, ra_set_info *info) {
    uint32_t cand_at = set->sel_first;
    for (uint32_t k = set->sel_first; k < set->sel_first + set->sel_count; k++) {
        uint32_t klen;
        const char *key = ra_plan_str(p, p->sels[k].response_key, &klen);
        bool seen = false;
        for (uint32_t e = info->entry_first; e < p->nentries && !seen; e++)
            seen = ra_plan_str_eq(p, p->entries[e].key, key, klen);
        if (seen) continue;
        ra_entry *e = &p->entries[p->nentries++];
        e->key = p->sels[k].response_key;
        e->key_len = klen;
        e->key_prefix = ra_key_prefix(key, klen);
        e->key_lo = e->key_hi = 0;
        if (klen <= 8) ra_key_halves((const uint8_t *)key, klen, &e->key_lo, &e->key_hi);
        e->first = cand_at;
        e->count = 0;
        for (uint32_t j = k; j < set->sel_first + set->sel_count; j++) {
            if (ra_plan_str_eq(p, p->sels[j].response_key, key, klen)) {
                p->cands[cand_at++] = j;
                e->count++;
            }
        }
        bool direct = e->count == 1 && p->sels[p->cands[e->first]].cond_count == 0;
        e->is_id = klen == 2 && memcmp(key, "id", 2) == 0;
        e->is_typename = klen == 10 && memcmp(key, "__typename", 10) == 0;
        e->cur_sel = direct ? p->cands[e->first] : p->nentries - 1;
        e->storage_key = direct ? p->sels[e->cur_sel].storage_key : RA_NONE;
        bool scalar = direct && p->sels[e->cur_sel].kind == RA_SEL_SCALAR;
        bool linked = direct && p->sels[e->cur_sel].kind == RA_SEL_LINKED;
        e->cur = !direct                          ? CUR_BUFFER
                 : linked && !e->is_id && !e->is_typename ? CUR_LINKED
                 : !scalar || e->is_typename      ? CUR_DIRECT
                 : e->is_id                       ? CUR_ID
                                                  : CUR_SCALAR;
        e->watch_bits = 0;
        uint32_t local = p->nentries - 1 - info->entry_first;
        e->seen_bit = local < 64 ? 1ull << local : 0;
    }
    info->entry_count = p->nentries - info->entry_first;
    info->self_id = false;
    for (uint32_t e = info->entry_first; e < info->entry_first + info->entry_count; e++)
        if (p->entries[e].cur == CUR_ID && ra_plan_str_eq(p, p->entries[e].storage_key, "id", 2)) info->self_id = true;
    p->entries[p->nentries++] = (ra_entry){.key_len = UINT32_MAX, .key = RA_NONE, .cur_sel = RA_NONE};
}

// What a set's records may take as staged (ra_set_info: unique_storage, plain), and the names it
// watches for (its HAS_KEY conditions and checks), marked on the entries of those keys. False
// past RA_MAX_WATCH names, or on OOM.
static bool plan_set_traits(ra_plan *p, const ra_plan_set *set, ra_set_info *info, uint32_t *watch_cap) {
    info->unique_storage = true;
    for (uint32_t a = set->sel_first; info->unique_storage && a < set->sel_first + set->sel_count; a++)
        for (uint32_t b = a + 1; info->unique_storage && b < set->sel_first + set->sel_count; b++) {
            uint32_t bl;
            const char *bk = ra_plan_str(p, p->sels[b].storage_key, &bl);
            if (ra_plan_str_eq(p, p->sels[a].storage_key, bk, bl)) info->unique_storage = false;
        }
    info->plain = info->unique_storage;
    for (uint32_t k = set->sel_first; k < set->sel_first + set->sel_count; k++)
        if (p->sels[k].storage_key == p->typename_str) info->plain = false;
    for (uint32_t k = set->sel_first; k < set->sel_first + set->sel_count; k++)
        for (uint32_t c = p->sels[k].cond_first; c < p->sels[k].cond_first + p->sels[k].cond_count; c++)
            if (p->conds[c].kind == RA_COND_HAS_KEY && !add_watch(p, info, p->conds[c].name, watch_cap)) return false;
    for (uint32_t k = set->check_first; k < set->check_first + set->check_count; k++) {
        if (!add_watch(p, info, p->checks[k].abstract_key, watch_cap)) return false;
        for (uint32_t c = p->checks[k].cond_first; c < p->checks[k].cond_first + p->checks[k].cond_count; c++)
            if (p->conds[c].kind == RA_COND_HAS_KEY && !add_watch(p, info, p->conds[c].name, watch_cap)) return false;
    }
    for (uint32_t e = info->entry_first; e < info->entry_first + info->entry_count; e++) {
        uint32_t kl;
        const char *k = ra_plan_str(p, p->entries[e].key, &kl);
        for (uint32_t w = 0; w < info->watch_count; w++)
            if (ra_plan_str_eq(p, p->watch[info->watch_first + w], k, kl)) p->entries[e].watch_bits |= 1ull << w;
    }
    return true;
}

// Every set's entries and traits. False for a set whose ranges pass the arrays, or that watches
// too many names.
static bool plan_build_sets(ra_plan *p) {
    uint32_t watch_cap = 0;
    for (uint32_t si = 0; si < p->nsets; si++) {
        const ra_plan_set *set = &p->sets[si];
        if (set->sel_first > p->nsels || set->sel_count > p->nsels - set->sel_first) return false;
        if (set->check_first > p->nchecks || set->check_count > p->nchecks - set->check_first) return false;
        ra_set_info *info = &p->info[si];
        info->entry_first = p->nentries;
        info->watch_first = p->nwatch;
        plan_group_entries(p, set, info);
        if (!plan_set_traits(p, set, info, &watch_cap)) return false;
    }
    return true;
}

// The selections whose records are quick (ra_plan.quick).
static void plan_mark_quick(ra_plan *p) {
    for (uint32_t i = 0; i < p->nsels; i++) {
        const ra_plan_sel *s = &p->sels[i];
        if (s->kind == RA_SEL_SCALAR || s->concrete_type == RA_NONE) continue;
        const ra_plan_set *set = &p->sets[s->child_set];
        const ra_set_info *info = &p->info[s->child_set];
        bool lists = false, buffered = false;
        for (uint32_t k = set->sel_first; k < set->sel_first + set->sel_count; k++)
            lists |= p->sels[k].kind == RA_SEL_PLURAL;
        for (uint32_t e = info->entry_first; e < info->entry_first + info->entry_count; e++)
            buffered |= p->entries[e].cur == CUR_BUFFER;
        p->quick[i] = set->check_count == 0 && info->plain && !lists && !buffered &&
                      info->entry_count <= RA_MAX_FIELDS_PER_RECORD &&
                      !ra_plan_str_eq(p, s->concrete_type, "Viewer", 6);
    }
}

ra_plan *ra_plan_create(const char *strings, size_t strings_len, const ra_plan_string *string_table,
                        uint32_t string_count, const ra_plan_set *sets, uint32_t set_count,
                        const ra_plan_sel *sels, uint32_t sel_count, const ra_plan_cond *conds,
                        uint32_t cond_count, const ra_plan_check *checks, uint32_t check_count,
                        ra_error *err) {
    ra_plan *p = ra_calloc(1, sizeof *p);
    plan_result r = p && plan_copy(p, strings, strings_len, string_table, string_count, sets, set_count, sels,
                                   sel_count, conds, cond_count, checks, check_count)
                        ? PLAN_OK
                        : PLAN_OOM;
    if (r == PLAN_OK && !plan_indexes_ok(p)) r = PLAN_BAD;
    if (r == PLAN_OK) {
        plan_unify_typename(p);
        r = plan_sets_disjoint(p);
    }
    if (r == PLAN_OK && !plan_build_sets(p)) r = PLAN_BAD;
    if (r == PLAN_OK) {
        plan_mark_quick(p);
        return p;
    }
    ra_plan_destroy(p);
    if (r == PLAN_OOM) ra_error_set(err, RA_ERR_NOMEM, 0, "out of memory building a plan");
    else ra_error_set(err, RA_ERR_PLAN, 0, "malformed normalization plan");
    return NULL;
}
