/*
 * sweep.c — giving back what marking did not reach.
 *
 * World stopped, at the end of gc_collect. Order:
 *  1. the short-string table loses its unmarked strings (so that freeing a
 *     string needs no bucket search, and a string made but not yet interned
 *     when the collection ran is never looked for);
 *  2. objs and parts are walked; unmarked objects are freed (type-specific
 *     parts first: a prototype's arrays, a thread's stack and frames, an
 *     open upvalue's link in its thread's list);
 *  3. at a safe point only (not inside an allocation, whose caller may hold
 *     pointers into stacks), surviving threads' stacks and the string table
 *     are shrunk when mostly unused.
 * finobj, tobefnz and fixed are not swept: everything on them survives.
 *
 * Freeing an open upvalue unlinks it from its thread; freeing a thread
 * closes its open upvalues (state_freethread). Either may come first in the
 * walk, and both keep the other's list consistent.
 */
#include "gc_internal.h"
#include "../vm/calls.h"
#include "../vm/funcs.h"
#include "../vm/strings.h"

static void sweep_strings(GCState *gc)
{
    StringTable *tb = &gc->g->strt;
    if (tb->hash == NULL) return;
    for (int i = 0; i < tb->size; i++) {
        TString **p = &tb->hash[i];
        TString *ts;
        while ((ts = *p) != NULL) {
            if (gc_ismarked(gc, obj2gco(ts))) {
                p = &ts->u.hnext;
            } else {
                *p = ts->u.hnext;
                tb->nuse--;
            }
        }
    }
}

void gc_free_object(lua_State *L, GCObject *o)
{
    switch (o->tt) {
    case HT_PROTO:
        func_freeproto(L, gco2p(o));
        break;
    case HT_UPVAL: {
        UpVal *uv = gco2upv(o);
        if (uv->v != NULL && upval_isopen(uv)) func_unlinkupval(uv);
        break;
    }
    case HT_THREAD:
        lua_assert(gco2th(o) != G(L)->mainthread);
        state_freethread(L, gco2th(o));
        break;
    default: /* short strings left the string table in sweep_strings */
        break;
    }
    gc_free_object_block(gc_state(L), o);
}

static void shrink_thread(lua_State *th)
{
    if (th->stack != NULL) call_shrinkstack(th);
}

static void sweep_objs(lua_State *L, int safe_point)
{
    GCState *gc = gc_state(L);
    uint8_t epoch = gc->epoch;
    GCObject **p = &gc->objs, *o;
    while ((o = *p) != NULL) {
        if (o->marked == epoch) {
            if (safe_point && o->tt == HT_THREAD) shrink_thread(gco2th(o));
            p = &gc_link(o);
        } else {
            *p = gc_link(o);
            gc_free_object(L, o);
        }
    }
}

static void sweep_parts(GCState *gc)
{
    uint8_t epoch = gc->epoch;
    GCObject *o = gc->parts;
    while (o != NULL) {
        GCObject *next = gc_link(o);
        if (o->marked != epoch) {
            GCObject *prev = gc_prevlink(o);
            if (prev != NULL)
                gc_link(prev) = next;
            else
                gc->parts = next;
            if (next != NULL) gc_prevlink(next) = prev;
            gc_free_object_block(gc, o);
        }
        o = next;
    }
}

void gc_sweep(lua_State *L, int safe_point)
{
    GCState *gc = gc_state(L);
    sweep_strings(gc);
    sweep_objs(L, safe_point);
    sweep_parts(gc);
    if (!safe_point) return;
    GlobalState *g = gc->g;
    if (g->mainthread != NULL) shrink_thread(g->mainthread);
    StringTable *tb = &g->strt;
    if (tb->hash != NULL && tb->size > MINSTRTABSIZE && tb->nuse < tb->size / 4)
        str_resize(L, tb->size / 2);
}
