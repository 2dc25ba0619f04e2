/*
 * coro_k.c — API test module: C functions that let Lua code yield through
 * them, coroutines driven from C, C closures and upvalues, and the debug
 * interface. Paired with coro_k.lua.
 *
 * Exercises: lua_callk and lua_pcallk with continuations (the context
 * carrying a loop index), lua_yieldk resumed several times, lua_yield from
 * C, lua_isyieldable, lua_newthread + lua_resume + lua_xmove driving a
 * coroutine from C, lua_status, lua_closethread (lua_resetthread before
 * 5.4.6) running pending __close, lua_pushthread, lua_tothread, C closures
 * with upvalues (lua_upvalueindex, lua_copy into an upvalue),
 * lua_getupvalue / lua_setupvalue / lua_upvalueid / lua_upvaluejoin,
 * lua_getstack + lua_getinfo, lua_getlocal, lua_sethook with a call hook
 * that reaches C data through lua_getextraspace, lua_error with a
 * non-string error object, luaL_traceback of another thread.
 *
 * Written against lua.h and lauxlib.h only.
 */
#include <string.h>

#include "lauxlib.h"
#include "lua.h"

/*-------------------------------------------------------------------------
 * lua_callk: coro.map(f, t) calls f on every element of t; f may yield.
 * Stack: 1 f, 2 t, 3 results. The context is the index being mapped.
 */
static int map_from(lua_State *L, lua_Integer i);

static int map_continue(lua_State *L, int status, lua_KContext ctx)
{
    (void)status; /* always LUA_YIELD for lua_callk */
    lua_seti(L, 3, (lua_Integer)ctx);
    return map_from(L, (lua_Integer)ctx + 1);
}

static int map_from(lua_State *L, lua_Integer i)
{
    lua_Integer n = luaL_len(L, 2);
    for (; i <= n; i++) {
        lua_pushvalue(L, 1);
        lua_geti(L, 2, i);
        lua_callk(L, 1, 1, (lua_KContext)i, map_continue);
        lua_seti(L, 3, i);
    }
    lua_settop(L, 3);
    return 1;
}

static int l_map(lua_State *L)
{
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    lua_createtable(L, (int)luaL_len(L, 2), 0);
    return map_from(L, 1);
}

/*-------------------------------------------------------------------------
 * lua_pcallk: coro.pcall(f, ...) is pcall, yieldable. The context is the
 * number of stack slots below f's results.
 */
static int pcall_finish(lua_State *L, int status, lua_KContext below)
{
    if (status != LUA_OK && status != LUA_YIELD) {
        lua_pushboolean(L, 0);
        lua_insert(L, -2);
        return 2;
    }
    return lua_gettop(L) - (int)below;
}

static int l_pcall(lua_State *L)
{
    luaL_checkany(L, 1);
    lua_pushboolean(L, 1);
    lua_insert(L, 1); /* true, f, args... */
    int status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, pcall_finish);
    return pcall_finish(L, status, 0);
}

/*-------------------------------------------------------------------------
 * lua_yieldk: coro.steps(n) yields 1, 2, ..., n, adds up the integers it
 * is resumed with, and returns the sum. Stack: 1 n, 2 sum, then the
 * values of the last resume. The context is the last value yielded.
 */
static int steps_continue(lua_State *L, int status, lua_KContext last)
{
    (void)status;
    lua_Integer n = lua_tointeger(L, 1);
    lua_Integer sum = lua_tointeger(L, 2);
    for (int i = 3; i <= lua_gettop(L); i++) sum += luaL_checkinteger(L, i);
    lua_settop(L, 1);
    lua_pushinteger(L, sum);
    if ((lua_Integer)last >= n) return 1;
    lua_pushinteger(L, (lua_Integer)last + 1);
    return lua_yieldk(L, 1, last + 1, steps_continue);
}

static int l_steps(lua_State *L)
{
    luaL_checkinteger(L, 1);
    lua_settop(L, 1);
    lua_pushinteger(L, 0);
    return steps_continue(L, LUA_YIELD, 0);
}

/* coro.pass(...): yields its arguments with lua_yield; the coroutine then
 * returns to the Lua code that called pass, with the resume values. */
static int l_pass(lua_State *L)
{
    return lua_yield(L, lua_gettop(L));
}

/* coro.yieldable() */
static int l_yieldable(lua_State *L)
{
    lua_pushboolean(L, lua_isyieldable(L));
    return 1;
}

/*-------------------------------------------------------------------------
 * Driving a coroutine from C: coro.drive(f, ...) runs f(...) in a new
 * thread, resuming it with the number of values yielded so far until it
 * ends. Returns a table of every yielded value, "ok" or "error", and the
 * results or error object; on an error, also the status lua_closethread
 * reports after closing the thread's pending variables.
 */
static int close_thread(lua_State *co, lua_State *from)
{
#if LUA_VERSION_RELEASE_NUM >= 50406
    return lua_closethread(co, from);
#else
    (void)from;
    return lua_resetthread(co);
#endif
}

static int l_drive(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    int nargs = lua_gettop(L) - 1;
    lua_State *co = lua_newthread(L);
    lua_insert(L, 1);            /* thread, f, args... */
    lua_xmove(L, co, nargs + 1); /* f and args go to the thread */
    lua_newtable(L);             /* 2: the yielded values */
    lua_Integer count = 0;
    int narg = nargs, nres = 0, status;
    while ((status = lua_resume(co, L, narg, &nres)) == LUA_YIELD) {
        lua_xmove(co, L, nres);
        for (int i = nres; i >= 1; i--) lua_rawseti(L, 2, count + i);
        count += nres;
        lua_pushinteger(co, count);
        narg = 1;
    }
    if (status == LUA_OK) {
        lua_pushliteral(L, "ok");
        lua_xmove(co, L, nres);
        return 2 + nres;
    }
    lua_pushliteral(L, "error");
    lua_xmove(co, L, 1); /* the error object */
    lua_pushinteger(L, lua_status(co));
    lua_pushinteger(L, close_thread(co, L));
    return 5;
}

/* coro.status(co): lua_status of a thread, and whether the thread
 * lua_tothread gives is the one lua_pushthread pushes. */
static int l_status(lua_State *L)
{
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co != NULL, 1, "thread");
    lua_pushinteger(L, lua_status(co));
    lua_pushthread(co);
    lua_xmove(co, L, 1);
    lua_pushboolean(L, lua_rawequal(L, 1, -1));
    lua_remove(L, -2);
    return 2;
}

/* coro.traceback(co): luaL_traceback of another thread. */
static int l_traceback(lua_State *L)
{
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co != NULL, 1, "thread");
    luaL_traceback(L, co, "trace", 0);
    return 1;
}

/*-------------------------------------------------------------------------
 * C closures and upvalues
 */

/* The closure coro.counter(start) returns: each call adds its step
 * (default 1) to upvalue 1 and returns the total; upvalue 2 counts calls. */
static int counter_call(lua_State *L)
{
    lua_Integer step = luaL_optinteger(L, 1, 1);
    lua_pushinteger(L, lua_tointeger(L, lua_upvalueindex(1)) + step);
    lua_copy(L, -1, lua_upvalueindex(1));
    lua_pushinteger(L, lua_tointeger(L, lua_upvalueindex(2)) + 1);
    lua_replace(L, lua_upvalueindex(2));
    return 1;
}

static int l_counter(lua_State *L)
{
    lua_Integer start = luaL_optinteger(L, 1, 0);
    lua_pushinteger(L, start);
    lua_pushinteger(L, 0);
    lua_pushcclosure(L, counter_call, 2);
    return 1;
}

/* coro.upvalues(f): "name=value" for each upvalue of f, in order. */
static int l_upvalues(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    const char *name;
    for (int n = 1; (name = lua_getupvalue(L, 1, n)) != NULL; n++) {
        /* the value is on the top: the buffer's rule allows one extra
         * value only for luaL_addvalue, so format it first */
        const char *value = luaL_tolstring(L, -1, NULL);
        lua_pushfstring(L, "%s%s=%s", n > 1 ? " " : "", *name ? name : "?", value);
        lua_remove(L, -2);
        lua_remove(L, -2);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    return 1;
}

/* coro.setupvalue(f, n, v): the upvalue's name, or nil. */
static int l_setupvalue(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    int n = (int)luaL_checkinteger(L, 2);
    luaL_checkany(L, 3);
    lua_settop(L, 3);
    const char *name = lua_setupvalue(L, 1, n);
    if (name) lua_pushstring(L, name);
    else lua_pushnil(L);
    return 1;
}

/* coro.same_upvalue(f1, n1, f2, n2): do they share that upvalue? */
static int l_same_upvalue(lua_State *L)
{
    int n1 = (int)luaL_checkinteger(L, 2), n2 = (int)luaL_checkinteger(L, 4);
    lua_pushboolean(L, lua_upvalueid(L, 1, n1) == lua_upvalueid(L, 3, n2));
    return 1;
}

/* coro.join(f1, n1, f2, n2): lua_upvaluejoin. */
static int l_join(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    luaL_checktype(L, 3, LUA_TFUNCTION);
    lua_upvaluejoin(L, 1, (int)luaL_checkinteger(L, 2), 3, (int)luaL_checkinteger(L, 4));
    return 0;
}

/*-------------------------------------------------------------------------
 * The debug interface
 */

/* coro.caller(): what lua_getinfo says about the calling function. */
static int l_caller(lua_State *L)
{
    lua_Debug ar;
    if (!lua_getstack(L, 1, &ar)) return 0;
    if (!lua_getinfo(L, "nSlu", &ar)) return luaL_error(L, "lua_getinfo refused \"nSlu\"");
    lua_pushstring(L, ar.name ? ar.name : "?");
    lua_pushstring(L, ar.namewhat);
    lua_pushstring(L, ar.what);
    lua_pushinteger(L, ar.currentline);
    lua_pushinteger(L, ar.linedefined);
    lua_pushinteger(L, ar.nparams);
    lua_pushboolean(L, ar.isvararg);
    lua_pushboolean(L, strcmp(ar.short_src, "") != 0 && ar.srclen > 0);
    return 8;
}

/* coro.locals(): the names of the calling function's active locals. */
static int l_locals(lua_State *L)
{
    lua_Debug ar;
    if (!lua_getstack(L, 1, &ar)) return 0;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    const char *name;
    int first = 1;
    for (int n = 1; (name = lua_getlocal(L, &ar, n)) != NULL; n++) {
        lua_pop(L, 1); /* the local's value */
        if (name[0] == '(') continue; /* temporaries */
        if (!first) luaL_addchar(&b, ' ');
        luaL_addstring(&b, name);
        first = 0;
    }
    luaL_pushresult(&b);
    return 1;
}

/* The hook counts call events in an int that lua_getextraspace points
 * to, so no C global is needed. */
static void count_calls(lua_State *L, lua_Debug *ar)
{
    if (ar->event == LUA_HOOKCALL || ar->event == LUA_HOOKTAILCALL) {
        int **counter = (int **)lua_getextraspace(L);
        if (*counter) (**counter)++;
    }
}

/* coro.count_calls(f): how many call events running f produces. */
static int l_count_calls(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    int count = 0;
    int **slot = (int **)lua_getextraspace(L);
    int *saved = *slot;
    *slot = &count;
    lua_sethook(L, count_calls, LUA_MASKCALL, 0);
    int installed = lua_gethook(L) == count_calls && lua_gethookmask(L) == LUA_MASKCALL;
    lua_pushvalue(L, 1);
    int status = lua_pcall(L, 0, 0, 0);
    lua_sethook(L, NULL, 0, 0);
    *slot = saved;
    if (status != LUA_OK) return lua_error(L);
    lua_pushinteger(L, count);
    lua_pushboolean(L, installed && lua_gethook(L) == NULL && lua_gethookcount(L) == 0);
    return 2;
}

/* coro.raise(v): lua_error with any value as the error object. */
static int l_raise(lua_State *L)
{
    luaL_checkany(L, 1);
    lua_settop(L, 1);
    return lua_error(L);
}

static const luaL_Reg coro_functions[] = {
    { "map", l_map }, { "pcall", l_pcall }, { "steps", l_steps }, { "pass", l_pass },
    { "yieldable", l_yieldable }, { "drive", l_drive }, { "status", l_status },
    { "traceback", l_traceback }, { "counter", l_counter }, { "upvalues", l_upvalues },
    { "setupvalue", l_setupvalue }, { "same_upvalue", l_same_upvalue }, { "join", l_join },
    { "caller", l_caller }, { "locals", l_locals }, { "count_calls", l_count_calls },
    { "raise", l_raise },
    { NULL, NULL },
};

int luaopen_coro_k(lua_State *L);

int luaopen_coro_k(lua_State *L)
{
    luaL_newlib(L, coro_functions);
    return 1;
}
