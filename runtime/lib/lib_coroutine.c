/*
 * lib_coroutine.c — the coroutine library (manual §6.2): create, resume,
 * yield, status, running, isyieldable, wrap, close.
 *
 * A coroutine is a thread (lua_newthread) holding its body; resuming moves
 * the arguments onto it and its results back with lua_xmove. The messages
 * for resuming a dead or running coroutine come from the core's
 * lua_resume; the library adds only its own checks.
 */
#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

/* What coroutine.status reports. */
typedef enum { CO_RUNNING, CO_DEAD, CO_SUSPENDED, CO_NORMAL } CoStatus;

static const char *const status_names[] = { "running", "dead", "suspended", "normal" };

static lua_State *check_coroutine(lua_State *L, int arg)
{
    lua_State *co = lua_tothread(L, arg);
    luaL_argexpected(L, co != NULL, arg, "thread");
    return co;
}

/* The status of [co] as seen from [L]. */
static CoStatus status_of(lua_State *L, lua_State *co)
{
    if (L == co) return CO_RUNNING;
    switch (lua_status(co)) {
    case LUA_YIELD:
        return CO_SUSPENDED;
    case LUA_OK: {
        lua_Debug ar;
        if (lua_getstack(co, 0, &ar)) return CO_NORMAL;  /* it resumed another */
        return lua_gettop(co) == 0 ? CO_DEAD : CO_SUSPENDED;  /* finished / not started */
    }
    default:                                   /* stopped by an error */
        return CO_DEAD;
    }
}

/*
 * Resumes [co] with the [nargs] values on the top of [L]. On success moves
 * its results (yielded or returned) to [L] and returns how many; on error
 * moves the error object to [L] and returns -1.
 */
static int resume_with(lua_State *L, lua_State *co, int nargs)
{
    if (!lua_checkstack(co, nargs)) {
        lua_pushliteral(L, "too many arguments to resume");
        return -1;
    }
    lua_xmove(L, co, nargs);
    int nresults;
    int status = lua_resume(co, L, nargs, &nresults);
    if (status != LUA_OK && status != LUA_YIELD) {
        lua_xmove(co, L, 1);
        return -1;
    }
    if (!lua_checkstack(L, nresults + 1)) {
        lua_pop(co, nresults);
        lua_pushliteral(L, "too many results to resume");
        return -1;
    }
    lua_xmove(co, L, nresults);
    return nresults;
}

static int co_resume(lua_State *L)
{
    lua_State *co = check_coroutine(L, 1);
    int n = resume_with(L, co, lua_gettop(L) - 1);
    if (n < 0) {
        lua_pushboolean(L, 0);
        lua_insert(L, -2);
        return 2;                              /* false, error object */
    }
    lua_pushboolean(L, 1);
    lua_insert(L, -(n + 1));
    return n + 1;                              /* true, results */
}

/* The function coroutine.wrap returns; its upvalue is the coroutine. */
static int wrapped_resume(lua_State *L)
{
    lua_State *co = lua_tothread(L, lua_upvalueindex(1));
    int n = resume_with(L, co, lua_gettop(L));
    if (n >= 0) return n;
    int status = lua_status(co);
    if (status != LUA_OK && status != LUA_YIELD) {  /* the body raised */
        status = lua_resetthread(co);          /* runs its pending __close */
        lua_xmove(co, L, 1);                   /* the (possibly new) error */
    }
    if (status != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);                      /* where the wrapper was called */
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

static int co_create(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *co = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);                       /* the body waits on its stack */
    return 1;
}

static int co_wrap(lua_State *L)
{
    co_create(L);
    lua_pushcclosure(L, wrapped_resume, 1);
    return 1;
}

static int co_yield(lua_State *L)
{
    return lua_yield(L, lua_gettop(L));
}

static int co_status(lua_State *L)
{
    lua_State *co = check_coroutine(L, 1);
    lua_pushstring(L, status_names[status_of(L, co)]);
    return 1;
}

static int co_running(lua_State *L)
{
    int is_main = lua_pushthread(L);
    lua_pushboolean(L, is_main);
    return 2;
}

static int co_isyieldable(lua_State *L)
{
    lua_State *co = lua_isnone(L, 1) ? L : check_coroutine(L, 1);
    lua_pushboolean(L, lua_isyieldable(co));
    return 1;
}

static int co_close(lua_State *L)
{
    lua_State *co = check_coroutine(L, 1);
    CoStatus status = status_of(L, co);
    if (status != CO_DEAD && status != CO_SUSPENDED)
        return luaL_error(L, "cannot close a %s coroutine", status_names[status]);
    if (lua_resetthread(co) == LUA_OK) {
        lua_pushboolean(L, 1);
        return 1;
    }
    lua_pushboolean(L, 0);
    lua_xmove(co, L, 1);                       /* the error object */
    return 2;
}

static const luaL_Reg coroutine_functions[] = {
    { "create", co_create },
    { "resume", co_resume },
    { "running", co_running },
    { "status", co_status },
    { "wrap", co_wrap },
    { "yield", co_yield },
    { "isyieldable", co_isyieldable },
    { "close", co_close },
    { NULL, NULL },
};

LUAMOD_API int luaopen_coroutine(lua_State *L)
{
    luaL_newlib(L, coroutine_functions);
    return 1;
}
