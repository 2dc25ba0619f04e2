/*
 * render.h — replaying an engine draw list onto an SDL_Renderer.
 *
 * The same code draws into the window and into the software renderer that
 * makes screenshots, so a PNG shows exactly the game's image. The scratch
 * buffers are kept between frames: a steady game does not allocate here.
 */
#ifndef HOST_RENDER_H
#define HOST_RENDER_H

#include <stddef.h>

#include <SDL.h>

#include "engine.h"

typedef struct render_Scratch {
    SDL_FRect *rects;           /* filled circles' spans, text quads */
    size_t rect_capacity;
    SDL_FPoint *points;         /* circle outlines */
    size_t point_capacity;
    char *text;                 /* NUL-terminated copy for stb_easy_font */
    size_t text_capacity;
    void *vertices;             /* stb_easy_font's quads */
    size_t vertex_capacity;
} render_Scratch;

void render_scratch_free(render_Scratch *scratch);

/* Draws every command of [list] in order. Commands with non-finite
 * coordinates are skipped (nothing sensible can be drawn for them). */
void render_draw_list(SDL_Renderer *renderer, const engine_DrawList *list,
                      render_Scratch *scratch);

/* [len] bytes of [text] at top-left (x, y) in the stb_easy_font face, each
 * font pixel [scale] pixels wide, in the renderer's current colour. */
void render_text(SDL_Renderer *renderer, render_Scratch *scratch, float x, float y,
                 float scale, const char *text, size_t len);

#endif /* HOST_RENDER_H */
