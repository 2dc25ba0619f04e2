/*
 * render.c — drawing an engine_DrawList with SDL_Renderer (see render.h).
 *
 * Shapes the renderer lacks are built from what it has: outlined circles
 * from points (midpoint algorithm) or, when very large, from line segments;
 * filled circles from one horizontal span per row, clipped to the target;
 * text from stb_easy_font's quads turned into filled rectangles.
 */
#include "render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stb_ds.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-braces"
#include "stb_easy_font.h"
#pragma GCC diagnostic pop

/* Above this radius an outline is drawn as a polygon: the midpoint
 * algorithm would produce one point per pixel of a huge circumference. */
#define MIDPOINT_MAX_RADIUS 1024.0f
#define LARGE_CIRCLE_SEGMENTS 512
/* An outline this large cannot cross the target; SDL would only overflow. */
#define OUTLINE_MAX_RADIUS 1e6f
/* stb_easy_font uses ~270 bytes of vertices per character on average. */
#define FONT_BYTES_PER_CHAR 300
/* One stb_easy_font vertex: x, y, z floats and four colour bytes. */
#define FONT_VERTEX_SIZE 16
#define TWO_PI 6.28318530717958647692

/* Makes [*buffer] hold at least [count] items of [size] bytes. */
static int reserve(void **buffer, size_t *capacity, size_t count, size_t size)
{
    if (count <= *capacity) return 1;
    size_t grown = *capacity ? *capacity : 64;
    while (grown < count) grown *= 2;
    void *block = realloc(*buffer, grown * size);
    if (block == NULL) return 0;
    *buffer = block;
    *capacity = grown;
    return 1;
}

void render_scratch_free(render_Scratch *scratch)
{
    free(scratch->rects);
    free(scratch->points);
    free(scratch->text);
    free(scratch->vertices);
    memset(scratch, 0, sizeof *scratch);
}

/* ---------------------------------------------------------------- shapes */

/* SDL wants non-negative sizes; the bindings pass what the script gave. */
static SDL_FRect normalized_rect(float x, float y, float w, float h)
{
    SDL_FRect r = { x, y, w, h };
    if (r.w < 0) { r.x += r.w; r.w = -r.w; }
    if (r.h < 0) { r.y += r.h; r.h = -r.h; }
    return r;
}

static void draw_large_circle(SDL_Renderer *renderer, float cx, float cy, float radius)
{
    SDL_FPoint ring[LARGE_CIRCLE_SEGMENTS + 1];
    for (int i = 0; i <= LARGE_CIRCLE_SEGMENTS; i++) {
        double angle = TWO_PI * i / LARGE_CIRCLE_SEGMENTS;
        ring[i].x = cx + radius * (float)cos(angle);
        ring[i].y = cy + radius * (float)sin(angle);
    }
    SDL_RenderDrawLinesF(renderer, ring, LARGE_CIRCLE_SEGMENTS + 1);
}

/* Midpoint circle: walk one octant from the top, mirror it eight ways. */
static void draw_circle(SDL_Renderer *renderer, render_Scratch *s, float cx, float cy,
                        float radius)
{
    if (radius > MIDPOINT_MAX_RADIUS) {
        draw_large_circle(renderer, cx, cy, radius);
        return;
    }
    int r = (int)lroundf(radius);
    size_t max_points = 8 * ((size_t)r + 1);
    if (!reserve((void **)&s->points, &s->point_capacity, max_points, sizeof *s->points)) return;
    size_t n = 0;
    int x = 0, y = r, decision = 1 - r;
    while (x <= y) {
        const int offsets[8][2] = { { x, y }, { -x, y }, { x, -y }, { -x, -y },
                                    { y, x }, { -y, x }, { y, -x }, { -y, -x } };
        for (int i = 0; i < 8; i++)
            s->points[n++] = (SDL_FPoint){ cx + (float)offsets[i][0], cy + (float)offsets[i][1] };
        x++;
        if (decision < 0) {
            decision += 2 * x + 1;
        } else {
            y--;
            decision += 2 * (x - y) + 1;
        }
    }
    SDL_RenderDrawPointsF(renderer, s->points, (int)n);
}

/* One span a row, only for rows inside the target. */
static void fill_circle(SDL_Renderer *renderer, render_Scratch *s, float cx, float cy,
                        float radius, int target_width, int target_height)
{
    if (radius <= 0) return;
    float top = fmaxf(floorf(cy - radius), 0.0f);
    float bottom = fminf(ceilf(cy + radius), (float)target_height);
    if (top >= bottom) return;
    size_t rows = (size_t)(bottom - top);
    if (!reserve((void **)&s->rects, &s->rect_capacity, rows, sizeof *s->rects)) return;
    size_t n = 0;
    for (float row = top; row < bottom; row += 1.0f) {
        float dy = row + 0.5f - cy;   /* sample at the row's centre */
        float half_squared = radius * radius - dy * dy;
        if (half_squared <= 0) continue;
        float half = sqrtf(half_squared);
        /* Clipped here so that SDL never sees coordinates far off the target. */
        float left = fmaxf(roundf(cx - half), -1.0f);
        float right = fminf(roundf(cx + half), (float)target_width + 1.0f);
        if (left < right) s->rects[n++] = (SDL_FRect){ left, row, right - left, 1 };
    }
    SDL_RenderFillRectsF(renderer, s->rects, (int)n);
}

/* ---------------------------------------------------------------- text */

void render_text(SDL_Renderer *renderer, render_Scratch *s, float x, float y,
                 float scale, const char *text, size_t len)
{
    if (len == 0 || !(scale > 0) || len > (size_t)INT32_MAX / FONT_BYTES_PER_CHAR) return;
    if (!reserve((void **)&s->text, &s->text_capacity, len + 1, 1)) return;
    memcpy(s->text, text, len);
    s->text[len] = '\0';
    size_t vertex_bytes = len * FONT_BYTES_PER_CHAR + 256;
    int quads;
    for (;;) {
        if (!reserve(&s->vertices, &s->vertex_capacity, vertex_bytes, 1)) return;
        quads = stb_easy_font_print(0, 0, s->text, NULL, s->vertices, (int)s->vertex_capacity);
        /* A full buffer may mean the text was cut: try again, larger. */
        if ((size_t)quads * 4 * FONT_VERTEX_SIZE + 4 * FONT_VERTEX_SIZE <= s->vertex_capacity) break;
        vertex_bytes = s->vertex_capacity * 2;
    }
    if (!reserve((void **)&s->rects, &s->rect_capacity, (size_t)quads, sizeof *s->rects)) return;
    const unsigned char *v = s->vertices;
    for (int q = 0; q < quads; q++, v += 4 * FONT_VERTEX_SIZE) {
        float corner[4]; /* x0, y0 of the first vertex, x1, y1 of the third */
        memcpy(&corner[0], v, 2 * sizeof(float));
        memcpy(&corner[2], v + 2 * FONT_VERTEX_SIZE, 2 * sizeof(float));
        s->rects[q] = (SDL_FRect){ x + corner[0] * scale, y + corner[1] * scale,
                                   (corner[2] - corner[0]) * scale,
                                   (corner[3] - corner[1]) * scale };
    }
    SDL_RenderFillRectsF(renderer, s->rects, quads);
}

/* ---------------------------------------------------------------- the list */

static int finite_command(const engine_DrawCmd *c)
{
    return isfinite(c->x) && isfinite(c->y) && isfinite(c->w) && isfinite(c->h);
}

static void draw_command(SDL_Renderer *renderer, const engine_DrawList *list,
                         const engine_DrawCmd *c, render_Scratch *s, int target_width,
                         int target_height)
{
    SDL_SetRenderDrawColor(renderer, c->r, c->g, c->b, c->a);
    SDL_FRect rect;
    switch ((engine_DrawKind)c->kind) {
    case ENGINE_DRAW_CLEAR:
        SDL_RenderClear(renderer);
        break;
    case ENGINE_DRAW_RECT:
        rect = normalized_rect(c->x, c->y, c->w, c->h);
        SDL_RenderDrawRectF(renderer, &rect);
        break;
    case ENGINE_DRAW_FILL_RECT:
        rect = normalized_rect(c->x, c->y, c->w, c->h);
        SDL_RenderFillRectF(renderer, &rect);
        break;
    case ENGINE_DRAW_LINE:
        SDL_RenderDrawLineF(renderer, c->x, c->y, c->w, c->h);
        break;
    case ENGINE_DRAW_CIRCLE:
        if (c->w >= 0 && c->w <= OUTLINE_MAX_RADIUS) draw_circle(renderer, s, c->x, c->y, c->w);
        break;
    case ENGINE_DRAW_FILL_CIRCLE:
        fill_circle(renderer, s, c->x, c->y, c->w, target_width, target_height);
        break;
    case ENGINE_DRAW_TEXT:
        if ((size_t)c->text_offset + c->text_len <= arrlenu(list->text))
            render_text(renderer, s, c->x, c->y, c->w, list->text + c->text_offset, c->text_len);
        break;
    }
}

void render_draw_list(SDL_Renderer *renderer, const engine_DrawList *list,
                      render_Scratch *scratch)
{
    int width = 0, height = 0;
    SDL_RenderGetLogicalSize(renderer, &width, &height);
    if (height == 0 && SDL_GetRendererOutputSize(renderer, &width, &height) != 0)
        width = height = 0;
    SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND);
    size_t count = arrlenu(list->cmds);
    for (size_t i = 0; i < count; i++) {
        if (finite_command(&list->cmds[i]))
            draw_command(renderer, list, &list->cmds[i], scratch, width, height);
    }
}
