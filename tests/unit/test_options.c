/* Unit tests of host/options.c: every option, the defaults, bad values and
 * the cross-option rules, through options_parse() only. */
#include <string.h>

#include "check.h"
#include "options.h"

static char parse_error[256];

static options_Result parse_argv(host_Options *o, char **argv)
{
    int argc = 0;
    while (argv[argc] != NULL) argc++;
    parse_error[0] = '\0';
    return options_parse(argc, argv, o, parse_error, sizeof parse_error);
}

/* PARSE(&o, "--frames", "10", "game.lua") parses a command line that
 * starts with the program name. */
#define PARSE(o, ...) parse_argv((o), (char *[]){ "tidehost", __VA_ARGS__, NULL })

/* 1 if the command line is refused with [fragment] in the reason. */
#define REFUSED(fragment, ...)                                                \
    refused_with(parse_argv(&(host_Options){ 0 },                            \
                            (char *[]){ "tidehost", __VA_ARGS__, NULL }), fragment)

static int refused_with(options_Result result, const char *fragment)
{
    return result == OPTIONS_USAGE_ERROR && strstr(parse_error, fragment) != NULL;
}

TEST(options_defaults)
{
    host_Options o;
    CHECK_INT(PARSE(&o, "game.lua"), OPTIONS_RUN);
    CHECK_STR(o.game, "game.lua");
    CHECK_INT(o.display, OPTIONS_DISPLAY_AUTO);
    CHECK_INT(o.frames, -1);
    CHECK_INT(o.seed, 1);
    CHECK_INT(o.autopilot, 0);
    CHECK(o.report_dir == NULL);
    CHECK_INT(o.screenshot_count, 0);
    CHECK_INT(o.gc_mode, OPTIONS_GC_DEFAULT);
    CHECK_NEAR(o.idle_budget_ms, 4.0, 1e-9);
    CHECK_INT(o.watchdog_ms, -1);
    CHECK_NEAR(o.memory_limit_mb, 0.0, 1e-12);
    CHECK_INT(o.exec, 0);
    CHECK_INT(o.quiet, 0);
    CHECK_INT(o.script_argc, 0);
    options_free(&o);
}

TEST(options_display_and_flags)
{
    host_Options o;
    CHECK_INT(PARSE(&o, "--headless", "--autopilot", "--quiet", "g.lua"), OPTIONS_RUN);
    CHECK_INT(o.display, OPTIONS_DISPLAY_HEADLESS);
    CHECK_INT(o.autopilot, 1);
    CHECK_INT(o.quiet, 1);
    options_free(&o);
    CHECK_INT(PARSE(&o, "--window", "g.lua"), OPTIONS_RUN);
    CHECK_INT(o.display, OPTIONS_DISPLAY_WINDOW);
    options_free(&o);
    CHECK_INT(PARSE(&o, "--exec", "g.lua"), OPTIONS_RUN);
    CHECK_INT(o.exec, 1);
    options_free(&o);
}

TEST(options_values_both_spellings)
{
    host_Options o;
    CHECK_INT(PARSE(&o, "--frames", "10", "--seed=42", "--report", "out/dir", "g.lua"),
              OPTIONS_RUN);
    CHECK_INT(o.frames, 10);
    CHECK_INT(o.seed, 42);
    CHECK_STR(o.report_dir, "out/dir");
    options_free(&o);
    CHECK_INT(PARSE(&o, "--frames=0", "g.lua"), OPTIONS_RUN);
    CHECK_INT(o.frames, 0);
    options_free(&o);
    CHECK_INT(PARSE(&o, "--seed", "18446744073709551615", "g.lua"), OPTIONS_RUN);
    CHECK(o.seed == UINT64_MAX);
    options_free(&o);
}

TEST(options_after_game)
{
    host_Options o;
    CHECK_INT(PARSE(&o, "g.lua", "--frames", "5", "--headless"), OPTIONS_RUN);
    CHECK_STR(o.game, "g.lua");
    CHECK_INT(o.frames, 5);
    CHECK_INT(o.display, OPTIONS_DISPLAY_HEADLESS);
    options_free(&o);
}

TEST(options_gc_modes)
{
    static const struct { const char *name; options_GcMode mode; } modes[] = {
        { "default", OPTIONS_GC_DEFAULT }, { "incremental", OPTIONS_GC_INCREMENTAL },
        { "generational", OPTIONS_GC_GENERATIONAL }, { "idle-stepped", OPTIONS_GC_IDLE_STEPPED },
        /* Parsed on every backend; the stock hosts refuse it when they start. */
        { "low-latency", OPTIONS_GC_LOW_LATENCY },
    };
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        host_Options o;
        CHECK_INT(PARSE(&o, "--gc", (char *)modes[i].name, "g.lua"), OPTIONS_RUN);
        CHECK_INT(o.gc_mode, modes[i].mode);
        CHECK_STR(options_gc_mode_name(o.gc_mode), modes[i].name);
        options_free(&o);
    }
    CHECK(REFUSED("expected default, incremental", "--gc", "fast", "g.lua"));
    CHECK(REFUSED("expected default, incremental", "--gc", "Default", "g.lua"));
}

TEST(options_gc_trace)
{
    host_Options o;
    CHECK_INT(PARSE(&o, "g.lua"), OPTIONS_RUN);
    CHECK(o.gc_trace == NULL);
    options_free(&o);
    /* Parsed on every backend; the stock hosts refuse it when they start. */
    CHECK_INT(PARSE(&o, "--gc-trace", "out/trace.json", "g.lua"), OPTIONS_RUN);
    CHECK_STR(o.gc_trace, "out/trace.json");
    options_free(&o);
    CHECK_INT(PARSE(&o, "--gc-trace=t.json", "--exec", "g.lua"), OPTIONS_RUN);
    CHECK_STR(o.gc_trace, "t.json");
    options_free(&o);
    CHECK(REFUSED("--gc-trace: expected a file", "--gc-trace=", "g.lua"));
    CHECK(REFUSED("--gc-trace needs a value", "g.lua", "--gc-trace"));
}

TEST(options_numbers)
{
    host_Options o;
    CHECK_INT(PARSE(&o, "--idle-budget-ms", "2.5", "--watchdog-ms", "200",
                    "--memory-limit", "0.5", "g.lua"), OPTIONS_RUN);
    CHECK_NEAR(o.idle_budget_ms, 2.5, 1e-12);
    CHECK_INT(o.watchdog_ms, 200);
    CHECK_NEAR(o.memory_limit_mb, 0.5, 1e-12);
    options_free(&o);
    CHECK_INT(PARSE(&o, "--watchdog-ms", "0", "--idle-budget-ms", "0", "g.lua"), OPTIONS_RUN);
    CHECK_INT(o.watchdog_ms, 0);
    CHECK_NEAR(o.idle_budget_ms, 0.0, 1e-12);
    options_free(&o);
}

TEST(options_bad_numbers)
{
    CHECK(REFUSED("--frames: expected a frame count", "--frames", "-1", "g.lua"));
    CHECK(REFUSED("--frames: expected a frame count", "--frames", "abc", "g.lua"));
    CHECK(REFUSED("--frames: expected a frame count", "--frames", "10x", "g.lua"));
    CHECK(REFUSED("--frames: expected a frame count", "--frames", "", "g.lua"));
    CHECK(REFUSED("--frames: expected a frame count", "--frames", " 5", "g.lua"));
    CHECK(REFUSED("--seed: expected an unsigned integer", "--seed", "-3", "g.lua"));
    CHECK(REFUSED("--seed: expected an unsigned integer", "--seed",
                  "18446744073709551616", "g.lua"));
    CHECK(REFUSED("--idle-budget-ms", "--idle-budget-ms", "-1", "g.lua"));
    CHECK(REFUSED("--idle-budget-ms", "--idle-budget-ms", "nan", "g.lua"));
    CHECK(REFUSED("--idle-budget-ms", "--idle-budget-ms", "inf", "g.lua"));
    CHECK(REFUSED("--idle-budget-ms", "--idle-budget-ms", "0x10", "g.lua"));
    CHECK(REFUSED("--watchdog-ms", "--watchdog-ms", "1.5", "g.lua"));
    CHECK(REFUSED("--watchdog-ms", "--watchdog-ms", "-5", "g.lua"));
    CHECK(REFUSED("--memory-limit", "--memory-limit", "0", "g.lua"));
    CHECK(REFUSED("--memory-limit", "--memory-limit", "-2", "g.lua"));
    CHECK(REFUSED("--memory-limit", "--memory-limit", "8MB", "g.lua"));
}

TEST(options_screenshots)
{
    host_Options o;
    CHECK_INT(PARSE(&o, "--screenshot", "5:a.png", "--screenshot=120:dir/b:c.png", "g.lua"),
              OPTIONS_RUN);
    CHECK_INT(o.screenshot_count, 2);
    if (o.screenshot_count == 2) {
        CHECK_INT(o.screenshots[0].frame, 5);
        CHECK_STR(o.screenshots[0].path, "a.png");
        CHECK_INT(o.screenshots[1].frame, 120);
        CHECK_STR(o.screenshots[1].path, "dir/b:c.png");   /* only the first ':' splits */
    }
    options_free(&o);
    CHECK(o.screenshots == NULL);
    CHECK(REFUSED("expected N:FILE", "--screenshot", "5", "g.lua"));
    CHECK(REFUSED("expected N:FILE", "--screenshot", ":a.png", "g.lua"));
    CHECK(REFUSED("expected N:FILE", "--screenshot", "5:", "g.lua"));
    CHECK(REFUSED("expected a frame number", "--screenshot", "x:a.png", "g.lua"));
    CHECK(REFUSED("expected a frame number", "--screenshot", "-1:a.png", "g.lua"));
}

TEST(options_script_args)
{
    host_Options o;
    CHECK_INT(PARSE(&o, "--exec", "tool.lua", "--", "one", "--frames", "-x"), OPTIONS_RUN);
    CHECK_INT(o.script_argc, 3);
    if (o.script_argc == 3) {
        CHECK_STR(o.script_argv[0], "one");
        CHECK_STR(o.script_argv[1], "--frames");   /* not an option after -- */
        CHECK_STR(o.script_argv[2], "-x");
    }
    CHECK_INT(o.frames, -1);
    options_free(&o);
    CHECK_INT(PARSE(&o, "g.lua", "--"), OPTIONS_RUN);
    CHECK_INT(o.script_argc, 0);
    options_free(&o);
}

TEST(options_usage_errors)
{
    CHECK(REFUSED("unknown option '--bogus'", "--bogus", "g.lua"));
    CHECK(REFUSED("unknown option '-x'", "-x", "g.lua"));
    CHECK(REFUSED("--frames needs a value", "g.lua", "--frames"));
    CHECK(REFUSED("--quiet takes no value", "--quiet=1", "g.lua"));
    CHECK(REFUSED("no GAME given", "--headless"));
    CHECK(REFUSED("more than one GAME", "a.lua", "b.lua"));
    CHECK(REFUSED("exclude each other", "--headless", "--window", "g.lua"));
    CHECK(REFUSED("exclude each other", "--window", "--headless", "g.lua"));
    CHECK(REFUSED("--exec runs without a window", "--exec", "--window", "g.lua"));
    CHECK(REFUSED("idle-stepped needs the frame loop", "--exec", "--gc", "idle-stepped", "g.lua"));
    /* A refused command line leaves nothing allocated behind. */
    host_Options o;
    CHECK_INT(PARSE(&o, "--screenshot", "1:a.png", "--bogus", "g.lua"), OPTIONS_USAGE_ERROR);
    CHECK(o.screenshots == NULL);
}

TEST(options_help_and_version)
{
    host_Options o;
    CHECK_INT(PARSE(&o, "--help"), OPTIONS_HELP);
    CHECK_INT(PARSE(&o, "-h"), OPTIONS_HELP);
    CHECK_INT(PARSE(&o, "--frames", "3", "--version", "g.lua"), OPTIONS_VERSION);
    /* --help wins over what would be an error later on the line. */
    CHECK_INT(PARSE(&o, "--help", "--bogus"), OPTIONS_HELP);
}
