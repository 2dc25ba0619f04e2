/*
 * lib_init.c — luaL_openlibs: opens every standard library into a state,
 * in the standard order, each through luaL_requiref so that it lands in
 * package.loaded and in a global of its name (the base library's is _G).
 */
#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

static const luaL_Reg standard_libraries[] = {
    { LUA_GNAME, luaopen_base },
    { LUA_LOADLIBNAME, luaopen_package },
    { LUA_COLIBNAME, luaopen_coroutine },
    { LUA_TABLIBNAME, luaopen_table },
    { LUA_IOLIBNAME, luaopen_io },
    { LUA_OSLIBNAME, luaopen_os },
    { LUA_STRLIBNAME, luaopen_string },
    { LUA_MATHLIBNAME, luaopen_math },
    { LUA_UTF8LIBNAME, luaopen_utf8 },
    { LUA_DBLIBNAME, luaopen_debug },
    { NULL, NULL },
};

LUALIB_API void luaL_openlibs(lua_State *L)
{
    for (const luaL_Reg *lib = standard_libraries; lib->func != NULL; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }
}
