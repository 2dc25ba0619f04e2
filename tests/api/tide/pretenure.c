/*
 * API test (libtide only, white-box): pretenuring (gc/nursery.c), which
 * tide.h does not expose.
 *
 *   pretenure.set(on) -> the previous setting
 *       whether objects may be born old where nearly everything the
 *       nursery holds survives (the default), or never (as
 *       TIDE_GC_DEBUG=no-pretenure): for tests that build a heap from
 *       young objects, their promotion order or their places on stacks
 *   pretenure.young(v) -> whether v is an object in the nursery
 *   pretenure.stats() -> minors, promoted, pretenured, pretenuring
 *       nursery collections so far, bytes they copied out, bytes born old
 *       by pretenuring, and whether new objects are born old now
 */
#include "lauxlib.h"
#include "lua.h"
#include "tide.h"

#include "../../../runtime/gc/gc_internal.h"

static int l_set(lua_State *L)
{
    GCState *gc = gc_state(L);
    int on = lua_toboolean(L, 1);
    lua_pushboolean(L, gc->pretenure_mode != GC_PRETENURE_NEVER);
    gc->pretenure_mode = on ? GC_PRETENURE_AUTO : GC_PRETENURE_NEVER;
    if (!on) gc->pretenure_left = 0;
    return 1;
}

static int l_young(lua_State *L)
{
    luaL_checkany(L, 1);
    const TValue *v = s2v(L->ci->func + 1); /* (the argument itself: lua_topointer gives identities) */
    lua_pushboolean(L, iscollectable(v) && gc_isyoung(G(L), gcvalue(v)));
    return 1;
}

static int l_stats(lua_State *L)
{
    GCState *gc = gc_state(L);
    lua_pushinteger(L, (lua_Integer)gc->minors);
    lua_pushinteger(L, (lua_Integer)gc->promoted);
    lua_pushinteger(L, (lua_Integer)gc->pretenured);
    lua_pushboolean(L, gc->pretenure_left != 0);
    return 4;
}

int luaopen_pretenure(lua_State *L)
{
    static const luaL_Reg functions[] = {
        { "set", l_set },
        { "young", l_young },
        { "stats", l_stats },
        { NULL, NULL },
    };
    luaL_newlib(L, functions);
    return 1;
}
