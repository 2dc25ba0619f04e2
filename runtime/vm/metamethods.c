/*
 * metamethods.c — metamethod events: their names, their lookup, and the
 * calls the interpreter makes when an operation falls back on them.
 *
 * Lookups never allocate (except tm_objtypename, which only runs on the way
 * to an error). Calls push the metamethod and its operands at L->top, which
 * the callers guarantee has EXTRA_STACK slots of room above it.
 */
#include <string.h>

#include "metamethods.h"
#include "calls.h"
#include "debuginfo.h"
#include "strings.h"
#include "tables.h"
#include "../gc/gc.h"

/* The nil a lookup returns for "no metamethod" (never written). */
static const TValue tm_nil = {{NULL}, VNIL};

/* In the order of the TMS enum. */
static const char *const tm_eventnames[TM_N] = {
    "__index", "__newindex", "__gc", "__mode", "__len", "__eq",
    "__add", "__sub", "__mul", "__mod", "__pow", "__div", "__idiv",
    "__band", "__bor", "__bxor", "__shl", "__shr",
    "__unm", "__bnot", "__lt", "__le", "__concat", "__call", "__close",
};

void tm_init(lua_State *L)
{
    for (int e = 0; e < TM_N; e++) {
        TString *name = str_newz(L, tm_eventnames[e]);
        G(L)->tmname[e] = name;
        gc_fix(L, obj2gco(name)); /* metatables are searched with these forever */
    }
}

const TValue *tm_get(Table *events, TMS e, TString *ename)
{
    const TValue *tm = tab_getshortstr(events, ename);
    if (ttisnil(tm)) {
        if (e <= TM_EQ) /* remember the absence, until the next raw store */
            events->flags |= (uint8_t)(1u << e);
        return NULL;
    }
    return tm;
}

Table *tm_getmetatable(lua_State *L, const TValue *o)
{
    switch (ttype(o)) {
    case LUA_TTABLE:
        return hvalue(o)->metatable;
    case LUA_TUSERDATA:
        return uvalue(o)->metatable;
    default:
        return G(L)->mt[ttype(o)];
    }
}

const TValue *tm_getbyobj(lua_State *L, const TValue *o, TMS e)
{
    Table *mt = tm_getmetatable(L, o);
    if (mt == NULL) return &tm_nil;
    const TValue *tm = tab_getshortstr(mt, G(L)->tmname[e]);
    return ttisnil(tm) ? &tm_nil : tm; /* never hand out the absent-key tag */
}

const char *tm_objtypename(lua_State *L, const TValue *o)
{
    Table *mt = NULL;
    if (ttistable(o))
        mt = hvalue(o)->metatable;
    else if (ttisfulluserdata(o))
        mt = uvalue(o)->metatable;
    if (mt != NULL) {
        const TValue *name = tab_getshortstr(mt, str_newz(L, "__name"));
        if (ttisstring(name)) return getstr(tsvalue(name));
    }
    return ttypename(ttype(o));
}

/* Is [ci] running Lua code (not a C function, not inside a hook)? Only then
 * may a metamethod yield: the interpreter can finish the instruction later
 * (vm_finishop); a C caller has no way to be resumed in the middle. */
static inline int running_lua_code(const CallInfo *ci)
{
    return !(ci->callstatus & (CIST_C | CIST_HOOKED));
}

void tm_call(lua_State *L, const TValue *f, const TValue *p1, const TValue *p2, const TValue *p3)
{
    StkId func = L->top;
    setobj2s(L, func, f);
    setobj2s(L, func + 1, p1);
    setobj2s(L, func + 2, p2);
    setobj2s(L, func + 3, p3);
    L->top = func + 4;
    if (running_lua_code(L->ci))
        call_call(L, func, 0);
    else
        call_callnoyield(L, func, 0);
}

void tm_callres(lua_State *L, const TValue *f, const TValue *p1, const TValue *p2, StkId res)
{
    ptrdiff_t resoff = stack_save(L, res); /* the call may move the stack */
    StkId func = L->top;
    setobj2s(L, func, f);
    setobj2s(L, func + 1, p1);
    setobj2s(L, func + 2, p2);
    L->top = func + 3;
    if (running_lua_code(L->ci))
        call_call(L, func, 1);
    else
        call_callnoyield(L, func, 1);
    res = stack_restore(L, resoff);
    L->top--;
    setobjs2s(L, res, L->top);
}

/* Call the metamethod [event] of p1, else of p2, into [res]; 0 if neither
 * operand has one. */
static int call_binary_tm(lua_State *L, const TValue *p1, const TValue *p2, StkId res, TMS event)
{
    const TValue *tm = tm_getbyobj(L, p1, event);
    if (ttisnil(tm)) tm = tm_getbyobj(L, p2, event);
    if (ttisnil(tm)) return 0;
    tm_callres(L, tm, p1, p2, res);
    return 1;
}

void tm_trybin(lua_State *L, const TValue *p1, const TValue *p2, StkId res, TMS event)
{
    if (luai_likely(call_binary_tm(L, p1, p2, res, event))) return;
    switch (event) {
    case TM_BAND: case TM_BOR: case TM_BXOR:
    case TM_SHL: case TM_SHR: case TM_BNOT:
        if (ttisnumber(p1) && ttisnumber(p2))
            dbg_tointerror(L, p1, p2); /* floats without an integer value */
        dbg_opinterror(L, p1, p2, "perform bitwise operation on");
    case TM_CONCAT:
        dbg_concaterror(L, p1, p2);
    default:
        dbg_opinterror(L, p1, p2, "perform arithmetic on");
    }
}

void tm_trybinassoc(lua_State *L, const TValue *p1, const TValue *p2, int flip, StkId res, TMS event)
{
    if (flip)
        tm_trybin(L, p2, p1, res, event);
    else
        tm_trybin(L, p1, p2, res, event);
}

void tm_trybini(lua_State *L, const TValue *p1, lua_Integer i2, int flip, StkId res, TMS event)
{
    TValue aux;
    setivalue(&aux, i2);
    tm_trybinassoc(L, p1, &aux, flip, res, event);
}

int tm_callorder(lua_State *L, const TValue *p1, const TValue *p2, TMS event)
{
    /* The result goes to L->top, a free slot, and is read at once. */
    if (call_binary_tm(L, p1, p2, L->top, event))
        return !l_isfalse(s2v(L->top));
    if (event == TM_LE) {
        /* Lua 5.4 as built by default (LUA_COMPAT_5_3) still answers
         * a <= b with not (b < a) when only __lt exists; the mark tells
         * vm_finishop to negate the result if __lt yields. */
        L->ci->callstatus |= CIST_LEQ;
        if (call_binary_tm(L, p2, p1, L->top, TM_LT)) {
            L->ci->callstatus &= (unsigned short)~CIST_LEQ;
            return l_isfalse(s2v(L->top));
        }
        L->ci->callstatus &= (unsigned short)~CIST_LEQ;
    }
    dbg_ordererror(L, p1, p2);
}

int tm_callorderi(lua_State *L, const TValue *p1, int v2, int flip, int isfloat, TMS event)
{
    TValue aux;
    if (isfloat)
        setfltvalue(&aux, (lua_Number)v2);
    else
        setivalue(&aux, v2);
    if (flip) /* the instruction had the constant on the left */
        return tm_callorder(L, &aux, p1, event);
    return tm_callorder(L, p1, &aux, event);
}
