/*
 * API test (libtide only): the pacer (tide_gc_pacing) — when a concurrent
 * major cycle begins, from the measured growth and mark rates.
 *
 *   gc_pacing.pacing() -> a table of tide_GcPacing's fields, and phase
 *       (tide_gc_frame_stats' phase name now)
 *   gc_pacing.frame(fn, idle_us, frame_us) -> calls fn() inside one
 *       frame, gives the collector idle_us microseconds of idle time
 *       (tide_gc_idle), then sleeps until frame_us microseconds have
 *       passed since the frame began (a game waiting for the display);
 *       returns the frame's promoted bytes, the frame's wall time and
 *       the time fn() took, in nanoseconds
 */
#include <time.h>

#include "lauxlib.h"
#include "lua.h"
#include "tide.h"

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void set_number(lua_State *L, const char *key, lua_Number value)
{
    lua_pushnumber(L, value);
    lua_setfield(L, -2, key);
}

static int l_pacing(lua_State *L)
{
    tide_GcPacing p;
    if (!tide_gc_pacing(L, &p)) return luaL_error(L, "tide_gc_pacing refused");
    tide_FrameStats stats;
    tide_gc_frame_stats(L, &stats);
    lua_createtable(L, 0, 10);
    set_number(L, "old", (lua_Number)p.old_bytes);
    set_number(L, "live", (lua_Number)p.live_bytes);
    set_number(L, "target", (lua_Number)p.target_bytes);
    set_number(L, "trigger", (lua_Number)p.trigger_bytes);
    set_number(L, "hard_limit", (lua_Number)p.hard_limit_bytes);
    set_number(L, "grow_rate", p.grow_bytes_per_s);
    set_number(L, "mark_rate", p.mark_bytes_per_s);
    set_number(L, "frame_ns", (lua_Number)p.frame_ns);
    lua_pushboolean(L, p.measured);
    lua_setfield(L, -2, "measured");
    lua_pushstring(L, tide_gc_phase_name(stats.phase));
    lua_setfield(L, -2, "phase");
    return 1;
}

static int l_frame(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_Integer idle_us = luaL_optinteger(L, 2, 0);
    lua_Integer frame_us = luaL_optinteger(L, 3, 0);
    uint64_t start = now_ns();
    tide_frame_begin(L);
    lua_pushvalue(L, 1);
    uint64_t call_start = now_ns();
    lua_call(L, 0, 0);
    uint64_t call_ns = now_ns() - call_start;
    tide_frame_end(L);
    if (idle_us > 0) tide_gc_idle(L, (uint64_t)idle_us * 1000);
    tide_FrameStats stats;
    if (!tide_gc_frame_stats(L, &stats)) return luaL_error(L, "no frame statistics after a frame");
    uint64_t end = start + (uint64_t)(frame_us > 0 ? frame_us : 0) * 1000;
    for (uint64_t now = now_ns(); now < end; now = now_ns()) {
        struct timespec ts = { (time_t)((end - now) / 1000000000u), (long)((end - now) % 1000000000u) };
        nanosleep(&ts, NULL);
    }
    lua_pushinteger(L, (lua_Integer)stats.promoted_bytes);
    lua_pushinteger(L, (lua_Integer)(now_ns() - start));
    lua_pushinteger(L, (lua_Integer)call_ns);
    return 3;
}

int luaopen_gc_pacing(lua_State *L)
{
    static const luaL_Reg functions[] = {
        { "pacing", l_pacing },
        { "frame", l_frame },
        { NULL, NULL },
    };
    luaL_newlib(L, functions);
    return 1;
}
