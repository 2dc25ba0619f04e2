/*
 * sweep.c — giving back what a full collection's marking did not reach.
 *
 * World stopped, at the end of gc_collect. Order:
 *  1. the short-string table loses its unmarked strings (so that freeing a
 *     string needs no bucket search, and a string made but not yet interned
 *     when the collection ran is never looked for);
 *  2. the list of threads loses its unmarked threads (they are freed in 3);
 *  3. the major heap and the large-object space free every unmarked
 *     object, calling gc_free_object_parts first for what owns more than
 *     its block (a prototype's arrays, a thread's stack and frames, an
 *     open upvalue's link in its thread's list); their sweeps leave every
 *     mark clear for the next collection. Dead nursery objects need
 *     nothing: the next nursery collection does not copy them;
 *  4. at a safe point only (not inside an allocation, whose caller may hold
 *     pointers into stacks), surviving threads' stacks and the string table
 *     are shrunk when mostly unused.
 * Objects in finobj and tobefnz are all marked by then (reached, or
 * resurrected), so nothing waiting for finalization is freed.
 *
 * Freeing an open upvalue unlinks it from its thread; freeing a thread
 * closes its open upvalues (state_freethread). Either may come first, and
 * both keep the other's list consistent.
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
            if (gc_ismarked(gc, obj2gco(ts)) || gc_isfixed(obj2gco(ts))) {
                p = &ts->u.hnext;
            } else {
                *p = ts->u.hnext;
                tb->nuse--;
            }
        }
    }
}

static void sweep_threads(GCState *gc)
{
    size_t kept = 0;
    for (size_t i = 0; i < gc->threads.n; i++) {
        GCObject *th = gc->threads.items[i];
        if (gc_ismarked(gc, th)) gc->threads.items[kept++] = th;
    }
    gc->threads.n = kept;
}

void gc_free_object_parts(lua_State *L, GCObject *o)
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
}

/* The spaces' sweeps call this for every dead object (before its slot is
 * reused). */
typedef struct SweepCtx {
    lua_State *L;
    GCState *gc;
} SweepCtx;

static void on_free(void *ud, void *obj, size_t size)
{
    SweepCtx *cx = ud;
    GCObject *o = obj;
    if (o->tt != HT_PART && novariant(o->tt) != LUA_TSTRING) gc_free_object_parts(cx->L, o);
    if (cx->gc->poison) memset(obj, GC_POISON_BYTE, size);
}

static void shrink_thread(lua_State *th)
{
    if (th->stack != NULL) call_shrinkstack(th);
}

void gc_sweep(lua_State *L, int safe_point)
{
    GCState *gc = gc_state(L);
    GlobalState *g = gc->g;
    sweep_strings(gc);
    sweep_threads(gc);
    SweepCtx cx = {L, gc};
    major_set_on_free(gc->major, on_free, &cx);
    los_set_on_free(gc->los, on_free, &cx);
    major_begin_sweep(gc->major);
    size_t live = major_sweep_all(gc->major);
    live += los_sweep(gc->los);
    major_set_on_free(gc->major, NULL, NULL);
    los_set_on_free(gc->los, NULL, NULL);
    gc->old = live;
    if (!safe_point) return;
    for (size_t i = 0; i < gc->threads.n; i++) shrink_thread(gc->threads.items[i]);
    if (g->mainthread != NULL) shrink_thread(g->mainthread);
    StringTable *tb = &g->strt;
    if (tb->hash != NULL && tb->size > MINSTRTABSIZE && tb->nuse < tb->size / 4) str_resize(L, tb->size / 2);
}
