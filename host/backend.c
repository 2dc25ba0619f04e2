/*
 * backend.c — creating the Lua state on the backend this host was built for,
 * its counting allocator, and the collector modes (see backend.h).
 *
 * This is the only file that looks at TIDE_HOST_BACKEND_*. Each backend is
 * one branch of the `traits` block below; everything else is written
 * against the calls that the Lua 5.4 and 5.1 (LuaJIT) APIs share, with
 * engine_compat.h covering the collector calls whose signatures differ.
 */
#include "backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lauxlib.h"
#include "lualib.h"

#include "engine_compat.h"

/* What differs between backends, beyond the API itself. */
typedef struct backend_Traits {
    const char *name;
    int has_generational;       /* a generational collector mode exists */
    int times_own_collector;    /* pauses inside allocation can be reported */
    int has_low_latency;        /* tide.h's low-latency mode */
} backend_Traits;

#if defined(TIDE_HOST_BACKEND_LUA54)
static const backend_Traits traits = { "lua5.4", 1, 0, 0 };
#elif defined(TIDE_HOST_BACKEND_LUAJIT)
static const backend_Traits traits = { "luajit", 0, 0, 0 };
#elif defined(TIDE_HOST_BACKEND_TIDE)
#include "tide.h"
/* The runtime counts every pause against the frame it fell in (the host
 * drives tide_frame_begin/end), so its collector is timed in every mode. */
static const backend_Traits traits = { "tide", 1, 1, 1 };
#else
#error "build with one of TIDE_HOST_BACKEND_LUA54, TIDE_HOST_BACKEND_LUAJIT, TIDE_HOST_BACKEND_TIDE"
#endif

const char *backend_name(void)
{
    return traits.name;
}

int backend_supports_gc_mode(options_GcMode mode, char *err, size_t err_size)
{
    if (mode == OPTIONS_GC_GENERATIONAL && !traits.has_generational) {
        snprintf(err, err_size, "--gc generational: the %s backend has no generational "
                 "collector (use default, incremental or idle-stepped)", traits.name);
        return 0;
    }
    if (mode == OPTIONS_GC_LOW_LATENCY && !traits.has_low_latency) {
        snprintf(err, err_size, "--gc low-latency: only the tide backend has a low-latency "
                 "mode (this is the %s backend)", traits.name);
        return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------- allocator */

/* The lua_Alloc of every state: counts, and fails growth past the limit.
 * A NULL [ptr] means a new block, whatever [osize] says (5.4 puts the
 * object's type there). Shrinking never fails, as Lua requires. */
static void *counting_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    backend_Memory *m = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        m->in_use -= old;
        return NULL;
    }
    if (nsize > old && m->limit != 0 && m->in_use - old + nsize > m->limit) return NULL;
    void *block = realloc(ptr, nsize);
    if (block == NULL) {
        if (nsize <= old) return ptr; /* a failed shrink: keep the larger block */
        return NULL;
    }
    m->in_use = m->in_use - old + nsize;
    if (nsize > old) m->total_allocated += nsize - old;
    if (m->in_use > m->peak) m->peak = m->in_use;
    return block;
}

/* An error outside any protected call has nowhere to go: say what it was.
 * Lua aborts the process when this returns. */
static int report_panic(lua_State *L)
{
    const char *message = lua_tostring(L, -1);
    fprintf(stderr, "%s: unprotected Lua error: %s\n", traits.name,
            message ? message : "(not a string)");
    return 0;
}

/* ---------------------------------------------------------------- gc modes */

/* Runs protected: argument 1 is a light pointer to the idle_Step. */
typedef struct idle_Step {
    backend_State *backend;
    double budget_ms;
    double spent_ms;
} idle_Step;

/* Small steps, each timed, until the budget is gone or a cycle completes
 * (then the heap holds nothing more to collect until the next frame). A
 * step cannot be cut short, so none starts when the longest one seen so
 * far would not fit in what is left: the budget is overrun by at most the
 * amount one step exceeds the longest before it. */
static int step_until_budget(lua_State *L)
{
    idle_Step *step = lua_touserdata(L, 1);
    uint64_t (*clock_ns)(void) = step->backend->clock_ns;
    double longest_ms = 0;
    while (step->spent_ms + longest_ms < step->budget_ms) {
        uint64_t start = clock_ns();
        int finished_cycle = engine_gc_step(L, 0);
        double step_ms = (double)(clock_ns() - start) / 1e6;
        step->spent_ms += step_ms;
        if (step_ms > longest_ms) longest_ms = step_ms;
        if (finished_cycle) break;
    }
    /* A step restarts LuaJIT's collector (it resets the threshold). */
    engine_gc_stop(L);
    return 0;
}

static void apply_gc_mode(backend_State *b)
{
    switch (b->gc_mode) {
    case OPTIONS_GC_DEFAULT:
        break;
    case OPTIONS_GC_INCREMENTAL:
        engine_gc_set_generational(b->L, 0);
        break;
    case OPTIONS_GC_GENERATIONAL:
        engine_gc_set_generational(b->L, 1);
        break;
    case OPTIONS_GC_IDLE_STEPPED:
        engine_gc_set_generational(b->L, 0);
        engine_gc_stop(b->L);
        break;
    case OPTIONS_GC_LOW_LATENCY:
#if defined(TIDE_HOST_BACKEND_TIDE)
        tide_gc_allow_synchronous_major(b->L, 0);
#endif
        break; /* refused on the other backends (backend_supports_gc_mode) */
    }
}

/* Opens the libraries and keeps the idle stepper in the registry, so that
 * calling it later allocates nothing (LuaJIT allocates a closure for every
 * lua_pushcfunction). Runs protected: a tight memory limit fails here. */
static int prepare_state(lua_State *L)
{
    luaL_openlibs(L);
    lua_pushcfunction(L, step_until_budget);
    lua_pushinteger(L, luaL_ref(L, LUA_REGISTRYINDEX));
    return 1;
}

int backend_open(backend_State *b, options_GcMode mode, double memory_limit_mb,
                 uint64_t (*clock_ns)(void), char *err, size_t err_size)
{
    memset(b, 0, sizeof *b);
    b->gc_mode = mode;
    b->clock_ns = clock_ns;
    b->idle_step_ref = LUA_NOREF;
    if (memory_limit_mb > 0) b->memory.limit = (size_t)(memory_limit_mb * 1024 * 1024);
    b->L = lua_newstate(counting_alloc, &b->memory);
    if (b->L == NULL) {
        snprintf(err, err_size, "cannot create a %s state (memory limit %.3g MB too small?)",
                 traits.name, memory_limit_mb);
        return 0;
    }
    lua_atpanic(b->L, report_panic);
    lua_pushcfunction(b->L, prepare_state);
    if (lua_pcall(b->L, 0, 1, 0) != LUA_OK) {
        snprintf(err, err_size, "cannot open the standard libraries: %s",
                 lua_tostring(b->L, -1));
        backend_close(b);
        return 0;
    }
    b->idle_step_ref = (int)lua_tointeger(b->L, -1);
    lua_pop(b->L, 1);
    apply_gc_mode(b);
    return 1;
}

void backend_close(backend_State *b)
{
    if (b->L != NULL) lua_close(b->L); /* (tide: completes the trace file) */
    b->L = NULL;
}

int backend_supports_gc_trace(char *err, size_t err_size)
{
#if defined(TIDE_HOST_BACKEND_TIDE)
    (void)err, (void)err_size;
    return 1;
#else
    snprintf(err, err_size, "--gc-trace: only the tide backend writes a collector trace "
             "(this is the %s backend)", traits.name);
    return 0;
#endif
}

int backend_trace_gc(backend_State *b, const char *path, char *err, size_t err_size)
{
#if defined(TIDE_HOST_BACKEND_TIDE)
    int error = tide_gc_trace_open(b->L, path);
    if (error == 0) return 1;
    snprintf(err, err_size, "--gc-trace: cannot write '%s': %s", path, strerror(error));
    return 0;
#else
    (void)b, (void)path;
    return backend_supports_gc_trace(err, err_size);
#endif
}

int backend_gc_reported(const backend_State *b)
{
    return traits.times_own_collector || b->gc_mode == OPTIONS_GC_IDLE_STEPPED;
}

/* ---------------------------------------------------------------- pauses */

#if defined(TIDE_HOST_BACKEND_TIDE)
static int pause_kind(int tide_kind)
{
    switch (tide_kind) {
    case TIDE_GC_PAUSE_MINOR: return RECORDER_PAUSE_MINOR;
    case TIDE_GC_PAUSE_INITIAL_MARK: return RECORDER_PAUSE_INITIAL_MARK;
    case TIDE_GC_PAUSE_FINAL_MARK: return RECORDER_PAUSE_FINAL_MARK;
    case TIDE_GC_PAUSE_SYNC_MAJOR: return RECORDER_PAUSE_SYNC_MAJOR;
    case TIDE_GC_PAUSE_EMERGENCY: return RECORDER_PAUSE_EMERGENCY;
    case TIDE_GC_PAUSE_MARK_STEP: return RECORDER_PAUSE_MARK_STEP;
    case TIDE_GC_PAUSE_SWEEP_STEP: return RECORDER_PAUSE_SWEEP_STEP;
    case TIDE_GC_PAUSE_STACK_STEP: return RECORDER_PAUSE_STACK_STEP;
    default: return RECORDER_PAUSE_OTHER;
    }
}

/* The event callback. It may run inside an allocation in the middle of
 * Lua code: it calls nothing on the state, only appends to the log. Tide
 * numbers frames from 1 (0: before the first tide_frame_begin) and the
 * host calls tide_frame_begin once per frame from frame 0, so tide's frame
 * n is the report's frame n - 1. */
static void record_pause_event(void *ud, const tide_GcEvent *event)
{
    if (event->kind != TIDE_GC_EVENT_PAUSE) return;
    recorder_Pause pause = {
        .frame = event->frame > 0 ? (int64_t)event->frame - 1 : -1,
        .start_ns = event->start_ns,
        .duration_ns = event->duration_ns,
        .heap_bytes = event->heap_bytes,
        .kind = pause_kind(event->pause_kind),
        .in_idle = event->in_idle != 0,
        .low_latency = event->low_latency != 0,
        .cpu_ns = event->cpu_ns,
    };
    recorder_add_pause(ud, &pause);
}
#endif

int backend_record_pauses(backend_State *b, recorder_PauseLog *log)
{
#if defined(TIDE_HOST_BACKEND_TIDE)
    /* Without its room reserved the log still works: the callback then
     * allocates its chunks with malloc, and counts what it cannot store. */
    recorder_observe_pauses(log, b->clock_ns());
    tide_gc_set_event_callback(b->L, record_pause_event, log);
    return 1;
#else
    (void)b;
    (void)log;
    return 0;
#endif
}

/* ---------------------------------------------------------------- frames */

void backend_frame_begin(backend_State *b)
{
#if defined(TIDE_HOST_BACKEND_TIDE)
    tide_frame_begin(b->L);
#else
    (void)b;
#endif
}

void backend_frame_end(backend_State *b)
{
    memset(&b->frame_gc, 0, sizeof b->frame_gc);
#if defined(TIDE_HOST_BACKEND_TIDE)
    tide_frame_end(b->L);
    /* Read now, not after the idle time: in idle-stepped mode the host's
     * own lua_gc steps come next, and tide counts pauses outside
     * tide_gc_idle against the last frame; those are idle GC, timed by
     * the stepper. */
    tide_FrameStats stats;
    if (tide_gc_frame_stats(b->L, &stats)) {
        b->frame_gc.exact = 1;
        b->frame_gc.pause_ns = stats.pause_ns;
        b->frame_gc.max_pause_ns = stats.max_pause_ns;
        b->frame_gc.phase = stats.phase;
    }
#endif
}

int backend_gc_pacing(const backend_State *b, recorder_Pacing *out)
{
    memset(out, 0, sizeof *out);
#if defined(TIDE_HOST_BACKEND_TIDE)
    tide_GcPacing p;
    if (b->L == NULL || !tide_gc_pacing(b->L, &p)) return 0;
    const double mib = 1024.0 * 1024.0;
    out->known = 1;
    out->measured = p.measured;
    out->old_mib = (double)p.old_bytes / mib;
    out->live_mib = (double)p.live_bytes / mib;
    out->trigger_mib = (double)p.trigger_bytes / mib;
    out->target_mib = (double)p.target_bytes / mib;
    out->grow_mb_s = p.grow_bytes_per_s / 1e6;
    out->mark_mb_s = p.mark_bytes_per_s / 1e6;
    return 1;
#else
    (void)b;
    return 0;
#endif
}

double backend_frame_gc_ms(const backend_State *b, double engine_gc_ms)
{
    return b->frame_gc.exact ? (double)b->frame_gc.pause_ns / 1e6 : engine_gc_ms;
}

const char *backend_gc_phase(const backend_State *b)
{
#if defined(TIDE_HOST_BACKEND_TIDE)
    return b->frame_gc.exact ? tide_gc_phase_name(b->frame_gc.phase) : NULL;
#else
    (void)b;
    return NULL;
#endif
}

const char *backend_gc_mode_label(const backend_State *b)
{
    switch (b->gc_mode) {
    case OPTIONS_GC_GENERATIONAL: return "generational";
    case OPTIONS_GC_IDLE_STEPPED: return "stopped";
    case OPTIONS_GC_LOW_LATENCY: return "low-latency";
    /* Lua 5.4 and LuaJIT both start incremental; so does --gc incremental. */
    case OPTIONS_GC_DEFAULT:
    case OPTIONS_GC_INCREMENTAL: break;
    }
#if defined(TIDE_HOST_BACKEND_TIDE)
    /* libtide's lua_gc modes are advisory (its collector is its own), so
     * name the --gc option rather than claim an incremental collector. */
    return options_gc_mode_name(b->gc_mode);
#else
    return "incremental";
#endif
}

/* Tide outside idle-stepped mode: the runtime decides what idle work is
 * worth doing. Returns the time it reports for the frame's idle window,
 * which is what the budget paid for. */
#if defined(TIDE_HOST_BACKEND_TIDE)
static double tide_idle(backend_State *b, double budget_ms)
{
    tide_gc_idle(b->L, (uint64_t)(budget_ms * 1e6));
    tide_FrameStats stats;
    if (!tide_gc_frame_stats(b->L, &stats)) return 0;
    return (double)stats.idle_gc_ns / 1e6;
}
#endif

int backend_idle_gc(backend_State *b, double budget_ms, double *gc_ms)
{
    *gc_ms = 0;
#if defined(TIDE_HOST_BACKEND_TIDE)
    if (b->gc_mode != OPTIONS_GC_IDLE_STEPPED) {
        if (budget_ms > 0) *gc_ms = tide_idle(b, budget_ms);
        return 1;
    }
#endif
    if (b->gc_mode != OPTIONS_GC_IDLE_STEPPED || budget_ms <= 0) return 1;
    idle_Step step = { b, budget_ms, 0 };
    lua_rawgeti(b->L, LUA_REGISTRYINDEX, b->idle_step_ref);
    lua_pushlightuserdata(b->L, &step);
    int status = lua_pcall(b->L, 1, 0, 0);
    *gc_ms = step.spent_ms;
    return status == LUA_OK;
}
