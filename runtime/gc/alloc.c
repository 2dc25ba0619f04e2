/*
 * alloc.c — where every byte of a state comes from: objects (gc_new,
 * gc_new_pinned, gc_new_part), raw blocks (gc_raw_*), the accounting that
 * paces collections, the memory limit, and what happens when memory runs
 * out. Also the small per-object services of gc.h: sizes, identities,
 * fixing, and the (empty) barriers of a stop-the-world collector.
 *
 * Mutator only. An allocation may run a collection, always before it takes
 * its block (so the new object is never part of that collection), and
 * never runs finalizers. When the allocator or the memory limit refuses a
 * block, an emergency collection runs and the request is tried once more;
 * a second refusal raises LUA_ERRMEM (or returns NULL for try_realloc).
 * Freeing never fails and never collects.
 */
#include "gc_internal.h"
#include "../vm/calls.h"
#include "../vm/debuginfo.h"

/* The largest request an object or block may make (keeps intptr_t
 * arithmetic on sizes safe). */
#define GC_MAX_BLOCK ((size_t)PTRDIFF_MAX / 2)

/* --- accounting ------------------------------------------------------------ */

static inline void account_alloc(GCState *gc, size_t n)
{
    gc->total += n;
    gc->g->gc_debt += (intptr_t)n;
    gc->allocated += n;
}

static inline void account_free(GCState *gc, size_t n)
{
    gc->total -= n;
    gc->g->gc_debt -= (intptr_t)n;
}

/* --- collections an allocation may run ---------------------------------------- */

/* Slow path of alloc_maybe_collect: the debug countdown, or a collection
 * long overdue. Collections normally run at safe points (gc_step); an
 * allocation collects itself only once the heap has grown half again past
 * the threshold, which happens when a program allocates without reaching
 * one (C functions that allocate in a loop). */
static void alloc_collect_slow(lua_State *L, GCState *gc)
{
    int collect = 0;
    if (gc->collect_every != 0 && ++gc->alloc_count >= gc->collect_every) {
        gc->alloc_count = 0;
        collect = 1;
    } else if (gc->total > gc->threshold && gc->total - gc->threshold >= gc->threshold / 2) {
        collect = 1;
    }
    if (!collect || !gc_may_collect(gc) || gc->stopped || gc->fin_running > 0) return;
    gc_collect(L, GC_REASON_ALLOCATION);
    /* Finalizers never run here; if a program without frames may run them
     * at the next safe point, ask for one. */
    if (gc_pending_count(gc) > 0 && gc->frame == 0 && gc->g->gc_debt <= 0) gc->g->gc_debt = 1;
}

static inline void alloc_maybe_collect(lua_State *L, GCState *gc)
{
    if (luai_unlikely(gc->collect_every != 0 || gc->g->gc_debt > 0)) alloc_collect_slow(L, gc);
}

/* --- obtaining blocks ---------------------------------------------------------------- */

/* frealloc under the memory limit; NULL when either refuses. [oarg] is
 * what the allocator gets as its old size (the object's type for a new
 * object block, as in Lua), [osize] the real old size. */
static void *try_frealloc(GCState *gc, void *block, size_t oarg, size_t osize, size_t nsize, int *limited)
{
    if (gc->limit != 0 && nsize > osize && gc->total - osize + nsize > gc->limit) {
        *limited = 1;
        return NULL;
    }
    return gc->g->frealloc(gc->g->ud, block, oarg, nsize);
}

/* The first try failed: report the limit, collect (emergency) and retry. */
static void *obtain_slow(lua_State *L, GCState *gc, void *block, size_t oarg, size_t osize,
                         size_t nsize, int limited)
{
    if (limited) gc_frames_note_heap_limit(gc);
    if (!gc_may_collect(gc)) return NULL; /* inside a collection, or closing */
    gc_collect(L, GC_REASON_EMERGENCY);
    limited = 0;
    return try_frealloc(gc, block, oarg, osize, nsize, &limited);
}

static inline void *obtain(lua_State *L, GCState *gc, void *block, size_t oarg, size_t osize, size_t nsize)
{
    int limited = 0;
    void *nb = try_frealloc(gc, block, oarg, osize, nsize, &limited);
    if (luai_likely(nb != NULL)) return nb;
    return obtain_slow(L, gc, block, oarg, osize, nsize, limited);
}

void *gc_internal_realloc(GCState *gc, void *block, size_t osize, size_t nsize)
{
    void *nb = gc->g->frealloc(gc->g->ud, block, block == NULL ? 0 : osize, nsize);
    if (nsize == 0) {
        if (block != NULL) account_free(gc, osize);
        return NULL;
    }
    if (nb == NULL) return NULL;
    if (block == NULL) osize = 0;
    if (nsize >= osize) {
        gc->total += nsize - osize;
        gc->g->gc_debt += (intptr_t)(nsize - osize);
    } else {
        account_free(gc, osize - nsize);
    }
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

/* --- objects ------------------------------------------------------------------------- */

static int grow_index(GCState *gc)
{
    size_t ncap = gc->index_cap == 0 ? 1024 : gc->index_cap * 2;
    if (ncap > GC_MAX_BLOCK / sizeof(uintptr_t)) return 0;
    uintptr_t *index = gc_internal_realloc(gc, gc->index, gc->index_cap * sizeof(uintptr_t),
                                           ncap * sizeof(uintptr_t));
    if (index == NULL) return 0;
    gc->index = index;
    gc->index_cap = ncap;
    return 1;
}

/* Room for one more entry in the index, after an emergency collection if
 * need be (the caller's new block is in no index yet: the collection does
 * not see it). */
static int reserve_entry(lua_State *L, GCState *gc)
{
    if (luai_likely(gc->nindex < gc->index_cap) || grow_index(gc)) return 1;
    if (!gc_may_collect(gc)) return 0;
    gc_collect(L, GC_REASON_EMERGENCY);
    return gc->nindex < gc->index_cap || grow_index(gc);
}

/* A zeroed object of [size] bytes, in the index. */
static GCObject *new_object(lua_State *L, int tt, size_t size)
{
    GCState *gc = gc_state(L);
    alloc_maybe_collect(L, gc);
    if (luai_unlikely(size > GC_MAX_BLOCK)) gc_memerror(L);
    GCObject *o = obtain(L, gc, NULL, 0, 0, size); /* lua.h: osize 0 for a new block */
    if (luai_unlikely(o == NULL)) gc_memerror(L);
    if (luai_unlikely(!reserve_entry(L, gc))) {
        gc->g->frealloc(gc->g->ud, o, size, 0);
        gc_memerror(L);
    }
    account_alloc(gc, size);
    gc_note_range(gc, o, size);
    memset(o, 0, size);
    o->tt = (uint8_t)tt;
    gc->index[gc->nindex++] = gc_make_entry(o, size);
    return o;
}

GCObject *gc_new(lua_State *L, int tt, size_t size)
{
    lua_assert(tt != HT_PART && size >= sizeof(GCObject));
    return new_object(L, tt, size);
}

/* Nothing moves yet: a pinned object is an ordinary one. */
GCObject *gc_new_pinned(lua_State *L, int tt, size_t size)
{
    return new_object(L, tt, size);
}

/* Part.pad holds the position of the Part's index entry (kept up to date
 * by the sweep's compaction). */
void *gc_new_part(lua_State *L, size_t nbytes)
{
    if (luai_unlikely(nbytes > UINT32_MAX)) gc_memerror(L);
    Part *p = (Part *)(void *)new_object(L, HT_PART, sizeof(Part) + nbytes);
    p->nbytes = (uint32_t)nbytes;
    p->pad = (uint32_t)(gc_state(L)->nindex - 1);
    return part_payload(p);
}

/* The collector stops the world, so no marker can be reading the storage:
 * it goes back to the allocator at once. */
void gc_release_part(lua_State *L, void *payload)
{
    GCState *gc = gc_state(L);
    Part *p = part_of(payload);
    lua_assert(p->hdr.tt == HT_PART && gc_entry_object(gc->index[p->pad]) == obj2gco(p));
    gc->index[p->pad] = 0;
    gc_free_object_block(gc, obj2gco(p));
}

void gc_free_object_block(GCState *gc, GCObject *o)
{
    size_t size = gc_object_size(o);
    if (gc->poison) memset(o, GC_POISON_BYTE, size);
    gc->g->frealloc(gc->g->ud, o, size, 0);
    account_free(gc, size);
}

/* Fixed objects are made at state creation (names, reserved words). */
void gc_fix(lua_State *L, GCObject *o)
{
    GCState *gc = gc_state(L);
    if (gc_isfixed(o)) return;
    if (!gc_isleaf(o->tt)) { /* to be traversed by every collection */
        if (gc->fixed.n == gc->fixed.cap && !gc_vec_grow(gc, &gc->fixed)) gc_memerror(L);
        gc->fixed.items[gc->fixed.n++] = o;
    }
    o->age = GC_AGE_FIXED;
}

size_t gc_object_size(const GCObject *o)
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
    default:
        lua_assert(0);
        return sizeof(GCObject);
    }
}

uint32_t gc_assign_identity(lua_State *L, GCObject *o)
{
    GlobalState *g = G(L);
    uint32_t id = ++g->next_identity;
    if (id == 0) id = ++g->next_identity; /* 0 means "none yet" */
    o->idhash = id;
    return id;
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
    if (nsize > osize) alloc_maybe_collect(L, gc);
    void *nb = obtain(L, gc, block, osize, osize, nsize);
    if (nb == NULL) return NULL;
    if (nsize > osize)
        account_alloc(gc, nsize - osize);
    else
        account_free(gc, osize - nsize);
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
    void *nb = obtain(L, gc, NULL, 0, 0, size);
    if (luai_unlikely(nb == NULL)) gc_memerror(L);
    account_alloc(gc, size);
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
    if (gc != NULL) account_free(gc, osize);
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
    gc_state(L)->limit = bytes;
}

size_t gc_total_bytes(lua_State *L)
{
    return gc_state(L)->total;
}

/* --- barriers ----------------------------------------------------------------------------
 * A stop-the-world collector needs none: no collection is in progress while
 * the mutator stores. gc.h's macros expand to nothing; these definitions
 * serve code that calls the functions directly. The generational collector
 * (issue 4) gives them their work. */

void gc_barrier_(lua_State *L, GCObject *owner, GCObject *v)
{
    (void)L;
    (void)owner;
    (void)v;
}

void gc_barrierback_(lua_State *L, GCObject *owner, GCObject *v)
{
    (void)L;
    (void)owner;
    (void)v;
}
