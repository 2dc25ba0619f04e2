/*
 * API test (libtide only, white-box): a stack left far larger than its
 * live slots (a call of many values that returned) is shrunk before the
 * next nursery collection, which would otherwise clear it above the live
 * slots in its pause (gc/alloc.c, wait_for_stack). The Lua side needs
 * what tide.h does not say — the stack's size, the nursery's budget — so
 * this module includes the collector's private header on purpose.
 *
 *   stack_shrink.probe() -> slots, minors, left
 *       the running stack's size in slots, the nursery collections so far,
 *       and the bytes the nursery's budget has left before the next
 *       collection (negative: past it, waiting)
 *   stack_shrink.skip_checkpoints()   puts the next checkpoint past the
 *       budget's end (a budget that ends between two checkpoints, which
 *       come every 64 KB: what the test needs, whatever the budget)
 */
#include "lauxlib.h"
#include "lua.h"
#include "tide.h"

#include "../../../runtime/gc/gc_internal.h"

static int l_probe(lua_State *L)
{
    GCState *gc = gc_state(L);
    lua_pushinteger(L, stacksize(L));
    lua_pushinteger(L, (lua_Integer)gc->minors);
    lua_pushinteger(L, (lua_Integer)gc->nursery.budget - (lua_Integer)gc_nursery_used(gc));
    return 3;
}

static int l_skip_checkpoints(lua_State *L)
{
    GCState *gc = gc_state(L);
    gc->nursery.checkpoint = gc->nursery.budget + ((size_t)1 << 20);
    return 0;
}

int luaopen_stack_shrink(lua_State *L)
{
    static const luaL_Reg functions[] = {
        { "probe", l_probe },
        { "skip_checkpoints", l_skip_checkpoints },
        { NULL, NULL },
    };
    luaL_newlib(L, functions);
    return 1;
}
