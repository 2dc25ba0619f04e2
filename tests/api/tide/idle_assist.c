/*
 * API test (libtide only, white-box): while the worker marks and the heap
 * is short of its threshold, the frame's safe points leave what the
 * worker hands back (thread stacks) to idle time (cycle.c,
 * gc_cycle_step); past the threshold they take their share again. The
 * module begins a cycle, counts the mark-step pauses by whether they fell
 * inside a frame, and can move the threshold below the heap (the
 * collector's private header on purpose: neither is part of tide.h).
 * (Frames are nursery_budget's: measure(fn).)
 *
 *   idle_assist.begin_cycle() -> boolean  a cycle begun (its sweep
 *                                         finished first); true if the
 *                                         worker marks it
 *   idle_assist.marking() -> boolean      the cycle is still marking
 *   idle_assist.steps() -> in_frame, in_idle   mark-step pauses so far
 *   idle_assist.idle(us)                  tide_gc_idle
 *   idle_assist.behind()                  the threshold set below the heap
 *   idle_assist.low_latency(on)           tide_gc_allow_synchronous_major(L, !on)
 *   idle_assist.finish()                  the cycle ended and swept
 *   idle_assist.traversed() -> worker, idle   objects the last finished
 *                                         cycle traversed on the worker and
 *                                         on the game's thread in idle time
 *                                         (gc_worker_help)
 *   idle_assist.verify_marks(on)          TIDE_GC_DEBUG=verify-marks
 */
#include "lauxlib.h"
#include "lua.h"
#include "tide.h"

#include "../../../runtime/gc/gc_internal.h"

typedef struct Steps {
    lua_Integer in_frame, in_idle;
} Steps;

static void count_steps(void *ud, const tide_GcEvent *e)
{
    Steps *s = ud;
    if (e->kind != TIDE_GC_EVENT_PAUSE || e->pause_kind != TIDE_GC_PAUSE_MARK_STEP) return;
    if (e->in_idle)
        s->in_idle++;
    else
        s->in_frame++;
}

static Steps *steps_of(lua_State *L)
{
    return lua_touserdata(L, lua_upvalueindex(1));
}

static int l_begin_cycle(lua_State *L)
{
    GCState *gc = gc_state(L);
    tide_gc_set_event_callback(L, count_steps, steps_of(L));
    if (gc->phase == TIDE_GC_PHASE_SWEEPING) gc_cycle_finish_sweep(L, 1);
    if (!gc->cycle_marking) gc_cycle_begin(L);
    lua_pushboolean(L, gc->cycle_marking && gc->worker_marking);
    return 1;
}

static int l_marking(lua_State *L)
{
    lua_pushboolean(L, gc_state(L)->cycle_marking);
    return 1;
}

static int l_steps(lua_State *L)
{
    Steps *s = steps_of(L);
    lua_pushinteger(L, s->in_frame);
    lua_pushinteger(L, s->in_idle);
    return 2;
}

static int l_idle(lua_State *L)
{
    lua_Integer us = luaL_checkinteger(L, 1);
    luaL_argcheck(L, us >= 0, 1, "a budget is not negative");
    tide_gc_idle(L, (uint64_t)us * 1000);
    return 0;
}

static int l_behind(lua_State *L)
{
    gc_state(L)->threshold = 1;
    return 0;
}

static int l_low_latency(lua_State *L)
{
    tide_gc_allow_synchronous_major(L, !lua_toboolean(L, 1));
    return 0;
}

static int l_finish(lua_State *L)
{
    GCState *gc = gc_state(L);
    while (gc->cycle_marking && !gc_cycle_mark_done(gc)) gc_cycle_mark_for(L, 1000000000u);
    gc_cycle_finish(L);
    if (gc->phase == TIDE_GC_PHASE_SWEEPING) gc_cycle_finish_sweep(L, 1);
    tide_gc_set_event_callback(L, NULL, NULL);
    return 0;
}

static int l_traversed(lua_State *L)
{
    GCState *gc = gc_state(L);
    lua_pushinteger(L, (lua_Integer)gc->worker_traversed);
    lua_pushinteger(L, (lua_Integer)gc->helper_traversed);
    return 2;
}

static int l_verify_marks(lua_State *L)
{
    gc_state(L)->verify_marks = (uint8_t)lua_toboolean(L, 1);
    return 0;
}

int luaopen_idle_assist(lua_State *L)
{
    static const luaL_Reg functions[] = {
        { "begin_cycle", l_begin_cycle }, { "marking", l_marking }, { "steps", l_steps },
        { "idle", l_idle },               { "behind", l_behind },   { "low_latency", l_low_latency },
        { "finish", l_finish },           { "traversed", l_traversed }, { "verify_marks", l_verify_marks },
        { NULL, NULL },
    };
    luaL_newlibtable(L, functions);
    Steps *s = lua_newuserdatauv(L, sizeof(Steps), 0);
    s->in_frame = s->in_idle = 0;
    luaL_setfuncs(L, functions, 1);
    return 1;
}
