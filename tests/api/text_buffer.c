/*
 * text_buffer.c — API test module: building strings in C, the way string
 * and serialization libraries do. Paired with text_buffer.lua.
 *
 * Exercises: every luaL_Buffer operation (luaL_buffinit, luaL_addchar,
 * luaL_addlstring, luaL_addstring, luaL_addvalue, luaL_addgsub,
 * luaL_prepbuffsize/luaL_prepbuffer + luaL_addsize, luaL_buffsub,
 * luaL_buffaddr, luaL_bufflen, luaL_buffinitsize + luaL_pushresultsize,
 * luaL_pushresult), a buffer that outgrows its inline space while the
 * collector runs, luaL_gsub, luaL_tolstring with __tostring and __name,
 * lua_pushfstring's conversions and lua_pushvfstring, lua_concat,
 * lua_stringtonumber, lua_tolstring's in-place conversion of numbers,
 * lua_dump into a buffer and lua_load from a reader, luaL_loadbufferx's
 * modes, luaL_where, luaL_newlib.
 *
 * Written against lua.h and lauxlib.h only.
 */
#include <stdarg.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"

/* text.join(t, [sep]): the strings and numbers t[1..#t], separated. */
static int l_join(lua_State *L)
{
    size_t sep_len;
    luaL_checktype(L, 1, LUA_TTABLE);
    const char *sep = luaL_optlstring(L, 2, "", &sep_len);
    lua_Integer n = luaL_len(L, 1);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, 1, i);
        if (!lua_isstring(L, -1))
            return luaL_error(L, "invalid value (a %s) at index %I in table for 'join'",
                              luaL_typename(L, -1), i);
        luaL_addvalue(&b);
        if (i < n) luaL_addlstring(&b, sep, sep_len);
    }
    luaL_pushresult(&b);
    return 1;
}

/* text.rep(s, n): s repeated n times, written into a buffer sized in
 * advance. */
static int l_rep(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    lua_Integer n = luaL_checkinteger(L, 2);
    if (n <= 0 || len == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    luaL_argcheck(L, (lua_Unsigned)n <= ((size_t)-1 >> 1) / len, 2, "resulting string too large");
    size_t total = len * (size_t)n;
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, total);
    for (lua_Integer i = 0; i < n; i++) memcpy(p + (size_t)i * len, s, len);
    luaL_pushresultsize(&b, total);
    return 1;
}

/* text.hex(s, [case]): the bytes of s in hexadecimal; case is "lower"
 * (the default) or "upper". Written through luaL_prepbuffsize. */
static int l_hex(lua_State *L)
{
    static const char *const cases[] = { "lower", "upper", NULL };
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    const char *digits = luaL_checkoption(L, 2, "lower", cases) == 0 ? "0123456789abcdef"
                                                                      : "0123456789ABCDEF";
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (size_t i = 0; i < len; i++) {
        char *p = luaL_prepbuffsize(&b, 2);
        p[0] = digits[(unsigned char)s[i] >> 4];
        p[1] = digits[(unsigned char)s[i] & 15];
        luaL_addsize(&b, 2);
    }
    luaL_pushresult(&b);
    return 1;
}

/* text.escape(s): s with &, < and > as HTML entities, through luaL_gsub
 * (which pushes) and luaL_addgsub (which adds to a buffer). */
static int l_escape(lua_State *L)
{
    const char *s = luaL_checkstring(L, 1);
    const char *amp = luaL_gsub(L, s, "&", "&amp;");
    const char *lt = luaL_gsub(L, amp, "<", "&lt;");
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addgsub(&b, lt, ">", "&gt;");
    luaL_pushresult(&b);
    return 1;
}

/* text.chop(s, n): s without its last n bytes, through luaL_buffsub; also
 * returns what luaL_bufflen and luaL_buffaddr saw before the chop. */
static int l_chop(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_argcheck(L, 0 <= n && (lua_Unsigned)n <= len, 2, "out of range");
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addlstring(&b, s, len);
    size_t seen_len = luaL_bufflen(&b);
    int seen_same = memcmp(luaL_buffaddr(&b), s, len) == 0;
    luaL_buffsub(&b, (int)n);
    luaL_pushresult(&b);
    lua_pushinteger(L, (lua_Integer)seen_len);
    lua_pushboolean(L, seen_same);
    return 3;
}

/* text.describe(...): every argument through luaL_tolstring, joined by
 * commas with luaL_addchar. */
static int l_describe(lua_State *L)
{
    int n = lua_gettop(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; i++) {
        if (i > 1) luaL_addchar(&b, ',');
        luaL_tolstring(L, i, NULL);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    return 1;
}

/* lua_pushvfstring behind a variadic function, as libraries wrap it. */
static const char *push_formatted(lua_State *L, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    const char *s = lua_pushvfstring(L, fmt, args);
    va_end(args);
    return s;
}

/* text.formats(): one string using every lua_pushfstring conversion, and
 * the same through lua_pushvfstring. */
static int l_formats(lua_State *L)
{
    lua_pushfstring(L, "%d|%s|%f|%I|%c|%U|%%|%s", -42, "str", (lua_Number)1.5,
                    (lua_Integer)LUA_MININTEGER, 'A', (long)0x20AC, "end");
    push_formatted(L, "%d+%d=%s", 2, 2, "4");
    void *p = lua_newuserdatauv(L, 1, 0);
    lua_pushboolean(L, strcmp(lua_pushfstring(L, "%p", p), "") != 0);
    lua_remove(L, -2);
    lua_remove(L, -2);
    return 3;
}

/* text.concat(...): lua_concat of all arguments (numbers become strings,
 * __concat applies; no arguments give ""). */
static int l_concat(lua_State *L)
{
    lua_concat(L, lua_gettop(L));
    return 1;
}

/* text.tonumber(s): lua_stringtonumber's value and size, or fail. */
static int l_tonumber(lua_State *L)
{
    const char *s = luaL_checkstring(L, 1);
    size_t size = lua_stringtonumber(L, s);
    if (size == 0) {
        luaL_pushfail(L);
        return 1;
    }
    lua_pushinteger(L, (lua_Integer)size);
    return 2;
}

/* text.inplace(x): lua_tolstring converts a number in its slot; returns the
 * slot's type before and after, and the string. */
static int l_inplace(lua_State *L)
{
    luaL_checkany(L, 1);
    lua_settop(L, 1);
    const char *before = luaL_typename(L, 1);
    size_t len = 0;
    const char *s = lua_tolstring(L, 1, &len);
    lua_pushstring(L, before);
    lua_pushstring(L, luaL_typename(L, 1));
    lua_pushlstring(L, s ? s : "(null)", s ? len : 6);
    return 3;
}

/* text.big(n): a string of n bytes "0123456789012...", built one
 * luaL_addchar at a time while garbage is made and full collections run,
 * so that the buffer outgrows its inline space and its storage must stay
 * put across collections. Returns the length and whether the content is
 * right. */
static int l_big(lua_State *L)
{
    lua_Integer n = luaL_checkinteger(L, 1);
    luaL_argcheck(L, n >= 0, 1, "negative size");
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (lua_Integer i = 0; i < n; i++) {
        luaL_addchar(&b, (char)('0' + i % 10));
        if (i % 4096 == 0) {
            /* balanced stack use between buffer operations */
            lua_createtable(L, 8, 8);
            lua_pushfstring(L, "garbage %I", i);
            lua_setfield(L, -2, "x");
            lua_pop(L, 1);
        }
        if (i % 65536 == 0) lua_gc(L, LUA_GCCOLLECT);
    }
    luaL_pushresult(&b);
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    int right = len == (size_t)n;
    for (size_t i = 0; right && i < len; i++) right = s[i] == (char)('0' + i % 10);
    lua_pushinteger(L, (lua_Integer)len);
    lua_pushboolean(L, right);
    return 2;
}

/* lua_dump's writer: appends to a luaL_Buffer. The buffer is initialized
 * on the first call, not before lua_dump: luaL_buffinit may push a value,
 * and lua_dump dumps the function on the top of the stack. */
typedef struct DumpState {
    int started;
    luaL_Buffer b;
} DumpState;

static int buffer_writer(lua_State *L, const void *p, size_t size, void *ud)
{
    DumpState *state = (DumpState *)ud;
    if (!state->started) {
        state->started = 1;
        luaL_buffinit(L, &state->b);
    }
    luaL_addlstring(&state->b, (const char *)p, size);
    return 0;
}

/* text.dump(f, [strip]): f as a binary chunk. */
static int l_dump(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    int strip = lua_toboolean(L, 2);
    lua_settop(L, 1);
    DumpState state;
    state.started = 0;
    if (lua_dump(L, buffer_writer, &state, strip) != 0 || !state.started)
        return luaL_error(L, "unable to dump given function");
    luaL_pushresult(&state.b);
    return 1;
}

/* A lua_Reader handing out a string in pieces of at most 3 bytes. */
typedef struct Pieces {
    const char *s;
    size_t left;
} Pieces;

static const char *pieces_reader(lua_State *L, void *data, size_t *size)
{
    (void)L;
    Pieces *pieces = (Pieces *)data;
    if (pieces->left == 0) return NULL;
    *size = pieces->left < 3 ? pieces->left : 3;
    const char *piece = pieces->s;
    pieces->s += *size;
    pieces->left -= *size;
    return piece;
}

/* text.load(chunk, [name], [mode]): lua_load through a reader, 3 bytes at a
 * time; the function, or fail and the message and the status. */
static int l_load(lua_State *L)
{
    Pieces pieces;
    pieces.s = luaL_checklstring(L, 1, &pieces.left);
    const char *name = luaL_optstring(L, 2, "=text.load");
    const char *mode = luaL_optstring(L, 3, NULL);
    int status = lua_load(L, pieces_reader, &pieces, name, mode);
    if (status == LUA_OK) return 1;
    luaL_pushfail(L);
    lua_insert(L, -2);
    lua_pushinteger(L, status);
    return 3;
}

/* text.loadbuffer(chunk, mode): luaL_loadbufferx's status. */
static int l_loadbuffer(lua_State *L)
{
    size_t len;
    const char *chunk = luaL_checklstring(L, 1, &len);
    const char *mode = luaL_checkstring(L, 2);
    lua_pushinteger(L, luaL_loadbufferx(L, chunk, len, "=buffer", mode));
    return 1;
}

/* text.where(level): luaL_where's text. */
static int l_where(lua_State *L)
{
    luaL_where(L, (int)luaL_checkinteger(L, 1));
    return 1;
}

static const luaL_Reg text_functions[] = {
    { "join", l_join }, { "rep", l_rep }, { "hex", l_hex }, { "escape", l_escape },
    { "chop", l_chop }, { "describe", l_describe }, { "formats", l_formats },
    { "concat", l_concat }, { "tonumber", l_tonumber }, { "inplace", l_inplace },
    { "big", l_big }, { "dump", l_dump }, { "load", l_load },
    { "loadbuffer", l_loadbuffer }, { "where", l_where },
    { NULL, NULL },
};

int luaopen_text_buffer(lua_State *L);

int luaopen_text_buffer(lua_State *L)
{
    luaL_newlib(L, text_functions);
    return 1;
}
