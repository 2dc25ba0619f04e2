/*
 * los.h — the large object space: objects above MAJOR_MAX_OBJECT bytes
 * (DESIGN §4.3). Each object is its own allocation through the owner's
 * obtain callback (lua_Alloc's contract, as for the major heap), never
 * moves, and carries its own header (size, kind, mark) and card bytes, one
 * per 512 bytes of the object, counted from the object's start: writing one
 * slot of a 1M-slot array dirties one card, not the whole object.
 *
 * Allocation layout (one obtain block):
 *     [cards: ncards bytes | padding to 16 | LosObject | object ...]
 * The header sits right before the object, so marks and cards are reached
 * from an object pointer by a subtraction; the padding makes every object
 * 16-byte aligned whatever alignment obtain gives (it is sized for the
 * worst case, 15 bytes).
 *
 * The space keeps its objects in an array sorted by address, so the
 * conservative scan's los_object_containing is a binary search. Insertion
 * and removal move the tail of the array; there are few large objects (each
 * is above 8 KiB) and a sweep compacts the array in one pass.
 *
 * Giving memory back. An object the sweep finds dead, or the owner
 * retires, leaves the array at once (nothing finds it any more) but its
 * memory goes back later, in los_release_some: a large populated block
 * costs the system about a millisecond per 16 MiB to take back, so its
 * pages go back a slice (LOS_RELEASE_SLICE) at a time, where the owner
 * has time, or all at once on another thread (LosConfig.pages), and the
 * block itself last.
 *
 * Threads: as for the major heap (major.h): mutator only, except the mark
 * bits, which los_mark_atomic / los_is_marked may touch from a concurrent
 * marker. The sweep is not lazy (one pass over the array): it runs where
 * the owner decides, never while marking.
 */
#ifndef TIDE_GC_LOS_H
#define TIDE_GC_LOS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "luaconf.h"

#define LOS_CARD_SHIFT 9
#define LOS_CARD_SIZE ((size_t)1 << LOS_CARD_SHIFT) /* 512 bytes */
#define LOS_REFS 0   /* same values as MAJOR_REFS / MAJOR_NOREFS */
#define LOS_NOREFS 1

typedef void *(*los_Obtain)(void *ud, void *block, size_t osize, size_t nsize);
typedef void (*los_OnFree)(void *ud, void *obj, size_t size);

typedef struct LosObject {
    void *raw;              /* what obtain returned */
    size_t raw_size;
    size_t size;            /* the object's bytes, as asked */
    size_t ncards;          /* ceil(size / LOS_CARD_SIZE) */
    uint8_t *cards;         /* ncards bytes at the start of raw; 1 = dirty */
    _Atomic uint8_t mark;
    uint8_t kind;           /* LOS_REFS or LOS_NOREFS */
    uint8_t handed;         /* retired, and its pages handed to the releaser
                               (LosConfig.pages) */
    uint8_t pad_[5];
} LosObject;

typedef struct LosConfig {
    los_Obtain obtain;  /* required */
    void *obtain_ud;
    los_OnFree on_free; /* may be NULL; called by los_sweep with the dead object
                           and its size, before it is freed; it must not
                           call into the space */
    void *free_ud;
    /* May be NULL: another thread that gives back a retired block's pages
     * (los_release_some). LOS_PAGES_RELEASE queues [addr, addr + len) and
     * returns 1 if it was taken; LOS_PAGES_PENDING returns 1 while any of
     * it is queued or in progress; LOS_PAGES_CANCEL drops what is queued
     * and waits for what is in progress. */
    int (*pages)(void *ud, int op, void *addr, size_t len);
    void *pages_ud;
} LosConfig;

#define LOS_PAGES_RELEASE 0
#define LOS_PAGES_PENDING 1
#define LOS_PAGES_CANCEL 2

typedef struct LosSpace LosSpace;

typedef struct LosStats {
    size_t objects;
    size_t object_bytes;          /* sum of the objects' sizes */
    size_t obtained_bytes;        /* what obtain gave for them (headers, cards) */
    size_t live_bytes_last_sweep; /* object bytes that survived the last sweep */
    uint64_t obtain_calls;
    size_t retired_bytes;         /* retired, not yet given back (los_release_some) */
} LosStats;

TIDE_INTERNAL LosSpace *los_create(const LosConfig *cfg);
/* Frees every object (no on_free) and the space. */
TIDE_INTERNAL void los_destroy(LosSpace *s);

/* A zeroed object of [n] bytes (n >= 1; meant for n > MAJOR_MAX_OBJECT),
 * 16-byte aligned; NULL when obtain refuses. */
TIDE_INTERNAL void *los_alloc(LosSpace *s, size_t n, int kind);
/* Free one object now (on_free is not called): storage the owner knows is
 * dead and that no marker can be reading. */
TIDE_INTERNAL void los_free(LosSpace *s, void *obj);
/* Take one object out of the space now (on_free is not called) and give
 * its memory back later (los_release_some): storage the owner knows is
 * dead and that no marker can be reading. */
TIDE_INTERNAL void los_retire(LosSpace *s, void *obj);
/* Give back the memory of retired objects, about [max_bytes] of it (at
 * least a page or a whole small block; each block given back counts as at
 * least LOS_FREE_WORK): whole pages of a large block a slice at a time,
 * then the block, or, where the space has a releaser (LosConfig.pages)
 * and not [here], all its pages handed to it at once. [here] (idle time,
 * a stopped world): nothing is handed over, and what the releaser has not
 * done yet is cancelled and done here. Returns the bytes given back. */
#define LOS_RELEASE_SLICE ((size_t)1024 * 1024)
/* What giving back one block counts for against a slice, however small it
 * is: at most four of them a slice. */
#define LOS_FREE_WORK (LOS_RELEASE_SLICE / 4)
TIDE_INTERNAL size_t los_release_some(LosSpace *s, size_t max_bytes, int here);
/* The obtained bytes of the retired objects not yet given back. */
TIDE_INTERNAL size_t los_retired_bytes(const LosSpace *s);
/* While on, new objects are born marked. */
TIDE_INTERNAL void los_set_allocate_black(LosSpace *s, int on);

/* The start of the object [addr] points at or into, else NULL. O(log n). */
TIDE_INTERNAL void *los_object_containing(const LosSpace *s, const void *addr);

static inline LosObject *los_header(const void *obj)
{
    return (LosObject *)(void *)((char *)(uintptr_t)obj - sizeof(LosObject));
}
static inline size_t los_object_size(const void *obj) { return los_header(obj)->size; }
static inline int los_has_refs(const void *obj) { return los_header(obj)->kind == LOS_REFS; }

/* A concurrent marker's view (as major.h's): the objects' addresses,
 * ascending, copied while the world is stopped; objects allocated after
 * are black, and none is freed before the next sweep (the owner defers
 * los_free of released storage while a marker runs). */
TIDE_INTERNAL size_t los_count(const LosSpace *s);
TIDE_INTERNAL void los_object_addresses(const LosSpace *s, uintptr_t *out);
/* --- marks ---------------------------------------------------------------------- */
static inline int los_is_marked(const void *obj)
{
    return atomic_load_explicit(&los_header(obj)->mark, memory_order_relaxed) != 0;
}
/* 1 if the object was unmarked. For a marker that runs alone. */
static inline int los_mark(void *obj)
{
    LosObject *h = los_header(obj);
    if (atomic_load_explicit(&h->mark, memory_order_relaxed)) return 0;
    atomic_store_explicit(&h->mark, 1, memory_order_relaxed);
    return 1;
}
/* The same, exactly one of several racing markers gets 1. */
static inline int los_mark_atomic(void *obj)
{
    LosObject *h = los_header(obj);
    if (atomic_load_explicit(&h->mark, memory_order_relaxed)) return 0;
    return atomic_exchange_explicit(&h->mark, 1, memory_order_relaxed) == 0;
}
TIDE_INTERNAL void los_clear_marks(LosSpace *s);

/* --- cards ------------------------------------------------------------------------
 * [slot] must lie inside [obj]. */
static inline size_t los_card_index(const void *obj, const void *slot)
{
    return ((uintptr_t)slot - (uintptr_t)obj) >> LOS_CARD_SHIFT;
}
static inline void los_card_mark(void *obj, const void *slot)
{
    los_header(obj)->cards[los_card_index(obj, slot)] = 1;
}
static inline int los_card_is_dirty(const void *obj, const void *slot)
{
    return los_header(obj)->cards[los_card_index(obj, slot)] != 0;
}
static inline void los_card_clear(void *obj, const void *slot)
{
    los_header(obj)->cards[los_card_index(obj, slot)] = 0;
}
/* The barrier's form when only the slot is known: a lookup. 0 if [slot]
 * is in no large object. */
TIDE_INTERNAL int los_card_mark_addr(LosSpace *s, const void *slot);
/* [fn](ud, obj, lo, hi) for every maximal run of dirty cards, [lo, hi)
 * clipped to the object; with [clear] the cards are cleared as reported. */
typedef void (*los_RangeFn)(void *ud, void *obj, void *lo, void *hi);
TIDE_INTERNAL void los_visit_dirty_cards(LosSpace *s, los_RangeFn fn, void *ud, int clear);
TIDE_INTERNAL void los_clear_cards(LosSpace *s);

/* --- sweeping, walking ---------------------------------------------------------- */
/* Replace the config's on_free (the owner's context changes per sweep). */
TIDE_INTERNAL void los_set_on_free(LosSpace *s, los_OnFree on_free, void *ud);
/* Retire every unmarked object (on_free first), clear the survivors'
 * marks; returns the survivors' bytes. */
TIDE_INTERNAL size_t los_sweep(LosSpace *s);
typedef void (*los_ObjectFn)(void *ud, void *obj, size_t size, int kind);
/* [fn] on every object, ascending addresses; [fn] must not allocate or free. */
TIDE_INTERNAL void los_foreach(LosSpace *s, los_ObjectFn fn, void *ud);
TIDE_INTERNAL void los_stats(const LosSpace *s, LosStats *out);

#endif
