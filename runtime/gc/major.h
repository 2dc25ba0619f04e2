/*
 * major.h — the major heap: size-class blocks for objects of at most
 * MAJOR_MAX_OBJECT bytes (DESIGN §4.3). Larger objects go to the large
 * object space (los.h).
 *
 * A self-contained module: it knows nothing of Lua objects. The owner (the
 * collector) supplies the memory (an obtain callback with lua_Alloc's
 * contract, so that memory limits and accounting keep working), says for
 * each allocation whether the object may hold references, sets mark bits
 * while marking, and is told of every object the sweep frees (on_free).
 *
 * Memory. Arenas of N blocks (N = blocks_per_arena, at most 64) come from
 * obtain; each block is MAJOR_BLOCK_SIZE bytes, aligned to its size, so the
 * block (and its header) of any interior address is one mask away. A block
 * holds objects of one size class and one kind (with references, or
 * reference-free such as strings: the marker never scans those).
 *
 * Block layout:
 *     [MajorBlock header | slot 0 | slot 1 | ... | slot count-1 | tail]
 * The header holds the mark bitmap and the allocated bitmap (one bit per
 * slot), the free list (linked through the free slots' first word), and the
 * card bytes (one per 512 bytes of the block, header included, so a card's
 * index is address bits alone).
 *
 * Life of a block:
 *     free (in an arena, contents undefined)
 *       -> in use, swept: allocatable; its allocated bits are the truth
 *       -> unswept (major_begin_sweep, after a mark): an allocated slot
 *          holds a live object iff its mark bit is set; dead ones are freed
 *          when the block is swept (on demand by allocation of its class,
 *          by major_sweep_some, or by major_sweep_all)
 *       -> swept again, or free when nothing in it survived.
 * Arenas whose blocks are all free go back to obtain at the end of a sweep
 * (when the last unswept block has been swept) or on demand.
 *
 * Marking. Mark bits are only meaningful between the start of a mark
 * (all bits clear: the sweep clears the bits of every block it sweeps, and
 * major_clear_marks exists for an abandoned mark) and the sweep. The mark
 * must not start while blocks are unswept: major_clear_marks sweeps them
 * first. An object allocated while marking is marked if the owner asked for
 * black allocation (major_set_allocate_black).
 *
 * Threads. Everything is for the mutator thread (with the world stopped for
 * a collection) except the mark bits: major_mark_atomic and
 * major_is_marked may be used by a concurrent marker while the mutator
 * allocates (it never sweeps while marking). The plain major_mark is for a
 * marker that runs alone; it must not race with major_mark_atomic.
 * Cards are plain bytes written by the mutator's barrier and read and
 * cleared by a collection that stops the world.
 */
#ifndef TIDE_GC_MAJOR_H
#define TIDE_GC_MAJOR_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "luaconf.h"

/* --- geometry ---------------------------------------------------------------- */
#define MAJOR_BLOCK_SHIFT 14
#define MAJOR_BLOCK_SIZE ((size_t)1 << MAJOR_BLOCK_SHIFT) /* 16 KiB */
#define MAJOR_BLOCK_MASK (MAJOR_BLOCK_SIZE - 1)
#define MAJOR_CARD_SHIFT 9
#define MAJOR_CARD_SIZE ((size_t)1 << MAJOR_CARD_SHIFT) /* 512 bytes */
#define MAJOR_CARDS_PER_BLOCK (MAJOR_BLOCK_SIZE >> MAJOR_CARD_SHIFT) /* 32 */
#define MAJOR_MIN_OBJECT ((size_t)16)
#define MAJOR_MAX_OBJECT ((size_t)8192) /* larger objects: los.h */
#define MAJOR_ALIGN ((size_t)16)        /* every slot is 16-byte aligned */
/* Bitmap words: enough bits for the slots of the smallest class. */
#define MAJOR_BITMAP_WORDS (MAJOR_BLOCK_SIZE / MAJOR_MIN_OBJECT / 64) /* 16 */
/* Upper bound on the number of size classes (the table is computed once). */
#define MAJOR_MAX_CLASSES 64
#define MAJOR_MAX_ARENA_BLOCKS 64

/* Kinds of objects (a block holds one kind). */
#define MAJOR_REFS 0   /* may reference other objects: the marker scans it */
#define MAJOR_NOREFS 1 /* never references anything (strings): never scanned */
#define MAJOR_KINDS 2

/* Block states (swept or not is the sweep epoch's: major_block_unswept). */
#define MAJOR_BLOCK_SWEPT 1

typedef void *(*major_Obtain)(void *ud, void *block, size_t osize, size_t nsize);
typedef void (*major_OnFree)(void *ud, void *obj, size_t size);
/* Fresh pages faulted in on another thread (major_reserve): 1 if every page
 * of [addr, addr + len) will be faulted in writable soon, without its
 * contents changing; 0 if the heap must write them itself. */
typedef int (*major_Prefault)(void *ud, void *addr, size_t len);
/* [addr, addr + len) is about to go back to obtain: once this returns, no
 * page of it may be faulted in by the other thread. */
typedef void (*major_PrefaultCancel)(void *ud, void *addr, size_t len);

/* An arena: [base, base + nblocks * MAJOR_BLOCK_SIZE). */
typedef struct MajorArena {
    uintptr_t base;      /* first block, MAJOR_BLOCK_SIZE-aligned */
    void *raw;           /* what obtain returned */
    size_t raw_size;
    uint64_t used;       /* bit i: block i in use */
    uint64_t touched;    /* bit i: block i's pages have been written, so
                            that taking it faults no page in (major_reserve) */
    unsigned nblocks;
    const uint8_t *sweep_epoch; /* the heap's, which major_begin_sweep
                                   moves: a block whose own differs is
                                   unswept */
} MajorArena;

/* The header at the start of every block in use. */
typedef struct MajorBlock {
    struct MajorBlock *next;   /* in its class's available or unswept list */
    MajorArena *arena;
    void *free_list;           /* free slots below bump, ascending, linked
                                  through word 0; valid only while swept */
    uint32_t obj_size;         /* slot size (the class's size) */
    uint32_t recip;            /* ceil(2^32 / obj_size): slot = off * recip >> 32 */
    uint32_t black_epoch;      /* the heap's black_epoch if taken empty under
                                  black allocation, else 0 (major_set_allocated) */
    uint16_t count;            /* slots in the block */
    uint16_t nfree;            /* free slots (swept blocks): the free list's
                                  and those from bump up */
    uint16_t bump;             /* slots from here up were never handed out
                                  since the block was taken: a block taken
                                  empty is filled in order, with no list to
                                  build first (a sweep lists every free
                                  slot and sets it to count) */
    uint8_t class_index;
    uint8_t kind;              /* MAJOR_REFS or MAJOR_NOREFS */
    uint8_t state;             /* MAJOR_BLOCK_SWEPT or MAJOR_BLOCK_EVACUATING */
    uint8_t swept_epoch;       /* the heap's sweep_epoch when last swept
                                  (or taken): unswept iff they differ */
    uint8_t listed;            /* the owner's: on its list of blocks with dirty
                                  cards (0 when the block is taken) */
    uint8_t cards[MAJOR_CARDS_PER_BLOCK];      /* 1 = dirty */
    _Atomic uint64_t mark[MAJOR_BITMAP_WORDS]; /* bit i: slot i reached */
    uint64_t alloc[MAJOR_BITMAP_WORDS];        /* bit i: slot i holds an object */
} MajorBlock;

/* Where slot 0 begins: the header rounded up to the slot alignment. */
#define MAJOR_OBJ_START ((sizeof(MajorBlock) + MAJOR_ALIGN - 1) & ~(MAJOR_ALIGN - 1))
#define MAJOR_PAYLOAD (MAJOR_BLOCK_SIZE - MAJOR_OBJ_START)

typedef struct MajorConfig {
    major_Obtain obtain;   /* required */
    void *obtain_ud;
    major_OnFree on_free;  /* may be NULL; called by sweeps with the dead
                              object and its slot size, before the slot is
                              reused; it must not call into the heap */
    void *free_ud;
    unsigned blocks_per_arena; /* 1..64; 0 = the default (64: 1 MiB arenas) */
    unsigned max_blocks_per_arena; /* 0 = blocks_per_arena; else arenas grow
                                      with the heap (a new one is a quarter of
                                      the blocks so far) up to this, so that a
                                      big heap is not obtained 256 KiB a call */
    major_Prefault prefault;   /* may be NULL: the reserve is written by the
                                  caller of major_reserve */
    major_PrefaultCancel prefault_cancel; /* required with prefault */
    void *prefault_ud;
} MajorConfig;

typedef struct MajorHeap MajorHeap;

typedef struct MajorStats {
    size_t arenas;            /* arenas held */
    size_t arena_bytes;       /* bytes obtained for arenas (slack included) */
    size_t blocks;            /* blocks in arenas */
    size_t blocks_used;       /* blocks holding a size class */
    size_t blocks_warm_free;  /* free blocks whose pages were written (major_reserve) */
    size_t blocks_cold_free;  /* free blocks never written */
    size_t blocks_unswept;
    size_t block_bytes;       /* blocks_used * MAJOR_BLOCK_SIZE */
    size_t slot_bytes;        /* bytes of allocated slots (dead ones in unswept
                                 blocks included) */
    size_t live_bytes_last_sweep; /* slot bytes surviving the last complete sweep */
    double fragmentation;     /* 1 - slot_bytes / block_bytes (0 when empty):
                                 headers, tails and free slots */
    uint64_t obtain_calls;    /* calls of obtain (arenas, descriptors, arrays) */
    size_t blocks_per_class[MAJOR_KINDS][MAJOR_MAX_CLASSES];
} MajorStats;

/* --- the heap ------------------------------------------------------------------ */
/* NULL when obtain fails. */
TIDE_INTERNAL MajorHeap *major_create(const MajorConfig *cfg);
/* Gives every arena and the heap back to obtain. Calls no on_free: the
 * owner frees what its objects own first (major_foreach). */
TIDE_INTERNAL void major_destroy(MajorHeap *h);

/* --- size classes --------------------------------------------------------------
 * Computed once (thread-safe: the first major_create or any of these). */
TIDE_INTERNAL int major_class_count(void);
TIDE_INTERNAL size_t major_class_size(int c);
/* The smallest class whose slots hold [n] bytes (1 <= n <= MAJOR_MAX_OBJECT). */
TIDE_INTERNAL int major_class_of(size_t n);
/* Slots per block of class [c]. */
TIDE_INTERNAL unsigned major_class_slots(int c);

/* --- allocation -----------------------------------------------------------------
 * A zeroed object of [n] bytes (1 <= n <= MAJOR_MAX_OBJECT) of [kind],
 * 16-byte aligned; NULL when a new arena is needed and obtain refuses it.
 * May sweep blocks (calling on_free) and so free dead objects. */
TIDE_INTERNAL void *major_alloc(MajorHeap *h, size_t n, int kind);
/* The same for a nursery collection's promotion: the slot's contents are
 * left as they are (the copy overwrites all of it), and when the class
 * needs a block, one written ahead (major_reserve) is taken before any
 * unswept block is swept — sweeping is the lazy sweep's work, for its
 * steps and idle time, not the collection's pause. */
TIDE_INTERNAL void *major_alloc_promotion(MajorHeap *h, size_t n, int kind);
/* While on, new objects are born marked (during a concurrent mark). */
TIDE_INTERNAL void major_set_allocate_black(MajorHeap *h, int on);

/* A caller that allocates many objects in a row (a nursery collection's
 * promotion, minor.c) may keep the block of its last major_alloc_promotion
 * (major_block_of the slot) and take further slots of it inline with
 * major_take_slot while nfree > 0, passing the heap's black allocation as
 * major_black_state gave it, as long as nothing else allocates, sweeps or
 * changes black allocation meanwhile; it then adds those slots' sizes with
 * major_add_slot_bytes. */
TIDE_INTERNAL void major_black_state(const MajorHeap *h, int *black, uint32_t *black_epoch);
TIDE_INTERNAL void major_add_slot_bytes(MajorHeap *h, size_t bytes);

/* --- finding objects ------------------------------------------------------------ */
/* The start of the live object [addr] points at or into, or NULL (not in
 * the heap, a header, a block's tail, a free slot, a dead object of an
 * unswept block). O(log arenas). */
TIDE_INTERNAL void *major_object_containing(const MajorHeap *h, const void *addr);
/* Does [addr] lie in one of the heap's arenas (in use or not)? */
TIDE_INTERNAL int major_in_heap(const MajorHeap *h, const void *addr);

/* --- a concurrent marker's view ------------------------------------------------
 * A marker on another thread reads object fields while the mutator stores
 * into them, so a reference it reads may be torn (the tag of one value, the
 * payload of another) and point anywhere. It tells real objects from such
 * words with a copy of the arenas taken while the world is stopped (the
 * start of a major cycle): blocks in use then keep their class and slots
 * until the next sweep begins, which is after the mark, and no arena is
 * given back before it. Objects allocated after the copy are black (they
 * need no marking), whether or not the view covers them. */
typedef struct MajorArenaView {
    uintptr_t base;
    uint64_t used;      /* the arena's blocks in use when the view was taken */
    unsigned nblocks;
} MajorArenaView;
/* Keep [blocks] free blocks whose pages have been written (warm): a block
 * taken from them faults no page in, as one of fresh memory would, in a
 * nursery collection's promotion. Writes the pages of at most
 * [max_blocks] blocks, or hands them to the config's prefault, adding
 * arenas as needed; returns how many. The release of empty arenas keeps
 * the reserve. */
TIDE_INTERNAL size_t major_reserve(MajorHeap *h, size_t blocks, size_t max_blocks);
TIDE_INTERNAL size_t major_warm_free_blocks(const MajorHeap *h);
TIDE_INTERNAL size_t major_arena_count(const MajorHeap *h);
/* Fill out[0 .. major_arena_count) in ascending address order (world stopped). */
TIDE_INTERNAL void major_arena_views(const MajorHeap *h, MajorArenaView *out);
/* [a] if it is the start of an allocated slot of a block in use in the view
 * v[0..n), else NULL. Safe on any word, from any thread, while the blocks
 * the view names are neither swept nor freed. [*hint] is the arena the
 * caller's last lookup found (any value at first): it is tried before the
 * search, and set to the arena [a] lies in when the search finds one. */
TIDE_INTERNAL void *major_view_object(const MajorArenaView *v, size_t n, uintptr_t a, size_t *hint);

/* --- per-object facts: [obj] is an object start returned by major_alloc ----------- */
static inline MajorBlock *major_block_of(const void *addr)
{
    return (MajorBlock *)(void *)((uintptr_t)addr & ~(uintptr_t)MAJOR_BLOCK_MASK);
}
static inline unsigned major_slot_of(const MajorBlock *b, const void *obj)
{
    uint64_t off = (uint64_t)((uintptr_t)obj - (uintptr_t)b - MAJOR_OBJ_START);
    return (unsigned)((off * b->recip) >> 32);
}
static inline size_t major_object_size(const void *obj)
{
    return major_block_of(obj)->obj_size;
}
/* May the object hold references (is its block scanned by the marker)? */
static inline int major_has_refs(const void *obj)
{
    return major_block_of(obj)->kind == MAJOR_REFS;
}

/* Slot [i] of [b] now holds an object. Under black allocation its mark is
 * set first, and the allocated bit published after it (release): a
 * concurrent marker that finds the bit set (major_view_object, acquire)
 * finds the mark too, and never takes an object being made for one of the
 * snapshot's.
 *
 * A concurrent marker sets marks in any block that holds an object not
 * yet marked, so setting one here is an atomic read-modify-write — except
 * in a block taken empty since black allocation began (black_epoch): every
 * object in it was marked when made and its free slots are named by
 * nothing, so a marker only ever reads its mark words (major_mark_atomic
 * tests before it writes), and a plain load and store is enough. That is
 * nearly every promotion while a cycle marks; the locked instruction was
 * half the cost of a promotion's allocation (bench/gc: perf annotate). */
static inline void major_set_allocated(MajorBlock *b, unsigned i, int black, uint32_t black_epoch)
{
    uint64_t bit = (uint64_t)1 << (i & 63);
    if (black) {
        _Atomic uint64_t *w = &b->mark[i >> 6];
        if (b->black_epoch == black_epoch)
            atomic_store_explicit(w, atomic_load_explicit(w, memory_order_relaxed) | bit, memory_order_relaxed);
        else
            atomic_fetch_or_explicit(w, bit, memory_order_relaxed);
    }
    __atomic_store_n(&b->alloc[i >> 6], b->alloc[i >> 6] | bit, __ATOMIC_RELEASE);
}

/* A free slot of the swept block [b] (nfree > 0), allocated, contents as
 * they are: the free list's next, or else the next slot never handed out.
 * [black], [black_epoch]: the heap's black allocation. */
static inline void *major_take_slot(MajorBlock *b, int black, uint32_t black_epoch)
{
    lua_assert(b->state == MAJOR_BLOCK_SWEPT && b->nfree > 0);
    char *p = b->free_list;
    unsigned i;
    if (p != NULL) {
        memcpy(&b->free_list, p, sizeof(void *));
        i = major_slot_of(b, p);
    } else {
        lua_assert(b->bump < b->count);
        i = b->bump++;
        p = (char *)b + MAJOR_OBJ_START + (size_t)i * b->obj_size;
    }
    b->nfree--;
    major_set_allocated(b, i, black, black_epoch);
    return p;
}

/* Is [b] waiting for its sweep? Beginning a sweep makes every block in use
 * unswept at once, by moving the heap's epoch (major_begin_sweep). */
static inline int major_block_unswept(const MajorBlock *b)
{
    return b->swept_epoch != *b->arena->sweep_epoch;
}

/* Is slot [i] of [b] a live object (as major_object_containing defines
 * live)? */
static inline int major_slot_is_live(const MajorBlock *b, unsigned i)
{
    uint64_t bit = (uint64_t)1 << (i & 63);
    if (!(b->alloc[i >> 6] & bit)) return 0;
    if (major_block_unswept(b))
        return (atomic_load_explicit(&b->mark[i >> 6], memory_order_relaxed) & bit) != 0;
    return 1;
}

/* --- mark bits ---------------------------------------------------------------------- */
static inline int major_is_marked(const void *obj)
{
    MajorBlock *b = major_block_of(obj);
    unsigned i = major_slot_of(b, obj);
    return (int)((atomic_load_explicit(&b->mark[i >> 6], memory_order_relaxed) >> (i & 63)) & 1);
}
/* Set the mark bit; 1 if it was clear. For a marker that runs alone. */
static inline int major_mark(void *obj)
{
    MajorBlock *b = major_block_of(obj);
    unsigned i = major_slot_of(b, obj);
    uint64_t bit = (uint64_t)1 << (i & 63);
    uint64_t w = atomic_load_explicit(&b->mark[i >> 6], memory_order_relaxed);
    if (w & bit) return 0;
    atomic_store_explicit(&b->mark[i >> 6], w | bit, memory_order_relaxed);
    return 1;
}
/* The same, safe against other threads marking in the same block: exactly
 * one caller gets 1. Relaxed: the marker publishes the object's contents
 * through its own work queues, not through the bit. */
static inline int major_mark_atomic(void *obj)
{
    MajorBlock *b = major_block_of(obj);
    unsigned i = major_slot_of(b, obj);
    uint64_t bit = (uint64_t)1 << (i & 63);
    if (atomic_load_explicit(&b->mark[i >> 6], memory_order_relaxed) & bit) return 0;
    return (atomic_fetch_or_explicit(&b->mark[i >> 6], bit, memory_order_relaxed) & bit) == 0;
}
/* Clear every mark bit (an abandoned mark). Sweeps unswept blocks first. */
TIDE_INTERNAL void major_clear_marks(MajorHeap *h);

/* --- cards ---------------------------------------------------------------------------
 * One byte per 512 bytes of block; [addr] is the stored-into slot, which
 * must lie in a block in use (an object of this heap). */
static inline void major_card_mark(const void *addr)
{
    major_block_of(addr)->cards[((uintptr_t)addr & MAJOR_BLOCK_MASK) >> MAJOR_CARD_SHIFT] = 1;
}
static inline int major_card_is_dirty(const void *addr)
{
    return major_block_of(addr)->cards[((uintptr_t)addr & MAJOR_BLOCK_MASK) >> MAJOR_CARD_SHIFT] != 0;
}
static inline void major_card_clear(const void *addr)
{
    major_block_of(addr)->cards[((uintptr_t)addr & MAJOR_BLOCK_MASK) >> MAJOR_CARD_SHIFT] = 0;
}
/* Call [fn] on every maximal run of dirty cards of blocks in use, as the
 * address range [lo, hi) it covers, clipped to the block's slots (so lo is
 * never inside the header); the objects overlapping it are found with
 * major_object_containing / major_object_size. With [clear], the cards
 * are cleared as they are reported. Blocks in address order. */
typedef void (*major_RangeFn)(void *ud, void *lo, void *hi);
TIDE_INTERNAL void major_visit_dirty_cards(MajorHeap *h, major_RangeFn fn, void *ud, int clear);
/* The same for the one block [b] (which must be in use). */
TIDE_INTERNAL void major_visit_block_dirty_cards(MajorBlock *b, major_RangeFn fn, void *ud, int clear);
/* Is [b] a block of one of the heap's arenas that holds a size class now?
 * (A block the owner listed may have been released since.) */
TIDE_INTERNAL int major_block_in_use(const MajorHeap *h, const MajorBlock *b);
TIDE_INTERNAL void major_clear_cards(MajorHeap *h);

/* --- sweeping ---------------------------------------------------------------------------- */
/* Replace the config's on_free (the owner's context changes per sweep). */
TIDE_INTERNAL void major_set_on_free(MajorHeap *h, major_OnFree on_free, void *ud);
/* The mark is over: every block in use becomes unswept. Blocks still
 * unswept from the previous cycle are swept first. */
TIDE_INTERNAL void major_begin_sweep(MajorHeap *h);
/* Sweep up to [max_blocks] unswept blocks (idle time); returns how many
 * were swept. When the last one is swept, empty arenas are released. */
TIDE_INTERNAL size_t major_sweep_some(MajorHeap *h, size_t max_blocks);
/* Sweep every unswept block, release empty arenas; returns the slot bytes
 * live afterwards (live_bytes_last_sweep). */
TIDE_INTERNAL size_t major_sweep_all(MajorHeap *h);
/* Sweep the block holding [obj] now if it is unswept; returns the bytes
 * live in the block afterwards. */
TIDE_INTERNAL size_t major_sweep_block_of(MajorHeap *h, void *obj);
/* Blocks still unswept. */
TIDE_INTERNAL size_t major_unswept_count(const MajorHeap *h);
/* Give back every arena whose blocks are all free; returns how many. */
TIDE_INTERNAL size_t major_release_empty_arenas(MajorHeap *h);

/* --- walking ---------------------------------------------------------------------------- */
/* [fn] on every live object (as major_object_containing defines live),
 * blocks in address order, slots ascending. [fn] must not allocate. */
typedef void (*major_ObjectFn)(void *ud, void *obj, size_t size, int kind);
TIDE_INTERNAL void major_foreach(MajorHeap *h, major_ObjectFn fn, void *ud);

TIDE_INTERNAL void major_stats(const MajorHeap *h, MajorStats *out);

/* --- evacuation ----------------------------------------------------------------------
 * Between the end of a mark and major_begin_sweep, with every block swept
 * (as at the start of any mark), the owner may copy the marked objects of
 * sparse blocks into other blocks of their class (evacuate.c). The heap
 * only finds blocks and slots for it: the owner moves the objects, fixes
 * every reference to them, and moves the marks (the copy's set, the
 * original's cleared), so that the sweep frees the originals and, when
 * nothing marked is left in it, the block.
 *
 * An evacuating block is swept but off the allocation lists (current and
 * available): no allocation takes a slot of it until major_begin_sweep,
 * which sweeps it like every other block in use (and so ends the state).
 * Its allocated bits stay the truth for major_object_containing and
 * major_foreach, as in any swept block. */
#define MAJOR_BLOCK_EVACUATING 3

/* Slots of [b] that are allocated and marked. */
static inline unsigned major_block_marked_count(const MajorBlock *b)
{
    unsigned words = ((unsigned)b->count + 63) >> 6, n = 0;
    for (unsigned w = 0; w < words; w++)
        n += (unsigned)__builtin_popcountll(
            (unsigned long long)(b->alloc[w] & atomic_load_explicit(&b->mark[w], memory_order_relaxed)));
    return n;
}
/* Clear the mark bit of [obj] (its marked copy lives elsewhere now). For a
 * marker that runs alone, as major_mark. */
static inline void major_unmark(void *obj)
{
    MajorBlock *b = major_block_of(obj);
    unsigned i = major_slot_of(b, obj);
    uint64_t w = atomic_load_explicit(&b->mark[i >> 6], memory_order_relaxed);
    atomic_store_explicit(&b->mark[i >> 6], w & ~((uint64_t)1 << (i & 63)), memory_order_relaxed);
}
/* [fn] on every block in use, in address order. [fn] must not allocate in
 * the heap. */
typedef void (*major_BlockFn)(void *ud, MajorBlock *b);
TIDE_INTERNAL void major_foreach_block(MajorHeap *h, major_BlockFn fn, void *ud);
/* Blocks of the heap's arenas that hold no class now: each can become a
 * block of any class without asking obtain for memory. */
TIDE_INTERNAL size_t major_free_block_count(const MajorHeap *h);
/* Make the swept block [b] evacuating (see above); 0 (and nothing done)
 * when it is not swept. Then, once every block is marked, before the
 * first copy: major_evacuate_detach takes them all off the lists. */
TIDE_INTERNAL int major_evacuate_block(MajorHeap *h, MajorBlock *b);
TIDE_INTERNAL void major_evacuate_detach(MajorHeap *h);
/* An uninitialized slot of class [c] and [kind] for a copy: from a block
 * of the class with a free slot that is not evacuating, else from a free
 * block of an arena already held, else — only with [grow] — from a new
 * arena. Never sweeps. NULL when there is no such slot (or obtain refuses
 * the arena). Marked under black allocation, like major_alloc. */
TIDE_INTERNAL void *major_alloc_in_class(MajorHeap *h, int c, int kind, int grow);

#endif
