/*
 * script.h — loading the game and every call into it.
 *
 * Each call (the main chunk, update, draw, or an --exec program) runs
 * protected, through a message handler that appends a traceback, so an
 * error comes back as one printable message: "file:line: what\nstack
 * traceback:\n...". Syntax and load errors come back without a traceback.
 *
 * The watchdog: a thread watches the clock while a call runs. When the call
 * passes the limit, the thread signals the main thread (SIGUSR1), whose
 * handler arms a count hook, as lua.c does for Ctrl-C; the hook raises
 * "file:line: watchdog: the script ran for more than N ms in update()" in
 * the running script. No hook is set otherwise, so the watchdog costs the
 * interpreter nothing. Code a hook cannot reach (LuaJIT's compiled traces
 * never call hooks; a long C function such as a pattern match runs no
 * instructions) is given up on at twice the limit (at least 100 ms past
 * it): the thread hands the message to the host's hard-stop function,
 * which writes what it can, and the process exits with status 1.
 */
#ifndef HOST_SCRIPT_H
#define HOST_SCRIPT_H

#include <signal.h>
#include <stdint.h>

#include "lua.h"

typedef struct script_Backstop script_Backstop;

/* Called on the backstop thread while the main thread is stuck inside the
 * script: it must not touch the lua_State. The process exits when it returns. */
typedef void (*script_HardStop)(void *ud, const char *message);

typedef struct script_Script {
    lua_State *L;
    uint64_t (*clock_ns)(void);
    int64_t watchdog_ms;         /* 0: off */
    uint64_t call_start_ns;      /* 0 when no call into the script runs */
    const char *call_name;       /* "update()", "draw()", "the main chunk" */
    char *error;                 /* the last failure (malloc'd), or NULL */
    int handler_ref;             /* registry refs of the C functions below, */
    int run_file_ref;            /* so calling them allocates nothing */
    int call_global_ref;
    script_Backstop *backstop;   /* NULL when the watchdog is off */
    struct sigaction previous_action;   /* of the watchdog's signal */
} script_Script;

/* Prepares [L] for running a game: message handler, watchdog. [hard_stop]
 * may be NULL (then the backstop just exits). Returns 0 if the backstop
 * thread could not start or the state ran out of memory. */
int script_open(script_Script *s, lua_State *L, uint64_t (*clock_ns)(void),
                int64_t watchdog_ms, script_HardStop hard_stop, void *hard_stop_ud);
/* Stops the backstop and frees the error; the lua_State is the caller's. */
void script_close(script_Script *s);

/* Loads GAME ([path]: a .lua file, or a folder whose main.lua is loaded and
 * which goes first on package.path), sets the global `arg` (arg[0] the
 * script, arg[1..] [argv]) and runs the main chunk with [argv] as its
 * varargs. Returns 1, or 0 with script_error() set. */
int script_run_file(script_Script *s, const char *path, int argc, char **argv);

/* Calls the global function [name] ("update" with [dt], or "draw" with no
 * arguments when [dt] < 0). A missing global is not an error. */
int script_call_global(script_Script *s, const char *name, double dt);

/* The last failure's message, or NULL. */
const char *script_error(const script_Script *s);
/* Makes the value on top of the stack the failure (and pops it). */
void script_fail_with_top(script_Script *s);

#endif /* HOST_SCRIPT_H */
