/*
 * main.c — start-up, the run, and the exit status.
 *
 * A run: parse the command line, create the state on this host's backend,
 * open the window (or go headless), load the game, run the frame loop, then
 * print the summary and write the report — also when the game failed, with
 * the frames run so far and the error. `--exec` instead runs the file once
 * as a plain program. Exit status: 0 the game ran to its end (or quit, or
 * the window closed), 1 the script failed or the report could not be
 * written, 2 a usage error (including --window without a display).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>

#include "backend.h"
#include "engine.h"
#include "frame_loop.h"
#include "options.h"
#include "platform.h"
#include "recorder.h"
#include "script.h"

enum { EXIT_OK = 0, EXIT_SCRIPT_FAILED = 1, EXIT_USAGE = 2 };

/* Everything one run owns; lives in main's frame for the whole run. */
typedef struct host_Run {
    const char *program;          /* argv[0] without its folder */
    host_Options options;
    backend_State backend;
    engine_Host host;
    platform_Platform platform;
    script_Script script;
    recorder_Recorder recorder;
    uint64_t start_ns;
    /* The run's totals as of the last frame, for the watchdog's hard stop:
     * it cannot read the live counters while the script is running. */
    recorder_RunInfo snapshot;
} host_Run;

/* ---------------------------------------------------------------- reporting */

static void fill_run_info(const host_Run *run, recorder_RunInfo *info, const char *error)
{
    memset(info, 0, sizeof *info);
    info->backend = backend_name();
    info->game = run->options.game;
    info->gc_mode = options_gc_mode_name(run->options.gc_mode);
    info->seed = run->options.seed;
    info->gc_reported = backend_gc_reported(&run->backend);
    info->total_s = (double)(platform_clock_ns() - run->start_ns) / 1e9;
    info->peak_mem_kb = (double)run->backend.memory.peak / 1024.0;
    info->alloc_total_kb = (double)run->backend.memory.total_allocated / 1024.0;
    info->peak_rss_kb = recorder_peak_rss_kb();
    for (int i = 0; i < run->host.zone_count && i < RECORDER_MAX_ZONES; i++) {
        const engine_Zone *zone = &run->host.zones[i];
        snprintf(info->zones[i].name, sizeof info->zones[i].name, "%s", zone->name);
        info->zones[i].total_ms = (double)zone->total_ns / 1e6;
        info->zones[i].calls = zone->calls;
        info->zone_count = i + 1;
    }
    backend_gc_pacing(&run->backend, &info->pacing);
    info->error = error;
    info->pause_count = run->recorder.pauses.count;
}

static void refresh_snapshot(void *ud)
{
    host_Run *run = ud;
    fill_run_info(run, &run->snapshot, NULL);
}

static void warn_missed_screenshots(const host_Run *run)
{
    size_t frames = recorder_count(&run->recorder);
    for (int i = 0; i < run->options.screenshot_count; i++) {
        const options_Screenshot *shot = &run->options.screenshots[i];
        if (shot->frame >= frames)
            fprintf(stderr, "%s: screenshot %llu:%s not taken: the run ended after %zu frames\n",
                    run->program, (unsigned long long)shot->frame, shot->path, frames);
    }
}

/* Summary and report. Returns 0 if the report could not be written. */
static int report_run(const host_Run *run, const recorder_RunInfo *info)
{
    /* A game that failed before its first frame has nothing to summarise on
     * the terminal; the report still records the error. */
    int nothing_ran = recorder_count(&run->recorder) == 0 && info->error != NULL;
    if (!run->options.quiet && !nothing_ran) {
        recorder_print_summary(stdout, &run->recorder, info);
        fflush(stdout);
    }
    if (run->options.report_dir == NULL) return 1;
    char err[512];
    if (recorder_write_report(run->options.report_dir, &run->recorder, info, err, sizeof err))
        return 1;
    fprintf(stderr, "%s: report: %s\n", run->program, err);
    return 0;
}

/* The watchdog's last resort, on its own thread (see script.h). */
static void hard_stop(void *ud, const char *message)
{
    host_Run *run = ud;
    fprintf(stderr, "%s: %s\n", run->program, message);
    if (run->options.exec) return;
    recorder_RunInfo info = run->snapshot;
    info.error = message;
    info.total_s = (double)(platform_clock_ns() - run->start_ns) / 1e9;
    info.peak_rss_kb = recorder_peak_rss_kb();
    report_run(run, &info);
}

/* ---------------------------------------------------------------- the run */

static const char *program_name(const char *argv0)
{
    const char *slash = argv0 ? strrchr(argv0, '/') : NULL;
    return slash ? slash + 1 : argv0 ? argv0 : "tidehost";
}

static int usage_error(const char *program, const char *message)
{
    fprintf(stderr, "%s: %s\n", program, message);
    options_print_usage(stderr, program);
    return EXIT_USAGE;
}

static int64_t watchdog_ms(const host_Options *o)
{
    if (o->watchdog_ms >= 0) return o->watchdog_ms;
    return o->exec ? 0 : OPTIONS_DEFAULT_WATCHDOG_MS;
}

static int64_t frame_limit(const host_Options *o, int headless)
{
    if (o->frames >= 0) return o->frames;
    return headless ? OPTIONS_DEFAULT_HEADLESS_FRAMES : -1;
}

/* --exec: the file once, no window, no frames, no summary. */
static int run_exec(host_Run *run)
{
    run->host.headless = 1;
    run->host.autopilot = 1;
    engine_open(run->backend.L, &run->host);
    if (!script_open(&run->script, run->backend.L, platform_clock_ns, watchdog_ms(&run->options),
                     hard_stop, run)
        || !script_run_file(&run->script, run->options.game, run->options.script_argc,
                            run->options.script_argv)) {
        const char *error = script_error(&run->script);
        fprintf(stderr, "%s: %s\n", run->program,
                error ? error : "out of memory (the error message was lost)");
        return EXIT_SCRIPT_FAILED;
    }
    return EXIT_OK;
}

static frame_End run_frames(host_Run *run)
{
    frame_Loop loop = {
        .options = &run->options, .host = &run->host, .backend = &run->backend,
        .script = &run->script, .platform = &run->platform, .recorder = &run->recorder,
        .frame_limit = frame_limit(&run->options, run->platform.headless),
        .after_frame = refresh_snapshot, .after_frame_ud = run,
    };
    return frame_loop_run(&loop);
}

static int run_game(host_Run *run)
{
    run->host.headless = run->platform.headless;
    run->host.autopilot = run->options.autopilot || run->platform.headless;
    engine_open(run->backend.L, &run->host);
    run->start_ns = platform_clock_ns();
    /* From before the main chunk: the pauses of loading are the game's too. */
    backend_record_pauses(&run->backend, &run->recorder.pauses);
    refresh_snapshot(run);
    int ok = script_open(&run->script, run->backend.L, platform_clock_ns,
                         watchdog_ms(&run->options), hard_stop, run)
          && script_run_file(&run->script, run->options.game, run->options.script_argc,
                             run->options.script_argv)
          && run_frames(run) != FRAME_END_ERROR;
    const char *error = NULL;
    if (!ok) {
        error = script_error(&run->script);
        if (error == NULL) error = "out of memory (the error message was lost)";
        fprintf(stderr, "%s: %s\n", run->program, error);
    }
    fflush(stderr);
    recorder_RunInfo info;
    fill_run_info(run, &info, error);
    int reported = report_run(run, &info);
    warn_missed_screenshots(run);
    return !ok || !reported ? EXIT_SCRIPT_FAILED : EXIT_OK;
}

static int open_platform(host_Run *run)
{
    char title[256], err[512];
    snprintf(title, sizeof title, "Tide: %s (%s)", run->options.game, backend_name());
    if (!platform_open(&run->platform, run->options.display, run->host.width,
                       run->host.height, title, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", run->program, err);
        return 0;
    }
    if (run->platform.fallback_reason && run->options.display == OPTIONS_DISPLAY_AUTO)
        fprintf(stderr, "%s: running headless: %s\n", run->program, run->platform.fallback_reason);
    return 1;
}

static int start_and_run(host_Run *run)
{
    char err[512];
    if (!backend_supports_gc_mode(run->options.gc_mode, err, sizeof err))
        return usage_error(run->program, err);
    if (run->options.gc_trace != NULL && !backend_supports_gc_trace(err, sizeof err))
        return usage_error(run->program, err);
    if (!backend_open(&run->backend, run->options.gc_mode, run->options.memory_limit_mb,
                      platform_clock_ns, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", run->program, err);
        return EXIT_SCRIPT_FAILED;
    }
    if (run->options.gc_trace != NULL && !backend_trace_gc(&run->backend, run->options.gc_trace,
                                                           err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", run->program, err);
        backend_close(&run->backend);
        return EXIT_SCRIPT_FAILED;
    }
    engine_host_init(&run->host, backend_name(), platform_clock_ns);
    engine_reseed(&run->host, run->options.seed);
    int status;
    if (run->options.exec) status = run_exec(run);
    else if (!open_platform(run)) status = EXIT_USAGE;
    else status = run_game(run);
    script_close(&run->script);
    backend_close(&run->backend);
    engine_host_free(&run->host);
    platform_close(&run->platform);
    return status;
}

int main(int argc, char **argv)
{
    host_Run run;
    memset(&run, 0, sizeof run);
    run.program = program_name(argc > 0 ? argv[0] : NULL);
    char err[512];
    switch (options_parse(argc, argv, &run.options, err, sizeof err)) {
    case OPTIONS_USAGE_ERROR:
        return usage_error(run.program, err);
    case OPTIONS_HELP:
        options_print_usage(stdout, run.program);
        return EXIT_OK;
    case OPTIONS_VERSION:
        printf("tidehost %s (%s backend)\n", TIDE_HOST_VERSION, backend_name());
        return EXIT_OK;
    case OPTIONS_RUN:
        break;
    }
    recorder_init(&run.recorder);
    int status = start_and_run(&run);
    recorder_free(&run.recorder);
    options_free(&run.options);
    SDL_Quit();
    return status;
}
