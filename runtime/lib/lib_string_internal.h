/*
 * lib_string_internal.h — what the string library's files share.
 *
 * The string library (manual §6.4) is split by job: lib_string.c opens it
 * and holds the simple functions and the string metatable,
 * lib_string_format.c holds string.format, lib_string_pattern.c the pattern
 * matcher and the functions built on it, lib_string_pack.c the binary
 * packing functions. Each file exports its Lua functions to lib_string.c's
 * registration table through the declarations below; nothing here is
 * visible to Lua code or to other libraries.
 */
#ifndef TIDE_LIB_STRING_INTERNAL_H
#define TIDE_LIB_STRING_INTERNAL_H

#include <limits.h>
#include <stddef.h>

#include "lauxlib.h"
#include "lua.h"

/* The longest string the library builds on purpose (string.rep,
 * string.packsize). The reference implementation caps these at INT_MAX
 * bytes, and the error messages at that boundary are part of the
 * behaviour the tests check. */
#define STRLIB_MAX_RESULT ((size_t)INT_MAX)

/* A 1-based start position as the manual reads it (string.sub's i,
 * string.find's init, ...): negative counts from the end, and anything
 * before the first character means the first character. The result is at
 * least 1 and may lie beyond [len]; callers check that. */
static inline size_t strlib_start_position(lua_Integer pos, size_t len)
{
    if (pos > 0) return (size_t)pos;
    if (pos == 0) return 1;
    if (pos < -(lua_Integer)len) return 1;
    return len + (size_t)pos + 1;
}

/* A 1-based end position (string.sub's j): negative counts from the end,
 * and the result is clamped to [0, len]. */
static inline size_t strlib_end_position(lua_Integer pos, size_t len)
{
    if (pos > (lua_Integer)len) return len;
    if (pos >= 0) return (size_t)pos;
    if (pos < -(lua_Integer)len) return 0;
    return len + (size_t)pos + 1;
}

/* lib_string_format.c */
int strlib_format(lua_State *L);

/* lib_string_pattern.c */
int strlib_find(lua_State *L);
int strlib_match(lua_State *L);
int strlib_gmatch(lua_State *L);
int strlib_gsub(lua_State *L);

/* lib_string_pack.c */
int strlib_pack(lua_State *L);
int strlib_packsize(lua_State *L);
int strlib_unpack(lua_State *L);

#endif
