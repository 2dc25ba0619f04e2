/*
 * API test (libtide only, white-box): a nursery collection in idle time
 * (frames.c, idle_minor). tide_gc_idle collects the nursery when it holds
 * at least half its budget, or less but too much for another frame like
 * the last one (which would fit in an empty nursery), and the collection,
 * at the cost per byte measured lately, fits in the idle budget; the next
 * frame then begins with an empty nursery. The Lua side reads the nursery's fill and
 * budget, which are not part of tide.h: this module includes the
 * collector's private header on purpose. (Frames are nursery_budget's:
 * measure(fn).)
 *
 *   idle_minor.idle(us) -> n    tide_gc_idle with a budget of [us]; the
 *                               nursery collections it made
 *   idle_minor.used() -> bytes  allocated in the nursery since its last
 *                               collection
 *   idle_minor.allocated() -> bytes    allocated in the nursery in all
 *                               (across collections)
 *   idle_minor.budget() -> bytes
 *   idle_minor.last_frame() -> bytes   the last finished frame allocated
 *                               in the nursery
 *   idle_minor.minors() -> n    nursery collections so far
 *   idle_minor.reserve() -> room, frame, all   the major heap's room
 *                               written ahead for promotion, what the last
 *                               finished frame promoted, and what every
 *                               collection so far did (bytes)
 */
#include "lauxlib.h"
#include "lua.h"
#include "tide.h"

#include "../../../runtime/gc/gc_internal.h"

static int l_idle(lua_State *L)
{
    lua_Integer us = luaL_checkinteger(L, 1);
    luaL_argcheck(L, us >= 0, 1, "a budget is not negative");
    GCState *gc = gc_state(L);
    uint64_t before = gc->minors;
    tide_gc_idle(L, (uint64_t)us * 1000);
    lua_pushinteger(L, (lua_Integer)(gc->minors - before));
    return 1;
}

static int l_used(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)gc_nursery_used(gc_state(L)));
    return 1;
}

static int l_allocated(lua_State *L)
{
    GCState *gc = gc_state(L);
    lua_pushinteger(L, (lua_Integer)(gc->nursery_allocated + gc_nursery_used(gc)));
    return 1;
}

static int l_budget(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)gc_state(L)->nursery.budget);
    return 1;
}

/* The major heap's free blocks written ahead (the promotion reserve), in
 * bytes of room, and what the last finished frame promoted. */
static int l_reserve(lua_State *L)
{
    GCState *gc = gc_state(L);
    lua_pushinteger(L, (lua_Integer)(major_warm_free_blocks(gc->major) * MAJOR_PAYLOAD));
    lua_pushinteger(L, (lua_Integer)gc->stats.promoted_bytes);
    lua_pushinteger(L, (lua_Integer)gc->promoted);
    return 3;
}

static int l_minors(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)gc_state(L)->minors);
    return 1;
}

static int l_last_frame(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)gc_state(L)->frame_nursery_bytes);
    return 1;
}

int luaopen_idle_minor(lua_State *L)
{
    static const luaL_Reg functions[] = {
        { "idle", l_idle }, { "used", l_used }, { "allocated", l_allocated }, { "budget", l_budget }, { "last_frame", l_last_frame }, { "minors", l_minors }, { "reserve", l_reserve },
        { NULL, NULL },
    };
    luaL_newlib(L, functions);
    return 1;
}
