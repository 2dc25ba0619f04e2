/*
 * major.c — the size-class major heap (see major.h for the model).
 *
 * Data structures and their invariants:
 *
 *  - arenas[0..narenas) is sorted by base address; arena i covers
 *    [base, base + nblocks * MAJOR_BLOCK_SIZE). [lo, hi) bounds them all, so
 *    most addresses outside the heap are rejected by two compares before
 *    the binary search. Arena.used has bit i set iff block i is in use
 *    (has a valid header); a free block's memory is never read.
 *  - arena_hint: no arena at an index below it has a free block. Blocks are
 *    taken from the lowest-addressed arena that has one, so a heap that
 *    shrinks empties its high arenas first and can give them back.
 *  - Every block in use is in exactly one of these places:
 *        current[kind][class]   the block allocation pops from (swept)
 *        avail[kind][class]     swept, with free slots, not current
 *        unswept[kind][class]   waiting for its sweep
 *        nowhere                swept and full, or unswept in an arena not
 *                               yet prepared (found again through the
 *                               arenas by prepare_some)
 *    The lists are singly linked stacks (through MajorBlock.next): only
 *    major_sweep_block_of takes a block from the middle, walking its
 *    class's unswept list.
 *  - In a swept block: alloc bit i set iff slot i holds an object; the free
 *    list holds exactly the other slots below bump, ascending; nfree is
 *    its length plus count - bump; mark bits are clear except for objects marked since (a
 *    mark in progress, or black allocation).
 *  - In an unswept block: alloc bits are as they were at the end of the
 *    mark; the live objects are those with both bits set. The free list is
 *    stale and unused.
 *  - slot_bytes = sum over blocks in use of popcount(alloc) * obj_size.
 *  - A block is unswept iff its swept_epoch differs from the heap's
 *    sweep_epoch, which every arena points to (major_begin_sweep moves
 *    it once for them all). The unswept
 *    blocks of arenas[0..prepare_next) are on the unswept lists; those of
 *    later arenas are on none yet (prepare_some lists them).
 *  - nunswept = the number of unswept blocks; "sweeping" is set from
 *    major_begin_sweep until it reaches 0.
 */
#include "major.h"

#include <string.h>

/* --- size classes ------------------------------------------------------------
 * Geometric, 12.5% apart (at least 16 bytes apart, so the small classes are
 * every multiple of 16 up to 144), then each class is widened to the
 * largest multiple of 16 that still fits the same number of slots in a
 * block: the space a class would leave at the end of its blocks goes into
 * its slots instead. Classes that widen to the same size merge. The top
 * classes are therefore coarse (three slots, two, one per block): a 16 KiB
 * block cannot do better, and objects above the one-per-block size of the
 * second-to-last class (about 8 KiB) take a block each. */

static uint16_t class_size[MAJOR_MAX_CLASSES];
static uint16_t class_slots[MAJOR_MAX_CLASSES];
static uint32_t class_recip[MAJOR_MAX_CLASSES];
static int nclasses;
/* Sizes up to SMALL_LOOKUP_MAX: class_small[(n + 15) >> 4]. */
#define SMALL_LOOKUP_MAX 1024
static uint8_t class_small[SMALL_LOOKUP_MAX / 16 + 1];
/* Larger sizes: 8 buckets per power of two (the 3 bits after the leading
 * one of n - 1), each giving the class of its smallest size; the lookup
 * then steps up while the class is too small (at most once or twice: the
 * classes are about as far apart as the buckets are wide). */
#define LOG_LOOKUP_BASE 10 /* floor(log2(SMALL_LOOKUP_MAX)) */
#define LOG_LOOKUP_LEVELS 3 /* 2^10 .. 2^13 - 1 covers n - 1 < 8192 */
static uint8_t class_log[LOG_LOOKUP_LEVELS * 8];

static atomic_int classes_state; /* 0: not built, 1: building, 2: ready */

static size_t round16(size_t n) { return (n + 15) & ~(size_t)15; }

static int slow_class_of(size_t n)
{
    int c = 0;
    while (class_size[c] < n) c++;
    return c;
}

static void build_classes(void)
{
    size_t s = MAJOR_MIN_OBJECT, prev = 0;
    int nc = 0;
    for (;;) {
        size_t slots = MAJOR_PAYLOAD / s;
        size_t fill = (MAJOR_PAYLOAD / slots) & ~(size_t)15;
        if (fill > prev) {
            class_size[nc] = (uint16_t)fill;
            class_slots[nc] = (uint16_t)(MAJOR_PAYLOAD / fill);
            /* ceil(2^32 / size): exact division for offsets below the
             * block size, since off * size < 2^28 < 2^32 (tested). */
            class_recip[nc] = (uint32_t)((((uint64_t)1 << 32) + fill - 1) / fill);
            nc++;
            prev = fill;
        }
        if (fill >= MAJOR_MAX_OBJECT) break;
        size_t next = round16(fill + fill / 8);
        s = next < fill + 16 ? fill + 16 : next;
    }
    nclasses = nc;
    for (size_t i = 0; i <= SMALL_LOOKUP_MAX / 16; i++)
        class_small[i] = (uint8_t)slow_class_of(i == 0 ? 1 : i * 16);
    for (int l = 0; l < LOG_LOOKUP_LEVELS; l++)
        for (int m = 0; m < 8; m++) {
            /* smallest n with floor(log2(n - 1)) == base + l and mantissa m */
            size_t nmin = (((size_t)8 + (size_t)m) << (LOG_LOOKUP_BASE + l - 3)) + 1;
            class_log[l * 8 + m] = (uint8_t)slow_class_of(nmin);
        }
}

static void classes_init(void)
{
    if (atomic_load_explicit(&classes_state, memory_order_acquire) == 2) return;
    int expected = 0;
    if (atomic_compare_exchange_strong(&classes_state, &expected, 1)) {
        build_classes();
        atomic_store_explicit(&classes_state, 2, memory_order_release);
        return;
    }
    /* Another thread is building the table: a few microseconds. */
    while (atomic_load_explicit(&classes_state, memory_order_acquire) != 2) {
    }
}

/* The lookup proper; the tables are built (every heap builds them first). */
static inline int class_of(size_t n)
{
    if (n <= SMALL_LOOKUP_MAX) return class_small[(n + 15) >> 4];
    size_t m1 = n - 1;
    int l = 63 - __builtin_clzll((unsigned long long)m1); /* 10..12 */
    int c = class_log[(l - LOG_LOOKUP_BASE) * 8 + (int)((m1 >> (l - 3)) & 7)];
    while (class_size[c] < n) c++;
    return c;
}

int major_class_count(void)
{
    classes_init();
    return nclasses;
}

size_t major_class_size(int c)
{
    classes_init();
    return c >= 0 && c < nclasses ? class_size[c] : 0;
}

unsigned major_class_slots(int c)
{
    classes_init();
    return c >= 0 && c < nclasses ? class_slots[c] : 0;
}

int major_class_of(size_t n)
{
    classes_init();
    if (n == 0 || n > MAJOR_MAX_OBJECT) return -1;
    return class_of(n);
}

/* --- the heap ------------------------------------------------------------------ */

typedef struct BlockList {
    MajorBlock *head;
} BlockList;

/* Blocks handed to the prefaulter that the heap remembers, in order. */
#define HANDED_MAX 256

struct MajorHeap {
    MajorConfig cfg;
    MajorArena **arenas; /* sorted by base */
    size_t narenas, arenas_cap;
    size_t blocks_total;     /* the arenas' blocks, used or free */
    uintptr_t lo, hi;
    size_t arena_hint;
    MajorBlock *current[MAJOR_KINDS][MAJOR_MAX_CLASSES];
    BlockList avail[MAJOR_KINDS][MAJOR_MAX_CLASSES];
    BlockList unswept[MAJOR_KINDS][MAJOR_MAX_CLASSES];
    size_t nunswept;        /* unswept blocks, listed or not yet */
    int sweeping;
    uint8_t sweep_epoch;    /* moved by each major_begin_sweep */
    size_t prepare_next;    /* arenas below this index have their unswept
                               blocks on the unswept lists (prepare_some) */
    unsigned sweep_cursor;  /* where major_sweep_some looks first: kind * nclasses + class */
    size_t blocks_used;
    size_t warm_free;       /* free blocks whose pages have been touched */
    size_t cold_free;       /* free blocks never touched (in arenas added
                               while the reserve was short): major_reserve
                               looks for them only while there are some */
    size_t reserve_blocks;  /* warm free blocks that the release of empty
                               arenas keeps (major_reserve) */
    size_t blocks_per_class[MAJOR_KINDS][MAJOR_MAX_CLASSES];
    size_t slot_bytes;
    size_t live_last_sweep;
    size_t sweep_live;      /* live bytes found by the sweep in progress */
    uint64_t obtain_calls;
    int allocate_black;
    uint32_t black_epoch;   /* moved each time black allocation begins (never 0) */
    int in_refill;          /* the allocator is looking for a block */
    int release_pending;    /* a sweep ended inside refill: release after it */
    /* Blocks handed to the prefaulter, oldest first (a ring; one handed
     * while it is full is not listed). The prefaulter serves them in that
     * order, so the oldest is the likeliest to be faulted in already:
     * take_free_block takes it first. By address it would take the newest,
     * since arenas come below the others (mmap) and the reserve warms the
     * lowest first. */
    struct {
        MajorArena *arena; /* NULL once the arena is freed */
        unsigned block;
    } handed[HANDED_MAX];
    unsigned handed_head, handed_n;
};

/* How many unswept blocks of other classes an allocation may sweep to find
 * an empty block before it asks for a new arena (bounds that pause). */
#define SWEEP_FOR_FREE_BLOCK 32
/* How many arenas an allocation may list (prepare_some) looking for an
 * unswept block of its class before it takes a free block instead. */
#define PREPARE_FOR_REFILL 4
/* How many unswept blocks of its own class an allocation may sweep
 * looking for a free slot before it takes a free block instead (the rest
 * is swept in steps and idle time). Unbounded, a nursery collection
 * promoting into a class whose blocks came out of the last mark nearly
 * full swept block after block in its pause: 1.8–3.7 ms right after a
 * cycle's final pause in samples/streaming, whose loading screens compact
 * the heap. */
#define SWEEP_FOR_REFILL 8

static void *heap_obtain(MajorHeap *h, void *block, size_t osize, size_t nsize)
{
    h->obtain_calls++;
    return h->cfg.obtain(h->cfg.obtain_ud, block, osize, nsize);
}

MajorHeap *major_create(const MajorConfig *cfg)
{
    classes_init();
    if (cfg == NULL || cfg->obtain == NULL || cfg->blocks_per_arena > MAJOR_MAX_ARENA_BLOCKS) return NULL;
    MajorHeap *h = cfg->obtain(cfg->obtain_ud, NULL, 0, sizeof(MajorHeap));
    if (h == NULL) return NULL;
    memset(h, 0, sizeof *h);
    h->cfg = *cfg;
    if (h->cfg.blocks_per_arena == 0) h->cfg.blocks_per_arena = MAJOR_MAX_ARENA_BLOCKS;
    if (h->cfg.max_blocks_per_arena < h->cfg.blocks_per_arena) h->cfg.max_blocks_per_arena = h->cfg.blocks_per_arena;
    if (h->cfg.max_blocks_per_arena > MAJOR_MAX_ARENA_BLOCKS) h->cfg.max_blocks_per_arena = MAJOR_MAX_ARENA_BLOCKS;
    h->obtain_calls = 1;
    return h;
}

static inline uint64_t arena_full_mask(const MajorArena *a)
{
    return a->nblocks == 64 ? ~(uint64_t)0 : (((uint64_t)1 << a->nblocks) - 1);
}

/* The arena's free blocks whose pages have been touched (warm), and never
 * touched (cold). */
static unsigned arena_warm_free(const MajorArena *a)
{
    return (unsigned)__builtin_popcountll((unsigned long long)(~a->used & a->touched & arena_full_mask(a)));
}

static unsigned arena_cold_free(const MajorArena *a)
{
    return (unsigned)__builtin_popcountll((unsigned long long)(~a->used & ~a->touched & arena_full_mask(a)));
}

static void free_arena(MajorHeap *h, MajorArena *a)
{
    for (unsigned k = 0; k < h->handed_n; k++) {
        unsigned i = (h->handed_head + k) % HANDED_MAX;
        if (h->handed[i].arena == a) h->handed[i].arena = NULL;
    }
    if (h->cfg.prefault != NULL && a->touched != 0) h->cfg.prefault_cancel(h->cfg.prefault_ud, a->raw, a->raw_size);
    h->warm_free -= arena_warm_free(a);
    h->cold_free -= arena_cold_free(a);
    h->blocks_total -= a->nblocks;
    heap_obtain(h, a->raw, a->raw_size, 0);
    heap_obtain(h, a, sizeof *a, 0);
}

void major_destroy(MajorHeap *h)
{
    if (h == NULL) return;
    for (size_t i = 0; i < h->narenas; i++) free_arena(h, h->arenas[i]);
    if (h->arenas != NULL) heap_obtain(h, h->arenas, h->arenas_cap * sizeof(MajorArena *), 0);
    h->cfg.obtain(h->cfg.obtain_ud, h, sizeof *h, 0);
}

void major_set_allocate_black(MajorHeap *h, int on)
{
    if (on && !h->allocate_black && ++h->black_epoch == 0) h->black_epoch = 1;
    h->allocate_black = on != 0;
}

/* --- block lists ---------------------------------------------------------------
 * Singly linked through MajorBlock.next, used as stacks. */

static inline void list_push(BlockList *l, MajorBlock *b)
{
    b->next = l->head;
    l->head = b;
}

/* The lists are short-lived stacks; removal from the middle is needed only
 * by major_sweep_block_of, which walks its class's unswept list. Keeping
 * them singly linked keeps the header (and so every block's payload) as it
 * is; the walk is bounded by the blocks of one class. */
static void list_remove(BlockList *l, MajorBlock *b)
{
    MajorBlock **p = &l->head;
    while (*p != NULL && *p != b) p = &(*p)->next;
    if (*p == b) *p = b->next;
    b->next = NULL;
}

static inline MajorBlock *list_pop(BlockList *l)
{
    MajorBlock *b = l->head;
    if (b != NULL) {
        l->head = b->next;
        b->next = NULL;
    }
    return b;
}

/* --- arenas ------------------------------------------------------------------------ */

/* The position in arenas[] of the arena containing [a], or -1. */
static ptrdiff_t find_arena(const MajorHeap *h, uintptr_t a)
{
    if (a < h->lo || a >= h->hi) return -1;
    size_t lo = 0, hi = h->narenas; /* the answer is the last base <= a */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (h->arenas[mid]->base <= a)
            lo = mid;
        else
            hi = mid;
    }
    const MajorArena *ar = h->arenas[lo];
    if (a < ar->base || a - ar->base >= (size_t)ar->nblocks * MAJOR_BLOCK_SIZE) return -1;
    return (ptrdiff_t)lo;
}

static void recompute_bounds(MajorHeap *h)
{
    if (h->narenas == 0) {
        h->lo = h->hi = 0;
        return;
    }
    h->lo = h->arenas[0]->base;
    const MajorArena *last = h->arenas[h->narenas - 1];
    h->hi = last->base + (size_t)last->nblocks * MAJOR_BLOCK_SIZE;
}

/* A new arena, inserted in order; NULL when obtain refuses. */
static MajorArena *add_arena(MajorHeap *h)
{
    if (h->narenas == h->arenas_cap) {
        size_t ncap = h->arenas_cap == 0 ? 8 : h->arenas_cap * 2;
        MajorArena **na = heap_obtain(h, h->arenas, h->arenas_cap * sizeof(MajorArena *),
                                      ncap * sizeof(MajorArena *));
        if (na == NULL) return NULL;
        h->arenas = na;
        h->arenas_cap = ncap;
    }
    unsigned n = h->cfg.blocks_per_arena;
    size_t quarter = h->blocks_total / 4;
    if (quarter > n) n = quarter > h->cfg.max_blocks_per_arena ? h->cfg.max_blocks_per_arena : (unsigned)quarter;
    /* One block of slack: obtain gives no alignment beyond malloc's, and
     * blocks must be aligned to their size so that the header of any
     * interior address is addr & ~(MAJOR_BLOCK_SIZE - 1) — one mask on the
     * barrier's and the marker's paths, no lookup. */
    size_t raw_size = ((size_t)n + 1) * MAJOR_BLOCK_SIZE;
    void *raw = heap_obtain(h, NULL, 0, raw_size);
    if (raw == NULL) return NULL;
    MajorArena *a = heap_obtain(h, NULL, 0, sizeof(MajorArena));
    if (a == NULL) {
        heap_obtain(h, raw, raw_size, 0);
        return NULL;
    }
    a->raw = raw;
    a->raw_size = raw_size;
    a->base = ((uintptr_t)raw + MAJOR_BLOCK_MASK) & ~(uintptr_t)MAJOR_BLOCK_MASK;
    a->used = 0;
    a->touched = 0;
    a->nblocks = n;
    h->blocks_total += n;
    h->cold_free += n;
    a->sweep_epoch = &h->sweep_epoch;
    size_t pos = h->narenas;
    while (pos > 0 && h->arenas[pos - 1]->base > a->base) pos--;
    if (pos < h->prepare_next) h->prepare_next++; /* it has nothing unswept */
    memmove(&h->arenas[pos + 1], &h->arenas[pos], (h->narenas - pos) * sizeof(MajorArena *));
    h->arenas[pos] = a;
    h->narenas++;
    if (pos < h->arena_hint) h->arena_hint = pos;
    recompute_bounds(h);
    return a;
}

size_t major_release_empty_arenas(MajorHeap *h)
{
    size_t kept = 0, released = 0, prepared = h->prepare_next;
    for (size_t i = 0; i < h->narenas; i++) {
        MajorArena *a = h->arenas[i];
        /* (the reserve's warm blocks stay: major_reserve) */
        if (a->used == 0 && h->warm_free - arena_warm_free(a) >= h->reserve_blocks) {
            free_arena(h, a);
            released++;
            if (i < h->prepare_next) prepared--;
        } else {
            h->arenas[kept++] = a;
        }
    }
    h->narenas = kept;
    h->prepare_next = prepared;
    h->arena_hint = 0;
    recompute_bounds(h);
    return released;
}

/* Fresh memory faults its pages in when first written: a nursery
 * collection promoting into blocks never used took one page fault per 4
 * KiB promoted (samples/streaming: 70-90 a collection, 0.3-2 ms on this
 * kind of VM). The reserve's blocks are faulted in ahead, outside the
 * pauses: by the prefaulter's thread when there is one, else written
 * here; the stride is the smallest page size there is. */
#define TOUCH_STRIDE ((size_t)4096)

/* Fault in every page of block [bi] of [a] (a free block: nothing lives
 * there). A block handed to the prefaulter counts as warm at once: if it
 * is taken before the other thread gets to it, its pages fault in where
 * they are written, as they would have without a reserve. */
static void touch_block(MajorHeap *h, MajorArena *a, int bi)
{
    char *block = (char *)(a->base + (size_t)bi * MAJOR_BLOCK_SIZE);
    if (h->cfg.prefault == NULL || !h->cfg.prefault(h->cfg.prefault_ud, block, MAJOR_BLOCK_SIZE)) {
        volatile char *p = block;
        for (size_t off = 0; off < MAJOR_BLOCK_SIZE; off += TOUCH_STRIDE) p[off] = 0;
    } else if (h->handed_n < HANDED_MAX) {
        unsigned i = (h->handed_head + h->handed_n++) % HANDED_MAX;
        h->handed[i].arena = a;
        h->handed[i].block = (unsigned)bi;
    }
    a->touched |= (uint64_t)1 << bi;
    h->warm_free++;
    h->cold_free--;
}

/* Touch [a]'s free blocks not yet touched while the reserve is short and
 * [*budget] lasts. */
static void warm_arena(MajorHeap *h, MajorArena *a, size_t *budget)
{
    uint64_t cold = ~a->used & ~a->touched & arena_full_mask(a);
    for (; cold != 0 && h->warm_free < h->reserve_blocks && *budget > 0; cold &= cold - 1, (*budget)--)
        touch_block(h, a, __builtin_ctzll((unsigned long long)cold));
}

size_t major_reserve(MajorHeap *h, size_t blocks, size_t max_blocks)
{
    h->reserve_blocks = blocks;
    size_t budget = max_blocks;
    /* (a walk over every arena: only while some are cold) */
    for (size_t i = 0; i < h->narenas && h->cold_free > 0 && h->warm_free < blocks && budget > 0; i++)
        warm_arena(h, h->arenas[i], &budget);
    while (h->warm_free < blocks && budget > 0) {
        MajorArena *a = add_arena(h);
        if (a == NULL) break;
        warm_arena(h, a, &budget);
    }
    return max_blocks - budget;
}

size_t major_warm_free_blocks(const MajorHeap *h)
{
    return h->warm_free;
}

/* --- blocks ------------------------------------------------------------------------- */

/* Every slot below count goes on the free list, ascending. */
static void build_free_list(MajorBlock *b)
{
    char *base = (char *)b + MAJOR_OBJ_START;
    void *head = NULL;
    size_t size = b->obj_size;
    unsigned nfree = 0;
    int last = (b->count - 1) >> 6;
    for (int w = last; w >= 0; w--) {
        /* bits at or above count are no slots */
        uint64_t valid = w == last && (b->count & 63) != 0 ? (((uint64_t)1 << (b->count & 63)) - 1) : ~(uint64_t)0;
        uint64_t free_bits = ~b->alloc[w] & valid;
        while (free_bits != 0) {
            int bit = 63 - __builtin_clzll((unsigned long long)free_bits);
            free_bits &= ~((uint64_t)1 << bit);
            char *slot = base + ((size_t)w * 64 + (size_t)bit) * size;
            memcpy(slot, &head, sizeof head);
            head = slot;
            nfree++;
        }
    }
    b->free_list = head;
    b->nfree = (uint16_t)nfree;
    b->bump = b->count;
}

/* A free block of an arena made into an empty swept block of [c]/[kind];
 * NULL if every arena is full. The oldest block handed to the prefaulter
 * comes first (MajorHeap.handed); then a warm block (its pages faulted in
 * ahead, major_reserve) before any cold one: a cold block faults in the
 * pause that takes it. (Cold blocks lie below warm ones when a new arena
 * is mapped below the others and only part of it has been warmed.) */
static MajorBlock *take_free_block(MajorHeap *h, int kind, int c)
{
    MajorArena *a = NULL;
    uint64_t free_bits = 0;
    int handed = 0;
    while (h->handed_n > 0) { /* the oldest block handed to the prefaulter, if still free */
        MajorArena *ha = h->handed[h->handed_head].arena;
        unsigned hb = h->handed[h->handed_head].block;
        h->handed_head = (h->handed_head + 1) % HANDED_MAX;
        h->handed_n--;
        if (ha != NULL && !((ha->used >> hb) & 1)) {
            a = ha;
            free_bits = (uint64_t)1 << hb;
            handed = 1;
            break;
        }
    }
    for (size_t i = h->arena_hint; !handed && i < h->narenas; i++) {
        uint64_t bits = ~h->arenas[i]->used & arena_full_mask(h->arenas[i]);
        if (bits == 0) {
            if (a == NULL) h->arena_hint = i + 1; /* (everything below is full) */
            continue;
        }
        if (a == NULL) { /* the first with any free block */
            a = h->arenas[i];
            free_bits = bits;
            if (h->warm_free == 0) break;
        }
        if ((bits & h->arenas[i]->touched) != 0) { /* the first with a warm one */
            a = h->arenas[i];
            free_bits = bits & a->touched;
            break;
        }
    }
    if (a == NULL) {
        h->arena_hint = h->narenas;
        return NULL;
    }
    int bi = __builtin_ctzll((unsigned long long)free_bits);
    uint64_t bit = (uint64_t)1 << bi;
    a->used |= bit;
    if (a->touched & bit)
        h->warm_free--;
    else
        h->cold_free--;
    a->touched |= bit; /* (written below) */
    MajorBlock *b = (MajorBlock *)(void *)(a->base + (size_t)bi * MAJOR_BLOCK_SIZE);
    memset(b, 0, sizeof *b);
    b->arena = a;
    b->obj_size = class_size[c];
    b->recip = class_recip[c];
    b->count = class_slots[c];
    b->class_index = (uint8_t)c;
    b->kind = (uint8_t)kind;
    b->state = MAJOR_BLOCK_SWEPT;
    b->swept_epoch = h->sweep_epoch;
    b->nfree = b->count; /* all from bump = 0: no list (the memset) */
    if (h->allocate_black) b->black_epoch = h->black_epoch;
    h->blocks_used++;
    h->blocks_per_class[kind][c]++;
    return b;
}

/* An empty block goes back to its arena (the arena itself stays until
 * major_release_empty_arenas or the end of the sweep). */
static void release_block(MajorHeap *h, MajorBlock *b)
{
    MajorArena *a = b->arena;
    unsigned bi = (unsigned)(((uintptr_t)b - a->base) >> MAJOR_BLOCK_SHIFT);
    h->blocks_used--;
    h->blocks_per_class[b->kind][b->class_index]--;
    a->used &= ~((uint64_t)1 << bi);
    h->warm_free++; /* (it was touched when taken) */
    /* arenas[] is sorted by address: the hint moves down to this arena. */
    ptrdiff_t pos = find_arena(h, a->base);
    if (pos >= 0 && (size_t)pos < h->arena_hint) h->arena_hint = (size_t)pos;
}

/* The last unswept block was swept. Empty arenas go back, except while
 * the allocator is looking for a block: the sweep it ran may just have
 * emptied the block it is about to take, and giving that arena back to
 * ask for a new one would fail needlessly when memory is short. */
static void finish_sweep(MajorHeap *h)
{
    h->sweeping = 0;
    h->prepare_next = 0;
    h->live_last_sweep = h->sweep_live;
    if (h->in_refill)
        h->release_pending = 1;
    else
        major_release_empty_arenas(h);
}

/* Sweep one unswept block (already off its list): free the allocated,
 * unmarked slots (on_free first), clear the mark bits, rebuild the free
 * list, and put the block where it belongs: back to its arena when nothing
 * survived, on its class's available list when it has free slots,
 * nowhere when it is full. Returns the live bytes. */
static size_t sweep_block(MajorHeap *h, MajorBlock *b)
{
    char *base = (char *)b + MAJOR_OBJ_START;
    size_t size = b->obj_size;
    unsigned words = ((unsigned)b->count + 63) >> 6;
    size_t live = 0, ndead = 0;
    h->nunswept--;
    for (unsigned w = 0; w < words; w++) {
        uint64_t marked = atomic_load_explicit(&b->mark[w], memory_order_relaxed);
        uint64_t dead = b->alloc[w] & ~marked;
        uint64_t kept = b->alloc[w] & marked;
        while (dead != 0) {
            int bit = __builtin_ctzll((unsigned long long)dead);
            dead &= dead - 1;
            ndead++;
            if (h->cfg.on_free != NULL)
                h->cfg.on_free(h->cfg.free_ud, base + ((size_t)w * 64 + (size_t)bit) * size, size);
        }
        b->alloc[w] = kept;
        atomic_store_explicit(&b->mark[w], 0, memory_order_relaxed);
        live += (size_t)__builtin_popcountll((unsigned long long)kept);
    }
    b->state = MAJOR_BLOCK_SWEPT;
    b->swept_epoch = h->sweep_epoch;
    h->slot_bytes -= ndead * size;
    h->sweep_live += live * size;
    if (live == 0) {
        release_block(h, b);
    } else {
        build_free_list(b);
        if (b->nfree > 0) list_push(&h->avail[b->kind][b->class_index], b);
    }
    if (h->nunswept == 0 && h->sweeping) finish_sweep(h);
    return live * size;
}

/* Put the unswept blocks of the next arenas on their classes' unswept
 * lists, up to [max_arenas] arenas or until some block was listed (0: no
 * limit but that); returns how many blocks were listed. Blocks swept
 * before their arena's turn (major_sweep_block_of) are swept already and
 * skipped. This is the work major_begin_sweep leaves for later, so that
 * the pause it runs in does not visit every block. */
static size_t prepare_some(MajorHeap *h, size_t max_arenas)
{
    size_t listed = 0, arenas = 0;
    while (h->prepare_next < h->narenas && listed == 0 && (max_arenas == 0 || arenas < max_arenas)) {
        MajorArena *a = h->arenas[h->prepare_next++];
        arenas++;
        for (uint64_t u = a->used; u != 0; u &= u - 1) {
            MajorBlock *b = (MajorBlock *)(void *)(a->base +
                (size_t)__builtin_ctzll((unsigned long long)u) * MAJOR_BLOCK_SIZE);
            if (!major_block_unswept(b)) continue;
            list_push(&h->unswept[b->kind][b->class_index], b);
            listed++;
        }
    }
    return listed;
}

/* --- allocation ------------------------------------------------------------------------ */

/* A swept block of [kind]/[c] with a free slot, made current; NULL when no
 * memory can be had. */
static MajorBlock *refill_(MajorHeap *h, int kind, int c, int promotion)
{
    h->current[kind][c] = NULL; /* full: found again by the next begin_sweep */
    /* A promotion takes a warm free block before it sweeps (see
     * major_alloc_promotion): after a cycle's final pause, with every
     * block unswept, collections in samples/world swept up to 513 blocks
     * each this way, 35% more time per byte promoted. */
    if (promotion && h->warm_free > 0 && h->avail[kind][c].head == NULL) {
        MajorBlock *b = take_free_block(h, kind, c);
        if (b != NULL) return h->current[kind][c] = b;
    }
    size_t prepared = 0, swept = 0;
    for (;;) {
        MajorBlock *b = list_pop(&h->avail[kind][c]);
        if (b != NULL) return h->current[kind][c] = b;
        if (swept == SWEEP_FOR_REFILL) break;
        /* lazy sweep on demand: this class's unswept blocks first, listing
         * a few more arenas' when none is listed */
        b = list_pop(&h->unswept[kind][c]);
        if (b == NULL) {
            if (prepared < PREPARE_FOR_REFILL && h->prepare_next < h->narenas) {
                prepare_some(h, 1);
                prepared++;
                continue;
            }
            break;
        }
        sweep_block(h, b);
        swept++;
    }
    MajorBlock *b = take_free_block(h, kind, c);
    if (b == NULL && h->nunswept > 0) {
        /* Other classes' unswept blocks may be empty (this class has none
         * left): sweep a bounded number of them before growing the heap. */
        major_sweep_some(h, SWEEP_FOR_FREE_BLOCK);
        b = take_free_block(h, kind, c);
    }
    if (b == NULL) {
        if (add_arena(h) == NULL) return NULL;
        b = take_free_block(h, kind, c);
    }
    return h->current[kind][c] = b;
}

static MajorBlock *refill(MajorHeap *h, int kind, int c, int promotion)
{
    h->in_refill = 1;
    MajorBlock *b = refill_(h, kind, c, promotion);
    h->in_refill = 0;
    if (h->release_pending) {
        h->release_pending = 0;
        major_release_empty_arenas(h); /* b, if any, keeps its arena */
    }
    return b;
}

static inline void *alloc_slot(MajorHeap *h, size_t n, int kind, int promotion)
{
    if (n == 0 || n > MAJOR_MAX_OBJECT || (unsigned)kind >= MAJOR_KINDS) return NULL;
    int c = class_of(n);
    MajorBlock *b = h->current[kind][c];
    if (b == NULL || b->nfree == 0) {
        b = refill(h, kind, c, promotion);
        if (b == NULL) return NULL;
    }
    char *p = major_take_slot(b, h->allocate_black, h->black_epoch);
    h->slot_bytes += b->obj_size;
    if (!promotion) memset(p, 0, b->obj_size);
    return p;
}

void *major_alloc(MajorHeap *h, size_t n, int kind)
{
    return alloc_slot(h, n, kind, 0);
}

void *major_alloc_promotion(MajorHeap *h, size_t n, int kind)
{
    return alloc_slot(h, n, kind, 1);
}

void major_black_state(const MajorHeap *h, int *black, uint32_t *black_epoch)
{
    *black = h->allocate_black;
    *black_epoch = h->black_epoch;
}

void major_add_slot_bytes(MajorHeap *h, size_t bytes)
{
    h->slot_bytes += bytes;
}

/* --- finding objects ----------------------------------------------------------------------- */

int major_in_heap(const MajorHeap *h, const void *addr)
{
    return find_arena(h, (uintptr_t)addr) >= 0;
}

#define slot_live major_slot_is_live

void *major_object_containing(const MajorHeap *h, const void *addr)
{
    uintptr_t a = (uintptr_t)addr;
    ptrdiff_t pos = find_arena(h, a);
    if (pos < 0) return NULL;
    const MajorArena *ar = h->arenas[pos];
    unsigned bi = (unsigned)((a - ar->base) >> MAJOR_BLOCK_SHIFT);
    if (!((ar->used >> bi) & 1)) return NULL; /* a free block: never read */
    const MajorBlock *b = major_block_of(addr);
    uintptr_t off = a & MAJOR_BLOCK_MASK;
    if (off < MAJOR_OBJ_START) return NULL; /* the header */
    unsigned i = major_slot_of(b, addr);
    if (i >= b->count || !slot_live(b, i)) return NULL;
    return (char *)b + MAJOR_OBJ_START + (size_t)i * b->obj_size;
}

/* --- a concurrent marker's view --------------------------------------------------------- */

size_t major_arena_count(const MajorHeap *h)
{
    return h->narenas;
}

void major_arena_views(const MajorHeap *h, MajorArenaView *out)
{
    for (size_t i = 0; i < h->narenas; i++) {
        const MajorArena *a = h->arenas[i];
        out[i].base = a->base;
        out[i].used = a->used;
        out[i].nblocks = a->nblocks;
    }
}

void *major_view_object(const MajorArenaView *v, size_t n, uintptr_t a, size_t *hint)
{
    /* A marker's references mostly lead near the last one (copies are
     * made in the order they are found): the arena of the last lookup
     * first, then a binary search (8 steps at 200 arenas). */
    size_t lo = *hint;
    if (lo >= n || a - v[lo].base >= (size_t)v[lo].nblocks * MAJOR_BLOCK_SIZE) {
        if (n == 0 || a < v[0].base) return NULL;
        lo = 0;
        size_t hi = n; /* the last base <= a */
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            if (v[mid].base <= a)
                lo = mid;
            else
                hi = mid;
        }
        if (a - v[lo].base >= (size_t)v[lo].nblocks * MAJOR_BLOCK_SIZE) return NULL;
        *hint = lo;
    }
    const MajorArenaView *ar = &v[lo];
    unsigned bi = (unsigned)((a - ar->base) >> MAJOR_BLOCK_SHIFT);
    if (!((ar->used >> bi) & 1)) return NULL; /* free when the view was taken */
    const MajorBlock *b = major_block_of((const void *)a);
    uintptr_t off = (a & MAJOR_BLOCK_MASK);
    if (off < MAJOR_OBJ_START) return NULL;
    off -= MAJOR_OBJ_START;
    unsigned i = (unsigned)((off * b->recip) >> 32);
    if (i >= b->count || (uintptr_t)i * b->obj_size != off) return NULL; /* past the slots, or inside one */
    uint64_t word = __atomic_load_n(&b->alloc[i >> 6], __ATOMIC_ACQUIRE);
    if (!((word >> (i & 63)) & 1)) return NULL;
    return (void *)a;
}

/* --- marks and cards ------------------------------------------------------------------------ */

#define for_each_used_block(h, b, body) \
    do { \
        for (size_t ai_ = 0; ai_ < (h)->narenas; ai_++) { \
            MajorArena *a_ = (h)->arenas[ai_]; \
            for (uint64_t u_ = a_->used; u_ != 0; u_ &= u_ - 1) { \
                MajorBlock *b = (MajorBlock *)(void *)(a_->base + \
                    (size_t)__builtin_ctzll((unsigned long long)u_) * MAJOR_BLOCK_SIZE); \
                body; \
            } \
        } \
    } while (0)

void major_clear_marks(MajorHeap *h)
{
    if (h->nunswept > 0) major_sweep_all(h);
    for_each_used_block(h, b, {
        for (unsigned w = 0; w < MAJOR_BITMAP_WORDS; w++)
            atomic_store_explicit(&b->mark[w], 0, memory_order_relaxed);
    });
}

void major_clear_cards(MajorHeap *h)
{
    for_each_used_block(h, b, memset(b->cards, 0, sizeof b->cards));
}

void major_visit_block_dirty_cards(MajorBlock *b, major_RangeFn fn, void *ud, int clear)
{
    uintptr_t start = (uintptr_t)b + MAJOR_OBJ_START;
    uintptr_t end = start + (size_t)b->count * b->obj_size;
    unsigned k = 0;
    while (k < MAJOR_CARDS_PER_BLOCK) {
        if (!b->cards[k]) {
            k++;
            continue;
        }
        unsigned first = k;
        while (k < MAJOR_CARDS_PER_BLOCK && b->cards[k]) {
            if (clear) b->cards[k] = 0;
            k++;
        }
        uintptr_t lo = (uintptr_t)b + ((size_t)first << MAJOR_CARD_SHIFT);
        uintptr_t hi = (uintptr_t)b + ((size_t)k << MAJOR_CARD_SHIFT);
        if (lo < start) lo = start;
        if (hi > end) hi = end;
        if (lo < hi) fn(ud, (void *)lo, (void *)hi);
    }
}

void major_visit_dirty_cards(MajorHeap *h, major_RangeFn fn, void *ud, int clear)
{
    for_each_used_block(h, b, major_visit_block_dirty_cards(b, fn, ud, clear));
}

int major_block_in_use(const MajorHeap *h, const MajorBlock *b)
{
    ptrdiff_t pos = find_arena(h, (uintptr_t)b);
    if (pos < 0) return 0;
    const MajorArena *ar = h->arenas[pos];
    unsigned bi = (unsigned)(((uintptr_t)b - ar->base) >> MAJOR_BLOCK_SHIFT);
    return (int)((ar->used >> bi) & 1);
}

/* --- sweeping -------------------------------------------------------------------------------- */

/* O(classes), neither O(blocks) nor O(arenas): every block in use becomes
 * unswept by the one epoch's move (it is in the final pause, which must
 * not grow with the heap), and the unswept lists are filled later, an
 * arena at a time (prepare_some), by the sweep and by allocation. The
 * available lists are dropped whole: list_push overwrites a block's stale
 * link. */
void major_begin_sweep(MajorHeap *h)
{
    if (h->nunswept > 0) major_sweep_all(h);
    for (int k = 0; k < MAJOR_KINDS; k++)
        for (int c = 0; c < nclasses; c++) {
            h->current[k][c] = NULL;
            h->avail[k][c].head = NULL;
            h->unswept[k][c].head = NULL;
        }
    h->sweep_epoch++;
    h->prepare_next = 0;
    h->sweep_live = 0;
    h->sweeping = 1;
    h->nunswept = h->blocks_used;
    if (h->nunswept == 0) finish_sweep(h);
}

size_t major_sweep_some(MajorHeap *h, size_t max_blocks)
{
    size_t done = 0;
    unsigned lists = (unsigned)(MAJOR_KINDS * nclasses);
    unsigned misses = 0;
    while (done < max_blocks && h->nunswept > 0) {
        if (misses >= lists) { /* every list is empty: list more blocks */
            if (prepare_some(h, 0) == 0) break;
            misses = 0;
        }
        unsigned cur = h->sweep_cursor % lists;
        BlockList *l = &h->unswept[cur / (unsigned)nclasses][cur % (unsigned)nclasses];
        MajorBlock *b = list_pop(l);
        if (b == NULL) {
            h->sweep_cursor = cur + 1;
            misses++;
            continue;
        }
        misses = 0;
        sweep_block(h, b);
        done++;
    }
    return done;
}

size_t major_sweep_all(MajorHeap *h)
{
    while (h->nunswept > 0) major_sweep_some(h, h->nunswept);
    return h->live_last_sweep;
}

size_t major_sweep_block_of(MajorHeap *h, void *obj)
{
    MajorBlock *b = major_block_of(obj);
    if (major_block_unswept(b)) { /* listed, or its arena not yet prepared */
        list_remove(&h->unswept[b->kind][b->class_index], b);
        return sweep_block(h, b);
    }
    unsigned words = ((unsigned)b->count + 63) >> 6;
    size_t live = 0;
    for (unsigned w = 0; w < words; w++) live += (size_t)__builtin_popcountll((unsigned long long)b->alloc[w]);
    return live * b->obj_size;
}

size_t major_unswept_count(const MajorHeap *h)
{
    return h->nunswept;
}

/* --- walking, statistics -------------------------------------------------------------------- */

void major_foreach(MajorHeap *h, major_ObjectFn fn, void *ud)
{
    for_each_used_block(h, b, {
        char *base = (char *)b + MAJOR_OBJ_START;
        for (unsigned i = 0; i < b->count; i++)
            if (slot_live(b, i)) fn(ud, base + (size_t)i * b->obj_size, b->obj_size, b->kind);
    });
}

void major_stats(const MajorHeap *h, MajorStats *out)
{
    memset(out, 0, sizeof *out);
    out->arenas = h->narenas;
    for (size_t i = 0; i < h->narenas; i++) {
        out->arena_bytes += h->arenas[i]->raw_size;
        out->blocks += h->arenas[i]->nblocks;
    }
    out->blocks_used = h->blocks_used;
    out->blocks_warm_free = h->warm_free;
    out->blocks_cold_free = h->cold_free;
    out->blocks_unswept = h->nunswept;
    out->block_bytes = h->blocks_used * MAJOR_BLOCK_SIZE;
    out->slot_bytes = h->slot_bytes;
    out->live_bytes_last_sweep = h->live_last_sweep;
    out->fragmentation = out->block_bytes == 0 ? 0.0 : 1.0 - (double)h->slot_bytes / (double)out->block_bytes;
    out->obtain_calls = h->obtain_calls;
    memcpy(out->blocks_per_class, h->blocks_per_class, sizeof out->blocks_per_class);
}

void major_set_on_free(MajorHeap *h, major_OnFree on_free, void *ud)
{
    h->cfg.on_free = on_free;
    h->cfg.free_ud = ud;
}

/* --- evacuation (major.h) ------------------------------------------------------------------
 * The owner chooses the blocks and moves the objects; here only what needs
 * the heap's lists. Nothing below sweeps or asks obtain for memory: it
 * runs after a mark, before major_begin_sweep, when every block is swept
 * and the mark bits are the owner's. */

void major_foreach_block(MajorHeap *h, major_BlockFn fn, void *ud)
{
    for_each_used_block(h, b, fn(ud, b));
}

size_t major_free_block_count(const MajorHeap *h)
{
    size_t n = 0;
    for (size_t i = 0; i < h->narenas; i++) {
        const MajorArena *a = h->arenas[i];
        n += (size_t)__builtin_popcountll((unsigned long long)(~a->used & arena_full_mask(a)));
    }
    return n;
}

int major_evacuate_block(MajorHeap *h, MajorBlock *b)
{
    if (b->state != MAJOR_BLOCK_SWEPT || major_block_unswept(b)) return 0;
    /* A swept block with free slots is current or on the available list
     * (the invariants at the top); a full one is on neither. The lists
     * lose their evacuating blocks in major_evacuate_detach, in one pass
     * (removing thousands one by one from singly linked lists is
     * quadratic). */
    if (h->current[b->kind][b->class_index] == b) h->current[b->kind][b->class_index] = NULL;
    b->state = MAJOR_BLOCK_EVACUATING;
    return 1;
}

void major_evacuate_detach(MajorHeap *h)
{
    for (int k = 0; k < MAJOR_KINDS; k++)
        for (int c = 0; c < nclasses; c++) {
            MajorBlock **link = &h->avail[k][c].head;
            while (*link != NULL) {
                MajorBlock *b = *link;
                if (b->state == MAJOR_BLOCK_EVACUATING) {
                    *link = b->next;
                    b->next = NULL;
                } else {
                    link = &b->next;
                }
            }
        }
}

void *major_alloc_in_class(MajorHeap *h, int c, int kind, int grow)
{
    if (c < 0 || c >= nclasses || (unsigned)kind >= MAJOR_KINDS) return NULL;
    MajorBlock *b = h->current[kind][c];
    if (b == NULL || b->nfree == 0) {
        /* as refill_, without its sweeps, and with a new arena only if asked */
        h->current[kind][c] = NULL;
        b = list_pop(&h->avail[kind][c]);
        if (b == NULL) b = take_free_block(h, kind, c);
        if (b == NULL && grow && add_arena(h) != NULL) b = take_free_block(h, kind, c);
        if (b == NULL) return NULL;
        h->current[kind][c] = b;
    }
    char *p = major_take_slot(b, h->allocate_black, h->black_epoch);
    h->slot_bytes += b->obj_size;
    return p;
}
