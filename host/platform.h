/*
 * platform.h — where the frames go: an SDL2 window, or nothing (headless).
 *
 * In a window: the renderer (vsync when the driver offers it) with the
 * engine's logical size, keyboard and mouse turned into engine_Input, the
 * close button, F1 for the overlay. Headless: SDL's video is never
 * started; a screenshot renders the frame's draw list into a software
 * renderer on a surface and writes it as PNG. Screenshots are made the same
 * way in a window, so they show the game's image without the overlay.
 * Also the clock and sleeping: the OS-facing parts of the host.
 */
#ifndef HOST_PLATFORM_H
#define HOST_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

#include <SDL.h>

#include "engine.h"
#include "options.h"
#include "render.h"

typedef struct platform_Platform {
    int headless;
    SDL_Window *window;
    SDL_Renderer *renderer;
    int vsync;                  /* presenting waits for the vertical blank */
    int width, height;          /* logical size */
    int close_requested;        /* the window was closed */
    int overlay_visible;        /* toggled with F1 */
    const char *fallback_reason;   /* why AUTO ended up headless, or NULL */
    char fallback_text[256];
    render_Scratch scratch;
} platform_Platform;

/* Monotonic nanoseconds (never 0). */
uint64_t platform_clock_ns(void);
/* Sleeps until platform_clock_ns() reaches [deadline_ns]. */
void platform_sleep_until(uint64_t deadline_ns);

/* Opens a window of the logical size [width] x [height], or goes headless
 * (OPTIONS_DISPLAY_HEADLESS, or AUTO without a usable display). Returns 0
 * with a message in [err] only when a window was insisted on and none could
 * be opened. */
int platform_open(platform_Platform *p, options_Display display, int width, int height,
                  const char *title, char *err, size_t err_size);
void platform_close(platform_Platform *p);

/* Window: handles pending events into [input] (down states and pressed
 * edges; edges are cleared by engine_frame_reset). Headless: nothing. */
void platform_poll(platform_Platform *p, engine_Input *input);

/* Window: draws [list] into the back buffer (black, then the commands). */
void platform_draw(platform_Platform *p, const engine_DrawList *list);
/* Window: shows the back buffer; with vsync this waits for the blank. */
void platform_flip(platform_Platform *p);

/* Renders [list] into a new [width] x [height] RGBA surface with the
 * software renderer. NULL with a message in [err] on failure. */
SDL_Surface *platform_render_offscreen(platform_Platform *p, const engine_DrawList *list,
                                       int width, int height, char *err, size_t err_size);
/* Writes an RGBA32 [surface] as PNG. Returns 1, or 0 with a message. */
int platform_write_png(SDL_Surface *surface, const char *path, char *err, size_t err_size);

#endif /* HOST_PLATFORM_H */
