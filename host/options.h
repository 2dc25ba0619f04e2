/*
 * options.h — the host's command line (see host/README.md for the table).
 *
 * options_parse() turns argv into a host_Options and never exits or prints:
 * main() decides what a usage error does. Strings in the result point into
 * argv, which lives as long as the process; only the screenshot array is
 * allocated (options_free). No SDL, no Lua: the unit tests link this file.
 */
#ifndef HOST_OPTIONS_H
#define HOST_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TIDE_HOST_VERSION "0.1.0"

/* Defaults the README promises. */
#define OPTIONS_DEFAULT_HEADLESS_FRAMES 600
#define OPTIONS_DEFAULT_WATCHDOG_MS 10000
#define OPTIONS_DEFAULT_IDLE_BUDGET_MS 4.0

typedef enum options_Display {
    OPTIONS_DISPLAY_AUTO,       /* a window if a display opens, else headless */
    OPTIONS_DISPLAY_HEADLESS,   /* --headless */
    OPTIONS_DISPLAY_WINDOW      /* --window: no display is an error */
} options_Display;

typedef enum options_GcMode {
    OPTIONS_GC_DEFAULT,         /* whatever the backend does out of the box */
    OPTIONS_GC_INCREMENTAL,
    OPTIONS_GC_GENERATIONAL,
    OPTIONS_GC_IDLE_STEPPED,    /* stopped during frames, stepped when idle */
    OPTIONS_GC_LOW_LATENCY      /* libtide: no synchronous major collection */
} options_GcMode;

typedef struct options_Screenshot {
    uint64_t frame;             /* engine.frame() of the frame to save */
    const char *path;
} options_Screenshot;

typedef struct host_Options {
    options_Display display;
    int64_t frames;             /* -1: not given (window: unlimited, headless: 600) */
    uint64_t seed;
    int autopilot;
    const char *report_dir;     /* NULL: no report */
    options_Screenshot *screenshots;   /* malloc'd, screenshot_count entries */
    int screenshot_count;
    options_GcMode gc_mode;
    double idle_budget_ms;
    int64_t watchdog_ms;        /* -1: not given (default on, off in --exec); 0: off */
    double memory_limit_mb;     /* 0: no limit */
    const char *gc_trace;       /* --gc-trace FILE (tide only); NULL: none */
    int exec;
    int quiet;
    const char *game;
    int script_argc;            /* what followed `--` */
    char **script_argv;
} host_Options;

typedef enum options_Result {
    OPTIONS_RUN,                /* [out] describes a run */
    OPTIONS_HELP,               /* --help was given */
    OPTIONS_VERSION,            /* --version was given */
    OPTIONS_USAGE_ERROR         /* the reason is in the caller's buffer */
} options_Result;

/* Parses argv[1..argc-1] into [out]. On OPTIONS_USAGE_ERROR a one-line
 * reason is written to [err] (size [err_size]) and [out] holds nothing that
 * needs freeing. Call options_free() after any other result. */
options_Result options_parse(int argc, char **argv, host_Options *out,
                             char *err, size_t err_size);
void options_free(host_Options *options);

/* The usage text, [program] being the name the host was started as. */
void options_print_usage(FILE *to, const char *program);

/* "default", "incremental", "generational", "idle-stepped", "low-latency". */
const char *options_gc_mode_name(options_GcMode mode);

#endif /* HOST_OPTIONS_H */
