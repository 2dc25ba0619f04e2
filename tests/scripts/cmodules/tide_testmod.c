/*
 * tide_testmod.c — a C module the package and io script tests load with
 * require and package.loadlib (tests/scripts/package_cmodule.lua).
 *
 * luaopen_tide_testmod and luaopen_tide_testmod_sub (the second found by
 * the all-in-one searcher as "tide_testmod.sub") return tables recording
 * the arguments require gave them. The stream functions make and take
 * luaL_Stream handles, proving that the io library's file handles are the
 * manual's luaL_Stream with the LUA_FILEHANDLE metatable both ways.
 *
 * Built as a shared library by premake5.lua (project "tide_testmod"); it
 * does not link a Lua library: the interpreter that loads it provides the
 * API.
 */
#include <stdio.h>

#include "lauxlib.h"
#include "lua.h"

static int closes_counted = 0;

/* A table naming the module and the two values require passes. */
static int push_module(lua_State *L, const char *name)
{
    lua_createtable(L, 0, 8);
    lua_pushstring(L, name);
    lua_setfield(L, -2, "name");
    lua_pushinteger(L, lua_gettop(L) - 1);
    lua_setfield(L, -2, "nargs");
    lua_pushvalue(L, 1);
    lua_setfield(L, -2, "arg1");
    lua_pushvalue(L, 2);
    lua_setfield(L, -2, "arg2");
    return 1;
}

static int close_counting(lua_State *L)
{
    luaL_Stream *stream = (luaL_Stream *)luaL_checkudata(L, 1, LUA_FILEHANDLE);
    closes_counted++;
    return luaL_fileresult(L, fclose(stream->f) == 0, NULL);
}

/* open_stream(path, mode): a handle made here, closed through
 * close_counting. */
static int open_stream(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    const char *mode = luaL_optstring(L, 2, "r");
    luaL_Stream *stream = (luaL_Stream *)lua_newuserdatauv(L, sizeof(luaL_Stream), 0);
    stream->closef = NULL;
    luaL_setmetatable(L, LUA_FILEHANDLE);
    stream->f = fopen(path, mode);
    if (stream->f == NULL) return luaL_fileresult(L, 0, path);
    stream->closef = close_counting;
    return 1;
}

static int closes(lua_State *L)
{
    lua_pushinteger(L, closes_counted);
    return 1;
}

/* write_through(file, text): writes with the handle's FILE directly. */
static int write_through(lua_State *L)
{
    luaL_Stream *stream = (luaL_Stream *)luaL_checkudata(L, 1, LUA_FILEHANDLE);
    const char *text = luaL_checkstring(L, 2);
    if (stream->closef == NULL) return luaL_error(L, "handle is closed");
    lua_pushboolean(L, fputs(text, stream->f) >= 0);
    return 1;
}

static int is_closed(lua_State *L)
{
    luaL_Stream *stream = (luaL_Stream *)luaL_checkudata(L, 1, LUA_FILEHANDLE);
    lua_pushboolean(L, stream->closef == NULL);
    return 1;
}

/* new_userdata(n): a full userdata with n user values. */
static int new_userdata(lua_State *L)
{
    int n = (int)luaL_checkinteger(L, 1);
    lua_newuserdatauv(L, 1, n);
    return 1;
}

static void do_nothing(lua_State *L, lua_Debug *ar)
{
    (void)L;
    (void)ar;
}

/* set_external_hook(count): a count hook set from C on this thread. */
static int set_external_hook(lua_State *L)
{
    lua_sethook(L, do_nothing, LUA_MASKCOUNT | LUA_MASKCALL, (int)luaL_checkinteger(L, 1));
    return 0;
}

/* A plain C function for package.loadlib. */
int tide_testmod_add(lua_State *L)
{
    lua_pushinteger(L, luaL_checkinteger(L, 1) + luaL_checkinteger(L, 2));
    return 1;
}

int luaopen_tide_testmod(lua_State *L)
{
    static const luaL_Reg functions[] = {
        { "open_stream", open_stream },
        { "closes", closes },
        { "write_through", write_through },
        { "is_closed", is_closed },
        { "new_userdata", new_userdata },
        { "set_external_hook", set_external_hook },
        { NULL, NULL },
    };
    push_module(L, "tide_testmod");
    luaL_setfuncs(L, functions, 0);
    return 1;
}

int luaopen_tide_testmod_sub(lua_State *L)
{
    return push_module(L, "tide_testmod.sub");
}
