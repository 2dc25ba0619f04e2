/*
 * API test (libtide only, white-box): what sweep_live.lua needs that
 * tide.h does not say.
 *
 *   sweep_live.no_worker()   marks on the program's thread from now on, in
 *       steps paced by allocation, as TIDE_GC_DEBUG=no-worker does: the
 *       cycles' pacing then does not depend on how much processor time a
 *       second thread gets (the test runner runs two tests at a time on
 *       two cores). Only before the first cycle.
 *   sweep_live.cycles() -> the cycles whose mark has ended so far
 */
#include "lauxlib.h"
#include "lua.h"
#include "tide.h"

#include "../../../runtime/gc/gc_internal.h"

static int l_no_worker(lua_State *L)
{
    GCState *gc = gc_state(L);
    if (gc->worker != NULL || gc->cycle_marking) return luaL_error(L, "no_worker: a cycle has run already");
    gc->worker_off = 1;
    return 0;
}

static int l_cycles(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)gc_state(L)->cycles);
    return 1;
}

int luaopen_sweep_live(lua_State *L)
{
    static const luaL_Reg functions[] = {
        { "no_worker", l_no_worker },
        { "cycles", l_cycles },
        { NULL, NULL },
    };
    luaL_newlib(L, functions);
    return 1;
}
