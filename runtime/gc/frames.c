/*
 * frames.c — tide.h's frames, statistics, events and tuning.
 *
 * Mutator only. What the collector does with each promise of tide.h:
 *  - every pause is counted in the frame it fell in — or, inside
 *    tide_gc_idle, in the idle time of the last frame — and reported to the
 *    event callback: a nursery collection as a pause of kind
 *    TIDE_GC_PAUSE_MINOR; a full collection (synchronous, for now) as a
 *    phase change to "sync-major", one back to "idle", then the pause
 *    (TIDE_GC_PAUSE_EMERGENCY when an allocation failed or reached the
 *    limit);
 *  - tide_frame_begin takes a full collection that is due there, at the
 *    frame boundary, and runs pending finalizers within a small budget;
 *  - tide_gc_idle runs pending finalizers, and a full collection when one
 *    is due (or three quarters of the way to due) and the last one took
 *    less time than the budget left;
 *  - no concurrent marking yet: the phase read between calls is always
 *    "idle", and the low-latency setting is stored (see tide.h).
 * The same functions fire the USDT probes (probes.h) and write the trace
 * file (trace.c), whether or not an event callback is set: gc-begin and,
 * for a full collection, the phase change to "sync-major" when a pause
 * starts (gc_frames_note_pause_begin); gc-end and the change back to
 * "idle" when it ends.
 */
#include "gc_internal.h"
#include "probes.h"

/* Finalizers tide_frame_begin may run, in time. */
#define FRAME_BEGIN_FINALIZER_BUDGET_NS ((uint64_t)500 * 1000)
/* The nursery's block size: tide_gc_set_nursery_size rounds up to it. */
#define NURSERY_BLOCK ((size_t)64 * 1024)

/* A C function that Lua called is running on [L]: no finalizers, no stack
 * shrinking from here. */
static int call_in_progress(lua_State *L)
{
    return L->ci != &L->base_ci;
}

/* --- events ------------------------------------------------------------------- */

static void emit(GCState *gc, int kind, int pause_kind, int phase, int previous_phase, uint64_t start_ns,
                 uint64_t duration_ns, uint64_t cpu_ns, size_t heap_bytes)
{
    tide_GcEvent ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.pause_kind = pause_kind;
    ev.phase = phase;
    ev.previous_phase = previous_phase;
    ev.in_idle = gc->in_idle;
    ev.low_latency = !gc->allow_sync_major;
    ev.start_ns = start_ns;
    ev.duration_ns = duration_ns;
    ev.frame = gc->frame;
    ev.heap_bytes = heap_bytes;
    ev.cpu_ns = cpu_ns;
    gc->event_fn(gc->event_ud, &ev);
}

/* The phase-change probe, out of line: with constant phases inlined, the
 * probe's arguments would be immediates, which perf cannot read. */
__attribute__((noinline)) static void probe_phase_change(int from, int to)
{
    TIDE_PROBE_PHASE_CHANGE(from, to);
}

/* A whole stop-the-world major collection: it is a phase of its own, from
 * idle to idle. (A cycle's pauses and steps report their phases through
 * gc_frames_note_phase.) */
static int is_sync_major(int pause_kind)
{
    return pause_kind == TIDE_GC_PAUSE_SYNC_MAJOR || pause_kind == TIDE_GC_PAUSE_EMERGENCY;
}

void gc_frames_note_pause_begin(GCState *gc, int pause_kind)
{
    if (gc->closing) return;
    TIDE_PROBE_GC_BEGIN(pause_kind);
    if (is_sync_major(pause_kind)) probe_phase_change(TIDE_GC_PHASE_IDLE, TIDE_GC_PHASE_SYNC_MAJOR);
    /* (a system call: only for those who read it) */
    gc->pause_cpu_start = gc->event_fn != NULL || gc->trace_file != NULL ? gc_thread_cpu_ns() : 0;
}

/* The trace file's record of a pause that ended: its phases, then itself. */
static void trace_pause(GCState *gc, int pause_kind, uint64_t start_ns, uint64_t duration_ns, uint64_t cpu_ns,
                        size_t heap_before, size_t heap_after)
{
    if (is_sync_major(pause_kind)) {
        gc_trace_phase(gc, TIDE_GC_PHASE_IDLE, TIDE_GC_PHASE_SYNC_MAJOR, start_ns);
        gc_trace_phase(gc, TIDE_GC_PHASE_SYNC_MAJOR, TIDE_GC_PHASE_IDLE, start_ns + duration_ns);
    }
    gc_trace_pause(gc, pause_kind, start_ns, duration_ns, cpu_ns, heap_before, heap_after);
}

void gc_frames_note_pause(GCState *gc, int pause_kind, uint64_t start_ns, uint64_t duration_ns,
                          size_t heap_before)
{
    if (gc->closing) return;
    if (gc->frame != 0 && !gc->in_idle) {
        gc->stats.pauses++;
        if (pause_kind == TIDE_GC_PAUSE_MINOR) gc->stats.minor_pauses++;
        gc->stats.pause_ns += duration_ns;
        if (duration_ns > gc->stats.max_pause_ns) gc->stats.max_pause_ns = duration_ns;
    }
    size_t heap_after = gc_total(gc);
    if (is_sync_major(pause_kind)) probe_phase_change(TIDE_GC_PHASE_SYNC_MAJOR, TIDE_GC_PHASE_IDLE);
    TIDE_PROBE_GC_END(pause_kind, duration_ns, heap_after);
    /* (read from the pause's beginning to here, a little wider than
     * [start_ns, + duration_ns]: never more than the pause) */
    uint64_t cpu_ns = 0;
    if (gc->pause_cpu_start != 0) {
        uint64_t now = gc_thread_cpu_ns();
        cpu_ns = now > gc->pause_cpu_start ? now - gc->pause_cpu_start : 0;
        if (cpu_ns > duration_ns) cpu_ns = duration_ns;
        gc->pause_cpu_start = 0;
    }
    if (gc->trace_file != NULL) trace_pause(gc, pause_kind, start_ns, duration_ns, cpu_ns, heap_before, heap_after);
    if (gc->event_fn == NULL) return;
    if (is_sync_major(pause_kind)) {
        emit(gc, TIDE_GC_EVENT_PHASE, TIDE_GC_PAUSE_NONE, TIDE_GC_PHASE_SYNC_MAJOR, TIDE_GC_PHASE_IDLE, start_ns, 0, 0,
             heap_before);
        emit(gc, TIDE_GC_EVENT_PHASE, TIDE_GC_PAUSE_NONE, TIDE_GC_PHASE_IDLE, TIDE_GC_PHASE_SYNC_MAJOR,
             start_ns + duration_ns, 0, 0, heap_after);
    }
    emit(gc, TIDE_GC_EVENT_PAUSE, pause_kind, gc->phase, gc->phase, start_ns, duration_ns, cpu_ns, heap_after);
}

void gc_frames_note_heap_limit(GCState *gc)
{
    if (gc->closing) return;
    size_t heap = gc_total(gc);
    TIDE_PROBE_HEAP_LIMIT(heap);
    if (gc->trace_file == NULL && gc->event_fn == NULL) return;
    uint64_t now = gc_now_ns();
    if (gc->trace_file != NULL) gc_trace_heap_limit(gc, now, heap);
    if (gc->event_fn != NULL)
        emit(gc, TIDE_GC_EVENT_HEAP_LIMIT, TIDE_GC_PAUSE_NONE, TIDE_GC_PHASE_IDLE, TIDE_GC_PHASE_IDLE, now, 0, 0, heap);
}

void gc_frames_note_phase(GCState *gc, int from, int to, uint64_t when_ns)
{
    if (gc->closing || from == to) return;
    probe_phase_change(from, to);
    size_t heap = gc_total(gc);
    if (gc->trace_file != NULL) gc_trace_phase(gc, from, to, when_ns);
    if (gc->event_fn != NULL) emit(gc, TIDE_GC_EVENT_PHASE, TIDE_GC_PAUSE_NONE, to, from, when_ns, 0, 0, heap);
}

void gc_frames_note_finalizer(GCState *gc)
{
    if (gc->frame != 0) gc->stats.finalizers_run++;
}

TIDE_API void tide_gc_set_event_callback(lua_State *L, tide_GcEventFn fn, void *ud)
{
    thread_touch(L);
    GCState *gc = gc_state(L);
    gc->event_fn = fn;
    gc->event_ud = fn != NULL ? ud : NULL;
}

/* --- frames ------------------------------------------------------------------------ */

/* Is a collection due ([early]: or three quarters of the way there)? */
static int collection_due(GCState *gc, int early)
{
    if (gc->stopped || !gc_may_collect(gc) || gc->fin_running > 0) return 0;
    size_t used = gc->old + gc->raw;
    if (used >= gc->threshold) return 1;
    return early && gc->threshold > gc->live && used > gc->live && used - gc->live >= (gc->threshold - gc->live) / 4 * 3;
}

/* May the collector work now (not stopped, not inside a collection or a
 * finalizer)? */
static int may_work(GCState *gc)
{
    return !gc->stopped && gc_may_collect(gc) && gc->fin_running == 0;
}

/* How long a compacting collection is expected to take: the last one's
 * time, or, before any, 1 ms for every 8 MB of heap (what this machine's
 * full collections took on the samples). */
static uint64_t compaction_estimate_ns(GCState *gc)
{
    if (gc->last_full_ns != 0) return gc->last_full_ns;
    return (uint64_t)(gc->old + gc->raw) / (8u * 1024 * 1024) * 1000000u;
}

/* A nursery collection in idle time, when the nursery holds at least half
 * its budget, or less but too much for another frame like the last one
 * (gc_nursery_frame_would_collect), and the collection, at twice the cost
 * per byte measured lately, fits in what is left of the idle budget: the
 * next frame then begins with an empty nursery, and one of the collections
 * it would have paused for happens here, outside it. (What a frame made
 * and still holds at its end is what lives longest; collecting it at the
 * frame boundary promotes little that a later collection would have let
 * die.) The second test keeps collections in step with frames: without it
 * a frame that allocates nearly a budget, once one of its collections came
 * in the middle, ends with the nursery under half full, so that the next
 * frame fills it in its middle again, and every frame after pauses once
 * (samples/world in low-latency mode on a slower run: one in-frame
 * collection a frame for 1,700 frames, none in the others). */
#define IDLE_MINOR_FIXED_NS ((uint64_t)50 * 1000)

static void idle_minor(lua_State *L, GCState *gc, uint64_t deadline)
{
    Nursery *ns = &gc->nursery;
    if (ns->raw == NULL || ns->ns_per_byte <= 0) return;
    size_t used = gc_nursery_used(gc);
    if (used == 0 || (used < ns->budget / 2 && !gc_nursery_frame_would_collect(gc, gc->frame_nursery_bytes) &&
                      !gc_nursery_sample_ready(gc)))
        return;
    uint64_t now = gc_now_ns();
    double estimate = 2 * ns->ns_per_byte * (double)used + (double)IDLE_MINOR_FIXED_NS;
    if (now >= deadline || estimate > (double)(deadline - now)) return;
    gc_scrub_stack();
    gc_minor(L, call_in_progress(L) ? GC_REASON_ALLOCATION : GC_REASON_SAFE_POINT, 0);
}

/* The lazy sweep, until [deadline]; returns the time then. */
static uint64_t idle_sweep(lua_State *L, GCState *gc, uint64_t deadline)
{
    uint64_t now = gc_now_ns();
    if (gc->phase != TIDE_GC_PHASE_SWEEPING || now >= deadline) return now;
    gc_cycle_sweep_for(L, deadline - now, !call_in_progress(L));
    return gc_now_ns();
}

/* Idle time with cycles: sweeping, marking for what the budget allows,
 * and the cycle's pauses when the budget has room for them (as long as the
 * last one took). */

static void idle_cycle_work(lua_State *L, GCState *gc, uint64_t start, uint64_t budget_ns)
{
    uint64_t deadline = start + budget_ns;
    if (!may_work(gc)) return;
    uint64_t now = gc_now_ns();
    if (gc->compact_pending && gc->allow_sync_major && now < deadline &&
        compaction_estimate_ns(gc) < deadline - now) {
        gc->compact_pending = 0;
        gc_scrub_stack();
        gc->sync_requested = 1; /* compacting (evacuate.c) */
        gc_collect(L, call_in_progress(L) ? GC_REASON_ALLOCATION : GC_REASON_SAFE_POINT);
        gc->sync_requested = 0;
        return;
    }
    now = idle_sweep(L, gc, deadline);
    if (now < deadline && gc_pacer_cycle_due(gc, GC_PACE_IDLE) && gc->last_pause_ns < deadline - now) {
        gc_scrub_stack();
        gc_cycle_begin(L);
        now = gc_now_ns();
    }
    if (gc->cycle_marking && now < deadline) gc_cycle_mark_for(L, deadline - now);
    now = gc_now_ns();
    if (gc_cycle_mark_done(gc) && now < deadline && gc->last_pause_ns < deadline - now) {
        gc_scrub_stack();
        /* (the sweep it begins waits for the next idle time or the
         * frame's steps: sweeping it here at once raised samples/
         * coroutines' peak RSS from 55 to 85-90 MB) */
        gc_cycle_finish(L);
    }
}

TIDE_API void tide_frame_end(lua_State *L)
{
    thread_touch(L);
    GCState *gc = gc_state(L);
    if (!gc->frame_open) return;
    gc->stats.allocated_bytes = gc->allocated + gc_nursery_used(gc) - gc->frame_alloc_start;
    gc->stats.promoted_bytes = gc->promoted - gc->frame_promoted_start;
    gc->frame_nursery_bytes = (size_t)(gc->nursery_allocated + gc_nursery_used(gc) - gc->frame_nursery_start);
    gc->frame_old_added = (size_t)(gc->old_added - gc->frame_old_added_start);
    gc->frame_allocated = (size_t)gc->stats.allocated_bytes;
    gc->frame_open = 0;
    if (gc->trace_file != NULL) gc_trace_frame_end(gc);
}

TIDE_API void tide_frame_begin(lua_State *L)
{
    thread_touch(L);
    GCState *gc = gc_state(L);
    if (gc->frame_open) tide_frame_end(L);
    gc->frame++;
    gc_pacer_note_frame(gc, gc_now_ns());
    memset(&gc->stats, 0, sizeof gc->stats);
    gc->frame_open = 1;
    if (gc->trace_file != NULL) gc_trace_frame_begin(gc);
    gc->frame_alloc_start = gc->allocated + gc_nursery_used(gc);
    gc->frame_nursery_start = gc->nursery_allocated + gc_nursery_used(gc);
    gc->frame_promoted_start = gc->promoted;
    gc->frame_old_added_start = gc->old_added;
    gc_nursery_stretch(gc, gc->frame_nursery_bytes);
    int safe = !call_in_progress(L);
    if (gc_cycles_on(gc)) {
        if (gc->frame == 1) gc_worker_prepare(gc); /* the thread's start is no pause's */
        /* the short pauses of a cycle go to the frame boundary */
        if (may_work(gc) && (gc_cycle_mark_done(gc) || gc_pacer_cycle_due(gc, GC_PACE_FRAME_BOUNDARY))) {
            gc_scrub_stack();
            if (gc->cycle_marking)
                gc_cycle_finish(L);
            else
                gc_cycle_begin(L);
        }
    } else if (collection_due(gc, 0)) {
        gc_scrub_stack();
        gc_collect(L, safe ? GC_REASON_SAFE_POINT : GC_REASON_ALLOCATION);
    }
    if (safe && gc_can_run_finalizers(L)) gc_run_finalizers(L, FRAME_BEGIN_FINALIZER_BUDGET_NS);
    gc_set_debt(gc);
}

TIDE_API void tide_gc_idle(lua_State *L, uint64_t budget_ns)
{
    thread_touch(L);
    if (budget_ns == 0) return;
    GCState *gc = gc_state(L);
    uint64_t start = gc_now_ns();
    int safe = !call_in_progress(L);
    gc->in_idle = 1;
    gc->idle_before = gc->frame + 1;
    gc->idle_waited_ns = 0;
    uint64_t promoted_before = gc->promoted, old_added_before = gc->old_added;
    if (safe && gc_can_run_finalizers(L)) gc_run_finalizers(L, budget_ns);
    if (may_work(gc)) gc_release_for(gc, start + budget_ns); /* large blocks retired since */
    if (may_work(gc)) idle_minor(L, gc, start + budget_ns);
    /* room for the next frame's promotion and its objects born old —
     * as much as the last frame added to the old generation, its idle
     * collection's promotion included; before the first frame, as much as
     * the program's loading added (samples/coroutines' frame 0 makes and
     * starts its 5,500 actors: thirteen steps writing room in it, 0.3 ms,
     * with one collection's room written ahead) — before the cycle's
     * work: a mark waits out the rest of the budget for the worker. (With
     * the promotion alone, samples/world's generating frames, whose
     * objects are born old while it pretenures, took four steps a frame,
     * 0.2-0.3 ms.) */
    uint64_t frame_old = gc->frame != 0 ? gc->frame_old_added + (gc->old_added - old_added_before) : gc->old_added;
    if (may_work(gc)) gc_reserve_for(gc, frame_old, start + budget_ns);
    uint64_t spent = gc_now_ns() - start;
    if (gc_cycles_on(gc)) {
        idle_cycle_work(L, gc, start, budget_ns);
    } else if (spent < budget_ns && collection_due(gc, 1) && gc->last_pause_ns < budget_ns - spent) {
        gc_scrub_stack();
        gc_collect(L, safe ? GC_REASON_SAFE_POINT : GC_REASON_ALLOCATION);
        spent = gc_now_ns() - start;
        if (safe && spent < budget_ns && gc_can_run_finalizers(L)) gc_run_finalizers(L, budget_ns - spent);
    }
    gc_set_debt(gc);
    gc->in_idle = 0;
    if (gc->frame != 0) {
        gc->stats.idle_gc_ns += gc_now_ns() - start - gc->idle_waited_ns;
        gc->stats.promoted_bytes += gc->promoted - promoted_before; /* (an idle nursery collection's) */
    }
    if (gc->trace_file != NULL) gc_trace_idle(gc, start, budget_ns);
}

/* --- statistics ------------------------------------------------------------------------- */

TIDE_API const char *tide_gc_phase_name(int phase)
{
    static const char *const names[TIDE_GC_PHASE_COUNT] = {
        "idle", "initial-mark", "marking", "final-mark", "sweeping", "sync-major",
    };
    if (phase < 0 || phase >= TIDE_GC_PHASE_COUNT) return "unknown";
    return names[phase];
}

TIDE_API int tide_gc_frame_stats(lua_State *L, tide_FrameStats *out)
{
    thread_touch(L);
    GCState *gc = gc_state(L);
    if (gc->frame == 0) {
        memset(out, 0, sizeof *out);
    } else {
        *out = gc->stats;
        if (gc->frame_open) {
            out->allocated_bytes = gc->allocated + gc_nursery_used(gc) - gc->frame_alloc_start;
            out->promoted_bytes = gc->promoted - gc->frame_promoted_start;
        }
    }
    out->frame = gc->frame;
    out->heap_bytes = gc_total(gc);
    out->phase = gc->phase; /* (a stop-the-world collection is never seen running) */
    return gc->frame != 0;
}

/* --- tuning ------------------------------------------------------------------------------- */

TIDE_API int tide_gc_allow_synchronous_major(lua_State *L, int allow)
{
    thread_touch(L);
    GCState *gc = gc_state(L);
    int previous = gc->allow_sync_major;
    gc->allow_sync_major = (uint8_t)(allow != 0);
    /* back from low-latency mode: the collector catches up with a
     * compacting collection in the first idle time that can hold it */
    if (allow && !previous) gc->compact_pending = 1;
    return previous;
}

/* A new size takes effect at once when nothing is pinned in the nursery
 * (a nursery collection empties it first); otherwise it is refused. */
TIDE_API int tide_gc_set_nursery_size(lua_State *L, size_t bytes)
{
    thread_touch(L);
    GCState *gc = gc_state(L);
    if (bytes == 0) bytes = TIDE_GC_NURSERY_DEFAULT_SIZE;
    if (bytes < TIDE_GC_NURSERY_MIN_SIZE) return 0;
    if (bytes > SIZE_MAX - NURSERY_BLOCK) return 0;
    bytes = (bytes + NURSERY_BLOCK - 1) / NURSERY_BLOCK * NURSERY_BLOCK;
    if (gc->limit != 0 && bytes > gc->limit) return 0;
    if (gc->nursery.raw == NULL) { /* before the state is built, or none could be had */
        gc->nursery_size = bytes;
        return 1;
    }
    if (!gc_may_collect(gc)) return 0;
    gc_scrub_stack();
    gc_minor(L, GC_REASON_ALLOCATION, 0);
    if (gc->nursery.pinned_bytes != 0) return 0;
    size_t old_size = gc->nursery_size;
    gc_nursery_destroy(gc);
    if (!gc_nursery_create(gc, bytes)) {
        gc_nursery_create(gc, old_size);
        return 0;
    }
    return 1;
}

TIDE_API uint64_t tide_gc_set_minor_pause_target(lua_State *L, uint64_t target_ns)
{
    GCState *gc = gc_state(L);
    uint64_t previous = gc->minor_target_ns;
    gc->minor_target_ns = target_ns;
    if (target_ns == 0) gc_nursery_adapt(gc, 0, 0, 0); /* the whole region again */
    return previous;
}

TIDE_API void tide_gc_set_heap_limit(lua_State *L, size_t hard_limit_bytes)
{
    thread_touch(L);
    gc_set_memory_limit(L, hard_limit_bytes);
}
