/*
 * verify_marks.c — TIDE_GC_DEBUG=verify-marks: at the end of a major
 * cycle's mark (world stopped, weak tables cleared, finalizable objects
 * settled), walk the heap from the precise roots the way a stop-the-world
 * mark would, and check that every old object it reaches is marked. A miss
 * is an object the sweep would free while something reaches it: the
 * snapshot barrier (cycle.c) lost a path.
 *
 * The walk has its own visited set (an open-addressed table of addresses)
 * and follows strong references only: weak values and weak keys are not
 * followed, nor are ephemeron values (which makes the check weaker for
 * ephemerons, never wrong). Young objects need no mark (a cycle counts
 * them live) but are walked through: what they reference must be marked.
 * The C stack is not a root here: a stale word may name a dead object.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gc_internal.h"
#include "../vm/tables.h"

typedef struct Walk {
    GCState *gc;
    uintptr_t *set; /* visited addresses, 0 = empty */
    size_t cap, count;
    GCVec stack;
    uint64_t checked;
} Walk;

static _Noreturn void out_of_memory(void)
{
    fprintf(stderr, "tide: TIDE_GC_DEBUG=verify-marks: out of memory\n");
    abort();
}

static size_t hash_addr(uintptr_t a, size_t mask)
{
    a >>= 4;
    a *= (uintptr_t)0x9E3779B97F4A7C15u;
    return (size_t)(a >> 17) & mask;
}

static void grow(Walk *w)
{
    size_t ncap = w->cap == 0 ? (size_t)1 << 16 : w->cap * 2;
    uintptr_t *nset = calloc(ncap, sizeof *nset);
    if (nset == NULL) out_of_memory();
    for (size_t i = 0; i < w->cap; i++) {
        uintptr_t a = w->set[i];
        if (a == 0) continue;
        size_t j = hash_addr(a, ncap - 1);
        while (nset[j] != 0) j = (j + 1) & (ncap - 1);
        nset[j] = a;
    }
    free(w->set);
    w->set = nset;
    w->cap = ncap;
}

/* 1 if [o] was not visited yet (and now is). */
static int visit(Walk *w, const GCObject *o)
{
    if (w->count * 2 >= w->cap) grow(w);
    uintptr_t a = (uintptr_t)o;
    size_t j = hash_addr(a, w->cap - 1);
    while (w->set[j] != 0) {
        if (w->set[j] == a) return 0;
        j = (j + 1) & (w->cap - 1);
    }
    w->set[j] = a;
    w->count++;
    return 1;
}

static void reach(Walk *w, const void *from, const char *what, GCObject *o)
{
    if (o == NULL || !visit(w, o)) return;
    if (o->age != GC_SPACE_NURSERY && o->age != GC_SPACE_EXTERNAL) {
        w->checked++;
        if (!gc_ismarked(w->gc, o)) {
            fprintf(stderr,
                    "tide: TIDE_GC_DEBUG=verify-marks: cycle %u missed an object: type %d at %p, "
                    "reached through %s of %p\n",
                    (unsigned)w->gc->g->gc_cycle, o->tt, (void *)o, what, from);
            abort();
        }
    }
    if (gc_isleaf(o->tt)) return;
    if (!gc_vec_push(w->gc, &w->stack, o)) out_of_memory();
}

static void reach_value(Walk *w, const void *from, const char *what, const TValue *tv)
{
    if (iscollectable(tv)) reach(w, from, what, gcvalue(tv));
}

static void walk_table(Walk *w, Table *t)
{
    int mode = t->metatable != NULL ? gc_weakmode(w->gc, t->metatable) : 0;
    if (t->metatable != NULL) reach(w, t, "the metatable", obj2gco(t->metatable));
    if (!(mode & WEAK_VALUES) || mode == WEAK_KEYS)
        for (uint32_t i = 0; i < t->asize; i++) reach_value(w, t, "an array slot", &t->array[i]);
    if (tab_isdummy(t)) return;
    for (Node *n = t->node, *end = n + sizenode(t); n < end; n++) {
        if (isempty(gval(n))) continue;
        if (!(mode & WEAK_KEYS) && (n->key_tt & BIT_COLLECTABLE)) reach(w, t, "a hash key", n->key_val.gc);
        if (mode == 0) reach_value(w, t, "a hash value", gval(n));
    }
}

static void walk_thread(Walk *w, lua_State *th)
{
    if (th->stack == NULL) return;
    StkId bound = th->top;
    if (isLua(th->ci) && th->ci->top > bound) bound = th->ci->top;
    if (bound > th->stack_last + EXTRA_STACK) bound = th->stack_last + EXTRA_STACK;
    for (StkId s = th->stack; s < bound; s++) reach_value(w, th, "a stack slot", s2v(s));
    for (UpVal *uv = th->openupval; uv != NULL; uv = uv->u.open.next) reach(w, th, "an open upvalue", obj2gco(uv));
}

static void walk_object(Walk *w, GCObject *o)
{
    switch (o->tt) {
    case HT_TABLE:
        walk_table(w, gco2t(o));
        break;
    case HT_LCL: {
        LClosure *cl = gco2lcl(o);
        if (cl->p != NULL) reach(w, o, "the prototype", obj2gco(cl->p));
        for (int i = 0; i < cl->nupvalues; i++)
            if (cl->upvals[i] != NULL) reach(w, o, "an upvalue", obj2gco(cl->upvals[i]));
        break;
    }
    case HT_CCL: {
        CClosure *cl = gco2ccl(o);
        for (int i = 0; i < cl->nupvalues; i++) reach_value(w, o, "an upvalue", &cl->upvalue[i]);
        break;
    }
    case HT_UDATA: {
        Udata *u = gco2u(o);
        if (u->metatable != NULL) reach(w, o, "the metatable", obj2gco(u->metatable));
        for (int i = 0; i < u->nuvalue; i++) reach_value(w, o, "a user value", &u->uv[i]);
        break;
    }
    case HT_THREAD:
        walk_thread(w, gco2th(o));
        break;
    case HT_PROTO: {
        Proto *f = gco2p(o);
        if (f->source != NULL) reach(w, o, "the source", obj2gco(f->source));
        for (int i = 0; i < f->sizek; i++) reach_value(w, o, "a constant", &f->k[i]);
        for (int i = 0; i < f->sizep; i++)
            if (f->p[i] != NULL) reach(w, o, "a nested prototype", obj2gco(f->p[i]));
        for (int i = 0; i < f->sizeupvalues; i++)
            if (f->upvalues[i].name != NULL) reach(w, o, "an upvalue name", obj2gco(f->upvalues[i].name));
        for (int i = 0; i < f->sizelocvars; i++)
            if (f->locvars[i].varname != NULL) reach(w, o, "a local name", obj2gco(f->locvars[i].varname));
        break;
    }
    case HT_UPVAL: {
        UpVal *uv = gco2upv(o);
        if (uv->v != NULL) reach_value(w, o, "the value", uv->v);
        break;
    }
    default:
        break;
    }
}

static void reach_handle(void *ud, TValue *tv)
{
    reach_value(ud, NULL, "a strong handle", tv);
}

void gc_verify_marks(lua_State *L)
{
    GCState *gc = gc_state(L);
    GlobalState *g = gc->g;
    Walk w;
    memset(&w, 0, sizeof w);
    w.gc = gc;
    for (size_t i = 0; i < gc->fixed.n; i++) reach(&w, NULL, "the fixed objects", gc->fixed.items[i]);
    if (g->mainthread != NULL) reach(&w, NULL, "the main thread", obj2gco(g->mainthread));
    reach(&w, NULL, "the running thread", obj2gco(L));
    reach_value(&w, NULL, "the registry", &g->l_registry);
    for (int i = 0; i < LUA_NUMTYPES; i++)
        if (g->mt[i] != NULL) reach(&w, NULL, "a basic type's metatable", obj2gco(g->mt[i]));
    for (int i = 0; i < TM_COUNT; i++)
        if (g->tmname[i] != NULL) reach(&w, NULL, "a metamethod name", obj2gco(g->tmname[i]));
    gc_handles_foreach_kind(gc, HANDLE_STRONG, reach_handle, &w);
    for (size_t i = gc->tobefnz_head; i < gc->tobefnz.n; i++)
        reach(&w, NULL, "the objects waiting for finalization", gc->tobefnz.items[i]);
    for (size_t i = 0; i < gc->finobj.n; i++) /* marked by now, or moved to tobefnz */
        reach(&w, NULL, "the objects marked for finalization", gc->finobj.items[i]);
    while (w.stack.n > 0) walk_object(&w, w.stack.items[--w.stack.n]);
    free(w.set);
    gc_vec_free(gc, &w.stack);
    if (gc->trace)
        fprintf(stderr, "tide gc: verify-marks: cycle %u: %llu old objects reachable, all marked\n",
                (unsigned)g->gc_cycle, (unsigned long long)w.checked);
}
