/*
 * API test (libtide only, white-box): dead keys (tables.h). A removed
 * entry keeps its node, in its chain, until the next rehash, so that
 * `next` can go on from a key removed during a traversal; the collector
 * makes its key a dead key, which no longer keeps the key object alive.
 * The key object may then die and its slot be reused: an evacuation
 * copies survivors into the slots of dead objects. A dead key must not
 * take the key that now sits at that address for its own, or `next` given
 * that key goes back to the dead entry's place in the table (and loops
 * for ever when the dead entry comes first).
 *
 * The Lua side builds that situation with long strings as keys (they hash
 * by contents, so the module can find strings that share a chain) and
 * needs what tide.h does not say — where a string is, how a chain runs —
 * so this module includes the private headers on purpose.
 *
 *   dead_keys.table(n) -> t       a table with room for n hash entries
 *       (a rehash would drop the dead keys; none happens until it holds
 *       more)
 *   dead_keys.colliding(t, s, tag, n) -> {i1, ..., in}   the first n
 *       numbers i (from 1) for which the string tag .. ("%07d"):format(i),
 *       padded with "-" to the length of the long string [s], has the
 *       main position of [s] in [t]; found without making those strings
 *       ([tag]: one character), so that no garbage of their size class is
 *       left behind
 *   dead_keys.chain(t, s) -> {k1, k2, ...}   the chain that starts at the
 *       main position of [s] in [t], in order: each live key, or false for
 *       a dead one (an emptied entry whose key is still there: its key)
 *   dead_keys.address(s) -> a     where the long string [s] is now
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"
#include "tide.h"

#include "../../../runtime/gc/gc_internal.h"
#include "../../../runtime/vm/api.h"
#include "../../../runtime/vm/strings.h"
#include "../../../runtime/vm/tables.h"

static Table *check_table(lua_State *L, int arg)
{
    luaL_checktype(L, arg, LUA_TTABLE);
    Table *t = hvalue(s2v(L->ci->func + arg)); /* (lua_topointer gives no address: objects move) */
    luaL_argcheck(L, !tab_isdummy(t), arg, "a table with a hash part expected");
    return t;
}

static TString *check_long_string(lua_State *L, int arg)
{
    luaL_checktype(L, arg, LUA_TSTRING);
    TString *ts = tsvalue(s2v(L->ci->func + arg));
    luaL_argcheck(L, !isshortstr(ts), arg, "a long string expected");
    return ts;
}

/* As tables.c's hash_str for a long string. */
static unsigned main_position(const Table *t, unsigned hash)
{
    return hash & (sizenode(t) - 1);
}

static int l_table(lua_State *L)
{
    lua_createtable(L, 0, (int)luaL_checkinteger(L, 1));
    return 1;
}

static int l_colliding(lua_State *L)
{
    Table *t = check_table(L, 1);
    TString *target = check_long_string(L, 2);
    size_t taglen, len = tsslen(target);
    const char *tag = luaL_checklstring(L, 3, &taglen);
    lua_Integer want = luaL_checkinteger(L, 4);
    luaL_argcheck(L, taglen == 1 && len > 8, 3, "one character, and a longer [s], expected");
    unsigned mp = main_position(t, str_hashlong(target));
    lua_createtable(L, (int)want, 0);
    char *buf = malloc(len);
    if (buf == NULL) return luaL_error(L, "out of memory");
    memset(buf, '-', len);
    lua_Integer found = 0;
    for (int i = 1; found < want && i < 10000000; i++) {
        char head[16];
        snprintf(head, sizeof head, "%c%07d", tag[0], i);
        memcpy(buf, head, 8);
        if (main_position(t, str_hash(buf, len, G(L)->seed)) == mp) {
            lua_pushinteger(L, i);
            lua_rawseti(L, -2, ++found);
        }
    }
    free(buf);
    return 1;
}

static int l_chain(lua_State *L)
{
    Table *t = check_table(L, 1);
    Node *n = gnode(t, main_position(t, str_hashlong(check_long_string(L, 2))));
    lua_newtable(L);
    for (lua_Integer i = 1;; i++) {
        if (keyisdead(n) || isempty(gval(n))) {
            lua_pushboolean(L, 0);
        } else {
            TValue k;
            getnodekey(L, &k, n);
            setobj2s(L, L->top, &k);
            api_incr_top(L);
        }
        lua_rawseti(L, -2, i);
        if (gnext(n) == 0) break;
        n += gnext(n);
    }
    return 1;
}

static int l_address(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)(uintptr_t)check_long_string(L, 1));
    return 1;
}

static const luaL_Reg functions[] = {
    { "table", l_table },
    { "colliding", l_colliding },
    { "chain", l_chain },
    { "address", l_address },
    { NULL, NULL },
};

int luaopen_dead_keys(lua_State *L)
{
    luaL_newlib(L, functions);
    return 1;
}
