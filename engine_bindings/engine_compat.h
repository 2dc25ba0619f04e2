/*
 * engine_compat.h — the few Lua 5.4 API calls the bindings and the host use,
 * made available on LuaJIT 2.1 (Lua 5.1 API) too.
 *
 * Include it after nothing else Lua-related: it includes lua.h and lauxlib.h
 * itself. On Lua 5.4 and libtide (LUA_VERSION_NUM >= 503) it adds only the
 * engine_* helpers below; on Lua 5.1/LuaJIT it also defines:
 *
 *   lua_isinteger(L, i)   true for a number whose value is integral and fits
 *                         64 bits (5.1 has no integer subtype, so 3.0 counts)
 *   lua_rawlen(L, i)      lua_objlen
 *   lua_absindex(L, i)    as in 5.2+; pseudo-indices are returned unchanged
 *   luaL_requiref(...)    as in 5.2+, using registry._LOADED
 *
 * Portable helpers, the same on every backend:
 *
 *   engine_pushint(L, v)      an int64_t as lua_Integer on 5.4, as lua_Number
 *                             on LuaJIT (exact up to 2^53)
 *   engine_toint(L, i, &ok)   the inverse: an integral number (or numeric
 *                             string) as int64_t; *ok = 0 and 0 otherwise,
 *                             e.g. for 3.5 on every backend
 *   engine_gc_collect(L)      full collection
 *   engine_gc_step(L, kb)     one step; 1 if it finished a cycle. 5.4's lua_gc
 *                             is variadic and 5.1's takes one int: these
 *                             helpers always pass exactly one
 *   engine_gc_count_kb(L)     memory in use in KiB, byte remainder included
 *   engine_gc_stop(L), engine_gc_restart(L)
 *   ENGINE_GC_HAS_MODES       1 where LUA_GCGEN/LUA_GCINC exist (5.4), else 0
 *   engine_gc_set_generational(L, on)
 *                             switches 5.4's collector mode; returns 1 if the
 *                             backend has the requested mode (LuaJIT has only
 *                             the incremental one), 0 if not
 */
#ifndef ENGINE_COMPAT_H
#define ENGINE_COMPAT_H

#include <stdint.h>

#include "lua.h"
#include "lauxlib.h"

#if LUA_VERSION_NUM < 503
/* ---- Lua 5.1 API (LuaJIT 2.1) ---- */
#include <math.h>

#define lua_rawlen(L, i) lua_objlen((L), (i))

static inline int lua_absindex(lua_State *L, int idx)
{
    return (idx > 0 || idx <= LUA_REGISTRYINDEX) ? idx : lua_gettop(L) + idx + 1;
}

/* Integral doubles within [-2^63, 2^63) are the integers of a 5.1 state. */
static inline int engine_number_is_int(lua_Number d)
{
    return d == floor(d) && d >= -0x1p63 && d < 0x1p63;
}

static inline int lua_isinteger(lua_State *L, int idx)
{
    return lua_type(L, idx) == LUA_TNUMBER && engine_number_is_int(lua_tonumber(L, idx));
}

static inline void luaL_requiref(lua_State *L, const char *modname,
                                 lua_CFunction openf, int glb)
{
    luaL_findtable(L, LUA_REGISTRYINDEX, "_LOADED", 1);
    lua_getfield(L, -1, modname);
    if (!lua_toboolean(L, -1)) {
        lua_pop(L, 1);
        lua_pushcfunction(L, openf);
        lua_pushstring(L, modname);
        lua_call(L, 1, 1);
        lua_pushvalue(L, -1);
        lua_setfield(L, -3, modname);
    }
    lua_remove(L, -2);
    if (glb) {
        lua_pushvalue(L, -1);
        lua_setglobal(L, modname);
    }
}

static inline void engine_pushint(lua_State *L, int64_t v)
{
    lua_pushnumber(L, (lua_Number)v);
}

static inline int64_t engine_toint(lua_State *L, int idx, int *ok)
{
    int isnum = 0;
    lua_Number d = lua_tonumberx(L, idx, &isnum);
    *ok = isnum && engine_number_is_int(d);
    return *ok ? (int64_t)d : 0;
}

#else
/* ---- Lua 5.4 API (stock Lua, libtide) ---- */

static inline void engine_pushint(lua_State *L, int64_t v)
{
    lua_pushinteger(L, (lua_Integer)v);
}

static inline int64_t engine_toint(lua_State *L, int idx, int *ok)
{
    int isnum = 0;
    lua_Integer i = lua_tointegerx(L, idx, &isnum);
    *ok = isnum;
    return (int64_t)i;
}

#endif

/* ---- the collector, one data argument on every backend ---- */

static inline int engine_gc_collect(lua_State *L) { return lua_gc(L, LUA_GCCOLLECT, 0); }
static inline int engine_gc_stop(lua_State *L) { return lua_gc(L, LUA_GCSTOP, 0); }
static inline int engine_gc_restart(lua_State *L) { return lua_gc(L, LUA_GCRESTART, 0); }

static inline int engine_gc_step(lua_State *L, int kb)
{
    return lua_gc(L, LUA_GCSTEP, kb) == 1;
}

static inline double engine_gc_count_kb(lua_State *L)
{
    return lua_gc(L, LUA_GCCOUNT, 0) + lua_gc(L, LUA_GCCOUNTB, 0) / 1024.0;
}

#ifdef LUA_GCGEN
#define ENGINE_GC_HAS_MODES 1
static inline int engine_gc_set_generational(lua_State *L, int on)
{
    /* 0, 0: keep the mode's default parameters. */
    if (on) lua_gc(L, LUA_GCGEN, 0, 0);
    else lua_gc(L, LUA_GCINC, 0, 0, 0);
    return 1;
}
#else
#define ENGINE_GC_HAS_MODES 0
static inline int engine_gc_set_generational(lua_State *L, int on)
{
    (void)L;
    return !on;
}
#endif

#endif /* ENGINE_COMPAT_H */
