/*
 * lauxlib.h — the auxiliary library: Lua 5.4's luaL_* functions, at source
 * level.
 *
 * Everything here is built on lua.h and adds nothing that the core API
 * cannot do; it makes the common tasks — checking arguments, building
 * strings, registering functions, loading files, keeping references —
 * short and uniform. The comments follow lua.h's conventions ([-o, +p, x]
 * stack effects, [param] names).
 *
 * Functions that check arguments (luaL_check*, luaL_opt*, luaL_arg*) format
 * their messages for arguments ("bad argument #2 to 'f' (...)"); use them
 * only on a C function's arguments. Functions here may use up to four stack
 * slots beyond what they push without checking for room.
 */
#ifndef LAUXLIB_H
#define LAUXLIB_H

#include <stddef.h>
#include <stdio.h>

#include "luaconf.h"
#include "lua.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The name of the global table in the global environment. */
#define LUA_GNAME "_G"

/* The status of a file error (cannot open or read), from luaL_loadfilex. */
#define LUA_ERRFILE (LUA_ERRERR + 1)

/* Registry keys of the table of loaded modules (package.loaded) and of the
 * table of preloaders (package.preload). */
#define LUA_LOADED_TABLE "_LOADED"
#define LUA_PRELOAD_TABLE "_PRELOAD"

/* One function to register: [name] and [func]. Arrays of them end with
 * { NULL, NULL }; a NULL [func] registers false as a placeholder. */
typedef struct luaL_Reg {
    const char *name;
    lua_CFunction func;
} luaL_Reg;

/* The sizes of lua_Integer and lua_Number, packed into one number that
 * luaL_checkversion compares with the library's. */
#define LUAL_NUMSIZES (sizeof(lua_Integer) * 16 + sizeof(lua_Number))

/*
 * Raises an error unless the code calling it was compiled for the same Lua
 * version ([ver]) and numeric types ([sz]) as the library. Call it through
 * luaL_checkversion. [-0, +0, v]
 */
LUALIB_API void (luaL_checkversion_)(lua_State *L, lua_Number ver, size_t sz);
#define luaL_checkversion(L) luaL_checkversion_(L, LUA_VERSION_NUM, LUAL_NUMSIZES)

/*-------------------------------------------------------------------------
 * Metatables and metamethods
 */

/* Pushes field [e] of the metatable of the value at [obj] and returns its
 * type; if there is no metatable or no such field, pushes nothing and
 * returns LUA_TNIL. [-0, +(0|1), m] */
LUALIB_API int (luaL_getmetafield)(lua_State *L, int obj, const char *e);

/*
 * If the value at [obj] has a metatable with field [e], calls it with the
 * value as its only argument, pushes its one result and returns 1;
 * otherwise returns 0 and pushes nothing. [-0, +(0|1), e]
 */
LUALIB_API int (luaL_callmeta)(lua_State *L, int obj, const char *e);

/*
 * Converts any value to a string in a reasonable format (using __tostring,
 * or __name, if present), pushes it, returns it and stores its length in
 * *[len] if [len] is not NULL. The pointer follows lua_tolstring's rules.
 * [-0, +1, e]
 */
LUALIB_API const char *(luaL_tolstring)(lua_State *L, int idx, size_t *len);

/*
 * Creates the metatable of userdata type [tname]: a new table with __name
 * = [tname], stored in the registry under [tname], and returns 1; if the
 * registry already has [tname], returns 0. Either way, pushes the
 * registry's value for [tname]. [-0, +1, m]
 */
LUALIB_API int (luaL_newmetatable)(lua_State *L, const char *tname);

/* Sets the registry's metatable for [tname] on the value on the top.
 * [-0, +0, -] */
LUALIB_API void (luaL_setmetatable)(lua_State *L, const char *tname);

/* The block of the userdata at [ud] if its metatable is the registry's
 * [tname]; NULL otherwise. [-0, +0, m] */
LUALIB_API void *(luaL_testudata)(lua_State *L, int ud, const char *tname);

/* luaL_testudata, raising an argument error instead of returning NULL.
 * [-0, +0, v] */
LUALIB_API void *(luaL_checkudata)(lua_State *L, int ud, const char *tname);

/*-------------------------------------------------------------------------
 * Errors
 */

/*
 * Pushes "chunkname:currentline:" for the function [lvl] levels up the
 * call stack (0 is the running function), or "" if that is unknown.
 * [-0, +1, m]
 */
LUALIB_API void (luaL_where)(lua_State *L, int lvl);

/*
 * Raises an error whose message is formatted as lua_pushfstring does and
 * prefixed with luaL_where(L, 1). Never returns (write "return
 * luaL_error(...)"). [-0, +0, v]
 */
LUALIB_API int (luaL_error)(lua_State *L, const char *fmt, ...);

/* Raises "bad argument #[arg] to 'name' ([extramsg])" (for a method call,
 * the receiver is "self" and argument numbers shift). Never returns.
 * [-0, +0, v] */
LUALIB_API int (luaL_argerror)(lua_State *L, int arg, const char *extramsg);

/* Raises "bad argument #[arg] to 'name' ([tname] expected, got TYPE)".
 * Never returns. [-0, +0, v] */
LUALIB_API int (luaL_typeerror)(lua_State *L, int arg, const char *tname);

/*
 * The results of a file-related library function: with [stat] true,
 * pushes true (1 value); otherwise pushes fail, a message built from
 * errno (prefixed by "[fname]: " if [fname] is not NULL) and errno (3
 * values). Returns the number of values pushed. [-0, +(1|3), m]
 */
LUALIB_API int (luaL_fileresult)(lua_State *L, int stat, const char *fname);

/*
 * The results of a process-related library function (os.execute,
 * io.close on a pipe) from the status [stat] that system() or pclose()
 * returned: true or fail, then "exit" or "signal", then the code. Returns
 * the number of values pushed. [-0, +3, m]
 */
LUALIB_API int (luaL_execresult)(lua_State *L, int stat);

/*-------------------------------------------------------------------------
 * Arguments
 */

/* Argument [arg] as a string (numbers converted in place, as
 * lua_tolstring), its length in *[l] if [l] is not NULL; an argument
 * error otherwise. [-0, +0, v] */
LUALIB_API const char *(luaL_checklstring)(lua_State *L, int arg, size_t *l);

/* Like luaL_checklstring, but an absent or nil argument gives [def] (and a
 * length of 0 when [def] is NULL). [-0, +0, v] */
LUALIB_API const char *(luaL_optlstring)(lua_State *L, int arg, const char *def,
                                         size_t *l);

/* Argument [arg] as a number; an argument error if it is not a number or
 * a string convertible to one. [-0, +0, v] */
LUALIB_API lua_Number (luaL_checknumber)(lua_State *L, int arg);

/* luaL_checknumber, with [def] for an absent or nil argument. [-0, +0, v] */
LUALIB_API lua_Number (luaL_optnumber)(lua_State *L, int arg, lua_Number def);

/* Argument [arg] as an integer; an argument error if it is not one (or
 * not convertible to one without loss). [-0, +0, v] */
LUALIB_API lua_Integer (luaL_checkinteger)(lua_State *L, int arg);

/* luaL_checkinteger, with [def] for an absent or nil argument. [-0, +0, v] */
LUALIB_API lua_Integer (luaL_optinteger)(lua_State *L, int arg, lua_Integer def);

/* Grows the stack by [sz] slots or raises "stack overflow ([msg])" ([msg]
 * may be NULL). [-0, +0, v] */
LUALIB_API void (luaL_checkstack)(lua_State *L, int sz, const char *msg);

/* An argument error unless argument [arg] has type [t] (a LUA_T* tag).
 * [-0, +0, v] */
LUALIB_API void (luaL_checktype)(lua_State *L, int arg, int t);

/* An argument error unless there is an argument [arg] (nil counts).
 * [-0, +0, v] */
LUALIB_API void (luaL_checkany)(lua_State *L, int arg);

/*
 * Argument [arg] as an index into the NULL-terminated string array [lst]:
 * the position of the equal string. An absent or nil argument means [def]
 * when [def] is not NULL. An argument error if the argument is not a
 * string or not in [lst]. The usual way to map option strings to C enums.
 * [-0, +0, v]
 */
LUALIB_API int (luaL_checkoption)(lua_State *L, int arg, const char *def,
                                  const char *const lst[]);

/*-------------------------------------------------------------------------
 * References
 *
 * A reference is an integer key in a table (usually the registry) under
 * which C code keeps a value alive. See also tide.h's handles, which need
 * no table and may be freed from any OS thread.
 */

/* A value luaL_ref never returns; luaL_unref ignores it. */
#define LUA_NOREF (-2)

/* What luaL_ref returns for nil (no entry is made). */
#define LUA_REFNIL (-1)

/*
 * Pops a value, stores it in the table at [t] under a fresh integer key,
 * and returns the key (LUA_REFNIL for nil). The key stays unique as long
 * as no one else adds integer keys to that table; get the value back with
 * lua_rawgeti(L, t, ref). [-1, +0, m]
 */
LUALIB_API int (luaL_ref)(lua_State *L, int t);

/* Removes reference [ref] from the table at [t], so its value can be
 * collected and the key reused; LUA_NOREF and LUA_REFNIL are ignored.
 * [-0, +0, -] */
LUALIB_API void (luaL_unref)(lua_State *L, int t, int ref);

/*-------------------------------------------------------------------------
 * Loading chunks
 */

/*
 * Loads (does not run) the file [filename], or standard input if it is
 * NULL, as lua_load does with [mode]; a first line starting with '#' is
 * skipped. Returns lua_load's statuses, or LUA_ERRFILE if the file cannot
 * be opened or read; pushes the function or an error message. [-0, +1, m]
 */
LUALIB_API int (luaL_loadfilex)(lua_State *L, const char *filename, const char *mode);
#define luaL_loadfile(L, f) luaL_loadfilex(L, (f), NULL)

/*
 * Loads the [sz] bytes at [buff] as a chunk named [name], as lua_load does
 * with [mode]. Pushes the function or an error message. [-0, +1, -]
 */
LUALIB_API int (luaL_loadbufferx)(lua_State *L, const char *buff, size_t sz,
                                  const char *name, const char *mode);
#define luaL_loadbuffer(L, s, sz, n) luaL_loadbufferx(L, (s), (sz), (n), NULL)

/* Loads the '\0'-terminated chunk [s] (named after itself). [-0, +1, -] */
LUALIB_API int (luaL_loadstring)(lua_State *L, const char *s);

/*-------------------------------------------------------------------------
 * States, tables and modules
 */

/*
 * A new state using the C library's realloc and free, with a panic
 * function and a warning function (off until "@on") that write to
 * standard error. NULL if memory runs out. [-0, +0, -]
 */
LUALIB_API lua_State *(luaL_newstate)(void);

/* The length (#) of the value at [idx] as an integer (may call __len);
 * an error if it is not an integer. [-0, +0, e] */
LUALIB_API lua_Integer (luaL_len)(lua_State *L, int idx);

/* Pushes a copy of [s] with every occurrence of [p] replaced by [r], and
 * returns it. [-0, +1, m] */
LUALIB_API const char *(luaL_gsub)(lua_State *L, const char *s, const char *p,
                                   const char *r);

/*
 * Sets the functions of [l] as fields of the table on the top, below [nup]
 * values that become upvalues of every function (and are popped).
 * [-nup, +0, m]
 */
LUALIB_API void (luaL_setfuncs)(lua_State *L, const luaL_Reg *l, int nup);

/* Pushes t[fname], t being the value at [idx], creating an empty table
 * there first if it is not a table. Returns 1 if a table was there.
 * [-0, +1, e] */
LUALIB_API int (luaL_getsubtable)(lua_State *L, int idx, const char *fname);

/*
 * Pushes a traceback of thread [L1]'s stack from level [level], preceded
 * by [msg] and a newline if [msg] is not NULL. Long tracebacks are
 * abbreviated in the middle. [-0, +1, m]
 */
LUALIB_API void (luaL_traceback)(lua_State *L, lua_State *L1, const char *msg,
                                 int level);

/*
 * require for a C module: unless package.loaded[[modname]] is true, calls
 * [openf] with [modname] and stores its result there. Pushes the module,
 * and also sets it as global [modname] if [glb]. [-0, +1, e]
 */
LUALIB_API void (luaL_requiref)(lua_State *L, const char *modname,
                                lua_CFunction openf, int glb);

/*-------------------------------------------------------------------------
 * Convenience macros
 */

/* Pushes a table sized for the entries of the array [l] (an array, not a
 * pointer). [-0, +1, m] */
#define luaL_newlibtable(L, l) lua_createtable(L, 0, sizeof(l) / sizeof((l)[0]) - 1)

/* Pushes a new table holding the functions of the array [l]. [-0, +1, m] */
#define luaL_newlib(L, l) \
    (luaL_checkversion(L), luaL_newlibtable(L, l), luaL_setfuncs(L, l, 0))

/* An argument error with [extramsg] unless [cond]. [-0, +0, v] */
#define luaL_argcheck(L, cond, arg, extramsg) \
    ((void)(luai_likely(cond) || luaL_argerror(L, (arg), (extramsg))))

/* A type error ("[tname] expected") unless [cond]. [-0, +0, v] */
#define luaL_argexpected(L, cond, arg, tname) \
    ((void)(luai_likely(cond) || luaL_typeerror(L, (arg), (tname))))

/* String arguments without their lengths. [-0, +0, v] */
#define luaL_checkstring(L, n) (luaL_checklstring(L, (n), NULL))
#define luaL_optstring(L, n, d) (luaL_optlstring(L, (n), (d), NULL))

/* The type name of the value at [i]. [-0, +0, -] */
#define luaL_typename(L, i) lua_typename(L, lua_type(L, (i)))

/* Loads and runs a file or a string: 0 (LUA_OK) on success, 1 on an error,
 * whose message is then on the top. [-0, +?, m] / [-0, +?, -] */
#define luaL_dofile(L, fn) (luaL_loadfile(L, fn) || lua_pcall(L, 0, LUA_MULTRET, 0))
#define luaL_dostring(L, s) (luaL_loadstring(L, s) || lua_pcall(L, 0, LUA_MULTRET, 0))

/* Pushes the registry's metatable for [n] and returns its type. [-0, +1, m] */
#define luaL_getmetatable(L, n) (lua_getfield(L, LUA_REGISTRYINDEX, (n)))

/* [d] if argument [n] is absent or nil, else [f](L, n); [d] is evaluated
 * only when needed. */
#define luaL_opt(L, f, n, d) (lua_isnoneornil(L, (n)) ? (d) : f(L, (n)))

/* An integer operation done in unsigned arithmetic, so that overflow wraps
 * around instead of being undefined. */
#define luaL_intop(op, v1, v2) \
    ((lua_Integer)((lua_Unsigned)(v1) op (lua_Unsigned)(v2)))

/* Pushes the value library functions return for failure (nil today).
 * [-0, +1, -] */
#define luaL_pushfail(L) lua_pushnil(L)

/*-------------------------------------------------------------------------
 * String buffers
 *
 * Build a string piecemeal: declare a luaL_Buffer (usually a local),
 * luaL_buffinit it, add pieces, and luaL_pushresult. Or, knowing the
 * final size, luaL_buffinitsize, write into the space, and
 * luaL_pushresultsize.
 *
 * A buffer may keep a value of its own on the stack, so between buffer
 * operations the stack must be balanced: each operation expects the top
 * where the previous one left it. luaL_addvalue is the exception: it takes
 * the value to add from the top. After luaL_pushresult the stack is as it
 * was at luaL_buffinit plus the result.
 *
 * The fields are public only for the macros below. [b] points either into
 * [init] or into memory that never moves while the buffer is in use (in
 * Tide, a block from the state's allocator owned by a small userdata the
 * buffer keeps on the stack, whose __gc frees it if an error abandons the
 * buffer), so
 * the address luaL_prepbuffsize returns stays valid until the next buffer
 * operation.
 */
typedef struct luaL_Buffer luaL_Buffer;

struct luaL_Buffer {
    char *b;      /* the current space */
    size_t size;  /* its size */
    size_t n;     /* bytes in use */
    lua_State *L;
    union {
        LUAI_MAXALIGN;
        char b[LUAL_BUFFERSIZE];
    } init;       /* the space used first */
};

/* The bytes in the buffer so far, and where they are (valid until the
 * next addition). [-0, +0, -] */
#define luaL_bufflen(bf) ((bf)->n)
#define luaL_buffaddr(bf) ((bf)->b)

/* Adds byte [c]. [-?, +?, m] */
#define luaL_addchar(B, c) \
    ((void)((B)->n < (B)->size || luaL_prepbuffsize((B), 1)), ((B)->b[(B)->n++] = (c)))

/* Counts [s] bytes the caller wrote into the space luaL_prepbuffsize gave.
 * [-?, +?, -] */
#define luaL_addsize(B, s) ((B)->n += (s))

/* Drops the last [s] bytes (there must be that many). [-?, +?, -] */
#define luaL_buffsub(B, s) ((B)->n -= (s))

/* Initializes [B] for state [L]; allocates nothing. [-0, +?, -] */
LUALIB_API void (luaL_buffinit)(lua_State *L, luaL_Buffer *B);

/* Returns space for [sz] more bytes; write them and call luaL_addsize.
 * [-?, +?, m] */
LUALIB_API char *(luaL_prepbuffsize)(luaL_Buffer *B, size_t sz);

/* Adds the [l] bytes at [s] (zeros included). [-?, +?, m] */
LUALIB_API void (luaL_addlstring)(luaL_Buffer *B, const char *s, size_t l);

/* Adds the '\0'-terminated [s]. [-?, +?, m] */
LUALIB_API void (luaL_addstring)(luaL_Buffer *B, const char *s);

/* Pops the value on the top (a string or number) and adds it. [-1, +?, m] */
LUALIB_API void (luaL_addvalue)(luaL_Buffer *B);

/* Adds a copy of [s] with every occurrence of [p] replaced by [r].
 * [-?, +?, m] */
LUALIB_API void (luaL_addgsub)(luaL_Buffer *B, const char *s, const char *p,
                               const char *r);

/* Ends the buffer, pushing its contents as a string. [-?, +1, m] */
LUALIB_API void (luaL_pushresult)(luaL_Buffer *B);

/* luaL_addsize(B, sz) then luaL_pushresult(B). [-?, +1, m] */
LUALIB_API void (luaL_pushresultsize)(luaL_Buffer *B, size_t sz);

/* luaL_buffinit then luaL_prepbuffsize(B, sz). [-?, +?, m] */
LUALIB_API char *(luaL_buffinitsize)(lua_State *L, luaL_Buffer *B, size_t sz);

/* Space for LUAL_BUFFERSIZE bytes. [-?, +?, m] */
#define luaL_prepbuffer(B) luaL_prepbuffsize(B, LUAL_BUFFERSIZE)

/*-------------------------------------------------------------------------
 * File handles
 *
 * An io library file handle is a full userdata that starts with a
 * luaL_Stream and whose metatable is the registry's LUA_FILEHANDLE. [f] is
 * the C stream (NULL while the handle is being created); [closef] closes
 * it when the handle is closed or collected — it receives the handle and
 * returns true, or fail and a message — and is set to NULL once called,
 * which marks the handle closed. C modules may create handles the io
 * library's methods accept.
 */
#define LUA_FILEHANDLE "FILE*"

typedef struct luaL_Stream {
    FILE *f;
    lua_CFunction closef;
} luaL_Stream;

/*-------------------------------------------------------------------------
 * Output used by print and the warning and panic functions; a host may
 * define these before including this header to redirect them.
 */
#if !defined(lua_writestring)
#define lua_writestring(s, l) fwrite((s), sizeof(char), (l), stdout)
#endif

#if !defined(lua_writeline)
#define lua_writeline() (lua_writestring("\n", 1), fflush(stdout))
#endif

#if !defined(lua_writestringerror)
#define lua_writestringerror(s, p) (fprintf(stderr, (s), (p)), fflush(stderr))
#endif

/*-------------------------------------------------------------------------
 * Compatibility with Lua 5.2 (define LUA_COMPAT_5_3 or
 * LUA_COMPAT_APIINTCASTS to get them)
 */
#if defined(LUA_COMPAT_APIINTCASTS)
#define luaL_checkunsigned(L, a) ((lua_Unsigned)luaL_checkinteger(L, a))
#define luaL_optunsigned(L, a, d) ((lua_Unsigned)luaL_optinteger(L, a, (lua_Integer)(d)))
#endif

#ifdef __cplusplus
}
#endif

#endif
