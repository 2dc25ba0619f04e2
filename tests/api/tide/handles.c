/*
 * API test (libtide only): GC handles of tide.h — strong, weak and
 * weak-tracking handles, reuse of freed numbers, and freeing from other
 * OS threads while the mutator collects.
 *
 *   handles.strong(v) / handles.weak(v) / handles.tracking(v) -> h
 *   handles.get(h) -> the value (nil for a cleared weak handle)
 *   handles.free(h)
 *   handles.free_concurrently(n) -> reused: makes 4*n strong handles to
 *       fresh tables, frees them from four threads (n each) while this
 *       thread runs full collections and makes and frees handles of its
 *       own; then makes 4*n handles again -> reused, distinct: how many
 *       of them got a number freed before (all must), and how many
 *       distinct numbers they got (all must differ)
 */
#include <pthread.h>
#include <stdlib.h>

#include "lauxlib.h"
#include "lua.h"
#include "tide.h"

static int push_new(lua_State *L, tide_Handle h)
{
    if (h == TIDE_HANDLE_NONE) return luaL_error(L, "no memory for a handle");
    lua_pushinteger(L, (lua_Integer)h);
    return 1;
}

static int l_strong(lua_State *L)
{
    luaL_checkany(L, 1);
    return push_new(L, tide_handle_new(L, 1));
}

static int l_weak(lua_State *L)
{
    luaL_checkany(L, 1);
    return push_new(L, tide_handle_new_weak(L, 1, 0));
}

static int l_tracking(lua_State *L)
{
    luaL_checkany(L, 1);
    return push_new(L, tide_handle_new_weak(L, 1, 1));
}

static tide_Handle check_handle(lua_State *L, int arg)
{
    lua_Integer h = luaL_checkinteger(L, arg);
    luaL_argcheck(L, h > 0 && h <= UINT32_MAX, arg, "not a handle");
    return (tide_Handle)h;
}

static int l_get(lua_State *L)
{
    tide_handle_push(L, check_handle(L, 1));
    return 1;
}

static int l_free(lua_State *L)
{
    tide_handle_free(L, check_handle(L, 1));
    return 0;
}

/* --- freeing from four threads ---------------------------------------------- */

#define FREEING_THREADS 4

typedef struct Freeing {
    lua_State *L;
    const tide_Handle *handles;
    int count;
} Freeing;

static void *free_all(void *arg)
{
    Freeing *f = arg;
    for (int i = 0; i < f->count; i++) tide_handle_free(f->L, f->handles[i]);
    return NULL;
}

static int compare_handles(const void *a, const void *b)
{
    tide_Handle x = *(const tide_Handle *)a, y = *(const tide_Handle *)b;
    return (x > y) - (x < y);
}

static int l_free_concurrently(lua_State *L)
{
    int n = (int)luaL_checkinteger(L, 1);
    luaL_argcheck(L, n > 0 && n <= 100000, 1, "out of range");
    int total = FREEING_THREADS * n;
    tide_Handle *handles = lua_newuserdatauv(L, (size_t)total * sizeof *handles, 0);
    for (int i = 0; i < total; i++) {
        lua_createtable(L, 1, 0);
        lua_pushinteger(L, i);
        lua_rawseti(L, -2, 1);
        handles[i] = tide_handle_new(L, -1);
        lua_pop(L, 1);
        if (handles[i] == TIDE_HANDLE_NONE) return luaL_error(L, "no memory for a handle");
    }
    pthread_t threads[FREEING_THREADS];
    Freeing work[FREEING_THREADS];
    for (int t = 0; t < FREEING_THREADS; t++) {
        work[t] = (Freeing){ L, handles + t * n, n };
        if (pthread_create(&threads[t], NULL, free_all, &work[t]) != 0)
            return luaL_error(L, "cannot start a thread");
    }
    /* Meanwhile the mutator collects, and takes and gives back numbers of
     * its own from the same free list. */
    enum { ROUNDS = 20 };
    tide_Handle mine[ROUNDS];
    for (int round = 0; round < ROUNDS; round++) {
        lua_gc(L, LUA_GCCOLLECT);
        lua_pushboolean(L, 1);
        mine[round] = tide_handle_new(L, -1);
        lua_pop(L, 1);
        tide_handle_free(L, mine[round]);
    }
    for (int t = 0; t < FREEING_THREADS; t++) pthread_join(threads[t], NULL);
    lua_gc(L, LUA_GCCOLLECT);

    /* Every number freed above is free again, once: 4*n new handles are
     * 4*n distinct numbers, all of them freed ones. */
    tide_Handle *again = lua_newuserdatauv(L, (size_t)total * sizeof *again, 0);
    for (int i = 0; i < total; i++) {
        lua_pushinteger(L, i);
        again[i] = tide_handle_new(L, -1);
        lua_pop(L, 1);
    }
    qsort(handles, (size_t)total, sizeof *handles, compare_handles);
    int reused = 0;
    for (int i = 0; i < total; i++) {
        int freed = bsearch(&again[i], handles, (size_t)total, sizeof *handles, compare_handles) != NULL;
        for (int r = 0; r < ROUNDS && !freed; r++) freed = again[i] == mine[r];
        reused += freed;
    }
    for (int i = 0; i < total; i++) tide_handle_free(L, again[i]);
    qsort(again, (size_t)total, sizeof *again, compare_handles);
    int distinct = total > 0;
    for (int i = 1; i < total; i++) distinct += again[i] != again[i - 1];
    lua_pushinteger(L, reused);
    lua_pushinteger(L, distinct);
    return 2;
}

int luaopen_handles(lua_State *L)
{
    static const luaL_Reg functions[] = {
        { "strong", l_strong },
        { "weak", l_weak },
        { "tracking", l_tracking },
        { "get", l_get },
        { "free", l_free },
        { "free_concurrently", l_free_concurrently },
        { NULL, NULL },
    };
    luaL_newlib(L, functions);
    return 1;
}
