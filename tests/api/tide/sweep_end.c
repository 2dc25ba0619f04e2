/*
 * API test (libtide only, white-box): the end of a lazy sweep shrinks
 * thread stacks (sweep.c, sweep_end), and shrinking a stack allocates. An
 * allocation past the heap's threshold collects or, in low-latency mode,
 * steps the cycle (alloc.c, maybe_collect_full); inside sweep_end that step
 * ended the sweep again, which shrank the next stack, which stepped again:
 * a recursion as deep as the threads to shrink, and with thousands of
 * coroutines a stack overflow (samples/coroutines under load, 3 crashes in
 * about 20 runs). This module drives a cycle to its sweep by the internal
 * calls, so that the Lua side can end the sweep with the heap far past its
 * threshold. It includes the collector's private header on purpose.
 *
 *   sweep_end.to_sweep()      begin a cycle, mark it to the end, final
 *                             pause: the lazy sweep begins
 *   sweep_end.overdue()       threshold and sweep pacing at their lowest:
 *                             every raw allocation steps the sweep
 *   sweep_end.leave(n) -> left   sweep the major heap's blocks but [n]
 *   sweep_end.step() -> phase gc_cycle_step once, due at once; the phase's
 *                             name after
 */
#include "lauxlib.h"
#include "lua.h"
#include "tide.h"

#include "../../../runtime/gc/gc_internal.h"

static int l_to_sweep(lua_State *L)
{
    GCState *gc = gc_state(L);
    if (gc->phase == TIDE_GC_PHASE_SWEEPING) gc_cycle_finish_sweep(L, 1);
    if (!gc->cycle_marking) gc_cycle_begin(L);
    while (!gc_cycle_mark_done(gc)) gc_cycle_mark_for(L, 1000000000u);
    gc_cycle_finish(L);
    lua_pushstring(L, tide_gc_phase_name(gc->phase));
    return 1;
}

static int l_overdue(lua_State *L)
{
    GCState *gc = gc_state(L);
    gc->threshold = 1;
    gc->sweep_step_at = 0;
    return 0;
}

static int l_leave(lua_State *L)
{
    GCState *gc = gc_state(L);
    size_t keep = (size_t)luaL_checkinteger(L, 1), unswept = major_unswept_count(gc->major);
    if (unswept > keep) major_sweep_some(gc->major, unswept - keep);
    lua_pushinteger(L, (lua_Integer)major_unswept_count(gc->major));
    return 1;
}

static int l_step(lua_State *L)
{
    GCState *gc = gc_state(L);
    gc->sweep_step_at = 0; /* (each step that does not end the sweep sets it) */
    gc_cycle_step(L);
    lua_pushstring(L, tide_gc_phase_name(gc->phase));
    return 1;
}

int luaopen_sweep_end(lua_State *L)
{
    static const luaL_Reg functions[] = {
        { "to_sweep", l_to_sweep },
        { "overdue", l_overdue },
        { "leave", l_leave },
        { "step", l_step },
        { NULL, NULL },
    };
    luaL_newlib(L, functions);
    return 1;
}
