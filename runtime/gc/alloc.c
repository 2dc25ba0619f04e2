/*
 * alloc.c — where every byte of a state comes from: young objects (the
 * nursery's slow path: gc_new's fast path is inline in gc.h), objects born
 * old (gc_new_pinned, prototypes, large objects, pretenured ones), table
 * storage, raw blocks
 * (gc_raw_*), the accounting that paces collections, the memory limit, and
 * what happens when memory runs out. Also the small per-object services of
 * gc.h: sizes, identities, fixing.
 *
 * Mutator only. An allocation may run a nursery collection (when the
 * nursery is full) or, long overdue, a full one — always before it takes
 * its memory, so the new object is never part of that collection — and
 * never runs finalizers. When memory or the limit refuses a request, an
 * emergency full collection runs and the request is tried once more; a
 * second refusal raises LUA_ERRMEM (or returns NULL for try_realloc).
 * Freeing never fails and never collects.
 */
#include "gc_internal.h"
#include "../vm/calls.h"
#include "../vm/debuginfo.h"

/* The largest request an object or block may make (keeps intptr_t
 * arithmetic on sizes safe). */
#define GC_MAX_BLOCK ((size_t)PTRDIFF_MAX / 2)

/* --- accounting ------------------------------------------------------------ */

static inline void account_raw(GCState *gc, size_t osize, size_t nsize)
{
    gc->raw += nsize - osize; /* wraps correctly when shrinking */
    gc->g->gc_debt += (intptr_t)nsize - (intptr_t)osize;
    if (nsize > osize) {
        gc->allocated += nsize - osize;
        gc->old_added += nsize - osize;
    }
}

/* Would [more] bytes exceed the memory limit? */
static inline int over_limit(GCState *gc, size_t more)
{
    return gc->limit != 0 && gc_total(gc) + more > gc->limit;
}

/* --- collections an allocation may run ---------------------------------------- */

/* A full collection long overdue (the heap has grown half again past the
 * threshold without reaching a safe point: a C function that allocates in
 * a loop) runs inside the allocation. */
static int full_overdue(GCState *gc)
{
    size_t used = gc->old + gc->raw;
    return used > gc->threshold && used - gc->threshold >= gc->threshold / 2;
}

/* TIDE_GC_DEBUG=collect-every=N: every Nth allocation collects — a nursery
 * collection, and every eighth time a full one. */
static void debug_collect(lua_State *L, GCState *gc)
{
    if (++gc->alloc_count < gc->collect_every) return;
    gc->alloc_count = 0;
    if (!gc_may_collect(gc) || gc->stopped || gc->fin_running > 0) return;
    if (++gc->forced % 8 == 0 || gc->nursery.raw == NULL)
        gc_collect(L, GC_REASON_ALLOCATION);
    else
        gc_minor(L, GC_REASON_ALLOCATION, 0);
}

static void maybe_collect_full(lua_State *L, GCState *gc)
{
    if (full_overdue(gc) && gc_may_collect(gc) && !gc->stopped && gc->fin_running == 0) {
        /* In low-latency mode the cycle's own steps run here instead: they
         * move nothing, and the world never stops for a whole collection. */
        if (gc_cycles_on(gc) && !gc->allow_sync_major)
            gc_cycle_step(L);
        else
            gc_collect(L, GC_REASON_ALLOCATION);
        /* Finalizers never run here; a program without frames runs them at
         * the next safe point. */
        if (gc_pending_count(gc) > 0 && gc->frame == 0 && gc->g->gc_debt <= 0) gc->g->gc_debt = 1;
    }
}

/* --- the old spaces' memory ---------------------------------------------------------- */

/* The spaces obtain arenas and metadata here: plain frealloc, counted as
 * raw memory only for the spaces' bookkeeping (their objects are counted
 * as old bytes when handed out). */
static void *space_obtain(void *ud, void *block, size_t osize, size_t nsize)
{
    GCState *gc = ud;
    int held = gc_worker_prefault_hold(gc); /* (the allocator may remap what it faults in) */
    void *p = gc->g->frealloc(gc->g->ud, block, block == NULL ? 0 : osize, nsize);
    if (held) gc_worker_prefault_release(gc);
    return p;
}

static int los_pages(void *ud, int op, void *addr, size_t len)
{
    switch (op) {
    case LOS_PAGES_RELEASE: return gc_worker_release_pages(ud, addr, len);
    case LOS_PAGES_PENDING: return gc_worker_pages_pending(ud, addr, len);
    default: gc_worker_prefault_cancel(ud, addr, len); return 0;
    }
}

int gc_spaces_create(GCState *gc)
{
    MajorConfig mc;
    memset(&mc, 0, sizeof mc);
    mc.obtain = space_obtain;
    mc.obtain_ud = gc;
    mc.blocks_per_arena = 16;     /* 256 KiB arenas: small states stay small, */
    mc.max_blocks_per_arena = 64; /* big ones are obtained 1 MiB at a time */
    mc.prefault = gc_worker_prefault; /* the reserve faulted in off the game's thread */
    mc.prefault_cancel = gc_worker_prefault_cancel;
    mc.prefault_ud = gc;
    gc->major = major_create(&mc);
    if (gc->major == NULL) return 0;
    LosConfig lc;
    memset(&lc, 0, sizeof lc);
    lc.obtain = space_obtain;
    lc.obtain_ud = gc;
    lc.pages = los_pages; /* retired blocks' pages given back off the game's thread */
    lc.pages_ud = gc;
    gc->los = los_create(&lc);
    if (gc->los == NULL) {
        major_destroy(gc->major);
        gc->major = NULL;
        return 0;
    }
    return 1;
}

void gc_spaces_destroy(GCState *gc)
{
    if (gc->los != NULL) los_destroy(gc->los);
    if (gc->major != NULL) major_destroy(gc->major);
    gc->los = NULL;
    gc->major = NULL;
}

GCObject *gc_alloc_old(GCState *gc, size_t size, int norefs, int promotion)
{
    if (!promotion && over_limit(gc, size)) return NULL;
    if (promotion && size <= GC_LARGE_OBJECT) { /* the copy fills it */
        GCObject *o = major_alloc_promotion(gc->major, size, norefs ? MAJOR_NOREFS : MAJOR_REFS);
        if (o == NULL) return NULL;
        o->age = GC_SPACE_MAJOR;
        gc->old += major_object_size(o);
        gc->old_added += major_object_size(o);
        return o;
    }
    GCObject *o;
    size_t counted;
    if (size > GC_LARGE_OBJECT) {
        /* Large blocks a sweep retired go back a slice at a time where
         * there is time (sweep.c), but a program that makes one large
         * object after another (strings built by gsub or concat) gives
         * those few slices: its retired blocks piled up, cycle after
         * cycle (bench/core/gsub: 24 MB, on 0.3 MB live). Each new one
         * gives back about as much first, as free-then-malloc would. */
        if (!gc->collecting) gc_release_retired(gc, size); /* (none retired: returns at once) */
        o = los_alloc(gc->los, size, norefs ? LOS_NOREFS : LOS_REFS);
        if (o == NULL) return NULL;
        o->age = GC_SPACE_LOS;
        counted = size;
    } else {
        o = major_alloc(gc->major, size, norefs ? MAJOR_NOREFS : MAJOR_REFS);
        if (o == NULL) return NULL;
        o->age = GC_SPACE_MAJOR;
        counted = major_object_size(o);
    }
    gc->old += counted;
    gc->old_added += counted;
    gc->g->gc_debt += (intptr_t)counted;
    return o;
}

/* An old object, after an emergency collection if memory is refused. */
static GCObject *new_old(lua_State *L, GCState *gc, int tt, size_t size)
{
    int norefs = novariant(tt) == LUA_TSTRING;
    GCObject *o = gc_alloc_old(gc, size, norefs, 0);
    if (luai_unlikely(o == NULL)) {
        if (over_limit(gc, size)) gc_frames_note_heap_limit(gc);
        if (gc_may_collect(gc)) {
            gc_collect(L, GC_REASON_EMERGENCY);
            o = gc_alloc_old(gc, size, norefs, 0);
        }
        if (o == NULL) gc_memerror(L);
    }
    gc->allocated += size;
    o->tt = (uint8_t)tt;
    gc_remember_new_old(gc, o); /* initialized without barriers (gc.h rule 3) */
    return o;
}

/* --- young objects: the slow path of gc_new ------------------------------------------ */

/* Between two nursery collections the fast path stops every CHECKPOINT_BYTES
 * allocated, so that the slow path can take work out of the pauses: it
 * gives back a slice of the large blocks retired by the last ones and
 * writes a few blocks of room for the next one's promotion (sweep.c,
 * gc_checkpoint_step), and it raises the running stack's young floor over the
 * slots below the running frame that hold nothing young, for at most
 * STACK_STEP_MAX_NS a time (minor.c). A stack left deep below its running
 * frame — a million values moved onto it — is then looked at a slice at a
 * time before the collection comes, every CHECKPOINT_BYTES_BEHIND while
 * slots are left, instead of in the collection's pause. */
#define CHECKPOINT_BYTES ((size_t)64 * 1024)
#define CHECKPOINT_BYTES_BEHIND ((size_t)8 * 1024)
#define STACK_STEP_MAX_NS ((uint64_t)200 * 1000)

static void checkpoint(lua_State *L, GCState *gc)
{
    Nursery *ns = &gc->nursery;
    size_t used = gc_nursery_used(gc);
    if (used < ns->checkpoint) return;
    int behind = gc_raise_young_floor(L, STACK_STEP_MAX_NS);
    ns->checkpoint = used + (behind ? CHECKPOINT_BYTES_BEHIND : CHECKPOINT_BYTES);
    gc_note_oversized_stack(L); /* shrunk before a collection clears it all */
    gc_nursery_note_start(gc);
    gc_checkpoint_step(gc); /* retired large blocks, room for the next promotion */
}

/* The budget is spent. The collection waits, while the nursery has room
 * past its budget, CHECKPOINT_BYTES_BEHIND at a time (1 if it does):
 *  - for the running stack to shrink, if it is far larger than its live
 *    slots now (a call of a million values just returned): the collection
 *    would clear the stack above them, 1.4 ms for 990,000 slots
 *    (bench/gc/giants.lua stack), where the shrink at the next safe point
 *    (gc_check; the debt is due) drops them. Up to SHRINK_WAIT_MAX, in
 *    case no safe point comes (C code allocating) or the stack cannot
 *    shrink;
 *  - else for the slots below the running frame still to be looked at (a
 *    stack made deep just before). */
#define SHRINK_WAIT_MAX ((size_t)64 * 1024)

static int wait_for_stack(lua_State *L, GCState *gc)
{
    Nursery *ns = &gc->nursery;
    size_t region = (size_t)(ns->hi - ns->lo);
    if (ns->budget + CHECKPOINT_BYTES_BEHIND > region) return 0;
    gc_note_oversized_stack(L);
    if (gc->stack_shrink_pending && ns->shrink_wait < SHRINK_WAIT_MAX)
        ns->shrink_wait += CHECKPOINT_BYTES_BEHIND;
    else if (!gc_raise_young_floor(L, STACK_STEP_MAX_NS))
        return 0;
    ns->budget += CHECKPOINT_BYTES_BEHIND;
    ns->checkpoint = gc_nursery_used(gc) + CHECKPOINT_BYTES_BEHIND;
    return 1;
}

/* The fast path's end after the slow path took from the window: the
 * window's end, capped by the nursery's budget and the memory limit;
 * closed (every allocation comes here) while TIDE_GC_DEBUG counts
 * allocations. */
static void set_fast_limit(GCState *gc)
{
    GlobalState *g = gc->g;
    char *end = gc->nursery.window_end;
    if (gc->collect_every != 0) {
        end = g->alloc_ptr;
    } else {
        size_t room = gc_nursery_room(gc), used = gc_nursery_used(gc);
        size_t to_checkpoint = gc->nursery.checkpoint > used ? gc->nursery.checkpoint - used : 0;
        if (to_checkpoint < room) room = to_checkpoint;
        if (gc->limit != 0) {
            size_t total = gc_total(gc);
            size_t below_limit = gc->limit > total ? gc->limit - total : 0;
            if (below_limit < room) room = below_limit;
        }
        if ((size_t)(end - g->alloc_ptr) > room) end = g->alloc_ptr + room;
    }
    g->alloc_limit = end;
}

/* [n] bytes from the window or a later fragment (within the limit). */
static GCObject *take_young(GCState *gc, size_t n)
{
    GlobalState *g = gc->g;
    if (over_limit(gc, n) || !gc_nursery_refill(gc, n)) return NULL;
    GCObject *o = (GCObject *)(void *)g->alloc_ptr;
    g->alloc_ptr += n;
    set_fast_limit(gc);
    return o;
}

/* Room in the nursery for [n] bytes: the window, a later fragment, or a
 * nursery collection. NULL when even that leaves no room (everything is
 * pinned, or the limit is reached): the object is then born old. */
static GCObject *young_slow(lua_State *L, GCState *gc, size_t n)
{
    checkpoint(L, gc);
    GCObject *o = take_young(gc, n);
    while (o == NULL && gc_may_collect(gc) && wait_for_stack(L, gc)) o = take_young(gc, n);
    if (o != NULL || !gc_may_collect(gc)) return o;
    gc_minor(L, GC_REASON_ALLOCATION, 0);
    maybe_collect_full(L, gc);
    if (gc->pretenure_left != 0) return NULL; /* (the collection began pretenuring) */
    return take_young(gc, n);
}

/* An object born old while pretenuring (nursery.c says why it needs no
 * remembering). Its block is taken as a promotion's would be: from the
 * room written ahead before any unswept block is swept. Every
 * CHECKPOINT_BYTES the checkpoint's step keeps that room in hand, as
 * between nursery collections. */
static GCObject *new_pretenured(lua_State *L, GCState *gc, int tt, size_t n)
{
    int norefs = novariant(tt) == LUA_TSTRING;
    GCObject *o = over_limit(gc, n) ? NULL : major_alloc_promotion(gc->major, n, norefs ? MAJOR_NOREFS : MAJOR_REFS);
    if (luai_unlikely(o == NULL)) {
        gc->pretenure_left = 0; /* (memory is short: young again, after this one) */
        return new_old(L, gc, tt, n);
    }
    memset(o, 0, n); /* (the slot's rest, past the object, is never read) */
    o->tt = (uint8_t)tt;
    o->age = GC_SPACE_MAJOR;
    size_t counted = major_object_size(o);
    gc->old += counted;
    gc->old_added += counted;
    gc->pretenured += counted;
    gc->allocated += n;
    gc->g->gc_debt += (intptr_t)counted;
    size_t before = gc->pretenure_left;
    gc->pretenure_left = n < before ? before - n : 0;
    if (gc->pretenure_left == 0) gc->pretenure_left = gc_nursery_span_ended(gc);
    if (before / CHECKPOINT_BYTES != gc->pretenure_left / CHECKPOINT_BYTES) gc_checkpoint_step(gc);
    return o;
}

GCObject *gc_new_slow(lua_State *L, int tt, size_t size)
{
    GCState *gc = gc_state(L);
    if (luai_unlikely(size > GC_MAX_BLOCK)) gc_memerror(L);
    size_t n = gc_round(size);
    if (gc->collect_every != 0) debug_collect(L, gc);
    if (gc->nursery.raw != NULL && tt != HT_PROTO && n <= GC_YOUNG_MAX && n <= gc->nursery_size / 8) {
        if (gc->pretenure_left != 0) maybe_collect_full(L, gc); /* (a full collection ends pretenuring) */
        if (gc->pretenure_left == 0) {
            GCObject *o = young_slow(L, gc, n);
            if (o != NULL) {
                memset(o, 0, n);
                o->tt = (uint8_t)tt;
                return o;
            }
        }
        if (gc->pretenure_left != 0) return new_pretenured(L, gc, tt, n);
    }
    maybe_collect_full(L, gc);
    return new_old(L, gc, tt, size);
}

/* An object born old, whatever its size: the checks every allocation
 * makes, then the old spaces. */
static GCObject *born_old(lua_State *L, GCState *gc, int tt, size_t size)
{
    if (luai_unlikely(size > GC_MAX_BLOCK)) gc_memerror(L);
    if (gc->collect_every != 0) debug_collect(L, gc);
    maybe_collect_full(L, gc);
    return new_old(L, gc, tt, size);
}

/* Userdata and threads: C keeps their addresses, so they are born old. */
GCObject *gc_new_pinned(lua_State *L, int tt, size_t size)
{
    GCState *gc = gc_state(L);
    /* every thread is listed (nursery collections scan their stacks): room
     * first, so that a listed thread is never half made */
    if (tt == HT_THREAD && gc->threads.n == gc->threads.cap && !gc_vec_grow(gc, &gc->threads)) gc_memerror(L);
    GCObject *o = born_old(L, gc, tt, size);
    if (tt == HT_THREAD) {
        gc->threads.items[gc->threads.n++] = o;
        gc_list_dirty_thread(gc, gco2th(o)); /* a new thread is dirty */
    }
    return o;
}

/* Storage that grows an old table is born old. It lives as long as its
 * table or until the table grows again, so nearly all of it would survive
 * the next nursery collection — only to be copied there: the first frame
 * of samples/coroutines adds a key to each of its 5,500 old villagers,
 * 2 MB of new hash parts that made up 85% of what that frame's nursery
 * collections promoted. The rehash writes every entry anyway, and its
 * barriers remember the young values stored into old storage. Storage
 * that does not grow (a rehash after deletions, a shrink) is often
 * replaced again soon: it stays young, to die young. */
void *gc_new_part(lua_State *L, const Table *owner, size_t nbytes, size_t replaced, int kind)
{
    if (luai_unlikely(nbytes > UINT32_MAX)) gc_memerror(L);
    size_t size = sizeof(Part) + nbytes;
    GCState *gc = gc_state(L);
    /* (while pretenuring, gc_new makes it old too, from the room written
     * ahead, as a promotion would; born_old may sweep for room) */
    GCObject *o = nbytes > replaced && !gc_isyoung(G(L), owner) && gc->pretenure_left == 0
                      ? born_old(L, gc, HT_PART, size)
                      : gc_new(L, HT_PART, size);
    Part *p = (Part *)(void *)o;
    p->nbytes = (uint32_t)nbytes;
    p->pad = (uint32_t)kind;
    /* Born zeroed (nil): nothing to remember. Whoever fills it without
     * barriers remembers what it stored (tab_resize). */
    return part_payload(p);
}

/* Released storage is marked so that card scans skip it, and cleared, so
 * that the slot log's entries for it read nil. Large storage goes back
 * after the next nursery collection (the slot log may name it until then);
 * young or major-heap storage is reclaimed by the next collection of its
 * space. */
void gc_release_part(lua_State *L, void *payload)
{
    GCState *gc = gc_state(L);
    Part *p = part_of(payload);
    lua_assert(p->hdr.tt == HT_PART && p->pad != PART_RELEASED);
    p->pad = PART_RELEASED;
    if (p->hdr.age != GC_SPACE_NURSERY) memset(payload, 0, p->nbytes);
    /* (no room to list it while a cycle marks, which may be reading it: it
     * stays, released, for the sweep to free once nothing names it) */
    if (p->hdr.age == GC_SPACE_LOS && !gc_vec_push(gc, &gc->released_los, p) && !gc->cycle_marking) {
        gc_remembered_filter_part(gc, p);
        gc->old -= los_object_size(p);
        los_free(gc->los, p);
    }
}

/* Fixed objects are made while the state is built: all old. */
void gc_fix(lua_State *L, GCObject *o)
{
    GCState *gc = gc_state(L);
    lua_assert(!gc_isyoung(G(L), o));
    if (gc_isfixed(o)) return;
    if (!gc_vec_push(gc, &gc->fixed, o)) gc_memerror(L);
    o->flags |= GCF_FIXED;
}

uint32_t gc_assign_identity(GlobalState *g, GCObject *o)
{
    uint32_t id = ++g->next_identity;
    if (id == 0) id = ++g->next_identity; /* 0 means "none yet" */
    o->idhash = id;
    return id;
}

/* --- the collector's own arrays ----------------------------------------------------------- */

void *gc_internal_realloc(GCState *gc, void *block, size_t osize, size_t nsize)
{
    if (block == NULL) osize = 0;
    void *nb = gc->g->frealloc(gc->g->ud, block, osize, nsize);
    if (nsize == 0) {
        if (block != NULL) account_raw(gc, osize, 0);
        return NULL;
    }
    if (nb == NULL) return NULL;
    account_raw(gc, osize, nsize);
    return nb;
}

int gc_vec_grow(GCState *gc, GCVec *v)
{
    size_t ncap = v->cap == 0 ? 64 : v->cap * 2;
    if (ncap > GC_MAX_BLOCK / sizeof(void *)) return 0;
    void **items = gc_internal_realloc(gc, v->items, v->cap * sizeof(void *), ncap * sizeof(void *));
    if (items == NULL) return 0;
    v->items = items;
    v->cap = ncap;
    return 1;
}

void gc_vec_free(GCState *gc, GCVec *v)
{
    if (v->items != NULL) gc_internal_realloc(gc, v->items, v->cap * sizeof(void *), 0);
    v->items = NULL;
    v->n = v->cap = 0;
}

/* --- raw memory ------------------------------------------------------------------------ */

void *gc_raw_try_realloc(lua_State *L, void *block, size_t osize, size_t nsize)
{
    GCState *gc = gc_state(L);
    if (block == NULL) osize = 0;
    if (nsize == 0) {
        gc_raw_free(L, block, osize);
        return NULL;
    }
    if (nsize > GC_MAX_BLOCK) return NULL;
    if (nsize > osize) {
        if (gc->collect_every != 0) debug_collect(L, gc);
        maybe_collect_full(L, gc);
    }
    int limited = nsize > osize && over_limit(gc, nsize - osize);
    void *nb = limited ? NULL : gc->g->frealloc(gc->g->ud, block, osize, nsize);
    if (nb == NULL) {
        if (limited) gc_frames_note_heap_limit(gc);
        if (!gc_may_collect(gc)) return NULL;
        gc_collect(L, GC_REASON_EMERGENCY);
        if (nsize > osize && over_limit(gc, nsize - osize)) return NULL;
        nb = gc->g->frealloc(gc->g->ud, block, osize, nsize);
        if (nb == NULL) return NULL;
    }
    account_raw(gc, osize, nsize);
    return nb;
}

void *gc_raw_realloc(lua_State *L, void *block, size_t osize, size_t nsize)
{
    void *nb = gc_raw_try_realloc(L, block, osize, nsize);
    if (luai_unlikely(nb == NULL && nsize > 0)) gc_memerror(L);
    return nb;
}

void *gc_raw_alloc(lua_State *L, size_t size)
{
    if (size == 0) return NULL;
    return gc_raw_realloc(L, NULL, 0, size);
}

void *gc_raw_alloc_nocollect(lua_State *L, size_t size)
{
    GCState *gc = gc_state(L);
    lua_assert(size > 0 && size <= GC_MAX_BLOCK);
    void *nb = over_limit(gc, size) ? NULL : gc->g->frealloc(gc->g->ud, NULL, 0, size);
    if (luai_unlikely(nb == NULL)) {
        if (!gc_may_collect(gc)) gc_memerror(L);
        gc_collect(L, GC_REASON_EMERGENCY);
        nb = over_limit(gc, size) ? NULL : gc->g->frealloc(gc->g->ud, NULL, 0, size);
        if (nb == NULL) gc_memerror(L);
    }
    account_raw(gc, 0, size);
    return nb;
}

/* Works after gc_freeall too (G(L)->gc is NULL then): lua_close frees the
 * main thread's stack after the collector is gone. */
void gc_raw_free(lua_State *L, void *block, size_t osize)
{
    if (block == NULL) return;
    GlobalState *g = G(L);
    GCState *gc = g->gc;
    if (gc != NULL && gc->poison) memset(block, GC_POISON_BYTE, osize);
    g->frealloc(g->ud, block, osize, 0);
    if (gc != NULL) account_raw(gc, osize, 0);
}

_Noreturn void gc_memerror(lua_State *L)
{
    call_throw(L, LUA_ERRMEM);
}

_Noreturn void gc_toobig(lua_State *L)
{
    dbg_runerror(L, "memory allocation error: block too big");
}

/* --- limit, size ----------------------------------------------------------------------- */

void gc_set_memory_limit(lua_State *L, size_t bytes)
{
    GCState *gc = gc_state(L);
    gc->limit = bytes;
    /* the open window may reach past the new limit: close it */
    if (gc->nursery.raw != NULL && gc->g->alloc_ptr != NULL) gc->g->alloc_limit = gc->g->alloc_ptr;
}

size_t gc_total_bytes(lua_State *L)
{
    return gc_total(gc_state(L));
}
