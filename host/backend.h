/*
 * backend.h — the Lua state on whichever backend this host was built for.
 *
 * backend.c is the one file that knows which backend is linked (stock Lua
 * 5.4, LuaJIT 2.1, later libtide): it creates the state with a counting
 * allocator (bytes in use, peak, total allocated, an optional limit past
 * which allocation fails so that Lua raises "not enough memory"), opens the
 * standard libraries and applies the --gc mode. In idle-stepped mode the
 * collector is stopped during frames and stepped, in small timed steps, in
 * the idle time the frame loop hands over.
 */
#ifndef HOST_BACKEND_H
#define HOST_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "lua.h"

#include "options.h"

typedef struct backend_Memory {
    size_t in_use;              /* bytes the state holds now */
    size_t peak;                /* most it ever held */
    uint64_t total_allocated;   /* bytes handed out over the run (growth only) */
    size_t limit;               /* 0: none; else allocation past it fails */
} backend_Memory;

typedef struct backend_State {
    lua_State *L;
    backend_Memory memory;
    options_GcMode gc_mode;
    uint64_t (*clock_ns)(void);
    int idle_step_ref;          /* registry ref of the protected idle stepper */
} backend_State;

/* "lua5.4", "luajit" (later "tide"): what engine.backend() returns. */
const char *backend_name(void);

/* 1 if this backend has [mode]; else 0 and why, in [err]. */
int backend_supports_gc_mode(options_GcMode mode, char *err, size_t err_size);

/* Creates the state, opens the standard libraries and applies [mode].
 * [memory_limit_mb] 0 means no limit. The backend_State must stay at the
 * same address while the state lives: the allocator points to it.
 * Returns 1, or 0 with a message in [err]. */
int backend_open(backend_State *b, options_GcMode mode, double memory_limit_mb,
                 uint64_t (*clock_ns)(void), char *err, size_t err_size);
void backend_close(backend_State *b);

/* 1 when every collection is timed by the host: the collector only runs in
 * idle steps and engine.gc calls. Stock backends in the other modes collect
 * inside allocation, where nothing can time them. */
int backend_gc_reported(const backend_State *b);

/* idle-stepped mode: steps the collector until [budget_ms] is spent or a
 * cycle ends; other modes do nothing. [*gc_ms] gets the time spent in steps.
 * A step can run __gc finalizers; if one fails (LuaJIT propagates their
 * errors) the message is left on the stack and the result is 0. */
int backend_idle_gc(backend_State *b, double budget_ms, double *gc_ms);

#endif /* HOST_BACKEND_H */
