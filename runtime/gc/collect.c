/*
 * collect.c — a full collection from start to end, and when to run one.
 *
 * A full collection stops the world (it runs to completion on the mutator
 * thread):
 *   0. a nursery collection (minor.c) empties the nursery but for pinned
 *      objects, so that marking sees old objects only (and those);
 *   1. flip the epoch (header marks of nursery objects and the main
 *      thread; the old spaces' bitmaps are clear), mark the roots,
 *      propagate, settle ephemerons;
 *   2. clear weak values and non-tracking weak handles — objects about to
 *      be finalized are removed from weak values before resurrection;
 *   3. move unreached finalizable objects to tobefnz and mark them (and all
 *      they reach) again; propagate and settle ephemerons;
 *   4. clear weak keys, the weak values of tables first reached in step 3,
 *      and tracking weak handles;
 *   5. when the program asked for this collection (lua_gc "collect") or
 *      memory ran out, and low-latency mode is off: evacuate sparse blocks
 *      of the major heap (evacuate.c); sweep; set the next threshold.
 * Finalizers are not run here: callers at safe points run them afterwards.
 *
 * Pacing: nursery collections run whenever the nursery is full. A full
 * collection is due when the old generation and raw memory reach
 * threshold = live x pause / 100 (pause 200% by default, as in Lua), at
 * least GC_MIN_GROWTH past the live size. gc_debt = (old + raw) -
 * threshold, so gc_check's sign test asks for gc_step exactly when one is
 * due.
 */
#include <stdio.h>
#include <time.h>

#include "gc_internal.h"
#include "../vm/calls.h"

/* How far gc_debt is pushed below zero when a step cannot collect now
 * (stopped, or inside a finalizer), so the VM does not call again at once. */
#define GC_STEP_DELAY ((size_t)64 * 1024)
#define GC_STOPPED_DISTANCE ((size_t)1 << 30)

uint64_t gc_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t gc_thread_cpu_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int gc_may_collect(GCState *gc)
{
    return !gc->collecting && !gc->closing;
}

/* The old + raw at which a step comes that is due when old_added reaches
 * [at]. A cycle's steps follow the bytes added to the old generation, not
 * its growth: a program that frees as it allocates (large table storage
 * given up by each resize, coroutines the sweep frees and the program
 * makes again) grows little, and steps paced by growth came late or never
 * (a mark the worker had finished in microseconds waited 121 ms for its
 * final pause in bench/core/tables, everything allocated meanwhile live
 * for it). The debt then counts the bytes allocated since, less those the
 * program freed (a step may come a little late); a step due already
 * (promotion took old_added past it) is due at the next safe point, which
 * steps only past a debt of 0. */
static size_t due_after_added(GCState *gc, uint64_t at)
{
    return gc->old_added >= at ? 0 : gc->old + gc->raw + (size_t)(at - gc->old_added);
}

void gc_set_debt(GCState *gc)
{
    size_t due = gc->threshold;
    if (gc_cycles_on(gc)) {
        if (gc->phase == TIDE_GC_PHASE_SWEEPING) {
            due = due_after_added(gc, gc->sweep_step_at);
        } else if (!gc->cycle_marking) {
            due = gc->cycles_eager ? 0 : gc->cycle_latest;
        } else {
            size_t step = due_after_added(gc, gc->mark_step_at);
            if (step < due) due = step;
        }
        /* TIDE_GC_DEBUG=cycles: a step at the first safe point after every
         * nursery collection, whatever survived it */
        if (gc->eager_step_pending) due = 0;
    }
    if (gc->stack_shrink_pending) due = 0;
    if (gc->stopped)
        gc->g->gc_debt = -(intptr_t)GC_STOPPED_DISTANCE;
    else
        gc->g->gc_debt = (intptr_t)(gc->old + gc->raw) - (intptr_t)due;
}

size_t gc_total(GCState *gc)
{
    return gc->old + gc->raw + gc_nursery_used(gc);
}

/* How far the old generation may grow past [live] before the next cycle
 * must be over (the pause parameter: 200%, twice the live size). */
static size_t growth_allowance(GCState *gc, size_t live)
{
    size_t pause = (size_t)gc_getparam(gc->pause);
    size_t growth = pause > 100 ? live / 100 * (pause - 100) : 0;
    return growth < GC_MIN_GROWTH ? GC_MIN_GROWTH : growth;
}

/* The major heap's blocks in use and arena bytes, for the trace. Returned
 * by value, and MajorStats in a frame of its own: gc_collect's frame lies
 * under the conservative scan, and a large or address-taken local there
 * (a sanitizer gives those redzones nothing writes) keeps whatever stale
 * words the stack held before. */
typedef struct MajorUsage {
    size_t blocks, arena_bytes;
} MajorUsage;

__attribute__((noinline)) static MajorUsage major_usage(GCState *gc)
{
    MajorStats st;
    major_stats(gc->major, &st);
    MajorUsage u = {st.blocks_used, st.arena_bytes};
    return u;
}

void gc_finish_mark(GCState *gc)
{
    /* 1 */
    gc_propagate(gc);
    gc_converge_ephemerons(gc);
    if (gc_mark_held_parts(gc)) {
        gc_propagate(gc);
        gc_converge_ephemerons(gc);
    }
    /* 2 */
    size_t wfrom = gc->weak.n, afrom = gc->allweak.n;
    gc_clear_by_values(gc, 0, 0);
    gc_handles_clear(gc, HANDLE_WEAK);
    /* 3 */
    for (size_t i = gc_separate_tobefnz(gc, 0); i < gc->tobefnz.n; i++) gc_mark(gc, gc->tobefnz.items[i]);
    gc_propagate(gc);
    gc_converge_ephemerons(gc);
    /* 4 */
    gc_clear_by_keys(gc);
    gc_clear_by_values(gc, wfrom, afrom);
    gc_handles_clear(gc, HANDLE_WEAK_TRACK);
    /* 5 (what must happen before anything moves or is freed) */
    gc_remembered_filter(gc);
    gc_cemented_filter(gc);
}

/* After a full collection the heap is its live size. After a cycle's lazy
 * sweep it is more: everything promoted or allocated since the final pause
 * is in it too (short-lived coroutines, born old: 17 MB made during one
 * sweep, around 0.5 MB live). Taking the whole heap for the live size
 * doubled the threshold cycle after cycle (bench/core/coroutines: 120 MB
 * in the end for a program that keeps nothing). So the live size is what
 * the sweep left of the heap it began with (sweep.c, on_free), and the
 * threshold is its growth allowance above it, as after a full collection —
 * but never less than a little above the heap as it is: a heap already
 * past it would count as a mark fallen behind before the next cycle began
 * (alloc.c, full_overdue; cycle.c, gc_cycle_step). */
void gc_set_thresholds(GCState *gc, size_t live)
{
    size_t used = gc->old + gc->raw;
    if (live > used) live = used;
    size_t growth = growth_allowance(gc, live);
    if (growth > (size_t)PTRDIFF_MAX / 2 - used) growth = (size_t)PTRDIFF_MAX / 2 - used;
    gc->live = live;
    gc->threshold = live + growth > used + GC_MIN_GROWTH ? live + growth : used + GC_MIN_GROWTH;
    gc_pacer_note_live(gc); /* when the next cycle begins */
}

void gc_collect(lua_State *L, GCReason reason)
{
    GCState *gc = gc_state(L);
    lua_assert(gc_may_collect(gc));
    uint64_t start = gc_now_ns();
    gc_frames_note_pause_begin(gc, reason == GC_REASON_EMERGENCY ? TIDE_GC_PAUSE_EMERGENCY : TIDE_GC_PAUSE_SYNC_MAJOR);
    size_t heap_before = gc_total(gc);
    gc->collecting = 1;
    /* Whether this collection may compact the major heap (evacuate.c) is
     * settled before the mark: its conservative scan must then record what
     * the C stack holds. */
    /* A cycle that is marking is abandoned: its snapshot holds what died
     * since it began, and a full collection frees everything unreachable
     * now (as Lua's own full collection restarts an incremental cycle). */
    if (gc->cycle_marking) gc_cycle_abandon(gc);
    if (gc->phase == TIDE_GC_PHASE_SWEEPING) gc_cycle_finish_sweep(L, 0);
    int evacuate = gc_evacuation_allowed(gc, reason);
    gc->sync_requested = 0;
    gc->may_evacuate = (uint8_t)evacuate;
    gc->stack_roots.n = 0;
    gc->stack_roots_lost = 0;
    memset(&gc->evac_last, 0, sizeof gc->evac_last);
    MajorUsage before = {0, 0};
    if (gc->trace && evacuate) before = major_usage(gc);
    gc_nursery_seal(gc);
    if (gc->verify_before) gc_verify_heap(L, "before a full collection");

    /* 0 */
    gc_minor(L, reason, 1);
    /* 1: the frames of the verifier and the nursery collection left object
     * addresses where the root scan's frames are about to lie */
    gc_scrub_stack();
    gc->epoch = (uint8_t)(3 - gc->epoch);
    gc->grey.n = gc->weak.n = gc->ephemeron.n = gc->allweak.n = 0;
    gc->grey_overflow = gc->weak_overflow = 0;
    gc_mark_roots(L);
    gc_finish_mark(gc);
    /* 5 */
    if (evacuate) gc_evacuate(L, reason);
    gc_sweep(L, reason == GC_REASON_SAFE_POINT);
    gc_release_retired(gc, (size_t)-1); /* the world is stopped already */
    gc_nursery_drop_dead(gc);
    if (reason == GC_REASON_EMERGENCY) gc_nursery_shrink(gc);
    /* The grey stack is scratch: the peak of one collection (a table of a
     * million entries) should not stay in the heap's count. It regrows in
     * a few doublings, and a failed growth only means a rescan. */
    if (gc->grey.cap > 4096) gc_vec_free(gc, &gc->grey);
    if (gc->minor_grey.cap > 4096) gc_vec_free(gc, &gc->minor_grey);
    gc_set_thresholds(gc, gc->old + gc->raw);
    gc->collections++;

    if (gc->verify_after) gc_verify_heap(L, "after a full collection");
    gc->collecting = 0;
    gc_set_debt(gc);
    uint64_t duration = gc_now_ns() - start;
    gc->last_pause_ns = duration;
    gc->last_full_ns = duration;
    if (gc->trace && evacuate) {
        MajorUsage after = major_usage(gc);
        fprintf(stderr, "tide gc: full collection %llu: %.3f ms, heap %zu -> %zu bytes, "
                        "evacuated %zu of %zu blocks chosen (%zu objects, %zu bytes) in %.3f ms, "
                        "major blocks %zu -> %zu, arenas %zu -> %zu bytes\n",
                (unsigned long long)gc->collections, (double)duration / 1e6, heap_before, gc_total(gc),
                gc->evac_last.blocks, gc->evac_last.chosen, gc->evac_last.objects, gc->evac_last.bytes,
                (double)gc->evac_last.ns / 1e6, before.blocks, after.blocks, before.arena_bytes,
                after.arena_bytes);
    } else if (gc->trace)
        fprintf(stderr, "tide gc: full collection %llu: %.3f ms, heap %zu -> %zu bytes\n",
                (unsigned long long)gc->collections, (double)duration / 1e6, heap_before, gc_total(gc));
    gc_frames_note_pause(gc, reason == GC_REASON_EMERGENCY ? TIDE_GC_PAUSE_EMERGENCY : TIDE_GC_PAUSE_SYNC_MAJOR,
                         start, duration, heap_before);
}

/* A running stack far larger than its live slots (a call of a million
 * values returned) is shrunk at a safe point before any collection: each
 * would clear it above the live slots in its pause (minor.c,
 * stack_oversized). Also when a nursery collection found it so (scan_thread)
 * or the allocation path is waiting for it (alloc.c, wait_for_stack). */
void gc_shrink_oversized_stack(lua_State *L)
{
    GCState *gc = gc_state(L);
    gc_note_oversized_stack(L);
    if (gc->stack_shrink_pending) {
        gc->stack_shrink_pending = 0;
        call_shrinkstack(L);
    }
}

/* Finalizers run in gc_step only for programs that do not drive frames
 * (tide.h: once frames begin, they run at frame boundaries and in idle
 * time). */
void gc_step(lua_State *L)
{
    GCState *gc = gc_state(L);
    if (gc->stopped) {
        gc_set_debt(gc);
        return;
    }
    if (!gc_may_collect(gc) || gc->fin_running > 0) {
        gc->g->gc_debt = -(intptr_t)GC_STEP_DELAY;
        return;
    }
    gc_shrink_oversized_stack(L);
    if (gc_cycles_on(gc)) {
        gc_scrub_stack();
        gc_cycle_step(L);
    } else if (gc->old + gc->raw >= gc->threshold) {
        gc_scrub_stack();
        gc_collect(L, GC_REASON_SAFE_POINT);
    }
    if (gc->frame == 0 && gc_can_run_finalizers(L)) gc_run_finalizers(L, 0);
    gc_set_debt(gc);
}
