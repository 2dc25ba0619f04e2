/*
 * lib_debug.c — the debug library (Lua 5.4 manual §6.10): introspection of
 * functions, stack levels, locals and upvalues, hooks, tracebacks, and the
 * interactive debug.debug.
 *
 * Most functions take an optional thread first; "arg" below is 1 when one
 * was given and 0 when not, so arguments are named arg + 1, arg + 2, ...
 *
 * Hooks set from Lua are kept in the registry table "_HOOKKEY", keyed by
 * thread (weak keys, so a hooked coroutine can still be collected); the
 * one C hook, debug_hook_dispatch, calls the function found there for the
 * running thread.
 */
#include <stdio.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

#define DEBUG_HOOKS_KEY "_HOOKKEY"

/* debug.debug reads commands of at most this many bytes a line (a longer
 * line runs as several commands, as in stock Lua). */
#define DEBUG_COMMAND_SIZE 250

/* What debug.setcstacklimit returns: the C-call limit stock Lua 5.4 keeps
 * (the function is a no-op since 5.4.2). */
#define DEBUG_C_CALL_LIMIT 200

static lua_State *debug_thread_arg(lua_State *L, int *arg)
{
    if (lua_isthread(L, 1)) {
        *arg = 1;
        return lua_tothread(L, 1);
    }
    *arg = 0;
    return L;
}

/* Room for [n] values on another thread's stack before moving them. */
static void debug_check_stack(lua_State *L, lua_State *L1, int n)
{
    if (L != L1 && !lua_checkstack(L1, n)) luaL_error(L, "stack overflow");
}

/*-------------------------------------------------------------------------
 * getinfo
 */

static void debug_set_string(lua_State *L, const char *key, const char *value)
{
    lua_pushstring(L, value);
    lua_setfield(L, -2, key);
}

static void debug_set_integer(lua_State *L, const char *key, lua_Integer value)
{
    lua_pushinteger(L, value);
    lua_setfield(L, -2, key);
}

static void debug_set_boolean(lua_State *L, const char *key, int value)
{
    lua_pushboolean(L, value);
    lua_setfield(L, -2, key);
}

/* Moves the value lua_getinfo left on top of [L1] into field [key] of the
 * table on top of [L]. */
static void debug_set_pushed_value(lua_State *L, lua_State *L1, const char *key)
{
    if (L == L1) lua_rotate(L, -2, 1); /* the value above the table */
    else lua_xmove(L1, L, 1);
    lua_setfield(L, -2, key);
}

static void debug_fill_info(lua_State *L, lua_State *L1, const char *options, const lua_Debug *ar)
{
    lua_createtable(L, 0, 16);
    if (strchr(options, 'S')) {
        lua_pushlstring(L, ar->source, ar->srclen);
        lua_setfield(L, -2, "source");
        debug_set_string(L, "short_src", ar->short_src);
        debug_set_integer(L, "linedefined", ar->linedefined);
        debug_set_integer(L, "lastlinedefined", ar->lastlinedefined);
        debug_set_string(L, "what", ar->what);
    }
    if (strchr(options, 'l')) debug_set_integer(L, "currentline", ar->currentline);
    if (strchr(options, 'u')) {
        debug_set_integer(L, "nups", ar->nups);
        debug_set_integer(L, "nparams", ar->nparams);
        debug_set_boolean(L, "isvararg", ar->isvararg);
    }
    if (strchr(options, 'n')) {
        debug_set_string(L, "name", ar->name);
        debug_set_string(L, "namewhat", ar->namewhat);
    }
    if (strchr(options, 'r')) {
        debug_set_integer(L, "ftransfer", ar->ftransfer);
        debug_set_integer(L, "ntransfer", ar->ntransfer);
    }
    if (strchr(options, 't')) debug_set_boolean(L, "istailcall", ar->istailcall);
    /* lua_getinfo pushed the function first, then the active lines */
    if (strchr(options, 'L')) debug_set_pushed_value(L, L1, "activelines");
    if (strchr(options, 'f')) debug_set_pushed_value(L, L1, "func");
}

static int debug_getinfo(lua_State *L)
{
    lua_Debug ar;
    int arg;
    lua_State *L1 = debug_thread_arg(L, &arg);
    const char *options = luaL_optstring(L, arg + 2, "flnSrtu");
    debug_check_stack(L, L1, 3);
    luaL_argcheck(L, options[0] != '>', arg + 2, "invalid option '>'");
    if (lua_isfunction(L, arg + 1)) {
        options = lua_pushfstring(L, ">%s", options);
        lua_pushvalue(L, arg + 1);
        lua_xmove(L, L1, 1);
    } else if (!lua_getstack(L1, (int)luaL_checkinteger(L, arg + 1), &ar)) {
        luaL_pushfail(L); /* no such level */
        return 1;
    }
    if (!lua_getinfo(L1, options, &ar)) return luaL_argerror(L, arg + 2, "invalid option");
    debug_fill_info(L, L1, options, &ar);
    return 1;
}

/*-------------------------------------------------------------------------
 * Locals and upvalues
 */

static int debug_getlocal(lua_State *L)
{
    lua_Debug ar;
    int arg;
    lua_State *L1 = debug_thread_arg(L, &arg);
    int n = (int)luaL_checkinteger(L, arg + 2);
    if (lua_isfunction(L, arg + 1)) { /* a function's parameter names */
        lua_pushvalue(L, arg + 1);
        lua_pushstring(L, lua_getlocal(L, NULL, n));
        return 1;
    }
    int level = (int)luaL_checkinteger(L, arg + 1);
    if (!lua_getstack(L1, level, &ar)) return luaL_argerror(L, arg + 1, "level out of range");
    debug_check_stack(L, L1, 1);
    const char *name = lua_getlocal(L1, &ar, n);
    if (name == NULL) {
        luaL_pushfail(L);
        return 1;
    }
    lua_xmove(L1, L, 1);
    lua_pushstring(L, name);
    lua_rotate(L, -2, 1); /* name, value */
    return 2;
}

static int debug_setlocal(lua_State *L)
{
    lua_Debug ar;
    int arg;
    lua_State *L1 = debug_thread_arg(L, &arg);
    int level = (int)luaL_checkinteger(L, arg + 1);
    int n = (int)luaL_checkinteger(L, arg + 2);
    if (!lua_getstack(L1, level, &ar)) return luaL_argerror(L, arg + 1, "level out of range");
    luaL_checkany(L, arg + 3);
    lua_settop(L, arg + 3);
    debug_check_stack(L, L1, 1);
    lua_xmove(L, L1, 1);
    const char *name = lua_setlocal(L1, &ar, n);
    if (name == NULL) lua_pop(L1, 1); /* not set: the value is still there */
    lua_pushstring(L, name);
    return 1;
}

static int debug_getupvalue(lua_State *L)
{
    int n = (int)luaL_checkinteger(L, 2);
    luaL_checktype(L, 1, LUA_TFUNCTION);
    const char *name = lua_getupvalue(L, 1, n);
    if (name == NULL) return 0;
    lua_pushstring(L, name);
    lua_rotate(L, -2, 1); /* name, value */
    return 2;
}

static int debug_setupvalue(lua_State *L)
{
    luaL_checkany(L, 3);
    int n = (int)luaL_checkinteger(L, 2);
    luaL_checktype(L, 1, LUA_TFUNCTION);
    const char *name = lua_setupvalue(L, 1, n);
    if (name == NULL) return 0;
    lua_pushstring(L, name);
    return 1;
}

/* Whether the function at [arg] has an upvalue numbered [n] (asked with
 * lua_getupvalue, which says so for every kind of function). */
static int debug_has_upvalue(lua_State *L, int arg, int n)
{
    if (lua_getupvalue(L, arg, n) == NULL) return 0;
    lua_pop(L, 1);
    return 1;
}

/* The upvalue number at [nup_arg] of the function at [function_arg]. */
static int debug_check_upvalue(lua_State *L, int function_arg, int nup_arg)
{
    int n = (int)luaL_checkinteger(L, nup_arg);
    luaL_checktype(L, function_arg, LUA_TFUNCTION);
    luaL_argcheck(L, debug_has_upvalue(L, function_arg, n), nup_arg, "invalid upvalue index");
    return n;
}

static int debug_upvalueid(lua_State *L)
{
    int n = (int)luaL_checkinteger(L, 2);
    luaL_checktype(L, 1, LUA_TFUNCTION);
    if (debug_has_upvalue(L, 1, n)) lua_pushlightuserdata(L, lua_upvalueid(L, 1, n));
    else luaL_pushfail(L);
    return 1;
}

static int debug_upvaluejoin(lua_State *L)
{
    int n1 = debug_check_upvalue(L, 1, 2);
    int n2 = debug_check_upvalue(L, 3, 4);
    luaL_argcheck(L, !lua_iscfunction(L, 1), 1, "Lua function expected");
    luaL_argcheck(L, !lua_iscfunction(L, 3), 3, "Lua function expected");
    lua_upvaluejoin(L, 1, n1, 3, n2);
    return 0;
}

/*-------------------------------------------------------------------------
 * Metatables, user values, the registry
 */

static int debug_getmetatable(lua_State *L)
{
    luaL_checkany(L, 1);
    if (!lua_getmetatable(L, 1)) lua_pushnil(L);
    return 1;
}

static int debug_setmetatable(lua_State *L)
{
    int type = lua_type(L, 2);
    luaL_argexpected(L, type == LUA_TNIL || type == LUA_TTABLE, 2, "nil or table");
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 1;
}

static int debug_getuservalue(lua_State *L)
{
    int n = (int)luaL_optinteger(L, 2, 1);
    if (lua_type(L, 1) != LUA_TUSERDATA) {
        luaL_pushfail(L);
        return 1;
    }
    if (lua_getiuservalue(L, 1, n) == LUA_TNONE) return 1; /* no such value: nil */
    lua_pushboolean(L, 1);
    return 2;
}

static int debug_setuservalue(lua_State *L)
{
    int n = (int)luaL_optinteger(L, 3, 1);
    luaL_checktype(L, 1, LUA_TUSERDATA);
    luaL_checkany(L, 2);
    lua_settop(L, 2);
    if (!lua_setiuservalue(L, 1, n)) luaL_pushfail(L);
    return 1;
}

static int debug_getregistry(lua_State *L)
{
    lua_pushvalue(L, LUA_REGISTRYINDEX);
    return 1;
}

/*-------------------------------------------------------------------------
 * Hooks
 */

static const char *debug_event_name(int event)
{
    switch (event) {
    case LUA_HOOKCALL: return "call";
    case LUA_HOOKRET: return "return";
    case LUA_HOOKLINE: return "line";
    case LUA_HOOKCOUNT: return "count";
    case LUA_HOOKTAILCALL: return "tail call";
    default: return "?";
    }
}

/* The C hook of every hook set from Lua: calls the running thread's hook
 * function with the event's name and, for a line event, the line. */
static void debug_hook_dispatch(lua_State *L, lua_Debug *ar)
{
    lua_getfield(L, LUA_REGISTRYINDEX, DEBUG_HOOKS_KEY);
    lua_pushthread(L);
    if (lua_rawget(L, -2) != LUA_TFUNCTION) {
        lua_pop(L, 2);
        return;
    }
    lua_pushstring(L, debug_event_name(ar->event));
    if (ar->event == LUA_HOOKLINE) lua_pushinteger(L, ar->currentline);
    else lua_pushnil(L);
    lua_call(L, 2, 0);
    lua_pop(L, 1);
}

static int debug_mask_of(const char *letters, int count)
{
    int mask = 0;
    if (strchr(letters, 'c')) mask |= LUA_MASKCALL;
    if (strchr(letters, 'r')) mask |= LUA_MASKRET;
    if (strchr(letters, 'l')) mask |= LUA_MASKLINE;
    if (count > 0) mask |= LUA_MASKCOUNT;
    return mask;
}

static const char *debug_letters_of(int mask, char letters[4])
{
    int i = 0;
    if (mask & LUA_MASKCALL) letters[i++] = 'c';
    if (mask & LUA_MASKRET) letters[i++] = 'r';
    if (mask & LUA_MASKLINE) letters[i++] = 'l';
    letters[i] = '\0';
    return letters;
}

/* Pushes the registry's hook table, made (with weak keys) if need be. */
static void debug_push_hooks(lua_State *L)
{
    if (luaL_getsubtable(L, LUA_REGISTRYINDEX, DEBUG_HOOKS_KEY)) return;
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_pushvalue(L, -1);
    lua_setmetatable(L, -2); /* its own metatable */
}

/* Pushes [L1] itself onto [L]. */
static void debug_push_thread(lua_State *L, lua_State *L1)
{
    debug_check_stack(L, L1, 1);
    lua_pushthread(L1);
    lua_xmove(L1, L, 1);
}

static int debug_sethook(lua_State *L)
{
    int arg, mask = 0, count = 0;
    lua_Hook hook = NULL;
    lua_State *L1 = debug_thread_arg(L, &arg);
    if (lua_isnoneornil(L, arg + 1)) {
        lua_settop(L, arg + 1); /* the nil stored below */
    } else {
        const char *letters = luaL_checkstring(L, arg + 2);
        luaL_checktype(L, arg + 1, LUA_TFUNCTION);
        count = (int)luaL_optinteger(L, arg + 3, 0);
        hook = debug_hook_dispatch;
        mask = debug_mask_of(letters, count);
    }
    debug_push_hooks(L);
    debug_push_thread(L, L1);
    lua_pushvalue(L, arg + 1);
    lua_rawset(L, -3);
    lua_sethook(L1, hook, mask, count);
    return 0;
}

static int debug_gethook(lua_State *L)
{
    int arg;
    char letters[4];
    lua_State *L1 = debug_thread_arg(L, &arg);
    int mask = lua_gethookmask(L1);
    lua_Hook hook = lua_gethook(L1);
    if (hook == NULL) {
        luaL_pushfail(L);
        return 1;
    }
    if (hook != debug_hook_dispatch) {
        lua_pushliteral(L, "external hook");
    } else {
        debug_push_hooks(L);
        debug_push_thread(L, L1);
        lua_rawget(L, -2);
        lua_remove(L, -2);
    }
    lua_pushstring(L, debug_letters_of(mask, letters));
    lua_pushinteger(L, lua_gethookcount(L1));
    return 3;
}

/*-------------------------------------------------------------------------
 * debug.debug and traceback
 */

static int debug_debug(lua_State *L)
{
    for (;;) {
        char command[DEBUG_COMMAND_SIZE];
        fputs("lua_debug> ", stderr);
        fflush(stderr);
        if (fgets(command, sizeof command, stdin) == NULL || strcmp(command, "cont\n") == 0)
            return 0;
        if (luaL_loadbuffer(L, command, strlen(command), "=(debug command)") != LUA_OK ||
            lua_pcall(L, 0, 0, 0) != LUA_OK) {
            fprintf(stderr, "%s\n", luaL_tolstring(L, -1, NULL));
            fflush(stderr);
        }
        lua_settop(L, 0);
    }
}

static int debug_traceback(lua_State *L)
{
    int arg;
    lua_State *L1 = debug_thread_arg(L, &arg);
    const char *message = lua_tostring(L, arg + 1);
    if (message == NULL && !lua_isnoneornil(L, arg + 1)) {
        lua_pushvalue(L, arg + 1); /* not a string: returned untouched */
        return 1;
    }
    int level = (int)luaL_optinteger(L, arg + 2, L == L1 ? 1 : 0);
    luaL_traceback(L, L1, message, level);
    return 1;
}

static int debug_setcstacklimit(lua_State *L)
{
    luaL_checkinteger(L, 1);
    lua_pushinteger(L, DEBUG_C_CALL_LIMIT);
    return 1;
}

static const luaL_Reg debug_functions[] = {
    { "debug", debug_debug },
    { "getuservalue", debug_getuservalue },
    { "gethook", debug_gethook },
    { "getinfo", debug_getinfo },
    { "getlocal", debug_getlocal },
    { "getregistry", debug_getregistry },
    { "getmetatable", debug_getmetatable },
    { "getupvalue", debug_getupvalue },
    { "upvaluejoin", debug_upvaluejoin },
    { "upvalueid", debug_upvalueid },
    { "setuservalue", debug_setuservalue },
    { "sethook", debug_sethook },
    { "setlocal", debug_setlocal },
    { "setmetatable", debug_setmetatable },
    { "setupvalue", debug_setupvalue },
    { "traceback", debug_traceback },
    { "setcstacklimit", debug_setcstacklimit },
    { NULL, NULL },
};

LUAMOD_API int luaopen_debug(lua_State *L)
{
    luaL_newlib(L, debug_functions);
    return 1;
}
