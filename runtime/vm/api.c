/*
 * api.c — the C API of lua.h: stack indices, pushing and reading values,
 * tables, metatables, user values, calls, loading, upvalues.
 *
 * Threads and states are in state.c, the debug interface in debuginfo.c,
 * coroutines and lua_error in calls.c, lua_gc in gc/.
 *
 * Rules every function here keeps:
 *  - An index is translated with index2value (any acceptable index, the
 *    registry, an upvalue of the running C function) or index2stack (real
 *    stack slots only). The result is a raw pointer: it is recomputed after
 *    anything that can move the stack (a call, gc_check) or move the object
 *    holding it (an allocation may move a C closure whose upvalue it is).
 *  - A store into a heap object is followed by its barrier (gc/gc.h);
 *    stores into stack slots need none.
 *  - Functions that allocate end with gc_check, as the VM does at its
 *    allocating instructions; nothing after it uses a StkId computed before
 *    it, because a step of the collector may shrink the stack.
 *  - Strings handed back to C point into string objects that stay on the
 *    stack; the collector pins the values on the stack of an active C
 *    function, so the pointers stay valid as the manual promises.
 */
#include <limits.h>
#include <string.h>

#include "api.h"
#include "calls.h"
#include "compiler.h"
#include "conv.h"
#include "funcs.h"
#include "metamethods.h"
#include "strings.h"
#include "tables.h"
#include "vm.h"
#include "../gc/gc.h"

TIDE_VISIBLE const char lua_ident[] = "$LuaVersion: " LUA_COPYRIGHT " $"
                                 "$LuaAuthors: " LUA_AUTHORS " $";

/* What an acceptable index without a value, or a missing upvalue, reads
 * as. Never written: the API checks forbid storing through it. */
static const TValue api_nil = {{NULL}, VNIL};

/* Pseudo-indices: the registry and, below it, the upvalues. */
#define ispseudo(i) ((i) <= LUA_REGISTRYINDEX)
#define isupvalue(i) ((i) < LUA_REGISTRYINDEX)

/* Does [o] (from index2value) name an actual value? */
#define isvalid(o) (!ttisnil(o) || (o) != &api_nil)

/* ==========================================================================
 * Index translation
 */

/* Upvalue [n] (1-based) of the running C function; a light C function has
 * none, so every upvalue index reads as nil there. */
static TValue *upvalue_slot(lua_State *L, int n)
{
    TValue *func = s2v(L->ci->func);
    api_check(L, n <= API_MAXUPVAL + 1, "upvalue index too large");
    if (ttisCclosure(func)) {
        CClosure *cl = clCvalue(func);
        if (n <= cl->nupvalues) return &cl->upvalue[n - 1];
    } else {
        api_check(L, ttislcf(func), "caller not a C function");
    }
    return (TValue *)&api_nil;
}

/* The value at acceptable index [idx]. */
static inline TValue *index2value(lua_State *L, int idx)
{
    CallInfo *ci = L->ci;
    if (idx > 0) {
        StkId o = ci->func + idx;
        api_check(L, idx <= ci->top - (ci->func + 1), "unacceptable index");
        return o < L->top ? s2v(o) : (TValue *)&api_nil;
    }
    if (!ispseudo(idx)) {
        api_check(L, idx != 0 && -idx <= L->top - (ci->func + 1), "invalid index");
        return s2v(L->top + idx);
    }
    if (idx == LUA_REGISTRYINDEX) return &G(L)->l_registry;
    return upvalue_slot(L, LUA_REGISTRYINDEX - idx);
}

/* The stack slot of valid, non-pseudo index [idx]. */
static inline StkId index2stack(lua_State *L, int idx)
{
    CallInfo *ci = L->ci;
    if (idx > 0) {
        StkId o = ci->func + idx;
        api_check(L, o < L->top, "invalid index");
        return o;
    }
    api_check(L, idx != 0 && -idx <= L->top - (ci->func + 1), "invalid index");
    api_check(L, !ispseudo(idx), "invalid index");
    return L->top + idx;
}

/* The table at [idx] (raw access functions require one). */
static inline Table *index2table(lua_State *L, int idx)
{
    TValue *t = index2value(L, idx);
    api_check(L, ttistable(t), "table expected");
    return hvalue(t);
}

/* The global table, as the registry holds it. */
static inline const TValue *globals_value(lua_State *L)
{
    return tab_getint_fast(registry_table(L), LUA_RIDX_GLOBALS);
}

LUA_API int lua_absindex(lua_State *L, int idx)
{
    thread_touch(L);
    if (idx > 0 || ispseudo(idx)) return idx;
    return (int)(L->top - L->ci->func) + idx;
}

LUA_API int lua_gettop(lua_State *L)
{
    return (int)(L->top - (L->ci->func + 1));
}

/* ==========================================================================
 * Moving values on the stack
 */

LUA_API void lua_settop(lua_State *L, int idx)
{
    thread_touch(L);
    CallInfo *ci = L->ci;
    StkId func = ci->func;
    StkId newtop;
    if (idx >= 0) {
        api_check(L, idx <= ci->top - (func + 1), "new top too large");
        newtop = func + 1 + idx;
        while (L->top < newtop) setnilvalue(s2v(L->top++));
    } else {
        api_check(L, -(idx + 1) <= L->top - (func + 1), "invalid new top");
        newtop = L->top + (idx + 1);
    }
    /* Slots marked to be closed that go away are closed first, from the
     * highest down; their __close runs above the old top (see calls.h). */
    if (luai_unlikely(L->tbclist >= newtop)) {
        api_check(L, call_hastocloseCfunc(ci->nresults), "no to-be-closed slot in this function");
        newtop = func_close(L, newtop, LUA_OK, 0);
    }
    L->top = newtop;
}

LUA_API void lua_pushvalue(lua_State *L, int idx)
{
    thread_touch(L);
    setobj2s(L, L->top, index2value(L, idx));
    api_incr_top(L);
}

/* Reverse the slots from..to (both included). */
static void reverse_slots(lua_State *L, StkId from, StkId to)
{
    for (; from < to; from++, to--) {
        TValue tmp;
        setobj(L, &tmp, s2v(from));
        setobjs2s(L, from, to);
        setobj2s(L, to, &tmp);
    }
}

LUA_API void lua_rotate(lua_State *L, int idx, int n)
{
    thread_touch(L);
    /* A rotation by n is two reversals of the parts it swaps, then one of
     * the whole segment. Values move; tbc links (tbc.delta) stay put. */
    StkId last = L->top - 1;
    StkId first = index2stack(L, idx);
    api_check(L, (n >= 0 ? n : -n) <= last - first + 1, "invalid 'n'");
    StkId split = n >= 0 ? last - n : first - n - 1;
    reverse_slots(L, first, split);
    reverse_slots(L, split + 1, last);
    reverse_slots(L, first, last);
}

LUA_API void lua_copy(lua_State *L, int fromidx, int toidx)
{
    thread_touch(L);
    const TValue *from = index2value(L, fromidx);
    TValue *to = index2value(L, toidx);
    api_check(L, isvalid(to), "invalid index");
    if (isupvalue(toidx)) gc_satb_value(L, to);
    setobj(L, to, from);
    if (isupvalue(toidx)) /* into the running C closure */
        gc_barrier(L, clCvalue(s2v(L->ci->func)), from);
}

LUA_API int lua_checkstack(lua_State *L, int n)
{
    thread_touch(L);
    CallInfo *ci = L->ci;
    api_check(L, n >= 0, "negative 'n'");
    if (L->stack_last - L->top <= n) {
        /* Refuse past the limit without touching the stack (growing into
         * the error zone is for raising "stack overflow", not for this). */
        if (n > LUAI_MAXSTACK - (int)(L->top - L->stack)) return 0;
        if (!call_growstack(L, n, 0)) return 0;
    }
    if (ci->top < L->top + n) ci->top = L->top + n; /* the frame owns them now */
    stack_note_top(L, ci->top);
    return 1;
}

LUA_API void lua_xmove(lua_State *from, lua_State *to, int n)
{
    thread_touch(to);
    if (from == to) return;
    /* [from] only loses values: nothing young comes onto it, so that a
     * coroutine its resume left clean stays so (gc_thread_stopped) */
    thread_snapshot(from);
    api_checknelems(from, n);
    api_check(from, G(from) == G(to), "moving among independent states");
    api_check(from, to->ci->top - to->top >= n, "stack overflow");
    from->top -= n;
    for (int i = 0; i < n; i++) setobjs2s(to, to->top + i, from->top + i);
    to->top += n;
}

/* ==========================================================================
 * Reading values
 */

LUA_API int lua_type(lua_State *L, int idx)
{
    thread_touch(L);
    const TValue *o = index2value(L, idx);
    return isvalid(o) ? ttype(o) : LUA_TNONE;
}

LUA_API const char *lua_typename(lua_State *L, int t)
{
    thread_touch(L);
    (void)L;
    api_check(L, LUA_TNONE <= t && t < LUA_NUMTYPES, "invalid type");
    return ttypename(t);
}

LUA_API int lua_iscfunction(lua_State *L, int idx)
{
    thread_touch(L);
    const TValue *o = index2value(L, idx);
    return ttislcf(o) || ttisCclosure(o);
}

LUA_API int lua_isinteger(lua_State *L, int idx)
{
    thread_touch(L);
    return ttisinteger(index2value(L, idx));
}

LUA_API int lua_isnumber(lua_State *L, int idx)
{
    thread_touch(L);
    lua_Number n;
    const TValue *o = index2value(L, idx);
    return ttisnumber(o) || conv_tonumber(o, &n);
}

LUA_API int lua_isstring(lua_State *L, int idx)
{
    thread_touch(L);
    const TValue *o = index2value(L, idx);
    return ttisstring(o) || ttisnumber(o);
}

LUA_API int lua_isuserdata(lua_State *L, int idx)
{
    thread_touch(L);
    const TValue *o = index2value(L, idx);
    return ttisfulluserdata(o) || ttislightuserdata(o);
}

LUA_API int lua_rawequal(lua_State *L, int index1, int index2)
{
    thread_touch(L);
    const TValue *o1 = index2value(L, index1);
    const TValue *o2 = index2value(L, index2);
    return isvalid(o1) && isvalid(o2) && vm_rawequalobj(o1, o2);
}

LUA_API void lua_arith(lua_State *L, int op)
{
    thread_touch(L);
    if (op != LUA_OPUNM && op != LUA_OPBNOT) {
        api_checknelems(L, 2);
    } else { /* a unary operator gets its operand twice, as the VM does */
        api_checknelems(L, 1);
        setobjs2s(L, L->top, L->top - 1);
        api_incr_top(L);
    }
    /* operands at top - 2 and top - 1; the result replaces the first */
    conv_arith(L, op, s2v(L->top - 2), s2v(L->top - 1), L->top - 2);
    L->top--;
}

LUA_API int lua_compare(lua_State *L, int index1, int index2, int op)
{
    thread_touch(L);
    const TValue *o1 = index2value(L, index1);
    const TValue *o2 = index2value(L, index2);
    if (!isvalid(o1) || !isvalid(o2)) return 0;
    switch (op) {
    case LUA_OPEQ: return vm_equalobj(L, o1, o2);
    case LUA_OPLT: return vm_lessthan(L, o1, o2);
    case LUA_OPLE: return vm_lessequal(L, o1, o2);
    default: api_check(L, 0, "invalid option"); return 0;
    }
}

LUA_API size_t lua_stringtonumber(lua_State *L, const char *s)
{
    thread_touch(L);
    size_t size = conv_str2num(s, s2v(L->top));
    if (size != 0) api_incr_top(L);
    return size;
}

LUA_API lua_Number lua_tonumberx(lua_State *L, int idx, int *pisnum)
{
    thread_touch(L);
    const TValue *o = index2value(L, idx);
    lua_Number n = 0;
    int ok;
    if (ttisfloat(o)) {
        n = fltvalue(o);
        ok = 1;
    } else if (ttisinteger(o)) {
        n = (lua_Number)ivalue(o);
        ok = 1;
    } else {
        ok = conv_tonumber(o, &n);
        if (!ok) n = 0;
    }
    if (pisnum != NULL) *pisnum = ok;
    return n;
}

LUA_API lua_Integer lua_tointegerx(lua_State *L, int idx, int *pisnum)
{
    thread_touch(L);
    const TValue *o = index2value(L, idx);
    lua_Integer res = 0;
    int ok;
    if (ttisinteger(o)) {
        res = ivalue(o);
        ok = 1;
    } else {
        ok = conv_tointeger(o, &res, F2Ieq);
        if (!ok) res = 0;
    }
    if (pisnum != NULL) *pisnum = ok;
    return res;
}

LUA_API int lua_toboolean(lua_State *L, int idx)
{
    thread_touch(L);
    return !l_isfalse(index2value(L, idx));
}

/* Turn the number at pseudo-index [idx] (an upvalue of the running C
 * closure) into its string, in place. */
static void upvalue_tostring(lua_State *L, int idx)
{
    char buff[MAXNUMBER2STR];
    int len = conv_tostringbuff(index2value(L, idx), buff);
    TString *ts = str_new(L, buff, (size_t)len);
    TValue *o = index2value(L, idx); /* the closure may have moved */
    if (isupvalue(idx)) gc_satb_value(L, o);
    setsvalue(L, o, ts);
    if (isupvalue(idx)) gc_objbarrier(L, clCvalue(s2v(L->ci->func)), ts);
}

LUA_API const char *lua_tolstring(lua_State *L, int idx, size_t *len)
{
    thread_touch(L);
    TValue *o = index2value(L, idx);
    if (!ttisstring(o)) {
        if (!ttisnumber(o)) {
            if (len != NULL) *len = 0;
            return NULL;
        }
        /* the manual: the value itself becomes the string */
        if (ispseudo(idx))
            upvalue_tostring(L, idx);
        else
            conv_tostring(L, index2stack(L, idx));
        gc_check(L);
        o = index2value(L, idx); /* the step may have moved the stack */
    }
    if (len != NULL) *len = vslen(o);
    return svalue(o);
}

LUA_API lua_Unsigned lua_rawlen(lua_State *L, int idx)
{
    thread_touch(L);
    const TValue *o = index2value(L, idx);
    switch (ttypetag(o)) {
    case withvariant(VSHRSTR): return tsvalue(o)->shrlen;
    case withvariant(VLNGSTR): return tsvalue(o)->u.lnglen;
    case withvariant(VUSERDATA): return uvalue(o)->len;
    case withvariant(VTABLE): return tab_getn(hvalue(o));
    default: return 0;
    }
}

LUA_API lua_CFunction lua_tocfunction(lua_State *L, int idx)
{
    thread_touch(L);
    const TValue *o = index2value(L, idx);
    if (ttislcf(o)) return fvalue(o);
    if (ttisCclosure(o)) return clCvalue(o)->f;
    return NULL;
}

static inline void *value_touserdata(const TValue *o)
{
    if (ttisfulluserdata(o)) return getudatamem(uvalue(o));
    if (ttislightuserdata(o)) return pvalue(o);
    return NULL;
}

LUA_API void *lua_touserdata(lua_State *L, int idx)
{
    thread_touch(L);
    return value_touserdata(index2value(L, idx));
}

LUA_API lua_State *lua_tothread(lua_State *L, int idx)
{
    thread_touch(L);
    const TValue *o = index2value(L, idx);
    return ttisthread(o) ? thvalue(o) : NULL;
}

/*
 * Userdata blocks and threads never move, so their addresses identify
 * them; every other object moves, so it is identified by its identity hash
 * (DESIGN §3), which is never 0 and unique among live objects of a state.
 */
LUA_API const void *lua_topointer(lua_State *L, int idx)
{
    thread_touch(L);
    const TValue *o = index2value(L, idx);
    switch (ttypetag(o)) {
    case withvariant(VLCF): return (const void *)(uintptr_t)fvalue(o);
    case withvariant(VUSERDATA):
    case withvariant(VLIGHTUSERDATA): return value_touserdata(o);
    case withvariant(VTHREAD): return thvalue(o);
    default:
        if (iscollectable(o)) return (const void *)(uintptr_t)gc_identity(L, gcvalue(o));
        return NULL;
    }
}

/* ==========================================================================
 * Pushing values
 */

LUA_API void lua_pushnil(lua_State *L)
{
    thread_touch(L);
    setnilvalue(s2v(L->top));
    api_incr_top(L);
}

LUA_API void lua_pushnumber(lua_State *L, lua_Number n)
{
    thread_touch(L);
    setfltvalue(s2v(L->top), n);
    api_incr_top(L);
}

LUA_API void lua_pushinteger(lua_State *L, lua_Integer n)
{
    thread_touch(L);
    setivalue(s2v(L->top), n);
    api_incr_top(L);
}

/* Push [ts], collect if due, and return its contents as they are then. */
static const char *push_string_object(lua_State *L, TString *ts)
{
    setsvalue(L, s2v(L->top), ts);
    api_incr_top(L);
    gc_check(L);
    return svalue(s2v(L->top - 1));
}

LUA_API const char *lua_pushlstring(lua_State *L, const char *s, size_t len)
{
    thread_touch(L);
    /* [s] may be NULL when [len] is 0 */
    return push_string_object(L, len == 0 ? str_new(L, "", 0) : str_new(L, s, len));
}

LUA_API const char *lua_pushstring(lua_State *L, const char *s)
{
    thread_touch(L);
    if (s == NULL) {
        setnilvalue(s2v(L->top));
        api_incr_top(L);
        return NULL;
    }
    return push_string_object(L, str_newz(L, s));
}

LUA_API const char *lua_pushvfstring(lua_State *L, const char *fmt, va_list argp)
{
    thread_touch(L);
    conv_pushvfstring(L, fmt, argp);
    gc_check(L);
    return svalue(s2v(L->top - 1));
}

LUA_API const char *lua_pushfstring(lua_State *L, const char *fmt, ...)
{
    thread_touch(L);
    va_list argp;
    va_start(argp, fmt);
    conv_pushvfstring(L, fmt, argp);
    va_end(argp);
    gc_check(L);
    return svalue(s2v(L->top - 1));
}

LUA_API void lua_pushcclosure(lua_State *L, lua_CFunction fn, int n)
{
    thread_touch(L);
    if (n == 0) {
        setfvalue(s2v(L->top), fn);
        api_incr_top(L);
        return;
    }
    api_checknelems(L, n);
    api_check(L, n <= API_MAXUPVAL, "upvalue index too large");
    CClosure *cl = func_newCclosure(L, n);
    cl->f = fn;
    L->top -= n;
    /* (barriers though cl is fresh: it may be born old, pretenured, and
     * the values young — gc/nursery.c) */
    for (int i = 0; i < n; i++) {
        setobj(L, &cl->upvalue[i], s2v(L->top + i));
        gc_barrier(L, cl, &cl->upvalue[i]);
    }
    setclCvalue(L, s2v(L->top), cl);
    api_incr_top(L);
    gc_check(L);
}

LUA_API void lua_pushboolean(lua_State *L, int b)
{
    thread_touch(L);
    setbvalue(s2v(L->top), b);
    api_incr_top(L);
}

LUA_API void lua_pushlightuserdata(lua_State *L, void *p)
{
    thread_touch(L);
    setpvalue(s2v(L->top), p);
    api_incr_top(L);
}

LUA_API int lua_pushthread(lua_State *L)
{
    thread_touch(L);
    setthvalue(L, s2v(L->top), L);
    api_incr_top(L);
    return G(L)->mainthread == L;
}

/* ==========================================================================
 * Getting values from tables and objects
 */

/* Push [slot] (a raw lookup's result) as a value; return its type. */
static inline int push_rawslot(lua_State *L, const TValue *slot)
{
    if (isempty(slot))
        setnilvalue(s2v(L->top)); /* never copy the empty/absent variants */
    else
        setobj2s(L, L->top, slot);
    api_incr_top(L);
    return ttype(s2v(L->top - 1));
}

static inline const TValue *table_getstr(Table *h, TString *key)
{
    return isshortstr(key) ? tab_getshortstr_inline(h, key) : tab_getstr(h, key);
}

/* Push t[key] for the string [key], with __index. [t] must stay valid
 * through the lookup: callers compute it after allocating [key]. */
static int get_by_string(lua_State *L, const TValue *t, TString *key)
{
    const TValue *slot = NULL;
    if (ttistable(t)) {
        slot = table_getstr(hvalue(t), key);
        if (!isempty(slot)) {
            gc_weak_read(L, hvalue(t), slot);
            setobj2s(L, L->top, slot);
            api_incr_top(L);
            return ttype(s2v(L->top - 1));
        }
    }
    setsvalue(L, s2v(L->top), key);
    api_incr_top(L);
    vm_finishget(L, t, s2v(L->top - 1), L->top - 1, slot);
    return ttype(s2v(L->top - 1));
}

LUA_API int lua_getglobal(lua_State *L, const char *name)
{
    thread_touch(L);
    TString *key = str_newz(L, name);
    TValue gt; /* a copy: the registry's array part may move */
    setobj(L, &gt, globals_value(L));
    return get_by_string(L, &gt, key);
}

LUA_API int lua_getfield(lua_State *L, int idx, const char *k)
{
    thread_touch(L);
    TString *key = str_newz(L, k);
    return get_by_string(L, index2value(L, idx), key);
}

LUA_API int lua_gettable(lua_State *L, int idx)
{
    thread_touch(L);
    api_checknelems(L, 1);
    TValue *t = index2value(L, idx);
    vm_gettable(L, t, s2v(L->top - 1), L->top - 1); /* the key's slot gets the value */
    return ttype(s2v(L->top - 1));
}

LUA_API int lua_geti(lua_State *L, int idx, lua_Integer n)
{
    thread_touch(L);
    TValue *t = index2value(L, idx);
    const TValue *slot = NULL;
    if (ttistable(t)) {
        slot = tab_getint_fast(hvalue(t), n);
        if (!isempty(slot)) {
            gc_weak_read(L, hvalue(t), slot);
            setobj2s(L, L->top, slot);
            api_incr_top(L);
            return ttype(s2v(L->top - 1));
        }
    }
    TValue key;
    setivalue(&key, n);
    vm_finishget(L, t, &key, L->top, slot);
    api_incr_top(L);
    return ttype(s2v(L->top - 1));
}

LUA_API int lua_rawget(lua_State *L, int idx)
{
    thread_touch(L);
    api_checknelems(L, 1);
    Table *t = index2table(L, idx);
    const TValue *slot = tab_get(t, s2v(L->top - 1));
    L->top--; /* the key */
    gc_weak_read(L, t, slot);
    return push_rawslot(L, slot);
}

LUA_API int lua_rawgeti(lua_State *L, int idx, lua_Integer n)
{
    thread_touch(L);
    Table *t = index2table(L, idx);
    const TValue *slot = tab_getint_fast(t, n);
    gc_weak_read(L, t, slot);
    return push_rawslot(L, slot);
}

LUA_API int lua_rawgetp(lua_State *L, int idx, const void *p)
{
    thread_touch(L);
    Table *t = index2table(L, idx);
    TValue key;
    setpvalue(&key, (void *)p);
    const TValue *slot = tab_get(t, &key);
    gc_weak_read(L, t, slot);
    return push_rawslot(L, slot);
}

LUA_API void lua_createtable(lua_State *L, int narr, int nrec)
{
    thread_touch(L);
    Table *t = tab_new(L);
    sethvalue(L, s2v(L->top), t);
    api_incr_top(L);
    if (narr > 0 || nrec > 0) tab_resize(L, t, (unsigned int)(narr > 0 ? narr : 0), (unsigned int)(nrec > 0 ? nrec : 0));
    gc_check(L);
}

LUA_API void *lua_newuserdatauv(lua_State *L, size_t size, int nuvalue)
{
    thread_touch(L);
    api_check(L, 0 <= nuvalue && nuvalue < USHRT_MAX, "invalid value");
    if (size > (size_t)PTRDIFF_MAX - udata_mem_offset(nuvalue)) gc_memerror(L);
    /* Userdata never move (C keeps the block's address): pinned space. */
    Udata *u = (Udata *)gc_new_pinned(L, withvariant(VUSERDATA), sizeudata(nuvalue, size));
    u->nuvalue = (uint16_t)nuvalue;
    u->len = size;
    u->metatable = NULL;
    for (int i = 0; i < nuvalue; i++) setnilvalue(&u->uv[i]);
    setuvalue(L, s2v(L->top), u);
    api_incr_top(L);
    gc_check(L);
    return getudatamem(u);
}

LUA_API int lua_getmetatable(lua_State *L, int objindex)
{
    thread_touch(L);
    Table *mt = tm_getmetatable(L, index2value(L, objindex));
    if (mt == NULL) return 0;
    sethvalue(L, s2v(L->top), mt);
    api_incr_top(L);
    return 1;
}

LUA_API int lua_getiuservalue(lua_State *L, int idx, int n)
{
    thread_touch(L);
    TValue *o = index2value(L, idx);
    int type;
    api_check(L, ttisfulluserdata(o), "full userdata expected");
    Udata *u = uvalue(o);
    if (n <= 0 || n > u->nuvalue) {
        setnilvalue(s2v(L->top));
        type = LUA_TNONE;
    } else {
        setobj2s(L, L->top, &u->uv[n - 1]);
        type = ttype(s2v(L->top));
    }
    api_incr_top(L);
    return type;
}

/* ==========================================================================
 * Setting values in tables and objects
 */

/* t[key] = top value, with __newindex; pops the value. As get_by_string,
 * [t] is computed after [key] was allocated. */
static void set_by_string(lua_State *L, const TValue *t, TString *key)
{
    const TValue *slot = NULL;
    api_checknelems(L, 1);
    if (ttistable(t)) {
        Table *h = hvalue(t);
        slot = table_getstr(h, key);
        if (!isempty(slot)) { /* present: overwrite in place */
            gc_satb_value(L, slot);
            setobj(L, (TValue *)slot, s2v(L->top - 1));
            gc_barrier_back(L, h, slot, s2v(L->top - 1));
            L->top--;
            return;
        }
    }
    /* the key goes on the stack to be a value; EXTRA_STACK has room */
    setsvalue(L, s2v(L->top), key);
    L->top++;
    vm_finishset(L, t, s2v(L->top - 1), s2v(L->top - 2), slot);
    L->top -= 2;
}

LUA_API void lua_setglobal(lua_State *L, const char *name)
{
    thread_touch(L);
    TString *key = str_newz(L, name);
    TValue gt;
    setobj(L, &gt, globals_value(L));
    set_by_string(L, &gt, key);
}

LUA_API void lua_setfield(lua_State *L, int idx, const char *k)
{
    thread_touch(L);
    TString *key = str_newz(L, k);
    set_by_string(L, index2value(L, idx), key);
}

LUA_API void lua_settable(lua_State *L, int idx)
{
    thread_touch(L);
    api_checknelems(L, 2);
    TValue *t = index2value(L, idx);
    vm_settable(L, t, s2v(L->top - 2), s2v(L->top - 1));
    L->top -= 2;
}

LUA_API void lua_seti(lua_State *L, int idx, lua_Integer n)
{
    thread_touch(L);
    api_checknelems(L, 1);
    TValue *t = index2value(L, idx);
    const TValue *slot = NULL;
    if (ttistable(t)) {
        Table *h = hvalue(t);
        slot = tab_getint_fast(h, n);
        if (!isempty(slot)) {
            gc_satb_value(L, slot);
            setobj(L, (TValue *)slot, s2v(L->top - 1));
            gc_barrier_back(L, h, slot, s2v(L->top - 1));
            L->top--;
            return;
        }
    }
    TValue key;
    setivalue(&key, n);
    vm_finishset(L, t, &key, s2v(L->top - 1), slot);
    L->top--;
}

LUA_API void lua_rawset(lua_State *L, int idx)
{
    thread_touch(L);
    api_checknelems(L, 2);
    Table *t = index2table(L, idx);
    tab_set(L, t, s2v(L->top - 2), s2v(L->top - 1)); /* barrier, cache reset */
    L->top -= 2;
}

LUA_API void lua_rawseti(lua_State *L, int idx, lua_Integer n)
{
    thread_touch(L);
    api_checknelems(L, 1);
    Table *t = index2table(L, idx);
    tab_setint(L, t, n, s2v(L->top - 1));
    L->top--;
}

LUA_API void lua_rawsetp(lua_State *L, int idx, const void *p)
{
    thread_touch(L);
    api_checknelems(L, 1);
    Table *t = index2table(L, idx);
    TValue key;
    setpvalue(&key, (void *)p);
    tab_set(L, t, &key, s2v(L->top - 1));
    L->top--;
}

LUA_API int lua_setmetatable(lua_State *L, int objindex)
{
    thread_touch(L);
    api_checknelems(L, 1);
    TValue *obj = index2value(L, objindex);
    Table *mt;
    if (ttisnil(s2v(L->top - 1))) {
        mt = NULL;
    } else {
        api_check(L, ttistable(s2v(L->top - 1)), "table expected");
        mt = hvalue(s2v(L->top - 1));
    }
    switch (ttype(obj)) {
    case LUA_TTABLE: {
        Table *h = hvalue(obj);
        gc_satb_object(L, h->metatable);
        h->metatable = mt;
        h->weak = (uint16_t)(mt != NULL && gc_weak_metatable(L, mt) ? TAB_WEAK : 0);
        if (mt != NULL) {
            gc_objbarrier(L, h, mt);
            gc_checkfinalizer(L, obj2gco(h), mt);
        }
        break;
    }
    case LUA_TUSERDATA: {
        Udata *u = uvalue(obj);
        gc_satb_object(L, u->metatable);
        u->metatable = mt;
        if (mt != NULL) {
            gc_objbarrier(L, u, mt);
            gc_checkfinalizer(L, obj2gco(u), mt);
        }
        break;
    }
    default: /* one metatable per basic type, a root in GlobalState */
        G(L)->mt[ttype(obj)] = mt;
        break;
    }
    L->top--;
    return 1;
}

LUA_API int lua_setiuservalue(lua_State *L, int idx, int n)
{
    thread_touch(L);
    api_checknelems(L, 1);
    TValue *o = index2value(L, idx);
    api_check(L, ttisfulluserdata(o), "full userdata expected");
    Udata *u = uvalue(o);
    int ok = (unsigned int)n - 1u < (unsigned int)u->nuvalue;
    if (ok) {
        gc_satb_value(L, &u->uv[n - 1]);
        setobj(L, &u->uv[n - 1], s2v(L->top - 1));
        gc_barrier(L, u, s2v(L->top - 1));
    }
    L->top--;
    return ok;
}

/* ==========================================================================
 * Calls and loading
 */

/* The C function asking for [nr] results of a call with [na] arguments
 * has room for them (LUA_MULTRET: Lua makes room itself). */
#define checkresults(L, na, nr) \
    api_check(L, (nr) == LUA_MULTRET || (L->ci->top - L->top >= (nr) - (na)), \
              "results from function overflow current stack size")

/* After a call with LUA_MULTRET, the frame owns every result. */
static inline void adjust_results(lua_State *L, int nresults)
{
    if (nresults <= LUA_MULTRET && L->ci->top < L->top) L->ci->top = L->top;
    stack_note_top(L, L->ci->top);
}

LUA_API void lua_callk(lua_State *L, int nargs, int nresults, lua_KContext ctx, lua_KFunction k)
{
    thread_touch(L);
    api_check(L, k == NULL || !isLua(L->ci), "cannot use continuations inside hooks");
    api_checknelems(L, nargs + 1);
    api_check(L, L->status == LUA_OK, "cannot do calls on non-normal thread");
    checkresults(L, nargs, nresults);
    StkId func = L->top - (nargs + 1);
    if (k != NULL && yieldable(L)) { /* a yield in there resumes in k */
        L->ci->u.c.k = k;
        L->ci->u.c.ctx = ctx;
        call_call(L, func, nresults);
    } else {
        call_callnoyield(L, func, nresults);
    }
    adjust_results(L, nresults);
}

struct ProtectedCall {
    StkId func;
    int nresults;
};

static void run_protected_call(lua_State *L, void *ud)
{
    struct ProtectedCall *c = ud;
    call_callnoyield(L, c->func, c->nresults);
}

LUA_API int lua_pcallk(lua_State *L, int nargs, int nresults, int errfunc, lua_KContext ctx, lua_KFunction k)
{
    thread_touch(L);
    api_check(L, k == NULL || !isLua(L->ci), "cannot use continuations inside hooks");
    api_checknelems(L, nargs + 1);
    api_check(L, L->status == LUA_OK, "cannot do calls on non-normal thread");
    checkresults(L, nargs, nresults);
    ptrdiff_t ef = 0;
    if (errfunc != 0) {
        StkId handler = index2stack(L, errfunc);
        api_check(L, ttisfunction(s2v(handler)), "error handler must be a function");
        ef = stack_save(L, handler);
    }
    StkId func = L->top - (nargs + 1);
    int status;
    if (k == NULL || !yieldable(L)) { /* a plain protected call */
        struct ProtectedCall c;
        c.func = func;
        c.nresults = nresults;
        status = call_pcall(L, run_protected_call, &c, stack_save(L, func), ef);
    } else {
        /* Yieldable: lua_resume already runs this coroutine protected. The
         * frame records what an error must restore, so that resume can
         * finish the call through k (calls.h, "How the API's lua_callk..."). */
        CallInfo *ci = L->ci;
        ci->u.c.k = k;
        ci->u.c.ctx = ctx;
        ci->u2.funcidx = (int)stack_save(L, func);
        ci->u.c.old_errfunc = L->errfunc;
        L->errfunc = ef;
        ci_setoah(ci, L->allowhook);
        ci->callstatus |= CIST_YPCALL;
        call_call(L, func, nresults);
        ci->callstatus &= (unsigned short)~CIST_YPCALL;
        L->errfunc = ci->u.c.old_errfunc;
        status = LUA_OK;
    }
    adjust_results(L, nresults);
    return status;
}

LUA_API int lua_load(lua_State *L, lua_Reader reader, void *data, const char *chunkname, const char *mode)
{
    thread_touch(L);
    Reader z;
    if (chunkname == NULL) chunkname = "?";
    reader_init(L, &z, reader, data);
    G(L)->unanchored_callers++; /* see lua_gc */
    int status = call_protectedparser(L, &z, chunkname, mode);
    G(L)->unanchored_callers--;
    if (status == LUA_OK) {
        LClosure *f = clLvalue(s2v(L->top - 1));
        if (f->nupvalues >= 1) { /* the first upvalue is the chunk's _ENV */
            const TValue *gt = globals_value(L);
            UpVal *uv = f->upvals[0];
            gc_satb_value(L, uv->v);
            setobj(L, uv->v, gt);
            gc_barrier(L, uv, gt);
        }
    }
    return status;
}

LUA_API int lua_dump(lua_State *L, lua_Writer writer, void *data, int strip)
{
    thread_touch(L);
    api_checknelems(L, 1);
    const TValue *o = s2v(L->top - 1);
    if (!ttisLclosure(o)) return 1;
    return dump_proto(L, clLvalue(o)->p, writer, data, strip);
}

LUA_API int lua_status(lua_State *L)
{
    return L->status;
}

/* ==========================================================================
 * Miscellaneous
 */

LUA_API int lua_next(lua_State *L, int idx)
{
    thread_touch(L);
    api_checknelems(L, 1);
    Table *t = index2table(L, idx);
    if (tab_next(L, t, L->top - 1)) {
        /* a weak table's key and value (gc.h) */
        gc_weak_read(L, t, s2v(L->top - 1));
        gc_weak_read(L, t, s2v(L->top));
        api_incr_top(L);
        return 1;
    }
    L->top--;
    return 0;
}

LUA_API void lua_concat(lua_State *L, int n)
{
    thread_touch(L);
    api_checknelems(L, n);
    if (n > 0) {
        vm_concat(L, n);
    } else {
        setsvalue(L, s2v(L->top), str_new(L, "", 0));
        api_incr_top(L);
    }
    gc_check(L);
}

LUA_API void lua_len(lua_State *L, int idx)
{
    thread_touch(L);
    TValue *t = index2value(L, idx);
    vm_objlen(L, L->top, t);
    api_incr_top(L);
}

LUA_API void lua_toclose(lua_State *L, int idx)
{
    thread_touch(L);
    StkId o = index2stack(L, idx);
    CallInfo *ci = L->ci;
    api_check(L, L->tbclist < o, "given index below or equal a marked one");
    func_newtbcupval(L, o);
    /* mark the frame: its return must close the slot (calls.h) */
    if (!call_hastocloseCfunc(ci->nresults)) ci->nresults = (short)call_codeNresults(ci->nresults);
}

LUA_API void lua_closeslot(lua_State *L, int idx)
{
    thread_touch(L);
    StkId level = index2stack(L, idx);
    api_check(L, call_hastocloseCfunc(L->ci->nresults) && L->tbclist == level,
              "no variable to close at given level");
    level = func_close(L, level, LUA_OK, 0);
    setnilvalue(s2v(level));
}

LUA_API lua_Alloc lua_getallocf(lua_State *L, void **ud)
{
    thread_touch(L);
    if (ud != NULL) *ud = G(L)->ud;
    return G(L)->frealloc;
}

LUA_API void lua_setallocf(lua_State *L, lua_Alloc f, void *ud)
{
    thread_touch(L);
    G(L)->ud = ud;
    G(L)->frealloc = f;
}

LUA_API void lua_setwarnf(lua_State *L, lua_WarnFunction f, void *ud)
{
    thread_touch(L);
    G(L)->ud_warn = ud;
    G(L)->warnf = f;
}

LUA_API void lua_warning(lua_State *L, const char *msg, int tocont)
{
    thread_touch(L);
    lua_WarnFunction wf = G(L)->warnf;
    if (wf != NULL) wf(G(L)->ud_warn, msg, tocont);
}

LUA_API lua_CFunction lua_atpanic(lua_State *L, lua_CFunction panicf)
{
    thread_touch(L);
    lua_CFunction old = G(L)->panic;
    G(L)->panic = panicf;
    return old;
}

LUA_API lua_Number lua_version(lua_State *L)
{
    thread_touch(L);
    (void)L;
    return LUA_VERSION_NUM;
}

LUA_API int lua_setcstacklimit(lua_State *L, unsigned int limit)
{
    thread_touch(L);
    (void)L;
    (void)limit;
    return TIDE_MAXCCALLS;
}

LUA_API void *lua_getextraspace(lua_State *L)
{
    thread_touch(L);
    return L->extraspace;
}

/* ==========================================================================
 * Upvalues
 */

/* Upvalue [n] of the function [fi]: its name, where its value lives, and
 * the object that owns that slot (for the barrier); NULL if none. */
static const char *find_upvalue(const TValue *fi, int n, TValue **val, GCObject **owner)
{
    switch (ttypetag(fi)) {
    case withvariant(VCCL): {
        CClosure *f = clCvalue(fi);
        if ((unsigned int)n - 1u >= (unsigned int)f->nupvalues) return NULL;
        *val = &f->upvalue[n - 1];
        *owner = obj2gco(f);
        return ""; /* C upvalues have no names */
    }
    case withvariant(VLCL): {
        LClosure *f = clLvalue(fi);
        const Proto *p = f->p;
        if ((unsigned int)n - 1u >= (unsigned int)p->sizeupvalues) return NULL;
        UpVal *uv = f->upvals[n - 1];
        *val = uv->v;
        *owner = obj2gco(uv);
        TString *name = p->upvalues[n - 1].name;
        return name == NULL ? "(no name)" : getstr(name); /* stripped: as lua5.4 */
    }
    default:
        return NULL; /* light C functions have no upvalues */
    }
}

LUA_API const char *lua_getupvalue(lua_State *L, int funcindex, int n)
{
    thread_touch(L);
    TValue *val = NULL;
    GCObject *owner = NULL;
    const char *name = find_upvalue(index2value(L, funcindex), n, &val, &owner);
    if (name != NULL) {
        setobj2s(L, L->top, val);
        api_incr_top(L);
    }
    return name;
}

LUA_API const char *lua_setupvalue(lua_State *L, int funcindex, int n)
{
    thread_touch(L);
    TValue *val = NULL;
    GCObject *owner = NULL;
    api_checknelems(L, 1);
    const char *name = find_upvalue(index2value(L, funcindex), n, &val, &owner);
    if (name != NULL) {
        L->top--;
        gc_satb_value(L, val);
        setobj(L, val, s2v(L->top));
        gc_barrier(L, owner, val);
    }
    return name;
}

/* The slot of upvalue [n] of the Lua closure at [fidx], or NULL. */
static UpVal **lclosure_upvalue_ref(lua_State *L, int fidx, int n, LClosure **pf)
{
    TValue *fi = index2value(L, fidx);
    api_check(L, ttisLclosure(fi), "Lua function expected");
    LClosure *f = clLvalue(fi);
    if (pf != NULL) *pf = f;
    if (1 <= n && n <= f->p->sizeupvalues) return &f->upvals[n - 1];
    return NULL;
}

/*
 * Upvalues move like every object, so their identity stands for them. A C
 * closure's upvalues are slots of the closure itself: they are named by the
 * closure's identity and the slot number, placed above 2^32 so they never
 * equal an upvalue's identity (identities are 32 bits).
 */
LUA_API void *lua_upvalueid(lua_State *L, int fidx, int n)
{
    thread_touch(L);
    TValue *fi = index2value(L, fidx);
    switch (ttypetag(fi)) {
    case withvariant(VLCL): {
        UpVal **up = lclosure_upvalue_ref(L, fidx, n, NULL);
        if (up == NULL || *up == NULL) return NULL;
        return (void *)(uintptr_t)gc_identity(L, obj2gco(*up));
    }
    case withvariant(VCCL): {
        CClosure *f = clCvalue(fi);
        if (n < 1 || n > f->nupvalues) return NULL;
        uintptr_t id = gc_identity(L, obj2gco(f));
#if UINTPTR_MAX > 0xFFFFFFFFu
        return (void *)((id << 32) | (uintptr_t)n);
#else
        return (void *)(id * 256u + (uintptr_t)n); /* 32-bit: best effort */
#endif
    }
    case withvariant(VLCF):
        return NULL;
    default:
        api_check(L, 0, "function expected");
        return NULL;
    }
}

LUA_API void lua_upvaluejoin(lua_State *L, int fidx1, int n1, int fidx2, int n2)
{
    thread_touch(L);
    LClosure *f1;
    UpVal **up1 = lclosure_upvalue_ref(L, fidx1, n1, &f1);
    UpVal **up2 = lclosure_upvalue_ref(L, fidx2, n2, NULL);
    api_check(L, up1 != NULL && up2 != NULL, "invalid upvalue index");
    if (up1 == NULL || up2 == NULL) return;
    gc_satb_object(L, *up1);
    *up1 = *up2;
    gc_objbarrier(L, f1, *up1);
}
