/*
 * control.c — the collector's life (gc_init, gc_freeall) and lua_gc.
 *
 * Mutator only. lua_gc keeps the meaning of every option of Lua 5.4 so
 * that programs written for stock Lua run unchanged; the collector behind
 * it is the stop-the-world one of this folder, so:
 *  - LUA_GCCOLLECT is a full collection — one that may compact the major
 *    heap (evacuate.c) — then every pending finalizer;
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    gc->minor_target_ns = TIDE_GC_MINOR_PAUSE_TARGET_DEFAULT_NS;
    /* The block lua_newstate made for GlobalState and the main thread came
     * from the allocator too; count it (approximately: its exact layout is
     * state.c's). */
    gc->raw = sizeof(GCState) + sizeof(GlobalState) + sizeof(lua_State);
    gc->live = gc->raw;
    gc->threshold = gc->raw + GC_MIN_GROWTH;
    gc->cycle_trigger = gc->cycle_latest = gc->raw + GC_MIN_GROWTH / 2;
    gc->grow_rate = -1;
    g->gc = gc;
    L->hdr.age = GC_SPACE_EXTERNAL; /* the main thread: in no space */
    if (!gc_spaces_create(gc)) {
        g->gc = NULL;
        g->frealloc(g->ud, gc, sizeof(GCState), 0);
        return 0;
    }
    gc_set_debt(gc);
    const char *spec = getenv("TIDE_GC_DEBUG");
    if (spec != NULL) gc_debug_parse(gc, spec);
    const char *trace_path = getenv("TIDE_GC_TRACE");
    if (trace_path != NULL && trace_path[0] != '\0') {
        int err = gc_trace_open(gc, trace_path);
        if (err != 0) fprintf(stderr, "tide: cannot open TIDE_GC_TRACE file '%s': %s\n", trace_path, strerror(err));
    }
    return 1;
}

void gc_start_nursery(lua_State *L)
{
    GCState *gc = gc_state(L);
    gc_nursery_create(gc, gc->nursery_size); /* none: every object is born old */
}

/* Prototypes and threads own plain memory (upvalues need nothing: the
 * spaces are about to go whole). */
static void free_parts_cb(void *ud, GCObject *o)
{
    if (o->tt == HT_PROTO || o->tt == HT_THREAD) gc_free_object_parts(ud, o);
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
    /* a cycle in progress: its marks do not matter any more, but what its
     * sweep has not freed yet owns memory that only a sweep finds */
    if (gc->cycle_marking) gc_cycle_abandon(gc);
    if (gc->phase == TIDE_GC_PHASE_SWEEPING) gc_cycle_finish_sweep(L, 0);
    gc->closing = 1;      /* no collections, no new finalizable objects */
    gc->event_fn = NULL;  /* tide.h: no events during lua_close */
    gc_trace_close(gc);   /* complete: nothing is recorded while closing */
    gc_run_finalizers(L, 0);
    gc_separate_tobefnz(gc, 1);
    gc_run_finalizers(L, 0);

    /* What objects own besides their blocks; then the spaces go whole. */
    gc_nursery_seal(gc);
    gc_worker_destroy(gc); /* parked since the cycle was abandoned */
    gc_heap_foreach(gc, 0, free_parts_cb, L);
    gc_spaces_destroy(gc);
    gc_nursery_destroy(gc);
    if (g->strt.hash != NULL) gc_raw_free(L, g->strt.hash, (size_t)g->strt.size * sizeof(TString *));
    g->strt.hash = NULL;
    g->strt.size = g->strt.nuse = 0;

    gc_handles_free_all(gc);
    gc_vec_free(gc, &gc->finobj);
    gc_vec_free(gc, &gc->tobefnz);
    gc_vec_free(gc, &gc->fixed);
    gc_vec_free(gc, &gc->threads);
    gc_vec_free(gc, &gc->dirty_threads);
    gc_vec_free(gc, &gc->rs_objects);
    gc_vec_free(gc, &gc->dirty_blocks);
    gc_vec_free(gc, &gc->cemented);
    gc_vec_free(gc, &gc->released_los);
    if (gc->rs_slots != NULL) gc_internal_realloc(gc, gc->rs_slots, gc->rs_slots_cap * sizeof(RememberedSlot), 0);
    gc_vec_free(gc, &gc->pinned);
    gc_vec_free(gc, &gc->grey);
    gc_vec_free(gc, &gc->minor_grey);
    gc_vec_free(gc, &gc->resume_chain);
    gc_vec_free(gc, &gc->partial_stacks);
    gc_vec_free(gc, &gc->weak);
    gc_vec_free(gc, &gc->ephemeron);
    gc_vec_free(gc, &gc->allweak);
    if (gc->cand != NULL) gc_internal_realloc(gc, gc->cand, gc->cand_cap * sizeof(uintptr_t), 0);
    if (gc->string_buckets != NULL)
        gc_internal_realloc(gc, gc->string_buckets, gc->string_buckets_cap * sizeof(uint32_t), 0);
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
        collect = gc->old + gc->raw >= gc->threshold;
    } else if (kbytes < 0) { /* "un-allocation": the next collection moves away */
        gc->threshold += ((size_t)(-(kbytes + 1)) + 1) * 1024; /* -kbytes, even for INT_MIN */
    }
    if (collect) collect_and_finalize(L);
    else gc_set_debt(gc);
    return collect;
}

/* lua_gc's work, on its arguments read; a frame of its own below the
 * stretch lua_gc scrubbed (roots.c, gc_scrub_stack), so that the slots of
 * the locals an option does not use hold nothing stale during a collection. */
__attribute__((noinline)) static int gc_control(lua_State *L, int what, const int arg[3])
{
    GCState *gc = gc_state(L);
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
        if (gc_may_collect(gc)) gc_shrink_oversized_stack(L);
        if (gc_cycles_on(gc) && !gc->allow_sync_major) {
            /* low-latency mode (tide.h): a cycle begins, if none is running */
            if (gc->phase == TIDE_GC_PHASE_IDLE && gc_may_collect(gc)) gc_cycle_begin(L);
            if (gc_can_run_finalizers(L)) gc_run_finalizers(L, 0);
            gc_set_debt(gc);
            break;
        }
        gc->sync_requested = 1; /* the program's own: it may evacuate (evacuate.c) */
        collect_and_finalize(L);
        gc->sync_requested = 0;
        break;
    case LUA_GCCOUNT:
        res = (int)(gc_total(gc) >> 10);
        break;
    case LUA_GCCOUNTB:
        res = (int)(gc_total(gc) & 0x3ff);
        break;
    case LUA_GCSTEP:
        res = step(L, arg[0]);
        break;
    case LUA_GCSETPAUSE:
        res = gc_getparam(gc->pause);
        gc_setparam(gc->pause, arg[0]);
        break;
    case LUA_GCSETSTEPMUL:
        res = gc_getparam(gc->stepmul);
        gc_setparam(gc->stepmul, arg[0]);
        break;
    case LUA_GCISRUNNING:
        res = !gc->stopped;
        break;
    case LUA_GCGEN: /* minormul and majormul are advisory */
        res = gc->mode;
        gc->mode = LUA_GCGEN;
        break;
    case LUA_GCINC: /* pause, stepmul, stepsize; 0 keeps the current value */
        res = gc->mode;
        if (arg[0] != 0) gc_setparam(gc->pause, arg[0]);
        if (arg[1] != 0) gc_setparam(gc->stepmul, arg[1]);
        if (arg[2] != 0) gc->stepsize = arg[2];
        gc->mode = LUA_GCINC;
        break;
    default:
        res = -1; /* not an option */
        break;
    }
    return res;
}

/*
 * What lua_gc's collection may skip of the C stack (gc.h, GCStackWindow):
 * everything from its own frame up to the innermost VM window. Above that
 * window, the VM's frame; below it, the C function the VM called (with the
 * runtime's call machinery, which holds stack slots only) and whatever it
 * called, down to lua_gc. By the manual's rules a C function may keep an
 * object only where the collector sees it (its stack, the registry, an
 * upvalue) across a call that can collect, and lua_gc collects by its very
 * name, so nothing in those frames is a root: their words are the stale
 * temporaries that would keep garbage alive through the collection the
 * program asked for. Runtime code that breaks the rule while calling the
 * program's C (lua_load's reader) raises unanchored_callers, and then
 * every frame is scanned. Without a VM window below it (a call from the
 * host between frames) the whole stack is scanned too. x86-64 only, like
 * the VM's windows.
 */
#if defined(__x86_64__) && defined(__GNUC__)
#define caller_window_begin(L, w) \
    do { \
        GlobalState *g_ = G(L); \
        (w).lo = (w).hi = 0; \
        if (g_->stack_windows != NULL && g_->unanchored_callers == 0) { \
            uintptr_t sp_; \
            __asm__ volatile("mov %%rsp, %0" : "=r"(sp_)); \
            if (sp_ < g_->stack_windows->lo) { \
                (w).lo = sp_; \
                (w).hi = g_->stack_windows->lo; \
                (w).prev = g_->stack_windows; \
                g_->stack_windows = &(w); \
            } \
        } \
    } while (0)
#define caller_window_end(L, w) do { if ((w).hi != 0) G(L)->stack_windows = (w).prev; } while (0)
#else
#define caller_window_begin(L, w) ((void)(w))
#define caller_window_end(L, w) ((void)(w))
#endif

LUA_API int lua_gc(lua_State *L, int what, ...)
{
    thread_touch(L);
    if (gc_state(L)->fin_running > 0) return -1;
    int arg[3] = { 0, 0, 0 }, nargs = 0;
    switch (what) {
    case LUA_GCSTEP: case LUA_GCSETPAUSE: case LUA_GCSETSTEPMUL: nargs = 1; break;
    case LUA_GCGEN: nargs = 2; break;
    case LUA_GCINC: nargs = 3; break;
    default: break;
    }
    va_list ap;
    va_start(ap, what);
    for (int i = 0; i < nargs; i++) arg[i] = va_arg(ap, int);
    va_end(ap);
    GCStackWindow callers;
    caller_window_begin(L, callers);
    gc_scrub_stack();
    int res = gc_control(L, what, arg);
    caller_window_end(L, callers);
    return res;
}
