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

typedef struct recorder_Zone {
    char name[RECORDER_ZONE_NAME_MAX];
    double total_ms;
    uint64_t calls;
} recorder_Zone;

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
    const char *error;       /* NULL, or the error that stopped the game */
} recorder_RunInfo;

typedef struct recorder_Summary {
    size_t frames;
    recorder_Stats frame_ms, update_ms, draw_ms, present_ms, gc_ms, idle_gc_ms;
    size_t over_16_7, over_33_3;
} recorder_Summary;

typedef struct recorder_Recorder {
    recorder_Frame *frames;   /* [count] records, room for [capacity] */
    size_t count, capacity;
} recorder_Recorder;

void recorder_init(recorder_Recorder *rec);
void recorder_free(recorder_Recorder *rec);
/* Returns 0 when the record could not be stored (out of memory). */
int recorder_add(recorder_Recorder *rec, const recorder_Frame *frame);
size_t recorder_count(const recorder_Recorder *rec);
/* The i-th record, from 0; NULL past the end. */
const recorder_Frame *recorder_frame(const recorder_Recorder *rec, size_t i);

/* Nearest-rank percentile of [sorted] (ascending, [n] values); [permille]
 * is p * 10 (500 = p50, 999 = p99.9). 0 for n == 0. */
double recorder_percentile(const double *sorted, size_t n, int permille);
/* Stats of [n] values (any order; not modified). All zero for n == 0. */
recorder_Stats recorder_stats(const double *values, size_t n);
void recorder_summarize(const recorder_Recorder *rec, recorder_Summary *out);

/* The terminal summary. */
void recorder_print_summary(FILE *to, const recorder_Recorder *rec,
                            const recorder_RunInfo *info);

/* Creates [dir] (and its parents) and writes frames.csv and summary.json.
 * Returns 1 on success, 0 with a message in [err]. */
int recorder_write_report(const char *dir, const recorder_Recorder *rec,
                          const recorder_RunInfo *info, char *err, size_t err_size);
int recorder_write_csv(FILE *to, const recorder_Recorder *rec);
int recorder_write_json(FILE *to, const recorder_Recorder *rec, const recorder_RunInfo *info);

/* mkdir -p. Returns 1 on success (also when it already exists). */
int recorder_make_dirs(const char *path);
/* The process's peak resident set (VmHWM) in KiB, -1 if unknown. */
long recorder_peak_rss_kb(void);

#endif /* HOST_RECORDER_H */
