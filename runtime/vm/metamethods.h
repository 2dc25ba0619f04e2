/*
 * metamethods.h — metamethod events and their lookup (metamethods.c).
 *
 * The order of the enum matters: the events up to TM_EQ are cached as
 * "absent" bits in Table.flags (fasttm), and the arithmetic/bitwise events
 * TM_ADD..TM_SHR follow the order of the LUA_OP* constants of lua.h so that
 * TM_ADD + op gives the event of an operator.
 */
#ifndef TIDE_VM_METAMETHODS_H
#define TIDE_VM_METAMETHODS_H

#include "state.h"

typedef enum {
    TM_INDEX, TM_NEWINDEX, TM_GC, TM_MODE, TM_LEN, TM_EQ, /* cached in Table.flags */
    TM_ADD, TM_SUB, TM_MUL, TM_MOD, TM_POW, TM_DIV, TM_IDIV,
    TM_BAND, TM_BOR, TM_BXOR, TM_SHL, TM_SHR,
    TM_UNM, TM_BNOT, TM_LT, TM_LE, TM_CONCAT, TM_CALL, TM_CLOSE,
    TM_N
} TMS;

/* (An enum constant is 0 to the preprocessor, so this check must be a
 * static assertion rather than #if.) */
_Static_assert(TM_N == TM_COUNT, "state.h's TM_COUNT must equal the number of metamethod events");

/* All bits of the absent-metamethod cache set: nothing known present. */
#define TM_CACHE_ALL_ABSENT ((1u << (TM_EQ + 1)) - 1)

/* The metamethod [e] (<= TM_EQ) of metatable [mt], or NULL; uses and fills
 * the absence cache, so a miss costs one bit test after the first time. */
#define fasttm(L, mt, e) \
    ((mt) == NULL ? NULL : ((mt)->flags & (1u << (e))) ? NULL : tm_get((mt), (e), G(L)->tmname[e]))

TIDE_INTERNAL void tm_init(lua_State *L);  /* interns the names (fixed strings) */
/* [events][ename] raw, or NULL when nil; for e <= TM_EQ sets the absence bit. */
TIDE_INTERNAL const TValue *tm_get(Table *events, TMS e, TString *ename);
/* The metamethod [e] of any value (nil TValue when none; never NULL). */
TIDE_INTERNAL const TValue *tm_getbyobj(lua_State *L, const TValue *o, TMS e);
/* The metatable of any value, or NULL. */
TIDE_INTERNAL Table *tm_getmetatable(lua_State *L, const TValue *o);
/* The type name for messages: __name of the metatable when a string, else the basic name. */
TIDE_INTERNAL const char *tm_objtypename(lua_State *L, const TValue *o);

/* Call metamethod [f] with (p1, p2, p3), no result. */
TIDE_INTERNAL void tm_call(lua_State *L, const TValue *f, const TValue *p1, const TValue *p2, const TValue *p3);
/* Call [f](p1, p2) and store its first result in stack slot [res]. */
TIDE_INTERNAL void tm_callres(lua_State *L, const TValue *f, const TValue *p1, const TValue *p2, StkId res);
/* Binary operator fallback: find the metamethod in p1 then p2 and call it
 * into [res], or raise the right error ("perform arithmetic on", "perform
 * bitwise operation on", "concatenate", number has no integer representation). */
TIDE_INTERNAL void tm_trybin(lua_State *L, const TValue *p1, const TValue *p2, StkId res, TMS event);
TIDE_INTERNAL void tm_trybinassoc(lua_State *L, const TValue *p1, const TValue *p2, int flip, StkId res, TMS event);
TIDE_INTERNAL void tm_trybini(lua_State *L, const TValue *p1, lua_Integer i2, int flip, StkId res, TMS event);
/* Order metamethods (__lt, __le): the boolean result, or "attempt to compare" error. */
TIDE_INTERNAL int tm_callorder(lua_State *L, const TValue *p1, const TValue *p2, TMS event);
TIDE_INTERNAL int tm_callorderi(lua_State *L, const TValue *p1, int v2, int flip, int isfloat, TMS event);

#endif
