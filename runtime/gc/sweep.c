/*
 * sweep.c — giving back what marking did not reach.
 *
 * World stopped, at the end of gc_collect. Order:
 *  1. the short-string table loses its unmarked strings (so that freeing a
 *     string needs no bucket search, and a string made but not yet interned
 *     when the collection ran is never looked for);
 *  2. the index is walked in order and compacted: unmarked objects that are
 *     not fixed are freed (type-specific parts first: a prototype's arrays,
 *     a thread's stack and frames, an open upvalue's link in its thread's
 *     list), the others slide down, and every Part learns its new position;
 *  3. at a safe point only (not inside an allocation, whose caller may hold
 *     pointers into stacks), surviving threads' stacks, the string table
 *     and the index are shrunk when mostly unused.
 * Objects in finobj and tobefnz are all marked by then (reached, or
 * resurrected), so nothing waiting for finalization is freed.
 *
 * Freeing an open upvalue unlinks it from its thread; freeing a thread
 * closes its open upvalues (state_freethread). Either may come first, and
 * both keep the other's list consistent.
 *
 * The walk reads the index sequentially and prefetches the objects a few
 * entries ahead: the loads of their headers are independent, so their
 * cache misses overlap instead of forming a chain.
 */
#include "gc_internal.h"
#include "../vm/calls.h"
#include "../vm/funcs.h"
#include "../vm/strings.h"

/* How many index entries ahead the sweep prefetches. */
#define SWEEP_PREFETCH 8

static void sweep_strings(GCState *gc)
{
    StringTable *tb = &gc->g->strt;
    if (tb->hash == NULL) return;
    for (int i = 0; i < tb->size; i++) {
        TString **p = &tb->hash[i];
        TString *ts;
        while ((ts = *p) != NULL) {
            if (gc_ismarked(gc, obj2gco(ts)) || gc_isfixed(obj2gco(ts))) {
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

static void sweep_index(lua_State *L, int safe_point)
{
    GCState *gc = gc_state(L);
    uint8_t epoch = gc->epoch;
    uintptr_t *index = gc->index;
    size_t n = gc->nindex, kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (i + SWEEP_PREFETCH < n) __builtin_prefetch(gc_entry_object(index[i + SWEEP_PREFETCH]));
        uintptr_t e = index[i];
        if (e == 0) continue; /* a released Part */
        GCObject *o = gc_entry_object(e);
        if (o->marked == epoch || gc_isfixed(o)) {
            if (o->tt == HT_PART)
                ((Part *)(void *)o)->pad = (uint32_t)kept;
            else if (safe_point && o->tt == HT_THREAD)
                shrink_thread(gco2th(o));
            index[kept++] = e;
        } else {
            gc_free_object(L, o);
        }
    }
    gc->nindex = kept;
}

/* Give back most of an index that is mostly empty, down to twice what is
 * in use (failing is fine): a heap that shrank after a peak should show it
 * in the next collectgarbage("count"). */
static void shrink_index(GCState *gc)
{
    if (gc->index_cap <= 1024 || gc->nindex >= gc->index_cap / 4) return;
    size_t ncap = gc->index_cap / 2;
    while (ncap > 1024 && gc->nindex < ncap / 4) ncap /= 2;
    uintptr_t *index = gc_internal_realloc(gc, gc->index, gc->index_cap * sizeof(uintptr_t),
                                           ncap * sizeof(uintptr_t));
    if (index == NULL) return;
    gc->index = index;
    gc->index_cap = ncap;
}

void gc_sweep(lua_State *L, int safe_point)
{
    GCState *gc = gc_state(L);
    sweep_strings(gc);
    sweep_index(L, safe_point);
    if (!safe_point) return;
    GlobalState *g = gc->g;
    if (g->mainthread != NULL) shrink_thread(g->mainthread);
    StringTable *tb = &g->strt;
    if (tb->hash != NULL && tb->size > MINSTRTABSIZE && tb->nuse < tb->size / 4)
        str_resize(L, tb->size / 2);
    shrink_index(gc);
}
