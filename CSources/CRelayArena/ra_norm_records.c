// The normalizer's records stage: staged values, type conditions, a record's data ID, and its
// commit into the delta when its object closes (quick records straight from their values, others
// from the staging stack), or its parking until its parent's ID is known (ra_norm_pending.c).
#include "ra_normalize.h"
#include "ra_norm_error.h"
#include "ra_symbols.h"
#include "ra_records.h"
#include "ra_heap.h"
#include "ra_buf.h"
#include "ra_alloc.h"
#include "ra_plan.h"
#include "ra_source.h"
#include <stdlib.h>
#include <string.h>

static inline uint32_t frame_id(ra_normalizer *n, frame *f);
static inline int resolve_late(ra_normalizer *n);
static int finish_record(ra_normalizer *n, uint32_t depth, uint32_t type_sym, bool viewer);

__attribute__((noinline)) bool ra_norm_resolve_placed_slow(ra_normalizer *n) {
    if (n->late_rec) return resolve_late(n) != 0;
    return frame_id(n, &n->frames[n->placed - 1]) != 0;
}
// A quick record frame (frame.quick) that turns out to need the general path after all (a
// pending link, a record parked inside; a buffered value or a list, which the plan keeps from
// quick sets, would be the same): its fields go back to the staging stack, and its unnamed
// record is dropped (its values become garbage).
__attribute__((noinline)) bool ra_norm_demote(ra_normalizer *n, frame *f) {
    if (!resolve_late_if_any(n)) return false;  // (a closed record's link may be one of these slots)
    ra_source *d = n->delta;
    uint32_t first = f->qword_base - f->qw_off, count = f->slot - first;
    f->quick = false;
    if (!ra_grow((void **)&n->fields, &n->cap_fields, n->nfields + count, sizeof(staged_field))) return false;
    for (uint32_t i = 0; i < count; i++) {
        uint64_t slot = ((uint64_t)d->vals[first + i] << 32) | n->qwords[f->qword_base + i];
        n->fields[n->nfields++] = (staged_field){.key = ra_slot_key(slot), .value = ra_slot_value(slot)};
    }
    if (f->id_field == ID_IN_FLAG) {  // the `id` kept for the flag becomes a staged field, filled in at commit
        if (!stage_field(n, d->id_key, ra_make(RA_TAG_IDSTR, 0), 0)) return false;
        f->id_field = count + 1;
    }
    ra_record_drop_unnamed(d, f->rec);
    return true;
}

// Storage keys and type names come from the plan: intern each once per payload, not per field.
__attribute__((noinline)) uint32_t ra_norm_plan_sym_intern(ra_normalizer *n, uint32_t str) {
    if (!resolve_placed(n)) return 0;
    uint32_t l;
    const char *s = ra_plan_str(n->plan, str, &l);
    return n->plan_syms[str] = ra_intern(n->delta, s, l);
}
// And a type name's index in the delta's type table (0 on OOM / limit).
__attribute__((noinline)) uint32_t ra_norm_plan_type_index(ra_normalizer *n, uint32_t str) {
    uint32_t sym = plan_sym(n, str), t = sym ? ra_type_index(n->delta, sym) : 0;
    n->plan_types[str] = (uint16_t)t;
    return t;
}
static bool watch_present(const ra_normalizer *n, const frame *f, uint32_t name) {
    const ra_set_info *info = &n->plan->info[f->set];
    uint32_t nl;
    const char *s = ra_plan_str(n->plan, name, &nl);
    for (uint32_t w = 0; w < info->watch_count; w++)
        if (ra_plan_str_eq(n->plan, n->plan->watch[info->watch_first + w], s, nl)) return (f->present >> w) & 1;
    return false;
}

static bool conds_hold(const ra_normalizer *n, const frame *f, const char *type, size_t type_len, uint32_t first,
                       uint32_t count) {
    for (uint32_t c = first; c < first + count; c++) {
        const ra_plan_cond *cond = &n->plan->conds[c];
        if (cond->kind == RA_COND_TYPE_IS) {
            if (!ra_plan_str_eq(n->plan, cond->name, type, type_len)) return false;
        } else if (!watch_present(n, f, cond->name)) {
            return false;
        }
    }
    return true;
}

int ra_norm_stage_value(ra_normalizer *n, frame *rec, uint64_t value) {
    if (!value) return ra_norm_oom(n);
    if (rec->kind == F_LIST) {
        // Only records and nulls reach a list (checked by the callers).
        uint32_t item = value == ra_make(RA_TAG_NULL, 0) ? 0
                        : ra_value_tag(value) == RA_TAG_PEND ? (RA_ITEM_PEND | (uint32_t)ra_value_payload(value))
                                                             : (uint32_t)ra_value_payload(value);
        if (!ra_grow((void **)&n->items, &n->cap_items, n->nitems + 1, sizeof(uint32_t))) return ra_norm_oom(n);
        n->items[n->nitems++] = item;
        rec->count++;
        return 1;
    }
    bool buffered = rec->cur == CUR_BUFFER;
    rec->buffered |= buffered;
    unsigned tag = ra_value_tag(value);
    bool special = tag == RA_TAG_PEND || tag == RA_TAG_REFS;  // translated at commit
    rec->special |= special;
    if ((buffered || special) && rec->quick && !ra_norm_demote(n, rec)) return ra_norm_oom(n);
    uint32_t key = buffered ? rec->cur_sel : plan_sym(n, n->plan->sels[rec->cur_sel].storage_key);
    return key && (rec->quick ? add_field(n, rec, key, value) : stage_field(n, key, value, buffered)) ? 1 : ra_norm_oom(n);
}

static inline __attribute__((always_inline)) uint64_t to_delta(ra_normalizer *n, uint64_t v, const uint8_t *base) {
    unsigned tag = ra_value_tag(v);
    return tag == RA_TAG_PEND || tag == RA_TAG_REFS ? ra_norm_to_delta_slow(n, v, base) : v;
}

// __typename is the record's type key, not a field of its own.
static int set_type_from(ra_normalizer *n, int64_t rec, uint64_t v) {
    if (ra_value_tag(v) != RA_TAG_STRING) return 1;
    uint32_t len;
    const uint8_t *p = ra_heap_value(n->delta, ra_value_payload(v), &len);
    if (!len) return ra_norm_fail(n, RA_ERR_TYPENAME, "Expected a typename for record: `__typename` is the empty string");  // (see ra_norm_parse.c)
    uint32_t t = ra_intern(n->delta, (const char *)p, len), ti = t ? ra_type_index(n->delta, t) : 0;
    if (!ti) return ra_norm_oom(n);
    ra_rec(n->delta, (uint32_t)rec)->type = (uint16_t)ti;
    return 1;
}

// Whether a staged field's key is the `__typename` storage key (the record's type, not a field).
static inline bool is_typename_key(const ra_normalizer *n, uint32_t key) {
    return n->plan->typename_str != RA_NONE && key == n->plan_syms[n->plan->typename_str];
}

// seal_shape's search (and the set's shape from then).
__attribute__((noinline)) static bool seal_shape_slow(ra_normalizer *n, ra_record *r, const uint32_t *words, uint32_t count,
                                                      uint32_t set) {
    uint32_t shape = ra_shape_of(n->delta, words, count);  // (adds a shape at most: `r` stays where it is)
    if (shape == RA_NONE) return false;
    r->shape = (uint16_t)shape;
    if (set != RA_NONE) n->set_shapes[set] = (uint16_t)shape;
    return true;
}

// Gives record `r` the shape of its `count` fields' `words` (not in the delta's shape words):
// the last shape a record of set `set` took when it is the same (records of one selection
// mostly are), else found or added. False on OOM / past the shapes' limit.
static inline __attribute__((always_inline)) bool seal_shape(ra_normalizer *n, ra_record *r, const uint32_t *words,
                                                             uint32_t count, uint32_t set) {
    ra_source *d = n->delta;
    uint32_t last = set != RA_NONE ? n->set_shapes[set] : 0;
    if (last && d->shapes.at[last].count == count) {
        // (A few words: a loop, not a libc call.)
        const uint32_t *w = d->shapes.words + d->shapes.at[last].first;
        uint32_t i = 0;
        while (i < count && w[i] == words[i]) i++;
        if (i == count) {
            r->shape = (uint16_t)last;
            return true;
        }
    }
    return seal_shape_slow(n, r, words, count, set);
}

// Room for `count` shape words past the open quick records' (where a record's shape is built).
static inline __attribute__((always_inline)) uint32_t *_Nullable shape_scratch(ra_normalizer *n, uint32_t count) {
    // (At least one word: a record with no field still gets a pointer.)
    if (!ra_grow((void **)&n->qwords, &n->cap_qwords, n->nqwords + count + 1, sizeof(uint32_t))) return NULL;
    return n->qwords + n->nqwords;
}

// Staged fields into values and shape words, as they are.
static inline __attribute__((always_inline)) void put_fields(uint32_t *vals, uint32_t *words, const staged_field *fields,
                                                             uint32_t count) {
    // A handful of fields: a plain loop, not a vectorized one with its overlap checks.
#pragma clang loop vectorize(disable) interleave(disable)
    for (uint32_t i = 0; i < count; i++) {
        uint64_t slot = ra_slot_pack(fields[i].key, fields[i].value);
        vals[i] = (uint32_t)(slot >> 32);
        words[i] = ra_slot_word(slot);
    }
}

// A new record's fields, exactly as staged (see ra_norm_commit's `plain`). False on OOM / limit.
static inline __attribute__((always_inline)) bool copy_fields(ra_normalizer *n, uint32_t rec, const staged_field *fields,
                                                              uint32_t count, uint32_t set) {
    uint32_t *w = shape_scratch(n, count);
    if (!w) return false;
    ra_record *r = ra_rec(n->delta, rec);
    put_fields(n->delta->vals + r->fields, w, fields, count);
    return seal_shape(n, r, w, count, set);
}

// Which staged field is the record's `id` holding data ID `id` (kept in the record's flag, in
// no slot: see ra_record.self_id), `count` for none.
static uint32_t self_id_at(const ra_source *d, uint32_t id, const staged_field *fields, uint32_t count) {
    for (uint32_t i = 0; i < count; i++)
        if (!fields[i].buffered && fields[i].key == d->id_key && fields[i].value == ra_make(RA_TAG_IDSTR, id)) return i;
    return count;
}

// A new record named `id` with the staged fields as they are (ra_norm_commit's `plain`), its `id` in its
// flag.
static inline __attribute__((always_inline)) int64_t new_record_with(ra_normalizer *n, uint32_t id, uint32_t type,
                                                                     const staged_field *fields, uint32_t count,
                                                                     uint32_t set) {
    ra_source *d = n->delta;
    uint32_t skip = self_id_at(d, id, fields, count);
    bool flag = skip < count;
    uint32_t *w = shape_scratch(n, count);
    int64_t rec = w ? ra_record_new(d, id, type, count - flag) : -1;
    if (rec < 0) return rec;
    ra_record *r = &d->syms[rec].rec;
    put_fields(d->vals + r->fields, w, fields, skip);
    if (flag) put_fields(d->vals + r->fields + skip, w + skip, fields + skip + 1, count - skip - 1);
    r->self_id = flag;
    return seal_shape(n, r, w, count - flag, set) ? rec : -1;
}

// A record made before its data ID was known (a quick record, whose `id` may come last; one
// whose client ID waited for its owner's ID: a connection's edge, say) takes that ID: its header
// moves to the ID's entry. When the ID has a record already (the same item reached twice in one
// payload), the fields are set there instead, later values winning as in ra_norm_commit, and the unnamed
// record is dropped (its values become garbage).
// (`r`: the unnamed record's header, in the unnamed table or a parked record's entry.)
__attribute__((noinline)) int ra_norm_merge_unnamed(ra_normalizer *n, uint32_t id, const ra_record *r) {
    ra_source *d = n->delta;
    ra_norm_note_collision(n, id, d->syms[id].rec.type, r->type);
    uint32_t count = ra_rec_count(d, r);
    if (!ra_grow((void **)&n->setbuf, &n->cap_setbuf, count + 1, sizeof(uint64_t))) return ra_norm_oom(n);
    for (uint32_t i = 0; i < count; i++) n->setbuf[i] = ra_rec_slot(d, r, i);
    if (r->self_id) n->setbuf[count++] = ra_slot_pack(d->id_key, ra_make(RA_TAG_IDSTR, id));
    return ra_record_set_all(d, id, n->setbuf, count) ? 1 : ra_norm_oom(n);
}
static inline __attribute__((always_inline)) int name_record(ra_normalizer *n, uint32_t id, uint32_t rec) {
    ra_source *d = n->delta;
    if (__builtin_expect(ra_has_record(d, id), 0)) {
        if (!ra_norm_merge_unnamed(n, id, ra_rec(d, rec))) return 0;
        ra_record_drop_unnamed(d, rec);
        return 1;
    }
    ra_record_name(d, rec, id);
    return 1;
}
// Interns the ID a closed record left waiting (close_late), writes it into the record's `id`
// field and its parent's link, and names the record (or merges it into the ID's record).
static inline __attribute__((always_inline)) int resolve_late(ra_normalizer *n) {
    ra_source *d = n->delta;
    uint32_t rec = n->late_rec - 1;
    n->late_rec = 0;
    uint32_t id = ra_intern_placed(d, n->late_off, n->late_len, n->late_hash);
    if (!id) return ra_norm_oom(n);
    // (Their shape words have their tags, IDSTR and REF, already.)
    if (n->late_id_slot != UINT32_MAX) d->vals[n->late_id_slot] = id;  // (else the record keeps its `id` in its flag)
    d->vals[n->late_link] = id;
    return name_record(n, id, rec);
}

// A quick record frame's record, its fields all in: its shape, and the `id` field's value, the
// data ID's symbol (0 while the frame's data ID is not known). False on OOM / limit.
static inline __attribute__((always_inline)) bool seal_quick(ra_normalizer *n, const frame *f, uint32_t id) {
    ra_source *d = n->delta;
    ra_record *r = ra_unnamed_rec(d, f->rec);
    if (f->id_field == ID_IN_FLAG) r->self_id = 1;
    else if (f->id_field) d->vals[r->fields + f->id_field - 1] = id;  // (its word's tag is IDSTR: stage_id)
    return seal_shape(n, r, n->qwords + f->qword_base, f->slot - r->fields, f->set);
}

// `unique`: the fields' storage keys are known to be distinct (ra_set_info.unique_storage), so a
// record created here takes them as staged, without looking for an earlier slot of each key.
// `plain`: moreover none is buffered, `__typename`, a pending link or a list (whose items need
// translating), and the `id` field has its symbol already, so they are copied as they are.
// relay's `idCollision.typename` (RelayResponseNormalizer's check): a record of this payload
// reached again as another type. Client records (their IDs say where they sit), the root and
// untyped records are not compared. Only merges get here: the common path never does.
void ra_norm_note_collision(ra_normalizer *n, uint32_t id, uint32_t before, uint32_t after) {
    ra_source *d = n->delta;
    if (before == after || !before || !after || id == n->root_sym || ra_sym_derived(d, id)) return;
    uint32_t untyped = ra_untyped_type(d);
    if (before == untyped || after == untyped) return;
    ra_bytes_ref text = ra_source_symbol_text(d, id);
    if (text.len >= 7 && memcmp(text.ptr, "client:", 7) == 0) return;
    if (n->ncollisions < RA_MAX_COLLISIONS) {
        n->collisions[n->ncollisions].id = id;
        n->collisions[n->ncollisions].previous = d->types[before];
        n->collisions[n->ncollisions].next = d->types[after];
    }
    if (n->ncollisions < UINT32_MAX) n->ncollisions++;
}

int ra_norm_commit(ra_normalizer *n, uint32_t id, uint32_t type, const staged_field *fields, uint32_t count,
                  const uint8_t *base, bool unique, bool plain) {
    bool created = !ra_has_record(n->delta, id);
    uint32_t before = created ? 0 : n->delta->syms[id].rec.type;
    bool retyped = false;
    if (created && plain) return new_record_with(n, id, type, fields, count, RA_NONE) >= 0 ? 1 : ra_norm_oom(n);
    uint32_t skip = created && unique ? self_id_at(n->delta, id, fields, count) : count;
    // The room a record needs: a slot for each field written below, none for a buffered field,
    // `__typename` (the record's type) or, when known, its own `id` (the header bit). Without
    // `unique` that is at most what the record takes, since ra_record_set keeps one slot a key.
    // (Needed for a new record, and for an existing one with no field yet: the root, made with
    // the normalizer, which takes its room at once rather than a slot at a time.)
    bool empty = created || ra_rec_count(n->delta, &n->delta->syms[id].rec) == 0;
    uint32_t room = 0;
    for (uint32_t i = 0; empty && i < count; i++) room += !fields[i].buffered && i != skip && !is_typename_key(n, fields[i].key);
    int64_t rec = created ? ra_record_new(n->delta, id, type, room) : id;
    if (rec < 0) return ra_norm_oom(n);
    if (!created && empty && !ra_record_reserve(n->delta, (uint32_t)rec, room)) return ra_norm_oom(n);
    if (created && unique) {
        uint32_t at = n->delta->syms[id].rec.fields, c = 0, *w = shape_scratch(n, count);
        if (!w) return ra_norm_oom(n);
        n->delta->syms[id].rec.self_id = skip < count;
        for (uint32_t i = 0; i < count; i++) {
            if (fields[i].buffered || i == skip) continue;
            if (is_typename_key(n, fields[i].key)) {
                if (!set_type_from(n, rec, fields[i].value)) return 0;
                continue;
            }
            uint64_t dv = to_delta(n, fields[i].value, base);
            if (!dv) return ra_norm_oom(n);
            if (fields[i].key == n->delta->id_key && ra_is_own_id(n->delta, (uint32_t)rec, dv)) {
                n->delta->syms[id].rec.self_id = 1;  // (an `id` replayed as text, say)
                continue;
            }
            uint64_t slot = ra_slot_pack(fields[i].key, dv);
            n->delta->vals[at + c] = (uint32_t)(slot >> 32);
            w[c++] = ra_slot_word(slot);
        }
        if (!seal_shape(n, &n->delta->syms[id].rec, w, c, RA_NONE)) return ra_norm_oom(n);
        ra_record_trim(n->delta, (uint32_t)rec);
        return 1;
    }
    // The fields set at once, the record taking its new shape once.
    if (!ra_grow((void **)&n->setbuf, &n->cap_setbuf, count ? count : 1, sizeof(uint64_t))) return ra_norm_oom(n);
    uint32_t nset = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (fields[i].buffered) continue;
        uint64_t v = fields[i].value;
        if (is_typename_key(n, fields[i].key)) {
            if (!set_type_from(n, rec, v)) return 0;
            retyped = true;
            continue;
        }
        uint64_t dv = to_delta(n, v, base);
        if (!dv) return ra_norm_oom(n);
        n->setbuf[nset++] = ra_slot_pack(fields[i].key, dv);
    }
    if (!ra_record_set_all(n->delta, (uint32_t)rec, n->setbuf, nset)) return ra_norm_oom(n);
    ra_record_trim(n->delta, (uint32_t)rec);  // (room left, when its slots end the arena)
    if (!created) {
        uint32_t after = retyped ? n->delta->syms[id].rec.type : type ? ra_type_index(n->delta, type) : 0;
        ra_norm_note_collision(n, id, before, after);
    }
    return 1;
}

// The frame's data ID. A string `id` is interned when first needed, not when it arrives: its
// index slot was prefetched then, and the record's other members hide the wait.
static inline __attribute__((always_inline)) uint32_t frame_id(ra_normalizer *n, frame *f) {
    if (f->id_deferred) {
        f->id_deferred = false;
        if (n->placed == (uint32_t)(f - n->frames) + 1) n->placed = 0;
        f->resolved = ra_intern_placed(n->delta, f->id_off, f->id_len, f->id_hash);
    }
    return f->resolved;
}

// The record's type for conditions and creation: __typename staged as a field wins, then the
// field's concrete type, then the response's __typename.
static const char *record_type(ra_normalizer *n, frame *f, size_t *len, uint32_t *plan_str) {
    *plan_str = RA_NONE;
    for (uint32_t i = n->plan->typename_str == RA_NONE ? n->nfields : f->field_base; i < n->nfields; i++) {
        if (!n->fields[i].buffered && ra_value_tag(n->fields[i].value) == RA_TAG_STRING &&
            is_typename_key(n, n->fields[i].key)) {
            uint32_t l;
            const uint8_t *p = ra_heap_value(n->delta, ra_value_payload(n->fields[i].value), &l);
            *len = l;
            return (const char *)p;
        }
    }
    if (f->sel == RA_NONE) {
        *len = 6;
        return "__Root";
    }
    uint32_t ct = n->plan->sels[f->sel].concrete_type;
    if (ct != RA_NONE) {
        uint32_t l;
        const char *s = ra_plan_str(n->plan, ct, &l);
        *len = l;
        *plan_str = ct;
        return s;
    }
    if (f->has_tn) {
        *len = f->tn_len;
        return (const char *)n->bytes.data + f->tn_off;
    }
    return NULL;
}

static int write_type_record(ra_normalizer *n, const char *type, size_t tlen, uint32_t key_str, bool value) {
    ra_buf *b = &n->scratch;
    b->len = 0;
    if (!ra_buf_append(b, "client:__type:", 14) || !ra_buf_append(b, type, tlen)) return ra_norm_oom(n);
    uint32_t id = ra_intern(n->delta, (const char *)b->data, b->len);
    uint32_t key = plan_sym(n, key_str);
    if (!id || !key || !n->sym_type_schema) return ra_norm_oom(n);
    bool created;
    int64_t rec = ra_record_get_or_create(n->delta, id, n->sym_type_schema, &created);
    if (rec < 0 || !ra_record_set(n->delta, (uint32_t)rec, key, ra_make(value ? RA_TAG_TRUE : RA_TAG_FALSE, 0)))
        return ra_norm_oom(n);
    return 1;
}

// A parked record whose staged fields go in as they are (nothing in it waits for another
// record: a list's edge, say): into the delta now, its values where they stay, instead of being
// copied twice; its header (`*out`) waits in its pending entry, or is counted into the run the
// entry before is (extend_run: a million edges, one entry), and goes to its data ID's entry when
// it settles (name_parked). False on OOM.
static inline __attribute__((always_inline)) bool commit_unnamed(ra_normalizer *n, const frame *f, uint32_t type_sym,
                                                                 ra_record *out) {
    ra_source *d = n->delta;
    int64_t rec = f->rec;
    if (f->quick) {  // its record holds its fields already
        if (!seal_quick(n, f, 0)) return false;
    } else {
        uint32_t count = n->nfields - f->field_base;
        rec = ra_record_new_unnamed(d, type_sym, count);
        if (rec < 0 || !copy_fields(n, (uint32_t)rec, n->fields + f->field_base, count, f->set)) return false;
    }
    *out = *ra_rec(d, (uint32_t)rec);
    ra_record_drop_unnamed(d, (uint32_t)rec);  // (its values stay: the header moved)
    return true;
}

// A closed record's link goes to its parent: the next item of a list, or the field of the
// record member that opened it (always a direct one: a buffered member is captured as text).
// (ra_norm_stage_value, for a link: a REF, or a PEND to a parked record.)
static inline __attribute__((always_inline)) int link_to_parent(ra_normalizer *n, uint64_t link) {
    frame *p = n->top;
    bool pend = ra_value_tag(link) == RA_TAG_PEND;
    if (p->kind == F_LIST) {
        if (!ra_grow((void **)&n->items, &n->cap_items, n->nitems + 1, sizeof(uint32_t))) return ra_norm_oom(n);
        n->items[n->nitems++] = (pend ? RA_ITEM_PEND : 0) | (uint32_t)ra_value_payload(link);
        p->count++;
        return 1;
    }
    if (pend) return ra_norm_stage_value(n, p, link);
    uint32_t key = plan_sym(n, p->cur_skey);  // (cur_sel's storage key)
    return key && add_field(n, p, key, link) ? 1 : ra_norm_oom(n);
}

// relay's getDataID sees the field's concrete type, else the response object's own `__typename`
// key; a `__typename` selected under an alias does not count (it only retypes the record later).
static bool is_viewer(const ra_normalizer *n, const frame *f) {
    if (f->sel == RA_NONE) return false;
    uint32_t ct = n->plan->sels[f->sel].concrete_type;
    if (ct != RA_NONE) return ra_plan_str_eq(n->plan, ct, "Viewer", 6);
    return f->has_tn && f->tn_len == 6 && memcmp(n->bytes.data + f->tn_off, "Viewer", 6) == 0;
}

// A quick record that closes with its `id` text placed, inside a quick record: its ID is
// interned later, when the next symbol is needed (resolve_placed: most often at the next
// record's `id`), not now. An ID new to the payload is registered through the Bloom filter,
// whose word, requested when the `id` arrived, is seldom in by the record's close in a large
// payload (the filter outgrows the core's cache: a million todos' is 1.4 MB); a record later it
// is. Until then the record is unnamed, and its `id` field and its parent's link to it hold
// symbol 0. Whatever reads, names or merges records interns it first (resolve_late_if_any), as
// whatever adds a symbol does (resolve_placed), so nothing sees the difference.
static inline __attribute__((always_inline)) int close_late(ra_normalizer *n, frame *f, frame *p, uint32_t key) {
    ra_source *d = n->delta;
    ra_record *r = ra_unnamed_rec(d, f->rec);
    if (!seal_shape(n, r, n->qwords + f->qword_base, f->slot - r->fields, f->set)) return ra_norm_oom(n);
    n->late_rec = f->rec + 1;
    n->late_off = (uint32_t)f->id_off;
    n->late_len = f->id_len;
    n->late_hash = f->id_hash;
    // (stage_id gave it one, as it placed the text, or the flag)
    if (f->id_field == ID_IN_FLAG) r->self_id = 1;
    n->late_id_slot = f->id_field == ID_IN_FLAG ? UINT32_MAX : r->fields + f->id_field - 1;
    n->placed = 0;
    f->id_deferred = false;
    n->nfields = f->field_base;
    n->bytes.len = f->byte_base;
    pop(n);
    n->late_link = p->slot;
    n->qwords[p->slot + p->qw_off] = ra_slot_word(ra_slot_pack(key, ra_make(RA_TAG_REF, 0)));
    d->vals[p->slot++] = 0;
    return 1;
}

// finish_record for the common record: one with its data ID (a string `id`), typed by its
// field's concrete type, whose staged fields go into a new record as they are (see ra_norm_commit's
// `plain`), with no record parked under it.
// (`type_sym`: for a frame that is not quick.)
static inline __attribute__((always_inline)) int close_identified(ra_normalizer *n, frame *f, uint32_t type_sym) {
    if (!resolve_late_if_any(n)) return 0;  // (a record that closed before this one is named before it)
    if (f->id_deferred && f->quick) {
        frame *p = f - 1;  // (a quick record has a parent)
        if (p->quick && p->slot < p->slot_end) {  // (only record frames are quick)
            uint32_t key = plan_sym(n, p->cur_skey);  // (cur_sel's storage key)
            if (!key) return ra_norm_oom(n);
            if (f->id_deferred) return close_late(n, f, p, key);  // (a first use of the key interns the ID)
        }
    }
    uint32_t id = frame_id(n, f);
    if (!id) return ra_norm_oom(n);
    uint32_t base = f->field_base, count = n->nfields - base;
    if (f->quick) {  // its record holds its fields: it takes the ID, or merges into the ID's record
        if (!seal_quick(n, f, id)) return ra_norm_oom(n);
        if (!name_record(n, id, f->rec)) return 0;
    } else {
        if (f->id_field) n->fields[base + f->id_field - 1].value = ra_make(RA_TAG_IDSTR, id);
        if (__builtin_expect(ra_has_record(n->delta, id), 0)) {  // reached before in this payload: merged
            if (!ra_norm_commit(n, id, type_sym, n->fields + base, count, n->bytes.data, true, true)) return 0;
        } else if (new_record_with(n, id, type_sym, n->fields + base, count, f->set) < 0) {
            return ra_norm_oom(n);
        }
    }
    n->nfields = base;
    n->bytes.len = f->byte_base;
    pop(n);
    return link_to_parent(n, ra_make(RA_TAG_REF, id));
}

// finish_record for a list's item that waits for its list's owner (a connection's edge, until
// the connection closes) and holds nothing that waits itself: its values go into the delta now,
// its header into its pending entry (commit_unnamed), and it takes its client ID when the
// owner's ID is known (ra_norm_settle_pending).
static inline __attribute__((always_inline)) int park_item(ra_normalizer *n, frame *f, uint32_t depth, uint32_t type_sym) {
    ra_record rec;
    if (!commit_unnamed(n, f, type_sym, &rec)) return ra_norm_oom(n);
    uint32_t parent = RA_ITEM_PEND | (depth - 2), key = n->plan->sels[f->sel].storage_key, index = pend_index_of(f);
    uint32_t me = n->npend - 1;
    bool extended = n->npend && extend_run(&n->pend[me], parent, key, index, rec);
    if (!extended) {
        if (!ra_grow((void **)&n->pend, &n->cap_pend, n->npend + 1, sizeof(pend_rec))) return ra_norm_oom(n);
        me = n->npend++;
        n->pend[me] = (pend_rec){.index = index, .parent = parent, .storage_key = key, .committed = 1, .unique = 1,
                                 .plain = 1, .rec = rec};
    }
    n->nfields = f->field_base;
    n->bytes.len = f->byte_base;
    pop(n);
    if (extended) {  // (its run's entry is in the list already, for all its items: a million edges, one entry)
        n->top->count++;
        return 1;
    }
    return link_to_parent(n, ra_make(RA_TAG_PEND, me));
}

int ra_norm_close_record(ra_normalizer *n) {
    uint32_t depth = n->depth - 1;
    frame *f = n->top;
    // The common record (a quick one, see ra_plan): typed by its field's concrete type, not
    // `Viewer` (whatever `__typename` the response has), nothing buffered, no `client:__type:`
    // checks, no list of records, no pending link and nothing parked inside it (else demoted).
    if (f->quick && __builtin_expect(n->npend != f->pend_base, 0) && !ra_norm_demote(n, f)) return ra_norm_oom(n);
    if (f->quick) {
        if (f->id_deferred || f->resolved) return close_identified(n, f, 0);  // (its record has its type)
        uint32_t type_sym = ra_rec_type(n->delta, ra_unnamed_rec(n->delta, f->rec));
        if (f->id_state == ID_NONE && f->index >= 0) {
            const frame *owner = &n->frames[depth - 2];  // (a list item: the list's record)
            if (!owner->resolved && !owner->id_deferred) return park_item(n, f, depth, type_sym);
        }
        return finish_record(n, depth, type_sym, false);
    }
    // The same, with a type that may be `Viewer`, or records parked inside.
    if (!f->has_tn && !f->buffered && f->sel != RA_NONE) {
        uint32_t ct = n->plan->sels[f->sel].concrete_type;
        if (ct != RA_NONE && n->plan->sets[f->set].check_count == 0) {
            uint32_t type_sym = plan_sym(n, ct);
            if (!type_sym) return ra_norm_oom(n);
            f = &n->frames[depth];
            if (!f->special && n->npend == f->pend_base) {
                if (f->id_deferred || f->resolved) return close_identified(n, f, type_sym);
                if (f->id_state == ID_NONE && f->index >= 0 && !is_viewer(n, f)) {
                    const frame *owner = &n->frames[depth - 2];  // (a list item: the list's record)
                    if (!owner->resolved && !owner->id_deferred) return park_item(n, f, depth, type_sym);
                }
            }
            return finish_record(n, depth, type_sym, is_viewer(n, f));
        }
    }
    if (!resolve_placed(n)) return ra_norm_oom(n);  // before types and client:__type: records are interned
    f = &n->frames[depth];
    size_t tlen = 0;
    uint32_t type_str;
    const char *type = record_type(n, f, &tlen, &type_str);
    if (!type) {
        f->cur_key = RA_NONE;
        return ra_norm_fail(n, RA_ERR_TYPENAME, "Expected a typename for record: the object has no string `__typename`");
    }
    // Values whose selection depended on the type: replay them now that it is known.
    for (uint32_t i = f->field_base; i < n->nfields; i++) {
        if (!n->fields[i].buffered) continue;
        const ra_entry *e = &n->plan->entries[n->fields[i].key];
        uint64_t text = n->fields[i].value;
        for (uint32_t c = e->first; c < e->first + e->count; c++) {
            uint32_t cand = n->plan->cands[c];
            const ra_plan_sel *s = &n->plan->sels[cand];
            f = &n->frames[depth];
            type = record_type(n, f, &tlen, &type_str);
            if (conds_hold(n, f, type, tlen, s->cond_first, s->cond_count) && !ra_norm_replay(n, depth, cand, text)) return 0;
        }
    }
    f = &n->frames[depth];
    type = record_type(n, f, &tlen, &type_str);
    // Copy a type that came from the response: replays and commits below may move the buffer
    // it sits in. A type from the plan stays put.
    char type_copy[256];
    char *type_heap = NULL;
    const char *type_text = type_copy;
    if (type_str != RA_NONE) {
        type_text = type;
    } else if (tlen < sizeof type_copy) {
        memcpy(type_copy, type, tlen);
    } else {
        type_heap = ra_malloc(tlen);
        if (!type_heap) return ra_norm_oom(n);
        memcpy(type_heap, type, tlen);
        type_text = type_heap;
    }
    int ok = 1;
    const ra_plan_set *set = &n->plan->sets[f->set];
    for (uint32_t c = set->check_first; ok && c < set->check_first + set->check_count; c++) {
        const ra_plan_check *chk = &n->plan->checks[c];
        if (conds_hold(n, f, type_text, tlen, chk->cond_first, chk->cond_count))
            ok = write_type_record(n, type_text, tlen, chk->abstract_key, watch_present(n, f, chk->abstract_key));
    }
    uint32_t type_sym = !ok ? 0 : type_str != RA_NONE ? plan_sym(n, type_str) : ra_intern(n->delta, type_text, tlen);
    bool viewer = is_viewer(n, f);
    ra_dealloc(type_heap);
    if (!ok) return 0;
    if (!type_sym) return ra_norm_oom(n);
    return finish_record(n, depth, type_sym, viewer);
}

// Decides the closed record's data ID, commits it (or parks it until its parent's ID is known)
// and hands the link to the parent.
static int finish_record(ra_normalizer *n, uint32_t depth, uint32_t type_sym, bool viewer) {
    if (!resolve_late_if_any(n)) return 0;
    frame *f = &n->frames[depth];
    bool root = f->sel == RA_NONE;
    if (f->id_deferred && !frame_id(n, f)) return ra_norm_oom(n);
    // relay's defaultGetDataID: a Viewer whose id is null or absent is client:root:viewer; a
    // falsy id ("", 0, false) falls through to a client ID like any other type.
    if (!f->resolved && viewer && (f->id_state == ID_NONE || f->id_state == ID_NULL)) {
        f->resolved = ra_intern(n->delta, "client:root:viewer", 18);
        if (!f->resolved) return ra_norm_oom(n);
    }
    frame *owner = root ? NULL : &n->frames[depth - 1];
    if (owner && owner->kind == F_LIST) owner = &n->frames[depth - 2];
    if (!f->resolved && owner && owner->id_deferred && !frame_id(n, owner)) return ra_norm_oom(n);
    if (!f->resolved && owner && owner->resolved) {
        f->resolved = ra_norm_client_id(n, owner->resolved, n->plan->sels[f->sel].storage_key, f->index);
        if (!f->resolved) return ra_norm_oom(n);
    }

    uint64_t link;
    if (f->resolved) {
        if (n->npend > f->pend_base && !ra_norm_settle_pending(n, f->pend_base, f->pfield_base, depth, f->resolved)) return 0;
        f = &n->frames[depth];
        if (f->quick) {
            if (!seal_quick(n, f, f->resolved)) return ra_norm_oom(n);
            if (!name_record(n, f->resolved, f->rec)) return 0;
        } else {
            // The `id` field's value is the data ID's symbol, now known.
            if (f->id_field) n->fields[f->field_base + f->id_field - 1].value = ra_make(RA_TAG_IDSTR, f->resolved);
            if (!ra_norm_commit(n, f->resolved, type_sym, n->fields + f->field_base, n->nfields - f->field_base,
                        n->bytes.data, n->plan->info[f->set].unique_storage, !f->special && !f->buffered))
                return 0;
        }
        link = ra_make(RA_TAG_REF, f->resolved);
    } else {
        // Park the record until its parent's data ID is known (its client ID derives from it).
        if (!ra_grow((void **)&n->pend, &n->cap_pend, n->npend + 1, sizeof(pend_rec))) return ra_norm_oom(n);
        pend_rec park = {.field_first = n->npfields, .count = 0, .parent = RA_ITEM_PEND | (depth - 1),
                         .storage_key = n->plan->sels[f->sel].storage_key, .index = pend_index_of(f),
                         .type = type_sym, .unique = n->plan->info[f->set].unique_storage,
                         .plain = !f->special};  // buffered fields (replayed already) are not parked
        if (n->frames[depth - 1].kind == F_LIST) park.parent = RA_ITEM_PEND | (depth - 2);
        uint32_t count = n->nfields - f->field_base;
        if (!f->special && !f->buffered) {
            if (!commit_unnamed(n, f, type_sym, &park.rec)) return ra_norm_oom(n);
            park.committed = 1;
        } else {
            if (!ra_grow((void **)&n->pfields, &n->cap_pfields, n->npfields + count, sizeof(staged_field)))
                return ra_norm_oom(n);
            size_t pad = (4 - (n->pbytes.len % 4)) % 4, staged = n->bytes.len - f->byte_base;
            static const uint8_t zeros[4] = {0};
            if (staged && !ra_buf_append(&n->pbytes, zeros, pad)) return ra_norm_oom(n);
            uint64_t rebase = n->pbytes.len;
            if (staged && !ra_buf_append(&n->pbytes, n->bytes.data + f->byte_base, staged)) return ra_norm_oom(n);
            for (uint32_t i = f->field_base; i < n->nfields; i++) {
                staged_field sf = n->fields[i];
                if (sf.buffered) continue;
                unsigned tag = ra_value_tag(sf.value);
                if (tag == RA_TAG_REFS)  // heap values are in the delta already; lists live in staging
                    sf.value = ra_make(tag, ra_value_payload(sf.value) - f->byte_base + rebase);
                if (park.count == RA_MAX_PARKED)
                    return ra_norm_fail(n, RA_ERR_LIMIT, "a record waiting for its parent's data ID has more than %u fields",
                                RA_MAX_PARKED);
                n->pfields[n->npfields++] = sf;
                park.count++;
            }
        }
        uint32_t me = n->npend++;
        n->pend[me] = park;
        for (uint32_t i = f->pend_base; i < me; i++)
            if (n->pend[i].parent == (RA_ITEM_PEND | depth)) {
                n->pend[i].parent = me;
                n->nested++;
            }
        link = ra_make(RA_TAG_PEND, me);
    }
    n->nfields = f->field_base;
    n->bytes.len = f->byte_base;
    pop(n);
    if (root) return 1;
    return link_to_parent(n, link);
}
