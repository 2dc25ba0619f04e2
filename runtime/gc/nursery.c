/*
 * nursery.c — the nursery's region: where young objects are born.
 *
 * One contiguous block of memory (TIDE_GC_NURSERY_DEFAULT_SIZE unless
 * configured), so that "is it young?" is one subtraction and one compare
 * (gc.h). New objects are bumped from a window (GlobalState.alloc_ptr to
 * alloc_limit, the inline fast path of gc_new); a window is one free
 * fragment. After a nursery collection the region is free but for the
 * objects that were pinned there; the free stretches between them are the
 * fragments, each headed by a filler that links the next one.
 *
 * Invariant (outside the current window): every byte of the region belongs
 * to an object, a forwarded husk, or a filler, so the region can be walked
 * from lo to hi — which is how the conservative scan finds the object an
 * interior pointer points into. gc_nursery_seal closes the window (its rest
 * becomes a filler) before any walk. A husk (an object copied out) keeps
 * its span in its idhash field: its size fields may be overwritten by the
 * forwarding address.
 *
 * The region's memory is not counted in the heap size; the bytes allocated
 * from it since the last nursery collection are (gc_nursery_used).
 *
 * Mutator only.
 */
#include <stdlib.h>

#include "gc_internal.h"

/* A free stretch [f, f + hdr.idhash), linking the next fragment. */
typedef struct Filler {
    GCObject hdr;
    char *next;
} Filler;

/* Fragments below this size are left as fillers, never allocated from. */
#define MIN_FRAGMENT ((size_t)128)
/* The budget before any collection has measured the cost per byte. */
#define FIRST_BUDGET ((size_t)256 * 1024)
/* After a span of pretenuring, the collection that measures the survival
 * again comes after this share of the budget (below, pretenuring). */
#define PRETENURE_SAMPLE_SHARE 4
/* A span drawn out to its frame's end leaves a quarter of the budget,
 * by the last frame's measure, for the sample (sample_tail); if the frame
 * allocates more, its sample is collected inside it only past twice that. */
#define PRETENURE_TAIL_SHARE 4
/* Collections after fewer bytes than this (forced ones), or than an
 * eighth of the budget, teach nothing. The second: idle time collects
 * what is left after a frame's collection in its middle, often 10-25 KB,
 * where the fixed part's noise outweighs the bytes; taken at once as a
 * rise in the cost per byte, it cut the budget by a fifth after every
 * such frame, and the next frame, a little larger than the budget, no
 * longer fitted in its stretch (tests/api/tide/idle_minor.lua under
 * AddressSanitizer: 2 of 40 frames without an in-frame collection, where
 * 17-39 is usual). */
#define ADAPT_MIN_ALLOCATED ((size_t)16 * 1024)
#define ADAPT_MIN_SHARE 8

/* Does a collection after [allocated] bytes teach anything (above)? */
static int measurable(const Nursery *ns, size_t allocated)
{
    return allocated >= ADAPT_MIN_ALLOCATED && allocated >= ns->budget / ADAPT_MIN_SHARE;
}
/* The largest nursery (fillers keep spans in 32 bits). */
#define MAX_NURSERY ((size_t)1 << 30)

static void make_filler(char *p, size_t size, char *next)
{
    lua_assert(size >= sizeof(Filler) && size % GC_ALIGN == 0);
    Filler *f = (Filler *)(void *)p;
    f->hdr.tt = HT_FILLER;
    f->hdr.flags = 0;
    f->hdr.age = GC_SPACE_NURSERY;
    f->hdr.marked = 0;
    f->hdr.idhash = (uint32_t)size;
    f->next = next;
}

size_t gc_nursery_object_span(const GCObject *o)
{
    if (o->tt == HT_FILLER || (o->flags & GCF_FORWARDED)) return o->idhash;
    return gc_round(gc_object_size(o));
}

/* --- the region --------------------------------------------------------------- */

int gc_nursery_create(GCState *gc, size_t size)
{
    Nursery *ns = &gc->nursery;
    GlobalState *g = gc->g;
    if (size > MAX_NURSERY) size = MAX_NURSERY;
    size = (size + 0xFFFF) & ~(size_t)0xFFFF; /* whole 64 KiB */
    for (; size >= TIDE_GC_NURSERY_MIN_SIZE; size /= 2) {
        char *raw = g->frealloc(g->ud, NULL, 0, size + GC_ALIGN);
        if (raw == NULL) continue;
        ns->raw = raw;
        ns->raw_size = size + GC_ALIGN;
        ns->lo = (char *)(((uintptr_t)raw + GC_ALIGN - 1) & ~(uintptr_t)(GC_ALIGN - 1));
        ns->hi = ns->lo + size;
        g->nursery_lo = (uintptr_t)ns->lo;
        g->nursery_span = size;
        g->alloc_ptr = g->alloc_limit = NULL;
        ns->window_start = ns->window_end = NULL;
        ns->used_before = 0;
        ns->pinned_bytes = 0;
        ns->nstarts = 0;
        /* With a pause target, the first collection comes early: it
         * measures the cost per byte before a whole region can survive. */
        ns->budget = gc->minor_target_ns != 0 && size > FIRST_BUDGET ? FIRST_BUDGET : size;
        ns->ns_per_byte = ns->ns_per_byte_peak = 0;
        make_filler(ns->lo, size, NULL);
        ns->next_fragment = ns->lo;
        gc->nursery_size = size;
        return 1;
    }
    return 0;
}

void gc_nursery_destroy(GCState *gc)
{
    Nursery *ns = &gc->nursery;
    GlobalState *g = gc->g;
    if (ns->raw != NULL) g->frealloc(g->ud, ns->raw, ns->raw_size, 0);
    memset(ns, 0, sizeof *ns);
    g->nursery_lo = 0;
    g->nursery_span = 0;
    g->alloc_ptr = g->alloc_limit = NULL;
}

size_t gc_nursery_used(GCState *gc)
{
    Nursery *ns = &gc->nursery;
    char *ptr = gc->g->alloc_ptr;
    return ns->used_before + (ptr != NULL ? (size_t)(ptr - ns->window_start) : 0);
}

/* --- windows -------------------------------------------------------------------- */

/* The window's unused rest becomes a filler; no window is open after. */
static void close_window(GCState *gc)
{
    Nursery *ns = &gc->nursery;
    GlobalState *g = gc->g;
    char *ptr = g->alloc_ptr;
    if (ptr == NULL) return;
    ns->used_before += (size_t)(ptr - ns->window_start);
    if (ns->window_end > ptr) make_filler(ptr, (size_t)(ns->window_end - ptr), NULL);
    g->alloc_ptr = g->alloc_limit = NULL;
    ns->window_start = ns->window_end = NULL;
}

void gc_nursery_seal(GCState *gc)
{
    close_window(gc);
}

/* The sample a span drawn out to its frame's end leaves (below,
 * gc_nursery_span_ended): a quarter of the budget, and twice what a sample
 * must be to be measured by (the smallest budgets' quarter is just that,
 * and a frame a little smaller than the last would leave idle time one it
 * may not collect). */
static size_t sample_tail(const Nursery *ns)
{
    size_t tail = ns->budget / PRETENURE_TAIL_SHARE;
    return tail > 2 * ADAPT_MIN_ALLOCATED ? tail : 2 * ADAPT_MIN_ALLOCATED;
}

size_t gc_nursery_room(GCState *gc)
{
    size_t used = gc_nursery_used(gc), budget = gc->nursery.budget + gc->nursery.stretch;
    if (gc->pretenure_sample == GC_SAMPLE_SHORT) budget = gc->nursery.budget / PRETENURE_SAMPLE_SHARE;
    if (gc->pretenure_sample == GC_SAMPLE_TO_IDLE) budget = 2 * sample_tail(&gc->nursery);
    return budget > used ? budget - used : 0;
}

/* --- the frame's stretch -------------------------------------------------------------
 * The budget is what one collection may take inside a frame at the pause
 * target. A frame that allocates a little more than the budget collects in
 * its middle, and again in the idle time after it (frames.c, idle_minor)
 * or, with too little idle time, once more in the next frame's middle —
 * so every such frame pauses once, where a budget a quarter larger would
 * have left its one collection to the idle time (samples/world's playing
 * frames: 730 KB a frame against budgets of 650-916 KB, one in-frame
 * collection a frame or none, run by run). So a frame that will allocate
 * at most FRAME_STRETCH_MAX of the budget past it, by the last frame's
 * measure, may: a collection that comes anyway, in a frame larger than
 * expected, takes at most that much longer than the target (at the cost
 * per byte that set the budget, 0.44 ms against 0.35; at most twice that
 * at the worst cost lately). */
#define FRAME_STRETCH_MAX 4 /* a quarter */

/* The most a frame may allocate and still leave its one collection to the
 * idle time after it. */
static size_t frame_limit(GCState *gc)
{
    Nursery *ns = &gc->nursery;
    size_t region = (size_t)(ns->hi - ns->lo), most = region - region / 8;
    size_t limit = ns->budget + ns->budget / FRAME_STRETCH_MAX;
    return limit < most ? limit : most;
}

/* The first frame has no last frame to go by, and is often the largest
 * of a level (its scripts start: samples/coroutines' first frame makes 820
 * KB against budgets of 590-760 KB, and paused 0.3-0.6 ms in its middle
 * for it): it may take the whole stretch, and begins with an empty
 * nursery — idle time before it collects whatever the loading left. */
void gc_nursery_stretch(GCState *gc, size_t expected)
{
    Nursery *ns = &gc->nursery;
    ns->stretch = 0;
    if (ns->raw == NULL || gc->minor_target_ns == 0) return;
    size_t limit = frame_limit(gc);
    size_t want = gc->frame == 1 ? limit /* (the first frame) */
                                 : gc_nursery_used(gc) + expected + expected / 16; /* (a margin for a larger frame) */
    if (want > ns->budget && want <= limit) ns->stretch = want - ns->budget;
}

int gc_nursery_frame_would_collect(GCState *gc, size_t expected)
{
    if (gc->frame == 0) return gc_nursery_used(gc) > 0; /* (before the first frame) */
    return gc_nursery_used(gc) + expected > gc->nursery.budget && expected <= frame_limit(gc);
}

int gc_nursery_refill(GCState *gc, size_t n)
{
    Nursery *ns = &gc->nursery;
    GlobalState *g = gc->g;
    if (ns->raw == NULL || gc_nursery_room(gc) < n) return 0;
    if (g->alloc_ptr != NULL && (size_t)(ns->window_end - g->alloc_ptr) >= n) {
        g->alloc_limit = ns->window_end; /* reopen the whole rest */
        return 1;
    }
    close_window(gc);
    while (ns->next_fragment != NULL) {
        Filler *f = (Filler *)(void *)ns->next_fragment;
        size_t size = f->hdr.idhash;
        ns->next_fragment = f->next;
        if (size >= n) {
            ns->window_start = g->alloc_ptr = (char *)f;
            ns->window_end = g->alloc_limit = (char *)f + size;
            return 1;
        }
        /* too small for this request: it stays a filler until the next
         * collection frees the region again */
    }
    return 0;
}

/* --- the budget ----------------------------------------------------------------------
 * A nursery collection's cost has a part that follows the bytes allocated
 * since the last one (the survivors it copies and scans, the old slots the
 * program stored them into) and a part that does not (the roots, the
 * stacks, the pinned list). Where little survives, that first part is
 * small and the whole region is used. Where much survives — a world whose
 * fresh objects are stored into old ones at once — a collection after a
 * whole 4 MiB region copies most of it, several milliseconds; the budget
 * then shrinks so that one collection stays near the pause target: more
 * collections, each short, and about the same time in all (the copying is
 * the same). Allocation then also stays in the region's first part, which
 * the cache still holds.
 *
 * The cost per byte is smoothed, but a rise is taken at once (one long
 * pause is already too many) and a fall at a quarter per collection.
 * The budget never goes below the point where the scaled part is a
 * quarter of the fixed one: where the fixed part alone nears the target, a
 * smaller budget could not make the pause short, only multiply the
 * collections. (The "fixed" part is not all fixed: the stacks of the
 * coroutines that ran since the last collection, and the objects they
 * hold, follow the allocation too. With the guard at the fixed part
 * itself, samples/coroutines, 600 frames, made 44 collections of up to
 * 3.7–6.1 ms; at a quarter, 115 of at most 1.6 ms, 82 ms in all against
 * 51–64.) With a pause target the
 * budget is at most seven eighths of the region: the rest is room to wait
 * in, when the collection comes due while the slots of a stack just made
 * deep are still being looked at (alloc.c, wait_for_stack). */

/* The peak cost per byte loses 1/PEAK_FADE of itself per collection: a
 * bad one bounds the budget for a few hundred collections (a level's
 * loading comes every few seconds). */
#define PEAK_FADE 256

void gc_nursery_adapt(GCState *gc, size_t allocated, uint64_t fixed_ns, uint64_t scaled_ns)
{
    Nursery *ns = &gc->nursery;
    size_t region = (size_t)(ns->hi - ns->lo);
    if (ns->raw == NULL) return;
    if (gc->minor_target_ns == 0) {
        ns->budget = region;
        return;
    }
    if (!measurable(ns, allocated)) return;
    double cost = (double)scaled_ns / (double)allocated;
    if (ns->ns_per_byte == 0 || cost > ns->ns_per_byte)
        ns->ns_per_byte = cost;
    else
        ns->ns_per_byte = (3 * ns->ns_per_byte + cost) / 4;
    ns->ns_per_byte_peak -= ns->ns_per_byte_peak / PEAK_FADE;
    if (cost > ns->ns_per_byte_peak) ns->ns_per_byte_peak = cost;
    double target = (double)gc->minor_target_ns, fixed = (double)fixed_ns;
    double room = target - fixed;
    if (room < fixed / 4) room = fixed / 4;
    /* an eighth of the region stays past the budget: a collection due
     * while a deep stack is still being looked at waits there (alloc.c) */
    double most = (double)(region - region / 8);
    double budget = ns->ns_per_byte > 0 ? room / ns->ns_per_byte : most;
    /* Spent at the highest cost per byte seen lately, the budget makes a
     * pause of at most twice the target: a budget grown while little
     * survived must not meet a level's loading, where nearly everything
     * does, at full size (samples/streaming: 1.3–1.9 ms collections of
     * 1.7–2.2 MB, with the target at 0.5 ms). */
    double worst_room = 2 * target - fixed;
    if (worst_room < room) worst_room = room;
    if (ns->ns_per_byte_peak > 0 && budget > worst_room / ns->ns_per_byte_peak)
        budget = worst_room / ns->ns_per_byte_peak;
    /* at most twice the last: one cheap collection (the first, before the
     * stacks of a thousand new coroutines came) must not make the next
     * four times as long */
    if (budget > 2 * (double)ns->budget) budget = 2 * (double)ns->budget;
    if (budget > most) budget = most;
    if (budget < (double)TIDE_GC_NURSERY_MIN_SIZE) budget = (double)TIDE_GC_NURSERY_MIN_SIZE;
    ns->budget = (size_t)budget;
}

/* --- pretenuring ----------------------------------------------------------------------
 * Where nearly everything a program allocates survives its first nursery
 * collection — a world being built, fresh objects stored into old ones at
 * once — a collection copies nearly all of it, in pauses inside frames
 * (samples/world's generating frames: 4.4 MB a frame, 94% of it promoted,
 * 1-2 ms of collections a frame). Objects are then born old for a while
 * (alloc.c, gc_new_slow): nothing is copied, and what making them old costs
 * moves out of the pauses into the allocations, spread evenly. After
 * PRETENURE_SPANS budgets' worth, objects are born young again, and the
 * next collection, after a quarter of the budget, measures the survival
 * again: a level's end, when the fresh objects stop living on, is seen
 * within one span. (After a whole budget that sample was a collection at
 * the target's full length, or more, in the middle of a frame:
 * samples/world's heaviest generating frames, 7.3 MB, took one of 0.64
 * ms.)
 *
 * Objects born old on the nursery's slow path for want of room are
 * remembered whole (alloc.c, new_old), so that nothing depends on where a
 * fresh object was born; pretenured ones are not — that would scan them
 * all at the next collection — so every store that fills a fresh object
 * takes its barrier (push_closure and lua_pushcclosure skipped them once,
 * for a closure taken to be young until the next allocation). Young
 * objects do exist while pretenuring: those the collection that began it
 * pinned. TIDE_GC_DEBUG=pretenure,verify over the script tests checks it:
 * the verifier reports an old-to-young reference nothing remembers. */
#define PRETENURE_SURVIVAL 0.85
#define PRETENURE_SPANS 8
#define PRETENURE_MAX ((size_t)32 << 20)
/* (a sample must be one the budget adapts by) */
_Static_assert(PRETENURE_SAMPLE_SHARE < ADAPT_MIN_SHARE && PRETENURE_TAIL_SHARE < ADAPT_MIN_SHARE,
               "a pretenuring sample is too small to measure");
/* TIDE_GC_DEBUG=pretenure: short spans, so that a test's objects are born
 * old and young by turns. */
#define PRETENURE_DEBUG_SPAN ((size_t)16 * 1024)

void gc_nursery_note_survival(GCState *gc, size_t allocated, size_t promoted)
{
    Nursery *ns = &gc->nursery;
    gc->pretenure_left = 0;
    gc->pretenure_sample = 0;
    if (ns->raw == NULL || gc->pretenure_mode == GC_PRETENURE_NEVER) return;
    if (gc->pretenure_mode == GC_PRETENURE_ALWAYS) {
        gc->pretenure_left = PRETENURE_DEBUG_SPAN;
        return;
    }
    /* (a sample as large as the budget adapts by: a smaller one is noise) */
    if (!measurable(ns, allocated)) return;
    if ((double)promoted < PRETENURE_SURVIVAL * (double)allocated) return;
    size_t span = ns->budget < PRETENURE_MAX / PRETENURE_SPANS ? ns->budget * PRETENURE_SPANS : PRETENURE_MAX;
    gc->pretenure_left = span;
}

/* A span that runs out in the middle of a frame would put its sample's
 * collection there too (samples/world's playing frames, 730 KB a frame
 * with 95% of it surviving: one every four frames, 0.06-0.09 ms, which on
 * a slow machine tipped frames of 16.6 ms over 16.7). Objects go on being
 * born old until sample_tail before the frame's end, by the last frame's
 * allocation, and that tail is the sample, which idle time collects
 * (frames.c, idle_minor). A frame that allocates less than the last
 * leaves the span running into the next, which draws it out to its own
 * end; one that allocates more collects its sample past twice the tail.
 * (Once a frame, and at most PRETENURE_MAX more.) */
size_t gc_nursery_span_ended(GCState *gc)
{
    Nursery *ns = &gc->nursery;
    if (gc->frame_open && gc->pretenure_mode == GC_PRETENURE_AUTO && gc->pretenure_tail_frame != gc->frame) {
        size_t so_far = (size_t)(gc->allocated + gc_nursery_used(gc) - gc->frame_alloc_start);
        size_t tail = sample_tail(ns);
        if (gc->frame_allocated > so_far + tail) {
            size_t more = gc->frame_allocated - so_far - tail;
            gc->pretenure_tail_frame = gc->frame;
            return more < PRETENURE_MAX ? more : PRETENURE_MAX;
        }
    }
    gc->pretenure_sample = gc->pretenure_tail_frame == gc->frame && gc->frame_open ? GC_SAMPLE_TO_IDLE : GC_SAMPLE_SHORT;
    return 0;
}

int gc_nursery_sample_ready(GCState *gc)
{
    return gc->pretenure_sample != 0 && measurable(&gc->nursery, gc_nursery_used(gc));
}

/* --- after a collection ------------------------------------------------------------- */

static int compare_addresses(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) * (void *const *)a, y = (uintptr_t) * (void *const *)b;
    return (x > y) - (x < y);
}

void gc_nursery_reset(GCState *gc)
{
    Nursery *ns = &gc->nursery;
    if (ns->raw == NULL) return;
    lua_assert(gc->g->alloc_ptr == NULL);
    gc->allocated += ns->used_before;
    ns->used_before = 0;
    ns->checkpoint = 0;
    ns->shrink_wait = 0;
    ns->nstarts = 0;
    ns->pinned_bytes = 0;
    void **pinned = gc->pinned.items;
    size_t npinned = gc->pinned.n;
    qsort(pinned, npinned, sizeof *pinned, compare_addresses);
    char **link = &ns->next_fragment;
    char *p = ns->lo;
    for (size_t i = 0; i <= npinned; i++) {
        char *end = i < npinned ? (char *)pinned[i] : ns->hi;
        if (end > p) {
            size_t size = (size_t)(end - p);
            if (gc->poison) memset(p, GC_POISON_BYTE, size);
            make_filler(p, size, NULL);
            if (size >= MIN_FRAGMENT) {
                *link = p;
                link = &((Filler *)(void *)p)->next;
            }
        }
        if (i < npinned) {
            GCObject *o = pinned[i];
            size_t span = gc_nursery_object_span(o);
            ns->pinned_bytes += span;
            p = (char *)o + span;
        }
    }
    *link = NULL;
}

/* --- walking ----------------------------------------------------------------------------- */

void gc_nursery_foreach(GCState *gc, void (*fn)(void *ud, GCObject *o), void *ud)
{
    Nursery *ns = &gc->nursery;
    if (ns->raw == NULL) return;
    lua_assert(gc->g->alloc_ptr == NULL);
    for (char *p = ns->lo; p < ns->hi;) {
        GCObject *o = (GCObject *)(void *)p;
        size_t span = gc_nursery_object_span(o);
        lua_assert(span >= GC_ALIGN && p + span <= ns->hi);
        if (o->tt != HT_FILLER && !(o->flags & GCF_FORWARDED)) fn(ud, o);
        p += span;
    }
}

void gc_nursery_note_start(GCState *gc)
{
    Nursery *ns = &gc->nursery;
    char *p = gc->g->alloc_ptr;
    if (p == NULL || ns->nstarts == GC_NURSERY_STARTS) return;
    lua_assert(ns->nstarts == 0 || ns->starts[ns->nstarts - 1] <= p);
    if (ns->nstarts > 0 && ns->starts[ns->nstarts - 1] == p) return;
    ns->starts[ns->nstarts++] = p;
}

void gc_nursery_find(GCState *gc, const uintptr_t *w, size_t n, void (*fn)(void *ud, GCObject *o), void *ud)
{
    Nursery *ns = &gc->nursery;
    if (ns->raw == NULL || n == 0) return;
    lua_assert(gc->g->alloc_ptr == NULL);
    /* the words outside the region go (full collections pass them all) */
    size_t k = 0;
    while (k < n && w[k] < (uintptr_t)ns->lo) k++;
    while (n > k && w[n - 1] >= (uintptr_t)ns->hi) n--;
    char *p = ns->lo;
    size_t next_start = 0;
    while (k < n && p < ns->hi) {
        /* leap to the last noted start at or below the next word */
        while (next_start < ns->nstarts && (uintptr_t)ns->starts[next_start] <= w[k]) {
            if (ns->starts[next_start] > p) p = ns->starts[next_start];
            next_start++;
        }
        GCObject *o = (GCObject *)(void *)p;
        size_t span = gc_nursery_object_span(o);
        uintptr_t start = (uintptr_t)p, end = start + span;
        while (k < n && w[k] < start) k++;
        if (k < n && w[k] < end && o->tt != HT_FILLER && !(o->flags & GCF_FORWARDED)) fn(ud, o);
        p += span;
    }
}

/* Rebuild the free space by walking the region: every run of objects
 * [keep] refuses (and of fillers) becomes one filler, linked as a fragment
 * when it is big enough. Needs no memory, unlike gc_nursery_reset. */
static void rebuild_by_walk(GCState *gc, int (*keep)(GCState *gc, const GCObject *o))
{
    Nursery *ns = &gc->nursery;
    lua_assert(gc->g->alloc_ptr == NULL);
    gc->allocated += ns->used_before;
    ns->used_before = 0;
    ns->pinned_bytes = 0;
    ns->nstarts = 0;
    char **link = &ns->next_fragment;
    char *p = ns->lo;
    while (p < ns->hi) {
        char *run = p;
        while (p < ns->hi) {
            GCObject *o = (GCObject *)(void *)p;
            if (o->tt != HT_FILLER && !(o->flags & GCF_FORWARDED) && keep(gc, o)) break;
            p += gc_nursery_object_span(o);
        }
        if (p > run) {
            size_t size = (size_t)(p - run);
            if (gc->poison) memset(run, GC_POISON_BYTE, size);
            make_filler(run, size, NULL);
            if (size >= MIN_FRAGMENT) {
                *link = run;
                link = &((Filler *)(void *)run)->next;
            }
        }
        if (p < ns->hi) {
            size_t span = gc_nursery_object_span((GCObject *)(void *)p);
            ns->pinned_bytes += span;
            p += span;
        }
    }
    *link = NULL;
}

static int keep_pinned(GCState *gc, const GCObject *o)
{
    (void)gc;
    return (o->flags & GCF_PINNED) != 0;
}

void gc_nursery_reset_by_flags(GCState *gc)
{
    if (gc->nursery.raw != NULL) rebuild_by_walk(gc, keep_pinned);
}

static int keep_marked(GCState *gc, const GCObject *o)
{
    return gc_ismarked(gc, o);
}

/* After a full collection: the objects its nursery collection pinned that
 * the mark found dead become free space too (they may name old objects
 * the sweep freed: nothing may walk into them again). */
void gc_nursery_drop_dead(GCState *gc)
{
    if (gc->nursery.raw == NULL || gc->nursery.pinned_bytes == 0) return;
    rebuild_by_walk(gc, keep_marked);
}

/* Memory ran out: an empty nursery gives its region back and comes back at
 * a quarter of its size, or not at all below the minimum (objects are then
 * born old). The region is not counted in the heap, but an allocator with a
 * budget (lua_newstate's) counts it: under a tight budget the nursery must
 * not keep what the program needs. */
void gc_nursery_shrink(GCState *gc)
{
    Nursery *ns = &gc->nursery;
    if (ns->raw == NULL || ns->pinned_bytes != 0 || gc_nursery_used(gc) != 0) return;
    size_t size = (size_t)(ns->hi - ns->lo) / 4;
    gc_nursery_destroy(gc);
    if (size >= TIDE_GC_NURSERY_MIN_SIZE) gc_nursery_create(gc, size);
}
