/*
 * limits.c — API test module: what happens at the edges. Paired with
 * limits.lua.
 *
 * Exercises: lua_newstate with an allocator that refuses memory past a
 * limit (running out of memory raises "not enough memory" through
 * lua_pcall and leaves the state usable), deep recursion through C
 * functions (lua_call from C back into Lua until the C stack limit), and
 * lua_load of malformed binary chunks.
 *
 * Written against lua.h, lauxlib.h and lualib.h only.
 */
#include <stdlib.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

/*-------------------------------------------------------------------------
 * A state whose allocator fails past a limit.
 */
typedef struct Budget {
    size_t in_use;
    size_t limit;
} Budget;

static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    Budget *b = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        b->in_use -= old;
        return NULL;
    }
    if (nsize > old && b->in_use - old + nsize > b->limit) return NULL;
    void *block = realloc(ptr, nsize);
    if (block == NULL) return nsize <= old ? ptr : NULL;
    b->in_use = b->in_use - old + nsize;
    return block;
}

/* Runs [source] in the limited state; pushes (ok, message or result). */
static void run_chunk(lua_State *from, lua_State *L, const char *source)
{
    int status = luaL_loadstring(L, source);
    if (status == LUA_OK) status = lua_pcall(L, 0, 1, 0);
    lua_pushboolean(from, status == LUA_OK);
    lua_pushstring(from, lua_tostring(L, -1) ? lua_tostring(L, -1) : luaL_typename(L, -1));
    lua_pop(L, 1);
}

/* limits.out_of_memory(limit, chunk, after) -> ok1, msg1, ok2, msg2:
 * runs [chunk] in a fresh state limited to [limit] bytes, then [after] in
 * the same state. */
static int l_out_of_memory(lua_State *L)
{
    Budget *budget = lua_newuserdatauv(L, sizeof(Budget), 0);
    budget->in_use = 0;
    budget->limit = (size_t)luaL_checkinteger(L, 1);
    const char *chunk = luaL_checkstring(L, 2);
    const char *after = luaL_checkstring(L, 3);
    lua_State *limited = lua_newstate(limited_alloc, budget);
    if (limited == NULL) return luaL_error(L, "cannot create the limited state");
    luaL_openlibs(limited);
    run_chunk(L, limited, chunk);
    lua_gc(limited, LUA_GCCOLLECT);
    run_chunk(L, limited, after);
    lua_close(limited);
    if (budget->in_use != 0) return luaL_error(L, "%d bytes not freed by lua_close", (int)budget->in_use);
    return 4;
}

/*-------------------------------------------------------------------------
 * limits.through_c(f, ...) calls f(...) from C: a Lua function that calls
 * back through it recurses on the C stack as well as the Lua stack.
 */
static int l_through_c(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/*-------------------------------------------------------------------------
 * limits.load_bytes(s) -> status name, message: lua_load of exactly the
 * bytes of [s] (binary allowed).
 */
static int l_load_bytes(lua_State *L)
{
    size_t len;
    const char *bytes = luaL_checklstring(L, 1, &len);
    int status = luaL_loadbufferx(L, bytes, len, "=bytes", "bt");
    static const char *const names[] = { "ok", "yield", "runtime", "syntax", "memory", "error" };
    lua_pushstring(L, status >= 0 && status <= 5 ? names[status] : "?");
    if (status == LUA_OK) lua_pushliteral(L, "loaded");
    else lua_pushvalue(L, -2);
    return 2;
}

int luaopen_limits(lua_State *L)
{
    static const luaL_Reg functions[] = {
        { "out_of_memory", l_out_of_memory },
        { "through_c", l_through_c },
        { "load_bytes", l_load_bytes },
        { NULL, NULL },
    };
    luaL_newlib(L, functions);
    return 1;
}
