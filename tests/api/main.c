/*
 * tide-api-tests — runs one API test script with the API test modules
 * available to require().
 *
 * An API test is a pair: NAME.c, a C module written against the public
 * headers only (it defines luaopen_NAME), and NAME.lua, a script that
 * requires it and says what it must print in expectation comments
 * ("-- expect: TEXT", as tests/run.lua reads them). The same sources build
 * against stock Lua 5.4, which proves the expectations, and against
 * libtide, which must meet them.
 *
 *   tide-api-tests SCRIPT
 *
 * Prints what the script prints; on an error, prints the message and a
 * traceback to stderr and exits with status 1.
 *
 * Adding a pair: write NAME.c and NAME.lua and add NAME to API_MODULES
 * (tests/api/tide/ and TIDE_API_MODULES for pairs that use tide.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

#define API_MODULES(X) \
    X(userdata_vec)    \
    X(text_buffer)     \
    X(coro_k)          \
    X(auxlib)          \
    X(limits)

/* Pairs that test tide.h, in tests/api/tide/: only the driver built
 * against libtide has them. */
#ifdef TIDE_API_TESTS_LIBTIDE
#define TIDE_API_MODULES(X) \
    X(handles)              \
    X(evacuation)           \
    X(pinning)              \
    X(gc_trace)             \
    X(nursery_budget)       \
    X(gc_pacing)            \
    X(thread_touch)         \
    X(stopped_threads)      \
    X(prefault)             \
    X(sweep_end)            \
    X(sweep_idle)           \
    X(idle_minor)           \
    X(idle_assist)          \
    X(storage)              \
    X(dead_keys)            \
    X(stack_shrink)         \
    X(sweep_live)           \
    X(promotion)            \
    X(pretenure)
#else
#define TIDE_API_MODULES(X)
#endif

#define DECLARE_OPENER(name) int luaopen_##name(lua_State *L);
API_MODULES(DECLARE_OPENER)
TIDE_API_MODULES(DECLARE_OPENER)

static const luaL_Reg modules[] = {
#define MODULE_ENTRY(name) { #name, luaopen_##name },
    API_MODULES(MODULE_ENTRY)
    TIDE_API_MODULES(MODULE_ENTRY)
    { NULL, NULL },
};

/* Puts every module in package.preload, so require() finds it. */
static void preload_modules(lua_State *L)
{
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    for (const luaL_Reg *m = modules; m->name; m++) {
        lua_pushcfunction(L, m->func);
        lua_setfield(L, -2, m->name);
    }
    lua_pop(L, 1);
}

static int message_handler(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    luaL_traceback(L, L, msg, 1);
    return 1;
}

static int run_script(lua_State *L, const char *path)
{
    lua_pushcfunction(L, message_handler);
    int status = luaL_loadfile(L, path);
    if (status == LUA_OK) status = lua_pcall(L, 0, 0, 1);
    if (status != LUA_OK) fprintf(stderr, "%s\n", lua_tostring(L, -1));
    lua_settop(L, 0);
    return status;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s SCRIPT\n", argv[0]);
        return 2;
    }
    lua_State *L = luaL_newstate();
    if (L == NULL) {
        fprintf(stderr, "%s: cannot create a state\n", argv[0]);
        return 1;
    }
    luaL_openlibs(L);
    preload_modules(L);
    int status = run_script(L, argv[1]);
    fflush(stdout);
    lua_close(L);
    return status == LUA_OK ? 0 : 1;
}
