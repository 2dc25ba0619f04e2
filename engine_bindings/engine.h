/*
 * engine.h — the contract between a host and the `engine` module.
 *
 * Scripts call `local engine = require("engine")` and never see SDL, the
 * host or the runtime's internals. The bindings are written against
 * lua.h/lauxlib.h only (plus engine_compat.h, which papers over the Lua 5.1
 * API of LuaJIT), so the same file builds against stock Lua 5.4, LuaJIT and
 * libtide.
 *
 * Ownership and timing:
 *   - The host owns one engine_Host per lua_State and keeps it alive as long
 *     as the state. Before each frame it sets `frame`, `input`; after the
 *     script's update() and draw() it reads `draw`, `quit_requested`, the
 *     per-frame counters, and then calls engine_frame_reset().
 *   - The bindings only ever write the "outputs" below; the host only ever
 *     writes the "inputs". Nothing here is touched from another thread.
 */
#ifndef ENGINE_H
#define ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "lua.h"

/* Keys a script can ask for by name: engine.key_down("left"). */
typedef enum engine_Key {
    ENGINE_KEY_UNKNOWN = 0,
    ENGINE_KEY_LEFT, ENGINE_KEY_RIGHT, ENGINE_KEY_UP, ENGINE_KEY_DOWN,
    ENGINE_KEY_SPACE, ENGINE_KEY_RETURN, ENGINE_KEY_ESCAPE, ENGINE_KEY_TAB,
    ENGINE_KEY_BACKSPACE, ENGINE_KEY_LSHIFT, ENGINE_KEY_LCTRL,
    ENGINE_KEY_A, ENGINE_KEY_B, ENGINE_KEY_C, ENGINE_KEY_D, ENGINE_KEY_E,
    ENGINE_KEY_F, ENGINE_KEY_G, ENGINE_KEY_H, ENGINE_KEY_I, ENGINE_KEY_J,
    ENGINE_KEY_K, ENGINE_KEY_L, ENGINE_KEY_M, ENGINE_KEY_N, ENGINE_KEY_O,
    ENGINE_KEY_P, ENGINE_KEY_Q, ENGINE_KEY_R, ENGINE_KEY_S, ENGINE_KEY_T,
    ENGINE_KEY_U, ENGINE_KEY_V, ENGINE_KEY_W, ENGINE_KEY_X, ENGINE_KEY_Y,
    ENGINE_KEY_Z,
    ENGINE_KEY_0, ENGINE_KEY_1, ENGINE_KEY_2, ENGINE_KEY_3, ENGINE_KEY_4,
    ENGINE_KEY_5, ENGINE_KEY_6, ENGINE_KEY_7, ENGINE_KEY_8, ENGINE_KEY_9,
    ENGINE_KEY_F1, ENGINE_KEY_F2, ENGINE_KEY_F3, ENGINE_KEY_F4,
    ENGINE_KEY_COUNT
} engine_Key;

/* "left", "space", "a", "f1", ...; NULL for an out-of-range key. */
const char *engine_key_name(int key);
/* The inverse of engine_key_name; ENGINE_KEY_UNKNOWN for an unknown name. */
int engine_key_from_name(const char *name);

enum { ENGINE_MOUSE_LEFT = 1u << 0, ENGINE_MOUSE_RIGHT = 1u << 1,
       ENGINE_MOUSE_MIDDLE = 1u << 2 };

typedef struct engine_Input {
    uint8_t down[ENGINE_KEY_COUNT];     /* held during this frame */
    uint8_t pressed[ENGINE_KEY_COUNT];  /* went down since the last frame */
    float mouse_x, mouse_y;             /* in window coordinates */
    uint32_t mouse_buttons;             /* ENGINE_MOUSE_* bits held */
    uint32_t mouse_pressed;             /* ENGINE_MOUSE_* bits gone down */
} engine_Input;

/* One drawing command. Coordinates are window pixels, origin top left. */
typedef enum engine_DrawKind {
    ENGINE_DRAW_CLEAR,        /* whole target in colour */
    ENGINE_DRAW_RECT,         /* outline: x, y, w, h */
    ENGINE_DRAW_FILL_RECT,    /* x, y, w, h */
    ENGINE_DRAW_LINE,         /* from (x, y) to (w, h) */
    ENGINE_DRAW_CIRCLE,       /* outline: centre (x, y), radius w */
    ENGINE_DRAW_FILL_CIRCLE,  /* centre (x, y), radius w */
    ENGINE_DRAW_TEXT          /* top-left (x, y), scale w, text bytes */
} engine_DrawKind;

typedef struct engine_DrawCmd {
    uint8_t kind;             /* engine_DrawKind */
    uint8_t r, g, b, a;       /* colour current when the command was issued */
    float x, y, w, h;         /* meaning depends on kind, see above */
    uint32_t text_offset;     /* TEXT: first byte in engine_DrawList.text */
    uint32_t text_len;        /* TEXT: byte count (not NUL-terminated) */
} engine_DrawCmd;

/* The frame's drawing, in issue order. Both arrays are stb_ds dynamic
 * arrays (arrlen/arrput); engine_frame_reset() empties them without
 * freeing, so a steady game does not allocate here after warm-up. */
typedef struct engine_DrawList {
    engine_DrawCmd *cmds;
    char *text;
} engine_DrawList;

/* A named profiler zone: engine.zone_begin(name) ... engine.zone_end(name). */
#define ENGINE_MAX_ZONES 16
#define ENGINE_ZONE_NAME_MAX 32
typedef struct engine_Zone {
    char name[ENGINE_ZONE_NAME_MAX];
    uint64_t frame_ns;        /* time inside the zone during this frame */
    uint64_t total_ns;        /* over the whole run */
    uint64_t calls;           /* completed begin/end pairs, whole run */
    uint64_t open_since_ns;   /* clock when the open begin happened; 0 if closed */
} engine_Zone;

typedef struct engine_Host {
    /* ---- inputs, written by the host ---- */
    const char *backend;      /* "lua5.4", "luajit" or "tide" */
    int width, height;        /* logical window size in pixels */
    int headless;             /* no window: nothing is shown */
    int autopilot;            /* the game should play itself */
    uint64_t seed;            /* seed of engine.random at start */
    uint64_t frame;           /* index of the frame being run, from 0 */
    double dt;                /* fixed timestep in seconds (1/60) */
    engine_Input input;
    uint64_t (*clock_ns)(void);   /* monotonic nanoseconds */

    /* ---- outputs, written by the bindings ---- */
    engine_DrawList draw;
    int quit_requested;       /* the script called engine.quit() */
    int low_latency;          /* last engine.gc.set_low_latency() request */
    uint64_t gc_ns;           /* time in engine.gc.* calls this frame */
    engine_Zone zones[ENGINE_MAX_ZONES];
    int zone_count;

    /* ---- private to the bindings ---- */
    uint8_t color[4];         /* current drawing colour */
    uint64_t rng[4];          /* xoshiro256** state of engine.random */
    int warned_low_latency;   /* stock backends warn once */
} engine_Host;

/* Sets the defaults (1280x720, dt 1/60, white, seed 1) and seeds the
 * generator; the host then overrides what it wants and calls
 * engine_reseed() if it changed `seed`. */
void engine_host_init(engine_Host *host, const char *backend,
                      uint64_t (*clock_ns)(void));
void engine_reseed(engine_Host *host, uint64_t seed);

/* Registers `engine` in package.preload so that require("engine") returns
 * the module. The state keeps a light pointer to [host]. */
void engine_open(lua_State *L, engine_Host *host);

/* Called by the host after it has consumed a frame's outputs: empties the
 * draw list, clears per-frame counters and input edges (`pressed`). */
void engine_frame_reset(engine_Host *host);

/* Frees what the bindings allocated inside [host] (the draw list). */
void engine_host_free(engine_Host *host);

#endif /* ENGINE_H */
