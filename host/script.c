/*
 * script.c — loading the game, calling into it with tracebacks, and the
 * watchdog (see script.h for how its two parts share the work).
 *
 * Every call runs inside lua_pcall of a small C function kept in the
 * registry: pushing it allocates nothing, and everything that may allocate
 * (the `arg` table, package.path, looking up `update`) happens protected,
 * so even a state at its memory limit fails with an error, not a panic.
 */
#include "script.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <time.h>

#include "lauxlib.h"
#include "lualib.h"

/* The backstop gives the hook this much time past the limit, at least. */
#define BACKSTOP_MIN_GRACE_MS 100
/* The signal that asks the main thread to arm the hook. */
#define WATCHDOG_SIGNAL SIGUSR1

/* Neither a lua_Hook nor a signal handler receives user data, so both find
 * the watched script here: one script is watched per process (the host runs
 * one state). Written by script_open/script_close on the main thread only;
 * volatile because the signal handler reads it. */
static script_Script *volatile watched_script;
/* Set by the signal handler when it armed the hook; cleared on the main
 * thread when the hook is taken off again. */
static volatile sig_atomic_t hook_armed;

static char *copy_string(const char *text)
{
    size_t size = strlen(text) + 1;
    char *copy = malloc(size);
    if (copy != NULL) memcpy(copy, text, size);
    return copy;
}

static void set_error(script_Script *s, const char *message)
{
    free(s->error);
    s->error = copy_string(message ? message : "(no error message)");
}

const char *script_error(const script_Script *s)
{
    return s->error;
}

void script_fail_with_top(script_Script *s)
{
    set_error(s, lua_tostring(s->L, -1));
    lua_pop(s->L, 1);
}

/* ---------------------------------------------------------------- the hook
 * Armed only once a call has run past the limit: a hook that is always set
 * makes Lua 5.4's interpreter check it at every instruction (the shooter
 * sample ran ~50% slower with a count hook every 10000 instructions, and
 * LuaJIT's interpreter ~20%). */

static int call_overran(const script_Script *s)
{
    return s->call_start_ns != 0
        && s->clock_ns() - s->call_start_ns > (uint64_t)s->watchdog_ms * 1000000;
}

static void watchdog_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    script_Script *s = watched_script;
    if (s == NULL || !call_overran(s)) {
        /* A signal that arrived after its call had ended: nothing to stop. */
        lua_sethook(L, NULL, 0, 0);
        hook_armed = 0;
        return;
    }
    /* Level 0: a C hook adds no frame, so the running function is where
     * the script was (luaL_error would name its caller instead). The hook
     * stays armed until the call ends, so a script that catches the error
     * is stopped again at its next instruction. */
    luaL_where(L, 0);
    lua_pushfstring(L, "watchdog: the script ran for more than %d ms in %s",
                    (int)s->watchdog_ms, s->call_name);
    lua_concat(L, 2);
    lua_error(L);
}

/* Runs on the main thread, interrupting it wherever it is. lua_sethook is
 * written to be callable from a signal handler (lua.c stops scripts on
 * SIGINT the same way): it only stores the hook and sets trap flags. */
static void arm_hook(int signal_number)
{
    (void)signal_number;
    script_Script *s = watched_script;
    if (s == NULL) return;
    lua_sethook(s->L, watchdog_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
    hook_armed = 1;
}

/* Main thread, between calls: takes an armed hook off, with the signal
 * blocked so that the handler cannot run inside lua_sethook. */
static void disarm_hook(script_Script *s)
{
    if (!hook_armed) return;
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, WATCHDOG_SIGNAL);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    lua_sethook(s->L, NULL, 0, 0);
    hook_armed = 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* ---------------------------------------------------------------- backstop
 * A thread that looks at the running call a few times per limit: past the
 * limit it signals the main thread to arm the hook; past the limit plus
 * the grace it gives up on the hook and stops the process. The main thread
 * only stores the call's start time (an atomic store, no lock, no wake-up:
 * waking a thread at every call cost ~25 microseconds a call); it takes
 * [lock] to end a call, so the thread, holding [lock] while it stops the
 * process, knows the main thread is stuck in the script and leaves the
 * recorder alone. */

struct script_Backstop {
    pthread_t thread;
    pthread_t main_thread;
    pthread_mutex_t lock;
    pthread_cond_t stop;         /* signalled once, at the end; CLOCK_MONOTONIC */
    int stopping;                /* under [lock] */
    _Atomic uint64_t call_start_ns;   /* 0: no call; written by the main thread */
    const char *call_name;       /* written before call_start_ns is published */
    uint64_t limit_ns, give_up_after_ns, poll_ns;
    int64_t watchdog_ms;
    uint64_t (*clock_ns)(void);
    script_HardStop hard_stop;
    void *hard_stop_ud;
};

/* Runs with [b->lock] held while the main thread is stuck inside the
 * script; never returns. */
static void backstop_fire(script_Backstop *b)
{
    char message[320];
    snprintf(message, sizeof message, "watchdog: the script ran for more than %lld ms in %s "
             "and could not be interrupted (JIT-compiled code or a long C function): "
             "no traceback", (long long)b->watchdog_ms, b->call_name);
    if (b->hard_stop) b->hard_stop(b->hard_stop_ud, message);
    fflush(stdout);
    fflush(stderr);
    _exit(1);
}

/* Sleeps one poll period, or until script_close asks the thread to stop.
 * Returns 0 when it should stop. Called with [b->lock] held. */
static int backstop_sleep(script_Backstop *b)
{
    uint64_t deadline = b->clock_ns() + b->poll_ns;
    struct timespec until = { (time_t)(deadline / 1000000000u),
                              (long)(deadline % 1000000000u) };
    while (!b->stopping && pthread_cond_timedwait(&b->stop, &b->lock, &until) == 0) {}
    return !b->stopping;
}

static void *backstop_main(void *data)
{
    script_Backstop *b = data;
    uint64_t signalled_start = 0;    /* the call the hook was asked for */
    pthread_mutex_lock(&b->lock);
    while (backstop_sleep(b)) {
        uint64_t start = atomic_load_explicit(&b->call_start_ns, memory_order_acquire);
        if (start == 0) continue;
        uint64_t ran = b->clock_ns() - start;
        /* Holding [lock], a start time still published means the same call. */
        if (ran >= b->give_up_after_ns
            && atomic_load_explicit(&b->call_start_ns, memory_order_acquire) == start)
            backstop_fire(b);
        if (ran >= b->limit_ns && signalled_start != start) {
            signalled_start = start;
            pthread_kill(b->main_thread, WATCHDOG_SIGNAL);
        }
    }
    pthread_mutex_unlock(&b->lock);
    return NULL;
}

/* [s->clock_ns] must count CLOCK_MONOTONIC nanoseconds: the thread's
 * timed waits are on that clock. */
static int backstop_init_sync(script_Backstop *b)
{
    pthread_condattr_t attr;
    if (pthread_condattr_init(&attr) != 0) return 0;
    int ok = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0
          && pthread_cond_init(&b->stop, &attr) == 0;
    pthread_condattr_destroy(&attr);
    if (!ok) return 0;
    if (pthread_mutex_init(&b->lock, NULL) == 0) return 1;
    pthread_cond_destroy(&b->stop);
    return 0;
}

/* A few looks per limit: the watchdog fires at most a poll late. */
static uint64_t poll_period_ns(uint64_t limit_ns)
{
    uint64_t poll = limit_ns / 8;
    if (poll < 5000000u) poll = 5000000u;
    if (poll > 250000000u) poll = 250000000u;
    return poll;
}

static script_Backstop *backstop_start(script_Script *s, script_HardStop hard_stop, void *ud)
{
    script_Backstop *b = calloc(1, sizeof *b);
    if (b == NULL) return NULL;
    uint64_t grace_ms = (uint64_t)s->watchdog_ms;
    if (grace_ms < BACKSTOP_MIN_GRACE_MS) grace_ms = BACKSTOP_MIN_GRACE_MS;
    b->limit_ns = (uint64_t)s->watchdog_ms * 1000000;
    b->give_up_after_ns = b->limit_ns + grace_ms * 1000000;
    b->poll_ns = poll_period_ns(b->limit_ns);
    b->watchdog_ms = s->watchdog_ms;
    b->clock_ns = s->clock_ns;
    b->hard_stop = hard_stop;
    b->hard_stop_ud = ud;
    b->main_thread = pthread_self();
    atomic_init(&b->call_start_ns, 0);
    if (!backstop_init_sync(b)) {
        free(b);
        return NULL;
    }
    if (pthread_create(&b->thread, NULL, backstop_main, b) != 0) {
        pthread_cond_destroy(&b->stop);
        pthread_mutex_destroy(&b->lock);
        free(b);
        return NULL;
    }
    return b;
}

static void backstop_stop(script_Backstop *b)
{
    pthread_mutex_lock(&b->lock);
    b->stopping = 1;
    pthread_cond_signal(&b->stop);
    pthread_mutex_unlock(&b->lock);
    pthread_join(b->thread, NULL);
    pthread_cond_destroy(&b->stop);
    pthread_mutex_destroy(&b->lock);
    free(b);
}

static void backstop_begin_call(script_Backstop *b, uint64_t start_ns, const char *name)
{
    if (b == NULL) return;
    b->call_name = name;
    atomic_store_explicit(&b->call_start_ns, start_ns, memory_order_release);
}

static void backstop_end_call(script_Backstop *b)
{
    if (b == NULL) return;
    pthread_mutex_lock(&b->lock);
    atomic_store_explicit(&b->call_start_ns, 0, memory_order_release);
    pthread_mutex_unlock(&b->lock);
}

/* ---------------------------------------------------------------- protected parts */

/* The message handler: the error as text, then where it happened. */
static int add_traceback(lua_State *L)
{
    const char *message = lua_tostring(L, 1);
    if (message == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            message = lua_tostring(L, -1);
        else
            message = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, message, 1);
    return 1;
}

typedef struct run_Request {
    const char *main_path;   /* the file to run */
    const char *folder;      /* GAME when it is a folder, else NULL */
    int argc;
    char **argv;
} run_Request;

static void prepend_package_path(lua_State *L, const char *folder)
{
    lua_getglobal(L, "package");
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    lua_getfield(L, -1, "path");
    const char *old = lua_tostring(L, -1);
    lua_pushfstring(L, "%s/?.lua;%s/?/init.lua;%s", folder, folder, old ? old : "");
    lua_setfield(L, -3, "path");
    lua_pop(L, 2);
}

static void set_arg_table(lua_State *L, const run_Request *req)
{
    lua_createtable(L, req->argc, 1);
    lua_pushstring(L, req->main_path);
    lua_rawseti(L, -2, 0);
    for (int i = 0; i < req->argc; i++) {
        lua_pushstring(L, req->argv[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setglobal(L, "arg");
}

/* Argument 1: a light pointer to the run_Request. Returns false and the
 * message when the file does not load (no traceback: the message says
 * where), true once the main chunk has run. */
static int run_file_protected(lua_State *L)
{
    const run_Request *req = lua_touserdata(L, 1);
    if (req->folder) prepend_package_path(L, req->folder);
    set_arg_table(L, req);
    if (luaL_loadfile(L, req->main_path) != LUA_OK) {
        lua_pushboolean(L, 0);
        lua_insert(L, -2);
        return 2;
    }
    luaL_checkstack(L, req->argc, "too many script arguments");
    for (int i = 0; i < req->argc; i++) lua_pushstring(L, req->argv[i]);
    lua_call(L, req->argc, 0);
    lua_pushboolean(L, 1);
    return 1;
}

/* Arguments: a light pointer to the global's name, then its arguments.
 * Looks the global up on every call: a game may swap `update` at run time. */
static int call_global_protected(lua_State *L)
{
    const char *name = lua_touserdata(L, 1);
    int nargs = lua_gettop(L) - 1;
    lua_getglobal(L, name);
    if (lua_isnil(L, -1)) return 0;
    lua_insert(L, 2);
    lua_call(L, nargs, 0);
    return 0;
}

/* ---------------------------------------------------------------- calls */

static void begin_call(script_Script *s, const char *name)
{
    uint64_t now = s->clock_ns();
    s->call_start_ns = now ? now : 1;   /* 0 means "no call" */
    s->call_name = name;
    backstop_begin_call(s->backstop, s->call_start_ns, name);
}

static void end_call(script_Script *s)
{
    s->call_start_ns = 0;
    backstop_end_call(s->backstop);
    disarm_hook(s);
}

/* Pushes the message handler and the registered function [ref]; the caller
 * pushes [nargs] arguments and calls run_protected. Returns the handler's
 * stack index. */
static int push_call(script_Script *s, int ref)
{
    lua_rawgeti(s->L, LUA_REGISTRYINDEX, s->handler_ref);
    int handler = lua_gettop(s->L);
    lua_rawgeti(s->L, LUA_REGISTRYINDEX, ref);
    return handler;
}

static int run_protected(script_Script *s, int handler, int nargs, int nresults,
                         const char *call_name)
{
    begin_call(s, call_name);
    int status = lua_pcall(s->L, nargs, nresults, handler);
    end_call(s);
    if (status != LUA_OK) {
        set_error(s, lua_tostring(s->L, -1));
        lua_settop(s->L, handler - 1);
        return 0;
    }
    return 1;
}

int script_call_global(script_Script *s, const char *name, double dt)
{
    int handler = push_call(s, s->call_global_ref);
    lua_pushlightuserdata(s->L, (void *)name);
    int nargs = 1;
    if (dt >= 0) {
        lua_pushnumber(s->L, dt);
        nargs++;
    }
    int ok = run_protected(s, handler, nargs, 0, dt >= 0 ? "update()" : "draw()");
    if (ok) lua_settop(s->L, handler - 1);
    return ok;
}

/* Turns GAME into the file to run; a folder means its main.lua. Returns a
 * malloc'd path, or NULL with the reason set as the error. */
static char *resolve_game(script_Script *s, const char *game, int *is_folder)
{
    char message[512];
    struct stat st;
    *is_folder = 0;
    if (stat(game, &st) != 0) {
        snprintf(message, sizeof message, "cannot open game '%s': %s", game, strerror(errno));
        set_error(s, message);
        return NULL;
    }
    if (!S_ISDIR(st.st_mode)) return copy_string(game);
    size_t len = strlen(game);
    while (len > 1 && game[len - 1] == '/') len--;
    char *path = malloc(len + sizeof "/main.lua");
    if (path == NULL) return NULL;
    snprintf(path, len + sizeof "/main.lua", "%.*s/main.lua", (int)len, game);
    if (stat(path, &st) != 0 || S_ISDIR(st.st_mode)) {
        snprintf(message, sizeof message, "cannot open game '%s': the folder has no main.lua", game);
        set_error(s, message);
        free(path);
        return NULL;
    }
    *is_folder = 1;
    return path;
}

int script_run_file(script_Script *s, const char *path, int argc, char **argv)
{
    int is_folder;
    char *main_path = resolve_game(s, path, &is_folder);
    if (main_path == NULL) {
        if (s->error == NULL) set_error(s, "out of memory");
        return 0;
    }
    /* The folder without trailing slashes is main_path minus "/main.lua". */
    size_t folder_len = strlen(main_path) - strlen("/main.lua");
    char *folder = is_folder ? malloc(folder_len + 1) : NULL;
    if (folder) {
        memcpy(folder, main_path, folder_len);
        folder[folder_len] = '\0';
    }
    run_Request req = { main_path, folder, argc, argv };
    int handler = push_call(s, s->run_file_ref);
    lua_pushlightuserdata(s->L, &req);
    int ok = run_protected(s, handler, 1, 2, "the main chunk");
    if (ok) {
        if (!lua_toboolean(s->L, handler + 1)) {
            set_error(s, lua_tostring(s->L, handler + 2));   /* a load error */
            ok = 0;
        }
        lua_settop(s->L, handler - 1);
    }
    free(folder);
    free(main_path);
    return ok;
}

/* ---------------------------------------------------------------- set-up */

typedef struct keep_Request {
    lua_CFunction fn;
    int *ref;
} keep_Request;

static int keep_function_protected(lua_State *L)
{
    const keep_Request *req = lua_touserdata(L, 1);
    lua_pushcfunction(L, req->fn);
    *req->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

/* Keeps [fn] in the registry, protected against running out of memory. */
static int keep_function(lua_State *L, lua_CFunction fn, int *ref)
{
    keep_Request req = { fn, ref };
    lua_pushcfunction(L, keep_function_protected);
    lua_pushlightuserdata(L, &req);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
        lua_pop(L, 1);
        return 0;
    }
    return 1;
}

int script_open(script_Script *s, lua_State *L, uint64_t (*clock_ns)(void),
                int64_t watchdog_ms, script_HardStop hard_stop, void *hard_stop_ud)
{
    memset(s, 0, sizeof *s);
    s->L = L;
    s->clock_ns = clock_ns;
    s->watchdog_ms = watchdog_ms > 0 ? watchdog_ms : 0;
    s->handler_ref = s->run_file_ref = s->call_global_ref = LUA_NOREF;
    if (!keep_function(L, add_traceback, &s->handler_ref)
        || !keep_function(L, run_file_protected, &s->run_file_ref)
        || !keep_function(L, call_global_protected, &s->call_global_ref)) {
        set_error(s, "not enough memory");
        return 0;
    }
    if (s->watchdog_ms > 0) {
        watched_script = s;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = arm_hook;
        action.sa_flags = SA_RESTART;
        sigemptyset(&action.sa_mask);
        s->backstop = sigaction(WATCHDOG_SIGNAL, &action, &s->previous_action) == 0
                    ? backstop_start(s, hard_stop, hard_stop_ud) : NULL;
        if (s->backstop == NULL) {
            set_error(s, "cannot start the watchdog thread");
            return 0;
        }
    }
    return 1;
}

void script_close(script_Script *s)
{
    if (s->backstop) {
        backstop_stop(s->backstop);
        sigaction(WATCHDOG_SIGNAL, &s->previous_action, NULL);
    }
    s->backstop = NULL;
    if (watched_script == s) {
        disarm_hook(s);
        watched_script = NULL;
    }
    free(s->error);
    s->error = NULL;
}
