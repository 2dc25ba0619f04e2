/*
 * control.c — the collector's life (gc_init, gc_freeall) and lua_gc.
 *
 * Mutator only. lua_gc keeps the meaning of every option of Lua 5.4 so
 * that programs written for stock Lua run unchanged; the collector behind
 * it is the stop-the-world one of this folder, so:
 *  - LUA_GCCOLLECT is a full collection, then every pending finalizer;
 *  - LUA_GCSTEP with 0 is a full collection (the smallest unit of work a
 *    stop-the-world collector has); with n > 0 it counts as n KiB of
 *    allocation and collects if that makes a collection due; it returns 1
 *    when it collected ("finished a cycle");
 *  - the pause (LUA_GCINC, LUA_GCSETPAUSE) drives the pacer; the other
 *    parameters and the mode are stored and reported back, as lua.h says
 *    ("advisory").
 * From inside a finalizer every option returns -1 (collectgarbage then
 * returns fail), as in Lua 5.4.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "gc_internal.h"
#include "../vm/strings.h"

/* --- life --------------------------------------------------------------------- */

int gc_init(lua_State *L)
{
    GlobalState *g = G(L);
    GCState *gc = g->frealloc(g->ud, NULL, 0, sizeof(GCState));
    if (gc == NULL) return 0;
    memset(gc, 0, sizeof *gc);
    for (int b = 0; b < HANDLE_BUCKETS; b++) atomic_init(&gc->handles.bucket[b], NULL);
    atomic_init(&gc->handles.free_head, 0);
    gc->g = g;
    gc->epoch = 1;
    gc->mode = LUA_GCGEN; /* lua.h: "LUA_GCGEN until a program asks otherwise" */
    gc_setparam(gc->pause, GC_DEFAULT_PAUSE);
    gc_setparam(gc->stepmul, GC_DEFAULT_STEPMUL);
    gc->allow_sync_major = 1;
    gc->nursery_size = TIDE_GC_NURSERY_DEFAULT_SIZE;
    /* The block lua_newstate made for GlobalState and the main thread came
     * from the allocator too; count it (approximately: its exact layout is
     * state.c's). */
    gc->total = sizeof(GCState) + sizeof(GlobalState) + sizeof(lua_State);
    gc->live = gc->total;
    gc->threshold = gc->total + GC_MIN_GROWTH;
    g->gc = gc;
    gc_set_debt(gc);
    const char *spec = getenv("TIDE_GC_DEBUG");
    if (spec != NULL) gc_debug_parse(gc, spec);
    return 1;
}

/*
 * lua_close, after the main thread's upvalues and tbc variables are closed:
 * pending finalizers run, then the finalizers of every object still marked
 * for finalization (newest first); objects made meanwhile are not marked
 * for finalization any more. Then every object is freed, with the string
 * table's buckets, the handles and the collector's own memory; G(L)->gc is
 * NULL afterwards (gc_raw_free still works: see alloc.c).
 */
void gc_freeall(lua_State *L)
{
    GlobalState *g = G(L);
    GCState *gc = g->gc;
    if (gc == NULL) return;
    gc->closing = 1;      /* no collections, no new finalizable objects */
    gc->event_fn = NULL;  /* tide.h: no events during lua_close */
    gc_run_finalizers(L, 0);
    gc_separate_tobefnz(gc, 1);
    gc_run_finalizers(L, 0);

    for (size_t i = 0; i < gc->nindex; i++)
        if (gc->index[i] != 0) gc_free_object(L, gc_entry_object(gc->index[i]));
    gc->nindex = 0;
    if (gc->index != NULL) gc_internal_realloc(gc, gc->index, gc->index_cap * sizeof(uintptr_t), 0);
    gc->index = NULL;
    if (g->strt.hash != NULL) gc_raw_free(L, g->strt.hash, (size_t)g->strt.size * sizeof(TString *));
    g->strt.hash = NULL;
    g->strt.size = g->strt.nuse = 0;

    gc_handles_free_all(gc);
    gc_vec_free(gc, &gc->finobj);
    gc_vec_free(gc, &gc->tobefnz);
    gc_vec_free(gc, &gc->fixed);
    gc_vec_free(gc, &gc->grey);
    gc_vec_free(gc, &gc->weak);
    gc_vec_free(gc, &gc->ephemeron);
    gc_vec_free(gc, &gc->allweak);
    if (gc->cand != NULL) gc_internal_realloc(gc, gc->cand, gc->cand_cap * sizeof(uintptr_t), 0);
    g->gc = NULL;
    g->frealloc(g->ud, gc, sizeof(GCState), 0);
}

/* --- lua_gc --------------------------------------------------------------------- */

/* A full collection at the request of the program, then its finalizers. */
static void collect_and_finalize(lua_State *L)
{
    GCState *gc = gc_state(L);
    if (gc_may_collect(gc)) gc_collect(L, GC_REASON_SAFE_POINT);
    if (gc_can_run_finalizers(L)) gc_run_finalizers(L, 0);
    gc_set_debt(gc);
}

static int step(lua_State *L, int kbytes)
{
    GCState *gc = gc_state(L);
    int collect = kbytes == 0;
    if (kbytes > 0) {
        size_t credit = (size_t)kbytes * 1024;
        gc->threshold = gc->threshold > credit ? gc->threshold - credit : 0;
        collect = gc->total >= gc->threshold;
    } else if (kbytes < 0) { /* "un-allocation": the next collection moves away */
        gc->threshold += ((size_t)(-(kbytes + 1)) + 1) * 1024; /* -kbytes, even for INT_MIN */
    }
    if (collect) collect_and_finalize(L);
    else gc_set_debt(gc);
    return collect;
}

LUA_API int lua_gc(lua_State *L, int what, ...)
{
    GCState *gc = gc_state(L);
    if (gc->fin_running > 0) return -1;
    va_list ap;
    va_start(ap, what);
    int res = 0;
    switch (what) {
    case LUA_GCSTOP:
        gc->stopped = 1;
        gc_set_debt(gc);
        break;
    case LUA_GCRESTART:
        gc->stopped = 0;
        gc_set_debt(gc);
        break;
    case LUA_GCCOLLECT:
        collect_and_finalize(L);
        break;
    case LUA_GCCOUNT:
        res = (int)(gc->total >> 10);
        break;
    case LUA_GCCOUNTB:
        res = (int)(gc->total & 0x3ff);
        break;
    case LUA_GCSTEP:
        res = step(L, va_arg(ap, int));
        break;
    case LUA_GCSETPAUSE: {
        int data = va_arg(ap, int);
        res = gc_getparam(gc->pause);
        gc_setparam(gc->pause, data);
        break;
    }
    case LUA_GCSETSTEPMUL: {
        int data = va_arg(ap, int);
        res = gc_getparam(gc->stepmul);
        gc_setparam(gc->stepmul, data);
        break;
    }
    case LUA_GCISRUNNING:
        res = !gc->stopped;
        break;
    case LUA_GCGEN: {
        (void)va_arg(ap, int); /* minormul: advisory */
        (void)va_arg(ap, int); /* majormul: advisory */
        res = gc->mode;
        gc->mode = LUA_GCGEN;
        break;
    }
    case LUA_GCINC: {
        int pause = va_arg(ap, int);
        int stepmul = va_arg(ap, int);
        int stepsize = va_arg(ap, int);
        res = gc->mode;
        if (pause != 0) gc_setparam(gc->pause, pause);
        if (stepmul != 0) gc_setparam(gc->stepmul, stepmul);
        if (stepsize != 0) gc->stepsize = stepsize;
        gc->mode = LUA_GCINC;
        break;
    }
    default:
        res = -1; /* not an option */
        break;
    }
    va_end(ap);
    return res;
}
