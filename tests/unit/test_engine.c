/*
 * test_engine.c — the `engine` module seen from C and from Lua.
 *
 * Each test builds a fresh state with a host whose clock is fake (every
 * reading advances it by 1000 ns), runs Lua snippets through it and checks
 * what the bindings wrote into the host. Builds against Lua 5.4 (the unit
 * binary) and LuaJIT (by hand, see the bindings' report).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lualib.h"

#include "check.h"
#include "engine.h"
#include "engine_compat.h"

#include "stb_ds.h"

/* ---- fixture ---- */

static uint64_t fake_now;

static uint64_t fake_clock(void)
{
    fake_now += 1000;
    return fake_now;
}

typedef struct Fixture {
    lua_State *L;
    engine_Host host;
} Fixture;

static void fixture_open(Fixture *f)
{
    fake_now = 0;
    engine_host_init(&f->host, "lua5.4", fake_clock);
    f->L = luaL_newstate();
    luaL_openlibs(f->L);
    engine_open(f->L, &f->host);
    CHECK(luaL_dostring(f->L, "engine = require('engine')") == 0);
}

static void fixture_close(Fixture *f)
{
    lua_close(f->L);
    engine_host_free(&f->host);
}

/* Runs [code]; returns NULL on success or the error message (valid until
 * the next run). Results are left on the stack. */
static const char *run(Fixture *f, const char *code)
{
    static char message[512];
    lua_settop(f->L, 0);
    if (luaL_loadstring(f->L, code) != 0 || lua_pcall(f->L, 0, LUA_MULTRET, 0) != 0) {
        const char *err = lua_tostring(f->L, -1);
        snprintf(message, sizeof message, "%s", err ? err : "(non-string error)");
        return message;
    }
    return NULL;
}

/* Runs [code], which must fail with a message containing [expected]. */
static int fails_with(Fixture *f, const char *code, const char *expected)
{
    const char *err = run(f, code);
    if (err == NULL) {
        printf("  no error from: %s\n", code);
        return 0;
    }
    if (strstr(err, expected) == NULL) {
        printf("  error from %s\n    is: %s\n    expected: %s\n", code, err, expected);
        return 0;
    }
    return 1;
}

static int64_t result_int(Fixture *f, int idx)
{
    int ok = 0;
    int64_t v = engine_toint(f->L, idx, &ok);
    CHECK(ok);
    return v;
}

/* ---- keys ---- */

TEST(engine_key_names_round_trip)
{
    for (int key = ENGINE_KEY_UNKNOWN + 1; key < ENGINE_KEY_COUNT; key++) {
        const char *name = engine_key_name(key);
        if (!CHECK(name != NULL)) continue;
        CHECK_INT(engine_key_from_name(name), key);
    }
    CHECK(engine_key_name(ENGINE_KEY_UNKNOWN) == NULL);
    CHECK(engine_key_name(ENGINE_KEY_COUNT) == NULL);
    CHECK(engine_key_name(-1) == NULL);
    CHECK_STR(engine_key_name(ENGINE_KEY_LEFT), "left");
    CHECK_STR(engine_key_name(ENGINE_KEY_LCTRL), "lctrl");
    CHECK_STR(engine_key_name(ENGINE_KEY_A), "a");
    CHECK_STR(engine_key_name(ENGINE_KEY_Z), "z");
    CHECK_STR(engine_key_name(ENGINE_KEY_0), "0");
    CHECK_STR(engine_key_name(ENGINE_KEY_9), "9");
    CHECK_STR(engine_key_name(ENGINE_KEY_F4), "f4");
    CHECK_INT(engine_key_from_name("bogus"), ENGINE_KEY_UNKNOWN);
    CHECK_INT(engine_key_from_name("LEFT"), ENGINE_KEY_UNKNOWN);
    CHECK_INT(engine_key_from_name(""), ENGINE_KEY_UNKNOWN);
    CHECK_INT(engine_key_from_name(NULL), ENGINE_KEY_UNKNOWN);
}

TEST(engine_every_key_name_works_from_lua)
{
    Fixture f;
    fixture_open(&f);
    for (int key = ENGINE_KEY_UNKNOWN + 1; key < ENGINE_KEY_COUNT; key++) {
        char code[128];
        memset(f.host.input.down, 0, sizeof f.host.input.down);
        f.host.input.down[key] = 1;
        snprintf(code, sizeof code, "return engine.key_down('%s')", engine_key_name(key));
        CHECK(run(&f, code) == NULL && lua_toboolean(f.L, -1));
    }
    fixture_close(&f);
}

/* ---- random ---- */

/* Pinned from an independent reference implementation of splitmix64 +
 * xoshiro256** (a Python script written for the purpose). */
TEST(engine_random_known_values)
{
    Fixture f;
    fixture_open(&f);
    CHECK(run(&f, "return engine.random(), engine.random(), engine.random()") == NULL);
    CHECK(lua_tonumber(f.L, 1) == 0.70292183315885048);
    CHECK(lua_tonumber(f.L, 2) == 0.52043661993885693);
    CHECK(lua_tonumber(f.L, 3) == 0.5741057000197225);

    CHECK(run(&f, "engine.seed(1) local t = {} for i = 1, 5 do "
                  "t[i] = engine.random(1, 1000000) end return (table.unpack or unpack)(t)") == NULL);
    static const int64_t seed1[5] = { 463046, 412907, 673045, 435112, 210548 };
    for (int i = 0; i < 5; i++) CHECK_INT(result_int(&f, i + 1), seed1[i]);

    CHECK(run(&f, "engine.seed(42) local t = {} for i = 1, 10 do "
                  "t[i] = engine.random(6) end return (table.unpack or unpack)(t)") == NULL);
    static const int64_t seed42[10] = { 2, 2, 5, 1, 3, 6, 2, 6, 3, 6 };
    for (int i = 0; i < 10; i++) CHECK_INT(result_int(&f, i + 1), seed42[i]);
    fixture_close(&f);
}

TEST(engine_random_is_deterministic_and_reseeds)
{
    Fixture a, b;
    fixture_open(&a);
    fixture_open(&b);
    engine_reseed(&a.host, 99);
    engine_reseed(&b.host, 99);
    const char *draw = "local s = 0 for i = 1, 1000 do "
                       "s = (s * 31 + engine.random(1, 1000)) % 1000003 end return s";
    CHECK(run(&a, draw) == NULL);
    int64_t first = result_int(&a, 1);
    CHECK(run(&b, draw) == NULL);
    CHECK_INT(result_int(&b, 1), first);

    /* reseeding restarts the sequence; seed() reports it */
    CHECK(run(&a, "return engine.seed(99)") == NULL);
    CHECK_INT(result_int(&a, 1), 99);
    CHECK(run(&a, draw) == NULL);
    CHECK_INT(result_int(&a, 1), first);
    CHECK(run(&a, "return engine.seed()") == NULL);
    CHECK_INT(result_int(&a, 1), 99);
    CHECK(a.host.seed == 99);

    /* another seed gives another sequence */
    CHECK(run(&a, "engine.seed(100)") == NULL);
    CHECK(run(&a, draw) == NULL);
    CHECK(result_int(&a, 1) != first);
    fixture_close(&a);
    fixture_close(&b);
}

TEST(engine_random_float_range)
{
    Fixture f;
    fixture_open(&f);
    CHECK(run(&f, "local lo, hi, sum = 1, 0, 0 for i = 1, 100000 do "
                  "local x = engine.random() if x < lo then lo = x end "
                  "if x > hi then hi = x end sum = sum + x end "
                  "return lo, hi, sum / 100000, math.type and math.type(engine.random())") == NULL);
    CHECK(lua_tonumber(f.L, 1) >= 0.0 && lua_tonumber(f.L, 1) < 0.001);
    CHECK(lua_tonumber(f.L, 2) < 1.0 && lua_tonumber(f.L, 2) > 0.999);
    CHECK_NEAR(lua_tonumber(f.L, 3), 0.5, 0.01);
#if LUA_VERSION_NUM >= 503
    CHECK_STR(lua_tostring(f.L, 4), "float");
#endif
    fixture_close(&f);
}

TEST(engine_random_integer_bounds)
{
    Fixture f;
    fixture_open(&f);
    /* 60000 draws of a die: both ends hit, nothing outside, no face far
     * from 10000 (a biased mapping would show here) */
    CHECK(run(&f, "local n = {} for i = 0, 7 do n[i] = 0 end "
                  "for i = 1, 60000 do local x = engine.random(1, 6) "
                  "if x < 1 or x > 6 or x ~= math.floor(x) then n[0] = n[0] + 1 "
                  "else n[x] = n[x] + 1 end end "
                  "return n[0], n[1], n[2], n[3], n[4], n[5], n[6]") == NULL);
    CHECK_INT(result_int(&f, 1), 0);
    for (int face = 1; face <= 6; face++) {
        int64_t count = result_int(&f, face + 1);
        CHECK(count > 9500 && count < 10500);
    }
    CHECK(run(&f, "local lo, hi = 100, -100 for i = 1, 20000 do "
                  "local x = engine.random(-3, 3) lo = math.min(lo, x) hi = math.max(hi, x) end "
                  "local lo1, hi1 = 100, -100 for i = 1, 20000 do "
                  "local x = engine.random(5) lo1 = math.min(lo1, x) hi1 = math.max(hi1, x) end "
                  "return lo, hi, lo1, hi1, engine.random(7, 7), engine.random(1)") == NULL);
    CHECK_INT(result_int(&f, 1), -3);
    CHECK_INT(result_int(&f, 2), 3);
    CHECK_INT(result_int(&f, 3), 1);
    CHECK_INT(result_int(&f, 4), 5);
    CHECK_INT(result_int(&f, 5), 7);
    CHECK_INT(result_int(&f, 6), 1);
#if LUA_VERSION_NUM >= 503
    /* the whole 64-bit range, where the width does not fit an int64 */
    CHECK(run(&f, "local neg, pos = false, false for i = 1, 200 do "
                  "local x = engine.random(math.mininteger, math.maxinteger) "
                  "if x < 0 then neg = true else pos = true end end "
                  "return neg and pos, math.type(engine.random(3))") == NULL);
    CHECK(lua_toboolean(f.L, 1));
    CHECK_STR(lua_tostring(f.L, 2), "integer");
#endif
    fixture_close(&f);
}

/* ---- drawing ---- */

TEST(engine_draw_list_records_commands)
{
    Fixture f;
    fixture_open(&f);
    CHECK(run(&f, "engine.clear(1, 2, 3) "
                  "engine.color(10, 20, 30) engine.rect(1, 2, 3, 4) "
                  "engine.color(300, -5, 127.6, 128) engine.fill_rect(5.5, 6, 7, 8) "
                  "engine.line(0, 0, 100, 50) engine.circle(10, 20, 5) "
                  "engine.fill_circle(30, 40, 2.5) "
                  "return engine.text(7, 8, 'Hi\\n!', 2)") == NULL);
    const engine_DrawCmd *c = f.host.draw.cmds;
    if (!CHECK_INT(arrlen(c), 7)) goto done;

    CHECK_INT(c[0].kind, ENGINE_DRAW_CLEAR);
    CHECK(c[0].r == 1 && c[0].g == 2 && c[0].b == 3 && c[0].a == 255);

    CHECK_INT(c[1].kind, ENGINE_DRAW_RECT);
    CHECK(c[1].r == 10 && c[1].g == 20 && c[1].b == 30 && c[1].a == 255);
    CHECK(c[1].x == 1 && c[1].y == 2 && c[1].w == 3 && c[1].h == 4);

    CHECK_INT(c[2].kind, ENGINE_DRAW_FILL_RECT);
    CHECK(c[2].r == 255 && c[2].g == 0 && c[2].b == 128 && c[2].a == 128);
    CHECK(c[2].x == 5.5f && c[2].y == 6 && c[2].w == 7 && c[2].h == 8);

    CHECK_INT(c[3].kind, ENGINE_DRAW_LINE);
    CHECK(c[3].x == 0 && c[3].y == 0 && c[3].w == 100 && c[3].h == 50);
    CHECK(c[3].r == 255 && c[3].a == 128);

    CHECK_INT(c[4].kind, ENGINE_DRAW_CIRCLE);
    CHECK(c[4].x == 10 && c[4].y == 20 && c[4].w == 5);
    CHECK_INT(c[5].kind, ENGINE_DRAW_FILL_CIRCLE);
    CHECK(c[5].x == 30 && c[5].y == 40 && c[5].w == 2.5f);

    CHECK_INT(c[6].kind, ENGINE_DRAW_TEXT);
    CHECK(c[6].x == 7 && c[6].y == 8 && c[6].w == 2);
    CHECK_INT(c[6].text_offset, 0);
    CHECK_INT(c[6].text_len, 4);
    CHECK_INT(arrlen(f.host.draw.text), 4);
    CHECK(memcmp(f.host.draw.text, "Hi\n!", 4) == 0);
    /* widest line "Hi": H advances 6 and i 3 in stb_easy_font, times 2 */
    CHECK(lua_tonumber(f.L, 1) == 18);
done:
    fixture_close(&f);
}

TEST(engine_text_bytes_and_widths)
{
    Fixture f;
    fixture_open(&f);
    CHECK(run(&f, "return engine.text_width('Hi'), engine.text_width('Hi', 2.5), "
                  "engine.text_width(''), engine.text_width('a\\0b\\200'), "
                  "engine.text(0, 0, 'ab'), engine.text(0, 0, 12)") == NULL);
    CHECK(lua_tonumber(f.L, 1) == 9);
    CHECK(lua_tonumber(f.L, 2) == 22.5);
    CHECK(lua_tonumber(f.L, 3) == 0);
    CHECK(lua_tonumber(f.L, 4) > 0);
    CHECK(lua_tonumber(f.L, 5) == 12);
    CHECK(lua_tonumber(f.L, 6) == 12);
    /* text_width leaves nothing behind; text appends back to back */
    CHECK_INT(arrlen(f.host.draw.cmds), 2);
    CHECK_INT(arrlen(f.host.draw.text), 4);
    CHECK(memcmp(f.host.draw.text, "ab12", 4) == 0);
    CHECK_INT(f.host.draw.cmds[1].text_offset, 2);
    CHECK_INT(f.host.draw.cmds[1].text_len, 2);

    /* bytes the font has no glyph for are stored as '?' */
    CHECK(run(&f, "engine.text(0, 0, 'a\\0b\\200\\t')") == NULL);
    CHECK_INT(f.host.draw.cmds[2].text_len, 5);
    CHECK(memcmp(f.host.draw.text + f.host.draw.cmds[2].text_offset, "a?b??", 5) == 0);
    fixture_close(&f);
}

TEST(engine_frame_reset_keeps_capacity)
{
    Fixture f;
    fixture_open(&f);
    CHECK(run(&f, "for i = 1, 500 do engine.rect(i, i, 1, 1) "
                  "engine.text(0, 0, 'hello') end") == NULL);
    CHECK_INT(arrlen(f.host.draw.cmds), 1000);
    size_t cmd_cap = arrcap(f.host.draw.cmds), text_cap = arrcap(f.host.draw.text);
    engine_DrawCmd *cmds = f.host.draw.cmds;
    char *text = f.host.draw.text;
    engine_frame_reset(&f.host);
    CHECK_INT(arrlen(f.host.draw.cmds), 0);
    CHECK_INT(arrlen(f.host.draw.text), 0);
    CHECK(arrcap(f.host.draw.cmds) == cmd_cap && arrcap(f.host.draw.text) == text_cap);
    /* the next frame reuses the same memory */
    CHECK(run(&f, "for i = 1, 500 do engine.rect(i, i, 1, 1) "
                  "engine.text(0, 0, 'hello') end") == NULL);
    CHECK(f.host.draw.cmds == cmds && f.host.draw.text == text);
    CHECK_INT(f.host.draw.cmds[999].text_offset, 0 + 499 * 5);
    /* resetting an empty host is fine, and free leaves NULLs */
    engine_Host empty;
    engine_host_init(&empty, "lua5.4", fake_clock);
    engine_frame_reset(&empty);
    engine_host_free(&empty);
    CHECK(empty.draw.cmds == NULL && empty.draw.text == NULL);
    fixture_close(&f);
    CHECK(f.host.draw.cmds == NULL && f.host.draw.text == NULL);
}

TEST(engine_colour_persists_and_clear_keeps_it)
{
    Fixture f;
    fixture_open(&f);
    CHECK(run(&f, "engine.rect(0, 0, 1, 1) engine.color(1, 2, 3, 4) "
                  "engine.clear(9, 9, 9) engine.rect(0, 0, 1, 1)") == NULL);
    const engine_DrawCmd *c = f.host.draw.cmds;
    CHECK(c[0].r == 255 && c[0].g == 255 && c[0].b == 255 && c[0].a == 255);
    CHECK(c[2].r == 1 && c[2].g == 2 && c[2].b == 3 && c[2].a == 4);
    engine_frame_reset(&f.host);
    CHECK(run(&f, "engine.rect(0, 0, 1, 1)") == NULL);
    CHECK(f.host.draw.cmds[0].r == 1 && f.host.draw.cmds[0].a == 4);
    fixture_close(&f);
}

/* ---- input, time, the run ---- */

TEST(engine_input_edges_from_lua)
{
    Fixture f;
    fixture_open(&f);
    CHECK(run(&f, "for _, k in ipairs{'left','space','a','0','f1'} do "
                  "if engine.key_down(k) or engine.key_pressed(k) then return false end end "
                  "return engine.mouse_pressed()") == NULL);
    CHECK(!lua_toboolean(f.L, 1));

    f.host.input.down[ENGINE_KEY_LEFT] = 1;
    f.host.input.down[ENGINE_KEY_SPACE] = 1;
    f.host.input.pressed[ENGINE_KEY_SPACE] = 1;
    f.host.input.mouse_x = 12.5f;
    f.host.input.mouse_y = 40;
    f.host.input.mouse_buttons = ENGINE_MOUSE_LEFT | ENGINE_MOUSE_MIDDLE;
    f.host.input.mouse_pressed = ENGINE_MOUSE_MIDDLE;
    CHECK(run(&f, "local x, y, b = engine.mouse() "
                  "return engine.key_down('left'), engine.key_pressed('left'), "
                  "engine.key_down('space'), engine.key_pressed('space'), x, y, b, "
                  "engine.mouse_pressed(), engine.mouse_pressed(3), engine.mouse_pressed(2)") == NULL);
    CHECK(lua_toboolean(f.L, 1) && !lua_toboolean(f.L, 2));
    CHECK(lua_toboolean(f.L, 3) && lua_toboolean(f.L, 4));
    CHECK(lua_tonumber(f.L, 5) == 12.5 && lua_tonumber(f.L, 6) == 40);
    CHECK_INT(result_int(&f, 7), 5);
    CHECK(!lua_toboolean(f.L, 8) && lua_toboolean(f.L, 9) && !lua_toboolean(f.L, 10));

    /* the next frame: edges gone, held keys and buttons stay */
    engine_frame_reset(&f.host);
    CHECK(run(&f, "return engine.key_down('space'), engine.key_pressed('space'), "
                  "engine.mouse_pressed(3), select(3, engine.mouse())") == NULL);
    CHECK(lua_toboolean(f.L, 1) && !lua_toboolean(f.L, 2) && !lua_toboolean(f.L, 3));
    CHECK_INT(result_int(&f, 4), 5);
    fixture_close(&f);
}

TEST(engine_time_and_run)
{
    Fixture f;
    fixture_open(&f);
    CHECK(run(&f, "return engine.frame(), engine.time(), engine.dt(), engine.width(), "
                  "engine.height(), engine.headless(), engine.autopilot(), engine.backend()") == NULL);
    CHECK_INT(result_int(&f, 1), 0);
    CHECK(lua_tonumber(f.L, 2) == 0);
    CHECK(lua_tonumber(f.L, 3) == 1.0 / 60.0);
    CHECK_INT(result_int(&f, 4), 1280);
    CHECK_INT(result_int(&f, 5), 720);
    CHECK(!lua_toboolean(f.L, 6) && !lua_toboolean(f.L, 7));
    CHECK_STR(lua_tostring(f.L, 8), "lua5.4");

    f.host.frame = 90;
    f.host.headless = 1;
    f.host.autopilot = 1;
    f.host.width = 320;
    CHECK(run(&f, "return engine.frame(), engine.time(), engine.headless(), "
                  "engine.autopilot(), engine.width(), engine.clock()") == NULL);
    CHECK_INT(result_int(&f, 1), 90);
    CHECK_NEAR(lua_tonumber(f.L, 2), 1.5, 1e-12);
    CHECK(lua_toboolean(f.L, 3) && lua_toboolean(f.L, 4));
    CHECK_INT(result_int(&f, 5), 320);
    CHECK(lua_tonumber(f.L, 6) > 0);

    CHECK(!f.host.quit_requested);
    CHECK(run(&f, "engine.quit()") == NULL);
    CHECK(f.host.quit_requested);
    engine_frame_reset(&f.host);
    CHECK(f.host.quit_requested);
    fixture_close(&f);
}

/* ---- gc ---- */

/* Runs [code] with stderr sent to a file; returns what it wrote there. */
static const char *run_capturing_stderr(Fixture *f, const char *code, const char **err)
{
    static char captured[1024];
    char path[] = "/tmp/tide-test-engine-XXXXXX";
    int fd = mkstemp(path);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    *err = run(f, code);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    lseek(fd, 0, SEEK_SET);
    ssize_t n = read(fd, captured, sizeof captured - 1);
    captured[n > 0 ? n : 0] = '\0';
    close(fd);
    unlink(path);
    return captured;
}

TEST(engine_gc_functions)
{
    Fixture f;
    fixture_open(&f);
    CHECK(f.host.gc_ns == 0);
    CHECK(run(&f, "engine.gc.collect() local before = engine.gc.count() "
                  "keep = {} for i = 1, 20000 do keep[i] = {i} end "
                  "local after = engine.gc.count() "
                  "local finished = false for i = 1, 100000 do "
                  "if engine.gc.step() then finished = true break end end "
                  "return before, after, finished, engine.gc.step(64)") == NULL);
    CHECK(lua_tonumber(f.L, 1) > 1);
    CHECK(lua_tonumber(f.L, 2) > lua_tonumber(f.L, 1) + 500);
    CHECK(lua_toboolean(f.L, 3));
    CHECK(lua_isboolean(f.L, 4));
    CHECK(f.host.gc_ns > 0);

    /* the count is KiB with the remainder: it matches collectgarbage */
    CHECK(run(&f, "return engine.gc.count(), collectgarbage('count')") == NULL);
    CHECK_NEAR(lua_tonumber(f.L, 1), lua_tonumber(f.L, 2), 1.0 / 1024);

    /* freeing the garbage shows in the count */
    CHECK(run(&f, "local a = engine.gc.count() keep = nil engine.gc.collect() "
                  "return a, engine.gc.count()") == NULL);
    CHECK(lua_tonumber(f.L, 2) < lua_tonumber(f.L, 1) - 500);

    /* every engine.gc call costs at least one fake-clock tick */
    uint64_t before = f.host.gc_ns;
    CHECK(run(&f, "engine.gc.count() engine.gc.low_latency()") == NULL);
    CHECK(f.host.gc_ns >= before + 2000);
    engine_frame_reset(&f.host);
    CHECK(f.host.gc_ns == 0);
    fixture_close(&f);
}

TEST(engine_gc_low_latency_on_stock_lua)
{
    Fixture f;
    fixture_open(&f);
    const char *err;
    const char *out = run_capturing_stderr(&f,
        "local a = engine.gc.low_latency() "
        "local b = engine.gc.set_low_latency(true) "
        "local c = engine.gc.low_latency() "
        "local d = engine.gc.set_low_latency(true) "
        "local e = engine.gc.set_low_latency(false) "
        "return a, b, c, d, e, engine.gc.low_latency()", &err);
    CHECK(err == NULL);
    CHECK(!lua_toboolean(f.L, 1) && !lua_toboolean(f.L, 2));
    CHECK(lua_toboolean(f.L, 3) && lua_toboolean(f.L, 4) && lua_toboolean(f.L, 5));
    CHECK(!lua_toboolean(f.L, 6));
    CHECK_STR(out, "engine.gc.set_low_latency: the lua5.4 backend has no "
                   "low-latency mode; ignored\n");
    CHECK(f.host.warned_low_latency);
    CHECK(run(&f, "engine.gc.set_low_latency(true)") == NULL);
    CHECK(f.host.low_latency == 1);

    /* warned once per run: nothing more */
    out = run_capturing_stderr(&f, "engine.gc.set_low_latency(false)", &err);
    CHECK(err == NULL);
    CHECK_STR(out, "");
    CHECK(f.host.low_latency == 0);
    fixture_close(&f);
}

/* ---- zones ---- */

TEST(engine_zones_accumulate)
{
    Fixture f;
    fixture_open(&f);
    CHECK(run(&f, "engine.zone_begin('update') engine.zone_begin('ai') "
                  "engine.zone_end('ai') engine.zone_end('update') "
                  "engine.zone_begin('update') engine.zone_end('update')") == NULL);
    CHECK_INT(f.host.zone_count, 2);
    engine_Zone *update = &f.host.zones[0], *ai = &f.host.zones[1];
    CHECK_STR(update->name, "update");
    CHECK_STR(ai->name, "ai");
    CHECK_INT(update->calls, 2);
    CHECK_INT(ai->calls, 1);
    /* one clock tick (1000 ns) between consecutive readings */
    CHECK_INT(ai->total_ns, 1000);
    CHECK_INT(update->total_ns, 3000 + 1000);
    CHECK(update->frame_ns == update->total_ns && ai->frame_ns == ai->total_ns);
    CHECK(update->open_since_ns == 0 && ai->open_since_ns == 0);

    engine_frame_reset(&f.host);
    CHECK(update->frame_ns == 0 && ai->frame_ns == 0);
    CHECK_INT(update->total_ns, 4000);
    CHECK(run(&f, "engine.zone_begin('ai') engine.zone_end('ai')") == NULL);
    CHECK_INT(ai->frame_ns, 1000);
    CHECK_INT(ai->total_ns, 2000);
    CHECK_INT(ai->calls, 2);
    CHECK_INT(f.host.zone_count, 2);
    fixture_close(&f);
}

TEST(engine_zone_misuse_is_an_error)
{
    Fixture f;
    fixture_open(&f);
    CHECK(fails_with(&f, "engine.zone_end('x')",
                     "engine.zone_end: zone 'x' is not open (no matching zone_begin)"));
    CHECK(fails_with(&f, "engine.zone_begin('x') engine.zone_begin('x')",
                     "engine.zone_begin: zone 'x' is already open"));
    CHECK(run(&f, "engine.zone_end('x')") == NULL);
    CHECK(fails_with(&f, "engine.zone_end('x')", "zone 'x' is not open"));
    CHECK(fails_with(&f, "engine.zone_begin(string.rep('z', 32))",
                     "bad argument #1 to 'engine.zone_begin' (zone name must be 1 to 31 bytes"));
    CHECK(fails_with(&f, "engine.zone_begin('')", "zone name must be 1 to 31 bytes"));
    CHECK(fails_with(&f, "engine.zone_begin(3)",
                     "bad argument #1 to 'engine.zone_begin' (string expected, got number)"));
    CHECK(run(&f, "engine.zone_begin(string.rep('z', 31)) engine.zone_end(string.rep('z', 31))") == NULL);
    CHECK(run(&f, "for i = 3, 16 do engine.zone_begin('z' .. i) engine.zone_end('z' .. i) end") == NULL);
    CHECK_INT(f.host.zone_count, 16);
    CHECK(fails_with(&f, "engine.zone_begin('seventeenth')",
                     "engine.zone_begin: too many zones (at most 16 names), cannot add 'seventeenth'"));
    CHECK_INT(f.host.zone_count, 16);
    /* existing names still work */
    CHECK(run(&f, "engine.zone_begin('z16') engine.zone_end('z16')") == NULL);
    fixture_close(&f);
}

/* ---- argument errors ---- */

TEST(engine_argument_errors)
{
    Fixture f;
    fixture_open(&f);
    CHECK(fails_with(&f, "engine.key_down(42)",
                     "bad argument #1 to 'engine.key_down' (string expected, got number)"));
    CHECK(fails_with(&f, "engine.key_down('bogus')",
                     "bad argument #1 to 'engine.key_down' (unknown key 'bogus')"));
    CHECK(fails_with(&f, "engine.key_pressed()",
                     "bad argument #1 to 'engine.key_pressed' (string expected, got no value)"));
    CHECK(fails_with(&f, "engine.rect(1, 2, 'x', 4)",
                     "bad argument #3 to 'engine.rect' (number expected, got string)"));
    CHECK(fails_with(&f, "engine.circle(1, 2)",
                     "bad argument #3 to 'engine.circle' (number expected, got no value)"));
    CHECK(fails_with(&f, "engine.color(1, 2, {})",
                     "bad argument #3 to 'engine.color' (number expected, got table)"));
    CHECK(fails_with(&f, "engine.clear(1, nil, 3)",
                     "bad argument #2 to 'engine.clear' (number expected, got nil)"));
    CHECK(fails_with(&f, "engine.text(0, 0, {})",
                     "bad argument #3 to 'engine.text' (string expected, got table)"));
    CHECK(fails_with(&f, "engine.text_width('a', 'b')",
                     "bad argument #2 to 'engine.text_width' (number expected, got string)"));
    CHECK(fails_with(&f, "engine.random(0)",
                     "bad argument #1 to 'engine.random' (interval is empty)"));
    CHECK(fails_with(&f, "engine.random(5, 1)",
                     "bad argument #2 to 'engine.random' (interval is empty)"));
    CHECK(fails_with(&f, "engine.random(1.5)",
                     "bad argument #1 to 'engine.random' (number has no integer representation)"));
    CHECK(fails_with(&f, "engine.random('x')",
                     "bad argument #1 to 'engine.random' (integer expected, got string)"));
    CHECK(fails_with(&f, "engine.random(1, 2, 3)", "wrong number of arguments to 'engine.random'"));
    CHECK(fails_with(&f, "engine.seed(0.5)",
                     "bad argument #1 to 'engine.seed' (number has no integer representation)"));
    CHECK(fails_with(&f, "engine.mouse_pressed(4)",
                     "bad argument #1 to 'engine.mouse_pressed' (button must be 1, 2 or 3)"));
    CHECK(fails_with(&f, "engine.gc.set_low_latency()",
                     "bad argument #1 to 'engine.gc.set_low_latency' (boolean expected, got no value)"));
    CHECK(fails_with(&f, "engine.gc.step(-1)",
                     "bad argument #1 to 'engine.gc.step' (step size must be 0 to 1048576 KiB)"));
    /* a failed call records nothing */
    CHECK_INT(arrlen(f.host.draw.cmds), 0);
    CHECK_INT(arrlen(f.host.draw.text), 0);
    fixture_close(&f);
}

/* ---- the module ---- */

TEST(engine_module_shape)
{
    Fixture f;
    fixture_open(&f);
    static const char *const names[] = {
        "color", "clear", "rect", "fill_rect", "line", "circle", "fill_circle",
        "text", "text_width", "key_down", "key_pressed", "mouse", "mouse_pressed",
        "frame", "dt", "time", "clock", "width", "height", "headless", "autopilot",
        "backend", "quit", "random", "seed", "zone_begin", "zone_end",
        "gc.collect", "gc.step", "gc.count", "gc.set_low_latency", "gc.low_latency",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char code[128];
        snprintf(code, sizeof code, "return type(engine.%s)", names[i]);
        CHECK(run(&f, code) == NULL && strcmp(lua_tostring(f.L, -1), "function") == 0);
    }
    CHECK(run(&f, "return require('engine') == engine, package.loaded.engine == engine") == NULL);
    CHECK(lua_toboolean(f.L, 1) && lua_toboolean(f.L, 2));
    fixture_close(&f);
}

TEST(engine_open_without_package_library)
{
    engine_Host host;
    engine_host_init(&host, "lua5.4", fake_clock);
    lua_State *L = luaL_newstate();
    lua_pushcfunction(L, luaopen_base);
    lua_call(L, 0, 0);
    engine_open(L, &host);
    lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED");
    lua_getfield(L, -1, "engine");
    CHECK(lua_istable(L, -1));
    lua_getfield(L, -1, "gc");
    CHECK(lua_istable(L, -1));
    lua_close(L);
    engine_host_free(&host);
}

/* ---- engine_compat.h, on whichever backend this was built for ---- */

static int compat_open_answer(lua_State *L)
{
    lua_pushinteger(L, 42);
    return 1;
}

TEST(engine_compat_helpers)
{
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);

    CHECK(luaL_dostring(L, "return 3, 3.0, 3.5, '7', 2^53, {1, 2, 3}") == 0);
    int ok = 0;
    CHECK(engine_toint(L, 1, &ok) == 3 && ok);
    CHECK(engine_toint(L, 2, &ok) == 3 && ok);
    CHECK(engine_toint(L, 3, &ok) == 0 && !ok);
    CHECK(engine_toint(L, 4, &ok) == 7 && ok);
    CHECK(engine_toint(L, 5, &ok) == ((int64_t)1 << 53) && ok);
    CHECK(engine_toint(L, 6, &ok) == 0 && !ok);
    CHECK(lua_isinteger(L, 1) && !lua_isinteger(L, 3) && !lua_isinteger(L, 4));
    CHECK_INT(lua_rawlen(L, 6), 3);
    CHECK_INT(lua_absindex(L, -1), 6);
    CHECK_INT(lua_absindex(L, 2), 2);
    CHECK_INT(lua_absindex(L, LUA_REGISTRYINDEX), LUA_REGISTRYINDEX);
    lua_settop(L, 0);

    engine_pushint(L, -123456789012LL);
    CHECK(engine_toint(L, -1, &ok) == -123456789012LL && ok);
    lua_pop(L, 1);

    luaL_requiref(L, "answer", compat_open_answer, 1);
    CHECK(engine_toint(L, -1, &ok) == 42 && ok);
    lua_pop(L, 1);
    CHECK(luaL_dostring(L, "return answer, package.loaded.answer") == 0);
    CHECK(engine_toint(L, 1, &ok) == 42 && engine_toint(L, 2, &ok) == 42);
    lua_settop(L, 0);

    CHECK(engine_gc_count_kb(L) > 0);
    engine_gc_collect(L);
    int finished = 0;
    for (int i = 0; i < 100000 && !finished; i++) finished = engine_gc_step(L, 0);
    CHECK(finished);
    CHECK(engine_gc_set_generational(L, 0));
    CHECK_INT(engine_gc_set_generational(L, 1), ENGINE_GC_HAS_MODES);
    engine_gc_set_generational(L, 0);
    engine_gc_stop(L);
    engine_gc_restart(L);
    lua_close(L);
}
