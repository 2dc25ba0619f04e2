/*
 * API test (libtide only): a major cycle's snapshot holds what a suspended
 * coroutine's stack held when the cycle began, even when the coroutine runs
 * and moves it off its stack before the marker gets there (thread_touch
 * scans a stack once per cycle before it next changes, gc/cycle.c).
 *
 *   thread_touch.begin() -> phase name
 *       low-latency mode on, then lua_gc(LUA_GCCOLLECT), which in that
 *       mode begins a major cycle: only its initial pause runs
 *   thread_touch.finish() -> phase name
 *       tide_gc_idle until the cycle and its sweep are over (not a full
 *       collection, which would mark again from the roots), then
 *       synchronous majors allowed again
 *   thread_touch.hold(v) -> thread
 *       a new thread (no coroutine: no body) with v alone on its stack
 *   thread_touch.take(thread) -> v
 *       lua_xmove of the thread's top value onto the caller's stack: the
 *       thread only loses it, with no other API call on it
 */
#include "lauxlib.h"
#include "lua.h"
#include "tide.h"

static int phase(lua_State *L)
{
    tide_FrameStats stats;
    if (!tide_gc_frame_stats(L, &stats)) {
        tide_frame_begin(L); /* statistics need a frame */
        tide_gc_frame_stats(L, &stats);
    }
    return stats.phase;
}

static int l_begin(lua_State *L)
{
    tide_gc_allow_synchronous_major(L, 0);
    lua_gc(L, LUA_GCCOLLECT);
    lua_pushstring(L, tide_gc_phase_name(phase(L)));
    return 1;
}

static int l_finish(lua_State *L)
{
    /* a second of idle time a call: the final pause is run there only if
     * the last pause fits the rest (slow under the sanitizers and the
     * verifier) */
    for (int i = 0; i < 1000 && phase(L) != TIDE_GC_PHASE_IDLE; i++) tide_gc_idle(L, 1000000000);
    lua_pushstring(L, tide_gc_phase_name(phase(L)));
    tide_gc_allow_synchronous_major(L, 1);
    return 1;
}

static int l_hold(lua_State *L)
{
    luaL_checkany(L, 1);
    lua_State *th = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, th, 1);
    return 1;
}

static int l_take(lua_State *L)
{
    lua_State *th = lua_tothread(L, 1);
    luaL_argexpected(L, th != NULL, 1, "thread");
    lua_xmove(th, L, 1);
    return 1;
}

int luaopen_thread_touch(lua_State *L)
{
    static const luaL_Reg functions[] = {
        { "begin", l_begin },
        { "finish", l_finish },
        { "hold", l_hold },
        { "take", l_take },
        { NULL, NULL },
    };
    luaL_newlib(L, functions);
    return 1;
}
