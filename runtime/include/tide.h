/*
 * tide.h — what libtide offers beyond Lua 5.4's API: control over the
 * collector, per-frame statistics, GC handles, collector events and trace
 * files.
 *
 * Nothing in lua.h, lauxlib.h or lualib.h includes this header; a program
 * that wants the extensions includes it itself. Code that must also build
 * against stock Lua tests for it first — Tide's lua.h defines
 * TIDE_VERSION_NUM:
 *
 *     #include "lua.h"
 *     #ifdef TIDE_VERSION_NUM
 *     #include "tide.h"
 *     #endif
 *
 * Which OS thread may call
 *
 *   A state is used by one OS thread at a time — call it the mutator — and
 *   every function here must be called by the mutator unless its comment
 *   says "any thread". [L] may be any thread (coroutine) of the state; the
 *   settings and statistics belong to the whole state, not to [L].
 *   "Any thread" means any OS thread, at any moment, even while the
 *   mutator runs Lua code and while the collector's worker is marking.
 *
 * What may collect, and what may run Lua code
 *
 *   Each function says whether it may do collector work (and so stop the
 *   world for a pause, or move objects) and whether it may run Lua code.
 *   The only Lua code the collector runs is finalizers (__gc
 *   metamethods). Tide runs finalizers on the mutator thread and only at
 *   points where the host expects work:
 *   - once the host has called tide_frame_begin, only in tide_frame_begin,
 *     tide_gc_idle, lua_gc(LUA_GCCOLLECT or LUA_GCSTEP) and lua_close;
 *   - before that (a program that does not drive frames, such as one
 *     written for stock Lua), also during collection steps that
 *     allocations trigger, as stock Lua does.
 *   An error in a finalizer becomes a warning (lua_WarnFunction) and the
 *   collector goes on, as in stock Lua; none of the functions here raise
 *   Lua errors.
 *
 * Times
 *
 *   Durations are in nanoseconds. Points in time are nanoseconds of
 *   CLOCK_MONOTONIC, the clock clock_gettime(CLOCK_MONOTONIC, ...) reads,
 *   so a host can compare them with its own frame timestamps.
 */
#ifndef TIDE_H
#define TIDE_H

#include <stddef.h>
#include <stdint.h>

#include "lua.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Tide's own functions are exported like the Lua API's. */
#define TIDE_API LUA_API

/*=========================================================================
 * Version
 */

/* MAJOR * 10000 + MINOR * 100 + PATCH: 0.1.0. (lua.h defines the same
 * number, so that "#ifdef TIDE_VERSION_NUM" works before this header.) */
#define TIDE_VERSION_NUM 100
#define TIDE_VERSION_STRING "0.1.0"
#define TIDE_VERSION "Tide " TIDE_VERSION_STRING

/*=========================================================================
 * Low-latency mode
 */

/*
 * Allows or forbids synchronous major collections, and returns the
 * previous setting (1 allowed, 0 forbidden). They are allowed when a state
 * is created.
 *
 * Forbidding them ([allow] 0) is low-latency mode, meant to be switched on
 * for the part of a game where a long pause would show (typically a
 * level) and off again in a loading screen:
 * - the collector never stops the world for a whole major collection and
 *   never compacts (evacuates) the major heap; the pauses left are nursery
 *   collections and the short initial and final pauses of a concurrent
 *   major cycle;
 * - lua_gc(L, LUA_GCCOLLECT) and collectgarbage("collect") start a
 *   concurrent cycle, if none is running, and return without waiting;
 * - if allocation outruns concurrent marking, the heap grows past its
 *   target instead of pausing. Only when it reaches the hard limit set by
 *   tide_gc_set_heap_limit does the collector report
 *   TIDE_GC_EVENT_HEAP_LIMIT and stop the world
 *   (TIDE_GC_PAUSE_EMERGENCY).
 *
 * Allowing them again ([allow] nonzero) does no work by itself; the
 * collector catches up later, for instance with a compacting collection
 * at the next tide_gc_idle that has the budget for it.
 *
 * Never collects, runs no Lua code. Mutator only.
 */
TIDE_API int tide_gc_allow_synchronous_major(lua_State *L, int allow);

/*=========================================================================
 * Frames
 *
 * A host that runs frames tells the runtime where each one begins and
 * ends, and gives it the idle time left before the next one is due. The
 * runtime then puts its pauses at frame boundaries when it can afford to
 * wait, spends idle time on sweeping, marking and finalizers, and counts
 * every pause against the frame it fell in (tide_gc_frame_stats).
 *
 * The expected loop:
 *
 *     tide_frame_begin(L);
 *     ... input, update, draw (Lua code) ...
 *     tide_frame_end(L);
 *     present();
 *     tide_gc_idle(L, ns_until_next_frame - safety_margin);
 *     tide_gc_frame_stats(L, &stats);
 *
 * A frame's statistics cover two windows: the frame itself, from
 * tide_frame_begin to tide_frame_end, and its idle time, from
 * tide_frame_end to the next tide_frame_begin.
 */

/*
 * Opens a new frame, numbered one more than the last (the first is 1),
 * with its statistics at zero. If a frame is still open, ends it first, as
 * tide_frame_end would.
 *
 * May collect: a pause the collector put off until a frame boundary (the
 * initial or final pause of a major cycle, or a nursery collection) may
 * run here, and counts as a pause of the new frame. May run finalizers,
 * within a small budget. Mutator only, and not from inside a call into the
 * state (a C function that Lua called must not call it).
 */
TIDE_API void tide_frame_begin(lua_State *L);

/*
 * Ends the open frame: its pause and allocation counts are final from
 * here; its idle time begins. Does no collector work and runs no code, so
 * it adds nothing to the frame's time. Does nothing if no frame is open.
 * Mutator only.
 */
TIDE_API void tide_frame_end(lua_State *L);

/*
 * Gives the collector up to [budget_ns] of the mutator's time for work
 * that would otherwise land in a frame: lazy sweeping, giving large freed
 * blocks back to the allocator, marking the collector's worker has not
 * finished, pending finalizers, and a pause that fits in what is left of
 * the budget. While the worker thread is
 * marking, the rest of the budget is spent waiting for it (asleep, not
 * spinning), so that the final pause can come here rather than in the
 * next frame. Returns when there is nothing left to do or the budget is
 * spent; a piece of work already started is finished first, so it may
 * overrun by one piece (sweeping one block; or one finalizer, whose Lua
 * code takes as long as it takes). Returns at once if [budget_ns] is 0.
 *
 * The time spent working (not the time spent waiting for the worker)
 * counts as idle_gc_ns of the last frame (tide_gc_frame_stats), and pauses
 * taken here count there too, not as pauses of a frame.
 *
 * May collect and run finalizers. Mutator only. If a call into the state
 * is in progress (it was called from a C function that Lua called), it
 * runs no finalizers.
 */
TIDE_API void tide_gc_idle(lua_State *L, uint64_t budget_ns);

/*=========================================================================
 * Statistics
 */

/* Phases of a major collection cycle, as tide_FrameStats.phase and
 * tide_GcEvent.phase report them. Nursery collections are not phases: they
 * happen in any phase. */
typedef enum tide_GcPhase {
    TIDE_GC_PHASE_IDLE = 0,     /* no major cycle is running */
    TIDE_GC_PHASE_INITIAL_MARK, /* the initial pause: the world is stopped
                                   while the roots are greyed */
    TIDE_GC_PHASE_MARKING,      /* concurrent marking: the worker marks
                                   while the program runs */
    TIDE_GC_PHASE_FINAL_MARK,   /* the final pause: the world is stopped
                                   while marking finishes and weak tables,
                                   ephemerons and finalizable objects are
                                   settled */
    TIDE_GC_PHASE_SWEEPING,     /* dead objects of the major heap are being
                                   reclaimed, lazily, block by block */
    TIDE_GC_PHASE_SYNC_MAJOR,   /* a synchronous major collection: the world
                                   is stopped for the whole mark (and any
                                   compaction) */
    TIDE_GC_PHASE_COUNT         /* the number of phases */
} tide_GcPhase;

/*
 * The name of [phase] — "idle", "initial-mark", "marking", "final-mark",
 * "sweeping", "sync-major" — or "unknown" for a value that is not a
 * phase. A static string, never NULL. Any thread.
 */
TIDE_API const char *tide_gc_phase_name(int phase);

/*
 * What the collector did in one frame (see "Frames" for the two windows).
 * Later versions of Tide may add fields at the end.
 */
typedef struct tide_FrameStats {
    uint64_t frame;             /* the frame's number (1 for the first);
                                   0 if no frame has begun */
    uint32_t pauses;            /* world-stopping pauses during the frame,
                                   of every kind (tide_GcPauseKind) */
    uint32_t minor_pauses;      /* how many of those were nursery
                                   collections */
    uint64_t pause_ns;          /* the pauses' total duration */
    uint64_t max_pause_ns;      /* the longest pause's duration */
    uint64_t idle_gc_ns;        /* time spent in tide_gc_idle during the
                                   frame's idle time, so far */
    uint64_t allocated_bytes;   /* bytes the program allocated during the
                                   frame */
    uint64_t promoted_bytes;    /* bytes copied out of the nursery into the
                                   major heap during the frame and its idle
                                   time, so far */
    uint64_t heap_bytes;        /* memory in use by the state when the
                                   statistics were read: lua_gc's
                                   LUA_GCCOUNT, in bytes */
    uint32_t finalizers_run;    /* finalizers run during the frame and its
                                   idle time, so far */
    int phase;                  /* the phase (tide_GcPhase) when the
                                   statistics were read */
} tide_FrameStats;

/*
 * Fills *[out] with the statistics of the open frame, or, between
 * tide_frame_end and the next tide_frame_begin, of the frame that ended
 * (its idle figures still growing), and returns 1. Before the first
 * tide_frame_begin, fills *[out] with zero counts, the current heap_bytes
 * and phase, and returns 0.
 *
 * Never collects, runs no code. Mutator only.
 */
TIDE_API int tide_gc_frame_stats(lua_State *L, tide_FrameStats *out);

/*
 * The pacer's view: when the next major cycle begins, and the rates it
 * decided that from. The old generation (old_bytes: objects that survived
 * a nursery collection or were born old, and the collector's own blocks)
 * may grow to target_bytes before a cycle must be over; a cycle begins at
 * trigger_bytes, early enough that at the measured rates its mark and
 * final pause end before the target (at the first frame boundary past the
 * trigger, when the program drives frames). Until a concurrent cycle has
 * measured the mark rate, and when marking runs on the calling thread,
 * the trigger is halfway from live_bytes to the target and measured is 0.
 * Later versions of Tide may add fields at the end.
 */
typedef struct tide_GcPacing {
    size_t old_bytes;           /* the old generation now */
    size_t live_bytes;          /* ... right after the last cycle's sweep */
    size_t target_bytes;        /* where the next cycle must have ended */
    size_t trigger_bytes;       /* where it begins */
    size_t hard_limit_bytes;    /* tide_gc_set_heap_limit's, 0 = none */
    double grow_bytes_per_s;    /* the old generation's growth, smoothed */
    double mark_bytes_per_s;    /* live bytes a concurrent mark covers per
                                   second of wall time, smoothed; 0 = not
                                   measured yet */
    uint64_t frame_ns;          /* time between frame beginnings, smoothed;
                                   0 = the program drives no frames */
    int measured;               /* 1 = trigger_bytes comes from the rates */
} tide_GcPacing;

/*
 * Fills *[out] with the pacer's view and returns 1 (0 if [out] is NULL).
 *
 * Never collects, runs no code. Mutator only.
 */
TIDE_API int tide_gc_pacing(lua_State *L, tide_GcPacing *out);

/*=========================================================================
 * GC handles
 *
 * A handle keeps a Lua value for C code outside any stack, like a
 * luaL_ref but with no table to manage, and with weak variants. A handle
 * is a small nonzero integer, valid in the state that made it until
 * tide_handle_free; TIDE_HANDLE_NONE (0) is never a handle. Handles live in
 * a lock-free table, so no handle function takes a lock or waits for the
 * collector's worker; the collector updates them when objects move, so a
 * handle, unlike a pointer, stays right.
 *
 * Freeing works from any thread, which is what a game engine needs: an
 * engine object that holds a handle may be destroyed on any of the
 * engine's threads. Creating and pushing read and write [L]'s stack, so,
 * like every lua_* function, they are called by the mutator.
 *
 * Who owns what: the handle belongs to the C code that created it, which
 * must free it exactly once. A strong handle keeps its value alive until
 * then. lua_close frees every handle of the state; they must not be used
 * or freed after it.
 */
typedef uint32_t tide_Handle;

#define TIDE_HANDLE_NONE ((tide_Handle)0)

/*
 * Creates a strong handle to the value at acceptable index [idx] (which
 * stays on the stack); any value may be held, nil included. Returns the
 * handle, or TIDE_HANDLE_NONE if memory for the handle table runs out.
 *
 * Never raises, never collects, runs no code. Mutator only.
 */
TIDE_API tide_Handle tide_handle_new(lua_State *L, int idx);

/*
 * Creates a weak handle to the value at acceptable index [idx]: it does not
 * keep the value alive. When the collector finds the object unreachable
 * except through weak references, the handle is cleared and pushes nil
 * from then on:
 * - with [track_resurrection] 0, as soon as that is found, before any
 *   finalizer of the object runs (as a weak value in a weak table is
 *   cleared);
 * - with [track_resurrection] nonzero, only when the object is actually
 *   freed: while the object waits for or runs its finalizer the handle
 *   still gives it, and if the finalizer makes it reachable again the
 *   handle stays set (as a weak key in a weak table behaves).
 * Values that are never collected (nil, booleans, numbers, light userdata,
 * light C functions) and strings are never cleared, as in weak tables.
 * Returns the handle, or TIDE_HANDLE_NONE if memory runs out.
 *
 * Never raises, never collects, runs no code. Mutator only.
 */
TIDE_API tide_Handle tide_handle_new_weak(lua_State *L, int idx, int track_resurrection);

/*
 * Pushes the value of handle [h] — nil for a cleared weak handle or for
 * TIDE_HANDLE_NONE — and returns its type tag (LUA_TNIL ... LUA_TTHREAD).
 * Needs one free stack slot, like any push. [h] must not have been freed.
 *
 * Never raises, never collects, runs no code. Mutator only. [-0, +1, -]
 */
TIDE_API int tide_handle_push(lua_State *L, tide_Handle h);

/*
 * Frees handle [h]: a strong handle stops keeping its value alive, and
 * the number may be given to a later handle. TIDE_HANDLE_NONE is ignored;
 * freeing a handle twice is an error that debug builds detect. [L] only
 * names the state: any of its threads will do.
 *
 * Never collects, runs no code, takes no lock. Any thread.
 */
TIDE_API void tide_handle_free(lua_State *L, tide_Handle h);

/*=========================================================================
 * Tuning
 */

/* The nursery's size when a state is created, and the smallest size
 * tide_gc_set_nursery_size accepts. */
#define TIDE_GC_NURSERY_DEFAULT_SIZE ((size_t)4 * 1024 * 1024)
#define TIDE_GC_NURSERY_MIN_SIZE ((size_t)64 * 1024)

/*
 * Sets the nursery's size to [bytes] (0: TIDE_GC_NURSERY_DEFAULT_SIZE),
 * possibly rounded up to the collector's block size: the most that is
 * allocated between two nursery collections. A larger nursery means fewer
 * nursery collections, each about as long where little survives (their
 * cost follows what survives, not the size); a smaller one means less
 * memory. The pause target below may use less of it. Runs a nursery
 * collection first (the old region must be empty); the new region is used
 * from then on. Returns 1 if the size was accepted, 0 if it is below
 * TIDE_GC_NURSERY_MIN_SIZE, above the heap limit, something in the old
 * region is pinned, or the memory cannot be obtained — the nursery then
 * keeps its size.
 *
 * Runs no code. Mutator only.
 */
TIDE_API int tide_gc_set_nursery_size(lua_State *L, size_t bytes);

/* The nursery collection's pause target when a state is created. A third
 * under the 1 ms a frame can spare: pauses aimed at it vary by up to 2x on
 * a shared machine, and the budget's bound (twice the target at the worst
 * cost per byte seen lately) stays under 1 ms too. (At 0.5 ms,
 * samples/world made 1-5 nursery collections over 0.8 ms in 900 frames;
 * at 0.35, none, in the same time in all.) */
#define TIDE_GC_MINOR_PAUSE_TARGET_DEFAULT_NS ((uint64_t)350 * 1000)

/*
 * Sets the pause a nursery collection aims at, in nanoseconds; returns the
 * previous target. Where much of what is allocated survives (fresh objects
 * stored into old ones at once), a collection after a whole nursery copies
 * most of it; the collector then collects after fewer bytes, measured from
 * the last collections' cost per byte, so that each pause stays near the
 * target: more collections, each shorter, about the same time in all.
 * Where little survives the whole nursery is used. 0 turns this off: every
 * nursery collection waits for the whole nursery.
 *
 * Never collects, runs no code. Mutator only.
 */
TIDE_API uint64_t tide_gc_set_minor_pause_target(lua_State *L, uint64_t target_ns);

/*
 * Sets the most memory the state may use, in bytes, counted as lua_gc's
 * LUA_GCCOUNT counts it (all memory obtained through the state's
 * allocator); 0, the default, means no limit. When an allocation would go
 * past the limit:
 *   1. the event callback receives TIDE_GC_EVENT_HEAP_LIMIT;
 *   2. the collector runs an emergency synchronous major collection
 *      (TIDE_GC_PAUSE_EMERGENCY) — even in low-latency mode;
 *   3. if the allocation still does not fit, it fails: the code that
 *      allocated gets a memory error ("not enough memory", LUA_ERRMEM), as
 *      when the allocator returns NULL.
 * A limit below the memory in use takes effect at the next allocation.
 *
 * Never collects by itself, runs no code. Mutator only.
 */
TIDE_API void tide_gc_set_heap_limit(lua_State *L, size_t hard_limit_bytes);

/*=========================================================================
 * Events
 */

/* What a tide_GcEvent reports. */
typedef enum tide_GcEventKind {
    TIDE_GC_EVENT_PAUSE = 0,  /* a world-stopping pause ended */
    TIDE_GC_EVENT_PHASE,      /* the major cycle moved to another phase */
    TIDE_GC_EVENT_HEAP_LIMIT  /* an allocation reached the heap limit */
} tide_GcEventKind;

/* Kinds of world-stopping pauses. */
typedef enum tide_GcPauseKind {
    TIDE_GC_PAUSE_NONE = 0,     /* not a pause event */
    TIDE_GC_PAUSE_MINOR,        /* a nursery collection */
    TIDE_GC_PAUSE_INITIAL_MARK, /* the start of a concurrent major cycle */
    TIDE_GC_PAUSE_FINAL_MARK,   /* the end of concurrent marking */
    TIDE_GC_PAUSE_SYNC_MAJOR,   /* a whole major collection, world stopped:
                                   asked for (LUA_GCCOLLECT) or chosen by the
                                   collector while that is allowed */
    TIDE_GC_PAUSE_EMERGENCY,    /* a synchronous major collection forced by
                                   the heap limit or a failed allocation */
    TIDE_GC_PAUSE_MARK_STEP,    /* marking done by the program's thread
                                   during a concurrent cycle, because the
                                   marking fell behind allocation */
    TIDE_GC_PAUSE_SWEEP_STEP,   /* lazy sweeping done by the program's
                                   thread in a frame, paced by allocation */
    TIDE_GC_PAUSE_STACK_STEP    /* a slice of a deep stack looked at by the
                                   program's thread between nursery
                                   collections, so that the next one need
                                   not (reported from 4096 slots up) */
} tide_GcPauseKind;

/* One event. */
typedef struct tide_GcEvent {
    int kind;             /* a tide_GcEventKind */
    int pause_kind;       /* for TIDE_GC_EVENT_PAUSE, a tide_GcPauseKind;
                             otherwise TIDE_GC_PAUSE_NONE */
    int phase;            /* the phase after the event (tide_GcPhase) */
    int previous_phase;   /* for TIDE_GC_EVENT_PHASE, the phase before;
                             otherwise the same as phase */
    int in_idle;          /* 1 if it happened inside tide_gc_idle */
    int low_latency;      /* 1 if synchronous majors were forbidden then
                             (tide_gc_allow_synchronous_major(L, 0)): a
                             pause the low-latency limits apply to */
    uint64_t start_ns;    /* when the pause began, the phase changed or the
                             limit was reached (CLOCK_MONOTONIC) */
    uint64_t duration_ns; /* for TIDE_GC_EVENT_PAUSE, the pause's length;
                             otherwise 0 */
    uint64_t frame;       /* the frame it happened in or, in idle time,
                             after (tide_FrameStats.frame); 0 before the
                             first frame */
    uint64_t heap_bytes;  /* memory in use by the state after the event */
    uint64_t cpu_ns;      /* for TIDE_GC_EVENT_PAUSE, the processor time the
                             game's thread had in the pause
                             (CLOCK_THREAD_CPUTIME_ID): duration_ns less
                             the time the system took the thread off its
                             processor meanwhile (another thread run in
                             its place, a wait); otherwise 0 */
} tide_GcEvent;

/*
 * Receives events; [ud] is the pointer given with it. [event] is valid
 * only during the call.
 *
 * It is called on the mutator thread, never on the collector's worker:
 * for a pause, once the pause has ended (so the callback's own time is not
 * counted in the pause, though it is in the frame); for something the
 * worker notices (say, the end of concurrent marking), at the mutator's
 * next safe point — start_ns still tells when it happened. It may be
 * called from inside an allocation in the middle of Lua code, so it must
 * not call any lua_*, luaL_* or tide_* function on the state, must not
 * raise or longjmp, and should only record the event and return.
 */
typedef void (*tide_GcEventFn)(void *ud, const tide_GcEvent *event);

/*
 * Sets the event callback [fn] with [ud], replacing any previous one;
 * [fn] NULL removes it. It then receives one TIDE_GC_EVENT_PAUSE for
 * every pause, one TIDE_GC_EVENT_PHASE for every phase change and one
 * TIDE_GC_EVENT_HEAP_LIMIT each time the limit is reached — but nothing
 * during lua_close.
 *
 * Never collects, runs no code. Mutator only.
 */
TIDE_API void tide_gc_set_event_callback(lua_State *L, tide_GcEventFn fn, void *ud);

/*=========================================================================
 * Trace files
 *
 * A trace file records what the collector did, in the Chrome trace-event
 * JSON format that Perfetto (ui.perfetto.dev) and chrome://tracing open:
 * a span per pause (named by its kind: "minor", "sync-major",
 * "emergency", ...; args: frame, heap bytes before and after, in_idle), a
 * span per collector phase other than "idle" and an instant per phase
 * change, a span per frame (tide_frame_begin to tide_frame_end) and per
 * tide_gc_idle call, an instant per heap-limit event, and a "heap" counter.
 * Timestamps are CLOCK_MONOTONIC, in microseconds as the format wants.
 *
 * Setting the environment variable TIDE_GC_TRACE to a path opens a trace
 * there for every state created (lua_newstate); a file that cannot be
 * opened is reported on stderr and the state is created without a trace.
 *
 * Writing is buffered and never calls Lua; whenever the trace writes to the
 * file (every second or so, and at close), the file is a complete JSON
 * document, {"traceEvents":[...]}, so a program that exits without
 * lua_close loses at most the last second of events (on a file that can
 * seek; on a pipe, the document is complete only after close). The trace's
 * memory comes from malloc, not the state's allocator, and does not count
 * against the heap limit. If writing fails (disk full), the trace stops
 * recording and the file keeps what was written.
 */

/*
 * Opens [path] as the state's trace file, truncating it, and starts
 * recording. A trace already open is completed and closed first. Returns
 * 0, or, if the file cannot be created or written, an errno value (never
 * 0) and changes nothing: a trace that was open stays open.
 *
 * Never collects, runs no code. Mutator only.
 */
TIDE_API int tide_gc_trace_open(lua_State *L, const char *path);

/*
 * Completes and closes the state's trace file, if one is open. lua_close
 * does it too (nothing that happens during lua_close is recorded).
 *
 * Never collects, runs no code. Mutator only.
 */
TIDE_API void tide_gc_trace_close(lua_State *L);

#ifdef __cplusplus
}
#endif

#endif
