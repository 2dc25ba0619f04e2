/*
 * tables.h — tables (tables.c).
 *
 * A table has an array part (keys 1..asize) and a hash part of 2^lsizenode
 * nodes with chained scatter (Brent's variation): each node's key is in its
 * main position or chained from it. Both parts are Part objects of the GC
 * heap (object.h). Keys that are objects hash by identity (gc_identity),
 * never by address; floats with integral values are normalized to integer
 * keys; nil and NaN are never keys.
 *
 * Lookups return a pointer to the value slot, or to a shared "absent key"
 * value (isabstkey) when the key is not present. A caller may overwrite a
 * present slot in place (then: gc_barrier_back(L, t, value)); a new key goes
 * through tab_newkey/tab_set.
 */
#ifndef TIDE_VM_TABLES_H
#define TIDE_VM_TABLES_H

#include "state.h"

TIDE_INTERNAL extern const TValue tab_absentkey;
TIDE_INTERNAL extern Node tab_dummynode_; /* the hash part of tables with none */
#define tab_isdummy(t) ((t)->node == &tab_dummynode_)

#define gnode(t, i) (&(t)->node[i])
#define gval(n) (&(n)->val)
#define gnext(n) ((n)->next)
#define keytt(n) ((n)->key_tt)
#define keyval(n) ((n)->key_val)
#define keyisnil(n) (keytt(n) == VNIL)
#define keyisdead(n) (keytt(n) == (LUA_TNUMTYPES_DEADKEY))
#define getnodekey(L, obj, node) ((void)(L), (obj)->v = (node)->key_val, (obj)->tt = (node)->key_tt)

/* Dead keys (a removed entry whose key was collectable) keep the chain
 * intact for `next`; their tag is this value and their payload (key_val.i)
 * the key object's identity. They reference nothing. */
#define LUA_TNUMTYPES_DEADKEY (TIDE_TPART + 1)

TIDE_INTERNAL Table *tab_new(lua_State *L);
/* Resize both parts (nasize array slots, room for nhsize hash entries). */
TIDE_INTERNAL void tab_resize(lua_State *L, Table *t, unsigned int nasize, unsigned int nhsize);
TIDE_INTERNAL void tab_resizearray(lua_State *L, Table *t, unsigned int nasize);

TIDE_INTERNAL const TValue *tab_get(Table *t, const TValue *key);
TIDE_INTERNAL const TValue *tab_getint(Table *t, lua_Integer key);
TIDE_INTERNAL const TValue *tab_getshortstr(Table *t, TString *key);
TIDE_INTERNAL const TValue *tab_getstr(Table *t, TString *key);
/* tab_getshortstr as an inline function, for the interpreter's hot paths:
 * the key's main position (its hash masked), then pointer compares along
 * the chain. tables.c's tab_getshortstr is this same code. */
static inline const TValue *tab_getshortstr_inline(const Table *t, const TString *key)
{
    const Node *n = &t->node[key->hash & (sizenode(t) - 1)];
    for (;;) {
        if (n->key_tt == VSHRSTR && n->key_val.gc == (const GCObject *)key) return &n->val;
        if (n->next == 0) return &tab_absentkey;
        n += n->next;
    }
}
/* tab_getint with the array-part test inline (no call for 1 <= k <= asize);
 * evaluates [t] and [k] more than once. */
#define tab_getint_fast(t, k) \
    ((lua_Unsigned)(k) - 1u < (t)->asize ? (const TValue *)&(t)->array[(k) - 1] : tab_getint((t), (k)))

/* Raw t[key] = value (nil value removes). Raises "table index is nil" / "table index is
 * NaN". Runs the barrier and clears the metamethod cache. May allocate. */
TIDE_INTERNAL void tab_set(lua_State *L, Table *t, const TValue *key, const TValue *value);
TIDE_INTERNAL void tab_setint(lua_State *L, Table *t, lua_Integer key, const TValue *value);
/* Insert a key known to be absent (after a lookup returned tab_absentkey). */
TIDE_INTERNAL void tab_newkey(lua_State *L, Table *t, const TValue *key, const TValue *value);
/* Store [value] for [key] given the [slot] a lookup returned: in place when
 * present, tab_newkey when absent. */
TIDE_INTERNAL void tab_finishset(lua_State *L, Table *t, const TValue *key, const TValue *slot, const TValue *value);

/* A border of the table (the # operator without __len). */
TIDE_INTERNAL lua_Unsigned tab_getn(Table *t);
/* Iteration: [key] is the stack slot holding the previous key (nil to
 * start); on return 1, key and key+1 hold the next key and value; 0 at the
 * end. Raises "invalid key to 'next'" for a key not in the table. */
TIDE_INTERNAL int tab_next(lua_State *L, Table *t, StkId key);
/* Bytes owned by [t] besides its header object (for accounting/verify). */
TIDE_INTERNAL size_t tab_storage_size(const Table *t);
/* Any raw store into a table used as a metatable invalidates its cache. */
#define tab_invalidate_tm(t) ((t)->flags &= (uint8_t)~TM_CACHE_ALL_ABSENT_BITS)
#define TM_CACHE_ALL_ABSENT_BITS 0x3Fu

#endif
