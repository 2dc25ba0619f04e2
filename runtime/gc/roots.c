/*
 * roots.c — where marking starts: the state's own references and the C
 * stack and registers of the mutator, scanned conservatively.
 *
 * World stopped, mutator thread (the OS thread that called into the
 * collector: only its stack is scanned, which is why a state is used by one
 * OS thread at a time).
 *
 * The conservative scan. The registers are spilled to the stack
 * (__builtin_unwind_init saves every callee-saved register in the frame of
 * scan_c_stack; setjmp copies them once more into a local jmp_buf, in case
 * a register is not covered), then every aligned word from there up to the
 * top of the thread's stack is read (gc_stack_words). The words are sorted;
 * every object whose [start, start + size) contains one is a root —
 * interior pointers count (a char * into a string, a TValue * into a Part):
 * pinned by a nursery collection (minor.c), marked by a full one (here)
 * and, if it is in the major heap, kept in place by that collection's
 * evacuation (evacuate.c). A nursery object is found by walking the
 * nursery in step with the sorted words, an old one by its space's lookup
 * (major_object_containing, los_object_containing). The stack's top
 * comes from pthread_getattr_np, cached per OS thread because for the
 * main thread glibc reads /proc/self/maps to answer. When memory for the
 * buffer of words is short, they are handled in batches.
 *
 * The mutator must run on its OS thread's own stack: a foreign stack (a
 * fiber of the host's) cannot be found, and the collector stops the
 * process with a message rather than miss roots.
 */
#define _GNU_SOURCE /* pthread_getattr_np */
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#include "gc_internal.h"

/* --- the state's own roots ------------------------------------------------- */

static void mark_stack_candidates(GCState *gc);

void gc_mark_roots(lua_State *L)
{
    GlobalState *g = G(L);
    GCState *gc = g->gc;
    for (size_t i = 0; i < gc->fixed.n; i++) gc_mark(gc, gc->fixed.items[i]);
    if (g->mainthread != NULL) gc_mark(gc, obj2gco(g->mainthread));
    gc_mark(gc, obj2gco(L)); /* the running thread */
    gc_markvalue(gc, &g->l_registry);
    for (int i = 0; i < LUA_NUMTYPES; i++)
        if (g->mt[i] != NULL) gc_mark(gc, obj2gco(g->mt[i]));
    for (int i = 0; i < TM_COUNT; i++)
        if (g->tmname[i] != NULL) gc_mark(gc, obj2gco(g->tmname[i]));
    if (g->memerrmsg != NULL) gc_mark(gc, obj2gco(g->memerrmsg));
    gc_handles_mark_strong(gc);
    /* finalizers still to run from earlier cycles: their objects (and what
     * those reach) stay whole until then */
    for (size_t i = gc->tobefnz_head; i < gc->tobefnz.n; i++) gc_mark(gc, gc->tobefnz.items[i]);
    mark_stack_candidates(gc);
}

/* --- the thread's stack bounds -------------------------------------------------- */

typedef struct StackRange {
    uintptr_t lo, hi;
} StackRange;

/* A property of the OS thread, not of any state: computed once per thread. */
static _Thread_local StackRange thread_stack;

static int query_thread_stack(StackRange *r)
{
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
    void *addr = NULL;
    size_t size = 0;
    int ok = pthread_attr_getstack(&attr, &addr, &size) == 0;
    pthread_attr_destroy(&attr);
    if (!ok) return 0;
    r->lo = (uintptr_t)addr;
    r->hi = r->lo + size;
    return 1;
}

/* The top (highest address) of the stack that contains [sp]. */
static uintptr_t stack_top(uintptr_t sp)
{
    StackRange *r = &thread_stack;
    if (r->hi == 0 || sp < r->lo || sp >= r->hi) {
        if (!query_thread_stack(r) || sp < r->lo || sp >= r->hi) {
            fprintf(stderr, "tide: the collector cannot find the C stack of the calling thread "
                            "(is the state used from a stack the thread library does not know, "
                            "such as a fiber?)\n");
            abort();
        }
    }
    return r->hi;
}

/* --- the scan --------------------------------------------------------------------------- */

static int compare_words(const void *a, const void *b)
{
    uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
    return (x > y) - (x < y);
}

/* Room for [count] candidates: the kept buffer, grown if possible, else
 * whatever it has, else the fallback inside GCState. */
static uintptr_t *candidate_buffer(GCState *gc, size_t count, size_t *cap)
{
    if (count > gc->cand_cap) {
        size_t ncap = gc->cand_cap == 0 ? 1024 : gc->cand_cap;
        while (ncap < count) ncap *= 2;
        uintptr_t *nb = gc_internal_realloc(gc, gc->cand, gc->cand_cap * sizeof(uintptr_t),
                                            ncap * sizeof(uintptr_t));
        if (nb != NULL) {
            gc->cand = nb;
            gc->cand_cap = ncap;
        }
    }
    if (gc->cand_cap >= GC_CAND_FALLBACK) {
        *cap = gc->cand_cap;
        return gc->cand;
    }
    *cap = GC_CAND_FALLBACK;
    return gc->cand_fallback;
}

/* The windows (gc.h) that lie inside [lo, hi), low to high, at most
 * MAX_WINDOWS of them (the scan reads the rest: always safe). A window
 * elsewhere (on a sanitizer's fake stack) is left out. Windows out of
 * order cannot be trusted: then none is used. */
#define MAX_WINDOWS 64
typedef struct WindowSet {
    size_t n;
    uintptr_t lo[MAX_WINDOWS], hi[MAX_WINDOWS];
} WindowSet;

static void collect_windows(WindowSet *set, const GCStackWindow *w, uintptr_t lo, uintptr_t hi)
{
    set->n = 0;
    uintptr_t last = lo;
    for (; w != NULL && set->n < MAX_WINDOWS; w = w->prev) {
        if (w->lo < lo || w->hi > hi || w->hi <= w->lo) continue;
        if (w->lo < last) {
            lua_assert(!"GC stack windows out of order");
            set->n = 0;
            return;
        }
        set->lo[set->n] = w->lo;
        set->hi[set->n] = w->hi;
        set->n++;
        last = w->hi;
    }
}

/* Every word of [lo, hi) outside the windows: [body] on each one, [w],
 * that falls inside [want_lo, want_lo + want_span). */
#define for_each_stack_word(lo, hi, set, w, body) \
    do { \
        size_t win_ = 0; \
        for (uintptr_t a_ = (lo); a_ < (hi); a_ += sizeof(uintptr_t)) { \
            if (win_ < (set)->n && a_ >= (set)->lo[win_]) { \
                a_ = ((set)->hi[win_] - sizeof(uintptr_t)) & ~(uintptr_t)(sizeof(uintptr_t) - 1); \
                win_++; \
                continue; \
            } \
            uintptr_t w = *(const volatile uintptr_t *)a_; \
            if (w - want_lo < want_span) { body; } \
        } \
    } while (0)

typedef struct StackWords {
    uintptr_t want_lo, want_span; /* the range asked for */
    gc_WordsFn fn;
    void *ud;
} StackWords;

/* Sort and deduplicate w[0..n), then hand it to the caller's function. */
static void deliver(StackWords *sw, uintptr_t *w, size_t n)
{
    if (n == 0) return;
    qsort(w, n, sizeof *w, compare_words);
    size_t m = 1;
    for (size_t i = 1; i < n; i++)
        if (w[i] != w[m - 1]) w[m++] = w[i];
    sw->fn(sw->ud, w, m);
}

/*
 * Reads the stack from this function's frame up to the stack's top, but
 * for the VM's precise windows (gc.h). Not instrumented by
 * AddressSanitizer (the words between frames are redzones it would
 * report) and never inlined (its frame must lie below the frame holding
 * the spilled registers). Words are read through a volatile pointer so the
 * compiler cannot reason about them. When the buffer is shorter than the
 * words (memory is short: it could not grow), they are delivered in
 * batches; the caller's function runs below this frame, so it does not
 * disturb what is still to be read.
 */
__attribute__((noinline, no_sanitize_address)) static void read_stack_words(GCState *gc, StackWords *sw)
{
    uintptr_t lo = (uintptr_t)__builtin_frame_address(0) & ~(uintptr_t)(sizeof(uintptr_t) - 1);
    uintptr_t hi = stack_top(lo) & ~(uintptr_t)(sizeof(uintptr_t) - 1);
    uintptr_t want_lo = sw->want_lo, want_span = sw->want_span;
    WindowSet windows;
    collect_windows(&windows, gc->g->stack_windows, lo, hi);
    size_t count = 0;
    for_each_stack_word(lo, hi, &windows, w, (void)w; count++);
    size_t cap;
    uintptr_t *buf = candidate_buffer(gc, count, &cap);
    size_t n = 0;
    for_each_stack_word(lo, hi, &windows, w, {
        buf[n++] = w;
        if (n == cap) {
            deliver(sw, buf, n);
            n = 0;
        }
    });
    deliver(sw, buf, n);
}

__attribute__((noinline)) static void scan_c_stack(GCState *gc, StackWords *sw)
{
    jmp_buf registers;
    __builtin_unwind_init();
    if (setjmp(registers) == 0) read_stack_words(gc, sw);
    /* Keep this frame, and the registers saved in it, alive during the
     * call: no tail call. */
    __asm__ volatile("" : : "r"(&registers) : "memory");
}

void gc_stack_words(GCState *gc, uintptr_t lo, uintptr_t hi, gc_WordsFn fn, void *ud)
{
    StackWords sw;
    sw.want_lo = lo;
    sw.want_span = hi - lo;
    sw.fn = fn;
    sw.ud = ud;
    scan_c_stack(gc, &sw);
}

/* [fn](gc, o) for every object of any space a word of [w] points into. */
static void word_objects(GCState *gc, const uintptr_t *w, size_t n, void (*fn)(void *ud, GCObject *o))
{
    gc_nursery_find(gc, w, n, fn, gc);
    for (size_t i = 0; i < n; i++) {
        if (gc_in_nursery(gc, w[i])) continue;
        void *o = major_object_containing(gc->major, (void *)w[i]);
        if (o == NULL) o = los_object_containing(gc->los, (void *)w[i]);
        if (o != NULL) fn(gc, o);
    }
}

/* The roots: mark every object of any space a word points into. When the
 * collection may evacuate, the major objects among them are recorded too:
 * C code holds their addresses, so they stay where they are (evacuate.c).
 * Nursery objects never move in a full collection after its nursery
 * collection, and large objects never move at all.
 * In a full collection, table storage a word points into waits for
 * gc_mark_held_parts, after the mark: marked now, it would count as
 * reached through its table, whose traversal marks what it holds, and the
 * table might never be traversed (dead, or the storage released by a
 * resize) or be weak. A major cycle marks it here, as a leaf: its final
 * pause comes at a safe point, where no C code holds storage, and the
 * cycle's marks are not meant to let a stale word keep anything. */
static void mark_cb(void *ud, GCObject *o)
{
    GCState *gc = ud;
    if (o->tt != HT_PART || gc->cycle_marking) gc_mark(gc, o);
    if (o->age == GC_SPACE_MAJOR && gc->may_evacuate) gc_note_stack_root(gc, o);
}

static void mark_words(void *ud, const uintptr_t *w, size_t n)
{
    word_objects(ud, w, n, mark_cb);
}

static void mark_stack_candidates(GCState *gc)
{
    gc_stack_words(gc, 0, UINTPTR_MAX, mark_words, gc);
}

/* Mark [ref] if it is where an object begins (a held part may be dead
 * storage a stale word names, pinned collection after collection, whose
 * slots name objects long freed: they are not followed). */
static void mark_if_object_cb(void *ud, GCObject *o)
{
    gc_mark(ud, o);
}

static void mark_if_object(GCState *gc, GCObject *ref)
{
    uintptr_t a = (uintptr_t)ref;
    if (gc_in_nursery(gc, a)) {
        gc_nursery_find(gc, &a, 1, mark_if_object_cb, gc); /* (the one containing it) */
        return;
    }
    if (major_object_containing(gc->major, ref) == (void *)ref || los_object_containing(gc->los, ref) == (void *)ref)
        gc_mark(gc, ref);
}

/* Storage that C code holds (or a stale word names) and the mark did not
 * reach through its table keeps what it holds, strongly: its table is dead
 * or no longer names it, so no weakness applies. Storage the mark reached
 * was traversed with its table (weakly, if the table is weak). */
static void held_part(GCState *gc, GCObject *o)
{
    if (o->tt != HT_PART || gc_ismarked(gc, o)) return;
    gc_setmark(gc, o);
    Part *p = (Part *)(void *)o;
    if (p->pad == PART_ARRAY) {
        TValue *a = part_payload(p);
        for (size_t i = 0, n = p->nbytes / sizeof(TValue); i < n; i++)
            if (iscollectable(&a[i])) mark_if_object(gc, gcvalue(&a[i]));
    } else if (p->pad == PART_NODES) {
        Node *node = part_payload(p);
        for (size_t i = 0, n = p->nbytes / sizeof(Node); i < n; i++) {
            Node *nd = &node[i];
            if (isempty(gval(nd))) continue;
            if (nd->key_tt & BIT_COLLECTABLE) mark_if_object(gc, nd->key_val.gc);
            if (iscollectable(gval(nd))) mark_if_object(gc, gcvalue(gval(nd)));
        }
    }
    gc->held_parts_marked++;
}

static void held_part_cb(void *ud, GCObject *o)
{
    held_part(ud, o);
}

static void held_part_words(void *ud, const uintptr_t *w, size_t n)
{
    word_objects(ud, w, n, held_part_cb);
}

int gc_mark_held_parts(GCState *gc)
{
    if (gc->cycle_marking) return 0; /* (mark_word_object) */
    gc->held_parts_marked = 0;
    gc_stack_words(gc, 0, UINTPTR_MAX, held_part_words, gc);
    return gc->held_parts_marked != 0;
}

/* The collection's own frames are pushed onto stack memory that earlier,
 * deeper calls left full of their temporaries, and a frame's slots that
 * are never written keep them: a stale word would keep its object alive.
 * So the entry points zero a stretch below themselves first, where the
 * collection's frames will lie. 16 KiB covers them in every build (-O0 and
 * sanitizers make frames large); it costs about a microsecond. */
#define SCRUB_BYTES 16384
__attribute__((noinline)) void gc_scrub_stack(void)
{
    char area[SCRUB_BYTES];
    memset(area, 0, sizeof area);
    __asm__ volatile("" : : "r"(area) : "memory"); /* the stores must happen */
}
