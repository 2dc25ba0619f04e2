/*
 * gc_internal.h — the generational collector's private state and the
 * helpers its parts share. Only the files of runtime/gc include it; the rest
 * of the runtime sees gc.h alone.
 *
 * Spaces (GCObject.age names an object's space):
 *   nursery   young objects, bump-allocated in one contiguous region
 *             (nursery.c) and copied out by a nursery collection (minor.c);
 *             the region is parseable: every byte belongs to an object or a
 *             filler, except the unused rest of the current allocation
 *             window;
 *   major     old objects of at most GC_LARGE_OBJECT bytes in size-class
 *             blocks (major.h); marks and cards live in the block headers;
 *   los       old objects above GC_LARGE_OBJECT bytes, one allocation each
 *             (los.h), never moved;
 *   external  the main thread, which lua_newstate allocates itself.
 * Objects that own plain memory or whose address C keeps (prototypes,
 * userdata, threads) are born old. Old objects move only when a full
 * collection the program asked for (or a memory emergency) evacuates a
 * sparse block of the major heap (evacuate.c); userdata, threads, fixed
 * objects and whatever the C stack or an active C function's stack slots
 * name never move.
 *
 * The generational invariant (checked by verify.c): every reference from an
 * old object to a young one lies on a dirty card — the card of the slot for
 * table storage (Parts), the card of the owner's header for anything else.
 * The nursery collection scans dirty cards, thread stacks and the state's
 * roots, copies what they reach into the major heap (promotion on first
 * survival), and leaves pinned objects where they are; cards that still
 * lead to a (pinned) young object stay dirty.
 *
 * Marks (full collections). Major and LOS objects keep their marks in the
 * spaces' bitmaps, which are clear outside a full collection (its sweep
 * clears them); nursery objects and the main thread use the header byte
 * [marked] == epoch, which alternates between 1 and 2.
 *
 * Threads. Everything here runs on the mutator thread with the world
 * stopped for a collection, except the handle table's free list
 * (handles.c), which is lock-free.
 */
#ifndef TIDE_GC_INTERNAL_H
#define TIDE_GC_INTERNAL_H

#include <stdatomic.h>
#include <string.h>

#include "gc.h"
#include "los.h"
#include "major.h"
#include "tide.h"
#include "../vm/tables.h"

/* --- header types (the tags of value.h without BIT_COLLECTABLE) ------------- */
#define HT_SHRSTR withvariant(VSHRSTR)
#define HT_LNGSTR withvariant(VLNGSTR)
#define HT_TABLE withvariant(VTABLE)
#define HT_LCL withvariant(VLCL)
#define HT_CCL withvariant(VCCL)
#define HT_UDATA withvariant(VUSERDATA)
#define HT_THREAD withvariant(VTHREAD)
#define HT_PROTO VPROTO
#define HT_UPVAL VUPVAL
#define HT_PART VPART

/* Objects a full mark does not traverse: marking them is setting the bit
 * (a table traverses its own Parts, by its weakness). */
#define gc_isleaf(tt) (novariant(tt) == LUA_TSTRING || (tt) == HT_PART)

/* --- spaces -------------------------------------------------------------------- */
#define GC_SPACE_NURSERY 0
#define GC_SPACE_MAJOR 1
#define GC_SPACE_LOS 2
#define GC_SPACE_EXTERNAL 3
/* Objects above this size go to the large-object space. */
#define GC_LARGE_OBJECT MAJOR_MAX_OBJECT
/* Header type of a nursery filler: the bytes [o, o + o->idhash) are free. */
#define HT_FILLER 0x3F
#define gc_isfixed(o) (((o)->flags & GCF_FIXED) != 0)
/* The slow path makes young objects at most this big (and at most an
 * eighth of the nursery): bigger ones are born old rather than copied
 * (alloc.c). The fast path takes any that fit its window. */
#define GC_YOUNG_MAX ((size_t)4096)
/* The forwarding address of a moved object, in its first payload word. */
#define gc_forward_slot(o) (*(GCObject **)(void *)((char *)(o) + sizeof(GCObject)))

/* Size in bytes of any object (heap walks, copies, accounting): inline,
 * since every copy a nursery collection makes asks it. */
static inline size_t gc_object_size(const GCObject *o)
{
    switch (o->tt) {
    case HT_SHRSTR:
        return sizelstring(((const TString *)o)->shrlen);
    case HT_LNGSTR:
        return sizelstring(((const TString *)o)->u.lnglen);
    case HT_TABLE:
        return sizeof(Table);
    case HT_LCL:
        return sizeLclosure(((const LClosure *)o)->nupvalues);
    case HT_CCL:
        return sizeCclosure(((const CClosure *)o)->nupvalues);
    case HT_UDATA:
        return sizeudata(((const Udata *)o)->nuvalue, ((const Udata *)o)->len);
    case HT_THREAD:
        return sizeof(lua_State);
    case HT_PROTO:
        return sizeof(Proto);
    case HT_UPVAL:
        return sizeof(UpVal);
    case HT_PART:
        return sizeof(Part) + ((const Part *)o)->nbytes;
    case HT_FILLER:
        return o->idhash;
    default:
        lua_assert(0);
        return sizeof(GCObject);
    }
}

/* --- pacing --------------------------------------------------------------------- */
/* The heap may grow by at least this much between collections, however
 * small the live size (the "floor" that keeps small heaps from collecting
 * all the time). */
#define GC_MIN_GROWTH ((size_t)1024 * 1024)
/* Lua's default pause (200%: collect when the heap doubles) and step
 * multiplier, stored as Lua stores them: the percentage divided by 4. */
#define GC_DEFAULT_PAUSE 200
#define GC_DEFAULT_STEPMUL 100
#define gc_setparam(p, v) ((p) = (uint8_t)((v) / 4))
#define gc_getparam(p) ((int)(p) * 4)

/* --- GC handles (handles.c) ------------------------------------------------------ */
#define HANDLE_FREE 0
#define HANDLE_STRONG 1
#define HANDLE_WEAK 2       /* cleared when found unreachable (before finalizers) */
#define HANDLE_WEAK_TRACK 3 /* cleared when actually freed (after resurrection) */

typedef struct HandleSlot {
    TValue value;                /* mutator (and collector) only */
    _Atomic uint8_t kind;        /* HANDLE_*; written by any thread on free */
    _Atomic uint32_t next_free;  /* free-list link: slot index + 1, 0 = end */
} HandleSlot;

/* Bucket b holds HANDLE_BUCKET0 << b slots and never moves once published,
 * so a thread freeing a handle never races with a reallocation. */
#define HANDLE_BUCKETS 26
#define HANDLE_BUCKET0 32u

typedef struct HandleTable {
    _Atomic(HandleSlot *) bucket[HANDLE_BUCKETS];
    uint32_t used;              /* slots handed out at least once (mutator only) */
    uint32_t capacity;          /* slots in the published buckets (mutator only) */
    _Atomic uint32_t free_head; /* lock-free stack of freed slots (index + 1);
                                   any thread pushes, only the mutator pops,
                                   so pops cannot suffer ABA */
} HandleTable;

/* --- growable arrays the collector keeps between collections -------------------- */
typedef struct GCVec {
    void **items;
    size_t n, cap;
} GCVec;

/* Conservative-scan candidates: a fallback buffer that needs no allocation. */
#define GC_CAND_FALLBACK 256

/* Kinds of weak tables (bit set). */
#define WEAK_KEYS 1
#define WEAK_VALUES 2

/* Entries of the slot log's filter of repeats (GCState.rs_recent). */
#define GC_RS_RECENT 256

/* Object starts a nursery notes between collections (Nursery.starts). */
#define GC_NURSERY_STARTS 128

/* The nursery's region and allocation windows (nursery.c). Free space is
 * a list of fragments, each starting with a filler whose second word links
 * the next fragment (lowest address first). */
typedef struct Nursery {
    char *raw;              /* what frealloc gave (NULL: no nursery) */
    size_t raw_size;
    char *lo, *hi;          /* the region, GC_ALIGN-aligned */
    char *window_end;       /* end of the current fragment */
    char *next_fragment;    /* the fragment after the current one, or NULL */
    size_t used_before;     /* bytes of earlier windows consumed since the
                               last nursery collection */
    char *window_start;     /* where the current window began */
    size_t pinned_bytes;    /* bytes kept in place by the last collection */
    size_t budget;          /* bytes that may be allocated between two
                               collections (at most the region's size): the
                               pause target's estimate, gc_nursery_adapt */
    size_t stretch;         /* bytes past the budget the frame under way may
                               allocate before a collection (nursery.c,
                               gc_nursery_stretch); 0 after each collection */
    double ns_per_byte;     /* smoothed cost of a collection's copying and
                               scanning per byte allocated; 0 = not yet known */
    double ns_per_byte_peak; /* the highest lately, fading (gc_nursery_adapt) */
    size_t checkpoint;      /* bytes used at which the allocation slow path
                               next does work between collections (alloc.c) */
    size_t shrink_wait;     /* bytes allocated past the budget while waiting
                               for a safe point to shrink the running stack
                               (alloc.c, wait_for_stack); 0 after each
                               collection */
    /* Addresses where objects began, ascending, noted by the slow path since
     * the last collection: the conservative scan walks the region from the
     * nearest one below a word instead of from its start. */
    char *starts[GC_NURSERY_STARTS];
    size_t nstarts;
} Nursery;

/* A slot-log entry (cards.c): [slot] of the old table storage at [part],
 * whose low bits hold the storage's kind (PART_ARRAY or PART_NODES), so
 * that visiting the slot never touches the storage's header (a cache miss
 * per entry). */
typedef struct RememberedSlot {
    uintptr_t part;
    void *slot;
} RememberedSlot;
#define rs_part(e) ((Part *)(void *)((e).part & ~(uintptr_t)15))
#define rs_kind(e) ((int)((e).part & 15))

/* What an evacuation did (evacuate.c): blocks emptied (freed by the sweep
 * that follows), objects and slot bytes copied, blocks chosen, time. */
typedef struct GCEvacStats {
    size_t blocks, objects, bytes, chosen;
    uint64_t ns;
} GCEvacStats;

typedef struct GCState {
    GlobalState *g;

    /* --- spaces --- */
    Nursery nursery;
    MajorHeap *major;
    LosSpace *los;
    GCVec threads;          /* every thread but the main one (threads never move) */
    GCVec dirty_threads;    /* every thread (but the main one) that is not
                               stack_clean, and perhaps some that are: the
                               ones nursery collections scan */
    uint8_t dirty_threads_lost; /* a thread could not be listed: scan them all */
    size_t shrink_cursor;   /* the next thread whose stack a lazy sweep's end
                               shrinks (sweep.c) */
    GCVec finobj;           /* marked for finalization, oldest first */
    GCVec tobefnz;          /* waiting for their finalizer, from tobefnz_head */
    size_t tobefnz_head;
    GCVec fixed;            /* fixed objects (gc_fix), marked by every full collection */
    GCVec pinned;           /* nursery objects pinned by the current collection */
    GCVec cemented;         /* pinned objects that are roots of every nursery
                               collection until a full one finds them dead */
    /* the remembered set (cards.c) */
    RememberedSlot *rs_slots; /* the slot log */
    size_t rs_nslots, rs_slots_cap;
    /* entries logged lately, by a hash of the slot: a slot stored into
     * again and again between two nursery collections is logged once
     * (cards.c, gc_remember_slot); cleared whenever the log loses or
     * rewrites entries */
    RememberedSlot rs_recent[GC_RS_RECENT];
    GCVec rs_objects;       /* the object log (GCF_REMEMBERED objects) */
    GCVec dirty_blocks;     /* major blocks with dirty cards (MajorBlock.listed) */
    int dirty_blocks_lost;  /* a block could not be listed: visit them all */
    GCVec released_los;     /* large storage released since the last nursery
                               collection: freed after it */
    uint32_t *string_buckets; /* string-table buckets given young strings
                               since the last nursery collection */
    size_t nstring_buckets, string_buckets_cap;
    int string_walk_all;    /* the log could not grow, or the pin list lost
                               pinned strings: walk every bucket */

    /* --- accounting ---
     * total = old (major slots, LOS objects) + raw + the nursery's bytes in
     * use. gc_debt (GlobalState) > 0 asks the next safe point for a full
     * collection (old bytes past the threshold) or for finalizers. */
    size_t raw;             /* plain blocks (gc_raw_*, the collector's arrays, spaces' metadata) */
    size_t old;             /* bytes of old objects (promoted or born old) */
    size_t threshold;       /* old + raw at which the next full collection is due */
    size_t live;            /* old + raw right after the last full collection */
    size_t limit;           /* memory limit (gc_set_memory_limit), 0 = none */
    uint64_t allocated;     /* bytes ever allocated, up to the last window change */
    uint64_t promoted;      /* bytes ever promoted */
    uint64_t old_added;     /* bytes ever added to old + raw (promotion, objects
                               born old, raw blocks' growth) */
    size_t pretenure_left;  /* bytes still to be born old before the nursery
                               is tried again (nursery.c, pretenuring); 0 =
                               new objects are young */
    uint64_t pretenured;    /* bytes ever born old by pretenuring */
    uint8_t pretenure_sample; /* a span ended: the next nursery collection
                                 comes after a short sample (nursery.c):
                                 GC_SAMPLE_SHORT, or GC_SAMPLE_TO_IDLE (the
                                 frame's last allocation, for idle time) */
    uint64_t pretenure_tail_frame; /* the frame whose end a span was drawn out
                                      to (gc_nursery_span_ended) */

    /* --- the pacer (pacer.c) --- */
    double grow_rate;       /* old + raw growth, bytes per ns, smoothed; < 0 = not measured yet */
    double mark_rate;       /* live bytes a concurrent mark covers per ns, smoothed; 0 = not measured yet */
    uint64_t pace_at_ns;    /* the growth rate's window began: when, */
    uint64_t pace_at_added; /*   ... and old_added then */
    size_t pace_lump;       /* the most one nursery collection promoted lately */
    uint64_t mark_done_ns;  /* when the mutator first saw this cycle's mark done, 0 = not yet */
    uint64_t pace_mark_ns;  /* the last cycle's mark time, until its live size is known; 0 = none */
    uint64_t frame_ns;      /* time between frame beginnings, smoothed; 0 = no frames */
    uint64_t pace_frame_at_ns; /* the last frame's beginning */

    /* --- state --- */
    uint8_t epoch;          /* the header mark of the current/last full collection: 1 or 2 */
    uint8_t collecting;     /* inside a collection: allocations do not collect */
    uint8_t stopped;        /* LUA_GCSTOP */
    uint8_t closing;        /* gc_freeall: no collections, no new finalizable objects */
    uint8_t mode;           /* LUA_GCGEN or LUA_GCINC, as last asked (advisory) */
    uint8_t pause;          /* gc_setparam'ed, drives the pacer */
    uint8_t stepmul;        /* gc_setparam'ed, advisory */
    uint8_t allow_sync_major; /* tide_gc_allow_synchronous_major */
    int stepsize;           /* advisory */
    int fin_running;        /* finalizers running (nesting depth) */
    uint64_t collections;   /* completed full collections */
    uint64_t minors;        /* completed nursery collections */
    size_t held_parts_marked; /* gc_mark_held_parts' count (roots.c) */

    /* --- evacuation (evacuate.c) --- */
    uint8_t sync_requested; /* lua_gc(LUA_GCCOLLECT) asked for the next full
                               collection: it may evacuate (gc_collect clears it) */
    uint8_t may_evacuate;   /* the full collection in progress may evacuate: its
                               conservative scan records the major objects it finds */
    uint8_t stack_roots_lost; /* ... and could not record them all: nothing moves */
    GCVec stack_roots;      /* those objects; emptied and freed by gc_evacuate */
    GCEvacStats evac_last;  /* the last full collection's evacuation */
    GCEvacStats evac_total; /* every evacuation so far */

    /* --- the major cycle (cycle.c) --- */
    uint8_t phase;          /* between pauses: TIDE_GC_PHASE_IDLE, _MARKING or
                               _SWEEPING */
    uint8_t cycle_marking;  /* from a cycle's initial pause to the end of its
                               final one: nursery objects count as marked */
    uint8_t cycles_off;     /* TIDE_GC_DEBUG=no-cycles: only stop-the-world
                               full collections */
    uint8_t cycles_eager;   /* TIDE_GC_DEBUG=cycles: start a cycle at every
                               safe point where none runs (tests) */
    uint8_t eager_step_pending; /* ... and step after every nursery collection */
    uint8_t stack_shrink_pending; /* the running thread's stack is far larger
                                     than it uses: gc_step shrinks it, since
                                     each nursery collection clears it all */
    GCVec partial_stacks;   /* threads whose gc_floor is not 0 (or was not,
                               until the last look: the list is pruned lazily) */
    GCVec resume_chain;     /* threads inside lua_resume, outermost first: they
                               run without a touch when a resume returns */
    uint8_t resume_chain_lost; /* a thread could not be recorded there */
    uint8_t verify_marks;   /* TIDE_GC_DEBUG=verify-marks (verify.c) */
    size_t cycle_trigger;   /* old + raw at which the next cycle begins (at a
                               frame boundary, when the program drives frames) */
    size_t cycle_latest;    /* ... and past which it begins inside a frame */
    uint64_t mark_step_at;  /* old_added at which the next mark step is due */
    uint64_t sweep_step_at; /* old_added at which the next sweep step is due
                               (allocation, not growth, paces the sweep: what
                               it frees is allocated again at once) */
    size_t sweep_start_used; /* old + raw when the lazy sweep began */
    uint64_t sweep_start_added; /* old_added then */
    size_t sweep_left;      /* old + raw when the lazy sweep began (less the
                               retired large blocks), less what it has freed
                               since: the cycle's live size once it ends
                               (what the program itself frees meanwhile —
                               large storage a resize gave up, raw blocks —
                               stays counted: an estimate on the high side) */
    size_t sweep_blocks;    /* blocks it had to sweep */
    size_t mark_budget;     /* work (bytes traversed) a mark step does */
    uint64_t mark_work;     /* work done by the marking cycle so far */
    Table *big_table;       /* a large strong table the marker is part-way
                               through (it stays marked: the sweep cannot
                               free it before the cycle ends), or NULL */
    size_t big_pos;         /* the next entry of big_table to mark */
    uint64_t cycle_start_ns;
    uint64_t cycles;        /* completed major cycles */
    /* the concurrent marker (worker.c) */
    struct GCWorker *worker; /* made at the first cycle; NULL before, or when
                               no thread could be had */
    uint8_t worker_failed;  /* no thread could be had: mark on the mutator */
    uint8_t worker_off;     /* TIDE_GC_DEBUG=no-worker */
    uint8_t worker_marking; /* the worker holds the marking cycle's grey
                               objects (from the initial pause to the final) */
    uint64_t worker_traversed;   /* the last cycle's objects the worker traversed */
    uint64_t worker_handed_back; /* ... and handed back to the mutator */
    uint64_t helper_traversed;   /* ... and the mutator traversed beside it in
                                    idle time (gc_worker_help) */

    /* --- marking --- */
    GCVec grey;             /* objects marked (or promoted) but not traversed */
    GCVec minor_grey;       /* a nursery collection's grey stack (kept apart
                               from a marking cycle's) */
    int grey_overflow;      /* the grey stack could not grow: rescan (mark.c) */
    GCVec weak;             /* tables with weak values only */
    GCVec ephemeron;        /* tables with weak keys only */
    GCVec allweak;          /* tables with weak keys and values */
    int weak_overflow;      /* a weak table could not be recorded: walk the heap */
    uintptr_t *cand;        /* conservative-scan candidates */
    size_t cand_cap;
    uintptr_t cand_fallback[GC_CAND_FALLBACK];

    /* --- TIDE_GC_DEBUG (debug.c) --- */
    unsigned long collect_every; /* 0 = off */
    unsigned long alloc_count;
    unsigned long forced;   /* collections collect_every forced */
    uint8_t verify_before, verify_after, poison;
    uint8_t trace;          /* one line on stderr per collection */
    uint8_t evacuate_all;   /* evacuations move every block they can (evacuate.c) */
    uint8_t aging;          /* survive one nursery collection in place (minor.c) */
    uint8_t pretenure_mode; /* GC_PRETENURE_*: when new objects are born old (nursery.c) */
    size_t nursery_size;    /* the size the nursery is made with */
    uint64_t minor_target_ns; /* the pause a nursery collection aims at
                               (tide_gc_set_minor_pause_target); 0 = always
                               use the whole nursery */

    /* --- GC handles --- */
    HandleTable handles;

    /* --- frames, statistics, events (frames.c) --- */
    uint64_t frame;         /* the number of the last frame begun, 0 = none */
    int frame_open;         /* between tide_frame_begin and tide_frame_end */
    int in_idle;            /* inside tide_gc_idle */
    uint64_t idle_before;   /* the frame the last tide_gc_idle given time
                               came before (gc->frame + 1 then); 0: none */
    uint64_t idle_waited_ns; /* ... of which spent waiting for the worker
                               (not collector work: idle_gc_ns leaves it out) */
    uint64_t frame_alloc_start;
    uint64_t nursery_allocated; /* bytes ever allocated in the nursery, up to
                                   the last nursery collection (minor.c) */
    uint64_t frame_nursery_start; /* ... and with what it held then, at the
                                     frame's beginning */
    size_t frame_nursery_bytes; /* what the last finished frame allocated in
                                   the nursery (idle_minor, frames.c) */
    uint64_t frame_promoted_start;
    uint64_t frame_old_added_start; /* gc->old_added at the frame's beginning, */
    size_t frame_old_added;         /* ... and what the last finished frame added */
    size_t frame_allocated;         /* what the last finished frame allocated,
                                       young and old */
    tide_FrameStats stats;  /* of the current frame (counts only) */
    uint64_t last_pause_ns; /* duration of the last full collection or cycle pause */
    uint64_t pause_cpu_start; /* gc_thread_cpu_ns at the pause in progress's
                                 beginning, when an event callback or a trace
                                 wants it; 0 otherwise */
    uint64_t last_full_ns;  /* duration of the last stop-the-world full collection */
    uint8_t compact_pending; /* synchronous majors allowed again: compact in
                               idle time (frames.c) */
    tide_GcEventFn event_fn;
    void *event_ud;
    struct GCTraceFile *trace_file; /* tide_gc_trace_open, TIDE_GC_TRACE (trace.c); NULL = none */
} GCState;

#define gc_state(L) (G(L)->gc)

/* --- alloc.c -------------------------------------------------------------------- */
/* Allocation that never collects and never raises, counted in the heap
 * size but not against the memory limit: for the collector's own arrays and
 * the handle table. NULL on failure. */
TIDE_INTERNAL void *gc_internal_realloc(GCState *gc, void *block, size_t osize, size_t nsize);
/* Double [v]'s capacity (through gc_internal_realloc); 0 on failure. */
TIDE_INTERNAL int gc_vec_grow(GCState *gc, GCVec *v);
TIDE_INTERNAL void gc_vec_free(GCState *gc, GCVec *v);
static inline int gc_vec_push(GCState *gc, GCVec *v, void *item)
{
    if (v->n == v->cap && !gc_vec_grow(gc, v)) return 0;
    v->items[v->n++] = item;
    return 1;
}
/* An old object of [size] bytes (major heap or LOS by size; [norefs]: it
 * never references anything), space and accounting set; NULL when memory
 * (or the memory limit) refuses. Zeroed, except for a [promotion], whose
 * copy fills it — and which ignores the memory limit: the bytes it moves
 * are counted already. Allocates nothing else and never collects. */
TIDE_INTERNAL GCObject *gc_alloc_old(GCState *gc, size_t size, int norefs, int promotion);
/* Create / destroy the old spaces (control.c calls them). */
TIDE_INTERNAL int gc_spaces_create(GCState *gc);
TIDE_INTERNAL void gc_spaces_destroy(GCState *gc);
/* The pending finalizations: tobefnz from its head. */
#define gc_pending_count(gc) ((gc)->tobefnz.n - (gc)->tobefnz_head)

/* --- nursery.c ------------------------------------------------------------------- */
/* Make the region (nursery.size bytes; smaller when memory is short); 0 if
 * no nursery could be had. */
TIDE_INTERNAL int gc_nursery_create(GCState *gc, size_t size);
TIDE_INTERNAL void gc_nursery_destroy(GCState *gc);
/* Note that an object begins at the allocation pointer (the slow path). */
TIDE_INTERNAL void gc_nursery_note_start(GCState *gc);
/* Bytes allocated in the nursery since the last nursery collection. */
TIDE_INTERNAL size_t gc_nursery_used(GCState *gc);
/* Open a window of at least [n] bytes (moving to later fragments, leaving
 * fillers behind); 0 when no fragment left has room. */
TIDE_INTERNAL int gc_nursery_refill(GCState *gc, size_t n);
/* Close the current window (its unused rest becomes a filler): the region
 * is parseable from lo to hi. */
TIDE_INTERNAL void gc_nursery_seal(GCState *gc);
/* After a nursery collection: everything but the pinned objects (sorted
 * in gc->pinned) becomes free fragments; opens no window. */
TIDE_INTERNAL void gc_nursery_reset(GCState *gc);
/* The same, finding the pinned objects by their flag (no memory needed:
 * when the pinned list could not grow). */
TIDE_INTERNAL void gc_nursery_reset_by_flags(GCState *gc);
/* After an emergency collection: give back (part of) an empty nursery. */
TIDE_INTERNAL void gc_nursery_shrink(GCState *gc);
/* After a full collection's mark: unmarked nursery objects become free. */
TIDE_INTERNAL void gc_nursery_drop_dead(GCState *gc);
/* After a nursery collection that [allocated] bytes since the one before
 * triggered: spent [scaled_ns] on work that follows those bytes (copying,
 * scanning copies, the remembered set) and [fixed_ns] on the rest. Sets
 * the budget for the next one. */
TIDE_INTERNAL void gc_nursery_adapt(GCState *gc, size_t allocated, uint64_t fixed_ns, uint64_t scaled_ns);
/* After a nursery collection that [allocated] bytes since the one before
 * triggered and that promoted [promoted] of them: begin pretenuring
 * (gc->pretenure_left) if nearly all of them survived. */
#define GC_PRETENURE_AUTO 0   /* where the nursery's survival is high */
#define GC_PRETENURE_NEVER 1  /* TIDE_GC_DEBUG=no-pretenure */
#define GC_PRETENURE_ALWAYS 2 /* TIDE_GC_DEBUG=pretenure: after every
                                 collection, for a short span */
TIDE_INTERNAL void gc_nursery_note_survival(GCState *gc, size_t allocated, size_t promoted);
#define GC_SAMPLE_SHORT 1   /* pretenure_sample: a span ended */
#define GC_SAMPLE_TO_IDLE 2 /* ... at the end of a frame: idle time collects it */
/* A span of pretenuring has run out (alloc.c): returns how many more bytes
 * to be born old (drawing the span out to near the frame's end), or 0 and
 * begins the sample. */
TIDE_INTERNAL size_t gc_nursery_span_ended(GCState *gc);
/* Is a sample large enough to measure the survival by in the nursery? */
TIDE_INTERNAL int gc_nursery_sample_ready(GCState *gc);
/* Bytes the budget (and the frame's stretch) still allow before the next
 * nursery collection. */
TIDE_INTERNAL size_t gc_nursery_room(GCState *gc);
/* A frame begins that will allocate about [expected] bytes in the nursery
 * (what the last one did): stretch the budget so that it can, if that
 * takes little more than the budget; the first frame, with no last one,
 * gets the whole stretch. */
TIDE_INTERNAL void gc_nursery_stretch(GCState *gc, size_t expected);
/* Would a frame that allocates [expected] bytes collect in its middle,
 * from what the nursery holds now, where from an empty one (stretched) it
 * would not? Then idle time collects it first (frames.c, idle_minor).
 * Before the first frame, whatever the nursery holds: the first frame
 * begins empty. */
TIDE_INTERNAL int gc_nursery_frame_would_collect(GCState *gc, size_t expected);
/* The size of the object or filler at [p] in a sealed nursery. */
TIDE_INTERNAL size_t gc_nursery_object_span(const GCObject *o);
/* Call [fn] on every object (not fillers) of the sealed nursery. */
TIDE_INTERNAL void gc_nursery_foreach(GCState *gc, void (*fn)(void *ud, GCObject *o), void *ud);
/* Call [fn] on every object of the sealed nursery that contains one of the
 * sorted, distinct words w[0..n). */
TIDE_INTERNAL void gc_nursery_find(GCState *gc, const uintptr_t *w, size_t n,
                                   void (*fn)(void *ud, GCObject *o), void *ud);
#define gc_in_nursery(gc, p) gc_isyoung((gc)->g, (p))

/* --- minor.c --------------------------------------------------------------------- */
/* A full collection, after marking: cemented objects it did not reach
 * are cemented no more (they die with the nursery's other dead). */
TIDE_INTERNAL void gc_cemented_filter(GCState *gc);
/* The lowest slot the frame of [ci] may write before it returns: its
 * function slot, or for a vararg Lua function the slot its function had
 * before its varargs were set aside (a return and a tail call write
 * there). Below it lie the frames of its callers, which change only once
 * control returns into them (gc_stack_return). */
static inline size_t gc_frame_lowest(lua_State *L, CallInfo *ci)
{
    StkId f = ci->func;
    if (isLua(ci)) {
        /* (before its OP_VARARGPREP, nextraargs may be stale: subtracting
         * it only scans more) */
        const Proto *p = ci_func(ci)->p;
        if (p->is_vararg) f -= ci->u.l.nextraargs + p->numparams + 1;
    }
    return f > L->stack ? (size_t)(f - L->stack) : 0;
}

/* [th] runs only once resumed: it yielded, has not started or has
 * finished, or died of an error (neither running nor resuming another). */
static inline int gc_thread_idle(const lua_State *th)
{
    return th->status != LUA_OK || th->ci == &th->base_ci;
}

/* [th] is not clean: it goes on the dirty list (thread_touch, new threads). */
TIDE_INTERNAL void gc_list_dirty_thread(GCState *gc, lua_State *th);
/* Raise [L]'s young floor over slots found to hold nothing young, for
 * about [max_ns] (minor.c; between nursery collections); 1 if slots are
 * left to look at. */
TIDE_INTERNAL int gc_raise_young_floor(lua_State *L, uint64_t max_ns);
/* If [L]'s stack is far larger than it uses, have the next safe point
 * shrink it (minor.c). */
TIDE_INTERNAL void gc_note_oversized_stack(lua_State *L);
/* At a safe point (gc_step, lua_gc), before a collection: shrink [L]'s
 * stack if it is far larger than it uses, or a nursery collection found
 * it so (collect.c). */
TIDE_INTERNAL void gc_shrink_oversized_stack(lua_State *L);
/* Log string-table bucket [bucket] for the next nursery collection. */
TIDE_INTERNAL void gc_note_string_bucket_(GCState *gc, unsigned int bucket);
/* A nursery collection (world stopped, on the mutator). [reason] as for
 * gc_collect; a full collection runs one first with [inside_full]. */
TIDE_INTERNAL void gc_minor(lua_State *L, int reason, int inside_full);

/* --- cards.c: the remembered set ------------------------------------------------------ */
/* Record that [slot] of the old storage [p] / the old object [o] may hold a
 * young reference. */
TIDE_INTERNAL void gc_remember_slot(GCState *gc, Part *p, void *slot);
TIDE_INTERNAL void gc_remember_object(GCState *gc, GCObject *o);
/* An object born old may be initialized without barriers (gc.h rule 3):
 * remember all of it (not table storage: gc_new_part). */
TIDE_INTERNAL void gc_remember_new_old(GCState *gc, GCObject *o);
/* Is the card covering [o]'s header / [slot] of Part [p] dirty? */
TIDE_INTERNAL int gc_card_is_dirty_object(const GCObject *o);
TIDE_INTERNAL int gc_card_is_dirty_slot(const Part *p, const void *slot);
/* Visit every dirty card (clearing it): [obj_fn] on every live non-Part
 * object whose header lies on one, [slots_fn] on every Part overlapping
 * one with the covered range. */
typedef void (*gc_CardObjectFn)(void *ud, GCObject *o);
typedef void (*gc_CardPartFn)(void *ud, Part *p, char *lo, char *hi);
TIDE_INTERNAL void gc_cards_visit(GCState *gc, gc_CardObjectFn obj_fn, gc_CardPartFn slots_fn, void *ud);
/* After a full collection's sweep: forget the blocks it freed. */
TIDE_INTERNAL void gc_cards_forget_freed(GCState *gc);
/* Free the large storage released since the last nursery collection. */
TIDE_INTERNAL void gc_free_released(GCState *gc);
/* A full collection, after marking: drop the log entries of objects about
 * to be freed. */
TIDE_INTERNAL void gc_remembered_filter(GCState *gc);
/* Drop the slot-log entries naming [p] (it is freed at once). */
TIDE_INTERNAL void gc_remembered_filter_part(GCState *gc, const Part *p);
/* Forget the slot log's recent entries (GCState.rs_recent): the log was
 * emptied, or entries were dropped or moved. */
TIDE_INTERNAL void gc_rs_recent_clear(GCState *gc);

/* --- marks (full collections) ------------------------------------------------------- */
/* Set [o]'s mark; 1 if it was not marked. */
static inline int gc_setmark(GCState *gc, GCObject *o)
{
    switch (o->age) {
    /* (atomic: the worker may be marking in the same word, worker.c) */
    case GC_SPACE_MAJOR:
        return major_mark_atomic(o);
    case GC_SPACE_LOS:
        return los_mark_atomic(o);
    case GC_SPACE_NURSERY:
        /* A cycle never marks young objects: they were made after its
         * snapshot (the initial pause traversed the pinned ones left over)
         * and a nursery collection may move them at any time. */
        if (gc->cycle_marking || o->marked == gc->epoch) return 0;
        o->marked = gc->epoch;
        return 1;
    default:
        lua_assert(o->age == GC_SPACE_EXTERNAL); /* the main thread; anything else is no object */
        if (o->marked == gc->epoch) return 0;
        o->marked = gc->epoch;
        return 1;
    }
}
static inline int gc_ismarked(GCState *gc, const GCObject *o)
{
    switch (o->age) {
    case GC_SPACE_MAJOR:
        return major_is_marked(o);
    case GC_SPACE_LOS:
        return los_is_marked(o);
    case GC_SPACE_NURSERY:
        return gc->cycle_marking || o->marked == gc->epoch;
    default:
        return o->marked == gc->epoch;
    }
}

/* --- mark.c ----------------------------------------------------------------------- */
TIDE_INTERNAL void gc_grey_push_slow(GCState *gc, GCObject *o);
static inline void gc_grey_push(GCState *gc, GCObject *o)
{
    if (luai_likely(gc->grey.n < gc->grey.cap))
        gc->grey.items[gc->grey.n++] = o;
    else
        gc_grey_push_slow(gc, o);
}
static inline void gc_mark(GCState *gc, GCObject *o)
{
    if (!gc_setmark(gc, o)) return;
    if (gc_isleaf(o->tt)) return;
    gc_grey_push(gc, o);
}
#define gc_markvalue(gc, v) \
    do { if (iscollectable(v)) gc_mark((gc), gcvalue(v)); } while (0)

/* Drain the grey stack (and rescan after an overflow) until nothing is
 * left to traverse. */
TIDE_INTERNAL void gc_propagate(GCState *gc);
/* Traverse one object: mark what it references. */
TIDE_INTERNAL void gc_traverse(GCState *gc, GCObject *o);
/* A table's traversal in pieces (a cycle's marker splits large tables
 * over steps): _begin marks its storage and metatable and returns its weak
 * mode (0: strong); _strong_range marks [count] entries of a strong table
 * from [*pos] (array slots first, then hash nodes), advances [*pos], and
 * returns 1 past the last. A resize in between is harmless: it hands every
 * entry to the marker (tables.c). */
TIDE_INTERNAL int gc_traverse_table_begin(GCState *gc, Table *t);
TIDE_INTERNAL int gc_traverse_strong_range(GCState *gc, Table *t, size_t *pos, size_t count);
/* Mark what table storage [p] holds (strongly, whatever its table's
 * mode) and clear its dead keys: a cycle's initial pause does it for young
 * storage, which the worker does not read (worker.c). */
TIDE_INTERNAL void gc_traverse_part(GCState *gc, Part *p);
/* Mark the values on [th]'s stack (below its bound) and its open upvalues;
 * nil the slots above the bound. */
TIDE_INTERNAL void gc_traverse_thread_stack(GCState *gc, lua_State *th);
/* The same for the slots from [from] up (a cycle's partial scan of a
 * running stack, cycle.c); the open upvalues all the same. */
TIDE_INTERNAL void gc_traverse_thread_stack_from(GCState *gc, lua_State *th, size_t from);
/* The weak mode (WEAK_KEYS | WEAK_VALUES) of a table with metatable [mt]. */
TIDE_INTERNAL int gc_weakmode(GCState *gc, Table *mt);
/* One ephemeron pass over [t]: mark values whose keys are marked (and the
 * array part when [with_array]); returns 1 if it marked anything. */
TIDE_INTERNAL int gc_traverse_ephemeron(GCState *gc, Table *t, int with_array);
/* A weak entry's key/value is "cleared" when it is a collectable object
 * other than a string that is not marked. Strings are values: they are
 * marked here and never cleared. */
static inline int gc_iscleared(GCState *gc, GCObject *o)
{
    if (novariant(o->tt) == LUA_TSTRING) {
        gc_setmark(gc, o);
        return 0;
    }
    return !gc_ismarked(gc, o);
}
/* An entry whose value is empty loses its key: a collectable key becomes
 * a dead key (tables.h), which keeps its object's identity instead of its
 * address. The object may die, or move, and another key of the table may
 * then sit at the address: `next` given that key would take the dead entry
 * for its own (and loop for ever when the dead entry comes first in the
 * chain). A string key (hashed by contents) gets its identity here. The
 * key object's memory is still valid: a key is cleared before the sweep
 * may free it. */
static inline void gc_clearkey(GCState *gc, Node *n)
{
    if (n->key_tt & BIT_COLLECTABLE) {
        GCObject *o = n->key_val.gc;
        uint32_t id = o->idhash != 0 ? o->idhash : gc_assign_identity(gc->g, o);
        n->key_val.i = (lua_Integer)id;
        n->key_tt = (uint8_t)LUA_TNUMTYPES_DEADKEY;
    }
}
/* Every object of every space (nursery objects only when [with_nursery]),
 * in no particular order. [fn] must not allocate. */
TIDE_INTERNAL void gc_heap_foreach(GCState *gc, int with_nursery, void (*fn)(void *ud, GCObject *o), void *ud);

/* --- roots.c ---------------------------------------------------------------------- */
/* Mark the roots: fixed objects, the main thread and [L], the registry, the
 * per-type metatables, strong handles, objects waiting for finalization,
 * and the C stack and registers of the calling OS thread (conservatively;
 * table storage there is left to gc_mark_held_parts). */
TIDE_INTERNAL void gc_mark_roots(lua_State *L);
/* After the mark: table storage the C stack holds that the mark did not
 * reach keeps what it holds (strongly); 1 if any did (propagate again). */
TIDE_INTERNAL int gc_mark_held_parts(GCState *gc);
/* The words of the calling OS thread's C stack and registers (but the
 * precise windows) that fall in [lo, hi), sorted and distinct, handed to
 * [fn] — in several batches when memory for one buffer is short (each
 * batch sorted on its own). */
typedef void (*gc_WordsFn)(void *ud, const uintptr_t *w, size_t n);
TIDE_INTERNAL void gc_stack_words(GCState *gc, uintptr_t lo, uintptr_t hi, gc_WordsFn fn, void *ud);
/* Zero the stack below the caller's frame (roots.c): call it at an entry
 * point before a collection. */
TIDE_INTERNAL void gc_scrub_stack(void);

/* --- finalize.c ------------------------------------------------------------------- */
TIDE_INTERNAL void gc_weak_note(GCState *gc, GCVec *list, Table *t);
TIDE_INTERNAL void gc_converge_ephemerons(GCState *gc);
/* Clear unmarked values from weak-value and all-weak tables recorded from
 * index [wfrom] / [afrom] on (all of them after a recording overflow). */
TIDE_INTERNAL void gc_clear_by_values(GCState *gc, size_t wfrom, size_t afrom);
/* Clear entries with unmarked keys from ephemeron and all-weak tables. */
TIDE_INTERNAL void gc_clear_by_keys(GCState *gc);
/* Move unmarked objects of finobj to tobefnz (all of them with [all]),
 * newest first (the reverse order of marking, the manual's order); returns
 * the position in tobefnz of the first one moved. An object that finds no
 * room in tobefnz stays in finobj, marked, for the next collection. */
TIDE_INTERNAL size_t gc_separate_tobefnz(GCState *gc, int all);
/* Run pending finalizers on [L]: all of them when [budget_ns] is 0, else
 * until the budget is spent (at least one). Returns how many ran. */
TIDE_INTERNAL int gc_run_finalizers(lua_State *L, uint64_t budget_ns);
/* May finalizers run on [L] now (not inside a collection or a finalizer)? */
TIDE_INTERNAL int gc_can_run_finalizers(lua_State *L);

/* --- sweep.c ---------------------------------------------------------------------- */
/* Free every unmarked old object; with [safe_point], also shrink thread
 * stacks and the string table. */
TIDE_INTERNAL void gc_sweep(lua_State *L, int safe_point);
/* The same, lazily: the strings, threads and large objects now; the major
 * heap's blocks become unswept, swept on demand by allocation and by
 * gc_sweep_some, which sweeps up to [max_blocks] and returns 1 once every
 * block is swept (and the sweep's end is done: with [safe_point], the
 * stacks and the string table shrunk). */
TIDE_INTERNAL void gc_sweep_lazily(GCState *gc);
TIDE_INTERNAL int gc_sweep_some(lua_State *L, size_t max_blocks, int safe_point);
/* What freeing an old object must do besides giving its memory back (a
 * prototype's arrays, a thread's stack, an open upvalue's link). */
TIDE_INTERNAL void gc_free_object_parts(lua_State *L, GCObject *o);
/* Large blocks the sweep or a nursery collection retired (los.h) go back
 * to the allocator out of the pauses that retired them:
 * gc_release_retired gives back about [max_bytes] and returns what it
 * gave, the pages of a large block by the worker thread when there is one
 * — SIZE_MAX: all, on this thread (the world is stopped); gc_release_for,
 * until [deadline_ns], on this thread (idle time, which sets the debt
 * after). */
TIDE_INTERNAL size_t gc_release_retired(GCState *gc, size_t max_bytes);
/* The major heap keeps room for the next nursery collection's promotion
 * written ahead (major_reserve); gc_reserve_for, until [deadline_ns]
 * (idle time), for a frame that adds about [frame_old] bytes to the old
 * generation. */
TIDE_INTERNAL void gc_reserve_for(GCState *gc, uint64_t frame_old, uint64_t deadline_ns);
/* The allocation checkpoint's share of both (alloc.c), as one sweep-step
 * pause: a slice of the retired large blocks, a few blocks of room. */
TIDE_INTERNAL void gc_checkpoint_step(GCState *gc);
TIDE_INTERNAL void gc_release_for(GCState *gc, uint64_t deadline_ns);

/* --- collect.c --------------------------------------------------------------------- */
/* How a collection was started; decides what it may do besides collecting. */
typedef enum GCReason {
    GC_REASON_SAFE_POINT, /* gc_step, lua_gc, frames: may shrink stacks */
    GC_REASON_ALLOCATION, /* inside an allocation: nothing may move but the nursery */
    GC_REASON_EMERGENCY   /* allocation failure or heap limit */
} GCReason;
/* A full collection (a nursery collection, then mark and sweep of every
 * space), world stopped. */
TIDE_INTERNAL void gc_collect(lua_State *L, GCReason reason);
/* Is a collection allowed now (not stopped by the collector's own state)? */
TIDE_INTERNAL int gc_may_collect(GCState *gc);
/* Recompute gc_debt (and whether a full collection is due). */
TIDE_INTERNAL void gc_set_debt(GCState *gc);
/* Bytes in use: old objects, raw blocks and the nursery's used part. */
TIDE_INTERNAL size_t gc_total(GCState *gc);
TIDE_INTERNAL uint64_t gc_now_ns(void);
/* The calling thread's processor time (CLOCK_THREAD_CPUTIME_ID). */
TIDE_INTERNAL uint64_t gc_thread_cpu_ns(void);

/* --- cycle.c: concurrent major cycles ---------------------------------------------- */
/* Do safe points run major cycles rather than stop-the-world full
 * collections? (TIDE_GC_DEBUG=no-cycles; a heap without a major space.) */
static inline int gc_cycles_on(const GCState *gc)
{
    return !gc->cycles_off && gc->major != NULL;
}
/* Has the marking cycle nothing left to traverse (the final pause may
 * run)? With the worker: nothing on either side (it takes its lock). */
TIDE_INTERNAL int gc_cycle_mark_done(GCState *gc);
/* The safe point's share of cycle work (gc_step): begin a cycle when the
 * heap reaches the trigger, do a mark step when one is due, end the mark
 * when nothing is left to mark. */
TIDE_INTERNAL void gc_cycle_step(lua_State *L);
/* Up to [budget_ns] of marking (idle time); returns 1 when the mark is
 * complete (the final pause may run). */
TIDE_INTERNAL int gc_cycle_mark_for(lua_State *L, uint64_t budget_ns);
/* Begin a cycle now: the initial pause. */
TIDE_INTERNAL void gc_cycle_begin(lua_State *L);
/* Drop the marking cycle's marks and snapshot (a full collection starts
 * over). */
TIDE_INTERNAL void gc_cycle_abandon(GCState *gc);
/* Sweep what the last cycle left unswept, all of it / for up to
 * [budget_ns] (returns 1 when the sweep is over); [safe_point]: thread
 * stacks and the string table may shrink at its end. */
TIDE_INTERNAL void gc_cycle_finish_sweep(lua_State *L, int safe_point);
TIDE_INTERNAL int gc_cycle_sweep_for(lua_State *L, uint64_t budget_ns, int safe_point);
/* The final pause now, if a cycle is marking (frame boundaries, idle). */
TIDE_INTERNAL void gc_cycle_finish(lua_State *L);
/* The rest of a mark once every root and grey object is traversed, for
 * cycles and stop-the-world collections alike (collect.c): ephemerons,
 * weak tables, finalizable objects, weak handles, remembered set. */
TIDE_INTERNAL void gc_finish_mark(GCState *gc);
/* The pacing after a mark and its sweep: the live size [live], the next
 * thresholds. */
TIDE_INTERNAL void gc_set_thresholds(GCState *gc, size_t live);

/* --- pacer.c: when a cycle begins ------------------------------------------------------ */
/* Set cycle_trigger and cycle_latest from threshold, live and the rates. */
TIDE_INTERNAL void gc_pacer_set_trigger(GCState *gc);
/* After a nursery collection that promoted [promoted] bytes: sample the
 * growth rate. */
TIDE_INTERNAL void gc_pacer_note_growth(GCState *gc, uint64_t now, size_t promoted);
/* The final pause begins at [final_start_ns]: the mark's time is known
 * (measured only for concurrent marks). Returns when the mark was seen
 * done (mark_done_ns, set by gc_cycle_mark_done; else the pause's start). */
TIDE_INTERNAL uint64_t gc_pacer_note_cycle_marked(GCState *gc, uint64_t final_start_ns);
/* The live size is known (after a sweep): the mark rate, the next trigger. */
TIDE_INTERNAL void gc_pacer_note_live(GCState *gc);
/* A frame begins. */
TIDE_INTERNAL void gc_pacer_note_frame(GCState *gc, uint64_t now);
/* Where a cycle could begin now. */
typedef enum GCPaceWhere {
    GC_PACE_SAFE_POINT,     /* inside a frame, or no frames: past cycle_latest */
    GC_PACE_FRAME_BOUNDARY, /* tide_frame_begin: past the trigger */
    GC_PACE_IDLE            /* tide_gc_idle: the trigger comes within the next frame */
} GCPaceWhere;
/* Should a cycle begin here (none is running, the heap has grown enough)? */
TIDE_INTERNAL int gc_pacer_cycle_due(const GCState *gc, GCPaceWhere where);

/* --- worker.c: the concurrent marker ------------------------------------------------- */
/* Functions that read objects the mutator may be writing, by design
 * (worker.c says why that is sound): ThreadSanitizer leaves them alone. */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)
#define TIDE_GC_RACY __attribute__((no_sanitize("thread")))
#else
#define TIDE_GC_RACY
#endif
typedef struct GCWorker GCWorker;
/* Make the worker's thread now, outside any pause (the first frame), if it
 * is to be had; otherwise the first cycle makes it. */
TIDE_INTERNAL void gc_worker_prepare(GCState *gc);
/* The end of a cycle's initial pause: the worker takes gc->grey and marks
 * from it on its thread (made on first use). 0 when there is no worker
 * (no thread, no memory for its view): the mutator marks. */
TIDE_INTERNAL int gc_worker_start(lua_State *L);
/* Hand gc->grey to the worker (the mutator's marks since the last time). */
TIDE_INTERNAL void gc_worker_feed(GCState *gc);
/* Mutator: traverse what the worker handed back, until [deadline_ns] (0:
 * all of it, and gc->grey is kept for the caller); then feed. 1 if there
 * was anything to do. */
TIDE_INTERNAL int gc_worker_assist(lua_State *L, uint64_t deadline_ns);
/* Nothing left on either side (the worker parked without work)? */
TIDE_INTERNAL int gc_worker_idle(GCState *gc);
/* Idle time: traverse grey objects beside the worker until [deadline_ns]
 * — a share of its stack, or the mutator's own marks not yet handed over —
 * or, when it has none to give, wait until it has, has handed back work,
 * or has run out of it. Returns the time spent waiting. */
TIDE_INTERNAL uint64_t gc_worker_help(GCState *gc, uint64_t deadline_ns);
/* Park the worker. [keep]: its grey objects go onto gc->grey and what it
 * handed back onto the mutator's list (the final pause finishes both, with
 * gc_worker_finish_deferred); otherwise they are dropped (an abandoned
 * cycle). */
TIDE_INTERNAL void gc_worker_stop(GCState *gc, int keep);
TIDE_INTERNAL void gc_worker_finish_deferred(lua_State *L);
/* The major heap's prefaulter (MajorConfig.prefault, [ud] the GCState):
 * queue [addr, addr + len) for the worker to fault in; 0 when there is no
 * worker, its lock is taken or the queue is full. */
TIDE_INTERNAL int gc_worker_prefault(void *ud, void *addr, size_t len);
/* Around a call to the state's allocator for the old spaces: no page is
 * faulted in by the worker meanwhile (the allocator may change the mapping
 * it would fault in, and would wait for it); hold waits for a chunk being
 * faulted in (not for one being given back). Hold returns 1 when release
 * must be called (the worker had pages to fault in). */
TIDE_INTERNAL int gc_worker_prefault_hold(GCState *gc);
TIDE_INTERNAL void gc_worker_prefault_release(GCState *gc);
/* Ranges queued or being faulted in (cancelled ones included until the
 * worker passes them). */
TIDE_INTERNAL size_t gc_worker_prefault_pending(GCState *gc);
/* Chunks faulted in from the middle of a traversal so far (the tests'). */
TIDE_INTERNAL size_t gc_worker_prefault_served_traversing(GCState *gc);
/* Drop what is queued of [addr, addr + len) and wait for the chunk being
 * faulted in or given back, before the range goes back to the allocator. */
TIDE_INTERNAL void gc_worker_prefault_cancel(void *ud, void *addr, size_t len);
/* The large-object space's releaser (LosConfig.pages, [ud] the GCState):
 * queue [addr, addr + len), a retired block's whole pages, for the worker
 * to give back to the system; 0 as gc_worker_prefault. Pending: is any of
 * it still queued or being given back? */
TIDE_INTERNAL int gc_worker_release_pages(void *ud, void *addr, size_t len);
TIDE_INTERNAL int gc_worker_pages_pending(void *ud, void *addr, size_t len);
/* Chunks of pages the worker has given back so far (the tests'). */
TIDE_INTERNAL size_t gc_worker_released_chunks(GCState *gc);
/* End the thread and free the worker (lua_close). */
TIDE_INTERNAL void gc_worker_destroy(GCState *gc);

/* --- evacuate.c -------------------------------------------------------------------- */
/* May a full collection started for [reason] evacuate? Only a synchronous
 * one the program asked for (sync_requested) or a memory emergency, and
 * never in low-latency mode (allow_sync_major == 0). */
static inline int gc_evacuation_allowed(const GCState *gc, GCReason reason)
{
    if (!gc->allow_sync_major || gc->major == NULL) return 0;
    return reason == GC_REASON_EMERGENCY || (reason == GC_REASON_SAFE_POINT && gc->sync_requested);
}
/* The conservative scan of a full collection that may evacuate found the
 * major object [o]: it must stay where it is (roots.c). */
static inline void gc_note_stack_root(GCState *gc, GCObject *o)
{
    if (!gc_vec_push(gc, &gc->stack_roots, o)) gc->stack_roots_lost = 1;
}
/* A full collection started for [reason], after its mark (weak entries
 * cleared, finalizable objects separated, remembered set filtered) and
 * before its sweep: copy the marked objects of sparse major blocks into
 * other blocks of their class and fix every reference to them (evacuate.c
 * says what moves). Fills evac_last; frees stack_roots; allocates nothing
 * in the heap but the copies' slots (never a new arena, but under
 * TIDE_GC_DEBUG=evacuate-all), and never collects. */
TIDE_INTERNAL void gc_evacuate(lua_State *L, GCReason reason);

/* --- handles.c --------------------------------------------------------------------- */
TIDE_INTERNAL void gc_handles_mark_strong(GCState *gc);
/* Clear weak handles of [kind] whose objects are unmarked. */
TIDE_INTERNAL void gc_handles_clear(GCState *gc, int kind);
TIDE_INTERNAL void gc_handles_free_all(GCState *gc);
/* Call [fn] on the value of every handle in use. */
TIDE_INTERNAL void gc_handles_foreach(GCState *gc, void (*fn)(void *ud, TValue *v), void *ud);
/* Nursery collection: [fn] on every handle value of [kind] in use. */
TIDE_INTERNAL void gc_handles_foreach_kind(GCState *gc, int kind, void (*fn)(void *ud, TValue *v), void *ud);

/* --- frames.c ---------------------------------------------------------------------- */
/* Inside a frame of a game that gives the collector idle time (it did
 * after the last frame): work that can wait — the lazy sweep's steps,
 * giving back retired large blocks — waits for tide_gc_idle rather than
 * pause the frame, as long as it is not behind. */
static inline int gc_idle_follows(const GCState *gc)
{
    return gc->frame_open && gc->idle_before >= gc->frame;
}
/* A collection of [pause_kind] (tide_GcPauseKind) ran from [start_ns] for
 * [duration_ns], starting with [heap_before] bytes: count it and report it. */
TIDE_INTERNAL void gc_frames_note_pause(GCState *gc, int pause_kind, uint64_t start_ns, uint64_t duration_ns,
                                        size_t heap_before);
TIDE_INTERNAL void gc_frames_note_heap_limit(GCState *gc);
/* The major cycle moved from phase [from] to [to] at [when_ns]. */
TIDE_INTERNAL void gc_frames_note_phase(GCState *gc, int from, int to, uint64_t when_ns);
TIDE_INTERNAL void gc_frames_note_finalizer(GCState *gc);
/* A collection of [pause_kind] starts (outside a full collection, for a
 * nursery one): fires the gc-begin probe (and, for a full collection, the
 * phase change to sync-major). Call it first thing, paired with the
 * gc_frames_note_pause that ends it. */
TIDE_INTERNAL void gc_frames_note_pause_begin(GCState *gc, int pause_kind);

/* --- trace.c: the trace file (Chrome trace-event JSON) ---------------------------- */
typedef struct GCTraceFile GCTraceFile;
/* Open [path] (truncating it) as the trace, closing any trace open before;
 * 0, or an errno value with nothing changed. */
TIDE_INTERNAL int gc_trace_open(GCState *gc, const char *path);
/* Complete and close the trace, if one is open. */
TIDE_INTERNAL void gc_trace_close(GCState *gc);
/* Records, called by frames.c only while gc->trace_file is set. */
TIDE_INTERNAL void gc_trace_pause(GCState *gc, int pause_kind, uint64_t start_ns, uint64_t duration_ns,
                                  uint64_t cpu_ns, size_t heap_before, size_t heap_after);
TIDE_INTERNAL void gc_trace_phase(GCState *gc, int from, int to, uint64_t at_ns);
TIDE_INTERNAL void gc_trace_heap_limit(GCState *gc, uint64_t at_ns, size_t heap_bytes);
TIDE_INTERNAL void gc_trace_frame_begin(GCState *gc);
TIDE_INTERNAL void gc_trace_frame_end(GCState *gc);
TIDE_INTERNAL void gc_trace_idle(GCState *gc, uint64_t start_ns, uint64_t budget_ns);

/* --- debug.c ----------------------------------------------------------------------- */
TIDE_INTERNAL void gc_debug_parse(GCState *gc, const char *spec);
#define GC_POISON_BYTE 0xDB

/* --- verify.c ---------------------------------------------------------------------- */
TIDE_INTERNAL void gc_verify_heap(lua_State *L, const char *when);
/* At the end of a cycle's mark: every old object a stop-the-world mark
 * from the roots would reach now is marked (aborts otherwise). */
TIDE_INTERNAL void gc_verify_marks(lua_State *L);

#endif
