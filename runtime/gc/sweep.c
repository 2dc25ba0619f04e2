/*
 * sweep.c — giving back what a full collection's marking did not reach.
 *
 * At the end of gc_collect (world stopped, all at once), or from a
 * cycle's final pause on (lazily: gc_sweep_lazily, then gc_sweep_some in
 * steps and idle time, and the major heap sweeping a block on demand when
 * an allocation needs one of its class). Order:
 *  1. the short-string table loses its unmarked strings (so that freeing a
 *     string needs no bucket search, and a string made but not yet interned
 *     when the collection ran is never looked for) — or, in a lazy sweep,
 *     each dead string leaves the table when its block is swept, and a
 *     lookup that finds one first revives it (gc_string_reused), so that
 *     the pause does not walk the table;
 *  2. the list of threads loses its unmarked threads (they are freed in 3);
 *  3. the large-object space and the major heap free every unmarked
 *     object, calling gc_free_object_parts first for what owns more than
 *     its block (a prototype's arrays, a thread's stack and frames, an
 *     open upvalue's link in its thread's list); their sweeps leave every
 *     mark clear for the next collection. Dead nursery objects need
 *     nothing: the next nursery collection does not copy them. Until a
 *     block is swept, its dead objects stay where they are: nothing
 *     reaches them (weak tables were cleared, the string table and the
 *     thread list lost them in 1 and 2);
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

/* The thread lists keep the marked threads. A listed thread is always a
 * major-heap object (threads are born old, are never large and never
 * move), so its mark is read from its block's bitmap without touching the
 * thread itself: with 100,000 coroutines, reading each one's header cost
 * a cache miss apiece, 1.4 ms of a cycle's final pause. */
static void keep_marked_threads(GCVec *v)
{
    size_t kept = 0;
    for (size_t i = 0; i < v->n; i++) {
        lua_assert(((GCObject *)v->items[i])->age == GC_SPACE_MAJOR);
        if (major_is_marked(v->items[i])) v->items[kept++] = v->items[i];
    }
    v->n = kept;
}

static void sweep_threads(GCState *gc)
{
    keep_marked_threads(&gc->threads);
    keep_marked_threads(&gc->dirty_threads);
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
 * reused), whenever they run: in a pause, in idle time, or inside an
 * allocation that sweeps the block it needs (so [ud] is the collector's
 * state itself, and what a dead object owns is freed through the main
 * thread). */
/* A dead short string leaves the string table as it is freed (a lazy
 * sweep does not walk the table in its pause). The block may be swept
 * inside a nursery collection, by a promotion, before the collection
 * fixes the table's chains: a young string already copied is followed to
 * its copy (and the link set to it, as the collection would), because the
 * copy's link is the one that stays. */
static void unlink_string(GCState *gc, TString *ts)
{
    StringTable *tb = &gc->g->strt;
    TString **p = &tb->hash[ts->hash & (unsigned int)(tb->size - 1)];
    for (TString *x; (x = *p) != NULL; p = &x->u.hnext) {
        if (gc_isyoung(gc->g, x) && (x->hdr.flags & GCF_FORWARDED)) {
            x = gco2ts(gc_forward_slot(obj2gco(x)));
            *p = x;
        }
        if (x == ts) {
            *p = ts->u.hnext;
            tb->nuse--;
            return;
        }
    }
}

static void on_free(void *ud, void *obj, size_t size)
{
    GCState *gc = ud;
    GCObject *o = obj;
    size_t before = gc->old + gc->raw;
    if (o->tt == HT_SHRSTR) {
        if (gc->g->gc_strings_unswept) unlink_string(gc, gco2ts(o));
    } else if (o->tt != HT_PART && novariant(o->tt) != LUA_TSTRING) {
        gc_free_object_parts(gc->g->mainthread, o); /* (a thread's stack: raw) */
    }
    gc->old -= size;
    size_t freed = before - (gc->old + gc->raw);
    gc->sweep_left = gc->sweep_left > freed ? gc->sweep_left - freed : 0;
    /* What the sweep gives back does not put the next sweep step off (the
     * debt counts allocation: gc_set_debt); a dead thread's stack was taken
     * off the debt when it was freed. */
    gc->g->gc_debt += (intptr_t)(freed - size);
    if (gc->poison) memset(obj, GC_POISON_BYTE, size);
}

static void shrink_thread(lua_State *th)
{
    if (th->stack != NULL) call_shrinkstack(th);
}

/* What must happen before any dead object is freed, and the large objects
 * (few, each freed whole). The major heap's blocks become unswept. */
static void sweep_begin(GCState *gc, int lazy)
{
    if (lazy)
        gc->g->gc_strings_unswept = 1; /* dead strings leave as they are freed */
    else
        sweep_strings(gc);
    sweep_threads(gc);
    /* Released large storage the mark did not reach is freed by this
     * sweep, not after the next nursery collection (gc_free_released). */
    size_t kept = 0;
    for (size_t i = 0; i < gc->released_los.n; i++)
        if (gc_ismarked(gc, gc->released_los.items[i])) gc->released_los.items[kept++] = gc->released_los.items[i];
    gc->released_los.n = kept;
    major_set_on_free(gc->major, on_free, gc);
    los_set_on_free(gc->los, on_free, gc);
    /* dead large objects leave the space now; their memory goes back
     * later (gc_release_retired), and counts as raw until then */
    size_t retired = los_retired_bytes(gc->los);
    los_sweep(gc->los);
    gc->raw += los_retired_bytes(gc->los) - retired;
    major_begin_sweep(gc->major);
}

/* Threads whose stacks the end of one lazy sweep may shrink: with 100,000
 * coroutines, visiting each would cost ~10 ms (a cache miss apiece) in the
 * sweep step that ends the sweep, and 2,048 of samples/coroutines' took
 * 1.0-1.3 ms. The next sweeps go on where this one stopped. */
#define SHRINK_THREADS_PER_SWEEP ((size_t)512)

/* Every block is swept: what a complete sweep leaves to do. A full
 * collection ([all_threads]) shrinks every stack; a lazy sweep, a share. */
static void sweep_end(lua_State *L, int safe_point, int all_threads)
{
    GCState *gc = gc_state(L);
    GlobalState *g = gc->g;
    g->gc_strings_unswept = 0;
    gc_cards_forget_freed(gc);
    if (!safe_point) return;
    /* Shrinking a stack allocates the smaller one, and an allocation past
     * the heap's threshold collects or steps the cycle (alloc.c,
     * maybe_collect_full): no collection may run in here. A step would
     * end this sweep again from inside it (samples/coroutines in
     * low-latency mode, thousands of threads to shrink: a recursion as
     * deep as the threads, then a stack overflow), and a full collection
     * would free threads from under the loop. The allocations only try:
     * a stack that cannot be had stays as it is. */
    uint8_t was_collecting = gc->collecting;
    gc->collecting = 1;
    size_t n = gc->threads.n;
    if (all_threads || n <= SHRINK_THREADS_PER_SWEEP) {
        for (size_t i = 0; i < n; i++) shrink_thread(gc->threads.items[i]);
    } else {
        for (size_t k = 0; k < SHRINK_THREADS_PER_SWEEP; k++) {
            if (gc->shrink_cursor >= n) gc->shrink_cursor = 0;
            shrink_thread(gc->threads.items[gc->shrink_cursor++]);
        }
    }
    if (g->mainthread != NULL) shrink_thread(g->mainthread);
    StringTable *tb = &g->strt;
    if (tb->hash != NULL && tb->size > MINSTRTABSIZE && tb->nuse < tb->size / 4) str_resize(L, tb->size / 2);
    gc->collecting = was_collecting;
}

void gc_sweep(lua_State *L, int safe_point)
{
    GCState *gc = gc_state(L);
    sweep_begin(gc, 0);
    major_sweep_all(gc->major);
    sweep_end(L, safe_point, 1);
}

void gc_sweep_lazily(GCState *gc)
{
    sweep_begin(gc, 1);
    /* (retired large blocks were freed by sweep_begin; they count as raw
     * until their memory goes back) */
    gc->sweep_left = gc->old + gc->raw - los_retired_bytes(gc->los);
}

int gc_sweep_some(lua_State *L, size_t max_blocks, int safe_point)
{
    GCState *gc = gc_state(L);
    if (major_unswept_count(gc->major) > 0) major_sweep_some(gc->major, max_blocks);
    if (major_unswept_count(gc->major) > 0) return 0;
    sweep_end(L, safe_point, 0);
    return 1;
}

/* --- giving back large blocks ------------------------------------------------------ */

static size_t release_retired(GCState *gc, size_t max_bytes, int here)
{
    if (gc->los == NULL) return 0;
    size_t before = los_retired_bytes(gc->los);
    if (before == 0) return 0;
    size_t done = los_release_some(gc->los, max_bytes, here);
    gc->raw -= before - los_retired_bytes(gc->los);
    return done;
}

size_t gc_release_retired(GCState *gc, size_t max_bytes)
{
    return release_retired(gc, max_bytes, max_bytes == SIZE_MAX);
}

void gc_release_for(GCState *gc, uint64_t deadline_ns)
{
    while (gc->los != NULL && los_retired_bytes(gc->los) != 0 && gc_now_ns() < deadline_ns)
        release_retired(gc, LOS_RELEASE_SLICE, 1);
}

/* --- room for promotion ------------------------------------------------------------ */

/* The next nursery collection promotes at most its budget: that much of
 * the major heap is kept written ahead (major_reserve), up to
 * PROMOTION_RESERVE_MAX, RESERVE_STEP_BLOCKS at an allocation checkpoint
 * where it is short, and as many as fit in idle time. A step's
 * cost is mostly fixed — obtaining an arena, waking the worker that
 * faults the blocks in (a futex wake: ~13 us on a virtual machine) — so
 * the steps are few and whole. */
#define PROMOTION_RESERVE_MAX ((size_t)8 << 20)
#define RESERVE_STEP_BLOCKS ((size_t)16)

static size_t promotion_reserve_blocks(GCState *gc)
{
    size_t bytes = gc->nursery.budget < PROMOTION_RESERVE_MAX ? gc->nursery.budget : PROMOTION_RESERVE_MAX;
    return bytes / MAJOR_PAYLOAD + 1;
}

/* Idle time writes ahead as much as the last frame added to the old
 * generation and a quarter more (at most PROMOTION_RESERVE_MAX), and the
 * next collection's room on top: the checkpoints keep that room in hand
 * all along, so a frame like the last, or somewhat larger, then takes no
 * checkpoint step at all (samples/world's generating frames: 15-18 steps a
 * frame, 0.4-0.5 ms, with no idle reserve; 5-6, 0.12 ms, with the last
 * frame's promotion alone; its last, heaviest one, 8-10, 0.25 ms). */
static size_t idle_reserve_blocks(GCState *gc, uint64_t frame_old)
{
    uint64_t bytes = frame_old + frame_old / 4;
    if (bytes > PROMOTION_RESERVE_MAX) bytes = PROMOTION_RESERVE_MAX;
    return (size_t)bytes / MAJOR_PAYLOAD + 1 + promotion_reserve_blocks(gc);
}

void gc_reserve_for(GCState *gc, uint64_t frame_old, uint64_t deadline_ns)
{
    size_t want = idle_reserve_blocks(gc, frame_old);
    while (major_warm_free_blocks(gc->major) < want && gc_now_ns() < deadline_ns)
        if (major_reserve(gc->major, want, RESERVE_STEP_BLOCKS) == 0) break;
}

/* --- the allocation checkpoint's step ---------------------------------------------- */

/* Retired large blocks up to this many bytes wait for idle time in a frame
 * that has some to come (gc_idle_follows): giving back a slice took 0.01-
 * 0.3 ms of a frame's pause (samples/coroutines' stacks, samples/world's
 * generating frames), and idle time gives them all back (tide_gc_idle). */
#define RETIRED_WAIT_MAX ((size_t)8 << 20)

void gc_checkpoint_step(GCState *gc)
{
    size_t retired = gc->los != NULL ? los_retired_bytes(gc->los) : 0;
    int release = retired != 0 && (!gc_idle_follows(gc) || retired > RETIRED_WAIT_MAX);
    size_t want = promotion_reserve_blocks(gc);
    int reserve = major_warm_free_blocks(gc->major) < want;
    if ((!release && !reserve) || !gc_may_collect(gc)) return;
    uint64_t start = gc_now_ns();
    size_t heap_before = gc_total(gc);
    gc_frames_note_pause_begin(gc, TIDE_GC_PAUSE_SWEEP_STEP);
    if (release) {
        gc_release_retired(gc, LOS_RELEASE_SLICE);
        gc_set_debt(gc);
    }
    /* (a whole step even when one block is missing: the next steps wait
     * until the reserve is short again) */
    if (reserve) major_reserve(gc->major, want + RESERVE_STEP_BLOCKS - 1, RESERVE_STEP_BLOCKS);
    gc_frames_note_pause(gc, TIDE_GC_PAUSE_SWEEP_STEP, start, gc_now_ns() - start, heap_before);
}
