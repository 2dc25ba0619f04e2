/*
 * luaconf.h — the configuration libtide was built with.
 *
 * Stock Lua's luaconf.h is a menu: a program may pick 32-bit numbers, long
 * doubles, C89, and so on, and rebuild Lua to match. libtide is built once,
 * with one configuration, and this file describes it. The numeric types are
 * fixed — 64-bit integers and double floats — because values must carry
 * 64-bit integers unchanged; a program that asks for anything else (say,
 * LUA_32BITS) stops at compile time instead of disagreeing with the library
 * at run time.
 *
 * What stays here is what C code written for Lua 5.4 reads from luaconf.h:
 * the numeric types and their printf formats and limits, the sizes the API
 * exposes (LUA_IDSIZE, LUAL_BUFFERSIZE, LUA_EXTRASPACE, LUAI_MAXSTACK), the
 * default module search paths, the export macros (LUA_API, LUALIB_API,
 * LUAMOD_API) and the assertion hooks (lua_assert, luai_apicheck).
 *
 * It also defines TIDE_INTERNAL, which every function and variable of the
 * runtime that is not part of the API carries, so that the shared library
 * exports the API and nothing else.
 */
#ifndef LUACONF_H
#define LUACONF_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

/*-------------------------------------------------------------------------
 * Visibility
 *
 * API declarations carry LUA_API, LUALIB_API or LUAMOD_API (default
 * visibility: exported from the shared library); the runtime's internal
 * functions and variables carry TIDE_INTERNAL (hidden: never exported), as
 * stock Lua's internals carry LUAI_FUNC. A test can then list the exported
 * symbols and expect only lua_*, luaL_*, luaopen_* and tide_*.
 */
#if defined(__GNUC__) || defined(__clang__)
#define TIDE_VISIBLE __attribute__((visibility("default")))
#define TIDE_INTERNAL __attribute__((visibility("hidden")))
#else
#define TIDE_VISIBLE
#define TIDE_INTERNAL
#endif

/* Functions of the core API (lua.h). */
#define LUA_API extern TIDE_VISIBLE

/* Functions of the auxiliary library (lauxlib.h) and of lualib.h. */
#define LUALIB_API LUA_API

/* The luaopen_* functions of the standard libraries. */
#define LUAMOD_API LUA_API

/*-------------------------------------------------------------------------
 * Numeric types
 *
 * lua_Integer is long long (64 bits), lua_Number is double. The selector
 * macros below exist because C code sometimes tests them; their values are
 * the only ones libtide supports.
 */
#define LUA_INT_INT 1
#define LUA_INT_LONG 2
#define LUA_INT_LONGLONG 3

#define LUA_FLOAT_FLOAT 1
#define LUA_FLOAT_DOUBLE 2
#define LUA_FLOAT_LONGDOUBLE 3

#if defined(LUA_32BITS) || defined(LUA_C89_NUMBERS)
#error "libtide is built with 64-bit integers and double floats; LUA_32BITS and LUA_C89_NUMBERS are not supported"
#endif
#if defined(LUA_INT_TYPE) && LUA_INT_TYPE != LUA_INT_LONGLONG
#error "libtide's lua_Integer is long long (LUA_INT_LONGLONG)"
#endif
#if defined(LUA_FLOAT_TYPE) && LUA_FLOAT_TYPE != LUA_FLOAT_DOUBLE
#error "libtide's lua_Number is double (LUA_FLOAT_DOUBLE)"
#endif

#define LUA_INT_TYPE LUA_INT_LONGLONG
#define LUA_FLOAT_TYPE LUA_FLOAT_DOUBLE

/* The float type, the type a lua_Number is promoted to when passed through
 * "...", the length modifier printf needs for it (none), and the format
 * tostring uses for floats: "%.14g". */
#define LUA_NUMBER double
#define LUAI_UACNUMBER double
#define LUA_NUMBER_FRMLEN ""
#define LUA_NUMBER_FMT "%.14g"

/* The integer type, its promoted type, its printf length modifier ("ll")
 * and its printf format ("%lld"). */
#define LUA_INTEGER long long
#define LUAI_UACINT LUA_INTEGER
#define LUA_INTEGER_FRMLEN "ll"
#define LUA_INTEGER_FMT "%" LUA_INTEGER_FRMLEN "d"

/* The unsigned counterpart of LUA_INTEGER (lua_Unsigned). */
#define LUA_UNSIGNED unsigned LUAI_UACINT

/* Limits of lua_Integer and lua_Unsigned. */
#define LUA_MAXINTEGER LLONG_MAX
#define LUA_MININTEGER LLONG_MIN
#define LUA_MAXUNSIGNED ULLONG_MAX

/* The type of continuation contexts (lua_KContext): an integer wide enough
 * to hold a pointer. */
#define LUA_KCONTEXT intptr_t

/*
 * lua_numbertointeger(n, p): if the float [n], which must have an integral
 * value, lies in lua_Integer's range, stores it converted in *[p] and gives
 * 1; otherwise gives 0 and leaves *[p] alone. The range is [-2^63, 2^63):
 * both bounds are exact doubles, so the comparisons never round. May
 * evaluate its arguments more than once.
 */
#define lua_numbertointeger(n, p)                    \
    ((n) >= (LUA_NUMBER)(LUA_MININTEGER) &&          \
     (n) < -(LUA_NUMBER)(LUA_MININTEGER) &&          \
     (*(p) = (LUA_INTEGER)(n), 1))

/*-------------------------------------------------------------------------
 * Sizes the API exposes
 */

/* Size of lua_Debug.short_src, the printable form of a chunk's source used
 * in error messages; longer sources are abbreviated to fit. */
#define LUA_IDSIZE 60

/* Maximum number of slots a thread's stack may grow to. Also fixes where
 * the pseudo-indices begin (LUA_REGISTRYINDEX in lua.h). */
#define LUAI_MAXSTACK 1000000

/* Bytes of raw memory lua_getextraspace gives for each thread: room for
 * one pointer. */
#define LUA_EXTRASPACE (sizeof(void *))

/* Size of the space a luaL_Buffer holds inside itself before it needs
 * memory from the state, and the size luaL_prepbuffer asks for. */
#define LUAL_BUFFERSIZE ((int)(16 * sizeof(void *) * sizeof(LUA_NUMBER)))

/* A union member list whose alignment suits every type the API stores in
 * raw memory (used for luaL_Buffer's inline space). */
#define LUAI_MAXALIGN LUA_NUMBER n; double u; void *s; LUA_INTEGER i; long l

/*-------------------------------------------------------------------------
 * Module search paths (package.path, package.cpath, package.config)
 *
 * The defaults apply when the environment variables LUA_PATH_5_4 /
 * LUA_PATH (and LUA_CPATH_5_4 / LUA_CPATH) are unset.
 *
 * Lua modules are shared with stock Lua 5.4 (the same share/lua/5.4
 * folders). C modules are not: libtide is source-compatible with Lua 5.4,
 * not binary-compatible, so a module compiled against stock Lua's headers
 * must not be loaded into libtide. The default C path therefore names
 * Tide's own folder (lib/tide/5.4), never stock Lua's lib/lua/5.4.
 */
#define LUA_PATH_SEP ";"   /* separates templates in a path */
#define LUA_PATH_MARK "?"  /* replaced by the module name */
#define LUA_EXEC_DIR "!"   /* replaced by the executable's directory (Windows) */
#define LUA_DIRSEP "/"     /* directory separator */

#define LUA_VDIR "5.4"
#define LUA_ROOT "/usr/local/"
#define LUA_LDIR LUA_ROOT "share/lua/" LUA_VDIR "/"
#define LUA_CDIR LUA_ROOT "lib/tide/" LUA_VDIR "/"

#define LUA_PATH_DEFAULT                                     \
    LUA_LDIR "?.lua;" LUA_LDIR "?/init.lua;"                 \
    LUA_CDIR "?.lua;" LUA_CDIR "?/init.lua;"                 \
    "./?.lua;" "./?/init.lua"

#define LUA_CPATH_DEFAULT \
    LUA_CDIR "?.so;" LUA_CDIR "loadall.so;" "./?.so"

/*-------------------------------------------------------------------------
 * Branch hints and assertions
 */
#if defined(__GNUC__) || defined(__clang__)
#define luai_likely(x) (__builtin_expect(((x) != 0), 1))
#define luai_unlikely(x) (__builtin_expect(((x) != 0), 0))
#else
#define luai_likely(x) (x)
#define luai_unlikely(x) (x)
#endif

/* The short names the libraries use, as in stock Lua's sources. */
#if defined(LUA_CORE) || defined(LUA_LIB)
#define l_likely(x) luai_likely(x)
#define l_unlikely(x) luai_unlikely(x)
#endif

/*
 * lua_assert(c): an internal consistency check, compiled in when the
 * library (or a program) is built with TIDE_DEBUG or LUAI_ASSERT, and
 * nothing otherwise.
 */
#if !defined(lua_assert)
#if defined(TIDE_DEBUG) || defined(LUAI_ASSERT)
#include <assert.h>
#define lua_assert(c) assert(c)
#else
#define lua_assert(c) ((void)0)
#endif
#endif

/*
 * luai_apicheck(L, e): the check libtide applies to API arguments (valid
 * indices, enough stack, the right kind of value). Building with
 * LUA_USE_APICHECK turns it into an assertion; otherwise arguments are
 * trusted, as the manual allows.
 */
#if !defined(luai_apicheck)
#if defined(LUA_USE_APICHECK)
#include <assert.h>
#define luai_apicheck(l, e) ((void)(l), assert(e))
#else
#define luai_apicheck(l, e) ((void)(l), lua_assert(e))
#endif
#endif

/*-------------------------------------------------------------------------
 * Compatibility with Lua 5.3, on request
 *
 * Define LUA_COMPAT_5_3 before including the headers to get the names Lua
 * 5.4 keeps for 5.3 code: the unsigned-integer casts (lua_pushunsigned,
 * luaL_checkunsigned, ...) and the old length and comparison names.
 */
#if defined(LUA_COMPAT_5_3)
#define LUA_COMPAT_MATHLIB
#define LUA_COMPAT_APIINTCASTS
#define LUA_COMPAT_LT_LE

#define lua_strlen(L, i) lua_rawlen(L, (i))
#define lua_objlen(L, i) lua_rawlen(L, (i))
#define lua_equal(L, idx1, idx2) lua_compare(L, (idx1), (idx2), LUA_OPEQ)
#define lua_lessthan(L, idx1, idx2) lua_compare(L, (idx1), (idx2), LUA_OPLT)
#endif

#endif
