/*
 * verify.c — the heap verifier (TIDE_GC_DEBUG=verify), run before and after
 * collections, world stopped.
 *
 * It checks the invariants of gc_internal.h:
 *  - every object of every space (the nursery walked from end to end, the
 *    major heap, the large-object space) has a valid header type, the
 *    space its age names, no collection-time flags (pinned, forwarded)
 *    and finalization flags that match the list it is on;
 *  - every reference held by any object, by any thread's stack (every
 *    slot, up to the EXTRA_STACK room), by the registry, the per-type
 *    metatables, the string table and the GC handles points at the start
 *    of an object (or the main thread) whose header type matches it;
 *  - a thread marked clean (minor.c) holds nothing young on its stack;
 *  - the generational rule: every reference from an old object to a young
 *    one is in the remembered set (cards.c): its slot in the slot log, its
 *    owner in the object log, or on a dirty card (the slot's card for
 *    table storage, the header's for anything else) — unless the young
 *    object is cemented (minor.c), a root of every nursery collection. Thread stacks and the links of open
 *    upvalues are exempt: nursery collections scan every thread;
 *  - every young string in the string table is in a bucket the next
 *    nursery collection will look at.
 * Keys of empty or dead hash entries are not references and are skipped
 * (a dead key must hold an identity, gc_clearkey).
 * The first violation stops the process with a message naming the object,
 * the reference and the moment (before/after a collection).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "gc_internal.h"
#include "../vm/tables.h"

typedef struct Verifier {
    GlobalState *g;
    GCState *gc;
    const char *when;
    uintptr_t *addrs; /* every object, sorted */
    size_t n;
    uintptr_t *logged; /* the slot log's slots, sorted */
    size_t nlogged;
} Verifier;

static const char *type_name(int tt)
{
    switch (tt) {
    case HT_SHRSTR: return "short string";
    case HT_LNGSTR: return "long string";
    case HT_TABLE: return "table";
    case HT_LCL: return "Lua closure";
    case HT_CCL: return "C closure";
    case HT_UDATA: return "userdata";
    case HT_THREAD: return "thread";
    case HT_PROTO: return "prototype";
    case HT_UPVAL: return "upvalue";
    case HT_PART: return "table part";
    default: return NULL;
    }
}

static _Noreturn void fail(Verifier *v, const void *obj, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "tide: TIDE_GC_DEBUG=verify: heap corrupt %s: ", v->when);
    if (obj != NULL) {
        const char *tn = type_name(((const GCObject *)obj)->tt);
        fprintf(stderr, "%s %p: ", tn != NULL ? tn : "object", obj);
    }
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

static int is_object(Verifier *v, const void *p)
{
    uintptr_t a = (uintptr_t)p;
    size_t lo = 0, hi = v->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v->addrs[mid] < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < v->n && v->addrs[lo] == a;
}

/* [from] references [to], which must be an object of type [tt] (-1: any). */
static void check_ref(Verifier *v, const void *from, const char *what, const GCObject *to, int tt)
{
    if (!is_object(v, to)) fail(v, from, "%s points at %p, which is not a live object", what, (const void *)to);
    if (tt >= 0 && to->tt != tt)
        fail(v, from, "%s points at a %s where a %s belongs", what,
             type_name(to->tt) ? type_name(to->tt) : "bad header", type_name(tt));
}

/* Is [slot] in the slot log (v->logged, sorted)? A node's key and value
 * count as logged when either is: the collection rescans the node. */
static int logged_slot(Verifier *v, const void *slot)
{
    uintptr_t a = (uintptr_t)slot;
    size_t lo = 0, hi = v->nlogged;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v->logged[mid] < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < v->nlogged && v->logged[lo] == a;
}

/* The generational rule for one reference of [owner] (card of [slot] when
 * [part] is the storage holding it, else of the owner's header). */
static void check_generation(Verifier *v, const GCObject *owner, const Part *part, const void *slot,
                             const char *what, const GCObject *to)
{
    if (!gc_isyoung(v->g, to) || gc_isyoung(v->g, owner)) return;
    if (to->flags & GCF_CEMENTED) return; /* a root of every nursery collection */
    int remembered = part != NULL ? logged_slot(v, slot) || gc_card_is_dirty_slot(part, slot)
                                  : (owner->flags & GCF_REMEMBERED) || gc_card_is_dirty_object(owner);
    if (!remembered) fail(v, owner, "%s points at a young %s but its card is clean", what, type_name(to->tt));
}

static void check_value(Verifier *v, const void *from, const char *what, const TValue *tv)
{
    if (iscollectable(tv)) check_ref(v, from, what, gcvalue(tv), withvariant(rawtt(tv)));
}

/* An object's reference: valid, and remembered when old to young. */
static void check_field(Verifier *v, const GCObject *owner, const char *what, const GCObject *to, int tt)
{
    check_ref(v, owner, what, to, tt);
    check_generation(v, owner, NULL, NULL, what, to);
}

static void check_field_value(Verifier *v, const GCObject *owner, const char *what, const TValue *tv)
{
    if (iscollectable(tv)) check_field(v, owner, what, gcvalue(tv), withvariant(rawtt(tv)));
}

static void check_part(Verifier *v, const Table *t, const void *payload, size_t needed)
{
    const GCObject *p = obj2gco(part_of(payload));
    check_field(v, obj2gco(t), "a storage pointer", p, HT_PART);
    if (((const Part *)p)->nbytes < needed)
        fail(v, t, "its part of %u bytes is smaller than the %zu it uses", (unsigned)((const Part *)p)->nbytes,
             needed);
    if (((const Part *)p)->pad == PART_RELEASED) fail(v, t, "uses storage it released");
}

static void check_table(Verifier *v, const Table *t)
{
    if (t->metatable != NULL) check_field(v, obj2gco(t), "its metatable", obj2gco(t->metatable), HT_TABLE);
    if (t->asize > 0) {
        check_part(v, t, t->array, (size_t)t->asize * sizeof(TValue));
        const Part *p = part_of(t->array);
        for (uint32_t i = 0; i < t->asize; i++) {
            const TValue *tv = &t->array[i];
            if (!iscollectable(tv)) continue;
            check_value(v, t, "an array slot", tv);
            check_generation(v, obj2gco(p), p, tv, "an array slot", gcvalue(tv));
        }
    }
    if (tab_isdummy(t)) return;
    check_part(v, t, t->node, (size_t)sizenode(t) * sizeof(Node));
    const Part *p = part_of(t->node);
    for (uint32_t i = 0; i < sizenode(t); i++) {
        const Node *n = &t->node[i];
        /* a dead key holds an identity (gc_clearkey), never an address */
        if (keyisdead(n) && (n->key_val.i <= 0 || n->key_val.i > (lua_Integer)UINT32_MAX))
            fail(v, t, "has a dead key that is no identity (%lld)", (long long)n->key_val.i);
        if (isempty(gval(n))) continue;
        if (iscollectable(gval(n))) {
            check_value(v, t, "a hash value", gval(n));
            check_generation(v, obj2gco(p), p, gval(n), "a hash value", gcvalue(gval(n)));
        }
        if (n->key_tt & BIT_COLLECTABLE) {
            check_ref(v, t, "a hash key", n->key_val.gc, withvariant(n->key_tt));
            check_generation(v, obj2gco(p), p, &n->key_val, "a hash key", n->key_val.gc);
        }
    }
}

static void check_proto(Verifier *v, const Proto *f)
{
    const GCObject *o = obj2gco(f);
    if (f->source != NULL) check_field(v, o, "its source", obj2gco(f->source), -1);
    for (int i = 0; i < f->sizek; i++) check_field_value(v, o, "a constant", &f->k[i]);
    for (int i = 0; i < f->sizep; i++)
        if (f->p[i] != NULL) check_field(v, o, "a nested prototype", obj2gco(f->p[i]), HT_PROTO);
    for (int i = 0; i < f->sizeupvalues; i++)
        if (f->upvalues[i].name != NULL) check_field(v, o, "an upvalue name", obj2gco(f->upvalues[i].name), -1);
    for (int i = 0; i < f->sizelocvars; i++)
        if (f->locvars[i].varname != NULL) check_field(v, o, "a local name", obj2gco(f->locvars[i].varname), -1);
}

/* A slot of a clean thread may hold a young value stored through an open
 * upvalue (OP_SETUPVAL): that upvalue, old, must be remembered. */
static int stored_through_remembered_upvalue(Verifier *v, const lua_State *th, const TValue *slot)
{
    for (const UpVal *uv = th->openupval; uv != NULL; uv = uv->u.open.next)
        if (uv->v == slot && !gc_isyoung(v->g, uv) &&
            ((uv->hdr.flags & GCF_REMEMBERED) || gc_card_is_dirty_object(obj2gco(uv))))
            return 1;
    return 0;
}

/* Does a nursery collection skip [slot] of [th] (state.h, young_floor)? */
static int clean_slot(const lua_State *th, const StackValue *slot)
{
    size_t i = (size_t)(slot - th->stack);
    return th->stack_clean || i < th->young_floor || (i >= th->young_gap_lo && i < th->young_gap_hi);
}

/* Stacks and open-upvalue links are the thread's: no cards (nursery
 * collections scan every thread not marked clean, from its young floor
 * up). */
static void check_thread(Verifier *v, const lua_State *th)
{
    if (th->stack == NULL) return;
    /* (the running frame's registers lie above its function slot) */
    if (!(th->young_floor <= th->young_gap_lo && th->young_gap_lo <= th->young_gap_hi &&
          th->young_gap_hi <= (size_t)(th->ci->func - th->stack)))
        fail(v, th, "has its young floor and gap (%u, %u to %u) out of order or above its running frame's "
                    "function slot (%zu)",
             (unsigned)th->young_floor, (unsigned)th->young_gap_lo, (unsigned)th->young_gap_hi,
             (size_t)(th->ci->func - th->stack));
    /* above the live slots and past the highest frame top since the last
     * nursery collection (and its EXTRA_STACK), nothing has been written
     * since that collection cleared it */
    StkId bound = th->top;
    if (isLua(th->ci) && th->ci->top > bound) bound = th->ci->top;
    if (bound < th->stack + th->stack_hwm + EXTRA_STACK) bound = th->stack + th->stack_hwm + EXTRA_STACK;
    for (StkId o = bound; o < th->stack_last + EXTRA_STACK; o++)
        if (!ttisnil(s2v(o)))
            fail(v, th, "has slot %zu written above its highest frame top (%u) and live slots", (size_t)(o - th->stack),
                 (unsigned)th->stack_hwm);
    /* nothing young in the clean slots but cemented objects (roots of every
     * nursery collection) and what was stored through an old open upvalue */
    for (StkId o = th->stack; o < th->stack_last + EXTRA_STACK; o++) {
        check_value(v, th, "a stack slot", s2v(o));
        if (clean_slot(th, o) && iscollectable(s2v(o)) && gc_isyoung(v->g, gcvalue(s2v(o))) &&
            !(gcvalue(s2v(o))->flags & GCF_CEMENTED) && !stored_through_remembered_upvalue(v, th, s2v(o)))
            fail(v, th, "%s but slot %zu holds a young %s",
                 th->stack_clean ? "is marked clean" : "has a young floor or gap over it", (size_t)(o - th->stack),
                 type_name(gcvalue(s2v(o))->tt));
    }
    UpVal *const *link = &th->openupval;
    for (const UpVal *uv = th->openupval; uv != NULL; uv = uv->u.open.next) {
        check_ref(v, th, "an open upvalue", obj2gco(uv), HT_UPVAL);
        if (!upval_isopen(uv)) fail(v, th, "a closed upvalue is on its open list");
        if (uv->u.open.previous != link) fail(v, uv, "its back link does not lead to the link that names it");
        if (gc_isyoung(v->g, uv) && !(uv->hdr.flags & GCF_CEMENTED) && clean_slot(th, upval_level(uv)))
            fail(v, th, "%s but has a young open upvalue there",
                 th->stack_clean ? "is marked clean" : "has a young floor or gap over its slot");
        link = &uv->u.open.next;
    }
}

static void check_object(Verifier *v, const GCObject *o)
{
    switch (o->tt) {
    case HT_TABLE:
        check_table(v, (const Table *)o);
        break;
    case HT_LCL: {
        const LClosure *cl = (const LClosure *)o;
        if (cl->p != NULL) check_field(v, o, "its prototype", obj2gco(cl->p), HT_PROTO);
        for (int i = 0; i < cl->nupvalues; i++)
            if (cl->upvals[i] != NULL) check_field(v, o, "an upvalue", obj2gco(cl->upvals[i]), HT_UPVAL);
        break;
    }
    case HT_CCL: {
        const CClosure *cl = (const CClosure *)o;
        for (int i = 0; i < cl->nupvalues; i++) check_field_value(v, o, "an upvalue", &cl->upvalue[i]);
        break;
    }
    case HT_UDATA: {
        const Udata *u = (const Udata *)o;
        if (u->metatable != NULL) check_field(v, o, "its metatable", obj2gco(u->metatable), HT_TABLE);
        for (int i = 0; i < u->nuvalue; i++) check_field_value(v, o, "a user value", &u->uv[i]);
        break;
    }
    case HT_THREAD:
        check_thread(v, (const lua_State *)o);
        break;
    case HT_PROTO:
        check_proto(v, (const Proto *)o);
        break;
    case HT_UPVAL: {
        const UpVal *uv = (const UpVal *)o;
        if (uv->v == NULL) break;
        if (upval_isopen(uv))
            check_value(v, o, "its value", uv->v); /* a stack slot: check_thread */
        else
            check_field_value(v, o, "its value", uv->v);
        break;
    }
    default:
        break;
    }
}

/* --- the whole heap ----------------------------------------------------------------- */

static int compare_addrs(const void *a, const void *b)
{
    uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
    return (x > y) - (x < y);
}

static void check_handle_value(void *ud, TValue *tv)
{
    check_value(ud, NULL, "a GC handle", tv);
}

static void count_cb(void *ud, GCObject *o)
{
    (void)o;
    ((Verifier *)ud)->n++;
}

static void collect_cb(void *ud, GCObject *o)
{
    Verifier *v = ud;
    v->addrs[v->n++] = (uintptr_t)o;
}

/* One object's header: its type, space and flags. */
static void check_header(Verifier *v, const GCObject *o)
{
    if (type_name(o->tt) == NULL) fail(v, NULL, "object %p has the bad header type %d", (const void *)o, o->tt);
    int space = gc_isyoung(v->g, o) ? GC_SPACE_NURSERY : o->age;
    if (o->age != space) fail(v, o, "is in space %d but its header says %d", space, o->age);
    if (o->flags & (GCF_PINNED | GCF_FORWARDED)) fail(v, o, "keeps a collection's flags 0x%x", o->flags);
    if ((o->flags & (GCF_AGED | GCF_CEMENTED)) && space != GC_SPACE_NURSERY)
        fail(v, o, "is old but marked aged or cemented (0x%x)", o->flags);
    if ((o->flags & GCF_FINALIZED) && !(o->flags & GCF_FINALIZABLE)) fail(v, o, "is finalized but not finalizable");
    if (o->tt == HT_PROTO || o->tt == HT_THREAD || o->tt == HT_UDATA) {
        if (space == GC_SPACE_NURSERY) fail(v, o, "is young but must be born old");
    }
    if (o->tt == HT_PART && ((const Part *)o)->pad != PART_ARRAY && ((const Part *)o)->pad != PART_NODES &&
        ((const Part *)o)->pad != PART_RELEASED)
        fail(v, o, "is storage of unknown kind %u", (unsigned)((const Part *)o)->pad);
}

static void check_each_cb(void *ud, GCObject *o)
{
    Verifier *v = ud;
    check_header(v, o);
    check_object(v, o);
}

/* finobj and tobefnz hold objects with the right flags. */
static void check_finalization(Verifier *v)
{
    GCState *gc = v->gc;
    const uint8_t both = GCF_FINALIZABLE | GCF_FINALIZED;
    for (size_t i = 0; i < gc->finobj.n; i++) {
        const GCObject *o = gc->finobj.items[i];
        check_ref(v, NULL, "the finalization list", o, -1);
        if ((o->flags & both) != GCF_FINALIZABLE) fail(v, o, "is in finobj with flags 0x%x", o->flags);
    }
    for (size_t i = gc->tobefnz_head; i < gc->tobefnz.n; i++) {
        const GCObject *o = gc->tobefnz.items[i];
        check_ref(v, NULL, "the to-be-finalized list", o, -1);
        if ((o->flags & both) != both) fail(v, o, "is in tobefnz with flags 0x%x", o->flags);
    }
    for (size_t i = 0; i < gc->threads.n; i++) check_ref(v, NULL, "the thread list", gc->threads.items[i], HT_THREAD);
}

/* Every thread that is not clean is on the dirty list (nursery collections
 * visit no other), unless the list was lost. */
static void check_dirty_threads(Verifier *v)
{
    GCState *gc = v->gc;
    if (gc->dirty_threads_lost) return;
    size_t n = gc->dirty_threads.n;
    uintptr_t *sorted = malloc((n > 0 ? n : 1) * sizeof *sorted);
    if (sorted == NULL) return; /* no memory to check: skip */
    for (size_t i = 0; i < n; i++) sorted[i] = (uintptr_t)gc->dirty_threads.items[i];
    qsort(sorted, n, sizeof *sorted, compare_addrs);
    for (size_t i = 0; i < gc->threads.n; i++) {
        void *th = gc->threads.items[i];
        uintptr_t key = (uintptr_t)th;
        if (!((lua_State *)th)->stack_clean && bsearch(&key, sorted, n, sizeof *sorted, compare_addrs) == NULL)
            fail(v, th, "is not clean but is not on the dirty list");
    }
    free(sorted);
}

/* Every string is in its bucket, and every young one in a bucket the next
 * nursery collection will look at. */
static void check_string_table(Verifier *v)
{
    const StringTable *tb = &v->g->strt;
    GCState *gc = v->gc;
    if (tb->hash == NULL) return;
    int all = gc->string_walk_all;
    unsigned char *logged = all ? NULL : calloc((size_t)tb->size, 1);
    if (!all && logged == NULL) return; /* no memory to check: skip */
    for (size_t i = 0; !all && i < gc->nstring_buckets; i++)
        if (gc->string_buckets[i] < (uint32_t)tb->size) logged[gc->string_buckets[i]] = 1;
    for (int i = 0; i < tb->size; i++) {
        for (const TString *ts = tb->hash[i]; ts != NULL; ts = ts->u.hnext) {
            /* a lazy sweep leaves dead strings of unswept blocks here */
            if (v->g->gc_strings_unswept && ts->hdr.age == GC_SPACE_MAJOR &&
                major_block_unswept(major_block_of(ts)) && !major_is_marked(ts))
                continue;
            check_ref(v, NULL, "the string table", obj2gco(ts), HT_SHRSTR);
            if ((ts->hash & (unsigned)(tb->size - 1)) != (unsigned)i) fail(v, ts, "is in the wrong bucket");
            if (!all && gc_isyoung(v->g, ts) && !logged[i]) fail(v, ts, "is young in a bucket nobody logged");
        }
    }
    free(logged);
}

void gc_verify_heap(lua_State *L, const char *when)
{
    GlobalState *g = G(L);
    GCState *gc = g->gc;
    Verifier v = { g, gc, when, NULL, 0, NULL, 0 };
    gc_nursery_seal(gc);
    gc_heap_foreach(gc, 1, count_cb, &v);
    size_t count = v.n + 1;
    v.n = 0;
    /* The verifier's own memory comes from malloc, not the state's
     * allocator: it is a debug aid, and a state under a memory limit is
     * one it must still check. */
    v.addrs = malloc(count * sizeof(uintptr_t));
    if (v.addrs == NULL) {
        static int warned;
        if (!warned) fprintf(stderr, "tide: TIDE_GC_DEBUG=verify: no memory to verify the heap %s\n", when);
        warned = 1;
        return;
    }
    gc_heap_foreach(gc, 1, collect_cb, &v);
    if (g->mainthread != NULL) v.addrs[v.n++] = (uintptr_t)g->mainthread;
    qsort(v.addrs, v.n, sizeof(uintptr_t), compare_addrs);
    for (size_t i = 1; i < v.n; i++)
        if (v.addrs[i] == v.addrs[i - 1]) fail(&v, (const void *)v.addrs[i], "is listed twice");

    v.logged = malloc((gc->rs_nslots + 1) * sizeof(uintptr_t));
    if (v.logged == NULL) {
        free(v.addrs);
        return;
    }
    for (size_t i = 0; i < gc->rs_nslots; i++) v.logged[v.nlogged++] = (uintptr_t)gc->rs_slots[i].slot;
    qsort(v.logged, v.nlogged, sizeof(uintptr_t), compare_addrs);
    gc_heap_foreach(gc, 1, check_each_cb, &v);
    check_finalization(&v);
    check_dirty_threads(&v);
    if (g->mainthread != NULL) check_thread(&v, g->mainthread);
    check_value(&v, NULL, "the registry", &g->l_registry);
    for (int i = 0; i < LUA_NUMTYPES; i++)
        if (g->mt[i] != NULL) check_ref(&v, NULL, "a type's metatable", obj2gco(g->mt[i]), HT_TABLE);
    check_string_table(&v);
    gc_handles_foreach(gc, check_handle_value, &v);
    free(v.logged);
    free(v.addrs);
}
