/*
 * cycle.c — major cycles: marking the old generation while the program
 * runs, between two short pauses (DESIGN §4.5).
 *
 * A cycle:
 *   initial pause  the roots are marked (the conservative scan of the C
 *                  stack included); the stacks of the threads that are
 *                  running (the main thread, the caller, the resume chain)
 *                  and every object in the nursery are traversed at once.
 *                  What they reach is the snapshot.
 *   marking        grey objects are traversed a step at a time, while the
 *                  program runs and nursery collections come and go.
 *   final pause    the rest of the grey stack is traversed; ephemerons,
 *                  weak tables, finalizable objects and weak handles are
 *                  settled as in a stop-the-world collection (collect.c,
 *                  gc_finish_mark); the sweep begins (sweep.c): the string
 *                  table, the thread list and large objects now, the major
 *                  heap's blocks lazily, on demand, in steps and idle time.
 *
 * The snapshot invariant: every object the snapshot reaches is marked by
 * the end of the mark. The marker walks the snapshot while the program
 * changes the heap, so three things keep the paths it walks:
 *   - stores into heap objects hand the value they overwrite to the marker
 *     first (gc.h, gc_satb_value / gc_satb_object);
 *   - stacks change without barriers, so each thread's stack is scanned
 *     once per cycle before it changes: at the initial pause for running
 *     threads, and for the others at the first thread_touch (every API
 *     entry, every resume) or when the marker reaches the thread, whichever
 *     comes first (lua_State.gc_scanned == the cycle's number);
 *   - objects made during the cycle are not in the snapshot and are live
 *     for it: young ones are never marked (gc_setmark refuses them and
 *     gc_ismarked says yes while cycle_marking), old ones are born marked
 *     (the spaces' black allocation), promotions included;
 *   - a value read out of a weak table may have been reachable only weakly
 *     in the snapshot: the read marks it (gc_weak_read), and so does
 *     interning a string that is already in the table and reading a weak
 *     handle.
 * The marker never needs a second look at a stack, a card or a root: the
 * final pause's work is what is left on the grey stack plus the weak and
 * finalizable bookkeeping, not the size of the heap.
 *
 * Marking runs on the worker thread (worker.c), which takes the initial
 * pause's grey objects and the mutator's marks in batches; the mutator
 * traverses what the worker hands back (threads, prototypes, open upvalues,
 * tables that may be weak) and clears dead keys, at safe points and in
 * idle time, a slice at a time. The final pause runs once neither side has
 * anything left. Without a worker (TIDE_GC_DEBUG=no-worker, or no thread to
 * be had) the mutator marks in steps paced by old-generation growth
 * (gc_step) and in idle time (tide_gc_idle).
 */
#include <stdio.h>

#include "gc_internal.h"
#include "../vm/tables.h"

/* Bytes added to the old generation between two sweep steps, and the
 * least a sweep step sweeps. */
#define SWEEP_STEP_GROWTH ((size_t)256 * 1024)
#define SWEEP_STEP_MIN_BLOCKS 32
#define SWEEP_STEP_MAX_BLOCKS 256
/* A sweep step stops after this long even short of its blocks (blocks of
 * coroutines free their stacks: 256 of them took 5-10 ms); the sweep then
 * falls behind and the next step, or allocation, catches up. */
#define SWEEP_STEP_MAX_NS ((uint64_t)500 * 1000)
/* Strong tables with more entries than this are marked in pieces. */
#define BIG_TABLE_ENTRIES ((size_t)16384)
/* Bytes added to the old generation between two mark steps (collect.c,
 * due_after_added: added, not grown). */
#define MARK_STEP_GROWTH ((size_t)256 * 1024)
/* The least and the most work a mark step does (bytes of objects
 * traversed): a step that would have to do more means the mark is behind,
 * and the heap grows past its threshold rather than the step growing. */
#define MARK_STEP_MIN_WORK ((size_t)512 * 1024)
#define MARK_STEP_MAX_WORK ((size_t)4 * 1024 * 1024)
/* With the worker: the mutator's marks are handed over in batches of this
 * many objects; a safe point assists (gc_worker_assist) after this many
 * bytes added to the old generation, for at most ASSIST_MAX_NS. */
#define FEED_BATCH 1024
#define ASSIST_GROWTH ((size_t)64 * 1024)
#define ASSIST_MAX_NS ((uint64_t)250 * 1000)

/* --- the snapshot barrier --------------------------------------------------------- */

/* The mutator's marks go to the worker in batches. */
static inline void feed_if_full(GCState *gc)
{
    if (gc->worker_marking && gc->grey.n >= FEED_BATCH) gc_worker_feed(gc);
}

void gc_satb_(lua_State *L, GCObject *o)
{
    GCState *gc = gc_state(L);
    gc_mark(gc, o);
    feed_if_full(gc);
}

void gc_string_reused_(lua_State *L, GCObject *o)
{
    GCState *gc = gc_state(L);
    if (G(L)->gc_marking) {
        gc_mark(gc, o);
        return;
    }
    /* The lazy sweep: a dead string of a block not swept yet is marked,
     * so that its block's sweep keeps it. (Strings of swept blocks that
     * died were unlinked when freed, sweep.c.) */
    if (o->age == GC_SPACE_MAJOR && major_block_unswept(major_block_of(o))) major_mark(o);
}

int gc_weak_metatable(lua_State *L, Table *mt)
{
    return gc_weakmode(gc_state(L), mt) != 0;
}

/* --- running stacks, scanned from the top down ------------------------------------------
 * A thread that runs at the initial pause (the main thread, the resume
 * chain) would have its whole stack scanned there, however deep: a
 * million values moved onto it make a pause of tens of milliseconds. Only
 * the frames that may change before control returns below the running one
 * need scanning in the pause: the running frame, and its varargs, which its
 * return and its tail calls overwrite (gc_frame_lowest). The slots below — the
 * frames of its callers — change only once control returns into them (a
 * return, an error caught, a thread reset: gc_stack_return scans down to
 * the frame first) or through an open upvalue (the snapshot barrier of
 * OP_SETUPVAL and lua_setupvalue hands over what it overwrites) or
 * lua_setlocal (which scans down first). They are scanned a slice at a time
 * at safe points and in idle time; the final pause waits for them. */
#define PARTIAL_STACK_MIN ((size_t)4096) /* fewer slots below: scan it all now */
#define STACK_SLICE_SLOTS ((size_t)4096) /* between two looks at the clock */

/* Scan [th]'s slots from [lo] to its floor, which drops to [lo]. */
static void lower_floor(GCState *gc, lua_State *th, size_t lo)
{
    size_t floor = th->gc_floor;
    if (lo >= floor) return;
    for (StkId s = th->stack + lo, e = th->stack + floor; s < e; s++) gc_markvalue(gc, s2v(s));
    th->gc_floor = (uint32_t)lo;
}

/* Scan the partial stacks downwards until none is left (1) or [deadline_ns]
 * (0: none) passes. */
static int scan_partial_stacks(GCState *gc, uint64_t deadline_ns)
{
    while (gc->partial_stacks.n > 0) {
        lua_State *th = gc->partial_stacks.items[gc->partial_stacks.n - 1];
        size_t floor = th->gc_floor;
        if (floor == 0) {
            gc->partial_stacks.n--;
            continue;
        }
        lower_floor(gc, th, floor > STACK_SLICE_SLOTS ? floor - STACK_SLICE_SLOTS : 0);
        if (deadline_ns != 0 && gc_now_ns() >= deadline_ns) break;
    }
    return gc->partial_stacks.n == 0;
}

static int partial_stacks_left(GCState *gc)
{
    while (gc->partial_stacks.n > 0 && gco2th(gc->partial_stacks.items[gc->partial_stacks.n - 1])->gc_floor == 0)
        gc->partial_stacks.n--;
    return gc->partial_stacks.n > 0;
}

static void drop_partial_stacks(GCState *gc)
{
    for (size_t i = 0; i < gc->partial_stacks.n; i++) gco2th(gc->partial_stacks.items[i])->gc_floor = 0;
    gc->partial_stacks.n = 0;
}

void gc_stack_return_(lua_State *L, CallInfo *ci)
{
    size_t low = gc_frame_lowest(L, ci);
    gc_young_lower(L, low);
    if (L->gc_floor == 0) return;
    GCState *gc = gc_state(L);
    lower_floor(gc, L, low);
    feed_if_full(gc);
}

/* Mark what [th]'s stack holds (the values below its bound and its open
 * upvalues), once per cycle. */
static void scan_thread_now(GCState *gc, lua_State *th)
{
    GlobalState *g = gc->g;
    if (th->gc_scanned == g->gc_cycle) return;
    th->gc_scanned = g->gc_cycle;
    gc_traverse_thread_stack(gc, th);
}

/* The initial pause's scan of a running thread: from the running frame's
 * lowest slot up, the rest left to scan_partial_stacks. */
static void scan_running_thread(GCState *gc, lua_State *th)
{
    if (th->gc_scanned == gc->g->gc_cycle) return;
    size_t low = th->stack != NULL ? gc_frame_lowest(th, th->ci) : 0;
    if (low < PARTIAL_STACK_MIN || !gc_vec_push(gc, &gc->partial_stacks, th)) {
        scan_thread_now(gc, th);
        return;
    }
    th->gc_scanned = gc->g->gc_cycle;
    gc_traverse_thread_stack_from(gc, th, low);
    th->gc_floor = (uint32_t)low;
}

void gc_thread_snapshot(lua_State *L)
{
    GCState *gc = gc_state(L);
    if (gc == NULL || !G(L)->gc_marking) return;
    scan_thread_now(gc, L);
    feed_if_full(gc);
}

void gc_resume_enter(lua_State *L)
{
    GCState *gc = gc_state(L);
    /* Without room to record the thread it is treated as running: the
     * initial pause scans every thread that is not idle (cycle_begin). */
    if (!gc_vec_push(gc, &gc->resume_chain, L)) gc->resume_chain_lost = 1;
}

void gc_resume_leave(lua_State *L)
{
    GCState *gc = gc_state(L);
    /* an error may unwind several resumes at once */
    while (gc->resume_chain.n > 0 && gc->resume_chain.items[gc->resume_chain.n - 1] != L) gc->resume_chain.n--;
    if (gc->resume_chain.n > 0) gc->resume_chain.n--;
    if (gc->resume_chain.n == 0) gc->resume_chain_lost = 0; /* nothing runs unrecorded now */
}

/* --- pacing ------------------------------------------------------------------------- */

/* The work a traversal of [o] does, in bytes read. */
static size_t traversal_work(const GCObject *o)
{
    if (o->tt == HT_TABLE) {
        const Table *t = gco2t(o);
        size_t n = sizeof(Table) + (size_t)t->asize * sizeof(TValue);
        if (!tab_isdummy(t)) n += (size_t)sizenode(t) * sizeof(Node);
        return n;
    }
    if (o->tt == HT_THREAD) {
        const lua_State *th = gco2th(o);
        return sizeof(lua_State) + (th->stack != NULL ? (size_t)(th->top - th->stack) * sizeof(StackValue) : 0);
    }
    return gc_object_size(o);
}

/* After a step: when the next is due, and how much it must do so that the
 * mark ends before the heap reaches its threshold. The snapshot is at most
 * the live size of the last cycle plus what was promoted since; the growth
 * left before the threshold is shared out in steps of MARK_STEP_GROWTH. */
static void pace(GCState *gc)
{
    size_t used = gc->old + gc->raw;
    size_t left = gc->threshold > used ? gc->threshold - used : 0;
    /* (behind: the rest is spread over a quarter of the growth allowance,
     * in steps of the usual size, not done in one) */
    size_t allowance = gc->threshold > gc->live ? gc->threshold - gc->live : GC_MIN_GROWTH;
    if (left < allowance / 4) left = allowance / 4;
    size_t steps = left / MARK_STEP_GROWTH;
    /* the work left, estimated by the last cycle's live size (0 once this
     * cycle has done more: the snapshot grew, and the least step goes on),
     * spread over one step fewer than there is room for, to end early */
    size_t todo = gc->live > gc->mark_work ? (size_t)(gc->live - gc->mark_work) : 0;
    size_t budget = steps > 1 ? todo / (steps - 1) : todo;
    if (budget < MARK_STEP_MIN_WORK) budget = MARK_STEP_MIN_WORK;
    budget += budget / 2; /* 50% headroom: the snapshot grows with promotion */
    gc->mark_budget = budget < MARK_STEP_MAX_WORK ? budget : MARK_STEP_MAX_WORK;
    gc->mark_step_at = gc->old_added + MARK_STEP_GROWTH;
    if (gc->cycles_eager) { /* small steps, often: the barrier's stress test */
        gc->mark_budget = 64 * 1024;
        gc->mark_step_at = gc->old_added;
    }
}

/* Continue the large table in progress with up to [work] bytes' worth of
 * entries; returns the work done. */
static size_t mark_big_table(GCState *gc, size_t work)
{
    size_t count = work / sizeof(TValue) + 1;
    size_t from = gc->big_pos;
    if (gc_traverse_strong_range(gc, gc->big_table, &gc->big_pos, count)) gc->big_table = NULL;
    return (gc->big_pos - from) * sizeof(TValue);
}

/* Traverse grey objects until [work] bytes are read or [deadline_ns]
 * (0: none) is passed; 1 when nothing grey is left. A strong table of more
 * than BIG_TABLE_ENTRIES entries is traversed in pieces, so that no step
 * is longer than its budget however large the table. */
static int mark_some(GCState *gc, size_t work, uint64_t deadline_ns)
{
    size_t done = 0;
    unsigned checks = 0;
    for (;;) {
        while (gc->big_table != NULL || gc->grey.n > 0) {
            if (gc->big_table != NULL) {
                done += mark_big_table(gc, work > done ? work - done : 0);
            } else {
                GCObject *o = gc->grey.items[--gc->grey.n];
                if (o->tt == HT_TABLE && gco2t(o)->asize + (size_t)sizenode(gco2t(o)) > BIG_TABLE_ENTRIES &&
                    gc_traverse_table_begin(gc, gco2t(o)) == 0) {
                    gc->big_table = gco2t(o);
                    gc->big_pos = 0;
                    continue;
                }
                done += traversal_work(o);
                gc_traverse(gc, o);
            }
            if (done >= work) break;
            if (deadline_ns != 0 && (++checks & 63) == 0 && gc_now_ns() >= deadline_ns) break;
        }
        gc->mark_work += done;
        if (gc->grey.n > 0 || gc->big_table != NULL) return 0;
        if (!gc->grey_overflow) return 1;
        /* the grey stack could not grow: finish with the stop-the-world
         * rescan (traversal is idempotent) */
        gc_propagate(gc);
        return 1;
    }
}

/* --- the pauses --------------------------------------------------------------------- */

static void set_phase(GCState *gc, int phase, uint64_t when)
{
    int previous = gc->phase;
    gc->phase = (uint8_t)phase;
    gc_frames_note_phase(gc, previous, phase, when);
}

/* The end of a cycle's pause of [kind] begun at [start]: the world runs
 * again in [phase]. Returns the pause's duration. */
static uint64_t end_pause(GCState *gc, int kind, int phase, uint64_t start, size_t heap_before)
{
    gc->collecting = 0;
    gc_set_debt(gc);
    uint64_t duration = gc_now_ns() - start;
    gc->last_pause_ns = duration;
    set_phase(gc, phase, start + duration);
    gc_frames_note_pause(gc, kind, start, duration, heap_before);
    return duration;
}

/* Every thread that may run before its next thread_touch: those not idle
 * (inside a call or a resume), when the resume chain was not recorded. */
static void scan_busy_threads(GCState *gc)
{
    for (size_t i = 0; i < gc->threads.n; i++) {
        lua_State *th = gco2th(gc->threads.items[i]);
        if (!gc_thread_idle(th)) scan_thread_now(gc, th);
    }
}

/* A young table's old storage (a large part is born old) is traversed
 * later, on its own, by the marker: stores into it during the cycle go
 * through the snapshot barrier like any old object's, and a table of a
 * million entries must not be read in the pause. It is handed over even
 * when marked already: the root scan marks storage a C local points into,
 * and marking storage never traverses it. */
static void hand_over_part(GCState *gc, void *payload)
{
    GCObject *p = obj2gco(part_of(payload));
    if (gc_in_nursery(gc, p)) return;
    gc_setmark(gc, p);
    gc_grey_push(gc, p);
}

static void walk_storage(GCState *gc, void *payload)
{
    Part *p = part_of(payload);
    if (gc_in_nursery(gc, p))
        gc_traverse_part(gc, p);
    else
        hand_over_part(gc, payload);
}

/* A young object joins the snapshot with what it references; a young
 * table's storage as it is now (strongly: a young table is never settled
 * as weak). Young storage is read through its table only: storage the
 * walk finds on its own may be an orphan whose table died, naming objects
 * freed since. (An old table's young storage is the worker's to hand back:
 * it never reads the nursery, worker.c.) */
static void traverse_young_cb(void *ud, GCObject *o)
{
    GCState *gc = ud;
    if (o->tt == HT_TABLE) {
        Table *t = gco2t(o);
        if (t->metatable != NULL) gc_mark(gc, obj2gco(t->metatable));
        if (t->array != NULL) walk_storage(gc, t->array);
        if (!tab_isdummy(t)) walk_storage(gc, t->node);
    } else if (o->tt != HT_PART) {
        gc_traverse(gc, o);
    }
}

void gc_cycle_begin(lua_State *L)
{
    GCState *gc = gc_state(L);
    GlobalState *g = gc->g;
    lua_assert(!gc->cycle_marking && gc_may_collect(gc));
    uint64_t start = gc_now_ns();
    size_t heap_before = gc_total(gc);
    gc_frames_note_pause_begin(gc, TIDE_GC_PAUSE_INITIAL_MARK);
    /* the last cycle's sweep ends first (a mark needs every block swept) */
    size_t left_unswept = major_unswept_count(gc->major);
    if (gc->phase == TIDE_GC_PHASE_SWEEPING) gc_cycle_finish_sweep(L, 0);
    uint64_t swept_ns = gc_now_ns();
    gc->collecting = 1;
    gc_nursery_seal(gc);
    if (gc->verify_before) gc_verify_heap(L, "before a cycle's initial pause");
    gc_scrub_stack();
    /* From here the snapshot is taken. The epoch does not flip: the header
     * marks it governs are those of nursery objects, which a cycle never
     * marks, and of the main thread, which is always live; a flip would
     * make the nursery's marks from the last full collection look current
     * to the next one. */
    gc->grey.n = gc->weak.n = gc->ephemeron.n = gc->allweak.n = 0;
    gc->grey_overflow = gc->weak_overflow = 0;
    gc->may_evacuate = 0;
    gc->mark_work = 0;
    gc->big_table = NULL;
    g->gc_cycle++;
    gc->cycle_marking = 1;
    g->gc_marking = 1;
    major_set_allocate_black(gc->major, 1);
    los_set_allocate_black(gc->los, 1);
    gc->partial_stacks.n = 0;
    gc_mark_roots(L);
    if (g->mainthread != NULL) scan_running_thread(gc, g->mainthread);
    scan_running_thread(gc, L);
    for (size_t i = 0; i < gc->resume_chain.n; i++) scan_running_thread(gc, gco2th(gc->resume_chain.items[i]));
    if (gc->resume_chain_lost) scan_busy_threads(gc);
    /* Young objects change without barriers: what they reference joins
     * the snapshot now, by a walk of the nursery (cheaper than emptying it
     * with a nursery collection, which copies; dead young objects keep
     * what they reference for this cycle). */
    uint64_t roots_ns = gc_now_ns();
    size_t young_bytes = gc_nursery_used(gc);
    gc_nursery_foreach(gc, traverse_young_cb, gc);
    uint64_t walked_ns = gc_now_ns();
    size_t grey = gc->grey.n;
    gc->cycle_start_ns = start;
    pace(gc);
    /* the snapshot's grey objects go to the worker, which marks from now on */
    gc->worker_marking = (uint8_t)gc_worker_start(L);
    if (gc->worker_marking) gc->mark_step_at = gc->old_added + ASSIST_GROWTH;
    uint64_t duration = end_pause(gc, TIDE_GC_PAUSE_INITIAL_MARK, TIDE_GC_PHASE_MARKING, start, heap_before);
    if (gc->trace)
        fprintf(stderr, "tide gc: cycle %llu initial pause: %.4f ms (%.3f ms sweeping the %zu blocks the last "
                        "cycle left, %.3f ms roots and stacks, %.3f ms walking %zu young bytes), %zu grey%s; "
                        "old %zu bytes, live %zu, trigger %zu, target %zu; growing %.1f MB/s, marking %.1f MB/s\n",
                (unsigned long long)(gc->cycles + 1), (double)duration / 1e6, (double)(swept_ns - start) / 1e6,
                left_unswept, (double)(roots_ns - swept_ns) / 1e6, (double)(walked_ns - roots_ns) / 1e6, young_bytes,
                grey, gc->worker_marking ? " for the worker" : "", gc->old + gc->raw, gc->live, gc->cycle_trigger,
                gc->threshold, gc->grow_rate * 1e3, gc->mark_rate * 1e3);
}

/* The end of the mark, inside the final pause once its nursery collection
 * has run: the snapshot's marking is completed and settled; the caller
 * sweeps, then clears cycle_marking. */
static void cycle_end_mark(lua_State *L)
{
    GCState *gc = gc_state(L);
    GlobalState *g = gc->g;
    lua_assert(gc->cycle_marking);
    if (gc->big_table != NULL) mark_big_table(gc, (size_t)-1 / 2);
    gc_finish_mark(gc);
    if (gc->verify_marks) gc_verify_marks(L);
    /* cycle_marking stays set through the sweep (the caller clears it):
     * young objects are live, and the string table keeps young strings */
    g->gc_marking = 0;
    major_set_allocate_black(gc->major, 0);
    los_set_allocate_black(gc->los, 0);
    gc->cycles++;
}

void gc_cycle_abandon(GCState *gc)
{
    lua_assert(gc->cycle_marking);
    if (gc->worker_marking) gc_worker_stop(gc, 0);
    gc->worker_marking = 0;
    drop_partial_stacks(gc);
    gc->g->gc_marking = 0;
    gc->cycle_marking = 0;
    major_set_allocate_black(gc->major, 0);
    los_set_allocate_black(gc->los, 0);
    major_clear_marks(gc->major);
    los_clear_marks(gc->los);
    gc->grey.n = gc->weak.n = gc->ephemeron.n = gc->allweak.n = 0;
    gc->grey_overflow = gc->weak_overflow = 0;
    gc->big_table = NULL;
    gc->mark_done_ns = 0;
    uint64_t now = gc_now_ns();
    set_phase(gc, TIDE_GC_PHASE_IDLE, now);
}

/* The final pause of a cycle that ran to its end by steps. */
static void cycle_finish(lua_State *L, GCReason reason)
{
    GCState *gc = gc_state(L);
    uint64_t start = gc_now_ns();
    size_t heap_before = gc_total(gc);
    gc_frames_note_pause_begin(gc, TIDE_GC_PAUSE_FINAL_MARK);
    set_phase(gc, TIDE_GC_PHASE_FINAL_MARK, start);
    gc->collecting = 1;
    /* No nursery collection: young objects are live for the cycle, and
     * whatever old object one references was in the snapshot or was
     * stored there after being read from it, so it is marked. The worker
     * parks; what it still held (nothing, unless the mark fell behind and
     * is finished here) is traversed now. */
    uint64_t mark_done_ns = gc_pacer_note_cycle_marked(gc, start);
    if (gc->worker_marking) {
        gc_worker_stop(gc, 1);
        gc_worker_finish_deferred(L);
        gc->worker_marking = 0;
    }
    scan_partial_stacks(gc, 0); /* (nothing left, unless the mark is finished here) */
    size_t grey_left = gc->grey.n;
    cycle_end_mark(L);
    uint64_t marked_ns = gc_now_ns();
    (void)reason;
    gc_sweep_lazily(gc);
    gc->cycle_marking = 0;
    if (gc->grey.cap > 4096) gc_vec_free(gc, &gc->grey); /* scratch, as in collect.c */
    gc->sweep_step_at = gc->old_added + SWEEP_STEP_GROWTH;
    gc->sweep_start_used = gc->old + gc->raw;
    gc->sweep_start_added = gc->old_added;
    gc->sweep_blocks = major_unswept_count(gc->major);
    gc->collections++;
    if (gc->verify_after) gc_verify_heap(L, "after a cycle's final pause");
    uint64_t duration = end_pause(gc, TIDE_GC_PAUSE_FINAL_MARK, TIDE_GC_PHASE_SWEEPING, start, heap_before);
    if (gc->trace)
        fprintf(stderr, "tide gc: cycle %llu final pause: %.4f ms (%.3f ms ending the mark, %zu grey left), "
                        "cycle %.3f ms (mark done after %.3f), heap %zu bytes; worker traversed %llu objects, handed back %llu; idle time traversed %llu\n",
                (unsigned long long)gc->cycles, (double)duration / 1e6, (double)(marked_ns - start) / 1e6,
                grey_left, (double)(start + duration - gc->cycle_start_ns) / 1e6,
                (double)(mark_done_ns - gc->cycle_start_ns) / 1e6, heap_before,
                (unsigned long long)gc->worker_traversed, (unsigned long long)gc->worker_handed_back,
                (unsigned long long)gc->helper_traversed);
}

/* --- the lazy sweep ----------------------------------------------------------------- */

/* Sweep up to [max_blocks]; when the last block is swept, the cycle is
 * over: the live size is known and the next one is paced from it. */
static void sweep_blocks(lua_State *L, size_t max_blocks, int safe_point)
{
    GCState *gc = gc_state(L);
    if (gc->phase != TIDE_GC_PHASE_SWEEPING) return;
    if (!gc_sweep_some(L, max_blocks, safe_point)) {
        gc->sweep_step_at = gc->old_added + SWEEP_STEP_GROWTH;
        return;
    }
    if (gc->trace)
        fprintf(stderr, "tide gc: cycle %llu sweep over: live %zu bytes of %zu, heap %zu after %llu bytes allocated\n",
                (unsigned long long)gc->cycles, gc->sweep_left, gc->sweep_start_used, gc->old + gc->raw,
                (unsigned long long)(gc->old_added - gc->sweep_start_added));
    gc_set_thresholds(gc, gc->sweep_left);
    set_phase(gc, TIDE_GC_PHASE_IDLE, gc_now_ns());
}

/* Sweep in pieces of 16 blocks until [max_blocks] are swept, the sweep
 * ends, or [deadline] passes (checked after each piece). */
static void sweep_until(lua_State *L, size_t max_blocks, uint64_t deadline, int safe_point)
{
    GCState *gc = gc_state(L);
    for (size_t done = 0; done < max_blocks && gc->phase == TIDE_GC_PHASE_SWEEPING; done += 16) {
        sweep_blocks(L, 16, safe_point);
        if (gc_now_ns() >= deadline) break;
    }
}

void gc_cycle_finish_sweep(lua_State *L, int safe_point)
{
    sweep_blocks(L, (size_t)-1, safe_point);
}

/* The blocks the lazy sweep should have swept once [added] (a value of
 * gc->old_added) is reached: all of them once what was added to the old
 * generation (promoted, born old, raw) since the sweep began is half the
 * way from the heap the sweep began with to the next cycle's trigger, in
 * proportion before. Added bytes, not growth: what a sweep frees is
 * allocated again at once where the program makes and drops objects born
 * old (coroutines), so the heap did not grow and a sweep paced by growth
 * ended only when allocation on demand had swept every block. */
static size_t sweep_target(const GCState *gc, uint64_t added)
{
    size_t room = gc->cycle_trigger > gc->sweep_start_used ? (gc->cycle_trigger - gc->sweep_start_used) / 2 : 0;
    /* (a cycle that ended late, past the trigger: a quarter of the heap's
     * growth then) */
    size_t floor = gc->sweep_blocks * MAJOR_BLOCK_SIZE / 4;
    if (room < floor) room = floor;
    uint64_t grown = added > gc->sweep_start_added ? added - gc->sweep_start_added : 0;
    return grown >= room ? gc->sweep_blocks : (size_t)((double)gc->sweep_blocks * grown / room);
}

/* A sweep step at a safe point, every SWEEP_STEP_GROWTH bytes added to the
 * old generation: up to sweep_target (it comes in lumps of a nursery's
 * promotions, so a fixed share per step would lag), at least
 * SWEEP_STEP_MIN_BLOCKS blocks — sweeping ahead of the target lets the
 * freed slots be used again sooner, and the heap grow less. Inside a frame
 * of a game that gives the collector idle time, though, idle time sweeps
 * (tide_gc_idle), far ahead of the target as a rule, and a step would only
 * be a pause in the frame (samples/world: two steps of 32 blocks in nearly
 * every frame of a sweep, 0.04-0.15 ms each, on a sweep 3,000 blocks
 * ahead); there the step sweeps only if the sweep is short of the target
 * as it stood at the frame's beginning, which idle time had the chance to
 * meet — by a step's worth at least, until that target is the whole heap. */
static void sweep_step(lua_State *L)
{
    GCState *gc = gc_state(L);
    size_t unswept = major_unswept_count(gc->major);
    size_t swept = gc->sweep_blocks > unswept ? gc->sweep_blocks - unswept : 0;
    if (gc_idle_follows(gc)) {
        /* (short by less than a step, and not yet due to be over: the
         * next idle time makes that up) */
        size_t due = sweep_target(gc, gc->frame_old_added_start);
        if (swept >= due || (due < gc->sweep_blocks && due - swept < SWEEP_STEP_MIN_BLOCKS)) {
            gc->sweep_step_at = gc->old_added + SWEEP_STEP_GROWTH;
            gc_set_debt(gc);
            return;
        }
    }
    uint64_t start = gc_now_ns();
    size_t heap_before = gc_total(gc);
    size_t target = sweep_target(gc, gc->old_added);
    size_t blocks = target > swept ? target - swept : 0;
    if (blocks < SWEEP_STEP_MIN_BLOCKS) blocks = SWEEP_STEP_MIN_BLOCKS;
    if (blocks > SWEEP_STEP_MAX_BLOCKS) blocks = SWEEP_STEP_MAX_BLOCKS;
    gc_frames_note_pause_begin(gc, TIDE_GC_PAUSE_SWEEP_STEP);
    sweep_until(L, blocks, start + SWEEP_STEP_MAX_NS, 1);
    gc_set_debt(gc);
    gc_frames_note_pause(gc, TIDE_GC_PAUSE_SWEEP_STEP, start, gc_now_ns() - start, heap_before);
}

int gc_cycle_sweep_for(lua_State *L, uint64_t budget_ns, int safe_point)
{
    GCState *gc = gc_state(L);
    sweep_until(L, (size_t)-1, gc_now_ns() + budget_ns, safe_point);
    gc_set_debt(gc);
    return gc->phase != TIDE_GC_PHASE_SWEEPING;
}

/* --- scheduling --------------------------------------------------------------------- */

/* A safe point's share of marking while the worker marks: what it handed
 * back, for at most ASSIST_MAX_NS (a mark-step pause when there was any),
 * and the mutator's marks handed over. */
static void assist_step(lua_State *L, uint64_t start, size_t heap_before)
{
    GCState *gc = gc_state(L);
    gc_frames_note_pause_begin(gc, TIDE_GC_PAUSE_MARK_STEP);
    int worked = partial_stacks_left(gc);
    scan_partial_stacks(gc, start + ASSIST_MAX_NS);
    worked |= gc_worker_assist(L, start + ASSIST_MAX_NS);
    gc->mark_step_at = gc->old_added + ASSIST_GROWTH;
    if (gc->cycles_eager) gc->mark_step_at = gc->old_added;
    gc_set_debt(gc);
    if (worked) gc_frames_note_pause(gc, TIDE_GC_PAUSE_MARK_STEP, start, gc_now_ns() - start, heap_before);
}

void gc_cycle_step(lua_State *L)
{
    GCState *gc = gc_state(L);
    size_t used = gc->old + gc->raw;
    int eager = gc->eager_step_pending;
    gc->eager_step_pending = 0;
    if (gc->phase == TIDE_GC_PHASE_SWEEPING) {
        if (gc->old_added < gc->sweep_step_at && !eager) return;
        sweep_step(L);
        if (gc->phase == TIDE_GC_PHASE_SWEEPING) return;
        used = gc->old + gc->raw;
    }
    if (!gc->cycle_marking) {
        if (gc_pacer_cycle_due(gc, GC_PACE_SAFE_POINT)) gc_cycle_begin(L);
        return;
    }
    if (gc->old_added < gc->mark_step_at && !eager && used < gc->threshold) return;
    uint64_t start = gc_now_ns();
    size_t heap_before = gc_total(gc);
    /* Past the threshold, the mark has fallen behind allocation: it keeps
     * going in larger steps while the heap grows. Only when the heap has
     * grown past the threshold by as much again, and synchronous majors
     * are allowed, does the rest of the mark go into one pause; in
     * low-latency mode the heap grows on, up to the hard limit (tide.h). */
    int behind = used >= gc->threshold;
    size_t allowance = gc->threshold > gc->live ? gc->threshold - gc->live : GC_MIN_GROWTH;
    if (behind && gc->allow_sync_major && used - gc->threshold >= allowance) {
        cycle_finish(L, GC_REASON_SAFE_POINT);
        return;
    }
    if (gc->worker_marking) {
        /* Inside a frame, with the heap short of its threshold, what the
         * worker hands back (thread stacks, above all: a game's thousands
         * of coroutines, 1-1.5 ms of steps in samples/coroutines' first
         * frame) waits for idle time, where tide_gc_idle does it; past
         * the threshold (no idle time given, or not enough) the frame's
         * safe points share it out again — in low-latency mode, where the
         * heap is to grow past its target rather than the game wait, only
         * past half the growth allowance beyond it. */
        size_t wait_below = gc->threshold + (gc->allow_sync_major ? 0 : allowance / 2);
        if (gc->frame_open && !eager && used < wait_below) {
            gc->mark_step_at = gc->old_added + ASSIST_GROWTH;
            gc_set_debt(gc);
            return;
        }
        assist_step(L, start, heap_before);
        /* The final pause goes to a frame boundary when the program drives
         * frames, unless the heap is past its threshold. */
        if (gc_cycle_mark_done(gc) && (gc->frame == 0 || behind || eager)) cycle_finish(L, GC_REASON_SAFE_POINT);
        return;
    }
    gc_frames_note_pause_begin(gc, TIDE_GC_PAUSE_MARK_STEP);
    int done = scan_partial_stacks(gc, start + ASSIST_MAX_NS) && mark_some(gc, gc->mark_budget, 0);
    pace(gc);
    gc_set_debt(gc);
    gc_frames_note_pause(gc, TIDE_GC_PAUSE_MARK_STEP, start, gc_now_ns() - start, heap_before);
    if (done) cycle_finish(L, GC_REASON_SAFE_POINT);
}

int gc_cycle_mark_for(lua_State *L, uint64_t budget_ns)
{
    GCState *gc = gc_state(L);
    if (!gc->cycle_marking) return 0;
    uint64_t deadline = gc_now_ns() + budget_ns;
    if (!scan_partial_stacks(gc, deadline)) return 0;
    if (!gc->worker_marking) return mark_some(gc, (size_t)-1, deadline);
    /* Idle time: do what the worker hands back, and traverse beside it
     * (DESIGN §4.7: idle time drains grey objects) until it is out of
     * work. Sleeping until the worker was done instead cost samples/
     * shooter's headless runs (66 cycles of ~0.5 ms in 1,800 frames) 7%
     * of their time. */
    for (;;) {
        gc_worker_assist(L, deadline);
        if (gc_cycle_mark_done(gc)) return 1;
        if (gc_now_ns() >= deadline) return 0;
        gc->idle_waited_ns += gc_worker_help(gc, deadline);
    }
}

int gc_cycle_mark_done(GCState *gc)
{
    if (!gc->cycle_marking || partial_stacks_left(gc)) return 0;
    int done = gc->worker_marking ? gc_worker_idle(gc)
                                  : gc->grey.n == 0 && gc->big_table == NULL && !gc->grey_overflow;
    if (done && gc->mark_done_ns == 0) gc->mark_done_ns = gc_now_ns(); /* (the pacer's mark time) */
    return done;
}

void gc_cycle_finish(lua_State *L)
{
    GCState *gc = gc_state(L);
    if (!gc->cycle_marking || !gc_may_collect(gc)) return;
    cycle_finish(L, GC_REASON_SAFE_POINT);
}
