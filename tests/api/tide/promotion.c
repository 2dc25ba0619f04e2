/*
 * API test (libtide only, white-box): the nursery collection's promotion
 * front (minor.c). A collection keeps, for each size, the major block its
 * last copy went to and takes later slots of it inline; the bytes so taken
 * must reach both the collector's count of old bytes and the major heap's
 * count of allocated slots, and copies made while a cycle marks must be
 * born marked. This module includes the collector's private header on
 * purpose: tide.h does not say where objects are.
 *
 *   promotion.minor() -> promoted, old_delta, slot_delta
 *       one nursery collection: the bytes it promoted, and how much the
 *       old bytes outside the large-object space (which the collection may
 *       shrink, giving back released storage) and the major heap's slot
 *       bytes grew meanwhile
 *   promotion.whole_nursery()
 *       no pause target: the nursery's budget is the whole region, so
 *       that the test's own collections make all the copies, however the
 *       machine's speed moves the cost per byte
 * (The test begins and ends cycles with storage.c's functions.)
 */
#include "lauxlib.h"
#include "lua.h"
#include "tide.h"

#include "../../../runtime/gc/gc_internal.h"

static size_t slot_bytes(GCState *gc)
{
    MajorStats st;
    major_stats(gc->major, &st);
    return st.slot_bytes;
}

/* Old bytes in the major heap: all of them but the large objects'. */
static size_t major_old(GCState *gc)
{
    LosStats st;
    los_stats(gc->los, &st);
    return gc->old - st.object_bytes;
}

static int l_minor(lua_State *L)
{
    GCState *gc = gc_state(L);
    uint64_t promoted = gc->promoted;
    size_t old = major_old(gc), slots = slot_bytes(gc);
    gc_minor(L, GC_REASON_SAFE_POINT, 0);
    lua_pushinteger(L, (lua_Integer)(gc->promoted - promoted));
    lua_pushinteger(L, (lua_Integer)major_old(gc) - (lua_Integer)old);
    lua_pushinteger(L, (lua_Integer)slot_bytes(gc) - (lua_Integer)slots);
    return 3;
}

static int l_whole_nursery(lua_State *L)
{
    tide_gc_set_minor_pause_target(L, 0);
    return 0;
}

int luaopen_promotion(lua_State *L)
{
    static const luaL_Reg functions[] = {
        { "minor", l_minor },
        { "whole_nursery", l_whole_nursery },
        { NULL, NULL },
    };
    luaL_newlib(L, functions);
    return 1;
}
