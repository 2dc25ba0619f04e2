/*
 * API test (libtide only): what C may keep across a collection that
 * evacuates (compacts) the major heap — the pointers the manual promises
 * stay valid, and GC handles.
 *
 *   evacuation.hold(list, u) -> ok: pushes the strings of list (up to 64)
 *       on its stack, keeps their lua_tostring pointers and
 *       lua_touserdata(u) in C locals across lua_gc(LUA_GCCOLLECT); ok when
 *       every pointer is unchanged and its bytes intact afterwards
 *   evacuation.holder(list) -> f: a C closure with the strings of list as
 *       upvalues; f() -> ok does the same with lua_tostring of its
 *       upvalues (the engine bindings read names so)
 *   evacuation.newud(n) -> u: a userdata of n bytes, filled with a pattern
 *   evacuation.record(list) / evacuation.moved(list) -> moved, intact:
 *       record the lua_tostring pointers and bytes of the strings of list;
 *       later, count those whose pointer differs now (the string moved:
 *       evacuation happened; the old pointer is never read) and check that
 *       every string still has its bytes
 *   evacuation.handles(list) -> hs: a strong and a weak handle for each
 *       element; evacuation.check_handles(hs, list) -> ok: every handle
 *       pushes the very element (rawequal); evacuation.free_handles(hs)
 *   evacuation.load_collecting(src, piece) -> f, n: lua_load with a reader
 *       that gives [piece] bytes at a time and runs a full collection
 *       (lua_gc(LUA_GCCOLLECT)) before each but the first four, n of them
 *   evacuation.count_full_collections(on) -> n: count full collections
 *       and the ends of major cycles (an event callback) from now on, or
 *       stop; the count so far
 *   evacuation.low_latency(on): tide_gc_allow_synchronous_major(L, !on)
 *   evacuation.accounting() -> ok: the collector's count of old bytes is
 *       what the old spaces hold (right after a full collection, which
 *       sweeps everything; white-box: the collector's private header)
 */
#include <stdlib.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"
#include "tide.h"

#include "../../../runtime/gc/gc_internal.h"

static unsigned char pattern_byte(size_t i)
{
    return (unsigned char)(i * 7 + 3);
}

static int l_newud(lua_State *L)
{
    size_t n = (size_t)luaL_checkinteger(L, 1);
    unsigned char *u = lua_newuserdatauv(L, n, 1);
    for (size_t i = 0; i < n; i++) u[i] = pattern_byte(i);
    return 1;
}

static int pattern_intact(const unsigned char *u, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (u[i] != pattern_byte(i)) return 0;
    return 1;
}

/* The strings at [first, first + n) (stack indices or upvalue indices,
 * [step] apart) keep their pointers and bytes across a collection the
 * program asks for, and so does the userdata at [ud] (0: none). The
 * pointers are kept in an array of this frame, not only in registers: a
 * collection that lua_gc runs does not scan the frames of its caller, so
 * only the values' places on the stack (or in the running closure's
 * upvalues) may protect them, as the manual promises. */
#define HELD_MAX 64
static int survives_collection(lua_State *L, int first, int n, int step, int ud)
{
    const char *ptr[HELD_MAX];
    char *copy[HELD_MAX];
    size_t len[HELD_MAX];
    if (n > HELD_MAX) n = HELD_MAX;
    for (int i = 0; i < n; i++) {
        ptr[i] = lua_tolstring(L, first + i * step, &len[i]);
        copy[i] = malloc(len[i] + 1);
        if (copy[i] == NULL) return luaL_error(L, "no memory");
        memcpy(copy[i], ptr[i], len[i] + 1);
    }
    void *u = ud != 0 ? lua_touserdata(L, ud) : NULL;
    size_t ulen = ud != 0 ? lua_rawlen(L, ud) : 0;
    lua_gc(L, LUA_GCCOLLECT);
    int ok = 1;
    for (int i = 0; i < n; i++) {
        ok = ok && lua_tostring(L, first + i * step) == ptr[i] && memcmp(ptr[i], copy[i], len[i] + 1) == 0;
        free(copy[i]);
    }
    if (ud != 0) ok = ok && lua_touserdata(L, ud) == u && pattern_intact(u, ulen);
    return ok;
}

/* hold(list, u): the strings of list pushed on this function's stack */
static int l_hold(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, 2, LUA_TUSERDATA);
    int n = (int)lua_rawlen(L, 1);
    if (n > HELD_MAX) n = HELD_MAX;
    luaL_checkstack(L, n + 1, "too many strings");
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, 1, i);
        if (lua_type(L, -1) != LUA_TSTRING) return luaL_error(L, "not a string at %d", i);
    }
    lua_pushboolean(L, survives_collection(L, 3, n, 1, 2));
    return 1;
}

static int held_upvalues(lua_State *L)
{
    int n = (int)lua_tointeger(L, lua_upvalueindex(1));
    lua_pushboolean(L, survives_collection(L, lua_upvalueindex(2), n, -1, 0));
    return 1;
}

/* holder(list) -> f: a C closure whose upvalues are the strings of list */
static int l_holder(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    int n = (int)lua_rawlen(L, 1);
    if (n > HELD_MAX) n = HELD_MAX;
    luaL_checkstack(L, n + 1, "too many strings");
    lua_pushinteger(L, n);
    for (int i = 1; i <= n; i++) lua_rawgeti(L, 1, i);
    lua_pushcclosure(L, held_upvalues, n + 1);
    return 1;
}

/* --- observing moves ------------------------------------------------------------ */

typedef struct Recorded {
    const void *ptr; /* compared, never read */
    char *bytes;
    size_t len;
} Recorded;

static Recorded *recorded;
static size_t nrecorded;

static void forget(void)
{
    for (size_t i = 0; i < nrecorded; i++) free(recorded[i].bytes);
    free(recorded);
    recorded = NULL;
    nrecorded = 0;
}

static int l_record(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    forget();
    size_t n = (size_t)lua_rawlen(L, 1);
    recorded = calloc(n > 0 ? n : 1, sizeof *recorded);
    if (recorded == NULL) return luaL_error(L, "no memory");
    for (size_t i = 0; i < n; i++) {
        lua_rawgeti(L, 1, (lua_Integer)i + 1);
        size_t len;
        const char *s = lua_tolstring(L, -1, &len);
        if (s == NULL) return luaL_error(L, "not a string at %d", (int)i + 1);
        recorded[i].ptr = s;
        recorded[i].len = len;
        recorded[i].bytes = malloc(len + 1);
        if (recorded[i].bytes == NULL) return luaL_error(L, "no memory");
        memcpy(recorded[i].bytes, s, len + 1);
        nrecorded = i + 1;
        lua_pop(L, 1);
    }
    return 0;
}

static int l_moved(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    int moved = 0, intact = 1;
    for (size_t i = 0; i < nrecorded; i++) {
        lua_rawgeti(L, 1, (lua_Integer)i + 1);
        size_t len;
        const char *s = lua_tolstring(L, -1, &len);
        if (s != recorded[i].ptr) moved++;
        if (len != recorded[i].len || memcmp(s, recorded[i].bytes, len + 1) != 0) intact = 0;
        lua_pop(L, 1);
    }
    forget();
    lua_pushinteger(L, moved);
    lua_pushboolean(L, intact);
    return 2;
}

/* --- handles -------------------------------------------------------------------- */

static int l_handles(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
    lua_createtable(L, (int)(2 * n), 0);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 1, i);
        tide_Handle strong = tide_handle_new(L, -1);
        tide_Handle weak = tide_handle_new_weak(L, -1, 0);
        lua_pop(L, 1);
        if (strong == TIDE_HANDLE_NONE || weak == TIDE_HANDLE_NONE) return luaL_error(L, "no memory for a handle");
        lua_pushinteger(L, (lua_Integer)strong);
        lua_rawseti(L, -2, 2 * i - 1);
        lua_pushinteger(L, (lua_Integer)weak);
        lua_rawseti(L, -2, 2 * i);
    }
    return 1;
}

static int l_check_handles(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_Integer n = (lua_Integer)lua_rawlen(L, 2);
    int ok = lua_rawlen(L, 1) == (size_t)(2 * n);
    for (lua_Integer i = 1; i <= 2 * n && ok; i++) {
        lua_rawgeti(L, 1, i);
        tide_Handle h = (tide_Handle)lua_tointeger(L, -1);
        lua_pop(L, 1);
        tide_handle_push(L, h);
        lua_rawgeti(L, 2, (i + 1) / 2);
        ok = lua_rawequal(L, -1, -2);
        lua_pop(L, 2);
    }
    lua_pushboolean(L, ok);
    return 1;
}

static int l_free_handles(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 1, i);
        tide_handle_free(L, (tide_Handle)lua_tointeger(L, -1));
        lua_pop(L, 1);
    }
    return 0;
}

/* --- a reader that collects ---------------------------------------------------- */

typedef struct Pieces {
    lua_State *L;
    const char *src;
    size_t left, piece;
    int skip;        /* pieces given before the first collection */
    int collections;
} Pieces;

/* Hands out the source [piece] bytes at a time and asks for a full
 * collection before each piece but the first few (so that the compiler
 * has made prototypes by the first one): the compiler's prototypes, anchor
 * table and strings are then held by its C frames (which such a collection
 * scans: lua_load's callers are not anchored), so they must stay where
 * they are. */
static const char *collecting_reader(lua_State *L, void *ud, size_t *size)
{
    Pieces *p = ud;
    (void)L;
    if (p->left == 0) return NULL;
    if (p->skip > 0) {
        p->skip--;
    } else {
        lua_gc(p->L, LUA_GCCOLLECT);
        p->collections++;
    }
    const char *s = p->src;
    *size = p->left < p->piece ? p->left : p->piece;
    p->src += *size;
    p->left -= *size;
    return s;
}

/* load_collecting(src, piece) -> f, collections | nil, message */
static int l_load_collecting(lua_State *L)
{
    size_t len;
    const char *src = luaL_checklstring(L, 1, &len);
    Pieces p = { L, src, len, (size_t)luaL_checkinteger(L, 2), 4, 0 };
    luaL_argcheck(L, p.piece > 0, 2, "empty pieces");
    if (lua_load(L, collecting_reader, &p, "=collecting", "t") != LUA_OK) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    lua_pushinteger(L, p.collections);
    return 2;
}

/* --- collections that must not move anything ------------------------------------ */

static int full_collections;

static void count_full(void *ud, const tide_GcEvent *e)
{
    (void)ud;
    if (e->kind == TIDE_GC_EVENT_PAUSE &&
        (e->pause_kind == TIDE_GC_PAUSE_SYNC_MAJOR || e->pause_kind == TIDE_GC_PAUSE_EMERGENCY ||
         e->pause_kind == TIDE_GC_PAUSE_FINAL_MARK))
        full_collections++;
}

/* count_full_collections(on): from now on (or no more), count full
 * collections; returns the count so far */
static int l_count_full_collections(lua_State *L)
{
    int on = lua_toboolean(L, 1);
    lua_pushinteger(L, full_collections);
    full_collections = 0;
    tide_gc_set_event_callback(L, on ? count_full : NULL, NULL);
    return 1;
}

/* low_latency(on): tide_gc_allow_synchronous_major(L, not on) */
static int l_low_latency(lua_State *L)
{
    tide_gc_allow_synchronous_major(L, !lua_toboolean(L, 1));
    return 0;
}

/* accounting() -> ok: an evacuation's copies are old bytes too (the
 * sweep takes their husks' off) */
static int l_accounting(lua_State *L)
{
    GCState *gc = gc_state(L);
    MajorStats ms;
    LosStats ls;
    major_stats(gc->major, &ms);
    los_stats(gc->los, &ls);
    lua_pushboolean(L, gc->old == ms.slot_bytes + ls.object_bytes);
    return 1;
}

int luaopen_evacuation(lua_State *L)
{
    static const luaL_Reg functions[] = {
        { "hold", l_hold },
        { "holder", l_holder },
        { "newud", l_newud },
        { "record", l_record },
        { "moved", l_moved },
        { "handles", l_handles },
        { "check_handles", l_check_handles },
        { "free_handles", l_free_handles },
        { "load_collecting", l_load_collecting },
        { "count_full_collections", l_count_full_collections },
        { "low_latency", l_low_latency },
        { "accounting", l_accounting },
        { NULL, NULL },
    };
    luaL_newlib(L, functions);
    return 1;
}
