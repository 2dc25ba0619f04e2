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
 *     may be initialized without barriers.
 *  4. Allocation failure raises LUA_ERRMEM ("not enough memory") after an
 *     emergency full collection; it never returns NULL and never aborts.
 */
#ifndef TIDE_GC_GC_H
#define TIDE_GC_GC_H

#include "../vm/state.h"

/* --- life of the collector ------------------------------------------------ */
TIDE_INTERNAL int gc_init(lua_State *L);      /* 0 on memory failure */
TIDE_INTERNAL void gc_freeall(lua_State *L);  /* lua_close: run pending finalizers, free everything */

/* --- allocation ------------------------------------------------------------ */
/* A new object of [size] bytes with header type [tt] (a tag of value.h
 * without BIT_COLLECTABLE); the header is initialized, the rest is zero. */
TIDE_INTERNAL GCObject *gc_new(lua_State *L, int tt, size_t size);
/* A new full userdata-sized object that never moves (userdata, threads). */
TIDE_INTERNAL GCObject *gc_new_pinned(lua_State *L, int tt, size_t size);
/* Table storage: a Part of [nbytes] payload (zeroed); returns the payload. */
TIDE_INTERNAL void *gc_new_part(lua_State *L, size_t nbytes);
/* The table no longer uses this storage. The collector frees it now or when
 * it is safe (never while a concurrent mark may read it). */
TIDE_INTERNAL void gc_release_part(lua_State *L, void *payload);
/* Make [o] permanent: never collected, never moved (reserved words,
 * metamethod names, the memory-error message). */
TIDE_INTERNAL void gc_fix(lua_State *L, GCObject *o);

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
/* Raise "not enough memory" (LUA_ERRMEM). */
TIDE_INTERNAL _Noreturn void gc_memerror(lua_State *L);
/* Raise "too many %s (limit is %d)" for growing a vector past [limit]. */
TIDE_INTERNAL _Noreturn void gc_toobig(lua_State *L);

/* --- collection -------------------------------------------------------------- */
/* Do collector work if allocation since the last work asks for it. Safe
 * points: the VM calls it at allocation-heavy instructions. */
#define gc_check(L) do { if (G(L)->gc_debt > 0) gc_step(L); } while (0)
TIDE_INTERNAL void gc_step(lua_State *L);
/* A full collection; [isemergency]: no finalizers run (memory failure path). */
TIDE_INTERNAL void gc_fullgc(lua_State *L, int isemergency);
/* lua_gc is implemented in gc/: the options of lua.h. */

/* --- barriers ----------------------------------------------------------------- */
#define gc_barrier(L, owner, v) \
    (iscollectable(v) ? gc_objbarrier((L), (owner), gcvalue(v)) : (void)0)
#define gc_objbarrier(L, owner, o) gc_barrier_((L), obj2gco(owner), obj2gco(o))
/* A table was written (the "owner" is the table; the slot is anywhere in
 * its parts). */
#define gc_barrier_back(L, t, v) \
    (iscollectable(v) ? gc_barrierback_((L), obj2gco(t), gcvalue(v)) : (void)0)
TIDE_INTERNAL void gc_barrier_(lua_State *L, GCObject *owner, GCObject *v);
TIDE_INTERNAL void gc_barrierback_(lua_State *L, GCObject *owner, GCObject *v);

/* --- identity, finalizers --------------------------------------------------- */
/* The object's identity hash (assigned on first use, never 0, never changes). */
#define gc_identity(L, o) ((o)->idhash != 0 ? (o)->idhash : gc_assign_identity((L), (o)))
TIDE_INTERNAL uint32_t gc_assign_identity(lua_State *L, GCObject *o);
/* setmetatable on a table/userdata: if [mt] has __gc, mark [o] for
 * finalization (the manual: the metatable must have __gc when set). */
TIDE_INTERNAL void gc_checkfinalizer(lua_State *L, GCObject *o, Table *mt);

/* Size in bytes of any object (for heap walks and accounting). */
TIDE_INTERNAL size_t gc_object_size(const GCObject *o);

/* Memory limit (tide.h, `tide --memory-limit`): allocation beyond [bytes]
 * of heap fails as out of memory. 0 = no limit. */
TIDE_INTERNAL void gc_set_memory_limit(lua_State *L, size_t bytes);
/* Total bytes in use (objects and raw memory). */
TIDE_INTERNAL size_t gc_total_bytes(lua_State *L);

#endif
