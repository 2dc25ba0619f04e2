/*
 * vm.h — the interpreter and the operations it shares with the API (vm.c).
 */
#ifndef TIDE_VM_VM_H
#define TIDE_VM_VM_H

#include "state.h"

/* Run the Lua function of [ci] (and everything it calls in Lua without C in
 * between) until the CIST_FRESH frame returns. */
TIDE_INTERNAL void vm_execute(lua_State *L, CallInfo *ci);
/* After a yield inside a metamethod or hook, finish the interrupted
 * instruction (coroutine resume). */
TIDE_INTERNAL void vm_finishop(lua_State *L);

/* Equality with __eq when L is not NULL; raw when L is NULL. */
TIDE_INTERNAL int vm_equalobj(lua_State *L, const TValue *t1, const TValue *t2);
#define vm_rawequalobj(t1, t2) vm_equalobj(NULL, t1, t2)
TIDE_INTERNAL int vm_lessthan(lua_State *L, const TValue *l, const TValue *r);
TIDE_INTERNAL int vm_lessequal(lua_State *L, const TValue *l, const TValue *r);

/* t[key] into [val] with __index; [slot] is the result of a raw lookup
 * (NULL when t is not a table). */
TIDE_INTERNAL void vm_finishget(lua_State *L, const TValue *t, TValue *key, StkId val, const TValue *slot);
/* t[key] = val with __newindex; [slot] as above. */
TIDE_INTERNAL void vm_finishset(lua_State *L, const TValue *t, TValue *key, TValue *val, const TValue *slot);
/* The generic get/set the API uses (fast path + finish). */
TIDE_INTERNAL void vm_gettable(lua_State *L, const TValue *t, TValue *key, StkId val);
TIDE_INTERNAL void vm_settable(lua_State *L, const TValue *t, TValue *key, TValue *val);

/* Concatenate the [total] values at the top of the stack, leaving the
 * result in place of the first (with __concat). */
TIDE_INTERNAL void vm_concat(lua_State *L, int total);
/* #rb into ra (with __len). */
TIDE_INTERNAL void vm_objlen(lua_State *L, StkId ra, const TValue *rb);

#endif
