/*
 * conv.h — numbers and strings: conversions, arithmetic on raw numbers,
 * formatted messages, chunk ids (conv.c). Also the type-name table of
 * object.h.
 */
#ifndef TIDE_VM_CONV_H
#define TIDE_VM_CONV_H

#include <stdarg.h>
#include "state.h"

/* Rounding modes of float -> integer conversion. */
typedef enum { F2Ieq, F2Ifloor, F2Iceil } F2Imod;

/* Longest string a number converts to (for buffers). */
#define MAXNUMBER2STR 44

/* Convert the text [s] to a number in [o] as the lexer and tonumber read
 * it (decimal/hex integers and floats, hex floats, surrounding spaces);
 * returns strlen(s) + 1 on success, 0 when [s] is not a numeral.
 * An integer numeral that overflows becomes a float. */
TIDE_INTERNAL size_t conv_str2num(const char *s, TValue *o);
/* Write the number [obj] as tostring shows it ("%.14g", integers plain,
 * floats that look integral get ".0"); returns the length. */
TIDE_INTERNAL int conv_tostringbuff(const TValue *obj, char *buff);
/* Replace the number in stack slot [obj] by its string form. May collect. */
TIDE_INTERNAL void conv_tostring(lua_State *L, StkId obj);

/* Number coercions (strings convertible to numbers count, as the manual's
 * arithmetic rules say). Return 1 on success. */
TIDE_INTERNAL int conv_tonumber(const TValue *obj, lua_Number *n);
TIDE_INTERNAL int conv_tointeger(const TValue *obj, lua_Integer *p, F2Imod mode);
/* Integers and floats only, no strings. */
TIDE_INTERNAL int conv_tointegerns(const TValue *obj, lua_Integer *p, F2Imod mode);
TIDE_INTERNAL int conv_flttointns(lua_Number n, lua_Integer *p, F2Imod mode);

/* Integer operations with Lua's semantics (floor division and modulo toward
 * minus infinity; division by zero raises "attempt to divide by zero" /
 * "attempt to perform 'n%%0'"; shifts of 64 or more give 0). */
TIDE_INTERNAL lua_Integer conv_idiv(lua_State *L, lua_Integer m, lua_Integer n);
TIDE_INTERNAL lua_Integer conv_mod(lua_State *L, lua_Integer m, lua_Integer n);
TIDE_INTERNAL lua_Number conv_modf(lua_State *L, lua_Number m, lua_Number n);
TIDE_INTERNAL lua_Integer conv_shiftl(lua_Integer x, lua_Integer y);
#define conv_shiftr(x, y) conv_shiftl((x), -(lua_Integer)(y))

/* Raw arithmetic of lua_arith's operators (LUA_OPADD...) on numbers (or
 * strings coercible to them): 1 with the result in [res], 0 when the
 * operands do not allow it (then a metamethod decides). With L == NULL
 * (constant folding) it never raises: division by zero just returns 0. */
TIDE_INTERNAL int conv_rawarith(lua_State *L, int op, const TValue *p1, const TValue *p2, TValue *res);
/* lua_arith: raw arithmetic, else the metamethod, result into [res]. */
TIDE_INTERNAL void conv_arith(lua_State *L, int op, const TValue *p1, const TValue *p2, StkId res);

/* lua_pushvfstring: formats %% %s %f %I %p %d %c %U, pushes the result and
 * returns its contents. %p prints an object's identity (DESIGN §3). */
TIDE_INTERNAL const char *conv_pushvfstring(lua_State *L, const char *fmt, va_list argp);
TIDE_INTERNAL const char *conv_pushfstring(lua_State *L, const char *fmt, ...);
/* The short_src of lua_Debug: at most LUA_IDSIZE bytes with the NUL. */
TIDE_INTERNAL void conv_chunkid(char *out, const char *source, size_t srclen);
/* Encode code point [x] as UTF-8 backwards ending at buff[UTF8BUFFSZ-1];
 * returns the number of bytes. */
#define UTF8BUFFSZ 8
TIDE_INTERNAL int conv_utf8esc(char *buff, unsigned long x);
TIDE_INTERNAL int conv_ceillog2(unsigned int x);
TIDE_INTERNAL int conv_hexavalue(int c);

#endif
