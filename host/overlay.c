/*
 * overlay.c — the frame/GC chart in the window's top-right corner (see
 * overlay.h for what it shows).
 *
 * The chart's height stands for 33.3 ms, so the 16.7 ms budget line is at
 * half height and anything taller is cut at the top. Bars of one colour
 * are batched into one SDL_RenderFillRectsF call.
 */
#include "overlay.h"

#include <stdio.h>
#include <string.h>

#define CHART_HEIGHT 100
#define CHART_FULL_SCALE_MS RECORDER_BUDGET_30HZ_MS
#define PANEL_MARGIN 8
#define PANEL_PADDING 6
#define TEXT_LINE_HEIGHT 11
#define TEXT_LINES 4

typedef struct overlay_Colour { Uint8 r, g, b, a; } overlay_Colour;

static const overlay_Colour panel_colour = { 0, 0, 0, 170 };
static const overlay_Colour work_colour = { 70, 200, 110, 255 };
static const overlay_Colour gc_colour = { 230, 60, 60, 255 };
static const overlay_Colour idle_gc_colour = { 240, 180, 40, 255 };
static const overlay_Colour budget_colour = { 255, 255, 255, 140 };
static const overlay_Colour text_colour = { 235, 235, 235, 255 };

static void set_colour(SDL_Renderer *renderer, overlay_Colour c)
{
    SDL_SetRenderDrawColor(renderer, c.r, c.g, c.b, c.a);
}

static float ms_to_pixels(double ms)
{
    double px = ms / CHART_FULL_SCALE_MS * CHART_HEIGHT;
    return (float)(px < 0 ? 0 : px > CHART_HEIGHT ? CHART_HEIGHT : px);
}

/* One layer of the stacked bars: for each frame, the segment from
 * [below](frame) to [below + part](frame) milliseconds. */
typedef double (*bar_Part)(const recorder_Frame *f);

static double work_part(const recorder_Frame *f)
{
    double work = f->frame_ms - f->gc_ms;
    return work > 0 ? work : 0;
}
static double gc_part(const recorder_Frame *f) { return f->gc_ms < f->frame_ms ? f->gc_ms : f->frame_ms; }
static double idle_gc_part(const recorder_Frame *f) { return f->idle_gc_ms; }

static void draw_layer(SDL_Renderer *renderer, const recorder_Recorder *rec, size_t first,
                       float left, float bottom, int layer)
{
    static const bar_Part parts[] = { work_part, gc_part, idle_gc_part };
    size_t count = recorder_count(rec) - first;
    SDL_FRect bars[OVERLAY_FRAMES];
    size_t n = 0;
    for (size_t i = 0; i < count && i < OVERLAY_FRAMES; i++) {
        const recorder_Frame *f = recorder_frame(rec, first + i);
        double below = 0;
        for (int l = 0; l < layer; l++) below += parts[l](f);
        float y0 = ms_to_pixels(below), y1 = ms_to_pixels(below + parts[layer](f));
        if (y1 > y0) bars[n++] = (SDL_FRect){ left + (float)i, bottom - y1, 1, y1 - y0 };
    }
    SDL_RenderFillRectsF(renderer, bars, (int)n);
}

static void draw_text_line(SDL_Renderer *renderer, render_Scratch *scratch, float x, float y,
                           const char *text)
{
    render_text(renderer, scratch, x, y, 1.0f, text, strlen(text));
}

static void draw_numbers(SDL_Renderer *renderer, render_Scratch *scratch, float x, float y,
                         const recorder_Recorder *rec, size_t first, const overlay_Info *info)
{
    char line[128];
    size_t count = recorder_count(rec);
    double max_ms = 0;
    for (size_t i = first; i < count; i++)
        if (recorder_frame(rec, i)->frame_ms > max_ms) max_ms = recorder_frame(rec, i)->frame_ms;
    const recorder_Frame *last = count ? recorder_frame(rec, count - 1) : NULL;
    set_colour(renderer, text_colour);
    snprintf(line, sizeof line, "frame %.2f ms  gc %.2f  idle gc %.2f",
             last ? last->frame_ms : 0.0, last ? last->gc_ms : 0.0, last ? last->idle_gc_ms : 0.0);
    draw_text_line(renderer, scratch, x, y, line);
    snprintf(line, sizeof line, "max %.2f ms over %zu frames", max_ms, count - first);
    draw_text_line(renderer, scratch, x, y + TEXT_LINE_HEIGHT, line);
    /* Stock backends do not expose their collector's phase: show the mode
     * the host set up, marked as such, rather than a guessed phase. */
    if (info->gc_phase)
        snprintf(line, sizeof line, "script heap %.1f KiB  phase %s", info->mem_kb, info->gc_phase);
    else
        snprintf(line, sizeof line, "script heap %.1f KiB  mode %s", info->mem_kb,
                 info->gc_collector ? info->gc_collector : "?");
    draw_text_line(renderer, scratch, x, y + 2 * TEXT_LINE_HEIGHT, line);
    snprintf(line, sizeof line, "%s  gc %s%s  (F1 hides)", info->backend, info->gc_mode,
             info->gc_reported ? "" : " (untimed)");
    draw_text_line(renderer, scratch, x, y + 3 * TEXT_LINE_HEIGHT, line);
}

void overlay_draw(SDL_Renderer *renderer, render_Scratch *scratch, int target_width,
                  const recorder_Recorder *rec, const overlay_Info *info)
{
    float width = OVERLAY_FRAMES + 2 * PANEL_PADDING;
    float height = CHART_HEIGHT + 3 * PANEL_PADDING + TEXT_LINES * TEXT_LINE_HEIGHT;
    SDL_FRect panel = { (float)target_width - width - PANEL_MARGIN, PANEL_MARGIN, width, height };
    SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND);
    set_colour(renderer, panel_colour);
    SDL_RenderFillRectF(renderer, &panel);

    float left = panel.x + PANEL_PADDING, bottom = panel.y + PANEL_PADDING + CHART_HEIGHT;
    size_t count = recorder_count(rec);
    size_t first = count > OVERLAY_FRAMES ? count - OVERLAY_FRAMES : 0;
    const overlay_Colour layer_colours[] = { work_colour, gc_colour, idle_gc_colour };
    for (int layer = 0; layer < 3; layer++) {
        set_colour(renderer, layer_colours[layer]);
        draw_layer(renderer, rec, first, left, bottom, layer);
    }
    set_colour(renderer, budget_colour);
    float budget_y = bottom - ms_to_pixels(RECORDER_BUDGET_60HZ_MS);
    SDL_RenderDrawLineF(renderer, left, budget_y, left + OVERLAY_FRAMES, budget_y);
    draw_numbers(renderer, scratch, left, bottom + PANEL_PADDING, rec, first, info);
}
