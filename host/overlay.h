/*
 * overlay.h — the live frame-time chart drawn over the game in a window.
 *
 * One bar per recorded frame (the last OVERLAY_FRAMES): the frame's own
 * work, the GC time inside it stacked on top in red, the GC steps in the
 * idle time after it stacked above that in amber; a line at 16.7 ms; and
 * text with the latest numbers, the script's memory with the collector's
 * phase (or, where the backend hides it, its mode), backend and GC mode.
 * Drawn after the game's commands; F1 hides it.
 */
#ifndef HOST_OVERLAY_H
#define HOST_OVERLAY_H

#include <SDL.h>

#include "recorder.h"
#include "render.h"

#define OVERLAY_FRAMES 240

typedef struct overlay_Info {
    const char *backend;
    const char *gc_mode;
    int gc_reported;
    double mem_kb;            /* script heap now */
    const char *gc_phase;     /* collector phase (tide), NULL if unknown */
    const char *gc_collector; /* shown instead when the phase is unknown:
                                 the collector mode the host set up */
} overlay_Info;

/* Draws in the renderer's logical coordinates, [target_width] wide. */
void overlay_draw(SDL_Renderer *renderer, render_Scratch *scratch, int target_width,
                  const recorder_Recorder *rec, const overlay_Info *info);

#endif /* HOST_OVERLAY_H */
