/*
 * tide-libcheck — runs a Lua script on stock Lua 5.4's core with Tide's own
 * standard libraries (the files of runtime/lib) linked in ahead of stock's.
 *
 * The libraries use only the public API (lua.h, lauxlib.h), so they can be
 * proven against the reference core before libtide's core exists, and keep
 * being checked against it afterwards: a difference between this program and
 * `tide` on the same script is a core bug, not a library bug.
 *
 * Definitions in the executable take precedence over liblua5.4.so's, so
 * every luaopen_* and luaL_* that runtime/lib defines is Tide's; whatever it
 * does not (yet) define falls back to stock.
 *
 *   tide-libcheck SCRIPT [ARGS...]
 */
#include <stdio.h>
#include <stdlib.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

static int message_handler(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            return 1;
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

/* Builds `arg` as the stand-alone interpreter does: arg[0] is the script. */
static void create_arg_table(lua_State *L, int argc, char **argv)
{
    lua_createtable(L, argc - 2, 2);
    for (int i = 0; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i - 1);
    }
    lua_setglobal(L, "arg");
}

static int run(lua_State *L, int argc, char **argv)
{
    luaL_openlibs(L);
    create_arg_table(L, argc, argv);
    lua_pushcfunction(L, message_handler);
    if (luaL_loadfile(L, argv[1]) != LUA_OK) {
        fprintf(stderr, "tide-libcheck: %s\n", lua_tostring(L, -1));
        return 1;
    }
    int nargs = argc - 2;
    luaL_checkstack(L, nargs, "too many arguments to script");
    for (int i = 2; i < argc; i++) lua_pushstring(L, argv[i]);
    if (lua_pcall(L, nargs, 0, 1) != LUA_OK) {
        fprintf(stderr, "tide-libcheck: %s\n", lua_tostring(L, -1));
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: tide-libcheck SCRIPT [ARGS...]\n");
        return 2;
    }
    lua_State *L = luaL_newstate();
    if (L == NULL) {
        fprintf(stderr, "tide-libcheck: cannot create a state: not enough memory\n");
        return 1;
    }
    int status = run(L, argc, argv);
    lua_close(L);
    return status;
}
