/*
 * worker.c — the concurrent marker (DESIGN §4.5): a thread per state that
 * traverses a major cycle's grey objects while the program runs.
 *
 * Who does what while a cycle marks:
 *   the mutator  the initial pause (roots, running stacks, the nursery walk)
 *                fills gc->grey and hands it to the worker; from then on its
 *                snapshot barrier, the stack scans of thread_touch and the
 *                keep-alive reads (strings, weak tables, weak handles) mark
 *                into gc->grey, handed over in batches (gc_worker_feed); at
 *                safe points and in idle time it does the work the worker
 *                handed back (gc_worker_assist); in idle time it also
 *                traverses beside the worker with the worker's own code
 *                (gc_worker_help): a share the worker splits off its grey
 *                stack when asked (share_wanted), handing half of its own
 *                to a worker that has run dry (hungry), and giving back
 *                what it has not reached when its budget is spent; the
 *                final pause is its own, once neither side has anything
 *                left.
 *   the worker   pops grey objects and traverses them: tables, closures,
 *                closed upvalues, userdata. What it must not read while the
 *                program runs it hands back, marked but not traversed:
 *                threads (a stack changes without barriers and may be
 *                reallocated), prototypes (the parser reallocates their
 *                arrays), open upvalues (they point into a stack), tables
 *                with young storage (a nursery collection may be moving
 *                it), tables that may be weak (their mode is read through the
 *                metatable, and weak tables are settled by the final
 *                pause); and the tables in which it saw an emptied entry
 *                with an object key, which must become a dead key before
 *                the sweep may free the key (only the mutator writes
 *                tables: gc_clearkey).
 *
 * Reading objects the mutator writes. The worker reads table slots,
 * upvalue and userdata values while the mutator stores into them, without
 * locks. That is sound because:
 *   - what it reads only decides what it marks, and the snapshot barrier
 *     has handed over every value a store overwrote: a value missed or
 *     misread is never the only path left to an object of the snapshot;
 *   - a TValue read while it is being stored may be torn (the tag of one
 *     value, the payload of another), so no payload is trusted: it is an
 *     object only if the view taken at the initial pause says it is the
 *     start of an allocated slot of a block in use then (major_view_object)
 *     or of a large object then (view_los). Anything else is skipped: words
 *     into the nursery and objects made since the view are live for the
 *     cycle anyway (young objects are never marked by a cycle; old ones are
 *     born marked), and the rest are not objects;
 *   - nothing it may read is freed while it runs: the sweep comes after the
 *     mark, released large storage waits for the mark's end
 *     (gc_free_released), no arena is given back before the next sweep;
 *   - table storage is reached through the table's pointer to it (published
 *     with release by tab_resize) and sized by the storage's own header,
 *     never by the table's size fields, which a resize changes apart from
 *     the pointer. Storage in the nursery is not read (a nursery collection
 *     may be copying it): a table with young storage goes back to the
 *     mutator.
 * The functions that read objects carry TIDE_GC_RACY: ThreadSanitizer does
 * not instrument them, since their races are the design above. What else
 * the two threads share — the mark bits (atomics), the work queues and the
 * handshake (a mutex and two condition variables) — it checks.
 *
 * The handshake. Under [lock]: [state], [parked], the inbox (grey objects
 * from the mutator), the outbox (objects for the mutator) and [overflow].
 * The worker parks (waits on [wake]) when it has nothing to do, when no
 * cycle marks, or when the mutator has asked it to stop; while it is parked
 * its own stacks and the view are the mutator's to read and write. [stop]
 * is read by the worker without the lock, between objects.
 *
 * Faulting pages in. Between objects, and before it parks, the worker also
 * faults in the pages of the major heap's promotion reserve
 * (gc_worker_prefault, major_reserve), so that the game's thread does not
 * take those page faults in its pauses. It changes no value: each page's
 * first word gets a compare-and-swap of 0 for 0, which the processor
 * carries out as a write (the page faults in writable) and which stores
 * nothing where the mutator has already stored something, so the mutator
 * may take and fill a block the worker has not got to yet. (Not
 * madvise(MADV_POPULATE_WRITE): it holds the process's mmap lock across a
 * whole range, and a stream of them kept the mutator's brk from growing the
 * heap for 1-2 ms at a time; a page fault holds only its own mapping's
 * lock, for one page.) Nor may a fault be in progress while the mutator is
 * in its allocator: growing the heap (brk, or a new mapping merged with
 * its neighbour) waits for every fault in progress on the mapping it
 * changes, and the worker, a batch thread, may be descheduled in the
 * middle of one (bench/gc/giants.lua table: 1-2 ms sweep-steps and nursery
 * collections, the game's thread asleep in brk); the mutator holds the
 * prefaulting while it calls its allocator (gc_worker_prefault_hold). A
 * range goes back to the allocator only after
 * gc_worker_prefault_cancel has dropped it from the queue and waited out
 * the chunk in progress. While it faults pages in between objects the
 * worker counts as parked: it holds no traversal in progress. A long
 * traversal (the storage of a big table) serves the queue from its middle
 * too (w_interrupted), unparked.
 *
 * Giving pages back. The same queue carries the pages of retired large
 * blocks (gc_worker_release_pages, los_release_some), which the worker
 * gives back to the system (madvise(MADV_DONTNEED)) a RELEASE_CHUNK at a
 * time. Done on the game's thread, a slice of 1 MiB usually took
 * 0.04-0.1 ms here, but one in fifty took 1.7-7 ms of the thread's
 * processor time (bench/gc/giants.lua stack: 6-8 sweep-step pauses over
 * 1 ms a run) — likely the TLB flush that taking pages from a process
 * with a thread on another processor waits for, answered late by a
 * virtual processor the host has descheduled. Done here, it is the worker
 * that waits. The block goes back to the allocator only
 * once none of it is queued or in progress (gc_worker_pages_pending).
 *
 * Memory. The worker's vectors come from malloc, not from the state's
 * allocator: a lua_Alloc need not be thread-safe. They are not counted in
 * the heap size (as the verifier's scratch is not).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* SCHED_BATCH */
#endif
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#include "gc_internal.h"
#include "../vm/metamethods.h"
#include "../vm/tables.h"

/* Objects the worker traverses between two looks at [stop]. */
#define STOP_CHECK_EVERY 256
/* Slots of one table scanned between two looks at [stop] and at the
 * queue of pages to fault in (w_interrupted). */
#define STOP_CHECK_SLOTS ((size_t)1 << 12)
/* Deferred objects the worker gathers before it publishes them. */
#define DEFER_BATCH 256
/* Objects the worker traverses between two looks at whether the mutator
 * wants a share of them (gc_worker_help), and the fewest it hands over. */
#define SHARE_CHECK_EVERY 32
#define SHARE_MIN ((size_t)16)
/* Objects the mutator traverses between two looks at the clock. */
#define HELP_CLOCK_EVERY 32
/* Slots of a table whose dead keys the mutator clears per piece. */
#define CLEAR_PIECE ((size_t)4096)
/* Strong tables with more entries than this are traversed by the mutator
 * in pieces (as cycle.c's mark steps do). */
#define MUTATOR_BIG_TABLE ((size_t)16384)

/* Pages faulted in between two looks at the queue and at [stop]: one
 * major block. The mutator waits at most this long to give an arena back. */
#define PREFAULT_CHUNK ((uintptr_t)16 * 1024)
/* Pages given back between two looks at the queue and at [stop]: a
 * madvise call costs about as much for 64 KiB as for 256. */
#define RELEASE_CHUNK ((uintptr_t)256 * 1024)
/* Looks at the chunk in progress before gc_worker_prefault_hold sleeps. */
#define HOLD_SPINS 200u
/* The smallest page size there is. */
#define PAGE_STRIDE ((uintptr_t)4096)
/* Ranges queued at most (the promotion reserve is 8 MiB at most, 512
 * blocks); past it the mutator writes its pages itself. */
#define PREFAULT_QUEUE_MAX ((size_t)4096)

/* A deferred object for the mutator; the low bit set: clear the dead keys
 * of this node storage (objects are GC_ALIGN-aligned). */
#define DEFER_CLEAR_KEYS ((uintptr_t)1)

enum { W_PARKED_STATE, W_MARKING, W_QUIT };

typedef struct WVec {
    void **items;
    size_t n, cap;
} WVec;

/* Pages to fault in, or to give back ([release]): [lo, hi), both
 * page-aligned; lo == hi once done or cancelled. */
typedef struct PageRange {
    uintptr_t lo, hi;
    int release;
} PageRange;

/* A traversal in progress: its grey stack, the objects it defers to the
 * mutator, and its counts. The worker has one; the mutator has the other
 * while it drains grey objects beside the worker in idle time
 * (gc_worker_help). Both read the same view of the heap. */
typedef struct WMarker {
    GCWorker *w;
    WVec grey, defer;
    int overflow;             /* a vector could not grow: something marked went
                                 untraversed */
    size_t arena_hint;        /* the arena of the last w_mark (major_view_object) */
    uint64_t traversed;       /* objects traversed this cycle */
    uint64_t handed_back;     /* objects deferred to the mutator this cycle */
    uint64_t deadline_ns;     /* the mutator's: when it gives back what it holds
                                 (0 for the worker's, which stops for [stop]) */
} WMarker;

struct GCWorker {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;      /* the worker waits on it */
    pthread_cond_t parked_cv; /* the mutator waits on it */
    /* under lock */
    int state;                /* W_PARKED_STATE (no cycle), W_MARKING, W_QUIT */
    int parked;               /* the worker waits or faults pages in, holding no
                                 traversal in progress */
    int woken;                /* [wake] was signalled since the worker last
                                 chose to wait: another signal would be a
                                 wasted system call (wake_wanted) */
    int overflow;             /* a vector could not grow: something marked went
                                 untraversed (the final pause rescans) */
    WVec inbox, outbox;
    WVec shared;              /* grey objects the worker split off for the
                                 mutator draining beside it (share_wanted) */
    PageRange *pages;         /* the queue of pages to fault in: [pages_head,
                                 pages_n) are waiting */
    size_t pages_head, pages_n, pages_cap;
    int prefault_held;        /* the mutator is in its allocator: no chunk is
                                 begun (gc_worker_prefault_hold) */
    size_t served_traversing; /* chunks faulted in from inside a traversal */
    /* set by the mutator under lock, read by the worker between objects */
    atomic_int stop;
    atomic_int share_wanted;  /* the mutator drains in idle time and has nothing:
                                 the worker splits off half its grey stack */
    atomic_int hungry;        /* the worker waits with nothing to mark while a
                                 cycle marks: the mutator draining beside it
                                 hands it half of its stack */
    atomic_int pages_waiting; /* pages_head < pages_n, and not held */
    atomic_int faulting;      /* a chunk is being faulted in or given back (set
                                 and cleared by the worker, the lock released
                                 between: hold spins on it before it sleeps) */
    uintptr_t chunk_lo, chunk_hi; /* that chunk (under lock) */
    int chunk_release;        /* ... and it is pages given back */
    size_t released_chunks;   /* chunks given back so far (the tests') */
    /* the worker's traversal: its own while it is not parked */
    WMarker own;
    /* the view of the heap at the initial pause (written while parked) */
    MajorArenaView *arenas;
    size_t narenas, arenas_cap;
    uintptr_t *los;
    size_t nlos, los_cap;
    uintptr_t nursery_lo, nursery_span;
    const TString *mode_name;
    /* the mutator's */
    WMarker helper;           /* empty outside gc_worker_help */
    WVec taken;               /* deferred objects taken from the outbox */
    size_t taken_pos;         /* the next one to do */
    Part *clearing;           /* node storage whose dead keys are being cleared */
    size_t clear_pos;
};

/* --- vectors (malloc) ---------------------------------------------------------------- */

static int wvec_reserve(WVec *v, size_t more)
{
    if (v->cap - v->n >= more) return 1;
    size_t cap = v->cap == 0 ? 1024 : v->cap;
    while (cap - v->n < more) cap *= 2;
    void **items = realloc(v->items, cap * sizeof *items);
    if (items == NULL) return 0;
    v->items = items;
    v->cap = cap;
    return 1;
}

static inline int wvec_push(WVec *v, void *x)
{
    if (v->n == v->cap && !wvec_reserve(v, 1)) return 0;
    v->items[v->n++] = x;
    return 1;
}

static int wvec_append(WVec *dst, void *const *items, size_t n)
{
    if (n == 0) return 1;
    if (!wvec_reserve(dst, n)) return 0;
    memcpy(dst->items + dst->n, items, n * sizeof *items);
    dst->n += n;
    return 1;
}

static void wvec_free(WVec *v)
{
    free(v->items);
    v->items = NULL;
    v->n = v->cap = 0;
}

/* --- the worker's traversal (reads what the mutator writes: see above) ------------------- */

static int view_los(const GCWorker *w, uintptr_t a)
{
    size_t lo = 0, hi = w->nlos;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (w->los[mid] < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < w->nlos && w->los[lo] == a;
}

static inline int w_young(const GCWorker *w, const void *p)
{
    return (uintptr_t)p - w->nursery_lo < w->nursery_span;
}

static inline void w_push(WMarker *m, WVec *v, void *x)
{
    if (!wvec_push(v, x)) m->overflow = 1;
}

/* Mark what the word [a] names, if it is an object of the view. */
static TIDE_GC_RACY void w_mark(WMarker *m, uintptr_t a)
{
    const GCWorker *w = m->w;
    if ((a & (GC_ALIGN - 1)) != 0 || a - w->nursery_lo < w->nursery_span) return;
    GCObject *o = major_view_object(w->arenas, w->narenas, a, &m->arena_hint);
    if (o != NULL) {
        if (!major_mark_atomic(o) || !major_has_refs(o)) return;
    } else {
        if (!view_los(w, a)) return;
        o = (GCObject *)a;
        if (!los_mark_atomic(o) || !los_has_refs(o)) return;
    }
    if (gc_isleaf(o->tt)) return; /* table storage: its table reads it */
    w_push(m, &m->grey, o);
}

static TIDE_GC_RACY inline void w_value(WMarker *m, const TValue *v)
{
    if (v->tt & BIT_COLLECTABLE) w_mark(m, (uintptr_t)v->v.gc);
}

static void w_defer(WMarker *m, GCObject *o, uintptr_t how)
{
    m->handed_back++;
    w_push(m, &m->defer, (void *)((uintptr_t)o | how));
}

/* May [t] be weak? Its TAB_WEAK, or a "__mode" entry of its metatable
 * [mt], found by walking the chain of that key with every index checked
 * against the storage's own size: a wrong answer is harmless either way
 * (a strong table handed back is traversed by the mutator; a weak one
 * taken for strong keeps its entries for one cycle). */
static TIDE_GC_RACY int w_maybe_weak(const GCWorker *w, const Table *t, const Table *mt)
{
    if (t->weak & TAB_WEAK) return 1;
    if (mt->flags & (1u << TM_MODE)) return 0; /* known to have no __mode */
    if (w_young(w, mt)) return 1;
    const Node *node = __atomic_load_n(&mt->node, __ATOMIC_ACQUIRE);
    if (node == &tab_dummynode_) return 0;
    if (w_young(w, node)) return 1;
    size_t n = part_of(node)->nbytes / sizeof(Node);
    if (n == 0 || (n & (n - 1)) != 0) return 1;
    size_t i = w->mode_name->hash & (n - 1);
    for (size_t steps = 0; steps < n; steps++) {
        const Node *nd = &node[i];
        if (nd->key_tt == VSHRSTR && nd->key_val.gc == obj2gco(w->mode_name)) return !isempty(gval(nd));
        int32_t next = nd->next;
        if (next == 0) return 0;
        i += (size_t)(ptrdiff_t)next;
        if (i >= n) return 1;
    }
    return 1;
}

static void fault_queued_pages(GCWorker *w);

/* In the middle of a traversal: on the worker, serve the queue of pages to
 * fault in (a table of millions of entries takes the worker milliseconds,
 * and the next nursery collection promotes into those pages:
 * bench/gc/giants.lua table found one block in ten not yet faulted in),
 * then say whether to stop; on the mutator, whether its idle time is up. */
static int w_interrupted(WMarker *m)
{
    if (m->deadline_ns != 0) return gc_now_ns() >= m->deadline_ns;
    GCWorker *w = m->w;
    if (atomic_load_explicit(&w->pages_waiting, memory_order_relaxed)) fault_queued_pages(w);
    return atomic_load_explicit(&w->stop, memory_order_relaxed);
}

/* What old table storage [p] holds, strongly. Emptied entries with object
 * keys send the storage to the mutator, to become dead keys. Returns 0 when
 * it stopped for [stop] part-way (the caller puts its object back on the
 * grey stack: traversal is idempotent). */
static TIDE_GC_RACY int w_part(WMarker *m, Part *p)
{
    uint32_t kind = __atomic_load_n(&p->pad, __ATOMIC_RELAXED); /* (released meanwhile: zeroed, harmless) */
    if (kind == PART_ARRAY) {
        const TValue *array = part_payload(p);
        for (size_t i = 0, n = p->nbytes / sizeof(TValue); i < n; i++) {
            w_value(m, &array[i]);
            if ((i & (STOP_CHECK_SLOTS - 1)) == STOP_CHECK_SLOTS - 1 && w_interrupted(m)) return 0;
        }
    } else if (kind == PART_NODES) {
        const Node *node = part_payload(p);
        int dead_keys = 0;
        for (size_t i = 0, n = p->nbytes / sizeof(Node); i < n; i++) {
            const Node *nd = &node[i];
            if (isempty(gval(nd))) {
                dead_keys |= (nd->key_tt & BIT_COLLECTABLE) != 0;
            } else {
                if (nd->key_tt & BIT_COLLECTABLE) w_mark(m, (uintptr_t)nd->key_val.gc);
                w_value(m, gval(nd));
            }
            if ((i & (STOP_CHECK_SLOTS - 1)) == STOP_CHECK_SLOTS - 1 && w_interrupted(m)) return 0;
        }
        if (dead_keys) w_defer(m, obj2gco(p), DEFER_CLEAR_KEYS);
    }
    return 1;
}

/* A strong table: its storage, reached through its pointers (see above). */
static TIDE_GC_RACY int w_table(WMarker *m, Table *t)
{
    const GCWorker *w = m->w;
    Table *mt = __atomic_load_n(&t->metatable, __ATOMIC_RELAXED);
    if (mt != NULL) {
        w_mark(m, (uintptr_t)mt);
        if (w_maybe_weak(w, t, mt)) {
            w_defer(m, obj2gco(t), 0);
            return 1;
        }
    }
    TValue *array = __atomic_load_n(&t->array, __ATOMIC_ACQUIRE);
    Node *node = __atomic_load_n(&t->node, __ATOMIC_ACQUIRE);
    if (node == &tab_dummynode_) node = NULL;
    /* Young storage (a resize since the last nursery collection) is not
     * the worker's to read: the table goes back to the mutator. */
    if ((array != NULL && w_young(w, array)) || (node != NULL && w_young(w, node))) {
        w_defer(m, obj2gco(t), 0);
        return 1;
    }
    if (array != NULL) {
        w_mark(m, (uintptr_t)part_of(array));
        if (!w_part(m, part_of(array))) return 0;
    }
    if (node != NULL) {
        w_mark(m, (uintptr_t)part_of(node));
        if (!w_part(m, part_of(node))) return 0;
    }
    return 1;
}

static TIDE_GC_RACY void w_traverse(WMarker *m, GCObject *o)
{
    switch (o->tt) {
    case HT_TABLE:
        if (!w_table(m, gco2t(o))) w_push(m, &m->grey, o);
        break;
    case HT_PART: /* storage handed over on its own (a young table's, cycle.c) */
        if (!w_part(m, (Part *)(void *)o)) w_push(m, &m->grey, o);
        break;
    case HT_LCL: {
        LClosure *cl = gco2lcl(o);
        w_mark(m, (uintptr_t)cl->p);
        for (int i = 0; i < cl->nupvalues; i++) w_mark(m, (uintptr_t)cl->upvals[i]);
        break;
    }
    case HT_CCL: {
        CClosure *cl = gco2ccl(o);
        for (int i = 0; i < cl->nupvalues; i++) w_value(m, &cl->upvalue[i]);
        break;
    }
    case HT_UDATA: {
        Udata *u = gco2u(o);
        w_mark(m, (uintptr_t)u->metatable);
        for (int i = 0; i < u->nuvalue; i++) w_value(m, &u->uv[i]);
        break;
    }
    case HT_UPVAL: {
        UpVal *uv = gco2upv(o);
        TValue *v = __atomic_load_n(&uv->v, __ATOMIC_ACQUIRE);
        if (v == &uv->u.value)
            w_value(m, v); /* closed: it stays closed */
        else
            w_defer(m, o, 0);
        break;
    }
    default: /* threads and prototypes */
        w_defer(m, o, 0);
        break;
    }
}

/* --- the worker thread ------------------------------------------------------------------- */

/* Publish the deferred objects [m] gathered so far (lock held). */
static void publish_deferred(GCWorker *w, WMarker *m)
{
    if (m->defer.n == 0) return;
    if (wvec_append(&w->outbox, m->defer.items, m->defer.n))
        m->defer.n = 0;
    else
        m->overflow = 1; /* kept: the mutator takes them when it stops us */
    pthread_cond_broadcast(&w->parked_cv); /* an idle mutator may be waiting for work */
}

/* Move the older half of the grey stack [from] (the bottom: nearer the
 * roots, so with more behind it) onto [to], if it is at least SHARE_MIN
 * objects; 1 if it moved. Both sides of the sharing between the worker
 * and the mutator draining in idle time (gc_worker_help) use it. */
static int give_older_half(WVec *from, WVec *to)
{
    size_t half = from->n / 2;
    if (half < SHARE_MIN || !wvec_append(to, from->items, half)) return 0;
    memmove(from->items, from->items + half, (from->n - half) * sizeof *from->items);
    from->n -= half;
    return 1;
}

/* The mutator, draining in idle time, has run out of grey objects: give it
 * the older half of the worker's stack. */
static void share_grey(GCWorker *w)
{
    pthread_mutex_lock(&w->lock);
    if (atomic_load_explicit(&w->share_wanted, memory_order_relaxed) && give_older_half(&w->own.grey, &w->shared)) {
        atomic_store_explicit(&w->share_wanted, 0, memory_order_relaxed);
        pthread_cond_broadcast(&w->parked_cv);
    }
    pthread_mutex_unlock(&w->lock);
}

/* Traverse the grey stack until it is empty or [stop] is set. */
static void drain(GCWorker *w)
{
    WMarker *m = &w->own;
    unsigned count = 0;
    while (m->grey.n > 0) {
        w_traverse(m, m->grey.items[--m->grey.n]);
        m->traversed++;
        if (++count % SHARE_CHECK_EVERY == 0 && atomic_load_explicit(&w->share_wanted, memory_order_relaxed))
            share_grey(w);
        if (count % STOP_CHECK_EVERY == 0) {
            if (atomic_load_explicit(&w->stop, memory_order_relaxed) ||
                atomic_load_explicit(&w->pages_waiting, memory_order_relaxed))
                return;
            if (m->defer.n >= DEFER_BATCH) {
                pthread_mutex_lock(&w->lock);
                publish_deferred(w, m);
                pthread_mutex_unlock(&w->lock);
            }
        }
    }
}

/* Fault in every page of [lo, hi) (page-aligned, memory the mutator may be
 * writing): see "Faulting pages in" above. */
static TIDE_GC_RACY void fault_in(uintptr_t lo, uintptr_t hi)
{
    for (uintptr_t p = lo; p < hi; p += PAGE_STRIDE) {
        uintptr_t zero = 0;
        __atomic_compare_exchange_n((uintptr_t *)p, &zero, (uintptr_t)0, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    }
}

/* Fault in the next chunk of the queue (lock held; released meanwhile);
 * [traversing]: from the middle of a traversal, which the worker still
 * holds (it is not parked). */
static void prefault_chunk(GCWorker *w, int traversing)
{
    PageRange *r = &w->pages[w->pages_head];
    int release = r->release;
    uintptr_t chunk = release ? RELEASE_CHUNK : PREFAULT_CHUNK;
    uintptr_t lo = r->lo, hi = r->hi - lo > chunk ? lo + chunk : r->hi;
    r->lo = hi;
    while (w->pages_head < w->pages_n && w->pages[w->pages_head].lo == w->pages[w->pages_head].hi) w->pages_head++;
    if (w->pages_head == w->pages_n) w->pages_head = w->pages_n = 0;
    atomic_store_explicit(&w->pages_waiting, w->pages_n > 0 && !w->prefault_held, memory_order_relaxed);
    if (lo == hi) return;
    if (!traversing) w->parked = 1; /* (the loop decides again what it is when this returns) */
    w->served_traversing += (size_t)traversing;
    atomic_store_explicit(&w->faulting, 1, memory_order_relaxed);
    w->chunk_lo = lo;
    w->chunk_hi = hi;
    w->chunk_release = release;
    pthread_mutex_unlock(&w->lock);
    if (release)
        madvise((void *)lo, hi - lo, MADV_DONTNEED); /* (failing, the pages stay: the block's free takes them) */
    else
        fault_in(lo, hi);
    atomic_store_explicit(&w->faulting, 0, memory_order_release); /* (a spinning hold goes on at once) */
    pthread_mutex_lock(&w->lock);
    w->chunk_lo = w->chunk_hi = 0;
    w->chunk_release = 0;
    w->released_chunks += (size_t)release;
    pthread_cond_broadcast(&w->parked_cv); /* a hold or a cancel may be waiting for this chunk */
}

/* From the middle of a traversal, pages to fault in only: a chunk given
 * back may take milliseconds on a virtual machine, and a pause that stops
 * the worker waits for a traversal in progress (while parked, between
 * objects, the worker gives pages back without holding up a pause). */
static void fault_queued_pages(GCWorker *w)
{
    pthread_mutex_lock(&w->lock);
    while (w->pages_n > 0 && !w->pages[w->pages_head].release && !w->prefault_held &&
           !atomic_load_explicit(&w->stop, memory_order_relaxed))
        prefault_chunk(w, 1);
    pthread_mutex_unlock(&w->lock);
}

static void *worker_main(void *arg)
{
    GCWorker *w = arg;
#ifdef SCHED_BATCH
    /* The game's thread comes first: a batch thread never preempts it when
     * it wakes, and takes what the cores have to spare (when they have
     * none, the mark falls behind and the heap grows, as the pacer
     * allows). Without this, on a machine with more threads than cores,
     * handing the worker its first objects could stop the game's thread
     * for a whole time slice. */
    struct sched_param sp;
    memset(&sp, 0, sizeof sp);
    pthread_setschedparam(pthread_self(), SCHED_BATCH, &sp);
#endif
    pthread_mutex_lock(&w->lock);
    for (;;) {
        publish_deferred(w, &w->own);
        if (w->own.overflow) {
            w->overflow = 1;
            w->own.overflow = 0;
        }
        if (w->state == W_QUIT) break;
        int stopping = atomic_load_explicit(&w->stop, memory_order_relaxed);
        if (!stopping && w->pages_n > 0 && !w->prefault_held) {
            prefault_chunk(w, 0);
            continue;
        }
        if (w->state == W_MARKING && !stopping && w->own.grey.n == 0 && w->inbox.n > 0) {
            WVec t = w->own.grey; /* take the inbox whole; it keeps the empty stack's room */
            w->own.grey = w->inbox;
            w->inbox = t;
        }
        if (w->state != W_MARKING || stopping || w->own.grey.n == 0) {
            w->parked = 1;
            pthread_cond_broadcast(&w->parked_cv);
            w->woken = 0; /* (a signal before this decision was for a loop it has run since) */
            atomic_store_explicit(&w->hungry, w->state == W_MARKING && !stopping, memory_order_relaxed);
            pthread_cond_wait(&w->wake, &w->lock);
            atomic_store_explicit(&w->hungry, 0, memory_order_relaxed);
            continue;
        }
        w->parked = 0;
        pthread_mutex_unlock(&w->lock);
        drain(w);
        pthread_mutex_lock(&w->lock);
    }
    w->parked = 1;
    pthread_cond_broadcast(&w->parked_cv);
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

/* The worker, made on first use; NULL when no thread can be had (the
 * cycle then marks on the mutator, as with TIDE_GC_DEBUG=no-worker). */
static GCWorker *get_worker(GCState *gc)
{
    if (gc->worker_off) return NULL;
    if (gc->worker != NULL) return gc->worker;
    if (gc->worker_failed) return NULL;
    GCWorker *w = calloc(1, sizeof *w);
    if (w == NULL) goto fail;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* timed waits use gc_now_ns's clock */
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, &ca);
    pthread_cond_init(&w->parked_cv, &ca);
    pthread_condattr_destroy(&ca);
    atomic_init(&w->stop, 0);
    atomic_init(&w->share_wanted, 0);
    atomic_init(&w->hungry, 0);
    atomic_init(&w->pages_waiting, 0);
    atomic_init(&w->faulting, 0);
    w->state = W_PARKED_STATE;
    /* Signals are the game's thread's business: the worker blocks them all
     * (a watchdog's SIGALRM must interrupt the script, not the marker). */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int err = pthread_create(&w->thread, NULL, worker_main, w);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (err != 0) {
        pthread_cond_destroy(&w->wake);
        pthread_cond_destroy(&w->parked_cv);
        pthread_mutex_destroy(&w->lock);
        free(w);
        goto fail;
    }
    gc->worker = w;
    return w;
fail:
    gc->worker_failed = 1;
    return NULL;
}

void gc_worker_prepare(GCState *gc)
{
    get_worker(gc);
}

/* --- the mutator's side ---------------------------------------------------------------- */

/* Ask the worker to park and wait until it has (lock held on return). A
 * parked worker is not woken: it reads the state when it next wakes, and a
 * worker that wakes for nothing may be preempted holding the lock, which
 * the next pause would then wait for. */
static void park_worker(GCWorker *w)
{
    pthread_mutex_lock(&w->lock);
    w->state = W_PARKED_STATE;
    if (!w->parked) {
        atomic_store_explicit(&w->stop, 1, memory_order_relaxed);
        while (!w->parked) pthread_cond_wait(&w->parked_cv, &w->lock);
        atomic_store_explicit(&w->stop, 0, memory_order_relaxed);
    }
}

int gc_worker_start(lua_State *L)
{
    GCState *gc = gc_state(L);
    GCWorker *w = get_worker(gc);
    if (w == NULL) return 0;
    park_worker(w); /* parked already between cycles: this only takes the lock */
    /* the view */
    size_t na = major_arena_count(gc->major), nl = los_count(gc->los);
    if (na > w->arenas_cap) {
        MajorArenaView *a = realloc(w->arenas, na * sizeof *a);
        if (a == NULL) goto no_memory;
        w->arenas = a;
        w->arenas_cap = na;
    }
    if (nl > w->los_cap) {
        uintptr_t *l = realloc(w->los, nl * sizeof *l);
        if (l == NULL) goto no_memory;
        w->los = l;
        w->los_cap = nl;
    }
    major_arena_views(gc->major, w->arenas);
    w->narenas = na;
    los_object_addresses(gc->los, w->los);
    w->nlos = nl;
    w->nursery_lo = G(L)->nursery_lo;
    w->nursery_span = G(L)->nursery_span;
    w->mode_name = G(L)->tmname[TM_MODE];
    WMarker *markers[2] = {&w->own, &w->helper};
    for (int k = 0; k < 2; k++) {
        markers[k]->w = w;
        markers[k]->traversed = markers[k]->handed_back = 0;
        markers[k]->arena_hint = 0;
        markers[k]->grey.n = markers[k]->defer.n = 0;
        markers[k]->overflow = 0;
    }
    w->overflow = 0;
    w->inbox.n = w->outbox.n = w->shared.n = 0;
    atomic_store_explicit(&w->share_wanted, 0, memory_order_relaxed);
    /* the initial pause's grey objects */
    if (!wvec_append(&w->inbox, gc->grey.items, gc->grey.n)) goto no_memory;
    gc->grey.n = 0;
    w->state = W_MARKING;
    pthread_mutex_unlock(&w->lock);
    pthread_cond_signal(&w->wake); /* (after the unlock: it does not wake into a held lock) */
    return 1;
no_memory:
    pthread_mutex_unlock(&w->lock);
    return 0;
}

/* Lock held: does the worker wait on [wake] with no signal on its way? If
 * so it is now on its way (the caller signals after unlocking). A worker
 * that is running, or faulting pages in, looks at its queues again before
 * it waits. */
static int wake_wanted(GCWorker *w)
{
    if (!w->parked || w->woken || atomic_load(&w->faulting)) return 0;
    w->woken = 1;
    return 1;
}

/* The mutator's calls in the middle of a frame take the lock only when it
 * is free: the worker holds it briefly, but when the machine has more
 * threads than cores it can be preempted holding it, and a safe point
 * would wait out its time slice. What they would do waits for the next
 * call. */
void gc_worker_feed(GCState *gc)
{
    GCWorker *w = gc->worker;
    if (gc->grey.n == 0 || pthread_mutex_trylock(&w->lock) != 0) return;
    int wake = 0;
    if (wvec_append(&w->inbox, gc->grey.items, gc->grey.n)) {
        gc->grey.n = 0;
        wake = wake_wanted(w);
    }
    /* (no room: the mutator keeps them, and traverses them itself at the
     * final pause) */
    pthread_mutex_unlock(&w->lock);
    if (wake) pthread_cond_signal(&w->wake);
}

/* Move the outbox onto the mutator's list of deferred objects. */
static void take_outbox(GCState *gc, GCWorker *w)
{
    if (pthread_mutex_trylock(&w->lock) != 0) return;
    if (w->outbox.n > 0 && wvec_append(&w->taken, w->outbox.items, w->outbox.n)) w->outbox.n = 0;
    pthread_mutex_unlock(&w->lock);
    (void)gc;
}

/* Clear the dead keys of up to CLEAR_PIECE nodes of the node storage [p]
 * from [*pos]; 1 when it is done (storage released since holds none). */
static int clear_keys_some(GCState *gc, Part *p, size_t *pos)
{
    if (p->pad != PART_NODES) return 1;
    Node *node = part_payload(p);
    size_t n = p->nbytes / sizeof(Node), i = *pos, end = i + CLEAR_PIECE < n ? i + CLEAR_PIECE : n;
    for (; i < end; i++)
        if (isempty(gval(&node[i]))) gc_clearkey(gc, &node[i]);
    *pos = i;
    return i >= n;
}

/* One deferred object, traversed with the stop-the-world traversal (the
 * mutator reads its own heap); a large strong table goes to big_table, to
 * be traversed in pieces. */
static void traverse_deferred(GCState *gc, GCObject *o)
{
    if (o->tt == HT_TABLE) {
        Table *t = gco2t(o);
        if (t->asize + (size_t)sizenode(t) > MUTATOR_BIG_TABLE && gc->big_table == NULL &&
            gc_traverse_table_begin(gc, t) == 0) {
            gc->big_table = t;
            gc->big_pos = 0;
            return;
        }
    }
    gc_traverse(gc, o);
}

int gc_worker_assist(lua_State *L, uint64_t deadline_ns)
{
    GCState *gc = gc_state(L);
    GCWorker *w = gc->worker;
    take_outbox(gc, w);
    int worked = 0;
    for (unsigned n = 0;; n++) {
        if (deadline_ns != 0 && (n & 15) == 15 && gc_now_ns() >= deadline_ns) break;
        if (gc->big_table != NULL) {
            if (gc_traverse_strong_range(gc, gc->big_table, &gc->big_pos, CLEAR_PIECE)) gc->big_table = NULL;
        } else if (w->clearing != NULL) {
            if (clear_keys_some(gc, w->clearing, &w->clear_pos)) w->clearing = NULL;
        } else if (w->taken_pos < w->taken.n) {
            uintptr_t item = (uintptr_t)w->taken.items[w->taken_pos++];
            if (item & DEFER_CLEAR_KEYS) {
                w->clearing = (Part *)(item & ~DEFER_CLEAR_KEYS);
                w->clear_pos = 0;
            } else {
                traverse_deferred(gc, (GCObject *)item);
            }
        } else {
            break;
        }
        worked = 1;
    }
    if (w->taken_pos == w->taken.n) w->taken.n = w->taken_pos = 0;
    if (deadline_ns != 0) gc_worker_feed(gc);
    return worked;
}

int gc_worker_idle(GCState *gc)
{
    GCWorker *w = gc->worker;
    if (gc->grey.n > 0 || gc->big_table != NULL || w->clearing != NULL || w->taken.n > 0) return 0;
    if (pthread_mutex_trylock(&w->lock) != 0) return 0;
    int idle = w->parked && w->own.grey.n == 0 && w->inbox.n == 0 && w->outbox.n == 0 && w->shared.n == 0;
    pthread_mutex_unlock(&w->lock);
    return idle;
}

/* Lock held: take grey objects for the mutator's traversal — what the
 * worker split off for it, or else half the inbox (the mutator's own marks,
 * not yet taken by the worker); 1 if it has some. */
static int take_share(GCWorker *w, WMarker *m)
{
    if (w->shared.n > 0) {
        WVec t = m->grey; /* (empty: it keeps its room) */
        m->grey = w->shared;
        w->shared = t;
    } else if (w->inbox.n > 0) {
        size_t take = (w->inbox.n + 1) / 2;
        if (!wvec_append(&m->grey, w->inbox.items + (w->inbox.n - take), take)) return 0;
        w->inbox.n -= take;
    }
    return m->grey.n > 0;
}

/* The worker waits with nothing to mark: give it the older half of the
 * mutator's stack (the converse of share_grey). */
static void feed_hungry(GCWorker *w, WMarker *m)
{
    int wake = 0;
    pthread_mutex_lock(&w->lock);
    if (atomic_load_explicit(&w->hungry, memory_order_relaxed) && give_older_half(&m->grey, &w->inbox)) {
        atomic_store_explicit(&w->hungry, 0, memory_order_relaxed);
        wake = wake_wanted(w);
    }
    pthread_mutex_unlock(&w->lock);
    if (wake) pthread_cond_signal(&w->wake);
}

/* The mutator's traversal, until its stack is empty or its deadline. */
static void help_drain(GCWorker *w, WMarker *m)
{
    unsigned count = 0;
    while (m->grey.n > 0) {
        w_traverse(m, m->grey.items[--m->grey.n]);
        m->traversed++;
        if (++count % HELP_CLOCK_EVERY == 0) {
            if (gc_now_ns() >= m->deadline_ns) return;
            if (atomic_load_explicit(&w->hungry, memory_order_relaxed)) feed_hungry(w, m);
        }
    }
}

uint64_t gc_worker_help(GCState *gc, uint64_t deadline_ns)
{
    GCWorker *w = gc->worker;
    WMarker *m = &w->helper;
    uint64_t waited = 0;
    pthread_mutex_lock(&w->lock);
    if (!take_share(w, m)) {
        /* Nothing to take: ask the worker for a share, and wait for it, for
         * objects handed back, or for the worker to run out of work (a
         * worker faulting pages in with grey objects left is not out of
         * it). */
        struct timespec ts;
        ts.tv_sec = (time_t)(deadline_ns / 1000000000u);
        ts.tv_nsec = (long)(deadline_ns % 1000000000u);
        uint64_t before = gc_now_ns();
        atomic_store_explicit(&w->share_wanted, 1, memory_order_relaxed);
        int err = 0;
        while (err == 0 && w->outbox.n == 0 && w->shared.n == 0 &&
               !(w->parked && (w->own.grey.n == 0 || !atomic_load(&w->faulting))))
            err = pthread_cond_timedwait(&w->parked_cv, &w->lock, &ts);
        atomic_store_explicit(&w->share_wanted, 0, memory_order_relaxed);
        waited = gc_now_ns() - before;
        take_share(w, m);
    }
    pthread_mutex_unlock(&w->lock);
    if (m->grey.n > 0) {
        m->deadline_ns = deadline_ns;
        help_drain(w, m);
    }
    /* What it deferred goes on the mutator's own list; what it has not
     * traversed (the deadline came) back to the worker. */
    if (!wvec_append(&w->taken, m->defer.items, m->defer.n)) m->overflow = 1;
    m->defer.n = 0;
    int wake = 0;
    if (m->grey.n > 0 || m->overflow) {
        pthread_mutex_lock(&w->lock);
        if (!wvec_append(&w->inbox, m->grey.items, m->grey.n)) m->overflow = 1;
        if (m->overflow) w->overflow = 1; /* (the final pause rescans) */
        m->grey.n = 0;
        m->overflow = 0;
        wake = wake_wanted(w);
        pthread_mutex_unlock(&w->lock);
    }
    if (wake) pthread_cond_signal(&w->wake);
    return waited;
}

void gc_worker_stop(GCState *gc, int keep)
{
    GCWorker *w = gc->worker;
    park_worker(w);
    if (keep) {
        /* Everything it held: grey objects back onto the mutator's stack,
         * deferred ones onto its list. What finds no room is marked but
         * untraversed: the final pause's rescan finds it. */
        WVec *greys[3] = {&w->own.grey, &w->inbox, &w->shared};
        for (int k = 0; k < 3; k++)
            for (size_t i = 0; i < greys[k]->n; i++)
                if (!gc_vec_push(gc, &gc->grey, greys[k]->items[i])) gc->grey_overflow = 1;
        if (!wvec_append(&w->taken, w->outbox.items, w->outbox.n) ||
            !wvec_append(&w->taken, w->own.defer.items, w->own.defer.n) || w->overflow)
            gc->grey_overflow = 1;
    } else {
        w->taken.n = w->taken_pos = 0;
        w->clearing = NULL;
    }
    lua_assert(w->helper.grey.n == 0 && w->helper.defer.n == 0);
    gc->worker_traversed = w->own.traversed;
    gc->worker_handed_back = w->own.handed_back;
    gc->helper_traversed = w->helper.traversed;
    w->own.grey.n = w->inbox.n = w->outbox.n = w->own.defer.n = w->shared.n = 0;
    w->overflow = 0;
    pthread_mutex_unlock(&w->lock);
}

static int queue_pages(void *ud, void *addr, size_t len, int release)
{
    GCState *gc = ud;
    GCWorker *w = gc->worker;
    if (w == NULL || len == 0 || pthread_mutex_trylock(&w->lock) != 0) return 0;
    int queued = 0, wake = 0;
    if (w->pages_n == w->pages_cap && w->pages_head > 0) { /* the ranges passed make room */
        memmove(w->pages, w->pages + w->pages_head, (w->pages_n - w->pages_head) * sizeof *w->pages);
        w->pages_n -= w->pages_head;
        w->pages_head = 0;
    }
    if (w->pages_n == w->pages_cap && w->pages_cap < PREFAULT_QUEUE_MAX) {
        size_t ncap = w->pages_cap == 0 ? 64 : w->pages_cap * 2;
        PageRange *np = realloc(w->pages, ncap * sizeof *np);
        if (np != NULL) {
            w->pages = np;
            w->pages_cap = ncap;
        }
    }
    if (w->pages_n < w->pages_cap) {
        wake = wake_wanted(w); /* (maybe with pages left by a stop) */
        w->pages[w->pages_n].lo = (uintptr_t)addr;
        w->pages[w->pages_n].hi = (uintptr_t)addr + len;
        w->pages[w->pages_n].release = release;
        w->pages_n++;
        atomic_store_explicit(&w->pages_waiting, !w->prefault_held, memory_order_relaxed);
        queued = 1;
    }
    pthread_mutex_unlock(&w->lock);
    if (wake) pthread_cond_signal(&w->wake);
    return queued;
}

int gc_worker_prefault(void *ud, void *addr, size_t len)
{
    return queue_pages(ud, addr, len, 0);
}

int gc_worker_release_pages(void *ud, void *addr, size_t len)
{
    return queue_pages(ud, addr, len, 1);
}

int gc_worker_pages_pending(void *ud, void *addr, size_t len)
{
    GCState *gc = ud;
    GCWorker *w = gc->worker;
    if (w == NULL) return 0;
    uintptr_t lo = (uintptr_t)addr, hi = lo + len;
    pthread_mutex_lock(&w->lock);
    int pending = atomic_load(&w->faulting) && w->chunk_lo < hi && w->chunk_hi > lo;
    for (size_t i = w->pages_head; i < w->pages_n && !pending; i++)
        pending = w->pages[i].lo < w->pages[i].hi && w->pages[i].lo < hi && w->pages[i].hi > lo;
    pthread_mutex_unlock(&w->lock);
    return pending;
}

size_t gc_worker_released_chunks(GCState *gc)
{
    GCWorker *w = gc->worker;
    if (w == NULL) return 0;
    pthread_mutex_lock(&w->lock);
    size_t n = w->released_chunks;
    pthread_mutex_unlock(&w->lock);
    return n;
}

int gc_worker_prefault_hold(GCState *gc)
{
    GCWorker *w = gc->worker;
    if (w == NULL) return 0;
    pthread_mutex_lock(&w->lock);
    int busy = w->pages_n > 0 || atomic_load(&w->faulting);
    if (busy) {
        w->prefault_held++;
        atomic_store_explicit(&w->pages_waiting, 0, memory_order_relaxed);
        /* A chunk of pages being given back is not waited for: it takes up
         * to milliseconds, and holds up only a call that remaps (brk,
         * mmap, munmap), which then waits in the kernel as long; most
         * calls remap nothing (the promotion reserve's arenas waited
         * 0.8-1.1 ms for one). A chunk faulted in takes microseconds:
         * spin for it first, since a sleep and a wake cost more than that
         * on a virtual machine. (The worker starts no other chunk while
         * held.) */
        if (!w->chunk_release) {
            pthread_mutex_unlock(&w->lock);
            for (unsigned spins = 0; spins < HOLD_SPINS && atomic_load_explicit(&w->faulting, memory_order_acquire);
                 spins++)
                sched_yield();
            pthread_mutex_lock(&w->lock);
            while (atomic_load(&w->faulting) && !w->chunk_release) pthread_cond_wait(&w->parked_cv, &w->lock);
        }
    }
    pthread_mutex_unlock(&w->lock);
    return busy;
}

void gc_worker_prefault_release(GCState *gc)
{
    GCWorker *w = gc->worker;
    pthread_mutex_lock(&w->lock);
    int wake = --w->prefault_held == 0 && w->pages_n > 0 && wake_wanted(w);
    if (w->prefault_held == 0) atomic_store_explicit(&w->pages_waiting, w->pages_n > 0, memory_order_relaxed);
    pthread_mutex_unlock(&w->lock);
    if (wake) pthread_cond_signal(&w->wake);
}

size_t gc_worker_prefault_pending(GCState *gc)
{
    GCWorker *w = gc->worker;
    if (w == NULL) return 0;
    pthread_mutex_lock(&w->lock);
    size_t n = w->pages_n - w->pages_head + (size_t)atomic_load(&w->faulting);
    pthread_mutex_unlock(&w->lock);
    return n;
}

size_t gc_worker_prefault_served_traversing(GCState *gc)
{
    GCWorker *w = gc->worker;
    if (w == NULL) return 0;
    pthread_mutex_lock(&w->lock);
    size_t n = w->served_traversing;
    pthread_mutex_unlock(&w->lock);
    return n;
}

void gc_worker_prefault_cancel(void *ud, void *addr, size_t len)
{
    GCState *gc = ud;
    GCWorker *w = gc->worker;
    if (w == NULL) return;
    uintptr_t lo = (uintptr_t)addr, hi = lo + len;
    pthread_mutex_lock(&w->lock);
    /* (a queued range lies inside one block: inside the range or apart) */
    for (size_t i = w->pages_head; i < w->pages_n; i++)
        if (w->pages[i].lo >= lo && w->pages[i].lo < hi) w->pages[i].lo = w->pages[i].hi;
    while (atomic_load(&w->faulting)) pthread_cond_wait(&w->parked_cv, &w->lock); /* (whatever chunk: microseconds) */
    pthread_mutex_unlock(&w->lock);
}

void gc_worker_finish_deferred(lua_State *L)
{
    gc_worker_assist(L, 0);
}

void gc_worker_destroy(GCState *gc)
{
    GCWorker *w = gc->worker;
    if (w == NULL) return;
    pthread_mutex_lock(&w->lock);
    w->state = W_QUIT;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->wake);
    pthread_cond_destroy(&w->parked_cv);
    pthread_mutex_destroy(&w->lock);
    WVec *vecs[] = {&w->inbox, &w->outbox, &w->shared, &w->own.grey, &w->own.defer,
                    &w->helper.grey, &w->helper.defer, &w->taken};
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++) wvec_free(vecs[i]);
    free(w->arenas);
    free(w->los);
    free(w->pages);
    free(w);
    gc->worker = NULL;
}
