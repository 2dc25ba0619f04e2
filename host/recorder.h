/*
 * recorder.h — what every frame cost, and the reports made from it.
 *
 * The frame loop adds one recorder_Frame per completed frame; at the end the
 * recorder turns the records into distributions (p50/p99/p99.9/max/mean),
 * prints the terminal summary and writes DIR/frames.csv and
 * DIR/summary.json. No SDL, no Lua: the unit tests link this file.
 *
 * Percentiles use the nearest-rank method: the p-th percentile of n sorted
 * values is the value at rank ceil(p/100 * n) (ranks from 1), so it is
 * always one of the recorded values; p99.9 of 1000 frames is the
 * second-largest. Over-budget counts are frames whose frame_ms is strictly
 * greater than 16.7 and 33.3 ms.
 *
 * Where the backend reports its collector's pauses one by one (tide's event
 * callback), the recorder also keeps every pause — the frame it fell in,
 * its kind, duration and the heap after it — in a log that the callback
 * appends to without allocating (see recorder_PauseLog); the report then
 * adds DIR/pauses.csv and a "pauses" object (per kind: count, p50, p99,
 * max, total) to summary.json, and the terminal summary a line per kind.
 */
#ifndef HOST_RECORDER_H
#define HOST_RECORDER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RECORDER_BUDGET_60HZ_MS 16.7
#define RECORDER_BUDGET_30HZ_MS 33.3
#define RECORDER_MAX_ZONES 16
#define RECORDER_ZONE_NAME_MAX 32

/* One frame. Times in milliseconds, memory in KiB. */
typedef struct recorder_Frame {
    double frame_ms;      /* update + draw + present */
    double update_ms;
    double draw_ms;
    double present_ms;    /* drawing the commands with SDL_Renderer */
    double gc_ms;         /* GC inside the frame that the backend could time */
    double idle_gc_ms;    /* GC steps in the idle time after the frame */
    double mem_kb;        /* script heap in use at the end of the frame */
    double alloc_kb;      /* bytes the script allocated during the frame */
} recorder_Frame;

typedef struct recorder_Stats {
    double p50, p99, p999, max, mean;
} recorder_Stats;

/* Kinds of collector pauses, in the order the summaries list them. */
typedef enum recorder_PauseKind {
    RECORDER_PAUSE_MINOR = 0,     /* "minor": a nursery collection */
    RECORDER_PAUSE_INITIAL_MARK,  /* "initial-mark": a concurrent cycle starts */
    RECORDER_PAUSE_FINAL_MARK,    /* "final-mark": concurrent marking ends */
    RECORDER_PAUSE_SYNC_MAJOR,    /* "sync-major": a whole major collection */
    RECORDER_PAUSE_EMERGENCY,     /* "emergency": forced by the heap limit */
    RECORDER_PAUSE_MARK_STEP,     /* "mark-step": marking on the program's thread */
    RECORDER_PAUSE_SWEEP_STEP,    /* "sweep-step": lazy sweeping on the program's thread */
    RECORDER_PAUSE_STACK_STEP,    /* "stack-step": a deep stack looked at ahead of a nursery collection */
    RECORDER_PAUSE_OTHER,         /* "other": a kind this host does not know */
    RECORDER_PAUSE_KIND_COUNT
} recorder_PauseKind;

/* One world-stopping pause of the collector. */
typedef struct recorder_Pause {
    int64_t frame;          /* the frame it fell in, as frames.csv numbers
                               them (from 0), or in whose idle time it fell
                               (in_idle); -1 before the first frame (while
                               the game loaded) */
    uint64_t start_ns;      /* when it began (the host's monotonic clock) */
    uint64_t duration_ns;
    uint64_t heap_bytes;    /* memory in use by the state after it */
    int kind;               /* a recorder_PauseKind */
    int in_idle;            /* 1: in the idle time after [frame] */
    int low_latency;        /* 1: synchronous majors were forbidden then */
    uint64_t cpu_ns;        /* the processor time the game's thread had in
                               it: less than duration_ns by the time the
                               system ran something else instead (0: not
                               known) */
} recorder_Pause;

#define RECORDER_PAUSE_CHUNK 1024

typedef struct recorder_PauseChunk {
    struct recorder_PauseChunk *next;
    recorder_Pause pauses[RECORDER_PAUSE_CHUNK];
} recorder_PauseChunk;

/* The pauses of a run, in the order they ended. Stored in chunks of
 * RECORDER_PAUSE_CHUNK that never move, every chunk full but the last, so
 * that the watchdog's thread can read the first n while the main thread
 * appends. recorder_add_pause, which runs inside the collector's event
 * callback (possibly inside an allocation in the middle of Lua code),
 * takes a chunk from [spare] when the last one is full;
 * recorder_reserve_pauses refills [spare] between frames, so the callback
 * allocates only when more than a chunk of pauses falls between two
 * frames (or while the game loads), and then with malloc, never Lua. */
typedef struct recorder_PauseLog {
    int observable;               /* the backend reports its pauses */
    recorder_PauseChunk *head, *tail, *spare;
    size_t count;
    uint64_t lost;                /* pauses not stored: out of memory */
    uint64_t origin_ns;           /* start_ns of pauses.csv's start_ms 0 */
} recorder_PauseLog;

/* Distribution of one kind of pause; times in ms. */
typedef struct recorder_PauseStats {
    size_t count;
    double p50, p99, max, total_ms;
} recorder_PauseStats;

typedef struct recorder_Zone {
    char name[RECORDER_ZONE_NAME_MAX];
    double total_ms;
    uint64_t calls;
} recorder_Zone;

/* The collector's pacer at the end of the run, where the backend has one
 * (tide_gc_pacing); sizes in MiB of the old generation, rates in MB/s. */
typedef struct recorder_Pacing {
    int known;                /* 0: the backend has no pacer to report */
    int measured;             /* 1: the trigger comes from measured rates */
    double old_mib, live_mib, trigger_mib, target_mib;
    double grow_mb_s, mark_mb_s;
} recorder_Pacing;

/* What the run was, for the summary; filled in by the host at the end. */
typedef struct recorder_RunInfo {
    const char *backend;      /* "lua5.4", "luajit", "tide" */
    const char *game;
    const char *gc_mode;
    uint64_t seed;
    int gc_reported;          /* 0: the backend's collector runs untimed inside allocation */
    double total_s;           /* wall time of the run */
    double peak_mem_kb;       /* script heap peak */
    double alloc_total_kb;    /* everything the script allocated */
    long peak_rss_kb;         /* VmHWM; -1 if unknown */
    recorder_Zone zones[RECORDER_MAX_ZONES];
    int zone_count;
    recorder_Pacing pacing;
    const char *error;       /* NULL, or the error that stopped the game */
    size_t pause_count;      /* how many of the recorder's pauses (from the
                                first) the report covers: all of them at
                                the end of a run; those recorded by the
                                last frame's end when the watchdog stops a
                                run from its thread */
} recorder_RunInfo;

typedef struct recorder_Summary {
    size_t frames;
    recorder_Stats frame_ms, update_ms, draw_ms, present_ms, gc_ms, idle_gc_ms;
    size_t over_16_7, over_33_3;
} recorder_Summary;

typedef struct recorder_Recorder {
    recorder_Frame *frames;   /* [count] records, room for [capacity] */
    size_t count, capacity;
    recorder_PauseLog pauses; /* observable 0: the backend cannot see them */
} recorder_Recorder;

void recorder_init(recorder_Recorder *rec);
void recorder_free(recorder_Recorder *rec);
/* Returns 0 when the record could not be stored (out of memory). */
int recorder_add(recorder_Recorder *rec, const recorder_Frame *frame);
size_t recorder_count(const recorder_Recorder *rec);
/* The i-th record, from 0; NULL past the end. */
const recorder_Frame *recorder_frame(const recorder_Recorder *rec, size_t i);

/* Pauses. recorder_observe_pauses marks the log observable (the backend
 * reports pauses), sets [origin_ns] and reserves room; returns 0 when the
 * memory for that cannot be had. recorder_add_pause stores one pause
 * (safe inside a collector callback: no Lua, malloc only when the spare
 * chunk is gone; a pause that cannot be stored is counted in [lost]).
 * recorder_reserve_pauses, between frames, makes sure a spare chunk is
 * ready. recorder_pause(log, i): the i-th pause from 0, NULL past the end. */
int recorder_observe_pauses(recorder_PauseLog *log, uint64_t origin_ns);
void recorder_add_pause(recorder_PauseLog *log, const recorder_Pause *pause);
void recorder_reserve_pauses(recorder_PauseLog *log);
const recorder_Pause *recorder_pause(const recorder_PauseLog *log, size_t i);
/* "minor", "initial-mark", "final-mark", "sync-major", "emergency", "mark-step", "sweep-step",
 * "stack-step", "other". */
const char *recorder_pause_kind_name(int kind);
/* Per-kind distributions of the first [count] pauses of [log]. */
void recorder_pause_stats(const recorder_PauseLog *log, size_t count,
                          recorder_PauseStats out[RECORDER_PAUSE_KIND_COUNT]);

/* Nearest-rank percentile of [sorted] (ascending, [n] values); [permille]
 * is p * 10 (500 = p50, 999 = p99.9). 0 for n == 0. */
double recorder_percentile(const double *sorted, size_t n, int permille);
/* Stats of [n] values (any order; not modified). All zero for n == 0. */
recorder_Stats recorder_stats(const double *values, size_t n);
void recorder_summarize(const recorder_Recorder *rec, recorder_Summary *out);

/* The terminal summary. */
void recorder_print_summary(FILE *to, const recorder_Recorder *rec,
                            const recorder_RunInfo *info);

/* Creates [dir] (and its parents) and writes frames.csv and summary.json,
 * and pauses.csv when the pauses are observable.
 * Returns 1 on success, 0 with a message in [err]. */
int recorder_write_report(const char *dir, const recorder_Recorder *rec,
                          const recorder_RunInfo *info, char *err, size_t err_size);
int recorder_write_csv(FILE *to, const recorder_Recorder *rec);
/* pauses.csv: the first [count] pauses. */
int recorder_write_pauses_csv(FILE *to, const recorder_Recorder *rec, size_t count);
int recorder_write_json(FILE *to, const recorder_Recorder *rec, const recorder_RunInfo *info);

/* mkdir -p. Returns 1 on success (also when it already exists). */
int recorder_make_dirs(const char *path);
/* The process's peak resident set (VmHWM) in KiB, -1 if unknown. */
long recorder_peak_rss_kb(void);

#endif /* HOST_RECORDER_H */
