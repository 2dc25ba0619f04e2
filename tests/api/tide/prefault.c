/*
 * API test (libtide only, white-box): the worker faults pages in for the
 * mutator (gc_worker_prefault, gc/worker.c). The module hands the worker
 * regions of fresh anonymous memory of its own, not the heap's, and reads
 * which of their pages are resident (mincore), so that the Lua side can
 * check that queued pages fault in, that what the mutator writes into them
 * meanwhile survives, and that a cancelled range is left alone. It
 * includes the collector's private header on purpose: the prefaulter is
 * not part of tide.h.
 *
 *   prefault.start() -> boolean        the worker is running (false under
 *                                      TIDE_GC_DEBUG=no-worker)
 *   prefault.region(pages) -> region   fresh memory, no page resident
 *   region:post() -> integer           blocks of 16 KiB queued (each tried
 *                                      until the worker's lock is free)
 *   region:post_whole() -> boolean     the region queued as one range (the
 *                                      worker is then still at it when the
 *                                      call returns)
 *   region:resident() -> integer       pages resident now
 *   region:fill(seed)                  a distinct nonzero word at the start
 *                                      and in the middle of every page
 *   region:check(seed) -> integer      pages whose words are not fill's
 *   region:cancel()                    gc_worker_prefault_cancel
 *   prefault.pending() -> integer      ranges the worker has yet to pass
 *   prefault.hold() -> boolean         gc_worker_prefault_hold (true: held)
 *   prefault.release()                 gc_worker_prefault_release
 *   prefault.sleep(ms)
 *   prefault.begin_cycle() -> boolean  a major cycle begun (true: the worker
 *                                      marks it)
 *   prefault.served_traversing() -> integer  chunks the worker faulted in
 *                                      from the middle of a traversal
 *   prefault.end_cycle()               its final pause and its sweep
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, mincore */
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "lauxlib.h"
#include "lua.h"

#include "../../../runtime/gc/gc_internal.h"

#define PAGE ((size_t)4096)
#define BLOCK ((size_t)16 * 1024)
#define REGION "prefault.region"

typedef struct Region {
    unsigned char *base;
    size_t pages;
} Region;

static Region *check_region(lua_State *L)
{
    Region *r = luaL_checkudata(L, 1, REGION);
    luaL_argcheck(L, r->base != NULL, 1, "region unmapped");
    return r;
}

static int l_start(lua_State *L)
{
    GCState *gc = gc_state(L);
    gc_worker_prepare(gc);
    lua_pushboolean(L, gc->worker != NULL);
    return 1;
}

static int l_region(lua_State *L)
{
    lua_Integer pages = luaL_checkinteger(L, 1);
    luaL_argcheck(L, pages > 0 && (size_t)pages * PAGE % BLOCK == 0, 1, "a whole number of blocks");
    Region *r = lua_newuserdatauv(L, sizeof *r, 0);
    r->base = NULL;
    r->pages = (size_t)pages;
    luaL_setmetatable(L, REGION);
    void *p = mmap(NULL, r->pages * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return luaL_error(L, "mmap failed");
    r->base = p;
    return 1;
}

static int l_post(lua_State *L)
{
    Region *r = check_region(L);
    lua_Integer queued = 0;
    /* (the mutator's calls give up when the worker holds its lock, and the
     * heap then writes the block itself; here each block is tried again,
     * a bounded number of times, so that the counts the test checks are
     * whole unless the queue is full) */
    for (size_t off = 0; off < r->pages * PAGE; off += BLOCK) {
        int tries = 0;
        while (!gc_worker_prefault(gc_state(L), r->base + off, BLOCK) && ++tries < 10000) sched_yield();
        queued += tries < 10000;
    }
    lua_pushinteger(L, queued);
    return 1;
}

static int l_post_whole(lua_State *L)
{
    Region *r = check_region(L);
    int tries = 0;
    while (!gc_worker_prefault(gc_state(L), r->base, r->pages * PAGE) && ++tries < 10000) sched_yield();
    lua_pushboolean(L, tries < 10000);
    return 1;
}

static int l_resident(lua_State *L)
{
    Region *r = check_region(L);
    unsigned char vec[4096];
    lua_Integer n = 0;
    for (size_t first = 0; first < r->pages; first += sizeof vec) {
        size_t count = r->pages - first < sizeof vec ? r->pages - first : sizeof vec;
        if (mincore(r->base + first * PAGE, count * PAGE, vec) != 0) return luaL_error(L, "mincore failed");
        for (size_t i = 0; i < count; i++) n += vec[i] & 1;
    }
    lua_pushinteger(L, n);
    return 1;
}

static uintptr_t word_for(lua_Integer seed, size_t page, int which)
{
    return (((uintptr_t)seed * 2654435761u) ^ ((uintptr_t)page << 8) ^ ((uintptr_t)which << 1)) | 1;
}

static int l_fill(lua_State *L)
{
    Region *r = check_region(L);
    lua_Integer seed = luaL_checkinteger(L, 2);
    for (size_t i = 0; i < r->pages; i++) {
        uintptr_t *page = (uintptr_t *)(void *)(r->base + i * PAGE);
        page[0] = word_for(seed, i, 0);
        page[PAGE / sizeof(uintptr_t) / 2] = word_for(seed, i, 1);
    }
    return 0;
}

static int l_check(lua_State *L)
{
    Region *r = check_region(L);
    lua_Integer seed = luaL_checkinteger(L, 2), bad = 0;
    for (size_t i = 0; i < r->pages; i++) {
        const uintptr_t *page = (const uintptr_t *)(const void *)(r->base + i * PAGE);
        bad += page[0] != word_for(seed, i, 0) || page[PAGE / sizeof(uintptr_t) / 2] != word_for(seed, i, 1);
    }
    lua_pushinteger(L, bad);
    return 1;
}

static int l_cancel(lua_State *L)
{
    Region *r = check_region(L);
    gc_worker_prefault_cancel(gc_state(L), r->base, r->pages * PAGE);
    return 0;
}

/* __gc: the range is cancelled before it is unmapped, as the heap does. */
static int l_unmap(lua_State *L)
{
    Region *r = luaL_checkudata(L, 1, REGION);
    if (r->base != NULL) {
        gc_worker_prefault_cancel(gc_state(L), r->base, r->pages * PAGE);
        munmap(r->base, r->pages * PAGE);
        r->base = NULL;
    }
    return 0;
}

static int l_pending(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)gc_worker_prefault_pending(gc_state(L)));
    return 1;
}

static int l_hold(lua_State *L)
{
    lua_pushboolean(L, gc_worker_prefault_hold(gc_state(L)));
    return 1;
}

static int l_release(lua_State *L)
{
    gc_worker_prefault_release(gc_state(L));
    return 0;
}

/* A major cycle begun (its sweep finished first): true if the worker marks. */
static int l_begin_cycle(lua_State *L)
{
    GCState *gc = gc_state(L);
    if (gc->phase == TIDE_GC_PHASE_SWEEPING) gc_cycle_finish_sweep(L, 1);
    if (!gc->cycle_marking) gc_cycle_begin(L);
    lua_pushboolean(L, gc->cycle_marking && gc->worker_marking);
    return 1;
}

static int l_served_traversing(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)gc_worker_prefault_served_traversing(gc_state(L)));
    return 1;
}

/* The cycle ended: the final pause, then the sweep. */
static int l_end_cycle(lua_State *L)
{
    GCState *gc = gc_state(L);
    while (gc->cycle_marking && !gc_cycle_mark_done(gc)) gc_cycle_mark_for(L, 1000000000u);
    gc_cycle_finish(L);
    if (gc->phase == TIDE_GC_PHASE_SWEEPING) gc_cycle_finish_sweep(L, 1);
    return 0;
}

static int l_sleep(lua_State *L)
{
    lua_Number ms = luaL_checknumber(L, 1);
    struct timespec ts;
    ts.tv_sec = (time_t)(ms / 1000);
    ts.tv_nsec = (long)((ms - (lua_Number)ts.tv_sec * 1000) * 1e6);
    nanosleep(&ts, NULL);
    return 0;
}

int luaopen_prefault(lua_State *L)
{
    static const luaL_Reg methods[] = {
        { "post", l_post },     { "post_whole", l_post_whole }, { "resident", l_resident }, { "fill", l_fill },
        { "check", l_check },   { "cancel", l_cancel },     { "__gc", l_unmap },
        { NULL, NULL },
    };
    static const luaL_Reg functions[] = {
        { "start", l_start },
        { "region", l_region },
        { "pending", l_pending },
        { "hold", l_hold },
        { "release", l_release },
        { "sleep", l_sleep },
        { "begin_cycle", l_begin_cycle },
        { "served_traversing", l_served_traversing },
        { "end_cycle", l_end_cycle },
        { NULL, NULL },
    };
    luaL_newmetatable(L, REGION);
    luaL_setfuncs(L, methods, 0);
    lua_pushvalue(L, -1);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    luaL_newlib(L, functions);
    return 1;
}
