/*
 * options.c — parsing the host's command line into a host_Options.
 *
 * Every option is one row of `option_table`: its name, whether it takes a
 * value, and the function that checks and stores that value. A value goes
 * in the next argument (`--frames 10`) or after `=` (`--frames=10`).
 * Options may come before or after GAME; `--` ends them, and what follows
 * goes to the script's `arg` table.
 */
#include "options.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Upper bounds that catch typos (a watchdog of 10^12 ms is not a choice). */
#define MAX_WATCHDOG_MS 86400000        /* one day */
#define MAX_IDLE_BUDGET_MS 1000.0
#define MAX_MEMORY_LIMIT_MB (1024.0 * 1024.0)   /* 1 TiB */

static int usage_error(char *err, size_t err_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
    return 0;
}

/* Decimal digits only: no sign, no spaces, no hex, no overflow. */
static int parse_uint64(const char *text, uint64_t max, uint64_t *out)
{
    if (text[0] < '0' || text[0] > '9') return 0;
    errno = 0;
    char *end;
    unsigned long long value = strtoull(text, &end, 10);
    if (*end != '\0' || errno == ERANGE || value > max) return 0;
    *out = value;
    return 1;
}

/* A finite decimal number (strtod also takes "inf", "nan" and hex: refused). */
static int parse_number(const char *text, double *out)
{
    if (text[0] == '\0' || strpbrk(text, "xXnNiI") != NULL) return 0;
    errno = 0;
    char *end;
    double value = strtod(text, &end);
    if (*end != '\0' || errno == ERANGE || !isfinite(value)) return 0;
    *out = value;
    return 1;
}

/* ---------------------------------------------------------------- handlers
 * Each returns 1 when [value] was stored, 0 with a reason in [err]. */

typedef int (*option_Handler)(host_Options *o, const char *name, const char *value,
                              char *err, size_t err_size);

static int set_headless(host_Options *o, const char *name, const char *value,
                        char *err, size_t err_size)
{
    (void)value;
    if (o->display == OPTIONS_DISPLAY_WINDOW)
        return usage_error(err, err_size, "%s: --headless and --window exclude each other", name);
    o->display = OPTIONS_DISPLAY_HEADLESS;
    return 1;
}

static int set_window(host_Options *o, const char *name, const char *value,
                      char *err, size_t err_size)
{
    (void)value;
    if (o->display == OPTIONS_DISPLAY_HEADLESS)
        return usage_error(err, err_size, "%s: --headless and --window exclude each other", name);
    o->display = OPTIONS_DISPLAY_WINDOW;
    return 1;
}

static int set_frames(host_Options *o, const char *name, const char *value,
                      char *err, size_t err_size)
{
    uint64_t frames;
    if (!parse_uint64(value, INT64_MAX, &frames))
        return usage_error(err, err_size, "%s: expected a frame count (0 or more), got '%s'",
                           name, value);
    o->frames = (int64_t)frames;
    return 1;
}

static int set_seed(host_Options *o, const char *name, const char *value,
                    char *err, size_t err_size)
{
    if (!parse_uint64(value, UINT64_MAX, &o->seed))
        return usage_error(err, err_size, "%s: expected an unsigned integer, got '%s'",
                           name, value);
    return 1;
}

static int set_autopilot(host_Options *o, const char *name, const char *value,
                         char *err, size_t err_size)
{
    (void)name, (void)value, (void)err, (void)err_size;
    o->autopilot = 1;
    return 1;
}

static int set_report(host_Options *o, const char *name, const char *value,
                      char *err, size_t err_size)
{
    if (value[0] == '\0') return usage_error(err, err_size, "%s: expected a folder", name);
    o->report_dir = value;
    return 1;
}

/* N:FILE, N a frame index from 0. */
static int add_screenshot(host_Options *o, const char *name, const char *value,
                          char *err, size_t err_size)
{
    const char *colon = strchr(value, ':');
    char digits[24];
    size_t digit_count = colon ? (size_t)(colon - value) : 0;
    uint64_t frame;
    if (colon == NULL || digit_count == 0 || digit_count >= sizeof digits || colon[1] == '\0')
        return usage_error(err, err_size, "%s: expected N:FILE, got '%s'", name, value);
    memcpy(digits, value, digit_count);
    digits[digit_count] = '\0';
    if (!parse_uint64(digits, INT64_MAX, &frame))
        return usage_error(err, err_size, "%s: expected a frame number before ':', got '%s'",
                           name, value);
    options_Screenshot *grown = realloc(o->screenshots,
                                        (size_t)(o->screenshot_count + 1) * sizeof *grown);
    if (grown == NULL) return usage_error(err, err_size, "%s: out of memory", name);
    o->screenshots = grown;
    o->screenshots[o->screenshot_count++] = (options_Screenshot){ frame, colon + 1 };
    return 1;
}

static const char *const gc_mode_names[] = {
    [OPTIONS_GC_DEFAULT] = "default",
    [OPTIONS_GC_INCREMENTAL] = "incremental",
    [OPTIONS_GC_GENERATIONAL] = "generational",
    [OPTIONS_GC_IDLE_STEPPED] = "idle-stepped",
    [OPTIONS_GC_LOW_LATENCY] = "low-latency",
};

const char *options_gc_mode_name(options_GcMode mode)
{
    return (unsigned)mode < sizeof gc_mode_names / sizeof gc_mode_names[0]
        ? gc_mode_names[mode] : "?";
}

static int set_gc(host_Options *o, const char *name, const char *value,
                  char *err, size_t err_size)
{
    for (size_t i = 0; i < sizeof gc_mode_names / sizeof gc_mode_names[0]; i++) {
        if (strcmp(value, gc_mode_names[i]) == 0) {
            o->gc_mode = (options_GcMode)i;
            return 1;
        }
    }
    return usage_error(err, err_size, "%s: expected default, incremental, generational, "
                       "idle-stepped or low-latency, got '%s'", name, value);
}

static int set_idle_budget(host_Options *o, const char *name, const char *value,
                           char *err, size_t err_size)
{
    double ms;
    if (!parse_number(value, &ms) || ms < 0 || ms > MAX_IDLE_BUDGET_MS)
        return usage_error(err, err_size, "%s: expected milliseconds from 0 to %g, got '%s'",
                           name, MAX_IDLE_BUDGET_MS, value);
    o->idle_budget_ms = ms;
    return 1;
}

static int set_watchdog(host_Options *o, const char *name, const char *value,
                        char *err, size_t err_size)
{
    uint64_t ms;
    if (!parse_uint64(value, MAX_WATCHDOG_MS, &ms))
        return usage_error(err, err_size, "%s: expected milliseconds from 0 (off) to %d, got '%s'",
                           name, MAX_WATCHDOG_MS, value);
    o->watchdog_ms = (int64_t)ms;
    return 1;
}

static int set_memory_limit(host_Options *o, const char *name, const char *value,
                            char *err, size_t err_size)
{
    double mb;
    if (!parse_number(value, &mb) || !(mb > 0) || mb > MAX_MEMORY_LIMIT_MB)
        return usage_error(err, err_size, "%s: expected megabytes above 0, got '%s'",
                           name, value);
    o->memory_limit_mb = mb;
    return 1;
}

static int set_gc_trace(host_Options *o, const char *name, const char *value,
                        char *err, size_t err_size)
{
    if (value[0] == '\0') return usage_error(err, err_size, "%s: expected a file", name);
    o->gc_trace = value;
    return 1;
}

static int set_exec(host_Options *o, const char *name, const char *value,
                    char *err, size_t err_size)
{
    (void)name, (void)value, (void)err, (void)err_size;
    o->exec = 1;
    return 1;
}

static int set_quiet(host_Options *o, const char *name, const char *value,
                     char *err, size_t err_size)
{
    (void)name, (void)value, (void)err, (void)err_size;
    o->quiet = 1;
    return 1;
}

typedef struct option_Row {
    const char *name;
    int takes_value;
    option_Handler handle;
} option_Row;

static const option_Row option_table[] = {
    { "--headless", 0, set_headless },
    { "--window", 0, set_window },
    { "--frames", 1, set_frames },
    { "--seed", 1, set_seed },
    { "--autopilot", 0, set_autopilot },
    { "--report", 1, set_report },
    { "--screenshot", 1, add_screenshot },
    { "--gc", 1, set_gc },
    { "--idle-budget-ms", 1, set_idle_budget },
    { "--watchdog-ms", 1, set_watchdog },
    { "--memory-limit", 1, set_memory_limit },
    { "--gc-trace", 1, set_gc_trace },
    { "--exec", 0, set_exec },
    { "--quiet", 0, set_quiet },
};

/* The row whose name is [arg] or the part of [arg] before '='. */
static const option_Row *find_option(const char *arg)
{
    size_t len = strcspn(arg, "=");
    for (size_t i = 0; i < sizeof option_table / sizeof option_table[0]; i++) {
        const char *name = option_table[i].name;
        if (strlen(name) == len && strncmp(arg, name, len) == 0) return &option_table[i];
    }
    return NULL;
}

/* ---------------------------------------------------------------- parsing */

static void set_defaults(host_Options *o)
{
    memset(o, 0, sizeof *o);
    o->display = OPTIONS_DISPLAY_AUTO;
    o->frames = -1;
    o->seed = 1;
    o->gc_mode = OPTIONS_GC_DEFAULT;
    o->idle_budget_ms = OPTIONS_DEFAULT_IDLE_BUDGET_MS;
    o->watchdog_ms = -1;
}

/* Handles the option at argv[*i] (which starts with "--"), advancing *i
 * past its value. Returns 1 on success. */
static int parse_option(int argc, char **argv, int *i, host_Options *o,
                        char *err, size_t err_size)
{
    const char *arg = argv[*i];
    const option_Row *row = find_option(arg);
    if (row == NULL) return usage_error(err, err_size, "unknown option '%s'", arg);
    const char *equals = strchr(arg, '=');
    const char *value = NULL;
    if (!row->takes_value) {
        if (equals) return usage_error(err, err_size, "%s takes no value", row->name);
    } else if (equals) {
        value = equals + 1;
    } else if (*i + 1 < argc) {
        value = argv[++*i];
    } else {
        return usage_error(err, err_size, "%s needs a value", row->name);
    }
    return row->handle(o, row->name, value, err, err_size);
}

/* Cross-option rules, once everything is read. */
static int check_combination(const host_Options *o, char *err, size_t err_size)
{
    if (o->game == NULL) return usage_error(err, err_size, "no GAME given");
    if (o->exec && o->display == OPTIONS_DISPLAY_WINDOW)
        return usage_error(err, err_size, "--exec runs without a window; drop --window");
    if (o->exec && o->gc_mode == OPTIONS_GC_IDLE_STEPPED)
        return usage_error(err, err_size, "--gc idle-stepped needs the frame loop; "
                           "it cannot be used with --exec");
    return 1;
}

options_Result options_parse(int argc, char **argv, host_Options *out,
                             char *err, size_t err_size)
{
    set_defaults(out);
    int ok = 1;
    for (int i = 1; ok && i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0) {
            out->script_argc = argc - i - 1;
            out->script_argv = argv + i + 1;
            break;
        }
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            options_free(out);
            return OPTIONS_HELP;
        }
        if (strcmp(arg, "--version") == 0) {
            options_free(out);
            return OPTIONS_VERSION;
        }
        if (arg[0] == '-' && arg[1] != '\0') {
            ok = parse_option(argc, argv, &i, out, err, err_size);
        } else if (out->game != NULL) {
            ok = usage_error(err, err_size, "more than one GAME ('%s' and '%s'); "
                             "script arguments go after --", out->game, arg);
        } else {
            out->game = arg;
        }
    }
    if (ok) ok = check_combination(out, err, err_size);
    if (!ok) {
        options_free(out);
        return OPTIONS_USAGE_ERROR;
    }
    return OPTIONS_RUN;
}

void options_free(host_Options *options)
{
    free(options->screenshots);
    options->screenshots = NULL;
    options->screenshot_count = 0;
}

void options_print_usage(FILE *to, const char *program)
{
    fprintf(to,
        "usage: %s [options] GAME [-- script args]\n"
        "GAME is a .lua file or a folder holding main.lua.\n"
        "options (a value may also follow '=', e.g. --frames=10):\n"
        "  --headless            no window (the default when no display opens)\n"
        "  --window              insist on a window; fail if none can be opened\n"
        "  --frames N            stop after N frames (window: until closed; headless: %d)\n"
        "  --seed N              seed of engine.random (default 1)\n"
        "  --autopilot           the game plays itself (always on headless)\n"
        "  --report DIR          write DIR/frames.csv and DIR/summary.json\n"
        "  --screenshot N:FILE   save frame N as a PNG (repeatable; works headless)\n"
        "  --gc MODE             default, incremental, generational, idle-stepped or\n"
        "                        low-latency (tide only)\n"
        "  --idle-budget-ms X    GC time after each frame headless, in idle-stepped mode\n"
        "                        and on the tide backend (default %g)\n"
        "  --watchdog-ms N       stop when one call into the script runs longer than N ms\n"
        "                        (default %d; 0 = off; off in --exec unless given)\n"
        "  --memory-limit MB     script heap limit; past it allocation fails\n"
        "  --gc-trace FILE       write the collector's trace (Perfetto JSON; tide only)\n"
        "  --exec                run GAME once as a plain script, no frame loop\n"
        "  --quiet               print no summary\n"
        "  --help, --version\n"
        "In a window, F1 shows or hides the frame-time overlay.\n"
        "exit status: 0 ran to the end or quit, 1 the script failed, 2 usage error\n",
        program, OPTIONS_DEFAULT_HEADLESS_FRAMES, OPTIONS_DEFAULT_IDLE_BUDGET_MS,
        OPTIONS_DEFAULT_WATCHDOG_MS);
}
