/*
 * handles.c — GC handles (tide.h): strong, weak and weak-tracking.
 *
 * A handle is a slot index + 1 in a table of buckets of doubling size
 * (HANDLE_BUCKET0 << b slots in bucket b), so a slot never moves once its
 * bucket is published and a thread that frees a handle never meets a
 * reallocation. Who touches what:
 *  - the mutator creates and pushes handles, grows the table, and (as the
 *    collector) marks strong handles and clears weak ones;
 *  - any thread frees a handle: it swaps the slot's kind to HANDLE_FREE and
 *    pushes the slot on a lock-free stack (free_head); only the mutator
 *    pops that stack, so a pop cannot see a slot popped and pushed again
 *    behind its back (no ABA).
 * A slot's value is written before its kind is published (release), and
 * is read by the mutator only.
 *
 * Memory for buckets comes from the state's allocator without collecting
 * or raising (tide.h: creating a handle never collects, never raises).
 */
#include <stdio.h>
#include <stdlib.h>

#include "gc_internal.h"

static const TValue handle_nil = {{NULL}, VNIL};

/* Bucket of slot [index], and the index of its first slot. */
static inline int bucket_of(uint32_t index)
{
    uint32_t q = index / HANDLE_BUCKET0 + 1;
    return 31 - __builtin_clz(q);
}
#define bucket_base(b) (HANDLE_BUCKET0 * ((1u << (b)) - 1))
#define bucket_size(b) (HANDLE_BUCKET0 << (b))

static inline HandleSlot *slot_at(HandleTable *ht, uint32_t index)
{
    int b = bucket_of(index);
    HandleSlot *bucket = atomic_load_explicit(&ht->bucket[b], memory_order_acquire);
    return &bucket[index - bucket_base(b)];
}

/* --- taking and giving back slots ------------------------------------------------- */

static int add_bucket(GCState *gc)
{
    HandleTable *ht = &gc->handles;
    int b = bucket_of(ht->capacity); /* the first slot past the last bucket */
    if (b >= HANDLE_BUCKETS) return 0;
    uint32_t n = bucket_size(b);
    HandleSlot *slots = gc_internal_realloc(gc, NULL, 0, (size_t)n * sizeof(HandleSlot));
    if (slots == NULL) return 0;
    for (uint32_t i = 0; i < n; i++) {
        slots[i].value = handle_nil;
        atomic_init(&slots[i].kind, HANDLE_FREE);
        atomic_init(&slots[i].next_free, 0);
    }
    atomic_store_explicit(&ht->bucket[b], slots, memory_order_release);
    ht->capacity += n;
    return 1;
}

/* A free slot (its handle number), or 0 when memory runs out. */
static uint32_t take_slot(GCState *gc)
{
    HandleTable *ht = &gc->handles;
    uint32_t head = atomic_load_explicit(&ht->free_head, memory_order_acquire);
    while (head != 0) {
        HandleSlot *s = slot_at(ht, head - 1);
        uint32_t next = atomic_load_explicit(&s->next_free, memory_order_relaxed);
        if (atomic_compare_exchange_weak_explicit(&ht->free_head, &head, next, memory_order_acquire,
                                                  memory_order_acquire))
            return head;
    }
    if (ht->used == ht->capacity && !add_bucket(gc)) return 0;
    return ++ht->used;
}

static const TValue *index_to_value(lua_State *L, int idx)
{
    CallInfo *ci = L->ci;
    if (idx > 0) {
        StkId o = ci->func + idx;
        return o < L->top ? s2v(o) : &handle_nil;
    }
    if (idx > LUA_REGISTRYINDEX) return s2v(L->top + idx);
    if (idx == LUA_REGISTRYINDEX) return &G(L)->l_registry;
    idx = LUA_REGISTRYINDEX - idx; /* an upvalue of the running C closure */
    if (ttisCclosure(s2v(ci->func))) {
        CClosure *f = clCvalue(s2v(ci->func));
        if (idx <= f->nupvalues) return &f->upvalue[idx - 1];
    }
    return &handle_nil;
}

static tide_Handle new_handle(lua_State *L, int idx, uint8_t kind)
{
    GCState *gc = gc_state(L);
    uint32_t h = take_slot(gc);
    if (h == 0) return TIDE_HANDLE_NONE;
    HandleSlot *s = slot_at(&gc->handles, h - 1);
    const TValue *v = index_to_value(L, idx);
    setobj(L, &s->value, v);
    atomic_store_explicit(&s->kind, kind, memory_order_release);
    return h;
}

TIDE_API tide_Handle tide_handle_new(lua_State *L, int idx)
{
    thread_touch(L);
    return new_handle(L, idx, HANDLE_STRONG);
}

TIDE_API tide_Handle tide_handle_new_weak(lua_State *L, int idx, int track_resurrection)
{
    thread_touch(L);
    return new_handle(L, idx, track_resurrection ? HANDLE_WEAK_TRACK : HANDLE_WEAK);
}

TIDE_API int tide_handle_push(lua_State *L, tide_Handle h)
{
    thread_touch(L);
    const TValue *v = &handle_nil;
    if (h != TIDE_HANDLE_NONE) {
        HandleSlot *s = slot_at(&gc_state(L)->handles, h - 1);
        lua_assert(atomic_load_explicit(&s->kind, memory_order_relaxed) != HANDLE_FREE);
        v = &s->value;
        /* a weak handle's target may be outside a marking cycle's snapshot */
        gc_satb_value(L, v);
    }
    setobj2s(L, L->top, v);
    L->top++;
    return ttype(v);
}

/* Any thread. No thread_touch: it writes [L] (and, while a cycle marks,
 * may scan its stack), which only the mutator may do; freeing a handle
 * does not touch any stack. */
TIDE_API void tide_handle_free(lua_State *L, tide_Handle h)
{
    if (h == TIDE_HANDLE_NONE) return;
    HandleTable *ht = &G(L)->gc->handles;
    HandleSlot *s = slot_at(ht, h - 1);
    uint8_t old = atomic_exchange_explicit(&s->kind, HANDLE_FREE, memory_order_acq_rel);
    if (old == HANDLE_FREE) {
#ifdef TIDE_DEBUG
        fprintf(stderr, "tide: tide_handle_free: handle %u freed twice\n", (unsigned)h);
        abort();
#else
        return; /* pushing it again would corrupt the free list */
#endif
    }
    uint32_t head = atomic_load_explicit(&ht->free_head, memory_order_relaxed);
    do {
        atomic_store_explicit(&s->next_free, head, memory_order_relaxed);
    } while (!atomic_compare_exchange_weak_explicit(&ht->free_head, &head, h, memory_order_release,
                                                    memory_order_relaxed));
}

/* --- the collector's side ------------------------------------------------------------ */

/* Call [fn] on every slot handed out so far. */
static void for_each_slot(HandleTable *ht, void (*fn)(GCState *gc, HandleSlot *s, int arg), GCState *gc, int arg)
{
    for (int b = 0; b < HANDLE_BUCKETS && bucket_base(b) < ht->used; b++) {
        HandleSlot *bucket = atomic_load_explicit(&ht->bucket[b], memory_order_acquire);
        uint32_t n = ht->used - bucket_base(b);
        if (n > bucket_size(b)) n = bucket_size(b);
        for (uint32_t i = 0; i < n; i++) fn(gc, &bucket[i], arg);
    }
}

static void mark_if_strong(GCState *gc, HandleSlot *s, int arg)
{
    (void)arg;
    if (atomic_load_explicit(&s->kind, memory_order_acquire) == HANDLE_STRONG) gc_markvalue(gc, &s->value);
}

void gc_handles_mark_strong(GCState *gc)
{
    for_each_slot(&gc->handles, mark_if_strong, gc, 0);
}

/* A weak handle forgets an unreached object; strings are values and stay
 * (marked, like strings in weak tables). */
static void clear_if_dead(GCState *gc, HandleSlot *s, int kind)
{
    if (atomic_load_explicit(&s->kind, memory_order_acquire) != kind) return;
    if (iscollectable(&s->value) && gc_iscleared(gc, gcvalue(&s->value))) setnilvalue(&s->value);
}

void gc_handles_clear(GCState *gc, int kind)
{
    for_each_slot(&gc->handles, clear_if_dead, gc, kind);
}

void gc_handles_free_all(GCState *gc)
{
    HandleTable *ht = &gc->handles;
    for (int b = 0; b < HANDLE_BUCKETS; b++) {
        HandleSlot *bucket = atomic_load_explicit(&ht->bucket[b], memory_order_relaxed);
        if (bucket == NULL) continue;
        gc_internal_realloc(gc, bucket, (size_t)bucket_size(b) * sizeof(HandleSlot), 0);
        atomic_store_explicit(&ht->bucket[b], NULL, memory_order_relaxed);
    }
    ht->used = ht->capacity = 0;
    atomic_store_explicit(&ht->free_head, 0, memory_order_relaxed);
}

/* [fn] on the value of every handle in use whose kind is [kind] (0: any). */
static void foreach_value(GCState *gc, int kind, void (*fn)(void *ud, TValue *v), void *ud)
{
    HandleTable *ht = &gc->handles;
    for (int b = 0; b < HANDLE_BUCKETS && bucket_base(b) < ht->used; b++) {
        HandleSlot *bucket = atomic_load_explicit(&ht->bucket[b], memory_order_acquire);
        uint32_t n = ht->used - bucket_base(b);
        if (n > bucket_size(b)) n = bucket_size(b);
        for (uint32_t i = 0; i < n; i++) {
            int k = atomic_load_explicit(&bucket[i].kind, memory_order_acquire);
            if (k != HANDLE_FREE && (kind == 0 || k == kind)) fn(ud, &bucket[i].value);
        }
    }
}

void gc_handles_foreach(GCState *gc, void (*fn)(void *ud, TValue *v), void *ud)
{
    foreach_value(gc, 0, fn, ud);
}

void gc_handles_foreach_kind(GCState *gc, int kind, void (*fn)(void *ud, TValue *v), void *ud)
{
    foreach_value(gc, kind, fn, ud);
}
