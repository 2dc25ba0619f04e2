/*
 * API test (libtide only): tide.h's trace files (tide_gc_trace_open,
 * tide_gc_trace_close).
 *
 *   gc_trace.open(path) -> 0, or the errno value tide_gc_trace_open returned
 *   gc_trace.close()
 *   gc_trace.einval() -> what tide_gc_trace_open(L, NULL) returns
 */
#include "lauxlib.h"
#include "lua.h"
#include "tide.h"

static int l_open(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    lua_pushinteger(L, tide_gc_trace_open(L, path));
    return 1;
}

static int l_close(lua_State *L)
{
    tide_gc_trace_close(L);
    return 0;
}

static int l_einval(lua_State *L)
{
    lua_pushinteger(L, tide_gc_trace_open(L, NULL));
    return 1;
}

int luaopen_gc_trace(lua_State *L)
{
    static const luaL_Reg functions[] = {
        { "open", l_open },
        { "close", l_close },
        { "einval", l_einval },
        { NULL, NULL },
    };
    luaL_newlib(L, functions);
    return 1;
}
