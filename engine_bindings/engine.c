/*
 * engine.c — the `engine` module scripts call (see README.md for what
 * scripts see, engine.h for the contract with the host).
 *
 * Written against lua.h/lauxlib.h and engine_compat.h only, so one source
 * builds for Lua 5.4, LuaJIT 2.1 and libtide. Every module function is a C
 * closure with two upvalues: the engine_Host (light userdata) and its own
 * qualified name ("engine.rect"), so argument errors read the same on every
 * backend: "bad argument #1 to 'engine.key_down' (unknown key 'bogus')".
 *
 * Nothing here writes to stdout; the one diagnostic (the low-latency
 * warning on stock backends) goes to stderr, once per host.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "engine_compat.h"

#include "stb_ds.h"

/* arrsetlen(a, 0) without its "unsigned < 0" comparison (-Wtype-limits):
 * keeps the capacity, so a steady game stops allocating after warm-up. */
#define arr_empty(a) ((a) ? (void)(stbds_header(a)->length = 0) : (void)0)

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-braces"
#include "stb_easy_font.h"
#pragma GCC diagnostic pop

#ifdef TIDE_VERSION_NUM
#include "tide.h" /* libtide (its lua.h defines TIDE_VERSION_NUM): see l_gc_set_low_latency */
#endif

/* ---------------------------------------------------------------- keys */

static const char *const key_names[ENGINE_KEY_COUNT] = {
    [ENGINE_KEY_LEFT] = "left", [ENGINE_KEY_RIGHT] = "right",
    [ENGINE_KEY_UP] = "up", [ENGINE_KEY_DOWN] = "down",
    [ENGINE_KEY_SPACE] = "space", [ENGINE_KEY_RETURN] = "return",
    [ENGINE_KEY_ESCAPE] = "escape", [ENGINE_KEY_TAB] = "tab",
    [ENGINE_KEY_BACKSPACE] = "backspace", [ENGINE_KEY_LSHIFT] = "lshift",
    [ENGINE_KEY_LCTRL] = "lctrl",
    [ENGINE_KEY_A] = "a", [ENGINE_KEY_B] = "b", [ENGINE_KEY_C] = "c",
    [ENGINE_KEY_D] = "d", [ENGINE_KEY_E] = "e", [ENGINE_KEY_F] = "f",
    [ENGINE_KEY_G] = "g", [ENGINE_KEY_H] = "h", [ENGINE_KEY_I] = "i",
    [ENGINE_KEY_J] = "j", [ENGINE_KEY_K] = "k", [ENGINE_KEY_L] = "l",
    [ENGINE_KEY_M] = "m", [ENGINE_KEY_N] = "n", [ENGINE_KEY_O] = "o",
    [ENGINE_KEY_P] = "p", [ENGINE_KEY_Q] = "q", [ENGINE_KEY_R] = "r",
    [ENGINE_KEY_S] = "s", [ENGINE_KEY_T] = "t", [ENGINE_KEY_U] = "u",
    [ENGINE_KEY_V] = "v", [ENGINE_KEY_W] = "w", [ENGINE_KEY_X] = "x",
    [ENGINE_KEY_Y] = "y", [ENGINE_KEY_Z] = "z",
    [ENGINE_KEY_0] = "0", [ENGINE_KEY_1] = "1", [ENGINE_KEY_2] = "2",
    [ENGINE_KEY_3] = "3", [ENGINE_KEY_4] = "4", [ENGINE_KEY_5] = "5",
    [ENGINE_KEY_6] = "6", [ENGINE_KEY_7] = "7", [ENGINE_KEY_8] = "8",
    [ENGINE_KEY_9] = "9",
    [ENGINE_KEY_F1] = "f1", [ENGINE_KEY_F2] = "f2", [ENGINE_KEY_F3] = "f3",
    [ENGINE_KEY_F4] = "f4",
};

/* ENGINE_KEY_UNKNOWN has no name either: no script can ask for it. */
const char *engine_key_name(int key)
{
    if (key <= ENGINE_KEY_UNKNOWN || key >= ENGINE_KEY_COUNT) return NULL;
    return key_names[key];
}

int engine_key_from_name(const char *name)
{
    if (name == NULL) return ENGINE_KEY_UNKNOWN;
    for (int key = ENGINE_KEY_UNKNOWN + 1; key < ENGINE_KEY_COUNT; key++)
        if (strcmp(key_names[key], name) == 0) return key;
    return ENGINE_KEY_UNKNOWN;
}

/* ---------------------------------------------------------------- random */

/* splitmix64 expands one seed into the generator's 256 bits of state. */
static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* xoshiro256** (Blackman and Vigna). */
static uint64_t rng_next(uint64_t s[4])
{
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* A float in [0, 1): the top 53 bits over 2^53. */
static double rng_float(uint64_t s[4])
{
    return (double)(rng_next(s) >> 11) * 0x1.0p-53;
}

/* A uniform value in [0, range], without bias: draw under the smallest
 * all-ones mask covering [range] and reject what lies above it. */
static uint64_t rng_below_or_equal(uint64_t s[4], uint64_t range)
{
    uint64_t mask = range;
    mask |= mask >> 1; mask |= mask >> 2; mask |= mask >> 4;
    mask |= mask >> 8; mask |= mask >> 16; mask |= mask >> 32;
    uint64_t r;
    do r = rng_next(s) & mask; while (r > range);
    return r;
}

void engine_reseed(engine_Host *host, uint64_t seed)
{
    uint64_t x = seed;
    host->seed = seed;
    for (int i = 0; i < 4; i++) host->rng[i] = splitmix64(&x);
}

/* ---------------------------------------------------------------- host */

void engine_host_init(engine_Host *host, const char *backend,
                      uint64_t (*clock_ns)(void))
{
    memset(host, 0, sizeof *host);
    host->backend = backend;
    host->clock_ns = clock_ns;
    host->width = 1280;
    host->height = 720;
    host->dt = 1.0 / 60.0;
    memset(host->color, 255, sizeof host->color);
    engine_reseed(host, 1);
}

void engine_frame_reset(engine_Host *host)
{
    arr_empty(host->draw.cmds);
    arr_empty(host->draw.text);
    memset(host->input.pressed, 0, sizeof host->input.pressed);
    host->input.mouse_pressed = 0;
    host->gc_ns = 0;
    for (int i = 0; i < host->zone_count; i++) host->zones[i].frame_ns = 0;
}

void engine_host_free(engine_Host *host)
{
    arrfree(host->draw.cmds);
    arrfree(host->draw.text);
}

static uint64_t now_ns(const engine_Host *host)
{
    return host->clock_ns ? host->clock_ns() : 0;
}

/* ---------------------------------------------------------------- arguments */

static engine_Host *host_of(lua_State *L)
{
    return (engine_Host *)lua_touserdata(L, lua_upvalueindex(1));
}

static const char *fn_name(lua_State *L)
{
    return lua_tostring(L, lua_upvalueindex(2));
}

/* "bad argument #[arg] to 'engine.x' ([fmt ...])"; does not return. */
static int arg_error(lua_State *L, int arg, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *msg = lua_pushvfstring(L, fmt, ap);
    va_end(ap);
    return luaL_error(L, "bad argument #%d to '%s' (%s)", arg, fn_name(L), msg);
}

static int type_error(lua_State *L, int arg, const char *expected)
{
    return arg_error(L, arg, "%s expected, got %s", expected, luaL_typename(L, arg));
}

static double check_number(lua_State *L, int arg)
{
    int ok = 0;
    lua_Number v = lua_tonumberx(L, arg, &ok);
    if (!ok) type_error(L, arg, "number");
    return (double)v;
}

static double opt_number(lua_State *L, int arg, double def)
{
    return lua_isnoneornil(L, arg) ? def : check_number(L, arg);
}

static int64_t check_int(lua_State *L, int arg)
{
    int ok = 0;
    int64_t v = engine_toint(L, arg, &ok);
    if (!ok) {
        if (lua_type(L, arg) == LUA_TNUMBER)
            arg_error(L, arg, "number has no integer representation");
        type_error(L, arg, "integer");
    }
    return v;
}

static int check_boolean(lua_State *L, int arg)
{
    if (lua_type(L, arg) != LUA_TBOOLEAN) type_error(L, arg, "boolean");
    return lua_toboolean(L, arg);
}

/* A string argument (numbers are converted, as luaL_checklstring does). */
static const char *check_text(lua_State *L, int arg, size_t *len)
{
    int t = lua_type(L, arg);
    if (t != LUA_TSTRING && t != LUA_TNUMBER) type_error(L, arg, "string");
    return lua_tolstring(L, arg, len);
}

/* A key name; strictly a string, so key_down(42) is a type error. */
static int check_key(lua_State *L, int arg)
{
    if (lua_type(L, arg) != LUA_TSTRING) type_error(L, arg, "string");
    const char *name = lua_tostring(L, arg);
    int key = engine_key_from_name(name);
    if (key == ENGINE_KEY_UNKNOWN) arg_error(L, arg, "unknown key '%s'", name);
    return key;
}

/* ---------------------------------------------------------------- drawing */

static uint8_t color_component(double v)
{
    if (!(v > 0)) return 0; /* negative or NaN */
    if (v >= 255) return 255;
    return (uint8_t)(v + 0.5);
}

static int l_color(lua_State *L)
{
    engine_Host *host = host_of(L);
    uint8_t rgba[4];
    for (int i = 0; i < 3; i++) rgba[i] = color_component(check_number(L, i + 1));
    rgba[3] = color_component(opt_number(L, 4, 255));
    memcpy(host->color, rgba, sizeof rgba);
    return 0;
}

static engine_DrawCmd *push_cmd(engine_Host *host, engine_DrawKind kind,
                                float x, float y, float w, float h)
{
    engine_DrawCmd cmd = { .kind = (uint8_t)kind,
                           .r = host->color[0], .g = host->color[1],
                           .b = host->color[2], .a = host->color[3],
                           .x = x, .y = y, .w = w, .h = h };
    arrput(host->draw.cmds, cmd);
    return &arrlast(host->draw.cmds);
}

/* CLEAR carries its own colour; the current colour is left as it was. */
static int l_clear(lua_State *L)
{
    uint8_t rgb[3];
    for (int i = 0; i < 3; i++) rgb[i] = color_component(check_number(L, i + 1));
    engine_DrawCmd *cmd = push_cmd(host_of(L), ENGINE_DRAW_CLEAR, 0, 0, 0, 0);
    cmd->r = rgb[0];
    cmd->g = rgb[1];
    cmd->b = rgb[2];
    cmd->a = 255;
    return 0;
}

/* Commands taking [n] numbers: x, y, then w, h (or x2, y2, or radius). */
static int draw_shape(lua_State *L, engine_DrawKind kind, int n)
{
    float v[4] = { 0, 0, 0, 0 };
    for (int i = 0; i < n; i++) v[i] = (float)check_number(L, i + 1);
    push_cmd(host_of(L), kind, v[0], v[1], v[2], v[3]);
    return 0;
}

static int l_rect(lua_State *L) { return draw_shape(L, ENGINE_DRAW_RECT, 4); }
static int l_fill_rect(lua_State *L) { return draw_shape(L, ENGINE_DRAW_FILL_RECT, 4); }
static int l_line(lua_State *L) { return draw_shape(L, ENGINE_DRAW_LINE, 4); }
static int l_circle(lua_State *L) { return draw_shape(L, ENGINE_DRAW_CIRCLE, 3); }
static int l_fill_circle(lua_State *L) { return draw_shape(L, ENGINE_DRAW_FILL_CIRCLE, 3); }

/* stb_easy_font has glyphs for bytes 32..126 and reads out of its tables
 * for anything else, so other bytes (except newlines) become '?'. */
static char font_byte(unsigned char c)
{
    return (c == '\n' || (c >= 32 && c <= 126)) ? (char)c : '?';
}

/* Appends [s] to the frame's text, made drawable, and returns its offset;
 * the width in font pixels goes to [*width]. A NUL is put after the bytes
 * for stb_easy_font_width and dropped again. */
static uint32_t append_text(lua_State *L, engine_Host *host, const char *s,
                            size_t len, int *width)
{
    size_t offset = arrlenu(host->draw.text);
    if (len > UINT32_MAX - 1 - offset) luaL_error(L, "%s: too much text in one frame", fn_name(L));
    char *dst = arraddnptr(host->draw.text, len + 1);
    for (size_t i = 0; i < len; i++) dst[i] = font_byte((unsigned char)s[i]);
    dst[len] = '\0';
    *width = stb_easy_font_width(dst);
    arrsetlen(host->draw.text, offset + len);
    return (uint32_t)offset;
}

static int l_text(lua_State *L)
{
    engine_Host *host = host_of(L);
    float x = (float)check_number(L, 1);
    float y = (float)check_number(L, 2);
    size_t len;
    const char *s = check_text(L, 3, &len);
    double scale = opt_number(L, 4, 1);
    int width;
    uint32_t offset = append_text(L, host, s, len, &width);
    engine_DrawCmd *cmd = push_cmd(host, ENGINE_DRAW_TEXT, x, y, (float)scale, 0);
    cmd->text_offset = offset;
    cmd->text_len = (uint32_t)len;
    lua_pushnumber(L, width * scale);
    return 1;
}

static int l_text_width(lua_State *L)
{
    engine_Host *host = host_of(L);
    size_t len;
    const char *s = check_text(L, 1, &len);
    double scale = opt_number(L, 2, 1);
    int width;
    size_t before = arrlenu(host->draw.text);
    append_text(L, host, s, len, &width);
    arrsetlen(host->draw.text, before);
    lua_pushnumber(L, width * scale);
    return 1;
}

/* ---------------------------------------------------------------- input */

static int l_key_down(lua_State *L)
{
    lua_pushboolean(L, host_of(L)->input.down[check_key(L, 1)] != 0);
    return 1;
}

static int l_key_pressed(lua_State *L)
{
    lua_pushboolean(L, host_of(L)->input.pressed[check_key(L, 1)] != 0);
    return 1;
}

static int l_mouse(lua_State *L)
{
    const engine_Input *in = &host_of(L)->input;
    lua_pushnumber(L, in->mouse_x);
    lua_pushnumber(L, in->mouse_y);
    engine_pushint(L, in->mouse_buttons);
    return 3;
}

static int l_mouse_pressed(lua_State *L)
{
    int64_t button = lua_isnoneornil(L, 1) ? 1 : check_int(L, 1);
    if (button < 1 || button > 3) arg_error(L, 1, "button must be 1, 2 or 3");
    uint32_t bit = 1u << (button - 1);
    lua_pushboolean(L, (host_of(L)->input.mouse_pressed & bit) != 0);
    return 1;
}

/* ---------------------------------------------------------------- time, run */

static int l_frame(lua_State *L) { engine_pushint(L, (int64_t)host_of(L)->frame); return 1; }
static int l_dt(lua_State *L) { lua_pushnumber(L, host_of(L)->dt); return 1; }
static int l_width(lua_State *L) { engine_pushint(L, host_of(L)->width); return 1; }
static int l_height(lua_State *L) { engine_pushint(L, host_of(L)->height); return 1; }
static int l_headless(lua_State *L) { lua_pushboolean(L, host_of(L)->headless); return 1; }
static int l_autopilot(lua_State *L) { lua_pushboolean(L, host_of(L)->autopilot); return 1; }
static int l_quit(lua_State *L) { host_of(L)->quit_requested = 1; return 0; }

static int l_time(lua_State *L)
{
    const engine_Host *host = host_of(L);
    lua_pushnumber(L, (double)host->frame * host->dt);
    return 1;
}

static int l_clock(lua_State *L)
{
    lua_pushnumber(L, (double)now_ns(host_of(L)) / 1e9);
    return 1;
}

static int l_backend(lua_State *L)
{
    const char *backend = host_of(L)->backend;
    lua_pushstring(L, backend ? backend : "unknown");
    return 1;
}

/* ---------------------------------------------------------------- random */

static int l_random(lua_State *L)
{
    engine_Host *host = host_of(L);
    int64_t low, high;
    switch (lua_gettop(L)) {
    case 0:
        lua_pushnumber(L, rng_float(host->rng));
        return 1;
    case 1:
        low = 1;
        high = check_int(L, 1);
        if (low > high) arg_error(L, 1, "interval is empty");
        break;
    case 2:
        low = check_int(L, 1);
        high = check_int(L, 2);
        if (low > high) arg_error(L, 2, "interval is empty");
        break;
    default:
        return luaL_error(L, "wrong number of arguments to '%s'", fn_name(L));
    }
    uint64_t offset = rng_below_or_equal(host->rng, (uint64_t)high - (uint64_t)low);
    engine_pushint(L, (int64_t)((uint64_t)low + offset));
    return 1;
}

static int l_seed(lua_State *L)
{
    engine_Host *host = host_of(L);
    if (!lua_isnoneornil(L, 1)) engine_reseed(host, (uint64_t)check_int(L, 1));
    engine_pushint(L, (int64_t)host->seed);
    return 1;
}

/* ---------------------------------------------------------------- gc */

/* Every engine.gc function runs between gc_start and gc_done, so its time
 * lands in host->gc_ns. */
static uint64_t gc_start(lua_State *L) { return now_ns(host_of(L)); }

static int gc_done(lua_State *L, uint64_t start, int results)
{
    engine_Host *host = host_of(L);
    uint64_t end = now_ns(host);
    if (end > start) host->gc_ns += end - start;
    return results;
}

static int l_gc_collect(lua_State *L)
{
    uint64_t start = gc_start(L);
    engine_gc_collect(L);
    return gc_done(L, start, 0);
}

static int l_gc_step(lua_State *L)
{
    uint64_t start = gc_start(L);
    int64_t kb = lua_isnoneornil(L, 1) ? 0 : check_int(L, 1);
    if (kb < 0 || kb > 1024 * 1024) arg_error(L, 1, "step size must be 0 to 1048576 KiB");
    lua_pushboolean(L, engine_gc_step(L, (int)kb));
    return gc_done(L, start, 1);
}

static int l_gc_count(lua_State *L)
{
    uint64_t start = gc_start(L);
    lua_pushnumber(L, engine_gc_count_kb(L));
    return gc_done(L, start, 1);
}

static int l_gc_set_low_latency(lua_State *L)
{
    uint64_t start = gc_start(L);
    engine_Host *host = host_of(L);
    int on = check_boolean(L, 1);
    int previous;
#ifdef TIDE_VERSION_NUM
    previous = !tide_gc_allow_synchronous_major(L, !on); /* libtide only */
#else
    previous = host->low_latency;
    if (!host->warned_low_latency) {
        host->warned_low_latency = 1;
        fprintf(stderr, "engine.gc.set_low_latency: the %s backend has no "
                "low-latency mode; ignored\n", host->backend ? host->backend : "unknown");
    }
#endif
    host->low_latency = on;
    lua_pushboolean(L, previous);
    return gc_done(L, start, 1);
}

static int l_gc_low_latency(lua_State *L)
{
    uint64_t start = gc_start(L);
#ifdef TIDE_VERSION_NUM
    /* The runtime's own setting: the host may have switched it on
     * (--gc low-latency) without going through engine.gc. tide.h has no
     * getter, so set-and-restore; neither call collects or runs code. */
    int allowed = tide_gc_allow_synchronous_major(L, 1);
    tide_gc_allow_synchronous_major(L, allowed);
    lua_pushboolean(L, !allowed);
#else
    lua_pushboolean(L, host_of(L)->low_latency);
#endif
    return gc_done(L, start, 1);
}

/* ---------------------------------------------------------------- zones */

static engine_Zone *find_zone(engine_Host *host, const char *name)
{
    for (int i = 0; i < host->zone_count; i++)
        if (strcmp(host->zones[i].name, name) == 0) return &host->zones[i];
    return NULL;
}

static const char *check_zone_name(lua_State *L)
{
    size_t len;
    if (lua_type(L, 1) != LUA_TSTRING) type_error(L, 1, "string");
    const char *name = lua_tolstring(L, 1, &len);
    if (len == 0 || len >= ENGINE_ZONE_NAME_MAX || strlen(name) != len)
        arg_error(L, 1, "zone name must be 1 to %d bytes without NULs",
                  ENGINE_ZONE_NAME_MAX - 1);
    return name;
}

static int l_zone_begin(lua_State *L)
{
    engine_Host *host = host_of(L);
    const char *name = check_zone_name(L);
    engine_Zone *zone = find_zone(host, name);
    if (zone == NULL) {
        if (host->zone_count == ENGINE_MAX_ZONES)
            return luaL_error(L, "%s: too many zones (at most %d names), cannot add '%s'",
                              fn_name(L), ENGINE_MAX_ZONES, name);
        zone = &host->zones[host->zone_count++];
        memset(zone, 0, sizeof *zone);
        memcpy(zone->name, name, strlen(name) + 1);
    }
    if (zone->open_since_ns != 0)
        return luaL_error(L, "%s: zone '%s' is already open", fn_name(L), name);
    uint64_t now = now_ns(host);
    zone->open_since_ns = now ? now : 1; /* 0 means closed */
    return 0;
}

static int l_zone_end(lua_State *L)
{
    engine_Host *host = host_of(L);
    const char *name = check_zone_name(L);
    engine_Zone *zone = find_zone(host, name);
    if (zone == NULL || zone->open_since_ns == 0)
        return luaL_error(L, "%s: zone '%s' is not open (no matching zone_begin)",
                          fn_name(L), name);
    uint64_t now = now_ns(host);
    uint64_t elapsed = now > zone->open_since_ns ? now - zone->open_since_ns : 0;
    zone->frame_ns += elapsed;
    zone->total_ns += elapsed;
    zone->calls++;
    zone->open_since_ns = 0;
    return 0;
}

/* ---------------------------------------------------------------- the module */

static const luaL_Reg engine_functions[] = {
    { "color", l_color }, { "clear", l_clear }, { "rect", l_rect },
    { "fill_rect", l_fill_rect }, { "line", l_line }, { "circle", l_circle },
    { "fill_circle", l_fill_circle }, { "text", l_text },
    { "text_width", l_text_width },
    { "key_down", l_key_down }, { "key_pressed", l_key_pressed },
    { "mouse", l_mouse }, { "mouse_pressed", l_mouse_pressed },
    { "frame", l_frame }, { "dt", l_dt }, { "time", l_time },
    { "clock", l_clock }, { "width", l_width }, { "height", l_height },
    { "headless", l_headless }, { "autopilot", l_autopilot },
    { "backend", l_backend }, { "quit", l_quit },
    { "random", l_random }, { "seed", l_seed },
    { "zone_begin", l_zone_begin }, { "zone_end", l_zone_end },
    { NULL, NULL }
};

static const luaL_Reg gc_functions[] = {
    { "collect", l_gc_collect }, { "step", l_gc_step }, { "count", l_gc_count },
    { "set_low_latency", l_gc_set_low_latency }, { "low_latency", l_gc_low_latency },
    { NULL, NULL }
};

/* The registry key under which engine_open leaves the host pointer. */
static const char host_key = 'h';

/* Fills the table on top of the stack with closures over [host] and their
 * qualified names ([prefix] "name"). */
static void add_functions(lua_State *L, engine_Host *host, const char *prefix,
                          const luaL_Reg *fns)
{
    for (; fns->name != NULL; fns++) {
        lua_pushlightuserdata(L, host);
        lua_pushfstring(L, "%s%s", prefix, fns->name);
        lua_pushcclosure(L, fns->func, 2);
        lua_setfield(L, -2, fns->name);
    }
}

static int engine_loader(lua_State *L)
{
    lua_pushlightuserdata(L, (void *)&host_key);
    lua_rawget(L, LUA_REGISTRYINDEX);
    engine_Host *host = (engine_Host *)lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (host == NULL) return luaL_error(L, "engine: no host (engine_open was not called)");
    lua_newtable(L);
    add_functions(L, host, "engine.", engine_functions);
    lua_newtable(L);
    add_functions(L, host, "engine.gc.", gc_functions);
    lua_setfield(L, -2, "gc");
    return 1;
}

void engine_open(lua_State *L, engine_Host *host)
{
    lua_pushlightuserdata(L, (void *)&host_key);
    lua_pushlightuserdata(L, host);
    lua_rawset(L, LUA_REGISTRYINDEX);

    lua_getglobal(L, "package");
    if (lua_istable(L, -1)) {
        lua_getfield(L, -1, "preload");
        if (lua_istable(L, -1)) {
            lua_pushcfunction(L, engine_loader);
            lua_setfield(L, -2, "engine");
            lua_pop(L, 2);
            return;
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    /* No package library: load the module now, into package.loaded. */
    luaL_requiref(L, "engine", engine_loader, 0);
    lua_pop(L, 1);
}
