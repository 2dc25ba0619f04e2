/*
 * gc.h — the collector interface: the only way the rest of the runtime
 * allocates, stores references and asks for collection (DESIGN §3–§4).
 *
 * Rules for every caller:
 *  1. Every object comes from gc_new (or a typed constructor built on it);
 *     every other block of memory from gc_raw_*. Nothing calls the lua_Alloc
 *     function directly.
 *  2. Any allocation may run a full collection. Objects are kept alive by
 *     the roots: the stacks of threads, the registry, GlobalState's fixed
 *     fields, GC handles, and the mutator's C stack and registers, scanned
 *     conservatively (a word that points at or into an object keeps it
 *     alive and pinned for that collection). So a raw pointer in a C local
 *     is safe; a raw pointer stored anywhere else (a malloc'ed block, a
 *     static) must be a registered root.
 *  3. Every store of a value into a heap object (a table slot, an upvalue, a
 *     closure's upvalue, a userdata user value, a prototype's constant,
 *     a metatable field) is followed by the barrier on the owner:
 *        gc_barrier(L, owner, value)      after storing value into owner
 *        gc_objbarrier(L, owner, object)  after storing an object pointer
 *     Stores into stack slots need no barrier (stacks are rescanned).
 *     A freshly allocated object with no collection since its allocation
 *     may be initialized without barriers — except table storage
 *     (gc_new_part), which may be large: a barrier-free fill of it names
 *     each slot with gc_barrier_back. A store that overwrites a
 *     reference is also preceded by the snapshot barrier, gc_satb_value /
 *     gc_satb_object (below), for major cycles.
 *  4. Allocation failure raises LUA_ERRMEM ("not enough memory") after an
 *     emergency full collection; it never returns NULL and never aborts.
 */
#ifndef TIDE_GC_GC_H
#define TIDE_GC_GC_H

#include <string.h>

#include "../vm/state.h"

/* --- life of the collector ------------------------------------------------ */
/* gc_init: the first gc_* call of a state; needs only G(L)->frealloc/ud
 * (and reads TIDE_GC_DEBUG). Allocates the collector's private state with
 * frealloc; 0 on memory failure. It counts sizeof(GlobalState) +
 * sizeof(lua_State) as already in use (the block lua_newstate allocates
 * itself). The main thread is that block's, never a gc_new object: the
 * collector marks it as a root and never frees it.
 *
 * gc_freeall (lua_close, after the main thread's upvalues and tbc
 * variables are closed; L is the main thread): runs pending finalizers,
 * then the finalizers of every object still marked for finalization, then
 * frees every object made by gc_new/gc_new_pinned/gc_new_part (threads
 * through state_freethread, prototypes through func_freeproto), the string
 * table's bucket array (strt.hash, left NULL), the GC handles and the
 * collector's own state (G(L)->gc is NULL afterwards). It does not free
 * the main thread's stack or CallInfos, nor the GlobalState/main-thread
 * block: lua_close frees those after it (gc_raw_free keeps working with
 * G(L)->gc NULL). No collection runs and no event is reported once
 * gc_freeall has begun. */
TIDE_INTERNAL int gc_init(lua_State *L);
TIDE_INTERNAL void gc_freeall(lua_State *L);
/* (state.c engineer, adding:) lua_newstate also calls gc_freeall when
 * building the state failed part-way after gc_init succeeded (state.h says
 * what may still be missing then: no stack, no registry, no strings); a
 * gc_init that returns 0 must have freed what it allocated. */

/* --- allocation ------------------------------------------------------------ */
/* A new object of [size] bytes with header type [tt] (a tag of value.h
 * without BIT_COLLECTABLE); the header is initialized, the rest is zero.
 * [size] must be what gc_object_size will compute once the object's size
 * fields are set (before the next allocation): sizelstring(len) for
 * strings, sizeof(Table), sizeof(Proto), sizeof(UpVal),
 * sizeLclosure/sizeCclosure(nupvalues), sizeudata(nuvalue, len) for
 * userdata, sizeof(lua_State) for threads.
 *
 * New objects are young: bumped in the nursery (the fast path below: a
 * compare and an add) — but while nearly everything the nursery holds
 * survives, the slow path makes them old (pretenuring, nursery.c), so
 * code that fills a fresh object takes its barriers like any other.
 * Objects that never move or own plain memory (prototypes, userdata,
 * threads) and large ones (above GC_LARGE_OBJECT) are born old, in the
 * major heap or the large-object space. */
#define GC_ALIGN ((size_t)16)
#define gc_round(n) (((n) + GC_ALIGN - 1) & ~(GC_ALIGN - 1))
TIDE_INTERNAL GCObject *gc_new_slow(lua_State *L, int tt, size_t size);
static inline GCObject *gc_new(lua_State *L, int tt, size_t size)
{
    GlobalState *g = G(L);
    size_t n = gc_round(size);
    /* (tt is a constant at every call site: the prototype test folds away) */
    if (luai_likely(tt != VPROTO && (size_t)(g->alloc_limit - g->alloc_ptr) >= n)) {
        GCObject *o = (GCObject *)(void *)g->alloc_ptr;
        g->alloc_ptr += n;
        memset(o, 0, n);
        o->tt = (uint8_t)tt;
        return o;
    }
    return gc_new_slow(L, tt, size);
}
/* A new full userdata-sized object that never moves (userdata, threads). */
TIDE_INTERNAL GCObject *gc_new_pinned(lua_State *L, int tt, size_t size);
/* Table storage for [owner]: a Part of [nbytes] payload (zeroed) holding
 * [kind] (PART_ARRAY: TValues; PART_NODES: Nodes), to replace storage of
 * [replaced] bytes (0: none); returns the payload. Storage that grows an
 * old table is born old (alloc.c). Unlike other objects born old, storage
 * born old is not remembered whole: what fills it without barriers must
 * remember the young values it stores. */
#define PART_ARRAY 1
#define PART_NODES 2
#define PART_RELEASED 3 /* given back by gc_release_part: never scanned */
TIDE_INTERNAL void *gc_new_part(lua_State *L, const Table *owner, size_t nbytes, size_t replaced, int kind);
/* The table no longer uses this storage. The collector frees it now or when
 * it is safe (never while a concurrent mark may read it). */
TIDE_INTERNAL void gc_release_part(lua_State *L, void *payload);
/* Make [o] permanent: never collected, never moved (reserved words,
 * metamethod names, the memory-error message). Only while the state is
 * being built (lua_newstate), when every object is born old. */
TIDE_INTERNAL void gc_fix(lua_State *L, GCObject *o);
/* lua_newstate, once the state is built: from now on new objects are
 * young. Does nothing when the nursery cannot be had (everything is then
 * born old; the collector still works). */
TIDE_INTERNAL void gc_start_nursery(lua_State *L);
/* A new short string [ts] was linked at the head of string-table bucket
 * [bucket] (strings.c): the next nursery collection must look there. */
TIDE_INTERNAL void gc_note_string_bucket(lua_State *L, unsigned int bucket);
/* The string table is being rehashed (str_resize): the buckets logged so
 * far mean nothing in the new table; the rehash logs every young string's
 * new bucket again (gc_note_string_bucket). */
TIDE_INTERNAL void gc_note_string_rehash(lua_State *L);

/* Plain memory owned by an object (prototype arrays, stacks, string-table
 * buckets), counted in the heap size. realloc/alloc raise LUA_ERRMEM on
 * failure; try_realloc returns NULL instead. free never fails. */
TIDE_INTERNAL void *gc_raw_alloc(lua_State *L, size_t size);
TIDE_INTERNAL void *gc_raw_realloc(lua_State *L, void *block, size_t osize, size_t nsize);
TIDE_INTERNAL void *gc_raw_try_realloc(lua_State *L, void *block, size_t osize, size_t nsize);
TIDE_INTERNAL void gc_raw_free(lua_State *L, void *block, size_t osize);
#define gc_raw_newvector(L, n, t) ((t *)gc_raw_alloc((L), (size_t)(n) * sizeof(t)))
#define gc_raw_freevector(L, b, n, t) gc_raw_free((L), (b), (size_t)(n) * sizeof(t))
#define gc_raw_reallocvector(L, b, on, n, t) \
    ((t *)gc_raw_realloc((L), (b), (size_t)(on) * sizeof(t), (size_t)(n) * sizeof(t)))
/* A small block on a path that must not collect but when memory runs out
 * (the CallInfo of a call being set up, as in Lua: a frame is not a
 * collection point; under TIDE_GC_DEBUG=collect-every=1 recursion to the
 * stack limit would otherwise be quadratic). Its bytes count toward the
 * next collection like any other. */
TIDE_INTERNAL void *gc_raw_alloc_nocollect(lua_State *L, size_t size);
/* Raise "not enough memory" (LUA_ERRMEM). */
TIDE_INTERNAL _Noreturn void gc_memerror(lua_State *L);
/* Raise "too many %s (limit is %d)" for growing a vector past [limit]. */
TIDE_INTERNAL _Noreturn void gc_toobig(lua_State *L);

/* --- collection -------------------------------------------------------------- */
/* Do collector work if allocation since the last work asks for it. Safe
 * points: the VM calls it at allocation-heavy instructions. gc_step may
 * shrink thread stacks (call_shrinkstack) and, for a program that drives
 * no frames (tide.h), run pending finalizers — Lua code — so the caller
 * must hold no StkId across it and must have L->top bounding its live
 * values (as for any call). An allocation never does either. */
#define gc_check(L) do { if (G(L)->gc_debt > 0) gc_step(L); } while (0)
TIDE_INTERNAL void gc_step(lua_State *L);
/* lua_gc is implemented in gc/: the options of lua.h. */

/* --- precise stretches of the C stack ------------------------------------------
 * The conservative scan (rule 2) reads every word of the mutator's C stack,
 * dead spill slots included: a VM frame that once held a table in a
 * temporary keeps it alive, and `t = nil; collectgarbage()` would not free
 * it, nor would a weak table lose the entry. So the VM marks its own frame
 * precise while it calls out at points where everything it holds is also on
 * a Lua stack (a C function call, a collection step): the scan skips
 * [lo, hi) of every window on G(L)->stack_windows.
 *
 * Invariants: windows lie on the calling OS thread's stack, innermost
 * (lowest) first, disjoint; a window is on the list only while the frame
 * that owns it is live. call_rawrunprotected restores the list when an
 * error or a yield unwinds past windows, and the panic path empties it. A
 * window must not cover the spill slots of its frame's caller's registers:
 * the VM enters through a frame that saves them above the window
 * (vm_execute). Where the frame layout is not known (anything but x86-64)
 * the VM pushes no windows and the whole stack is scanned. */
typedef struct GCStackWindow {
    uintptr_t lo, hi;
    struct GCStackWindow *prev; /* the next window out (higher addresses) */
} GCStackWindow;

/* --- barriers -----------------------------------------------------------------
 * Required after every store into a heap object (rule 3). The generational
 * rule they keep: every reference from an old object to a young one lies on
 * a dirty card (the nursery collection scans dirty cards as roots).
 *  - Table storage (Parts) is carded by slot: gc_barrier_back names the
 *    slot written, so writing one slot of a million-slot array dirties one
 *    512-byte card, not the whole array.
 *  - Every other object is carded by its header: gc_barrier/gc_objbarrier
 *    dirty the card of the owner's header, and the collector rescans that
 *    whole object (a prototype with its constant array, a closure, a
 *    userdata's user values, an upvalue).
 * The fast test is two address compares: nothing to do unless the value is
 * young and the owner (or slot) is not. */
#define TIDE_GC_NEEDS_BARRIERS 1
#define gc_isyoung(g, p) ((uintptr_t)(const void *)(p) - (g)->nursery_lo < (g)->nursery_span)
#define gc_objbarrier(L, owner, o) \
    ((gc_isyoung(G(L), (o)) && !gc_isyoung(G(L), (owner))) ? gc_barrier_((L), obj2gco(owner)) : (void)0)
#define gc_barrier(L, owner, v) \
    (iscollectable(v) ? gc_objbarrier((L), (owner), gcvalue(v)) : (void)0)
/* [slot] (a TValue or Node of [t]'s array or hash part) was written with [v]. */
#define gc_barrier_back(L, t, slot, v) \
    ((iscollectable(v) && gc_isyoung(G(L), gcvalue(v)) && !gc_isyoung(G(L), (slot))) \
         ? gc_barrier_slot_((L), (t), (slot)) : (void)0)
/* The same for an object pointer [o] stored in [slot] (a Node's key). */
#define gc_objbarrier_slot(L, t, slot, o) \
    ((gc_isyoung(G(L), (o)) && !gc_isyoung(G(L), (slot))) ? gc_barrier_slot_((L), (t), (slot)) : (void)0)
TIDE_INTERNAL void gc_barrier_(lua_State *L, GCObject *owner);
TIDE_INTERNAL void gc_barrier_slot_(lua_State *L, const Table *t, const void *slot);

/* --- the snapshot barrier (major cycles, gc/cycle.c) ---------------------------
 * While a major cycle marks (G(L)->gc_marking), the collector keeps the
 * snapshot-at-the-beginning invariant: every object reachable when the
 * cycle began is marked before the cycle ends, or was freed never. Stores
 * may cut the only path the marker had to such an object, so every store
 * into a heap object first hands the value it overwrites to the marker:
 *     gc_satb_value(L, slot)   before overwriting the TValue at [slot]
 *     gc_satb_object(L, o)     before overwriting a pointer field holding [o]
 * Stacks change without barriers: a thread's stack is scanned for the
 * snapshot before it next changes (thread_touch). Objects made during the
 * cycle are live for it (young ones are never marked; old ones are born
 * marked), so nothing else needs a barrier. One load and a predicted branch
 * when no cycle marks. */
#define gc_satb_value(L, slot) \
    ((luai_unlikely(G(L)->gc_marking) && iscollectable(slot)) ? gc_satb_(L, gcvalue(slot)) : (void)0)
#define gc_satb_object(L, o) \
    ((luai_unlikely(G(L)->gc_marking) && (o) != NULL) ? gc_satb_(L, obj2gco(o)) : (void)0)
TIDE_INTERNAL void gc_satb_(lua_State *L, GCObject *o);
/* The string table handed out [ts], an interned string that already
 * existed: while a cycle marks it may be outside the snapshot, and while
 * a cycle's lazy sweep runs it may be dead (unswept): either way it is in
 * use again. */
#define gc_string_reused(L, ts) \
    ((luai_unlikely(G(L)->gc_marking | G(L)->gc_strings_unswept)) ? gc_string_reused_(L, obj2gco(ts)) : (void)0)
TIDE_INTERNAL void gc_string_reused_(lua_State *L, GCObject *o);
/* Weak tables: a value read out of a weak table may be one the snapshot
 * did not reach strongly; while a cycle marks, a read keeps it (as Java's
 * Reference.get() does for SATB collectors). [t] is the table read, [v]
 * the value (or key) taken out of it. Tables with a weak metatable carry
 * TAB_WEAK (object.h), so the test costs one
 * load of a byte the lookup already brought into cache. */
/* Does [mt] make the tables it is the metatable of weak? (Its "__mode" now:
 * the manual leaves changing __mode of a metatable in use undefined; the
 * marker sets TAB_WEAK too when it finds a table weak.) */
TIDE_INTERNAL int gc_weak_metatable(lua_State *L, struct Table *mt);
#define gc_weak_read(L, t, v) \
    ((luai_unlikely((t)->weak & TAB_WEAK) && G(L)->gc_marking && iscollectable(v)) \
         ? gc_satb_(L, gcvalue(v)) : (void)0)

/* Control is about to move down the stack of [L] to the frame [ci] (a
 * return, an error caught, a thread reset), or the program is about to
 * write a slot of [ci]'s frame (lua_setlocal): if a cycle has not yet
 * scanned the slots [ci]'s frame may write, it does now (state.h,
 * gc_floor), and if they reach into what the stack's young floor and gap
 * say is clean, those drop to them (state.h, young_floor). A few loads and
 * predicted branches otherwise. Never collects, never raises.
 * Comparing the top of the clean gap with the frame's function slot
 * suffices: the frame's registers lie above that slot, and a vararg frame
 * writes below it (into its extra arguments) only in a tail call, which
 * lowers the floor itself (gc_stack_write), or through lua_setlocal, which
 * calls gc_stack_return_ whatever the slot; its results land in its
 * caller's frame after the return into the caller was checked. */
#define gc_stack_return(L, ci) \
    (luai_unlikely((L)->gc_floor != 0 || (size_t)((ci)->func - (L)->stack) < (L)->young_gap_hi) \
         ? gc_stack_return_((L), (ci)) \
         : (void)0)
TIDE_INTERNAL void gc_stack_return_(lua_State *L, CallInfo *ci);
/* The running frame of [L] is about to write [slot], below its function
 * slot (a vararg function's tail call moves the callee down to where the
 * caller's function was): the clean stretches drop below it first. */
#define gc_stack_write(L, slot) \
    ((size_t)((slot) - (L)->stack) < (L)->young_gap_hi ? gc_young_lower((L), (size_t)((slot) - (L)->stack)) : (void)0)
/* Nothing from slot [low] of [L]'s stack up is known clean any more. */
static inline void gc_young_lower(lua_State *L, size_t low)
{
    if (low >= L->young_gap_hi) return;
    L->young_gap_hi = (uint32_t)low;
    if (L->young_gap_lo > low) L->young_gap_lo = (uint32_t)low;
    if (L->young_floor > low) L->young_floor = (uint32_t)low;
}

/* lua_resume is about to run / has stopped running [L]: a cycle's initial
 * pause scans the stacks of the threads in between (they run again
 * without an API entry when the coroutines they resumed yield). */
TIDE_INTERNAL void gc_resume_enter(lua_State *L);
TIDE_INTERNAL void gc_resume_leave(lua_State *L);
/* The resume of [L] has returned, its status set: if nothing young is on
 * its stack, nursery collections skip it from now on (minor.c). */
TIDE_INTERNAL void gc_thread_stopped(lua_State *L);

/* --- identity, finalizers --------------------------------------------------- */
/* The object's identity hash (assigned on first use, never 0, never changes). */
#define gc_identity(L, o) ((o)->idhash != 0 ? (o)->idhash : gc_assign_identity(G(L), (o)))
TIDE_INTERNAL uint32_t gc_assign_identity(GlobalState *g, GCObject *o);
/* setmetatable on a table/userdata: if [mt] has __gc, mark [o] for
 * finalization (the manual: the metatable must have __gc when set). Call
 * it after storing the metatable. An object already marked (or waiting for
 * its finalizer) is left as it is; one whose finalizer has run may be
 * marked again, as in Lua 5.4. Never allocates, never raises. */
TIDE_INTERNAL void gc_checkfinalizer(lua_State *L, GCObject *o, Table *mt);

/* Memory limit (tide.h, `tide --memory-limit`): allocation beyond [bytes]
 * of heap fails as out of memory. 0 = no limit. */
TIDE_INTERNAL void gc_set_memory_limit(lua_State *L, size_t bytes);
/* Total bytes in use (objects and raw memory). */
TIDE_INTERNAL size_t gc_total_bytes(lua_State *L);

#endif
