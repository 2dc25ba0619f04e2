/*
 * lualib.h — the standard libraries of Lua 5.4.
 *
 * Each luaopen_* function builds one library and returns 1, leaving the
 * library (a table; for the base library, the global table) on the stack.
 * Do not call them directly: load them with luaL_requiref, which also
 * records them in package.loaded, or load all of them with luaL_openlibs:
 *
 *     luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
 *     lua_pop(L, 1);
 *
 * Each may raise a memory error and runs no script code.
 */
#ifndef LUALIB_H
#define LUALIB_H

#include "lua.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The suffix of the versioned environment variables: LUA_PATH_5_4,
 * LUA_CPATH_5_4, LUA_INIT_5_4. */
#define LUA_VERSUFFIX "_" LUA_VERSION_MAJOR "_" LUA_VERSION_MINOR

/* The basic functions (print, pairs, pcall, ...), set in the global
 * table, which it returns. */
LUAMOD_API int (luaopen_base)(lua_State *L);

/* The names under which the other libraries are loaded, and their
 * openers. */
#define LUA_COLIBNAME "coroutine"
LUAMOD_API int (luaopen_coroutine)(lua_State *L);

#define LUA_TABLIBNAME "table"
LUAMOD_API int (luaopen_table)(lua_State *L);

#define LUA_IOLIBNAME "io"
LUAMOD_API int (luaopen_io)(lua_State *L);

#define LUA_OSLIBNAME "os"
LUAMOD_API int (luaopen_os)(lua_State *L);

#define LUA_STRLIBNAME "string"
LUAMOD_API int (luaopen_string)(lua_State *L);

#define LUA_UTF8LIBNAME "utf8"
LUAMOD_API int (luaopen_utf8)(lua_State *L);

#define LUA_MATHLIBNAME "math"
LUAMOD_API int (luaopen_math)(lua_State *L);

#define LUA_DBLIBNAME "debug"
LUAMOD_API int (luaopen_debug)(lua_State *L);

#define LUA_LOADLIBNAME "package"
LUAMOD_API int (luaopen_package)(lua_State *L);

/*
 * Loads every standard library into [L] as luaL_requiref(L, name, open, 1)
 * does, base first ("_G"), and leaves the stack as it was. [-0, +0, e]
 */
LUALIB_API void (luaL_openlibs)(lua_State *L);

#ifdef __cplusplus
}
#endif

#endif
