/*
 * API test (libtide only, white-box): inside a frame of a game that gives
 * the collector idle time, the lazy sweep's steps and the giving back of
 * retired large blocks wait for idle time as long as they are not behind
 * (cycle.c, sweep_step; sweep.c, gc_checkpoint_step; gc_idle_follows).
 * This module drives a cycle to its sweep by the internal calls and counts
 * the sweep-step pauses inside frames; it includes the collector's private
 * header on purpose. (Frames are nursery_budget's: measure(fn).)
 *
 *   sweep_idle.to_sweep() -> blocks   end any cycle, collect the nursery,
 *                             run a cycle to its final pause (the lazy
 *                             sweep begins) and start counting; the
 *                             blocks left to sweep
 *   sweep_idle.unswept() -> blocks, phase   left to sweep, and the phase
 *   sweep_idle.steps() -> n   sweep-step pauses inside frames since
 *                             to_sweep (or count_steps)
 *   sweep_idle.count_steps()  start counting without a cycle
 *   sweep_idle.idle(ns)       tide_gc_idle with a budget of [ns]: 1 gives
 *                             idle time too short for any work
 *   sweep_idle.retired() -> bytes   retired large blocks not given back
 *   sweep_idle.released() -> chunks, worker   chunks of pages the worker
 *                             thread has given back so far, and whether
 *                             there is a worker
 *   sweep_idle.finish()       end the sweep, stop counting
 */
#include "lauxlib.h"
#include "lua.h"
#include "tide.h"

#include "../../../runtime/gc/gc_internal.h"

static void count_step(void *ud, const tide_GcEvent *e)
{
    lua_Integer *steps = ud;
    if (e->kind == TIDE_GC_EVENT_PAUSE && e->pause_kind == TIDE_GC_PAUSE_SWEEP_STEP && !e->in_idle) ++*steps;
}

static lua_Integer *steps_of(lua_State *L)
{
    return lua_touserdata(L, lua_upvalueindex(1));
}

static void end_sweep(lua_State *L)
{
    GCState *gc = gc_state(L);
    while (gc->cycle_marking && !gc_cycle_mark_done(gc)) gc_cycle_mark_for(L, 1000000000u);
    if (gc->cycle_marking) gc_cycle_finish(L);
    if (gc->phase == TIDE_GC_PHASE_SWEEPING) gc_cycle_finish_sweep(L, 1);
}

static int l_count_steps(lua_State *L)
{
    *steps_of(L) = 0;
    tide_gc_set_event_callback(L, count_step, steps_of(L));
    return 0;
}

static int l_to_sweep(lua_State *L)
{
    GCState *gc = gc_state(L);
    end_sweep(L);
    /* a nursery collection first: the initial pause keeps what young
     * objects reference, dead ones too (the program's dropped tables) */
    gc_scrub_stack();
    gc_minor(L, GC_REASON_ALLOCATION, 0);
    gc_cycle_begin(L);
    while (!gc_cycle_mark_done(gc)) gc_cycle_mark_for(L, 1000000000u);
    gc_cycle_finish(L);
    l_count_steps(L);
    lua_pushinteger(L, (lua_Integer)major_unswept_count(gc->major));
    return 1;
}

static int l_unswept(lua_State *L)
{
    GCState *gc = gc_state(L);
    lua_pushinteger(L, (lua_Integer)major_unswept_count(gc->major));
    lua_pushstring(L, tide_gc_phase_name(gc->phase));
    return 2;
}

static int l_steps(lua_State *L)
{
    lua_pushinteger(L, *steps_of(L));
    return 1;
}

static int l_idle(lua_State *L)
{
    lua_Integer ns = luaL_checkinteger(L, 1);
    luaL_argcheck(L, ns >= 0, 1, "a budget is not negative");
    tide_gc_idle(L, (uint64_t)ns);
    return 0;
}

static int l_retired(lua_State *L)
{
    GCState *gc = gc_state(L);
    lua_pushinteger(L, gc->los != NULL ? (lua_Integer)los_retired_bytes(gc->los) : 0);
    return 1;
}

static int l_released(lua_State *L)
{
    GCState *gc = gc_state(L);
    lua_pushinteger(L, (lua_Integer)gc_worker_released_chunks(gc));
    lua_pushboolean(L, gc->worker != NULL);
    return 2;
}

static int l_finish(lua_State *L)
{
    end_sweep(L);
    tide_gc_set_event_callback(L, NULL, NULL);
    return 0;
}

int luaopen_sweep_idle(lua_State *L)
{
    static const luaL_Reg functions[] = {
        { "to_sweep", l_to_sweep },
        { "unswept", l_unswept },
        { "steps", l_steps },
        { "count_steps", l_count_steps },
        { "idle", l_idle },
        { "retired", l_retired },
        { "released", l_released },
        { "finish", l_finish },
        { NULL, NULL },
    };
    luaL_newlibtable(L, functions);
    lua_Integer *steps = lua_newuserdatauv(L, sizeof *steps, 0);
    *steps = 0;
    luaL_setfuncs(L, functions, 1);
    return 1;
}
