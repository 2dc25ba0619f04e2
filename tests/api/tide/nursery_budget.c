/*
 * API test (libtide only): the nursery collection's pause target
 * (tide_gc_set_minor_pause_target) and the budget it sets.
 *
 *   nursery_budget.set_target(us) -> the previous target, in microseconds
 *   nursery_budget.DEFAULT_TARGET    TIDE_GC_MINOR_PAUSE_TARGET_DEFAULT_NS, in
 *                                    microseconds
 *   nursery_budget.measure(fn) -> minors, promoted, allocated
 *       calls fn() inside one frame (tide_frame_begin/tide_frame_end) and
 *       returns that frame's nursery collections, bytes promoted and bytes
 *       allocated (tide_gc_frame_stats)
 */
#include "lauxlib.h"
#include "lua.h"
#include "tide.h"

static int l_set_target(lua_State *L)
{
    lua_Integer us = luaL_checkinteger(L, 1);
    luaL_argcheck(L, us >= 0, 1, "a target is not negative");
    uint64_t previous = tide_gc_set_minor_pause_target(L, (uint64_t)us * 1000);
    lua_pushinteger(L, (lua_Integer)(previous / 1000));
    return 1;
}

static int l_measure(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    tide_frame_begin(L);
    lua_pushvalue(L, 1);
    lua_call(L, 0, 0);
    tide_frame_end(L);
    tide_FrameStats stats;
    if (!tide_gc_frame_stats(L, &stats)) return luaL_error(L, "no frame statistics after a frame");
    lua_pushinteger(L, (lua_Integer)stats.minor_pauses);
    lua_pushinteger(L, (lua_Integer)stats.promoted_bytes);
    lua_pushinteger(L, (lua_Integer)stats.allocated_bytes);
    return 3;
}

int luaopen_nursery_budget(lua_State *L)
{
    static const luaL_Reg functions[] = {
        { "set_target", l_set_target },
        { "measure", l_measure },
        { NULL, NULL },
    };
    luaL_newlib(L, functions);
    lua_pushinteger(L, (lua_Integer)(TIDE_GC_MINOR_PAUSE_TARGET_DEFAULT_NS / 1000));
    lua_setfield(L, -2, "DEFAULT_TARGET");
    return 1;
}
