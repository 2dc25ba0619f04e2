/*
 * frame_loop.c — running frames at a fixed 60 Hz step (see frame_loop.h).
 *
 * Pacing in a window: without vsync, frames start on a fixed timeline
 * (one period apart, re-anchored when the game falls a whole frame behind,
 * so a slow frame is not followed by a burst of fast ones). With vsync the
 * vertical blank is the clock: after the idle GC the loop flips at once and
 * the flip waits for the blank. A driver that claims vsync but whose flips
 * never wait is detected and paced by the timeline instead.
 */
#include "frame_loop.h"

#include <stdio.h>

#include "overlay.h"

/* Idle GC stops this long before the frame is due, leaving time to flip. */
#define IDLE_GC_MARGIN_NS 2000000u
/* This many flips in a row returning at once mean vsync does not block. */
#define VSYNC_NONBLOCKING_FLIPS 30
#define VSYNC_BLOCKING_FLIP_NS 500000u

typedef struct frame_Pacing {
    uint64_t period_ns;
    uint64_t frame_due_ns;     /* when the current frame was due to start */
    int vsync;
    int quick_flips;           /* consecutive flips that did not wait */
} frame_Pacing;

typedef struct frame_Times {
    uint64_t start, begun, updated, drawn, presented;
} frame_Times;

static double ms_between(uint64_t from, uint64_t to)
{
    return to > from ? (double)(to - from) / 1e6 : 0.0;
}

/* ---------------------------------------------------------------- screenshots */

static int screenshot_due(const host_Options *o, uint64_t frame)
{
    for (int i = 0; i < o->screenshot_count; i++)
        if (o->screenshots[i].frame == frame) return 1;
    return 0;
}

static SDL_Surface *render_screenshot(frame_Loop *loop)
{
    char err[256];
    SDL_Surface *surface = platform_render_offscreen(loop->platform, &loop->host->draw,
                                                     loop->host->width, loop->host->height,
                                                     err, sizeof err);
    if (surface == NULL) fprintf(stderr, "screenshot: %s\n", err);
    return surface;
}

/* Writes [surface] to every file asked for [frame]; a failure is reported
 * and the run goes on (a screenshot is not the game's fault). */
static void save_screenshots(const host_Options *o, uint64_t frame, SDL_Surface *surface)
{
    char err[256];
    for (int i = 0; surface && i < o->screenshot_count; i++) {
        if (o->screenshots[i].frame != frame) continue;
        if (!platform_write_png(surface, o->screenshots[i].path, err, sizeof err))
            fprintf(stderr, "screenshot: %s\n", err);
    }
    SDL_FreeSurface(surface);
}

/* ---------------------------------------------------------------- idle */

/* The flip itself waits for the blank: sleeping first would risk missing
 * it when the driver does real work in the flip (Mesa's llvmpipe renders
 * there), halving the frame rate. */
static void flip_with_vsync(platform_Platform *platform, frame_Pacing *pacing)
{
    uint64_t before = platform_clock_ns();
    platform_flip(platform);
    uint64_t after = platform_clock_ns();
    pacing->quick_flips = after - before < VSYNC_BLOCKING_FLIP_NS ? pacing->quick_flips + 1 : 0;
    if (pacing->quick_flips >= VSYNC_NONBLOCKING_FLIPS) pacing->vsync = 0;
    pacing->frame_due_ns = after;
}

static void flip_on_timeline(platform_Platform *platform, frame_Pacing *pacing, uint64_t due)
{
    platform_sleep_until(due);
    platform_flip(platform);
    uint64_t now = platform_clock_ns();
    pacing->frame_due_ns = now > due + pacing->period_ns ? now : due;
}

/* Idle GC (idle-stepped mode's steps, or tide_gc_idle on the tide
 * backend), then waiting and flipping in a window.
 * Returns 0 if a GC step failed (its message is on the Lua stack). */
static int idle(frame_Loop *loop, frame_Pacing *pacing, double *idle_gc_ms)
{
    double budget_ms = loop->options->idle_budget_ms;
    uint64_t due = pacing->frame_due_ns + pacing->period_ns;
    if (!loop->platform->headless) {
        uint64_t now = platform_clock_ns();
        budget_ms = due > now + IDLE_GC_MARGIN_NS ? ms_between(now + IDLE_GC_MARGIN_NS, due) : 0;
    }
    int ok = backend_idle_gc(loop->backend, budget_ms, idle_gc_ms);
    if (loop->platform->headless) return ok;
    if (pacing->vsync) flip_with_vsync(loop->platform, pacing);
    else flip_on_timeline(loop->platform, pacing, due);
    return ok;
}

/* ---------------------------------------------------------------- a frame */

/* Opens the frame for the backend, then update, draw, present, and closes
 * it; 0 on a script error (the frame is still closed, so that its pauses
 * are final). backend_frame_begin may take a collection put off to the
 * frame boundary: that pause is the frame's, so it lies inside frame time
 * (from start) but not inside update time (from begun). */
static int run_frame_work(frame_Loop *loop, frame_Times *t, SDL_Surface **shot)
{
    engine_Host *host = loop->host;
    int shot_due = screenshot_due(loop->options, host->frame);
    t->start = platform_clock_ns();
    backend_frame_begin(loop->backend);
    t->begun = platform_clock_ns();
    int ok = script_call_global(loop->script, "update", host->dt);
    t->updated = platform_clock_ns();
    if (ok) ok = script_call_global(loop->script, "draw", -1);
    t->drawn = platform_clock_ns();
    if (ok && !loop->platform->headless) platform_draw(loop->platform, &host->draw);
    else if (ok && shot_due) *shot = render_screenshot(loop);
    t->presented = platform_clock_ns();
    backend_frame_end(loop->backend);
    if (!ok) return 0;
    /* In a window the screenshot is an extra render, outside frame time. */
    if (!loop->platform->headless && shot_due) *shot = render_screenshot(loop);
    return 1;
}

static void draw_overlay(frame_Loop *loop)
{
    platform_Platform *platform = loop->platform;
    if (platform->headless || !platform->overlay_visible) return;
    overlay_Info info = { backend_name(), options_gc_mode_name(loop->options->gc_mode),
                          backend_gc_reported(loop->backend),
                          (double)loop->backend->memory.in_use / 1024.0,
                          backend_gc_phase(loop->backend),
                          backend_gc_mode_label(loop->backend) };
    overlay_draw(platform->renderer, &platform->scratch, platform->width, loop->recorder, &info);
}

static int record_frame(frame_Loop *loop, const frame_Times *t, double idle_gc_ms,
                        uint64_t *allocated_before)
{
    const backend_Memory *memory = &loop->backend->memory;
    recorder_Frame f = {
        .frame_ms = ms_between(t->start, t->presented),
        .update_ms = ms_between(t->begun, t->updated),
        .draw_ms = ms_between(t->updated, t->drawn),
        .present_ms = ms_between(t->drawn, t->presented),
        .gc_ms = backend_frame_gc_ms(loop->backend, (double)loop->host->gc_ns / 1e6),
        .idle_gc_ms = idle_gc_ms,
        .mem_kb = (double)memory->in_use / 1024.0,
        .alloc_kb = (double)(memory->total_allocated - *allocated_before) / 1024.0,
    };
    *allocated_before = memory->total_allocated;
    /* Room for the next frame's pauses, allocated here rather than in the
     * collector's callback. */
    recorder_reserve_pauses(&loop->recorder->pauses);
    if (recorder_add(loop->recorder, &f)) return 1;
    fprintf(stderr, "recorder: out of memory; frame %llu not recorded\n",
            (unsigned long long)loop->host->frame);
    return 0;
}

frame_End frame_loop_run(frame_Loop *loop)
{
    engine_Host *host = loop->host;
    frame_Pacing pacing = { (uint64_t)(host->dt * 1e9), platform_clock_ns(),
                            loop->platform->vsync, 0 };
    uint64_t allocated_before = loop->backend->memory.total_allocated;
    /* Loading is over: the gap before the first frame is idle time, as a
     * game's fade-in is, and what the load left for the collector (a
     * cycle due, blocks to sweep) is done there rather than in frame 0. */
    double load_gc_ms;
    if (!backend_idle_gc(loop->backend, loop->options->idle_budget_ms, &load_gc_ms)) {
        script_fail_with_top(loop->script);
        return FRAME_END_ERROR;
    }
    for (uint64_t frame = 0; loop->frame_limit < 0 || frame < (uint64_t)loop->frame_limit; frame++) {
        host->frame = frame;
        platform_poll(loop->platform, &host->input);
        if (loop->platform->close_requested) return FRAME_END_CLOSED;
        frame_Times times;
        SDL_Surface *shot = NULL;
        if (!run_frame_work(loop, &times, &shot)) {
            SDL_FreeSurface(shot);
            return FRAME_END_ERROR;
        }
        save_screenshots(loop->options, frame, shot);
        draw_overlay(loop);
        double idle_gc_ms;
        int idle_ok = idle(loop, &pacing, &idle_gc_ms);
        record_frame(loop, &times, idle_gc_ms, &allocated_before);
        if (loop->after_frame) loop->after_frame(loop->after_frame_ud);
        if (!idle_ok) {
            script_fail_with_top(loop->script);
            return FRAME_END_ERROR;
        }
        int quit = host->quit_requested;
        engine_frame_reset(host);
        if (quit) return FRAME_END_QUIT;
    }
    return FRAME_END_LIMIT;
}
