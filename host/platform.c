/*
 * platform.c — the SDL2 window and its input, the headless target,
 * screenshots, the clock (see platform.h).
 *
 * Keys are read by scancode, the key's place on the keyboard, so WASD
 * stays WASD on any layout. Every key event reaches the game, F1 included;
 * F1 also toggles the overlay. Only closing the window ends a run from here.
 */
#include "platform.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stb_image_write.h"

uint64_t platform_clock_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint64_t ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
    return ns ? ns : 1;
}

void platform_sleep_until(uint64_t deadline_ns)
{
    struct timespec until = { (time_t)(deadline_ns / 1000000000u),
                              (long)(deadline_ns % 1000000000u) };
    /* Absolute time: a signal that cuts the sleep short does not stretch it. */
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR) {}
}

/* ---------------------------------------------------------------- opening */

/* On X11/Wayland systems, no display variable means SDL would only fail
 * (slowly, on some drivers). An explicit SDL_VIDEODRIVER is left to SDL. */
static int display_may_exist(void)
{
#if defined(__APPLE__) || defined(_WIN32)
    return 1;
#else
    const char *names[] = { "DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *value = getenv(names[i]);
        if (value != NULL && value[0] != '\0') return 1;
    }
    return 0;
#endif
}

/* Vsync first; then whatever the driver has. */
static SDL_Renderer *create_renderer(SDL_Window *window, int *vsync)
{
    SDL_Renderer *renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_PRESENTVSYNC);
    if (renderer == NULL) renderer = SDL_CreateRenderer(window, -1, 0);
    if (renderer == NULL) renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE);
    SDL_RendererInfo info;
    *vsync = renderer && SDL_GetRendererInfo(renderer, &info) == 0
             && (info.flags & SDL_RENDERER_PRESENTVSYNC) != 0;
    return renderer;
}

/* SDL falls back to drivers that show nothing ("offscreen", "dummy") when
 * no display works; those count as a display only when asked for by name. */
static int driver_shows_nothing(void)
{
    const char *driver = SDL_GetCurrentVideoDriver();
    const char *asked = getenv("SDL_VIDEODRIVER");
    int invisible = driver && (strcmp(driver, "offscreen") == 0 || strcmp(driver, "dummy") == 0);
    return invisible && !(asked && strcmp(asked, driver) == 0);
}

static int open_window(platform_Platform *p, const char *title, char *err, size_t err_size)
{
    if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) {
        snprintf(err, err_size, "cannot start SDL video: %s", SDL_GetError());
        return 0;
    }
    if (driver_shows_nothing()) {
        snprintf(err, err_size, "no display (SDL found only its '%s' video driver)",
                 SDL_GetCurrentVideoDriver());
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
        return 0;
    }
    p->window = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                 p->width, p->height, SDL_WINDOW_RESIZABLE);
    if (p->window) p->renderer = create_renderer(p->window, &p->vsync);
    if (p->renderer == NULL) {
        snprintf(err, err_size, "cannot open a window: %s", SDL_GetError());
        if (p->window) SDL_DestroyWindow(p->window);
        p->window = NULL;
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
        return 0;
    }
    /* Scripts draw in logical pixels; SDL scales to the window's size and
     * maps mouse coordinates back. */
    SDL_RenderSetLogicalSize(p->renderer, p->width, p->height);
    return 1;
}

int platform_open(platform_Platform *p, options_Display display, int width, int height,
                  const char *title, char *err, size_t err_size)
{
    memset(p, 0, sizeof *p);
    p->width = width;
    p->height = height;
    p->overlay_visible = 1;
    p->headless = 1;
    if (display == OPTIONS_DISPLAY_HEADLESS) return 1;
    int opened = 0;
    if (!display_may_exist())
        snprintf(p->fallback_text, sizeof p->fallback_text,
                 "no display (DISPLAY and WAYLAND_DISPLAY are unset)");
    else
        opened = open_window(p, title, p->fallback_text, sizeof p->fallback_text);
    if (!opened) {
        if (display == OPTIONS_DISPLAY_WINDOW) {
            snprintf(err, err_size, "--window: %s", p->fallback_text);
            return 0;
        }
        p->fallback_reason = p->fallback_text;
        return 1;
    }
    p->headless = 0;
    return 1;
}

void platform_close(platform_Platform *p)
{
    render_scratch_free(&p->scratch);
    if (p->renderer) SDL_DestroyRenderer(p->renderer);
    if (p->window) SDL_DestroyWindow(p->window);
    if (!p->headless) SDL_QuitSubSystem(SDL_INIT_VIDEO);
    p->renderer = NULL;
    p->window = NULL;
}

/* ---------------------------------------------------------------- input */

static engine_Key key_of_scancode(SDL_Scancode code)
{
    if (code >= SDL_SCANCODE_A && code <= SDL_SCANCODE_Z)
        return (engine_Key)(ENGINE_KEY_A + (code - SDL_SCANCODE_A));
    if (code >= SDL_SCANCODE_1 && code <= SDL_SCANCODE_9)
        return (engine_Key)(ENGINE_KEY_1 + (code - SDL_SCANCODE_1));
    if (code >= SDL_SCANCODE_F1 && code <= SDL_SCANCODE_F4)
        return (engine_Key)(ENGINE_KEY_F1 + (code - SDL_SCANCODE_F1));
    switch (code) {
    case SDL_SCANCODE_0: return ENGINE_KEY_0;
    case SDL_SCANCODE_LEFT: return ENGINE_KEY_LEFT;
    case SDL_SCANCODE_RIGHT: return ENGINE_KEY_RIGHT;
    case SDL_SCANCODE_UP: return ENGINE_KEY_UP;
    case SDL_SCANCODE_DOWN: return ENGINE_KEY_DOWN;
    case SDL_SCANCODE_SPACE: return ENGINE_KEY_SPACE;
    case SDL_SCANCODE_RETURN: return ENGINE_KEY_RETURN;
    case SDL_SCANCODE_KP_ENTER: return ENGINE_KEY_RETURN;
    case SDL_SCANCODE_ESCAPE: return ENGINE_KEY_ESCAPE;
    case SDL_SCANCODE_TAB: return ENGINE_KEY_TAB;
    case SDL_SCANCODE_BACKSPACE: return ENGINE_KEY_BACKSPACE;
    case SDL_SCANCODE_LSHIFT: return ENGINE_KEY_LSHIFT;
    case SDL_SCANCODE_LCTRL: return ENGINE_KEY_LCTRL;
    default: return ENGINE_KEY_UNKNOWN;
    }
}

static uint32_t mouse_bit(Uint8 button)
{
    switch (button) {
    case SDL_BUTTON_LEFT: return ENGINE_MOUSE_LEFT;
    case SDL_BUTTON_RIGHT: return ENGINE_MOUSE_RIGHT;
    case SDL_BUTTON_MIDDLE: return ENGINE_MOUSE_MIDDLE;
    default: return 0;
    }
}

static void handle_key(platform_Platform *p, const SDL_KeyboardEvent *e, engine_Input *input)
{
    engine_Key key = key_of_scancode(e->keysym.scancode);
    int down = e->type == SDL_KEYDOWN;
    if (down && !e->repeat && e->keysym.scancode == SDL_SCANCODE_F1)
        p->overlay_visible = !p->overlay_visible;
    if (key == ENGINE_KEY_UNKNOWN) return;
    if (down && !e->repeat && !input->down[key]) input->pressed[key] = 1;
    input->down[key] = (uint8_t)down;
}

/* Keys released while another window had focus never send "up". */
static void release_everything(engine_Input *input)
{
    memset(input->down, 0, sizeof input->down);
    input->mouse_buttons = 0;
}

static void handle_event(platform_Platform *p, const SDL_Event *e, engine_Input *input)
{
    switch (e->type) {
    case SDL_QUIT:
        p->close_requested = 1;
        break;
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_CLOSE) p->close_requested = 1;
        if (e->window.event == SDL_WINDOWEVENT_FOCUS_LOST) release_everything(input);
        break;
    case SDL_KEYDOWN:
    case SDL_KEYUP:
        handle_key(p, &e->key, input);
        break;
    case SDL_MOUSEMOTION:
        input->mouse_x = (float)e->motion.x;
        input->mouse_y = (float)e->motion.y;
        break;
    case SDL_MOUSEBUTTONDOWN:
        input->mouse_x = (float)e->button.x;
        input->mouse_y = (float)e->button.y;
        input->mouse_buttons |= mouse_bit(e->button.button);
        input->mouse_pressed |= mouse_bit(e->button.button);
        break;
    case SDL_MOUSEBUTTONUP:
        input->mouse_buttons &= ~mouse_bit(e->button.button);
        break;
    default:
        break;
    }
}

void platform_poll(platform_Platform *p, engine_Input *input)
{
    if (p->headless) return;
    SDL_Event event;
    while (SDL_PollEvent(&event)) handle_event(p, &event, input);
}

/* ---------------------------------------------------------------- output */

void platform_draw(platform_Platform *p, const engine_DrawList *list)
{
    if (p->headless) return;
    SDL_SetRenderDrawColor(p->renderer, 0, 0, 0, 255);
    SDL_RenderClear(p->renderer);
    render_draw_list(p->renderer, list, &p->scratch);
}

void platform_flip(platform_Platform *p)
{
    if (!p->headless) SDL_RenderPresent(p->renderer);
}

SDL_Surface *platform_render_offscreen(platform_Platform *p, const engine_DrawList *list,
                                       int width, int height, char *err, size_t err_size)
{
    SDL_Surface *surface = SDL_CreateRGBSurfaceWithFormat(0, width, height, 32,
                                                          SDL_PIXELFORMAT_RGBA32);
    SDL_Renderer *renderer = surface ? SDL_CreateSoftwareRenderer(surface) : NULL;
    if (renderer == NULL) {
        snprintf(err, err_size, "cannot render offscreen: %s", SDL_GetError());
        SDL_FreeSurface(surface);
        return NULL;
    }
    /* Opaque black, as the window starts each frame. */
    SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255);
    SDL_RenderClear(renderer);
    render_draw_list(renderer, list, &p->scratch);
    SDL_RenderPresent(renderer);
    SDL_DestroyRenderer(renderer);
    return surface;
}

int platform_write_png(SDL_Surface *surface, const char *path, char *err, size_t err_size)
{
    int ok = 0;
    if (SDL_LockSurface(surface) == 0) {
        ok = stbi_write_png(path, surface->w, surface->h, 4, surface->pixels, surface->pitch) != 0;
        SDL_UnlockSurface(surface);
    }
    if (!ok) snprintf(err, err_size, "cannot write screenshot %s", path);
    return ok;
}
