/*
 * pacer.c — when a concurrent major cycle begins (DESIGN §4.7).
 *
 * A cycle must end, final pause included, before the old generation
 * (old + raw) reaches its threshold; past it the mark is behind, and in
 * low-latency mode the heap then grows toward the hard limit. Beginning
 * too early costs the opposite: more cycles than the heap's growth needs.
 *
 * The model, from what was measured while the program ran:
 *   grow_rate   bytes per ns by which old + raw grows (promotion, objects
 *               born old, raw blocks), smoothed over windows of at least
 *               PACE_WINDOW_NS of wall time;
 *   mark_rate   live bytes per ns a concurrent mark covers, wall time from
 *               the initial pause until the mutator first sees the mark
 *               done (the worker's speed, the cores it got and the
 *               mutator's share of the work, all in one number);
 *   frame_ns    the time between frame beginnings, when the program
 *               drives frames: a cycle's pauses wait for a boundary;
 *   lump        the most one nursery collection promoted lately: growth
 *               comes in such lumps, not smoothly.
 * A cycle over a live size W takes about W / mark_rate, plus up to a frame
 * before it begins and one before its final pause; in that time the old
 * generation grows by grow_rate x that, so
 *
 *   trigger = threshold - (grow_rate x (W / mark_rate + 2 frame_ns) x 1.5 + lump)
 *
 * clamped to the middle three quarters of the growth allowance (threshold -
 * live): no cycle right after the last one's sweep, none so late that a
 * lump of promotion takes it past the threshold. With frames the cycle
 * begins at the first frame boundary at or past the trigger; inside a frame
 * only past cycle_latest, a frame's growth later (the 1.5 covers both) —
 * in the first frame, whose length is not known, the last point.
 *
 * Until a cycle has measured mark_rate, and whenever marking runs on the
 * mutator (no worker: cycle.c paces those steps by growth, not time), the
 * cycle begins halfway from the live size to the threshold.
 */
#include "gc_internal.h"

/* The shortest window the growth rate is measured over (nursery
 * collections come more often than that in a busy game; a rate over one
 * of them is noise). */
#define PACE_WINDOW_NS ((uint64_t)8 * 1000 * 1000)
/* Longer gaps between frames (a level loading) are not frame time. */
#define PACE_FRAME_MAX_NS ((uint64_t)100 * 1000 * 1000)

/* [old] smoothed towards [sample] by [weight]; [old] <= 0 (not measured
 * yet) takes the sample whole */
static double smooth(double old, double sample, double weight)
{
    return old <= 0 ? sample : old + (sample - old) * weight;
}

/* Does the trigger come from the measured rates? */
static int rates_known(const GCState *gc)
{
    return gc->worker != NULL && !gc->worker_off && gc->mark_rate > 0 && gc->grow_rate >= 0;
}

void gc_pacer_set_trigger(GCState *gc)
{
    if (gc->threshold <= gc->live) { /* (lua_gc "step" moved the threshold down) */
        gc->cycle_trigger = gc->cycle_latest = gc->threshold;
        return;
    }
    size_t allowance = gc->threshold - gc->live;
    size_t trigger = gc->live + allowance / 2;
    size_t latest = trigger;
    if (rates_known(gc)) {
        double cycle_ns = (double)gc->live / gc->mark_rate + 2.0 * (double)gc->frame_ns;
        double need = gc->grow_rate * cycle_ns * 1.5 + (double)gc->pace_lump;
        size_t earliest = gc->live + allowance / 8, last = gc->threshold - allowance / 8;
        trigger = need >= (double)(last - earliest) ? earliest : last - (size_t)need;
        latest = trigger;
        if (gc->frame_ns != 0) {
            double frame_growth = gc->grow_rate * (double)gc->frame_ns;
            latest = frame_growth >= (double)(last - trigger) ? last : trigger + (size_t)frame_growth;
        } else if (gc->frame != 0) {
            /* The first frame: how long a frame is, and so how much the
             * heap grows in one, is not known yet. Its initial pause
             * waits for the frame's end up to the last point — which
             * leaves the threshold as far ahead as any trigger does. (The
             * first frame of samples/coroutines, the first resume of
             * 5,500 villagers, began a cycle in its middle: 0.05-0.42 ms
             * more in a frame of 14-17 ms of the game's own work.) */
            latest = last;
        }
    }
    gc->cycle_trigger = trigger;
    gc->cycle_latest = latest;
}

void gc_pacer_note_growth(GCState *gc, uint64_t now, size_t promoted)
{
    /* the lump decays by an eighth a collection, so one burst does not pull
     * every later trigger down */
    gc->pace_lump -= gc->pace_lump / 8;
    if (promoted > gc->pace_lump) gc->pace_lump = promoted;
    if (gc->pace_at_ns == 0) {
        gc->pace_at_ns = now;
        gc->pace_at_added = gc->old_added;
        return;
    }
    uint64_t elapsed = now - gc->pace_at_ns;
    if (elapsed < PACE_WINDOW_NS) return;
    double rate = (double)(gc->old_added - gc->pace_at_added) / (double)elapsed;
    gc->grow_rate = smooth(gc->grow_rate, rate, 0.25);
    gc->pace_at_ns = now;
    gc->pace_at_added = gc->old_added;
    if (!gc->cycle_marking && gc->phase != TIDE_GC_PHASE_SWEEPING) gc_pacer_set_trigger(gc);
}

uint64_t gc_pacer_note_cycle_marked(GCState *gc, uint64_t final_start_ns)
{
    uint64_t done = gc->mark_done_ns != 0 ? gc->mark_done_ns : final_start_ns;
    /* only concurrent marks measure the mark rate */
    gc->pace_mark_ns = gc->worker_marking && done > gc->cycle_start_ns ? done - gc->cycle_start_ns : 0;
    gc->mark_done_ns = 0;
    return done;
}

void gc_pacer_note_live(GCState *gc)
{
    if (gc->pace_mark_ns != 0) {
        double rate = (double)gc->live / (double)gc->pace_mark_ns;
        gc->mark_rate = smooth(gc->mark_rate, rate, 0.5);
        gc->pace_mark_ns = 0;
    }
    gc_pacer_set_trigger(gc);
}

void gc_pacer_note_frame(GCState *gc, uint64_t now)
{
    if (gc->pace_frame_at_ns != 0) {
        uint64_t gap = now - gc->pace_frame_at_ns;
        if (gap <= PACE_FRAME_MAX_NS) gc->frame_ns = (uint64_t)smooth((double)gc->frame_ns, (double)gap, 0.125);
    }
    gc->pace_frame_at_ns = now;
    /* (the first frame's begin, and every measure of the frame's length,
     * moves the latest point) */
    if (!gc->cycle_marking && gc->phase != TIDE_GC_PHASE_SWEEPING) gc_pacer_set_trigger(gc);
}

int gc_pacer_cycle_due(const GCState *gc, GCPaceWhere where)
{
    if (gc->cycle_marking || gc->phase == TIDE_GC_PHASE_SWEEPING) return 0;
    if (gc->cycles_eager) return 1;
    size_t used = gc->old + gc->raw;
    switch (where) {
    case GC_PACE_SAFE_POINT:
        return used >= gc->cycle_latest;
    case GC_PACE_FRAME_BOUNDARY:
        return used >= gc->cycle_trigger;
    case GC_PACE_IDLE:
        if (used >= gc->cycle_trigger) return 1;
        if (rates_known(gc) && gc->frame_ns != 0) /* the trigger comes within the next frame */
            return (double)used + gc->grow_rate * (double)gc->frame_ns >= (double)gc->cycle_trigger;
        /* not measured: halfway to the trigger, for idle time that would
         * otherwise go unused */
        return used > gc->live && used - gc->live >= (gc->cycle_trigger - gc->live) / 2;
    }
    return 0;
}

TIDE_API int tide_gc_pacing(lua_State *L, tide_GcPacing *out)
{
    GCState *gc = gc_state(L);
    if (out == NULL) return 0;
    out->old_bytes = gc->old + gc->raw;
    out->live_bytes = gc->live;
    out->target_bytes = gc->threshold;
    out->trigger_bytes = gc->cycle_trigger;
    out->hard_limit_bytes = gc->limit;
    out->grow_bytes_per_s = gc->grow_rate > 0 ? gc->grow_rate * 1e9 : 0;
    out->mark_bytes_per_s = gc->mark_rate * 1e9;
    out->frame_ns = gc->frame_ns;
    out->measured = rates_known(gc) && gc_cycles_on(gc);
    return 1;
}
