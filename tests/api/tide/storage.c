/*
 * API test (libtide only, white-box): where a table's storage is born
 * (alloc.c, gc_new_part). Storage that grows an old table is born old —
 * the next nursery collection would only copy it out; storage of a young
 * table, and storage that replaces storage no smaller (a rehash after
 * deletions), is born young. The Lua side asks where a table and its parts
 * are, which tide.h does not say: this module includes the collector's
 * private header on purpose.
 *
 *   storage.where(t) -> table, hash, array
 *       "young" or "old" for the table [t], its hash part and its array
 *       part ("none" for a part it does not have)
 *   storage.minors() -> n     nursery collections so far (a collection
 *       between two questions may have moved young storage out)
 *   storage.begin_cycle()     a major cycle's initial pause (after the
 *       last cycle's sweep): it marks until end_cycle
 *   storage.end_cycle()       the cycle's mark to its end, its final
 *       pause and its whole sweep: whatever it did not mark is freed
 */
#include "lauxlib.h"
#include "lua.h"
#include "tide.h"

#include "../../../runtime/gc/gc_internal.h"
#include "../../../runtime/vm/tables.h"

static const char *where(lua_State *L, const void *p)
{
    return gc_isyoung(G(L), p) ? "young" : "old";
}

static int l_where(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    const Table *t = hvalue(s2v(L->ci->func + 1)); /* (lua_topointer gives no address: objects move) */
    lua_pushstring(L, where(L, t));
    lua_pushstring(L, tab_isdummy(t) ? "none" : where(L, part_of(t->node)));
    lua_pushstring(L, t->array == NULL ? "none" : where(L, part_of(t->array)));
    return 3;
}

static int l_minors(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)gc_state(L)->minors);
    return 1;
}

static int l_begin_cycle(lua_State *L)
{
    GCState *gc = gc_state(L);
    if (gc->phase == TIDE_GC_PHASE_SWEEPING) gc_cycle_finish_sweep(L, 1);
    if (!gc->cycle_marking) gc_cycle_begin(L);
    lua_pushboolean(L, gc->cycle_marking);
    return 1;
}

static int l_end_cycle(lua_State *L)
{
    GCState *gc = gc_state(L);
    while (gc->cycle_marking && !gc_cycle_mark_done(gc)) gc_cycle_mark_for(L, 1000000000u);
    if (gc->cycle_marking) gc_cycle_finish(L);
    if (gc->phase == TIDE_GC_PHASE_SWEEPING) gc_cycle_finish_sweep(L, 1);
    return 0;
}

int luaopen_storage(lua_State *L)
{
    static const luaL_Reg functions[] = {
        { "where", l_where },
        { "minors", l_minors },
        { "begin_cycle", l_begin_cycle },
        { "end_cycle", l_end_cycle },
        { NULL, NULL },
    };
    luaL_newlib(L, functions);
    return 1;
}
