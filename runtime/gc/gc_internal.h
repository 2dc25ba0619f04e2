/*
 * gc_internal.h — the first collector's private state and the helpers its
 * parts share. Only the files of runtime/gc include it; the rest of the
 * runtime sees gc.h alone.
 *
 * The collector of issue 3: stop-the-world, non-moving mark-and-sweep. It
 * runs on the mutator thread; nothing here is touched by any other OS thread
 * except the handle table's free list (handles.c), which is lock-free.
 *
 * Memory. Every object is one block of G(L)->frealloc, exactly its size.
 * The collector finds its objects through the object index: an array with
 * one entry per object, in allocation order (compacted by each sweep). An
 * entry is the object's address with a size class in its low 3 bits
 * (objects are at least 8-byte aligned), so that the conservative scan can
 * reject most objects without touching them (roots.c). A Part records its
 * entry's position in Part.pad, so gc_release_part can clear the entry
 * (0) and free the block at once. Every object is in the index except the
 * main thread, which lua_newstate allocates itself.
 *
 * Besides the index, two ordered arrays:
 *     finobj   objects marked for finalization (GCF_FINALIZABLE), in the
 *              order they were marked
 *     tobefnz  unreachable finalizable objects waiting for their finalizer
 *              (GCF_FINALIZABLE | GCF_FINALIZED), in the order they will run
 *              (from tobefnz_head); roots until then
 * Fixed objects (gc_fix) carry age == GC_AGE_FIXED and are never freed;
 * those that are not strings are also listed in [fixed], to be marked.
 *
 * Mark bits. GCObject.marked == gc->epoch means "reached in this cycle". The
 * epoch alternates between 1 and 2 at the start of each collection, so a
 * survivor needs no unmarking; a new object has 0 (white in both epochs).
 * Objects the sweep keeps without a mark (fixed ones) and the main thread
 * are marked afresh by every collection when they can reference anything.
 *
 * Invariant between collections (checked by verify.c): every collectable
 * value held by an indexed object, by a stack slot of a thread (or the main
 * thread), by the registry, the per-type metatables or a GC handle refers
 * to an indexed object or the main thread, whose header type matches the
 * value's tag. Stack slots above a thread's bound are nil after every
 * collection (mark.c).
 */
#ifndef TIDE_GC_INTERNAL_H
#define TIDE_GC_INTERNAL_H

#include <stdatomic.h>
#include <string.h>

#include "gc.h"
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

/* Objects with nothing to traverse: marking them is setting the bit. */
#define gc_isleaf(tt) (novariant(tt) == LUA_TSTRING || (tt) == HT_PART)

/* --- the object index -------------------------------------------------------- */
/* An entry: address | size class. Class c < 7 means the object is at most
 * GC_CLASS_BOUND(c) bytes; 7 means "ask gc_object_size". */
#define GC_CLASS_MASK ((uintptr_t)7)
#define GC_CLASS_BOUND(c) ((size_t)32 << (c))
#define gc_entry_object(e) ((GCObject *)(void *)((e) & ~GC_CLASS_MASK))
#define gc_entry_class(e) ((int)((e) & GC_CLASS_MASK))
static inline uintptr_t gc_make_entry(const GCObject *o, size_t size)
{
    int c = 0;
    while (c < 7 && size > GC_CLASS_BOUND(c)) c++;
    return (uintptr_t)o | (uintptr_t)c;
}
/* GCObject.age of a fixed object (this collector has no ages). */
#define GC_AGE_FIXED 0xFF
#define gc_isfixed(o) ((o)->age == GC_AGE_FIXED)

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

typedef struct GCState {
    GlobalState *g;

    /* --- objects (see the top of this file) --- */
    uintptr_t *index;       /* one entry per object; 0 = a released Part */
    size_t nindex, index_cap;
    GCVec finobj;           /* marked for finalization, oldest first */
    GCVec tobefnz;          /* waiting for their finalizer, from tobefnz_head */
    size_t tobefnz_head;
    GCVec fixed;            /* fixed objects that are not strings */
    uintptr_t heap_lo, heap_hi; /* address range of every block ever allocated */

    /* --- accounting ---
     * gc_debt (GlobalState) = total - threshold, except that gc_step may
     * push it up to ask for a step (pending finalizers) or down to put off
     * the next call. */
    size_t total;           /* bytes obtained from frealloc and not given back */
    size_t threshold;       /* total at which the next collection is due */
    size_t live;            /* total right after the last collection */
    size_t limit;           /* memory limit (gc_set_memory_limit), 0 = none */
    uint64_t allocated;     /* bytes ever allocated (frame statistics) */

    /* --- state --- */
    uint8_t epoch;          /* the mark value of the current/last cycle: 1 or 2 */
    uint8_t collecting;     /* inside a collection: allocations do not collect */
    uint8_t stopped;        /* LUA_GCSTOP */
    uint8_t closing;        /* gc_freeall: no collections, no new finalizable objects */
    uint8_t mode;           /* LUA_GCGEN or LUA_GCINC, as last asked (advisory) */
    uint8_t pause;          /* gc_setparam'ed, drives the pacer */
    uint8_t stepmul;        /* gc_setparam'ed, advisory */
    uint8_t allow_sync_major; /* tide_gc_allow_synchronous_major (stored) */
    int stepsize;           /* advisory */
    int fin_running;        /* finalizers running (nesting depth) */
    uint64_t collections;   /* completed collections */

    /* --- marking --- */
    GCVec grey;             /* objects marked but not traversed */
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
    uint8_t verify_before, verify_after, poison;
    size_t nursery_size;    /* stored for tide_gc_set_nursery_size / issue 4 */

    /* --- GC handles --- */
    HandleTable handles;

    /* --- frames, statistics, events (frames.c) --- */
    uint64_t frame;         /* the number of the last frame begun, 0 = none */
    int frame_open;         /* between tide_frame_begin and tide_frame_end */
    int in_idle;            /* inside tide_gc_idle */
    uint64_t frame_alloc_start;
    tide_FrameStats stats;  /* of the current frame (counts only) */
    uint64_t last_pause_ns; /* duration of the last collection */
    tide_GcEventFn event_fn;
    void *event_ud;
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
/* Give an object's block back (after any type-specific freeing). */
TIDE_INTERNAL void gc_free_object_block(GCState *gc, GCObject *o);
/* The pending finalizations: tobefnz from its head. */
#define gc_pending_count(gc) ((gc)->tobefnz.n - (gc)->tobefnz_head)
/* Record that a block lies at [block, block + size). */
static inline void gc_note_range(GCState *gc, void *block, size_t size)
{
    uintptr_t lo = (uintptr_t)block, hi = lo + size;
    if (lo < gc->heap_lo || gc->heap_lo == 0) gc->heap_lo = lo;
    if (hi > gc->heap_hi) gc->heap_hi = hi;
}

/* --- mark.c ----------------------------------------------------------------------- */
TIDE_INTERNAL void gc_grey_push_slow(GCState *gc, GCObject *o);

static inline void gc_mark(GCState *gc, GCObject *o)
{
    if (o->marked == gc->epoch) return;
    o->marked = gc->epoch;
    if (gc_isleaf(o->tt)) return;
    if (luai_likely(gc->grey.n < gc->grey.cap))
        gc->grey.items[gc->grey.n++] = o;
    else
        gc_grey_push_slow(gc, o);
}
#define gc_ismarked(gc, o) ((o)->marked == (gc)->epoch)
#define gc_markvalue(gc, v) \
    do { if (iscollectable(v)) gc_mark((gc), gcvalue(v)); } while (0)

/* Drain the grey stack (and rescan after an overflow) until nothing is
 * left to traverse. */
TIDE_INTERNAL void gc_propagate(GCState *gc);
/* Traverse one object: mark what it references. */
TIDE_INTERNAL void gc_traverse(GCState *gc, GCObject *o);
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
        o->marked = gc->epoch;
        return 0;
    }
    return !gc_ismarked(gc, o);
}
/* An entry whose value is empty loses its key: a collectable key becomes
 * a dead key (tables.h) so that nothing reads the object it named. */
static inline void gc_clearkey(Node *n)
{
    if (n->key_tt & BIT_COLLECTABLE) n->key_tt = (uint8_t)LUA_TNUMTYPES_DEADKEY;
}

/* --- roots.c ---------------------------------------------------------------------- */
/* Mark the roots: fixed objects, the main thread and [L], the registry, the
 * per-type metatables, strong handles, objects waiting for finalization,
 * and the C stack and registers of the calling OS thread (conservatively). */
TIDE_INTERNAL void gc_mark_roots(lua_State *L);

/* --- finalize.c ------------------------------------------------------------------- */
TIDE_INTERNAL void gc_weak_note(GCState *gc, GCVec *list, Table *t);
TIDE_INTERNAL void gc_converge_ephemerons(GCState *gc);
/* Clear unmarked values from weak-value and all-weak tables recorded from
 * index [wfrom] / [afrom] on (all of them after a recording overflow). */
TIDE_INTERNAL void gc_clear_by_values(GCState *gc, size_t wfrom, size_t afrom);
/* Zero the stack below the caller's frame (roots.c): call it at an entry
 * point before a collection. */
TIDE_INTERNAL void gc_scrub_stack(void);
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
/* Free every unmarked object, compacting the index; with [safe_point],
 * also shrink thread stacks, the string table and the index. */
TIDE_INTERNAL void gc_sweep(lua_State *L, int safe_point);
/* Free one object (type-specific part and block). */
TIDE_INTERNAL void gc_free_object(lua_State *L, GCObject *o);

/* --- collect.c --------------------------------------------------------------------- */
/* How a collection was started; decides what it may do besides collecting. */
typedef enum GCReason {
    GC_REASON_SAFE_POINT, /* gc_step, lua_gc, frames: may shrink stacks */
    GC_REASON_ALLOCATION, /* inside an allocation: nothing may move */
    GC_REASON_EMERGENCY   /* allocation failure or heap limit */
} GCReason;
TIDE_INTERNAL void gc_collect(lua_State *L, GCReason reason);
/* Is a collection allowed now (not stopped by the collector's own state)? */
TIDE_INTERNAL int gc_may_collect(GCState *gc);
/* Recompute gc_debt from total and threshold (and the stopped state). */
TIDE_INTERNAL void gc_set_debt(GCState *gc);
TIDE_INTERNAL uint64_t gc_now_ns(void);

/* --- handles.c --------------------------------------------------------------------- */
TIDE_INTERNAL void gc_handles_mark_strong(GCState *gc);
/* Clear weak handles of [kind] whose objects are unmarked. */
TIDE_INTERNAL void gc_handles_clear(GCState *gc, int kind);
TIDE_INTERNAL void gc_handles_free_all(GCState *gc);
/* Call [fn] on the value of every handle in use (verify.c). */
TIDE_INTERNAL void gc_handles_foreach(GCState *gc, void (*fn)(void *ud, const TValue *v), void *ud);

/* --- frames.c ---------------------------------------------------------------------- */
/* A collection of [pause_kind] (tide_GcPauseKind) ran from [start_ns] for
 * [duration_ns], starting with [heap_before] bytes: count it and report it. */
TIDE_INTERNAL void gc_frames_note_pause(GCState *gc, int pause_kind, uint64_t start_ns, uint64_t duration_ns,
                                        size_t heap_before);
TIDE_INTERNAL void gc_frames_note_heap_limit(GCState *gc);
TIDE_INTERNAL void gc_frames_note_finalizer(GCState *gc);

/* --- debug.c ----------------------------------------------------------------------- */
TIDE_INTERNAL void gc_debug_parse(GCState *gc, const char *spec);
#define GC_POISON_BYTE 0xDB

/* --- verify.c ---------------------------------------------------------------------- */
TIDE_INTERNAL void gc_verify_heap(lua_State *L, const char *when);

#endif
