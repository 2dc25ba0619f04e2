/*
 * API test (libtide only): what a C function keeps in its locals does not
 * move. A string's address from lua_tostring stays valid, and the same,
 * while nursery collections run, even when no Lua value refers to the
 * string but old tables (the conservative stack scan pins it), and even
 * when so many old tables refer to it that the collector cements it.
 *
 *   pinning.hold(olds, work) -> ok, moved
 *       makes a fresh (young) string, keeps only its char * in a C local,
 *       stores the string into the field "s" of every table of the array
 *       [olds] (old tables: the caller made them before), then calls
 *       work() (which allocates, so nursery collections run) three times;
 *       after each call, checks through every table that the field is the
 *       very same string (same address as the kept pointer) with the same
 *       contents. ok: all checks passed; moved: how many reads saw another
 *       address (must be 0).
 */
#include <string.h>

#include "lauxlib.h"
#include "lua.h"

static int l_hold(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_Integer n = luaL_len(L, 1);
    static int serial;
    char expected[64];
    snprintf(expected, sizeof expected, "pinned string %d made for this test", ++serial);
    lua_pushstring(L, expected);
    const char *kept = lua_tostring(L, -1);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, 1, i);
        lua_pushvalue(L, -2);
        lua_setfield(L, -2, "s");
        lua_pop(L, 1);
    }
    lua_pop(L, 1); /* now only the old tables and [kept] refer to it */
    int ok = 1, moved = 0;
    for (int round = 0; round < 3; round++) {
        lua_pushvalue(L, 2);
        lua_call(L, 0, 0);
        if (strcmp(kept, expected) != 0) ok = 0;
        for (lua_Integer i = 1; i <= n; i++) {
            lua_geti(L, 1, i);
            lua_getfield(L, -1, "s");
            const char *seen = lua_tostring(L, -1);
            if (seen == NULL || strcmp(seen, expected) != 0) ok = 0;
            if (seen != kept) moved++;
            lua_pop(L, 2);
        }
    }
    lua_pushboolean(L, ok);
    lua_pushinteger(L, moved);
    return 2;
}

int luaopen_pinning(lua_State *L)
{
    static const luaL_Reg functions[] = {
        { "hold", l_hold },
        { NULL, NULL },
    };
    luaL_newlib(L, functions);
    return 1;
}
