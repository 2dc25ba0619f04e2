/*
 * lib_utf8.c — the utf8 library (manual §6.5): char, charpattern, codes,
 * codepoint, len, offset.
 *
 * Strict functions accept the Unicode range (up to U+10FFFF, no
 * surrogates); with 'lax' they accept Lua 5.4's extended encoding of any
 * value up to 2^31 - 1, in sequences of up to six bytes. Overlong
 * encodings are rejected either way. Positions are byte positions, 1-based,
 * negative ones counting from the end.
 */
#include <limits.h>
#include <stdint.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

#define MAX_UNICODE 0x10FFFFu
#define MAX_EXTENDED 0x7FFFFFFFu
#define INVALID_CODE_MESSAGE "invalid UTF-8 code"

/* A pattern matching exactly one encoded character (with its embedded
 * zero byte, hence the explicit length). */
static const char CHAR_PATTERN[] = "[\0-\x7F\xC2-\xFD][\x80-\xBF]*";

typedef uint32_t CodePoint;

static int is_continuation(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

/* A negative position counts back from the end; too far back gives 0. */
static lua_Integer absolute_position(lua_Integer pos, size_t len)
{
    if (pos >= 0) return pos;
    if (0u - (size_t)pos > len) return 0;
    return (lua_Integer)len + pos + 1;
}

/*
 * Decodes the character at [s] (the string is '\0'-terminated, which stops
 * any run of continuation bytes). Returns the byte after it and stores the
 * code in [code], or returns NULL for an invalid or overlong sequence, or,
 * when [strict], a code outside Unicode or a surrogate.
 */
static const unsigned char *decode(const unsigned char *s, CodePoint *code, int strict)
{
    /* the smallest code that needs 1 + n bytes, which rejects overlong forms */
    static const CodePoint smallest[] = { 0, 0x80, 0x800, 0x10000, 0x200000, 0x4000000 };
    unsigned char first = s[0];
    CodePoint value;
    if (first < 0x80) {
        value = first;
    } else {
        int extra = 0;                         /* continuation bytes to follow */
        while (extra < 7 && (first & (0x40 >> extra))) extra++;
        if (extra == 0 || extra > 5) return NULL;  /* lone continuation, 0xFE, 0xFF */
        value = first & (0x3Fu >> extra);
        for (int i = 1; i <= extra; i++) {
            if (!is_continuation(s[i])) return NULL;
            value = (value << 6) | (s[i] & 0x3Fu);
        }
        if (value < smallest[extra]) return NULL;
        s += extra;
    }
    if (strict && (value > MAX_UNICODE || (0xD800u <= value && value <= 0xDFFFu)))
        return NULL;
    if (code != NULL) *code = value;
    return s + 1;
}

/* Encodes [code] (at most MAX_EXTENDED) into [out]; returns the length. */
static int encode(CodePoint code, char out[6])
{
    if (code < 0x80) {
        out[0] = (char)code;
        return 1;
    }
    int n = 1;                                 /* bytes so far, last first */
    CodePoint first_byte_max = 0x3F;           /* payload the lead byte can still take */
    char tail[6];
    while (code > first_byte_max) {
        tail[6 - n] = (char)(0x80 | (code & 0x3F));
        code >>= 6;
        first_byte_max >>= 1;
        n++;
    }
    tail[6 - n] = (char)((~first_byte_max << 1) | code);  /* n leading ones */
    for (int i = 0; i < n; i++) out[i] = tail[6 - n + i];
    return n;
}

/*-------------------------------------------------------------------------
 * The functions
 */

static int utf8_len(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    lua_Integer i = absolute_position(luaL_optinteger(L, 2, 1), len);
    lua_Integer j = absolute_position(luaL_optinteger(L, 3, -1), len);
    int lax = lua_toboolean(L, 4);
    luaL_argcheck(L, 1 <= i && --i <= (lua_Integer)len, 2, "initial position out of bounds");
    luaL_argcheck(L, --j < (lua_Integer)len, 3, "final position out of bounds");
    lua_Integer count = 0;
    while (i <= j) {                           /* 0-based from here */
        const unsigned char *next = decode((const unsigned char *)s + i, NULL, !lax);
        if (next == NULL) {
            luaL_pushfail(L);
            lua_pushinteger(L, i + 1);         /* where the bad sequence starts */
            return 2;
        }
        i = (lua_Integer)(next - (const unsigned char *)s);
        count++;
    }
    lua_pushinteger(L, count);
    return 1;
}

static int utf8_codepoint(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    lua_Integer i = absolute_position(luaL_optinteger(L, 2, 1), len);
    lua_Integer j = absolute_position(luaL_optinteger(L, 3, i), len);
    int lax = lua_toboolean(L, 4);
    luaL_argcheck(L, i >= 1, 2, "out of bounds");
    luaL_argcheck(L, j <= (lua_Integer)len, 3, "out of bounds");
    if (i > j) return 0;
    if (j - i >= INT_MAX) return luaL_error(L, "string slice too long");
    int most = (int)(j - i) + 1;               /* at most one code per byte */
    luaL_checkstack(L, most, "string slice too long");
    const unsigned char *p = (const unsigned char *)s + i - 1;
    const unsigned char *end = (const unsigned char *)s + j;
    int n = 0;
    while (p < end) {
        CodePoint code;
        p = decode(p, &code, !lax);
        if (p == NULL) return luaL_error(L, INVALID_CODE_MESSAGE);
        lua_pushinteger(L, code);
        n++;
    }
    return n;
}

/* Checks argument [arg] is a code point and returns it. */
static CodePoint check_code(lua_State *L, int arg)
{
    lua_Unsigned code = (lua_Unsigned)luaL_checkinteger(L, arg);
    luaL_argcheck(L, code <= MAX_EXTENDED, arg, "value out of range");
    return (CodePoint)code;
}

static int utf8_char(lua_State *L)
{
    int n = lua_gettop(L);
    char bytes[6];
    if (n == 1) {                              /* the common case, no buffer */
        lua_pushlstring(L, bytes, (size_t)encode(check_code(L, 1), bytes));
        return 1;
    }
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; i++)
        luaL_addlstring(&b, bytes, (size_t)encode(check_code(L, i), bytes));
    luaL_pushresult(&b);
    return 1;
}

/* utf8.offset(s, n, i): where the n-th character counted from the one at
 * byte i starts (n = 0: the start of the character holding byte i). */
static int utf8_offset(lua_State *L)
{
    size_t len;
    const unsigned char *s = (const unsigned char *)luaL_checklstring(L, 1, &len);
    lua_Integer n = luaL_checkinteger(L, 2);
    lua_Integer pos = n >= 0 ? 1 : (lua_Integer)len + 1;
    pos = absolute_position(luaL_optinteger(L, 3, pos), len);
    luaL_argcheck(L, 1 <= pos && --pos <= (lua_Integer)len, 3, "position out of bounds");
    if (n == 0) {
        while (pos > 0 && is_continuation(s[pos])) pos--;
    } else {
        if (is_continuation(s[pos]))
            return luaL_error(L, "initial position is a continuation byte");
        if (n < 0) {
            for (; n < 0 && pos > 0; n++) {    /* back to previous starts */
                do pos--;
                while (pos > 0 && is_continuation(s[pos]));
            }
        } else {
            for (n--; n > 0 && pos < (lua_Integer)len; n--) {  /* forward */
                do pos++;
                while (is_continuation(s[pos]));  /* the final '\0' stops it */
            }
        }
    }
    if (n == 0) lua_pushinteger(L, pos + 1);
    else luaL_pushfail(L);
    return 1;
}

/* The iterator of utf8.codes: its control value is the position of the
 * previous character (0 at first); it skips that character's remaining
 * bytes, and any stray continuation bytes, to the next one. */
static int next_code(lua_State *L, int strict)
{
    size_t len;
    const unsigned char *s = (const unsigned char *)luaL_checklstring(L, 1, &len);
    lua_Unsigned at = (lua_Unsigned)lua_tointeger(L, 2);
    while (at < len && is_continuation(s[at])) at++;
    if (at >= len) return 0;                   /* also a negative control value */
    CodePoint code;
    if (decode(s + at, &code, strict) == NULL) return luaL_error(L, INVALID_CODE_MESSAGE);
    lua_pushinteger(L, (lua_Integer)at + 1);
    lua_pushinteger(L, code);
    return 2;
}

static int next_code_strict(lua_State *L) { return next_code(L, 1); }
static int next_code_lax(lua_State *L) { return next_code(L, 0); }

static int utf8_codes(lua_State *L)
{
    int lax = lua_toboolean(L, 2);
    luaL_checkstring(L, 1);
    lua_pushcfunction(L, lax ? next_code_lax : next_code_strict);
    lua_pushvalue(L, 1);
    lua_pushinteger(L, 0);
    return 3;
}

static const luaL_Reg utf8_functions[] = {
    { "offset", utf8_offset },
    { "codepoint", utf8_codepoint },
    { "char", utf8_char },
    { "len", utf8_len },
    { "codes", utf8_codes },
    { "charpattern", NULL },                   /* set below */
    { NULL, NULL },
};

LUAMOD_API int luaopen_utf8(lua_State *L)
{
    luaL_newlib(L, utf8_functions);
    lua_pushlstring(L, CHAR_PATTERN, sizeof(CHAR_PATTERN) - 1);
    lua_setfield(L, -2, "charpattern");
    return 1;
}
