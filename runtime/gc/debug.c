/*
 * debug.c — TIDE_GC_DEBUG, the collector's debug switches, read once per
 * state by gc_init. A comma-separated list:
 *
 *   collect-every=N   a collection at every Nth allocation (objects and
 *                     raw blocks; 1 = every allocation), as long as
 *                     collection is not stopped: a nursery collection,
 *                     and every eighth time a full one
 *   verify            verify the heap before and after every collection
 *                     (nursery and full)
 *   verify-before, verify-after
 *                     only one of the two
 *   poison            fill freed memory with 0xDB: dead old objects, the
 *                     nursery's free fragments, released table storage,
 *                     raw blocks
 *   nursery=SIZE      the nursery size (bytes, or with a k/m/g suffix)
 *   trace             one line on stderr per collection: its kind, time,
 *                     what it promoted, pinned, found in the remembered set
 *   aging             young objects survive one nursery collection in place
 *                     before promotion (minor.c)
 *   pretenure         objects are born old by turns: for a short span after
 *                     every nursery collection, whatever survived
 *                     (nursery.c, pretenuring): a stress test of the
 *                     barriers that fill fresh objects
 *   no-pretenure      objects are never born old for the nursery's survival
 *   evacuate-all      a full collection that evacuates (lua_gc "collect", a
 *                     memory emergency) moves every major block it can, not
 *                     only sparse ones (evacuate.c): a stress test of the
 *                     fix-up
 *   tiny-nursery      the smallest nursery (TIDE_GC_NURSERY_MIN_SIZE):
 *                     nursery collections all the time
 *   minor-target=US   the nursery collection's pause target in
 *                     microseconds (tide_gc_set_minor_pause_target; 0 = the
 *                     whole nursery every time)
 *   cycles            major cycles back to back: a cycle begins at the
 *                     first safe point after the last one ends, and marks
 *                     in small steps, so that the program mutates the heap
 *                     while nearly every object is being marked (a stress
 *                     test of the snapshot barrier, cycle.c)
 *   no-cycles         no major cycles: safe points run stop-the-world full
 *                     collections, as before cycles existed
 *   verify-marks      at the end of every cycle's mark, check that every
 *                     object a stop-the-world mark would reach is marked
 *   no-worker         cycles mark on the mutator, in steps and idle time,
 *                     instead of on the worker thread (worker.c)
 *   low-latency       start in low-latency mode, as after
 *                     tide_gc_allow_synchronous_major(L, 0): for running any
 *                     program (the `tide` interpreter's, a benchmark)
 *                     without stop-the-world majors
 *
 * An unknown option, or a bad value, prints one warning on stderr and is
 * otherwise ignored.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "gc_internal.h"

/* An unsigned number with an optional k/m/g suffix (x1024^n); 0 if bad. */
static unsigned long long parse_size(const char *s)
{
    if (!isdigit((unsigned char)*s)) return 0;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0) return 0;
    unsigned shift = 0;
    switch (tolower((unsigned char)*end)) {
    case 'k': shift = 10; end++; break;
    case 'm': shift = 20; end++; break;
    case 'g': shift = 30; end++; break;
    default: break;
    }
    if (*end != '\0' || v > (~0ull >> shift)) return 0;
    return v << shift;
}

static int has_prefix(const char *s, const char *prefix, const char **rest)
{
    size_t n = strlen(prefix);
    if (strncmp(s, prefix, n) != 0) return 0;
    *rest = s + n;
    return 1;
}

static void apply_option(GCState *gc, const char *opt)
{
    const char *value;
    if (*opt == '\0') return;
    if (strcmp(opt, "verify") == 0) {
        gc->verify_before = gc->verify_after = 1;
    } else if (strcmp(opt, "verify-before") == 0) {
        gc->verify_before = 1;
    } else if (strcmp(opt, "verify-after") == 0) {
        gc->verify_after = 1;
    } else if (strcmp(opt, "evacuate-all") == 0) {
        gc->evacuate_all = 1;
    } else if (strcmp(opt, "aging") == 0) {
        gc->aging = 1;
    } else if (strcmp(opt, "pretenure") == 0) {
        gc->pretenure_mode = GC_PRETENURE_ALWAYS;
    } else if (strcmp(opt, "no-pretenure") == 0) {
        gc->pretenure_mode = GC_PRETENURE_NEVER;
    } else if (strcmp(opt, "trace") == 0) {
        gc->trace = 1;
    } else if (strcmp(opt, "poison") == 0) {
        gc->poison = 1;
    } else if (has_prefix(opt, "collect-every=", &value)) {
        unsigned long long n = parse_size(value);
        if (n == 0 || n > ULONG_MAX)
            fprintf(stderr, "tide: bad value in TIDE_GC_DEBUG option '%s'\n", opt);
        else
            gc->collect_every = (unsigned long)n;
    } else if (strcmp(opt, "cycles") == 0) {
        gc->cycles_eager = 1;
    } else if (strcmp(opt, "no-cycles") == 0) {
        gc->cycles_off = 1;
    } else if (strcmp(opt, "verify-marks") == 0) {
        gc->verify_marks = 1;
    } else if (strcmp(opt, "no-worker") == 0) {
        gc->worker_off = 1;
    } else if (strcmp(opt, "low-latency") == 0) {
        gc->allow_sync_major = 0;
    } else if (strcmp(opt, "tiny-nursery") == 0) {
        gc->nursery_size = TIDE_GC_NURSERY_MIN_SIZE;
    } else if (has_prefix(opt, "nursery=", &value)) {
        unsigned long long n = parse_size(value);
        if (n == 0 || n > SIZE_MAX)
            fprintf(stderr, "tide: bad value in TIDE_GC_DEBUG option '%s'\n", opt);
        else
            gc->nursery_size = (size_t)n;
    } else if (has_prefix(opt, "minor-target=", &value)) {
        unsigned long long us = strcmp(value, "0") == 0 ? 0 : parse_size(value);
        if (us == 0 && strcmp(value, "0") != 0)
            fprintf(stderr, "tide: bad value in TIDE_GC_DEBUG option '%s'\n", opt);
        else
            gc->minor_target_ns = (uint64_t)us * 1000;
    } else {
        fprintf(stderr, "tide: unknown TIDE_GC_DEBUG option '%s'\n", opt);
    }
}

void gc_debug_parse(GCState *gc, const char *spec)
{
    char opt[128];
    while (*spec != '\0') {
        const char *comma = strchr(spec, ',');
        size_t len = comma != NULL ? (size_t)(comma - spec) : strlen(spec);
        if (len < sizeof opt) {
            memcpy(opt, spec, len);
            opt[len] = '\0';
            apply_option(gc, opt);
        } else {
            fprintf(stderr, "tide: unknown TIDE_GC_DEBUG option '%.*s'\n", (int)len, spec);
        }
        spec += len;
        if (*spec == ',') spec++;
    }
}
