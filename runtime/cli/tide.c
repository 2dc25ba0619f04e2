/*
 * tide.c — the stand-alone interpreter: `tide [options] [script [args]]`.
 *
 * It behaves like stock `lua5.4` (the reference manual, §7): the same
 * options, the same `arg` table, the same LUA_INIT handling, the same error
 * output ("PROGNAME: message" and a traceback on stderr, exit status 1) and
 * the same REPL rules. Differences, on purpose:
 *   - `-v` prints Tide's version line;
 *   - `--memory-limit BYTES` (Tide's extension) caps the memory the state
 *     may use; allocations beyond it fail with "not enough memory";
 *   - the REPL reads plain lines from stdin (no line editing, no history),
 *     so it does not echo what it reads when stdin is not a terminal;
 *   - input that ends inside an unfinished REPL statement is reported with
 *     its syntax error (lua5.4 prints "(null)" there);
 *   - stdin run as the script because no script was named (`tide < file`)
 *     exits with status 1 when it fails, like any other failing script;
 *     lua5.4 ignores that failure and exits 0.
 * The "tide-cli" suite of tests/run.lua checks all of this against lua5.4.
 *
 * Only the public API is used (lua.h, lauxlib.h, lualib.h; tide.h for the
 * memory limit), so the same file also builds against stock Lua 5.4:
 *   gcc -std=c11 -D_POSIX_C_SOURCE=200809L -I/usr/include/lua5.4 \
 *       runtime/cli/tide.c -llua5.4 -lm -o tide-stock
 * On such a build the memory limit is enforced by an allocator of our own
 * that wraps the state's allocator and refuses to grow past the limit.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#ifdef TIDE_VERSION_NUM
#include "tide.h"
#endif

#ifdef TIDE_VERSION_NUM
#define CLI_VERSION_LINE TIDE_VERSION " (" LUA_VERSION ")  Copyright (C) 2026 the Tide authors"
#else
#define CLI_VERSION_LINE "Tide interpreter on " LUA_COPYRIGHT
#endif

#define DEFAULT_PROGNAME "tide"
#define DEFAULT_PROMPT "> "
#define DEFAULT_PROMPT_CONTINUED ">> "

/* The environment variables, most specific first ("LUA_INIT_5_4"). */
#define INIT_VAR_VERSIONED "LUA_INIT_" LUA_VERSION_MAJOR "_" LUA_VERSION_MINOR
#define INIT_VAR_PLAIN "LUA_INIT"

/* A syntax error whose message ends with this marker means the chunk
 * stopped too early: the REPL then asks for another line. */
#define INCOMPLETE_MARK "<eof>"

/*=========================================================================
 * The command line, as parsed before the state exists
 */

enum UsageProblem { USAGE_OK, USAGE_UNKNOWN_OPTION, USAGE_MISSING_ARGUMENT, USAGE_BAD_LIMIT };

typedef struct CommandLine {
    int argc;
    char **argv;
    const char *progname;      /* prefix of error messages; NULL in the REPL */
    int script;                /* argv index of the script, 0 when there is none */
    int options_end;           /* argv index just past the last option */
    bool show_version;         /* -v, or -i which implies it */
    bool interactive;          /* -i */
    bool ignore_env;           /* -E */
    bool has_exec;             /* at least one -e */
    size_t memory_limit;       /* --memory-limit; 0 = none */
    enum UsageProblem problem; /* what is wrong with argv[problem_index] */
    int problem_index;
    const char *problem_value; /* the malformed --memory-limit value, if any */
} CommandLine;

static bool is_memory_limit_option(const char *a) {
    return strcmp(a, "--memory-limit") == 0 || strncmp(a, "--memory-limit=", 15) == 0;
}

/* Parses "123", "64k", "512M", "2g" (powers of 1024); false when malformed. */
static bool parse_byte_count(const char *text, size_t *out) {
    if (text == NULL || *text < '0' || *text > '9') return false;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(text, &end, 10);
    if (errno != 0) return false;
    unsigned shift = 0;
    switch (*end) {
    case '\0': break;
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: return false;
    }
    if (*end == 'b' || *end == 'B') end++;
    if (*end != '\0' || n == 0 || n > (SIZE_MAX >> shift)) return false;
    *out = (size_t)n << shift;
    return true;
}

static void mark_problem(CommandLine *cl, enum UsageProblem p, int index) {
    cl->problem = p;
    cl->problem_index = index;
}

/* An option that must be exactly its two characters ("-E", not "-Ex"). */
static bool is_bare(const char *a) { return a[2] == '\0'; }

/*
 * Scans the options up to the script name. Options take effect in a later
 * pass (run_options) so that -e, -l and -W run in their command-line order
 * after the libraries and LUA_INIT; this pass only validates them and
 * collects the flags needed before that.
 */
static void parse_command_line(CommandLine *cl) {
    char **argv = cl->argv;
    int i = 1;
    for (; argv[i] != NULL; i++) {
        const char *a = argv[i];
        if (a[0] != '-') break;                      /* the script */
        if (a[1] == '\0') break;                     /* "-": stdin is the script */
        if (a[1] == '-') {
            if (a[2] == '\0') {                      /* "--": options end */
                cl->options_end = i + 1;
                cl->script = argv[i + 1] != NULL ? i + 1 : 0;
                return;
            }
            if (!is_memory_limit_option(a)) { mark_problem(cl, USAGE_UNKNOWN_OPTION, i); return; }
            const char *value = strchr(a, '=');
            if (value != NULL) value++;
            else value = argv[++i];
            if (!parse_byte_count(value, &cl->memory_limit)) {
                cl->problem_value = value;
                mark_problem(cl, USAGE_BAD_LIMIT, i);
                return;
            }
            continue;
        }
        switch (a[1]) {
        case 'E':
            if (!is_bare(a)) { mark_problem(cl, USAGE_UNKNOWN_OPTION, i); return; }
            cl->ignore_env = true;
            break;
        case 'W':
            if (!is_bare(a)) { mark_problem(cl, USAGE_UNKNOWN_OPTION, i); return; }
            break;
        case 'i':
        case 'v':
            if (!is_bare(a)) { mark_problem(cl, USAGE_UNKNOWN_OPTION, i); return; }
            cl->show_version = true;
            if (a[1] == 'i') cl->interactive = true;
            break;
        case 'e':
        case 'l':
            if (a[1] == 'e') cl->has_exec = true;
            if (is_bare(a)) {          /* the argument is the next word */
                const char *next = argv[i + 1];
                if (next == NULL || next[0] == '-') {
                    mark_problem(cl, USAGE_MISSING_ARGUMENT, i);
                    return;
                }
                i++;
            }
            break;
        default:
            mark_problem(cl, USAGE_UNKNOWN_OPTION, i);
            return;
        }
    }
    cl->options_end = i;
    cl->script = argv[i] != NULL ? i : 0;
}

/*=========================================================================
 * Messages
 */

static void print_error_line(const char *progname, const char *message) {
    if (progname != NULL) fprintf(stderr, "%s: ", progname);
    fprintf(stderr, "%s\n", message);
    fflush(stderr);
}

static void print_usage(const CommandLine *cl) {
    const char *bad = cl->argv[cl->problem_index];
    FILE *e = stderr;
    switch (cl->problem) {
    case USAGE_MISSING_ARGUMENT:
        fprintf(e, "%s: '%s' needs argument\n", cl->progname, bad);
        break;
    case USAGE_BAD_LIMIT:
        fprintf(e, "%s: '--memory-limit' needs a byte count (e.g. 1000000, 64k, 512M)", cl->progname);
        if (cl->problem_value != NULL) fprintf(e, ", not '%s'", cl->problem_value);
        fputc('\n', e);
        break;
    default:
        fprintf(e, "%s: unrecognized option '%s'\n", cl->progname, bad);
        break;
    }
    fprintf(e,
        "usage: %s [options] [script [args]]\n"
        "Available options are:\n"
        "  -e stat   execute string 'stat'\n"
        "  -i        enter interactive mode after executing 'script'\n"
        "  -l mod    require library 'mod' into global 'mod'\n"
        "  -l g=mod  require library 'mod' into global 'g'\n"
        "  -v        show version information\n"
        "  -E        ignore environment variables\n"
        "  -W        turn warnings on\n"
        "  --memory-limit BYTES  fail allocations beyond BYTES (suffix k, M or G)\n"
        "  --        stop handling options\n"
        "  -         stop handling options and execute stdin\n",
        cl->progname);
    fflush(e);
}

static void print_version(void) {
    printf("%s\n", CLI_VERSION_LINE);
    fflush(stdout);
}

/* Prints the error message on top of the stack when [status] is an error,
 * and pops it. Returns [status]. */
static int report_status(lua_State *L, const CommandLine *cl, int status) {
    if (status != LUA_OK) {
        const char *message = lua_tostring(L, -1);
        if (message == NULL) message = "(error object is not a string)";
        print_error_line(cl->progname, message);
        lua_pop(L, 1);
    }
    return status;
}

/*=========================================================================
 * Running code: message handler, Ctrl-C, protected calls
 */

/* Message handler: turns any error value into a string with a traceback.
 * A value with __tostring is shown as that string alone, as lua5.4 does. */
static int add_traceback(lua_State *L) {
    const char *message = lua_tostring(L, 1);
    if (message == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
        message = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, message, 1);
    return 1;
}

/*
 * Ctrl-C while Lua code runs: the signal handler may do almost nothing, but
 * lua_sethook is safe to call from one. The hook then raises the error at
 * the next instruction, call or return, in the interpreter's own context.
 * A signal handler has no argument, so the state it must reach is the one
 * piece of mutable static data in this program.
 */
static lua_State *volatile interrupt_target = NULL;

static void raise_interrupted(lua_State *L, lua_Debug *ar) {
    (void)ar;
    lua_sethook(L, NULL, 0, 0);
    luaL_error(L, "interrupted!");
}

static void on_sigint(int sig) {
    /* A second Ctrl-C before the hook runs terminates the process. */
    signal(sig, SIG_DFL);
    lua_sethook(interrupt_target, raise_interrupted,
                LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

static void set_sigint_handler(void (*handler)(int)) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}

/* Calls the function below [nargs] arguments with the message handler and
 * Ctrl-C armed; leaves [nresults] results or the error message. */
static int protected_call(lua_State *L, int nargs, int nresults) {
    int function_index = lua_gettop(L) - nargs;
    lua_pushcfunction(L, add_traceback);
    lua_insert(L, function_index);
    interrupt_target = L;
    set_sigint_handler(on_sigint);
    int status = lua_pcall(L, nargs, nresults, function_index);
    set_sigint_handler(SIG_DFL);
    lua_remove(L, function_index);
    return status;
}

/* Runs a chunk that [load_status] says was (or was not) loaded. */
static int run_loaded_chunk(lua_State *L, const CommandLine *cl, int load_status) {
    if (load_status == LUA_OK) load_status = protected_call(L, 0, 0);
    return report_status(L, cl, load_status);
}

static int run_string(lua_State *L, const CommandLine *cl, const char *code, const char *chunkname) {
    return run_loaded_chunk(L, cl, luaL_loadbuffer(L, code, strlen(code), chunkname));
}

/* [path] NULL reads stdin. */
static int run_file(lua_State *L, const CommandLine *cl, const char *path) {
    return run_loaded_chunk(L, cl, luaL_loadfile(L, path));
}

/*=========================================================================
 * State set-up: memory limit, arg table, LUA_INIT
 */

#ifndef TIDE_VERSION_NUM
/* The limiting allocator of stock builds: it wraps the state's own
 * allocator and counts every byte that passes through it. */
typedef struct MemoryBudget {
    lua_Alloc inner;
    void *inner_ud;
    size_t in_use;
    size_t limit;
} MemoryBudget;

static void *budget_alloc(void *ud, void *block, size_t old_size, size_t new_size) {
    MemoryBudget *b = ud;
    /* For a new block, [old_size] encodes the object's type, not a size. */
    size_t old_bytes = block != NULL ? old_size : 0;
    if (new_size > old_bytes && new_size - old_bytes > b->limit - b->in_use) {
        return NULL;  /* the state runs an emergency collection and retries */
    }
    void *result = b->inner(b->inner_ud, block, old_size, new_size);
    if (result != NULL || new_size == 0) b->in_use = b->in_use - old_bytes + new_size;
    return result;
}
#endif

/* Caps the state's memory at [limit] bytes. [budget] must outlive [L]. */
static void apply_memory_limit(lua_State *L, size_t limit, void *budget) {
#ifdef TIDE_VERSION_NUM
    (void)budget;
    tide_gc_set_heap_limit(L, limit);
#else
    MemoryBudget *b = budget;
    b->inner = lua_getallocf(L, &b->inner_ud);
    /* What the state already holds counts against the limit: its frees
     * will come through us. */
    b->in_use = (size_t)lua_gc(L, LUA_GCCOUNT, 0) * 1024 + (size_t)lua_gc(L, LUA_GCCOUNTB, 0);
    b->limit = limit > b->in_use ? limit : b->in_use;
    lua_setallocf(L, budget_alloc, b);
#endif
}

/* arg[0] is the script (argv[0] when there is none), its arguments follow
 * at 1, 2, ..., and the interpreter and options sit at negative indices. */
static void create_arg_table(lua_State *L, const CommandLine *cl) {
    int base = cl->script;
    lua_createtable(L, cl->argc - base - 1, base + 1);
    for (int i = 0; i < cl->argc; i++) {
        lua_pushstring(L, cl->argv[i]);
        lua_rawseti(L, -2, i - base);
    }
    lua_setglobal(L, "arg");
}

/* LUA_INIT_5_4, else LUA_INIT: "@FILE" runs FILE, anything else is a chunk. */
static int run_init_variable(lua_State *L, const CommandLine *cl) {
    const char *chunkname = "=" INIT_VAR_VERSIONED;
    const char *value = getenv(INIT_VAR_VERSIONED);
    if (value == NULL) {
        chunkname = "=" INIT_VAR_PLAIN;
        value = getenv(INIT_VAR_PLAIN);
    }
    if (value == NULL) return LUA_OK;
    if (value[0] == '@') return run_file(L, cl, value + 1);
    return run_string(L, cl, value, chunkname);
}

/*=========================================================================
 * Options with effects: -e, -l, -W, in command-line order
 */

/* -l NAME: global NAME = require(NAME), where a "-suffix" is dropped from
 * the global's name ("-l mod-v2" sets mod); -l G=NAME: G = require(NAME). */
static int require_into_global(lua_State *L, const CommandLine *cl, const char *spec) {
    const char *equals = strchr(spec, '=');
    const char *module = equals != NULL ? equals + 1 : spec;
    size_t global_len = equals != NULL ? (size_t)(equals - spec) : strcspn(spec, "-");
    lua_getglobal(L, "require");
    lua_pushstring(L, module);
    int status = protected_call(L, 1, 1);
    if (status == LUA_OK) {
        lua_pushlstring(L, spec, global_len);
        lua_insert(L, -2);
        lua_setglobal(L, lua_tostring(L, -2));
        lua_pop(L, 1);
    }
    return report_status(L, cl, status);
}

/* The word after a one-letter option: glued ("-eCODE") or the next one. */
static const char *option_argument(char **argv, int *i) {
    return argv[*i][2] != '\0' ? argv[*i] + 2 : argv[++*i];
}

static bool run_options(lua_State *L, const CommandLine *cl) {
    char **argv = cl->argv;
    for (int i = 1; i < cl->options_end; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--memory-limit") == 0) { i++; continue; }
        int status = LUA_OK;
        switch (a[1]) {
        case 'e':
            status = run_string(L, cl, option_argument(argv, &i), "=(command line)");
            break;
        case 'l':
            status = require_into_global(L, cl, option_argument(argv, &i));
            break;
        case 'W':
            lua_warning(L, "@on", 0);
            break;
        default:
            break;  /* -E, -i, -v, -- and --memory-limit=N acted already */
        }
        if (status != LUA_OK) return false;
    }
    return true;
}

/*=========================================================================
 * The script
 */

/* Pushes arg[1..#arg] (the -e code may have changed `arg`); returns how many. */
static int push_script_arguments(lua_State *L) {
    if (lua_getglobal(L, "arg") != LUA_TTABLE) luaL_error(L, "'arg' is not a table");
    int n = (int)luaL_len(L, -1);
    luaL_checkstack(L, n + 3, "too many arguments to script");
    for (int i = 1; i <= n; i++) lua_rawgeti(L, -i, i);
    lua_remove(L, -n - 1);
    return n;
}

static int run_script(lua_State *L, const CommandLine *cl) {
    const char *path = cl->argv[cl->script];
    /* "-" means stdin, unless "--" came just before it. */
    if (strcmp(path, "-") == 0 && strcmp(cl->argv[cl->script - 1], "--") != 0) path = NULL;
    int status = luaL_loadfile(L, path);
    if (status == LUA_OK) {
        int n = push_script_arguments(L);
        status = protected_call(L, n, LUA_MULTRET);
    }
    return report_status(L, cl, status);
}

/*=========================================================================
 * The REPL
 */

/* Shows the prompt (_PROMPT or _PROMPT2 through tostring, else the
 * default) and reads one line without its newline; pushes it and returns
 * true, or returns false at the end of input. */
static bool read_line(lua_State *L, bool first_line) {
    const char *prompt;
    if (lua_getglobal(L, first_line ? "_PROMPT" : "_PROMPT2") == LUA_TNIL) {
        prompt = first_line ? DEFAULT_PROMPT : DEFAULT_PROMPT_CONTINUED;
    } else {
        prompt = luaL_tolstring(L, -1, NULL);
        lua_remove(L, -2);
    }
    fputs(prompt, stdout);
    fflush(stdout);
    lua_pop(L, 1);

    char *buffer = NULL;
    size_t capacity = 0;
    ssize_t length = getline(&buffer, &capacity, stdin);
    if (length < 0) {
        free(buffer);
        return false;
    }
    if (length > 0 && buffer[length - 1] == '\n') buffer[--length] = '\0';
    /* "=expr" means "return expr" on a first line, as in Lua 5.2. */
    if (first_line && buffer[0] == '=') lua_pushfstring(L, "return %s", buffer + 1);
    else lua_pushlstring(L, buffer, (size_t)length);
    free(buffer);
    return true;
}

static bool is_incomplete(lua_State *L, int status) {
    if (status != LUA_ERRSYNTAX) return false;
    size_t len;
    const char *message = lua_tolstring(L, -1, &len);
    size_t mark_len = sizeof INCOMPLETE_MARK - 1;
    return len >= mark_len && strcmp(message + len - mark_len, INCOMPLETE_MARK) == 0;
}

/* Tries the line on top of the stack as an expression whose values are to
 * be printed: pushes the function on success, else leaves the stack as it
 * was. */
static int load_as_expression(lua_State *L) {
    const char *code = lua_pushfstring(L, "return %s;", lua_tostring(L, -1));
    int status = luaL_loadbuffer(L, code, strlen(code), "=stdin");
    lua_remove(L, -2);                /* the "return ...;" text */
    if (status != LUA_OK) lua_pop(L, 1);
    return status;
}

/* Loads the text on top of the stack as a statement, reading continuation
 * lines while the text is incomplete. Replaces the text with the text
 * joined so far and pushes the function or the error message. */
static int load_as_statement(lua_State *L) {
    for (;;) {
        size_t len;
        const char *code = lua_tolstring(L, -1, &len);
        int status = luaL_loadbuffer(L, code, len, "=stdin");
        if (!is_incomplete(L, status)) return status;
        lua_pop(L, 1);                /* the "<eof>" message */
        if (!read_line(L, false)) {
            /* Input ended inside a statement: report why it is incomplete. */
            return luaL_loadbuffer(L, code, len, "=stdin");
        }
        lua_pushliteral(L, "\n");
        lua_insert(L, -2);
        lua_concat(L, 3);             /* text .. "\n" .. new line */
    }
}

/* Reads and compiles one entry; leaves the function or the error message as
 * the only value on the stack. Returns -1 at the end of input. */
static int read_entry(lua_State *L) {
    lua_settop(L, 0);
    if (!read_line(L, true)) return -1;
    int status = load_as_expression(L);
    if (status != LUA_OK) status = load_as_statement(L);
    lua_remove(L, 1);                 /* the source text */
    return status;
}

/* Prints every value left on the stack with the global `print`. */
static void print_results(lua_State *L, const CommandLine *cl) {
    int n = lua_gettop(L);
    if (n == 0) return;
    luaL_checkstack(L, LUA_MINSTACK, "too many results to print");
    lua_getglobal(L, "print");
    lua_insert(L, 1);
    if (lua_pcall(L, n, 0, 0) != LUA_OK) {
        print_error_line(cl->progname,
                         lua_pushfstring(L, "error calling 'print' (%s)", lua_tostring(L, -1)));
    }
}

static void run_repl(lua_State *L, CommandLine *cl) {
    const char *saved_progname = cl->progname;
    cl->progname = NULL;              /* errors typed in need no prefix */
    int status;
    while ((status = read_entry(L)) != -1) {
        if (status == LUA_OK) status = protected_call(L, 0, LUA_MULTRET);
        if (status == LUA_OK) print_results(L, cl);
        else report_status(L, cl, status);
    }
    lua_settop(L, 0);
    fputs("\n", stdout);
    fflush(stdout);
    cl->progname = saved_progname;
}

/*=========================================================================
 * Main
 */

/* Everything that may raise an error runs here, inside lua_pcall.
 * Arguments: the CommandLine and the memory budget as light userdata.
 * Returns true when every step succeeded. */
static int protected_main(lua_State *L) {
    CommandLine *cl = lua_touserdata(L, 1);
    void *budget = lua_touserdata(L, 2);
    lua_settop(L, 0);
    luaL_checkversion(L);
    if (cl->problem != USAGE_OK) {
        print_usage(cl);
        return 0;                     /* nothing returned: failure */
    }
    if (cl->memory_limit > 0) apply_memory_limit(L, cl->memory_limit, budget);
    if (cl->show_version) print_version();
    if (cl->ignore_env) {
        lua_pushboolean(L, 1);
        lua_setfield(L, LUA_REGISTRYINDEX, "LUA_NOENV");
    }
    lua_gc(L, LUA_GCSTOP);            /* no collection while the libraries load */
    luaL_openlibs(L);
    create_arg_table(L, cl);
    lua_gc(L, LUA_GCRESTART);
    lua_gc(L, LUA_GCGEN, 0, 0);       /* lua5.4 runs scripts in generational mode */
    if (!cl->ignore_env && run_init_variable(L, cl) != LUA_OK) return 0;
    if (!run_options(L, cl)) return 0;
    if (cl->script > 0 && run_script(L, cl) != LUA_OK) return 0;
    if (cl->interactive) {
        run_repl(L, cl);
    } else if (cl->script == 0 && !cl->has_exec && !cl->show_version) {
        if (isatty(STDIN_FILENO)) {
            print_version();
            run_repl(L, cl);
        } else if (run_file(L, cl, NULL) != LUA_OK) {
            return 0;
        }
    }
    lua_pushboolean(L, 1);
    return 1;
}

int main(int argc, char **argv) {
    CommandLine cl;
    memset(&cl, 0, sizeof cl);
    cl.argc = argc;
    cl.argv = argv;
    cl.progname = argv[0] != NULL && argv[0][0] != '\0' ? argv[0] : DEFAULT_PROGNAME;
    if (argv[0] != NULL) parse_command_line(&cl);

    lua_State *L = luaL_newstate();
    if (L == NULL) {
        print_error_line(cl.progname, "cannot create state: not enough memory");
        return EXIT_FAILURE;
    }
#ifdef TIDE_VERSION_NUM
    void *budget = NULL;
#else
    MemoryBudget memory_budget;
    void *budget = &memory_budget;
#endif
    lua_pushcfunction(L, protected_main);
    lua_pushlightuserdata(L, &cl);
    lua_pushlightuserdata(L, budget);
    int status = lua_pcall(L, 2, 1, 0);
    bool succeeded = status == LUA_OK && lua_toboolean(L, -1);
    report_status(L, &cl, status);
    lua_close(L);
    return succeeded ? EXIT_SUCCESS : EXIT_FAILURE;
}
