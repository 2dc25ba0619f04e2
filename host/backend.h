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
#include "recorder.h"

typedef struct backend_Memory {
    size_t in_use;              /* bytes the state holds now */
    size_t peak;                /* most it ever held */
    uint64_t total_allocated;   /* bytes handed out over the run (growth only) */
    size_t limit;               /* 0: none; else allocation past it fails */
} backend_Memory;

/* What the collector did in the frame that just ended, as far as the
 * backend can tell; filled in by backend_frame_end. */
typedef struct backend_FrameGc {
    int exact;                  /* 1: the runtime timed every pause (tide) */
    uint64_t pause_ns;          /* exact: the frame's pauses in all */
    uint64_t max_pause_ns;      /* exact: its longest pause */
    int phase;                  /* exact: tide_GcPhase when the frame ended */
} backend_FrameGc;

typedef struct backend_State {
    lua_State *L;
    backend_Memory memory;
    options_GcMode gc_mode;
    uint64_t (*clock_ns)(void);
    int idle_step_ref;          /* registry ref of the protected idle stepper */
    backend_FrameGc frame_gc;   /* of the last frame that ended */
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

/* 1 if this backend writes a collector trace (--gc-trace: tide only); else
 * 0 and why, in [err]. */
int backend_supports_gc_trace(char *err, size_t err_size);

/* Writes the collector's trace file, Chrome trace-event JSON (tide.h:
 * tide_gc_trace_open), to [path] until backend_close. Returns 1, or 0 with
 * why in [err]. */
int backend_trace_gc(backend_State *b, const char *path, char *err, size_t err_size);

/* Records every pause of the collector into [log] from now on, where the
 * runtime reports them one by one (tide: tide_gc_set_event_callback; the
 * callback only appends to [log], see recorder_PauseLog), and returns 1;
 * [log] must outlive the state. Returns 0, leaving [log] unobservable, on
 * the stock backends, whose collectors do not report their pauses. Call
 * recorder_reserve_pauses between frames. */
int backend_record_pauses(backend_State *b, recorder_PauseLog *log);

/* 1 when every collection is timed by the host: the collector only runs in
 * idle steps and engine.gc calls. Stock backends in the other modes collect
 * inside allocation, where nothing can time them. */
int backend_gc_reported(const backend_State *b);

/* The collector's pacer now (tide_gc_pacing); 0, and out->known 0, where
 * the backend has none. */
int backend_gc_pacing(const backend_State *b, recorder_Pacing *out);

/* Where a frame begins and ends, for a runtime that schedules and counts
 * its pauses by frame (tide: tide_frame_begin/tide_frame_end). No-ops on
 * the stock backends. backend_frame_begin may collect (a pause put off to
 * the frame boundary), so it belongs inside the frame's time; it must not
 * be called from inside a call into the state. backend_frame_end fills in
 * b->frame_gc. */
void backend_frame_begin(backend_State *b);
void backend_frame_end(backend_State *b);

/* The GC time inside the frame that just ended, in ms. Tide: the pauses
 * its runtime counted in the frame (engine.gc calls included: they
 * collect in pauses too). Stock backends cannot see their collector inside
 * allocation, so: [engine_gc_ms], the time of the frame's engine.gc calls. */
double backend_frame_gc_ms(const backend_State *b, double engine_gc_ms);

/* The collector's phase when the frame ended ("idle", "marking", ...), or
 * NULL where the backend cannot tell (stock Lua and LuaJIT keep it
 * internal). */
const char *backend_gc_phase(const backend_State *b);

/* The collector mode the host set up ("incremental", "generational",
 * "stopped" in idle-stepped mode, "low-latency"). A script may switch a
 * stock collector with collectgarbage() without the host knowing. */
const char *backend_gc_mode_label(const backend_State *b);

/* The idle time after a frame, [budget_ms] of it for the collector.
 * idle-stepped mode (every backend): steps the collector until the budget
 * is spent or a cycle ends. Tide in its other modes: tide_gc_idle, which
 * sweeps, runs finalizers and takes a due collection when it fits. Stock
 * backends in their other modes: nothing. [*gc_ms] gets the time spent.
 * A step can run __gc finalizers; if one fails (LuaJIT propagates their
 * errors) the message is left on the stack and the result is 0 (tide_gc_idle
 * turns finalizer errors into warnings and never fails). */
int backend_idle_gc(backend_State *b, double budget_ms, double *gc_ms);

#endif /* HOST_BACKEND_H */
