/*
 * tables.c — Lua tables: an array part for the keys 1..asize and a hash
 * part of 2^lsizenode nodes.
 *
 * The hash part is a chained scatter table with Brent's variation, chains
 * threaded through the node array itself (Node.next is a relative offset):
 *  - every key is reachable from its main position by following next;
 *  - a node whose key is not in its main position is moved away when a key
 *    that does belong there arrives, so chains stay short;
 *  - free nodes are found by [lastfree] walking down the array; when none
 *    is left the table is rehashed: integer keys are counted and the array
 *    part gets the largest power-of-two size that would be more than half
 *    full (so tables filled as t[i] = v, or by t[#t + 1] = v, keep every
 *    key in the array part), everything else goes to a new hash part.
 *
 * Removing an entry (storing nil) only empties its value: the key stays in
 * its chain until the next rehash, so `next` still finds it and chains
 * through it stay intact. The collector may turn the key of an emptied
 * entry into a dead key (LUA_TNUMTYPES_DEADKEY, its payload the object's
 * identity: gc_clearkey) so that it no longer keeps the key object alive;
 * `next` matches a dead key by identity, never by address (objects move,
 * and the slot of a dead one is reused).
 *
 * Object keys hash by identity (gc_identity), never by address: objects
 * move. An object that has no identity yet cannot be a key of any table, so
 * a lookup with it fails without assigning one.
 */
#include <math.h>
#include <string.h>

#include "tables.h"
#include "conv.h"
#include "debuginfo.h"
#include "metamethods.h"
#include "strings.h"
#include "../gc/gc.h"

/* Largest array part: 2^MAXABITS slots (a Part's payload size is 32 bits). */
#define MAXABITS 27
#define MAXASIZE (1u << MAXABITS)
/* Largest hash part: 2^MAXHBITS nodes. */
#define MAXHBITS 26

Node tab_dummynode_; /* all zero: nil key, nil (empty) value, no next; never written */
const TValue tab_absentkey = { { NULL }, VABSTKEY };

#define absentkey (&tab_absentkey)

/* --- main positions ---------------------------------------------------------- */

/* Fibonacci hashing: the top lsizenode bits of h * 2^64/phi. Good spread for
 * sequential integers and identities; the double shift keeps a 1-node part
 * (lsizenode 0) defined. */
static inline Node *hash_mix(const Table *t, uint64_t h)
{
    return gnode(t, (uint32_t)(((h * 0x9E3779B97F4A7C15ull) >> 32) >> (32 - t->lsizenode)));
}

static inline Node *hash_int(const Table *t, lua_Integer i)
{
    return hash_mix(t, (uint64_t)i);
}

/* String hashes are already mixed: mask them. */
static inline Node *hash_str(const Table *t, unsigned int h)
{
    return gnode(t, h & (sizenode(t) - 1));
}

static inline Node *hash_float(const Table *t, lua_Number n)
{
    uint64_t bits;
    memcpy(&bits, &n, sizeof bits);
    return hash_mix(t, bits);
}

/* The main position of a key given by tag and payload. With L == NULL (a
 * lookup) an object without identity gets NULL: it is in no table. */
static Node *main_position(lua_State *L, const Table *t, int tt, const Value *kv)
{
    switch (tt) {
    case VNUMINT: return hash_int(t, kv->i);
    case VSHRSTR: return hash_str(t, ((TString *)kv->gc)->hash);
    case VLNGSTR: return hash_str(t, str_hashlong((TString *)kv->gc));
    case VNUMFLT: return hash_float(t, kv->n);
    case VFALSE: return hash_mix(t, 0);
    case VTRUE: return hash_mix(t, 1);
    case VLIGHTUSERDATA: return hash_mix(t, (uint64_t)(uintptr_t)kv->p);
    case VLCF: return hash_mix(t, (uint64_t)(uintptr_t)kv->f);
    default: {
        GCObject *o = kv->gc;
        lua_assert(tt & BIT_COLLECTABLE);
        uint32_t id = o->idhash;
        if (id == 0) {
            if (L == NULL) return NULL;
            id = gc_assign_identity(G(L), o);
        }
        return hash_mix(t, id);
    }
    }
}

static inline Node *main_position_of_node(lua_State *L, const Table *t, const Node *n)
{
    return main_position(L, t, keytt(n), &n->key_val);
}

/* --- lookups -------------------------------------------------------------------- */

/* Does node [n] hold [key]? With [deadok], a dead key matches the object
 * key with its identity (for `next` after the entry was removed; an object
 * without identity was never cleared from any table). */
static int node_holds(const Node *n, const TValue *key, int deadok)
{
    if (keytt(n) != rawtt(key)) {
        return deadok && keyisdead(n) && iscollectable(key) && gcvalue(key)->idhash != 0 &&
               (lua_Integer)gcvalue(key)->idhash == n->key_val.i;
    }
    switch (rawtt(key)) {
    case VNIL: case VFALSE: case VTRUE: return 1;
    case VNUMINT: return n->key_val.i == ivalue(key);
    case VNUMFLT: return n->key_val.n == fltvalue(key);
    case VLIGHTUSERDATA: return n->key_val.p == pvalue(key);
    case VLCF: return n->key_val.f == fvalue(key);
    case VLNGSTR: return str_eqlngstr((TString *)n->key_val.gc, tsvalue(key));
    default: return n->key_val.gc == gcvalue(key);
    }
}

/* The node holding [key] in the hash part, or NULL. */
static Node *find_node(Table *t, const TValue *key, int deadok)
{
    Node *n = main_position(NULL, t, rawtt(key), &key->v);
    if (n == NULL) return NULL;
    for (;;) {
        if (node_holds(n, key, deadok)) return n;
        int next = gnext(n);
        if (next == 0) return NULL;
        n += next;
    }
}

static const TValue *get_generic(Table *t, const TValue *key)
{
    Node *n = find_node(t, key, 0);
    return n != NULL ? gval(n) : absentkey;
}

/* An integer key in the hash part. */
static inline const TValue *get_int_hash(Table *t, lua_Integer key)
{
    Node *n = hash_int(t, key);
    for (;;) {
        if (keytt(n) == VNUMINT && n->key_val.i == key) return gval(n);
        int next = gnext(n);
        if (next == 0) return absentkey;
        n += next;
    }
}

const TValue *tab_getint(Table *t, lua_Integer key)
{
    if ((lua_Unsigned)key - 1u < t->asize) return &t->array[key - 1];
    return get_int_hash(t, key);
}

const TValue *tab_getshortstr(Table *t, TString *key)
{
    lua_assert(isshortstr(key));
    return tab_getshortstr_inline(t, key); /* the chain walk lives in tables.h */
}

const TValue *tab_getstr(Table *t, TString *key)
{
    if (isshortstr(key)) return tab_getshortstr(t, key);
    TValue k;
    setsvalue(NULL, &k, key);
    return get_generic(t, &k);
}

/* An integral float that fits lua_Integer is the same key as that integer. */
static inline int float_as_int_key(lua_Number n, lua_Integer *i)
{
    return conv_flttointns(n, i, F2Ieq);
}

const TValue *tab_get(Table *t, const TValue *key)
{
    switch (rawtt(key)) {
    case VSHRSTR: return tab_getshortstr(t, tsvalue(key));
    case VNUMINT: return tab_getint(t, ivalue(key));
    case VNIL: return absentkey;
    case VNUMFLT: {
        lua_Integer i;
        if (float_as_int_key(fltvalue(key), &i)) return tab_getint(t, i);
        return get_generic(t, key); /* NaN finds nothing: it is never stored */
    }
    default: return get_generic(t, key);
    }
}

/* --- sizes ---------------------------------------------------------------------- */

/* nums[i] counts the integer keys k with 2^(i-1) < k <= 2^i (nums[0]: k = 1). */
static int count_int_key(lua_Integer key, unsigned int *nums)
{
    if ((lua_Unsigned)key - 1u < MAXASIZE) {
        nums[conv_ceillog2((unsigned int)key)]++;
        return 1;
    }
    return 0;
}

/* Integer keys in the array part, per slice; returns their total. */
static unsigned int count_array_keys(const Table *t, unsigned int *nums)
{
    unsigned int total = 0;
    unsigned int key = 1; /* next key to look at */
    for (int lg = 0, slice_end = 1; lg <= MAXABITS; lg++, slice_end *= 2) {
        unsigned int limit = (unsigned int)slice_end < t->asize ? (unsigned int)slice_end : t->asize;
        if (key > limit) break;
        unsigned int used = 0;
        for (; key <= limit; key++) used += !isempty(&t->array[key - 1]);
        nums[lg] += used;
        total += used;
    }
    return total;
}

/* Entries of the hash part: counts them into *[total] and their integer
 * keys into nums; returns the number of those integer keys. */
static unsigned int count_hash_keys(const Table *t, unsigned int *nums, unsigned int *total)
{
    unsigned int nint = 0, used = 0;
    for (unsigned int i = 0, size = sizenode(t); i < size; i++) {
        const Node *n = gnode(t, i);
        if (!isempty(gval(n))) {
            if (keytt(n) == VNUMINT) nint += (unsigned int)count_int_key(n->key_val.i, nums);
            used++;
        }
    }
    *total += used;
    return nint;
}

/* The array size for the integer keys counted in nums (*[nint] of them):
 * the largest power of two 2^i such that more than 2^(i-1) of the keys
 * 1..2^i are present. *[nint] becomes the number of keys that go there. */
static unsigned int best_array_size(const unsigned int *nums, unsigned int *nint)
{
    unsigned int below = 0;   /* keys <= 2^i */
    unsigned int best = 0, best_count = 0;
    for (unsigned int i = 0, twotoi = 1; i <= MAXABITS && *nint > twotoi / 2; i++, twotoi *= 2) {
        below += nums[i];
        if (below > twotoi / 2) {
            best = twotoi;
            best_count = below;
        }
    }
    *nint = best_count;
    return best;
}

/* --- inserting -------------------------------------------------------------------- */

static Node *free_position(Table *t)
{
    if (t->lastfree == NULL) return NULL; /* the dummy part */
    while (t->lastfree > t->node) {
        t->lastfree--;
        if (keyisnil(t->lastfree)) return t->lastfree;
    }
    return NULL;
}

static void rehash(lua_State *L, Table *t, const TValue *extra_key);

/* Put (key, value) into the hash part; [key] is normalized and absent,
 * [value] not nil. Rehashes (and then stores through tab_set) when the hash
 * part is full. */
static void insert_new(lua_State *L, Table *t, const TValue *key, const TValue *value)
{
    Node *mp = main_position(L, t, rawtt(key), &key->v);
    if (!isempty(gval(mp)) || tab_isdummy(t)) { /* main position taken */
        Node *f = free_position(t);
        if (f == NULL) {
            rehash(L, t, key);
            tab_set(L, t, key, value); /* the key may now belong in the array part */
            return;
        }
        lua_assert(!tab_isdummy(t));
        Node *other = main_position_of_node(L, t, mp);
        if (other != mp) {
            /* The occupant is not in its own main position: move it to the
             * free node and give its place to the new key. */
            while (other + gnext(other) != mp) other += gnext(other);
            gnext(other) = (int32_t)(f - other);
            /* A major cycle's marker may have read [f] (free) and not yet
             * [mp]: the entry is handed to it before it moves (gc.h). */
            gc_satb_value(L, gval(mp));
            if (mp->key_tt & BIT_COLLECTABLE) gc_satb_object(L, mp->key_val.gc);
            *f = *mp;
            /* the entry moved to another slot (maybe another card) */
            if (f->key_tt & BIT_COLLECTABLE) gc_objbarrier_slot(L, t, &f->key_val, f->key_val.gc);
            gc_barrier_back(L, t, gval(f), gval(f));
            if (gnext(mp) != 0) {
                gnext(f) += (int32_t)(mp - f);
                gnext(mp) = 0;
            }
            setempty(gval(mp));
        } else {
            /* The occupant belongs here: the new key goes to the free node,
             * chained right after its main position. */
            gnext(f) = gnext(mp) != 0 ? (int32_t)(mp + gnext(mp) - f) : 0;
            gnext(mp) = (int32_t)(f - mp);
            mp = f;
        }
    }
    mp->key_val = key->v;
    mp->key_tt = rawtt(key);
    gc_barrier_back(L, t, &mp->key_val, key);
    lua_assert(isempty(gval(mp)));
    setobj(L, gval(mp), value);
    gc_barrier_back(L, t, gval(mp), value);
}

void tab_newkey(lua_State *L, Table *t, const TValue *key, const TValue *value)
{
    TValue normalized;
    if (luai_unlikely(ttisnil(key))) dbg_runerror(L, "table index is nil");
    if (ttisfloat(key)) {
        lua_Number n = fltvalue(key);
        lua_Integer i;
        if (float_as_int_key(n, &i)) {
            setivalue(&normalized, i);
            key = &normalized;
        } else if (luai_unlikely(n != n)) {
            dbg_runerror(L, "table index is NaN");
        }
    }
    tab_invalidate_tm(t);
    if (ttisnil(value)) return; /* storing nil under an absent key: nothing to do */
    if (ttisinteger(key) && (lua_Unsigned)ivalue(key) - 1u < t->asize) {
        /* (a float key normalized into the array part) */
        TValue *slot = &t->array[ivalue(key) - 1];
        gc_satb_value(L, slot);
        setobj(L, slot, value);
        gc_barrier_back(L, t, slot, value);
        return;
    }
    insert_new(L, t, key, value);
}

void tab_finishset(lua_State *L, Table *t, const TValue *key, const TValue *slot, const TValue *value)
{
    if (isabstkey(slot)) {
        tab_newkey(L, t, key, value);
    } else {
        gc_satb_value(L, slot);
        setobj(L, (TValue *)slot, value);
        gc_barrier_back(L, t, slot, value);
        tab_invalidate_tm(t);
    }
}

void tab_set(lua_State *L, Table *t, const TValue *key, const TValue *value)
{
    tab_finishset(L, t, key, tab_get(t, key), value);
}

void tab_setint(lua_State *L, Table *t, lua_Integer key, const TValue *value)
{
    const TValue *slot = tab_getint(t, key);
    if (isabstkey(slot)) {
        TValue k;
        setivalue(&k, key);
        tab_newkey(L, t, &k, value);
    } else {
        gc_satb_value(L, slot);
        setobj(L, (TValue *)slot, value);
        gc_barrier_back(L, t, slot, value);
        tab_invalidate_tm(t);
    }
}

/* --- resizing ----------------------------------------------------------------------- */

/* Re-store an entry of the old parts into the new ones (no metamethod
 * cache to clear, no nil values, keys already normalized and unique). */
static void reinsert(lua_State *L, Table *t, const TValue *key, const TValue *value)
{
    if (ttisinteger(key) && (lua_Unsigned)ivalue(key) - 1u < t->asize) {
        TValue *slot = &t->array[ivalue(key) - 1];
        gc_satb_value(L, slot);
        setobj(L, slot, value);
        gc_barrier_back(L, t, slot, value);
    } else {
        insert_new(L, t, key, value);
    }
}

void tab_resize(lua_State *L, Table *t, unsigned int nasize, unsigned int nhsize)
{
    if (nasize > MAXASIZE) dbg_runerror(L, "table overflow");
    /* Allocate everything first: an allocation may collect, and until the
     * swap below the table must stay as it was. New parts live in locals
     * (pinned) meanwhile. */
    Node *newnode = &tab_dummynode_;
    int lsize = 0;
    unsigned int oldasize = t->asize;
    unsigned int oldnsize = tab_isdummy(t) ? 0 : sizenode(t);
    if (nhsize > 0) {
        lsize = conv_ceillog2(nhsize);
        if (lsize > MAXHBITS) dbg_runerror(L, "table overflow");
        newnode = gc_new_part(L, t, ((size_t)1 << lsize) * sizeof(Node), (size_t)oldnsize * sizeof(Node), PART_NODES);
    }
    TValue *oldarray = t->array;
    TValue *newarray = oldarray;
    if (nasize != oldasize) {
        newarray = nasize > 0 ? gc_new_part(L, t, (size_t)nasize * sizeof(TValue), (size_t)oldasize * sizeof(TValue), PART_ARRAY) : NULL;
        /* zeroed memory is nil: only the kept slots need copying */
        unsigned int kept = nasize < oldasize ? nasize : oldasize;
        if (kept > 0) memcpy(newarray, oldarray, (size_t)kept * sizeof(TValue));
    }
    Node *oldnode = t->node; /* (read after the allocations: a collection may have moved it) */
    /* While a cycle marks, the entries move to new storage without the
     * snapshot barrier (and a marker part-way through the table would
     * find them at other positions): they are handed to the marker first.
     * The cost is the resize's own, one pass over the entries. */
    if (luai_unlikely(G(L)->gc_marking)) {
        for (unsigned int i = 0; i < oldasize; i++) gc_satb_value(L, &oldarray[i]);
        for (unsigned int i = 0; i < oldnsize; i++) {
            Node *n = &oldnode[i];
            if (isempty(gval(n))) continue;
            gc_satb_value(L, gval(n));
            if (n->key_tt & BIT_COLLECTABLE) gc_satb_(L, n->key_val.gc);
        }
    }

    /* Swap the new parts in. The pointers are published with release: the
     * collector's worker thread reads a table's storage through them, and
     * sizes it by the Part header written before (gc/worker.c). */
    __atomic_store_n(&t->array, newarray, __ATOMIC_RELEASE);
    t->asize = nasize;
    if (t->lenhint > nasize) t->lenhint = nasize;
    __atomic_store_n(&t->node, newnode, __ATOMIC_RELEASE);
    t->lsizenode = (uint8_t)lsize;
    t->lastfree = nhsize > 0 ? newnode + ((size_t)1 << lsize) : NULL;
    if (newarray != oldarray && newarray != NULL) gc_objbarrier(L, t, part_of(newarray));
    if (nhsize > 0) gc_objbarrier(L, t, part_of(newnode));
    /* Storage born old (large) that the copy above filled without
     * barriers: the young values it holds are remembered one by one, in
     * this pass that follows the copy. Remembering the whole of a
     * million-slot array would make the next nursery collection scan all
     * of it. */
    if (newarray != oldarray && newarray != NULL && oldarray != NULL && !gc_isyoung(G(L), newarray)) {
        unsigned int kept = nasize < oldasize ? nasize : oldasize;
        for (unsigned int i = 0; i < kept; i++) gc_barrier_back(L, t, &newarray[i], &newarray[i]);
    }

    /* Move what did not stay in place: the array slots past the new size,
     * then every live entry of the old hash part (dead keys are dropped). */
    for (unsigned int i = nasize; i < oldasize; i++) {
        if (!isempty(&oldarray[i])) {
            TValue key;
            setivalue(&key, (lua_Integer)i + 1);
            reinsert(L, t, &key, &oldarray[i]);
        }
    }
    for (unsigned int i = 0; i < oldnsize; i++) {
        Node *old = &oldnode[i];
        if (!isempty(gval(old))) {
            TValue key;
            getnodekey(L, &key, old);
            reinsert(L, t, &key, gval(old));
        }
    }
    if (newarray != oldarray && oldarray != NULL) gc_release_part(L, oldarray);
    if (oldnsize > 0) gc_release_part(L, oldnode);
}

void tab_resizearray(lua_State *L, Table *t, unsigned int nasize)
{
    tab_resize(L, t, nasize, tab_isdummy(t) ? 0 : sizenode(t));
}

/* The hash part is full: size both parts for the present keys plus
 * [extra_key]. */
static void rehash(lua_State *L, Table *t, const TValue *extra_key)
{
    unsigned int nums[MAXABITS + 1];
    memset(nums, 0, sizeof nums);
    unsigned int nint = count_array_keys(t, nums);
    unsigned int total = nint;
    nint += count_hash_keys(t, nums, &total);
    if (ttisinteger(extra_key)) nint += (unsigned int)count_int_key(ivalue(extra_key), nums);
    total++;
    unsigned int asize = best_array_size(nums, &nint);
    tab_resize(L, t, asize, total - nint);
}

/* --- creation, size ---------------------------------------------------------------- */

Table *tab_new(lua_State *L)
{
    Table *t = (Table *)gc_new(L, VTABLE & 0x3F, sizeof(Table));
    t->flags = (uint8_t)TM_CACHE_ALL_ABSENT_BITS; /* no metamethods in an empty table */
    t->lsizenode = 0;
    t->asize = 0;
    t->array = NULL;
    t->node = &tab_dummynode_;
    t->lastfree = NULL;
    t->metatable = NULL;
    t->lenhint = 0;
    return t;
}

size_t tab_storage_size(const Table *t)
{
    size_t size = (size_t)t->asize * sizeof(TValue);
    if (!tab_isdummy(t)) size += (size_t)sizenode(t) * sizeof(Node);
    return size;
}

/* --- the length operator ------------------------------------------------------------
 * A border is b with (b == 0 or t[b] ~= nil) and t[b + 1] == nil. */

/* Is [b] (< asize) a border inside the array part? */
static inline int array_border(const Table *t, unsigned int b)
{
    return isempty(&t->array[b]) && (b == 0 || !isempty(&t->array[b - 1]));
}

/* The array part ends in nil: find a border in it, trying the last answer
 * and its neighbours first (appending or removing at the end moves the
 * border by one), then a binary search. */
static lua_Unsigned border_in_array(Table *t)
{
    unsigned int asize = t->asize;
    unsigned int hint = t->lenhint < asize ? t->lenhint : asize - 1;
    if (array_border(t, hint)) return hint;
    if (hint + 1 < asize && array_border(t, hint + 1)) {
        t->lenhint = hint + 1;
        return hint + 1;
    }
    if (hint > 0 && array_border(t, hint - 1)) {
        t->lenhint = hint - 1;
        return hint - 1;
    }
    /* t[lo] present (or lo == 0), t[hi] absent */
    unsigned int lo = 0, hi = asize;
    while (hi - lo > 1) {
        unsigned int mid = lo + (hi - lo) / 2;
        if (isempty(&t->array[mid - 1])) hi = mid;
        else lo = mid;
    }
    t->lenhint = lo;
    return lo;
}

/* t[j] is present (j >= 1) and lives in the hash part or at the end of the
 * array: double j until t[j] is absent, then bisect. */
static lua_Unsigned border_in_hash(Table *t, lua_Unsigned j)
{
    lua_Unsigned i;
    do {
        i = j;
        if (j <= (lua_Unsigned)LUA_MAXINTEGER / 2) {
            j *= 2;
        } else {
            j = (lua_Unsigned)LUA_MAXINTEGER;
            if (isempty(tab_getint(t, (lua_Integer)j))) break;
            return j; /* t[maxinteger] is present: a border */
        }
    } while (!isempty(tab_getint(t, (lua_Integer)j)));
    /* t[i] present, t[j] absent, i < j */
    while (j - i > 1u) {
        lua_Unsigned mid = i + (j - i) / 2;
        if (isempty(tab_getint(t, (lua_Integer)mid))) j = mid;
        else i = mid;
    }
    return i;
}

lua_Unsigned tab_getn(Table *t)
{
    unsigned int asize = t->asize;
    if (asize > 0 && isempty(&t->array[asize - 1])) return border_in_array(t);
    /* the array part is absent or full to its end */
    if (tab_isdummy(t) || isempty(get_int_hash(t, (lua_Integer)asize + 1))) return asize;
    return border_in_hash(t, (lua_Unsigned)asize + 1);
}

/* --- traversal ------------------------------------------------------------------------ */

/* The traversal index just after [key]: 0 for nil, k for the array key k,
 * asize + node index + 1 for a hash key. */
static unsigned int index_after(lua_State *L, Table *t, const TValue *key)
{
    TValue normalized;
    if (ttisnil(key)) return 0;
    if (ttisfloat(key)) {
        lua_Integer i;
        if (float_as_int_key(fltvalue(key), &i)) {
            setivalue(&normalized, i);
            key = &normalized;
        }
    }
    if (ttisinteger(key) && (lua_Unsigned)ivalue(key) - 1u < t->asize)
        return (unsigned int)ivalue(key);
    Node *n = find_node(t, key, 1);
    if (luai_unlikely(n == NULL)) dbg_runerror(L, "invalid key to 'next'");
    return (unsigned int)(n - t->node) + 1 + t->asize;
}

int tab_next(lua_State *L, Table *t, StkId key)
{
    unsigned int asize = t->asize;
    unsigned int i = index_after(L, t, s2v(key));
    for (; i < asize; i++) {
        if (!isempty(&t->array[i])) {
            setivalue(s2v(key), (lua_Integer)i + 1);
            setobj2s(L, key + 1, &t->array[i]);
            return 1;
        }
    }
    for (i -= asize; i < sizenode(t); i++) {
        Node *n = gnode(t, i);
        if (!isempty(gval(n))) {
            getnodekey(L, s2v(key), n);
            setobj2s(L, key + 1, gval(n));
            return 1;
        }
    }
    return 0;
}
