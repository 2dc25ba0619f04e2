/*
 * API test (libtide only, white-box): what a resume leaves behind for the
 * nursery collections (gc_thread_stopped, gc/minor.c). A coroutine whose
 * stack holds nothing young when its resume returns is clean at once and
 * off the collector's dirty list, so that a collection does not visit it;
 * one that holds anything young stays listed. This module reads the two
 * internal facts the Lua side checks; it includes the collector's private
 * header on purpose, since neither is part of tide.h.
 *
 *   stopped_threads.clean(co) -> boolean   co's stack is marked clean
 *   stopped_threads.listed() -> integer    threads on the dirty list
 *                                          (-1: the list was lost and
 *                                          every thread is visited)
 *   stopped_threads.shape(co) -> above, floor
 *       how many slots above co's live ones (its top, or its Lua frame's
 *       top) the next collection would clear (state.h, stack_hwm), and
 *       the slot its scan would begin at (young_floor)
 */
#include "lauxlib.h"
#include "lua.h"

#include "../../../runtime/gc/gc_internal.h"

static int l_clean(lua_State *L)
{
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co != NULL, 1, "thread");
    lua_pushboolean(L, co->stack_clean);
    return 1;
}

static int l_listed(lua_State *L)
{
    GCState *gc = gc_state(L);
    lua_pushinteger(L, gc->dirty_threads_lost ? -1 : (lua_Integer)gc->dirty_threads.n);
    return 1;
}

static int l_shape(lua_State *L)
{
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co != NULL, 1, "thread");
    StkId bound = co->top;
    if (isLua(co->ci) && co->ci->top > bound) bound = co->ci->top;
    lua_Integer live = (lua_Integer)(bound - co->stack);
    lua_pushinteger(L, (lua_Integer)co->stack_hwm > live ? (lua_Integer)co->stack_hwm - live : 0);
    lua_pushinteger(L, (lua_Integer)co->young_floor);
    return 2;
}

int luaopen_stopped_threads(lua_State *L)
{
    static const luaL_Reg functions[] = {
        { "clean", l_clean },
        { "listed", l_listed },
        { "shape", l_shape },
        { NULL, NULL },
    };
    luaL_newlib(L, functions);
    return 1;
}
