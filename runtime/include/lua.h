/*
 * lua.h — the C API of libtide: Lua 5.4's API, at source level.
 *
 * A C program or module written for Lua 5.4 compiles unchanged against this
 * header and runs unchanged on libtide. Every function, type, macro and
 * constant of the Lua 5.4 Reference Manual's chapter 4 is here; the binary
 * layout (struct sizes, symbol versions) is Tide's own, so code must be
 * recompiled, not relinked. Tide's extensions are not here: they are in
 * tide.h, which nothing in the Lua headers includes.
 *
 * How to read the comments
 *
 *   Each function ends with its stack effect and what it may raise, in the
 *   manual's notation [-o, +p, x]: it pops o values and then pushes p
 *   ("?" when that depends on the values; "a|b" when it is one or the
 *   other). x is
 *     -  never raises an error;
 *     m  may raise only a memory error;
 *     v  may raise the errors its comment names;
 *     e  may run arbitrary Lua code (directly or through metamethods), so
 *        may raise any error.
 *   Parameters are named [like_this].
 *
 * Threads of the operating system
 *
 *   A state (the lua_State returned by lua_newstate and every thread made
 *   from it) is used by one OS thread at a time: the API takes no locks.
 *   Tide's collector may run a worker thread of its own; it never calls
 *   back into C code, never calls the allocator (lua_Alloc) and never
 *   touches a stack the program can see. The only functions safe to call
 *   from any OS thread at any time are tide.h's handle functions that say
 *   so.
 *
 * The collector and the pointers C code holds
 *
 *   Tide's collector moves objects: new objects are born in a nursery and
 *   copied out when they survive. C code therefore never holds a pointer to
 *   a Lua object, only the values on the stack, and what the API returns is
 *   valid under the rules the manual gives, which Tide keeps exactly:
 *   - a string pointer (lua_tolstring, lua_pushstring, luaL_checklstring,
 *     ...) is valid while the string stays at that stack index, or, for an
 *     upvalue pseudo-index, while the call is active and the upvalue is
 *     unchanged;
 *   - a full userdata's memory block never moves: its address is valid as
 *     long as the userdata is alive and, if it has a finalizer, until that
 *     finalizer has run;
 *   - a lua_State* of a thread never moves while the thread is alive.
 *   Any call that allocates may run a nursery collection, which moves
 *   objects. The x mark says what a function may raise, not whether it
 *   allocates: lua_pcall, lua_resume and lua_load raise nothing, yet run
 *   code or allocate. Code that follows the rules above never needs to
 *   know which calls collect.
 *   lua_topointer gives an identity for an object, not its address (except
 *   for userdata and threads, whose addresses are stable).
 */
#ifndef LUA_H
#define LUA_H

#include <stdarg.h>
#include <stddef.h>

#include "luaconf.h"

#ifdef __cplusplus
extern "C" {
#endif

/*=========================================================================
 * Versions
 */

/* The Lua version libtide implements: the language and API of Lua 5.4.6. */
#define LUA_VERSION_MAJOR "5"
#define LUA_VERSION_MINOR "4"
#define LUA_VERSION_RELEASE "6"

#define LUA_VERSION_NUM 504
#define LUA_VERSION_RELEASE_NUM 50406

/* "Lua 5.4": the value of the global _VERSION. */
#define LUA_VERSION "Lua " LUA_VERSION_MAJOR "." LUA_VERSION_MINOR
#define LUA_RELEASE LUA_VERSION "." LUA_VERSION_RELEASE
#define LUA_COPYRIGHT LUA_RELEASE " (Tide)  Copyright (C) 2026 the Tide authors"
#define LUA_AUTHORS "the Tide authors; the Lua language is by R. Ierusalimschy, L. H. de Figueiredo and W. Celes"

/*
 * Defined here, and again (identically) in tide.h, so that code that must
 * also build against stock Lua can ask whether tide.h is available:
 *
 *     #ifdef TIDE_VERSION_NUM
 *     #include "tide.h"
 *     #endif
 */
#define TIDE_VERSION_NUM 100

/* The first bytes of a binary chunk (lua_dump, string.dump). lua_load tells
 * binary chunks from text by them. Tide's binary format is its own: chunks
 * round-trip within libtide, not with stock Lua. */
#define LUA_SIGNATURE "\x1bLua"

/*=========================================================================
 * Constants
 */

/* Asks lua_call / lua_pcall / lua_resume for all results. */
#define LUA_MULTRET (-1)

/*
 * Pseudo-indices: indices that name a value outside the stack. They sit
 * below every real negative index (the stack never holds more than
 * LUAI_MAXSTACK slots). lua_upvalueindex(i) names the [i]-th upvalue of
 * the running C function, i in 1..256.
 */
#define LUA_REGISTRYINDEX (-LUAI_MAXSTACK - 1000)
#define lua_upvalueindex(i) (LUA_REGISTRYINDEX - (i))

/* Status codes, returned by lua_pcall, lua_resume, lua_load, lua_status
 * and friends (LUA_ERRFILE, for file errors, is in lauxlib.h). */
#define LUA_OK 0        /* no error */
#define LUA_YIELD 1     /* the thread yielded */
#define LUA_ERRRUN 2    /* a runtime error */
#define LUA_ERRSYNTAX 3 /* a syntax error, or a malformed binary chunk */
#define LUA_ERRMEM 4    /* out of memory (the message handler is not called) */
#define LUA_ERRERR 5    /* an error while running the message handler */

/* Type tags, as lua_type returns them. LUA_TNONE is the "type" of an
 * acceptable index that holds no value; it behaves like nil. */
#define LUA_TNONE (-1)
#define LUA_TNIL 0
#define LUA_TBOOLEAN 1
#define LUA_TLIGHTUSERDATA 2
#define LUA_TNUMBER 3
#define LUA_TSTRING 4
#define LUA_TTABLE 5
#define LUA_TFUNCTION 6
#define LUA_TUSERDATA 7
#define LUA_TTHREAD 8

/* The number of type tags (LUA_TNIL .. LUA_TTHREAD). */
#define LUA_NUMTYPES 9
#define LUA_NUMTAGS LUA_NUMTYPES /* the Lua 5.3 name */

/* Free stack slots a C function is guaranteed when Lua calls it. */
#define LUA_MINSTACK 20

/* Integer keys of the values every registry holds from the start. */
#define LUA_RIDX_MAINTHREAD 1 /* the main thread of the state */
#define LUA_RIDX_GLOBALS 2    /* the global environment */
#define LUA_RIDX_LAST LUA_RIDX_GLOBALS

/*=========================================================================
 * Types
 */

/* A thread of a Lua state; through it, the whole state. Opaque. */
typedef struct lua_State lua_State;

/* Floats (double), integers (64-bit), and the unsigned counterpart. */
typedef LUA_NUMBER lua_Number;
typedef LUA_INTEGER lua_Integer;
typedef LUA_UNSIGNED lua_Unsigned;

/* The context a C function hands to its own continuation: an integer wide
 * enough to hold a pointer. Lua never looks at it. */
typedef LUA_KCONTEXT lua_KContext;

/*
 * A C function callable from Lua. It finds its arguments on its own stack
 * at indices 1..lua_gettop(L), pushes its results, and returns how many it
 * pushed; whatever lies below them is discarded.
 */
typedef int (*lua_CFunction)(lua_State *L);

/* A continuation: called instead of returning to a C function whose call
 * (lua_callk, lua_pcallk) or yield (lua_yieldk) was interrupted by a yield
 * or, for lua_pcallk, ended by an error. [status] is LUA_YIELD after a
 * resumed yield, or the error status; [ctx] is what the function passed. */
typedef int (*lua_KFunction)(lua_State *L, int status, lua_KContext ctx);

/*
 * Supplies a chunk to lua_load piece by piece. Returns the next piece and
 * stores its size in *[size]; NULL or a size of 0 ends the chunk. A piece
 * must stay readable until the reader is called again, and the reader must
 * leave the stack as it found it.
 */
typedef const char *(*lua_Reader)(lua_State *L, void *data, size_t *size);

/* Receives a binary chunk from lua_dump piece by piece. Returns 0 to go
 * on; anything else stops the dump and becomes lua_dump's result. */
typedef int (*lua_Writer)(lua_State *L, const void *p, size_t sz, void *ud);

/*
 * The state's memory allocator, a realloc with an explicit old size. With
 * [nsize] 0 it frees [ptr] (if not NULL) and returns NULL. Otherwise it
 * returns a block of [nsize] bytes holding the first min(osize, nsize)
 * bytes of [ptr] (a new block if [ptr] is NULL), or NULL if it cannot — and
 * then the old block is untouched. When [ptr] is not NULL, [osize] is the
 * size it was allocated with. When [ptr] is NULL, stock Lua passes in
 * [osize] the type tag of the object being created; Tide never does (it
 * obtains its heap in large blocks, not one object at a time), so an
 * allocator must not rely on it.
 *
 * Every byte the state uses comes from this function, and it is only ever
 * called from the OS thread using the state — never from the collector's
 * worker — so an allocator need not be thread-safe.
 */
typedef void *(*lua_Alloc)(void *ud, void *ptr, size_t osize, size_t nsize);

/* Receives warnings (lua_warning, the script function warn). [tocont] is
 * true when the next call continues this message. */
typedef void (*lua_WarnFunction)(void *ud, const char *msg, int tocont);

/* An identification string of the library, for tools that look for it in
 * a binary. */
LUA_API const char lua_ident[];

/*=========================================================================
 * States and threads
 */

/*
 * Creates a state whose memory all comes from [f] (called with [ud]) and
 * returns its main thread, or NULL if memory runs out. The state starts
 * with an empty global table and no libraries (see luaL_openlibs). [-0, +0, -]
 */
LUA_API lua_State *(lua_newstate)(lua_Alloc f, void *ud);

/*
 * Closes the state of [L] (any of its threads): closes the pending
 * to-be-closed variables of the main thread, runs every pending finalizer,
 * stops the collector's worker thread if one was started, and frees all
 * memory — every tide.h handle included. [-0, +0, -]
 */
LUA_API void (lua_close)(lua_State *L);

/*
 * Creates a thread (a coroutine) sharing [L]'s state and globals, with a
 * stack of its own; pushes it and returns it. The thread is an object like
 * any other: it lives while it is reachable. [-0, +1, m]
 */
LUA_API lua_State *(lua_newthread)(lua_State *L);

/*
 * Resets thread [L]: unwinds its call stack and closes its pending
 * to-be-closed variables, leaving it ready for reuse. [from] is the
 * coroutine doing it, or NULL. Returns LUA_OK, or the status of the error
 * that killed the thread or of an error raised while closing; in that case
 * the error object is left on the top of [L]. [-0, +?, -]
 */
LUA_API int (lua_closethread)(lua_State *L, lua_State *from);

/* lua_closethread(L, NULL), under its Lua 5.4.0–5.4.5 name. Deprecated.
 * [-0, +?, -] */
LUA_API int (lua_resetthread)(lua_State *L);

/*
 * Sets the function called when an error escapes every protected call,
 * and returns the previous one. The panic function finds the error object
 * on the top of the stack; if it returns, the process aborts, so a panic
 * function that wants to survive must not return (longjmp out instead).
 * [-0, +0, -]
 */
LUA_API lua_CFunction (lua_atpanic)(lua_State *L, lua_CFunction panicf);

/* The version number of the running core: 504. [-0, +0, -] */
LUA_API lua_Number (lua_version)(lua_State *L);

/*=========================================================================
 * The stack
 *
 * Index 1 is the bottom, lua_gettop(L) the top; -1 is the top, -n the
 * bottom of n values. A valid index names an existing slot or a
 * pseudo-index; an acceptable index may also lie above the top, within the
 * stack's allocated size, and then holds "none".
 */

/* The absolute index equivalent to acceptable index [idx]. [-0, +0, -] */
LUA_API int (lua_absindex)(lua_State *L, int idx);

/* The index of the top value: the number of values on the stack.
 * [-0, +0, -] */
LUA_API int (lua_gettop)(lua_State *L);

/*
 * Sets the top to acceptable index [idx] (or 0 to empty the stack), filling
 * new slots with nil. Removing a slot marked to be closed closes it, which
 * runs its __close metamethod. [-?, +?, e]
 */
LUA_API void (lua_settop)(lua_State *L, int idx);

/* Pushes a copy of the value at [idx]. [-0, +1, -] */
LUA_API void (lua_pushvalue)(lua_State *L, int idx);

/*
 * Rotates the values from valid index [idx] to the top by [n] positions
 * towards the top ([n] > 0) or |n| towards the bottom ([n] < 0); |n| is at
 * most the number of values rotated. Not for pseudo-indices. [-0, +0, -]
 */
LUA_API void (lua_rotate)(lua_State *L, int idx, int n);

/* Copies the value at [fromidx] into valid index [toidx], overwriting
 * it. [-0, +0, -] */
LUA_API void (lua_copy)(lua_State *L, int fromidx, int toidx);

/*
 * Makes room for [n] more values above the top. Returns 0, and leaves the
 * stack alone, if that would pass LUAI_MAXSTACK slots or memory runs out.
 * Never shrinks the stack. [-0, +0, -]
 */
LUA_API int (lua_checkstack)(lua_State *L, int n);

/* Pops [n] values from [from] and pushes them, in order, onto [to]; both
 * threads belong to the same state. [-?, +?, -] */
LUA_API void (lua_xmove)(lua_State *from, lua_State *to, int n);

/*=========================================================================
 * Reading values (stack -> C)
 *
 * These accept any acceptable index and never raise, except that a
 * conversion to a string may run out of memory.
 */

/* 1 if the value is a number or a string convertible to one. [-0, +0, -] */
LUA_API int (lua_isnumber)(lua_State *L, int idx);
/* 1 if the value is a string or a number (always convertible). [-0, +0, -] */
LUA_API int (lua_isstring)(lua_State *L, int idx);
/* 1 if the value is a C function (light or closure). [-0, +0, -] */
LUA_API int (lua_iscfunction)(lua_State *L, int idx);
/* 1 if the value is a number with the integer subtype. [-0, +0, -] */
LUA_API int (lua_isinteger)(lua_State *L, int idx);
/* 1 if the value is a userdata, full or light. [-0, +0, -] */
LUA_API int (lua_isuserdata)(lua_State *L, int idx);

/* The type tag of the value (LUA_TNIL ... LUA_TTHREAD), or LUA_TNONE for
 * an acceptable index holding no value. [-0, +0, -] */
LUA_API int (lua_type)(lua_State *L, int idx);

/* The name of type tag [tp] ("nil", "number", ..., "no value" for
 * LUA_TNONE): a static string. [-0, +0, -] */
LUA_API const char *(lua_typename)(lua_State *L, int tp);

/*
 * The value as a lua_Number, if it is a number or a string convertible to
 * one; otherwise 0. If [isnum] is not NULL, *[isnum] tells whether the
 * conversion succeeded. [-0, +0, -]
 */
LUA_API lua_Number (lua_tonumberx)(lua_State *L, int idx, int *isnum);

/*
 * The value as a lua_Integer, if it is an integer, a float with an exact
 * integer value, or a string convertible to such a number; otherwise 0.
 * *[isnum], if given, tells whether the conversion succeeded. [-0, +0, -]
 */
LUA_API lua_Integer (lua_tointegerx)(lua_State *L, int idx, int *isnum);

/* 0 for nil and false, 1 for every other value. [-0, +0, -] */
LUA_API int (lua_toboolean)(lua_State *L, int idx);

/*
 * The value as a C string if it is a string or a number — a number is
 * converted and the slot itself becomes that string, which confuses
 * lua_next if done to a key — or NULL otherwise. *[len], if [len] is not
 * NULL, receives the length. The string always ends with a '\0' but may
 * contain others. The pointer stays valid while the value stays at [idx]
 * (see "The collector and the pointers C code holds"). [-0, +0, m]
 */
LUA_API const char *(lua_tolstring)(lua_State *L, int idx, size_t *len);

/*
 * The raw length: a string's length, a table's border without __len, a
 * full userdata's block size; 0 for anything else. [-0, +0, -]
 */
LUA_API lua_Unsigned (lua_rawlen)(lua_State *L, int idx);

/* The C function at [idx], or NULL if the value is not a C function.
 * [-0, +0, -] */
LUA_API lua_CFunction (lua_tocfunction)(lua_State *L, int idx);

/* A full userdata's block address, a light userdata's pointer, or NULL.
 * [-0, +0, -] */
LUA_API void *(lua_touserdata)(lua_State *L, int idx);

/* The thread at [idx], or NULL if the value is not a thread. [-0, +0, -] */
LUA_API lua_State *(lua_tothread)(lua_State *L, int idx);

/*
 * A pointer that identifies the value, for hashing and debug output: two
 * live objects never share one. For userdata it is lua_touserdata's
 * result, for a thread its lua_State*, for a light C function the
 * function; for tables, strings and other functions it is an identity,
 * stable for the object's life but not its address (objects move in Tide),
 * and must not be dereferenced. NULL for non-object values. [-0, +0, -]
 */
LUA_API const void *(lua_topointer)(lua_State *L, int idx);

/*=========================================================================
 * Arithmetic and comparison
 */

/* Operations for lua_arith, with the semantics of the Lua operators. */
#define LUA_OPADD 0  /* +  */
#define LUA_OPSUB 1  /* -  */
#define LUA_OPMUL 2  /* *  */
#define LUA_OPMOD 3  /* %  */
#define LUA_OPPOW 4  /* ^  */
#define LUA_OPDIV 5  /* /  (float division) */
#define LUA_OPIDIV 6 /* // (floor division) */
#define LUA_OPBAND 7 /* &  */
#define LUA_OPBOR 8  /* |  */
#define LUA_OPBXOR 9 /* ~  (binary: exclusive or) */
#define LUA_OPSHL 10 /* << */
#define LUA_OPSHR 11 /* >> */
#define LUA_OPUNM 12 /* -  (unary: negation) */
#define LUA_OPBNOT 13 /* ~ (unary: bitwise not) */

/*
 * Applies operator [op] to the two values on the top (the top one is the
 * second operand) or, for LUA_OPUNM and LUA_OPBNOT, to the top value; pops
 * them and pushes the result. May call metamethods. [-(2|1), +1, e]
 */
LUA_API void (lua_arith)(lua_State *L, int op);

/* Comparisons for lua_compare. */
#define LUA_OPEQ 0 /* == */
#define LUA_OPLT 1 /* <  */
#define LUA_OPLE 2 /* <= */

/* 1 if the values at [idx1] and [idx2] are equal without calling __eq;
 * 0 otherwise or if an index is not valid. [-0, +0, -] */
LUA_API int (lua_rawequal)(lua_State *L, int idx1, int idx2);

/*
 * 1 if the value at [idx1] compares as [op] (LUA_OPEQ, LUA_OPLT, LUA_OPLE)
 * to the value at [idx2], following Lua's rules and metamethods; 0
 * otherwise or if an index is not valid. [-0, +0, e]
 */
LUA_API int (lua_compare)(lua_State *L, int idx1, int idx2, int op);

/*=========================================================================
 * Pushing values (C -> stack)
 *
 * The caller makes sure there is room (LUA_MINSTACK slots on entry to a C
 * function; lua_checkstack for more).
 */

/* Pushes nil. [-0, +1, -] */
LUA_API void (lua_pushnil)(lua_State *L);
/* Pushes a float. [-0, +1, -] */
LUA_API void (lua_pushnumber)(lua_State *L, lua_Number n);
/* Pushes an integer. [-0, +1, -] */
LUA_API void (lua_pushinteger)(lua_State *L, lua_Integer n);

/*
 * Pushes a copy of the [len] bytes at [s] (zeros included) as a string and
 * returns a pointer to the copy (see lua_tolstring for how long it is
 * valid). [s] may be reused as soon as this returns. [-0, +1, m]
 */
LUA_API const char *(lua_pushlstring)(lua_State *L, const char *s, size_t len);

/* Like lua_pushlstring for the '\0'-terminated [s]; if [s] is NULL, pushes
 * nil and returns NULL. [-0, +1, m] */
LUA_API const char *(lua_pushstring)(lua_State *L, const char *s);

/*
 * Pushes a string formatted from [fmt] and returns it. Only these
 * conversions exist, with no flags, width or precision: %% (a '%'), %s (a
 * '\0'-terminated string), %f (a lua_Number), %I (a lua_Integer), %p (a
 * pointer), %d (an int), %c (an int as one byte), %U (a long as a UTF-8
 * sequence). Raises a memory error, or an error for an unknown
 * conversion. [-0, +1, v]
 */
LUA_API const char *(lua_pushfstring)(lua_State *L, const char *fmt, ...);
/* lua_pushfstring with a va_list. [-0, +1, v] */
LUA_API const char *(lua_pushvfstring)(lua_State *L, const char *fmt, va_list argp);

/*
 * Pushes C function [fn] with [n] upvalues (0..255), taken from — and
 * popped off — the top of the stack, first pushed first. With [n] 0 the
 * result is a light C function, a plain value that needs no memory.
 * [-n, +1, m]
 */
LUA_API void (lua_pushcclosure)(lua_State *L, lua_CFunction fn, int n);

/* Pushes true if [b] is nonzero, false otherwise. [-0, +1, -] */
LUA_API void (lua_pushboolean)(lua_State *L, int b);

/*
 * Pushes a light userdata: the bare pointer [p], a value rather than an
 * object (no metatable of its own, never collected, equal to every light
 * userdata holding the same address). [-0, +1, -]
 */
LUA_API void (lua_pushlightuserdata)(lua_State *L, void *p);

/* Pushes thread [L] itself; returns 1 if it is its state's main thread.
 * [-0, +1, -] */
LUA_API int (lua_pushthread)(lua_State *L);

/*=========================================================================
 * Getting values from tables and objects (Lua -> stack)
 *
 * Each function pushes the value it gets and returns its type tag.
 */

/* Pushes the global [name]. [-0, +1, e] */
LUA_API int (lua_getglobal)(lua_State *L, const char *name);

/* Pops key k and pushes t[k], t being the value at [idx]; may call
 * __index. [-1, +1, e] */
LUA_API int (lua_gettable)(lua_State *L, int idx);

/* Pushes t[k] for the string [k]; may call __index. [-0, +1, e] */
LUA_API int (lua_getfield)(lua_State *L, int idx, const char *k);

/* Pushes t[n]; may call __index. [-0, +1, e] */
LUA_API int (lua_geti)(lua_State *L, int idx, lua_Integer n);

/* lua_gettable without metamethods; t must be a table. [-1, +1, -] */
LUA_API int (lua_rawget)(lua_State *L, int idx);

/* Pushes t[n] without metamethods; t must be a table. [-0, +1, -] */
LUA_API int (lua_rawgeti)(lua_State *L, int idx, lua_Integer n);

/* Pushes t[p], the key being the light userdata [p], without metamethods;
 * t must be a table. [-0, +1, -] */
LUA_API int (lua_rawgetp)(lua_State *L, int idx, const void *p);

/*
 * Pushes a new empty table, sized for [narr] sequence elements and [nrec]
 * other fields (hints only). [-0, +1, m]
 */
LUA_API void (lua_createtable)(lua_State *L, int narr, int nrec);

/*
 * Pushes a new full userdata with a block of [sz] raw bytes and [nuvalue]
 * user values (initially nil), and returns the block's address. In Tide
 * the block is allocated where objects never move: the address is valid
 * while the userdata is alive and, if it is marked for finalization, until
 * its finalizer has run. The block is not initialized. [-0, +1, m]
 */
LUA_API void *(lua_newuserdatauv)(lua_State *L, size_t sz, int nuvalue);

/* If the value at [objindex] has a metatable, pushes it and returns 1;
 * otherwise pushes nothing and returns 0. [-0, +(0|1), -] */
LUA_API int (lua_getmetatable)(lua_State *L, int objindex);

/*
 * Pushes the [n]-th user value of the full userdata at [idx] and returns
 * its type; if the userdata has no such value, pushes nil and returns
 * LUA_TNONE. [-0, +1, -]
 */
LUA_API int (lua_getiuservalue)(lua_State *L, int idx, int n);

/*=========================================================================
 * Setting values in tables and objects (stack -> Lua)
 */

/* Pops a value and makes it global [name]. [-1, +0, e] */
LUA_API void (lua_setglobal)(lua_State *L, const char *name);

/* t[k] = v, with v on the top and k just below it; pops both. May call
 * __newindex. [-2, +0, e] */
LUA_API void (lua_settable)(lua_State *L, int idx);

/* t[k] = v for the string [k], v on the top; pops v. May call
 * __newindex. [-1, +0, e] */
LUA_API void (lua_setfield)(lua_State *L, int idx, const char *k);

/* t[n] = v, v on the top; pops v. May call __newindex. [-1, +0, e] */
LUA_API void (lua_seti)(lua_State *L, int idx, lua_Integer n);

/* lua_settable without metamethods; t must be a table. [-2, +0, m] */
LUA_API void (lua_rawset)(lua_State *L, int idx);

/* t[n] = v without metamethods; pops v. [-1, +0, m] */
LUA_API void (lua_rawseti)(lua_State *L, int idx, lua_Integer n);

/* t[p] = v, the key being the light userdata [p], without metamethods;
 * pops v. [-1, +0, m] */
LUA_API void (lua_rawsetp)(lua_State *L, int idx, const void *p);

/*
 * Pops a table (or nil, meaning none) and makes it the metatable of the
 * value at [objindex]. Always returns 1. Setting a metatable with __gc
 * marks a table or userdata for finalization, as in Lua. [-1, +0, -]
 */
LUA_API int (lua_setmetatable)(lua_State *L, int objindex);

/* Pops a value and makes it the [n]-th user value of the full userdata at
 * [idx]; returns 0 if the userdata has no such value. [-1, +0, -] */
LUA_API int (lua_setiuservalue)(lua_State *L, int idx, int n);

/*=========================================================================
 * Loading and calling
 */

/*
 * Calls a value: push it, then its [nargs] arguments in order, then call.
 * The value and arguments are popped and the results pushed, adjusted to
 * [nresults] unless that is LUA_MULTRET (all results; Lua makes room for
 * them but no more). Errors propagate (longjmp). If the call yields, the
 * continuation [k] is called with [ctx] when the coroutine resumes; with
 * [k] NULL, yielding across this call is an error. [-(nargs+1), +nresults, e]
 */
LUA_API void (lua_callk)(lua_State *L, int nargs, int nresults,
                         lua_KContext ctx, lua_KFunction k);
#define lua_call(L, n, r) lua_callk(L, (n), (r), 0, NULL)

/*
 * Like lua_callk, in protected mode: on an error, pushes the error object
 * (after passing it through the message handler at stack index [errfunc],
 * unless [errfunc] is 0) and returns LUA_ERRRUN, LUA_ERRMEM or LUA_ERRERR;
 * otherwise LUA_OK. The function and arguments are popped either way.
 * [errfunc] is a real stack index, not a pseudo-index. The continuation
 * [k], if given, also receives errors after a yield.
 * [-(nargs+1), +(nresults|1), -]
 */
LUA_API int (lua_pcallk)(lua_State *L, int nargs, int nresults, int errfunc,
                         lua_KContext ctx, lua_KFunction k);
#define lua_pcall(L, n, r, f) lua_pcallk(L, (n), (r), (f), 0, NULL)

/*
 * Compiles a chunk read through [reader] (called with [data]) and pushes
 * it as a function, or pushes an error message. [chunkname] names the
 * chunk in messages and debug information; [mode] is "t" (text only), "b"
 * (binary only), "bt" or NULL (either). The function's first upvalue, if
 * any, is set to the global environment. Returns LUA_OK, LUA_ERRSYNTAX,
 * LUA_ERRMEM, or the status of an error the reader raised. [-0, +1, -]
 */
LUA_API int (lua_load)(lua_State *L, lua_Reader reader, void *data,
                       const char *chunkname, const char *mode);

/*
 * Writes the Lua function on the top as a binary chunk through [writer]
 * (called with [data]); drops debug information if [strip]. The function
 * stays on the stack. Returns the writer's last result (0: no error).
 * [-0, +0, -]
 */
LUA_API int (lua_dump)(lua_State *L, lua_Writer writer, void *data, int strip);

/*=========================================================================
 * Coroutines
 */

/*
 * Yields the running coroutine, handing the top [nresults] values to the
 * lua_resume that runs it. When resumed, continuation [k] runs with [ctx]
 * and finds the values passed to lua_resume in place of the yielded ones;
 * with [k] NULL the coroutine goes back to the caller of the C function
 * that yielded, so call it as "return lua_yield(...)". Inside a line or
 * count hook, yield with no values and no continuation and return at once.
 * Raises an error if the thread cannot yield (the main thread, or a C call
 * without continuation in between). [-?, +?, v]
 */
LUA_API int (lua_yieldk)(lua_State *L, int nresults, lua_KContext ctx,
                         lua_KFunction k);
#define lua_yield(L, n) lua_yieldk(L, (n), 0, NULL)

/*
 * Starts or resumes coroutine [L]. To start it, push the body function and
 * its [narg] arguments onto its empty stack; to resume it, pop the values
 * it yielded and push the [narg] values yield should return. [from] is the
 * coroutine doing the resuming, or NULL. Returns LUA_YIELD, LUA_OK when the
 * body returned, or an error status with the error object on the top; on
 * LUA_YIELD and LUA_OK, *[nres] values are on the top of [L]. [-?, +?, -]
 */
LUA_API int (lua_resume)(lua_State *L, lua_State *from, int narg, int *nres);

/* LUA_OK for a thread that can run (or is running), LUA_YIELD for a
 * suspended one, an error status for one that died with an error.
 * [-0, +0, -] */
LUA_API int (lua_status)(lua_State *L);

/* 1 if the running coroutine [L] can yield. [-0, +0, -] */
LUA_API int (lua_isyieldable)(lua_State *L);

/*=========================================================================
 * Warnings
 */

/* Sets the warning function and its [ud]; NULL turns warnings off.
 * [-0, +0, -] */
LUA_API void (lua_setwarnf)(lua_State *L, lua_WarnFunction f, void *ud);

/* Emits a warning; with [tocont] true, the next call continues it.
 * [-0, +0, -] */
LUA_API void (lua_warning)(lua_State *L, const char *msg, int tocont);

/*=========================================================================
 * The garbage collector
 *
 * Tide's collector is generational and concurrent whatever mode a program
 * asks for; lua_gc keeps the meaning of each option so that programs
 * written for stock Lua run unchanged, and tide.h offers the controls that
 * are specific to Tide.
 */

#define LUA_GCSTOP 0       /* stop automatic collection */
#define LUA_GCRESTART 1    /* restart automatic collection */
#define LUA_GCCOLLECT 2    /* a full collection */
#define LUA_GCCOUNT 3      /* memory in use, in KiB */
#define LUA_GCCOUNTB 4     /* memory in use, remainder of the KiB count in bytes */
#define LUA_GCSTEP 5       /* (int stepsize) a step of collection work */
#define LUA_GCSETPAUSE 6   /* (int pause) deprecated; accepted, advisory */
#define LUA_GCSETSTEPMUL 7 /* (int stepmul) deprecated; accepted, advisory */
#define LUA_GCISRUNNING 9  /* whether automatic collection is on */
#define LUA_GCGEN 10       /* (int minormul, int majormul) generational mode */
#define LUA_GCINC 11       /* (int pause, int stepmul, int stepsize) incremental mode */

/*
 * Controls the collector; extra int arguments follow [what] as listed
 * above. Returns:
 *   LUA_GCCOUNT, LUA_GCCOUNTB: bytes in use (all memory of the state)
 *     divided by 1024, and that division's remainder;
 *   LUA_GCSTEP: 1 if the step finished a major cycle;
 *   LUA_GCISRUNNING: 1 unless stopped;
 *   LUA_GCGEN, LUA_GCINC: the mode asked for before (LUA_GCGEN until a
 *     program asks otherwise); the parameters are advisory in Tide;
 *   LUA_GCSETPAUSE, LUA_GCSETSTEPMUL: the previous value;
 *   others: 0.
 * In Tide, LUA_GCCOLLECT is a synchronous major collection unless
 * low-latency mode is on (tide.h), in which case it starts a concurrent
 * cycle and returns without waiting. LUA_GCSTEP does a bounded amount of
 * work. Must not be called from a finalizer. [-0, +0, -]
 */
LUA_API int (lua_gc)(lua_State *L, int what, ...);

/*=========================================================================
 * Miscellaneous
 */

/* Raises an error with the value on the top as the error object. Never
 * returns (the int is for "return lua_error(L);"). [-1, +0, v] */
LUA_API int (lua_error)(lua_State *L);

/*
 * Table traversal: pops a key and pushes the next key and its value from
 * the table at [idx], returning 1; returns 0, pushing nothing, after the
 * last one. Start with nil. Do not lua_tolstring a key that may not be a
 * string, and do not add fields during the traversal. Raises an error if
 * the key is neither nil nor in the table. [-1, +(2|0), v]
 */
LUA_API int (lua_next)(lua_State *L, int idx);

/* Pops [n] values and pushes their concatenation, with Lua's rules and
 * metamethods; [n] 1 leaves the value, [n] 0 pushes "". [-n, +1, e] */
LUA_API void (lua_concat)(lua_State *L, int n);

/* Pushes the length of the value at [idx], as the # operator (may call
 * __len). [-0, +1, e] */
LUA_API void (lua_len)(lua_State *L, int idx);

/*
 * Converts the '\0'-terminated numeral [s] (Lua's syntax, surrounding
 * spaces and a sign allowed) to an integer or a float, pushes it, and
 * returns strlen(s) + 1; returns 0 and pushes nothing if [s] is not a
 * numeral. [-0, +(1|0), -]
 */
LUA_API size_t (lua_stringtonumber)(lua_State *L, const char *s);

/* The state's allocator; stores its [ud] in *[ud] if [ud] is not NULL.
 * [-0, +0, -] */
LUA_API lua_Alloc (lua_getallocf)(lua_State *L, void **ud);

/* Replaces the state's allocator. The new one must be able to free and
 * resize blocks the old one gave. [-0, +0, -] */
LUA_API void (lua_setallocf)(lua_State *L, lua_Alloc f, void *ud);

/*
 * Marks stack slot [idx] to be closed: when it goes out of scope — the
 * function returns, an error unwinds it, lua_settop or lua_pop removes it,
 * or lua_closeslot closes it — its value's __close metamethod runs. Mark
 * slots in increasing order and remove them only with lua_settop, lua_pop
 * or lua_closeslot. The value must have __close, or be nil or false.
 * [-0, +0, m]
 */
LUA_API void (lua_toclose)(lua_State *L, int idx);

/* Closes the slot at [idx], the last one still marked, and sets it to nil.
 * Its __close may not yield. [-0, +0, e] */
LUA_API void (lua_closeslot)(lua_State *L, int idx);

/* Kept from Lua 5.4.0, where it set the C-stack limit; deprecated. Tide
 * ignores [limit] and returns the limit in force. [-0, +0, -] */
LUA_API int (lua_setcstacklimit)(lua_State *L, unsigned int limit);

/*
 * A block of LUA_EXTRASPACE bytes that belongs to thread [L] and that Lua
 * never uses. A new thread's block starts as a copy of the main thread's.
 * The address is stable for the thread's life. (A function in Tide where
 * stock Lua has a macro; the call looks the same.) [-0, +0, -]
 */
LUA_API void *(lua_getextraspace)(lua_State *L);

/*=========================================================================
 * Convenience macros
 */

/* The value as a number or integer (0 when it does not convert). */
#define lua_tonumber(L, i) lua_tonumberx(L, (i), NULL)
#define lua_tointeger(L, i) lua_tointegerx(L, (i), NULL)

/* Pops [n] values. [-n, +0, e] (closing a to-be-closed slot runs code) */
#define lua_pop(L, n) lua_settop(L, -(n)-1)

/* Pushes a new empty table. [-0, +1, m] */
#define lua_newtable(L) lua_createtable(L, 0, 0)

/* Sets C function [f] as global [n]. [-0, +0, e] */
#define lua_register(L, n, f) (lua_pushcfunction(L, (f)), lua_setglobal(L, (n)))

/* Pushes a light C function. [-0, +1, -] */
#define lua_pushcfunction(L, f) lua_pushcclosure(L, (f), 0)

/* Type tests. [-0, +0, -] */
#define lua_isfunction(L, n) (lua_type(L, (n)) == LUA_TFUNCTION)
#define lua_istable(L, n) (lua_type(L, (n)) == LUA_TTABLE)
#define lua_islightuserdata(L, n) (lua_type(L, (n)) == LUA_TLIGHTUSERDATA)
#define lua_isnil(L, n) (lua_type(L, (n)) == LUA_TNIL)
#define lua_isboolean(L, n) (lua_type(L, (n)) == LUA_TBOOLEAN)
#define lua_isthread(L, n) (lua_type(L, (n)) == LUA_TTHREAD)
#define lua_isnone(L, n) (lua_type(L, (n)) == LUA_TNONE)
#define lua_isnoneornil(L, n) (lua_type(L, (n)) <= 0)

/* lua_pushstring for a string literal (the "" makes anything else a
 * compile error). [-0, +1, m] */
#define lua_pushliteral(L, s) lua_pushstring(L, "" s)

/* Pushes the global environment. [-0, +1, -] */
#define lua_pushglobaltable(L) ((void)lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS))

/* lua_tolstring without the length. [-0, +0, m] */
#define lua_tostring(L, i) lua_tolstring(L, (i), NULL)

/* Moves the top value to [idx], shifting up the values above it.
 * [-1, +1, -] */
#define lua_insert(L, idx) lua_rotate(L, (idx), 1)

/* Removes the value at [idx], shifting down the values above it.
 * [-1, +0, -] */
#define lua_remove(L, idx) (lua_rotate(L, (idx), -1), lua_pop(L, 1))

/* Moves the top value into [idx], replacing what was there, and pops it.
 * [-1, +0, -] */
#define lua_replace(L, idx) (lua_copy(L, -1, (idx)), lua_pop(L, 1))

/*=========================================================================
 * Compatibility with earlier 5.x code
 */

/* Lua 5.3's userdata had one user value; these are its names. */
#define lua_newuserdata(L, s) lua_newuserdatauv(L, (s), 1)
#define lua_getuservalue(L, idx) lua_getiuservalue(L, (idx), 1)
#define lua_setuservalue(L, idx) lua_setiuservalue(L, (idx), 1)

/* Lua 5.2's unsigned conversions (define LUA_COMPAT_5_3 or
 * LUA_COMPAT_APIINTCASTS to get them). */
#if defined(LUA_COMPAT_APIINTCASTS)
#define lua_pushunsigned(L, n) lua_pushinteger(L, (lua_Integer)(n))
#define lua_tounsignedx(L, i, is) ((lua_Unsigned)lua_tointegerx(L, (i), (is)))
#define lua_tounsigned(L, i) lua_tounsignedx(L, (i), NULL)
#endif

/*=========================================================================
 * The debug interface
 */

/* Hook events (lua_Debug.event). */
#define LUA_HOOKCALL 0
#define LUA_HOOKRET 1
#define LUA_HOOKLINE 2
#define LUA_HOOKCOUNT 3
#define LUA_HOOKTAILCALL 4 /* a call event for a tail call: no return event follows */

/* Hook masks for lua_sethook (a tail call is reported under LUA_MASKCALL). */
#define LUA_MASKCALL (1 << LUA_HOOKCALL)
#define LUA_MASKRET (1 << LUA_HOOKRET)
#define LUA_MASKLINE (1 << LUA_HOOKLINE)
#define LUA_MASKCOUNT (1 << LUA_HOOKCOUNT)

typedef struct lua_Debug lua_Debug;
struct tide_CallInfo; /* private to the runtime */

/*
 * A function activation or a function, described. lua_getstack fills only
 * the private part; lua_getinfo fills the fields whose letter (in
 * parentheses) is in its [what] string. Strings point into the state and
 * are valid while the described function is active (or on the stack).
 */
struct lua_Debug {
    int event;                  /* the hook event (LUA_HOOK*) when given to a hook */
    const char *name;           /* (n) a plausible name for the function, or NULL */
    const char *namewhat;       /* (n) "global", "local", "method", "field", "upvalue" or "" */
    const char *what;           /* (S) "Lua", "C" or "main" (a chunk's main function) */
    const char *source;         /* (S) the chunk's source: "@file", "=description" or the text */
    size_t srclen;              /* (S) strlen of source */
    int currentline;            /* (l) the line being run, or -1 */
    int linedefined;            /* (S) first line of the function's definition */
    int lastlinedefined;        /* (S) last line of the definition */
    unsigned char nups;         /* (u) number of upvalues */
    unsigned char nparams;      /* (u) number of fixed parameters (0 for C functions) */
    char isvararg;              /* (u) true if variadic (always for C functions) */
    char istailcall;            /* (t) true if this activation was a tail call */
    unsigned short ftransfer;   /* (r) stack index of the first value transferred */
    unsigned short ntransfer;   /* (r) number of values transferred (call or return hook) */
    char short_src[LUA_IDSIZE]; /* (S) a printable form of source, for messages */
    /* private: identifies the activation for lua_getinfo, lua_getlocal and
     * lua_setlocal; C code must not touch it. */
    struct tide_CallInfo *i_ci;
};

/* A hook function; [ar]->event tells which event fired (and, for line
 * events, currentline is set). A hook runs with hooks off and cannot have
 * continuations; only line and count hooks may yield, with
 * lua_yield(L, 0). */
typedef void (*lua_Hook)(lua_State *L, lua_Debug *ar);

/*
 * Fills [ar]'s private part for the activation [level] calls up the stack
 * (0 is the running function, tail calls not counted) and returns 1, or
 * returns 0 if the stack is not that deep. [-0, +0, -]
 */
LUA_API int (lua_getstack)(lua_State *L, int level, lua_Debug *ar);

/*
 * Describes an activation ([ar] from lua_getstack or a hook) or, if [what]
 * starts with '>', the function popped from the top. Each letter of [what]
 * fills fields or pushes a value: 'n' name/namewhat, 'S' source fields, 'l'
 * currentline, 't' istailcall, 'u' nups/nparams/isvararg, 'r'
 * ftransfer/ntransfer, 'f' pushes the function, 'L' pushes a table whose
 * keys are the lines with code (after the function, if 'f' too). Returns 0
 * for an unknown letter, having handled the others. [-(0|1), +(0|1|2), m]
 */
LUA_API int (lua_getinfo)(lua_State *L, const char *what, lua_Debug *ar);

/*
 * Pushes the value of local [n] (1-based; negative for varargs) of
 * activation [ar] and returns its name; with [ar] NULL, returns the name of
 * parameter [n] of the Lua function on the top, pushing nothing. Returns
 * NULL and pushes nothing if there is no such local. [-0, +(0|1), -]
 */
LUA_API const char *(lua_getlocal)(lua_State *L, const lua_Debug *ar, int n);

/* Pops a value into local [n] of activation [ar] and returns the local's
 * name, or returns NULL (popping nothing) if there is none. [-(0|1), +0, -] */
LUA_API const char *(lua_setlocal)(lua_State *L, const lua_Debug *ar, int n);

/*
 * Pushes upvalue [n] of the function at [funcindex] and returns its name
 * ("" for C functions, "(no name)" for Lua functions stripped of debug
 * information, as Lua 5.4 does), or returns NULL and
 * pushes nothing if there is no such upvalue. [-0, +(0|1), -]
 */
LUA_API const char *(lua_getupvalue)(lua_State *L, int funcindex, int n);

/* Pops a value into upvalue [n] of the function at [funcindex] and returns
 * its name, or returns NULL (popping nothing) if there is none.
 * [-(0|1), +0, -] */
LUA_API const char *(lua_setupvalue)(lua_State *L, int funcindex, int n);

/*
 * An identifier for upvalue [n] of the closure at [fidx]: closures sharing
 * an upvalue give the same identifier. Stable while the upvalue lives; not
 * an address to dereference. [-0, +0, -]
 */
LUA_API void *(lua_upvalueid)(lua_State *L, int fidx, int n);

/* Makes upvalue [n1] of the Lua closure at [fidx1] refer to upvalue [n2]
 * of the Lua closure at [fidx2]. [-0, +0, -] */
LUA_API void (lua_upvaluejoin)(lua_State *L, int fidx1, int n1, int fidx2, int n2);

/*
 * Sets the debug hook: [func] is called for the events in [mask] (an OR of
 * LUA_MASK*), the count event every [count] instructions. [mask] 0 turns
 * hooks off. The hook applies to thread [L]. [-0, +0, -]
 */
LUA_API void (lua_sethook)(lua_State *L, lua_Hook func, int mask, int count);

/* The current hook, mask and count. [-0, +0, -] */
LUA_API lua_Hook (lua_gethook)(lua_State *L);
LUA_API int (lua_gethookmask)(lua_State *L);
LUA_API int (lua_gethookcount)(lua_State *L);

#ifdef __cplusplus
}
#endif

#endif
