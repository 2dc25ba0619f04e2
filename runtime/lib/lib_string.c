/*
 * lib_string.c — the string library (manual §6.4): luaopen_string, the
 * functions that work on one string at a time (byte, char, dump, len,
 * lower, upper, rep, reverse, sub) and the metatable every string shares.
 *
 * The metatable's __index is the string table, so s:upper() works, and its
 * arithmetic metamethods give the string-to-number coercion of §3.4.3:
 * "10" + 1 is 11 because the core finds __add here, not because it
 * converts strings itself.
 *
 * string.format, the pattern functions and string.pack live in their own
 * files (see lib_string_internal.h).
 */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "lib_string_internal.h"
#include "lualib.h"

static int str_len(lua_State *L)
{
    size_t len;
    luaL_checklstring(L, 1, &len);
    lua_pushinteger(L, (lua_Integer)len);
    return 1;
}

static int str_sub(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    size_t first = strlib_start_position(luaL_checkinteger(L, 2), len);
    size_t last = strlib_end_position(luaL_optinteger(L, 3, -1), len);
    if (first <= last)
        lua_pushlstring(L, s + first - 1, last - first + 1);
    else
        lua_pushliteral(L, "");
    return 1;
}

static int str_reverse(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    luaL_Buffer b;
    char *out = luaL_buffinitsize(L, &b, len);
    for (size_t i = 0; i < len; i++) out[i] = s[len - 1 - i];
    luaL_pushresultsize(&b, len);
    return 1;
}

/* lower and upper go through <ctype.h> so that os.setlocale affects them
 * as it does in the reference implementation. Two loops rather than one
 * taking a function pointer, so that the C library's inline versions
 * apply. */
static int str_lower(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    luaL_Buffer b;
    char *out = luaL_buffinitsize(L, &b, len);
    for (size_t i = 0; i < len; i++) out[i] = (char)tolower((unsigned char)s[i]);
    luaL_pushresultsize(&b, len);
    return 1;
}

static int str_upper(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    luaL_Buffer b;
    char *out = luaL_buffinitsize(L, &b, len);
    for (size_t i = 0; i < len; i++) out[i] = (char)toupper((unsigned char)s[i]);
    luaL_pushresultsize(&b, len);
    return 1;
}

/* Writes [s] ([sep] [s]) * (count - 1). After the first piece the text
 * repeats with a period of one separator and one piece, so it is written
 * once and then doubled: a few large copies instead of [count] small ones. */
static void fill_repetitions(char *out, const char *s, size_t len, const char *sep,
                             size_t seplen, size_t count)
{
    memcpy(out, s, len);
    if (count == 1) return;
    char *rest = out + len;
    size_t unit = seplen + len;
    size_t rest_len = unit * (count - 1);
    memcpy(rest, sep, seplen);
    memcpy(rest + seplen, s, len);
    for (size_t filled = unit; filled < rest_len;) {
        size_t n = (filled < rest_len - filled) ? filled : rest_len - filled;
        memcpy(rest + filled, rest, n);
        filled += n;
    }
}

static int str_rep(lua_State *L)
{
    size_t len, seplen;
    const char *s = luaL_checklstring(L, 1, &len);
    lua_Integer count = luaL_checkinteger(L, 2);
    const char *sep = luaL_optlstring(L, 3, "", &seplen);
    if (count <= 0 || len + seplen == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    /* The same bound the reference implementation checks: one piece and
     * one separator per repetition must fit. */
    if (len + seplen < len || len + seplen > STRLIB_MAX_RESULT / (lua_Unsigned)count)
        return luaL_error(L, "resulting string too large");
    size_t total = (size_t)count * len + (size_t)(count - 1) * seplen;
    luaL_Buffer b;
    char *out = luaL_buffinitsize(L, &b, total);
    fill_repetitions(out, s, len, sep, seplen, (size_t)count);
    luaL_pushresultsize(&b, total);
    return 1;
}

static int str_byte(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    lua_Integer raw_first = luaL_optinteger(L, 2, 1);
    /* j defaults to i as given, before i is adjusted: byte(s, 0) is empty. */
    size_t last = strlib_end_position(luaL_optinteger(L, 3, raw_first), len);
    size_t first = strlib_start_position(raw_first, len);
    if (first > last) return 0;
    if (last - first >= (size_t)INT_MAX) return luaL_error(L, "string slice too long");
    int count = (int)(last - first) + 1;
    luaL_checkstack(L, count, "string slice too long");
    for (int i = 0; i < count; i++) lua_pushinteger(L, (unsigned char)s[first - 1 + (size_t)i]);
    return count;
}

static int str_char(lua_State *L)
{
    int count = lua_gettop(L);
    luaL_Buffer b;
    char *out = luaL_buffinitsize(L, &b, (size_t)count);
    for (int i = 1; i <= count; i++) {
        lua_Unsigned code = (lua_Unsigned)luaL_checkinteger(L, i);
        luaL_argcheck(L, code <= UCHAR_MAX, i, "value out of range");
        out[i - 1] = (char)(unsigned char)code;
    }
    luaL_pushresultsize(&b, (size_t)count);
    return 1;
}

/* string.dump's writer collects the chunk in a buffer. The buffer starts on
 * the first write, not before lua_dump: lua_dump needs the function on top
 * of the stack, and starting a buffer may push onto it. */
typedef struct {
    luaL_Buffer buffer;
    bool started;
} DumpState;

static int dump_writer(lua_State *L, const void *bytes, size_t size, void *ud)
{
    DumpState *state = ud;
    if (!state->started) {
        luaL_buffinit(L, &state->buffer);
        state->started = true;
    }
    luaL_addlstring(&state->buffer, bytes, size);
    return 0;
}

static int str_dump(lua_State *L)
{
    bool strip = lua_toboolean(L, 2);
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_settop(L, 1);
    DumpState state;
    state.started = false;
    if (lua_dump(L, dump_writer, &state, strip) != 0)
        return luaL_error(L, "unable to dump given function");
    if (!state.started) luaL_buffinit(L, &state.buffer);
    luaL_pushresult(&state.buffer);
    return 1;
}

/* ---- Arithmetic on strings (§3.4.3) ---------------------------------- */

/* Pushes operand [idx] as a number when it is one or is a string that
 * converts completely (embedded zeros do not). */
static bool push_operand_as_number(lua_State *L, int idx)
{
    if (lua_type(L, idx) == LUA_TNUMBER) {
        lua_pushvalue(L, idx);
        return true;
    }
    size_t len;
    const char *s = lua_tolstring(L, idx, &len);
    return s != NULL && lua_stringtonumber(L, s) == len + 1;
}

/* Neither operand is a number: the other operand may still have a
 * metamethod for this event (the core asked the string's first). */
static int try_other_metamethod(lua_State *L, const char *event)
{
    lua_settop(L, 2);
    if (lua_type(L, 2) == LUA_TSTRING || luaL_getmetafield(L, 2, event) == LUA_TNIL)
        return luaL_error(L, "attempt to %s a '%s' with a '%s'", event + 2,
                          luaL_typename(L, -2), luaL_typename(L, -1));
    lua_insert(L, -3);
    lua_call(L, 2, 1);
    return 1;
}

static int string_arith(lua_State *L, int op, const char *event)
{
    if (push_operand_as_number(L, 1) && push_operand_as_number(L, 2)) {
        lua_arith(L, op);
        return 1;
    }
    return try_other_metamethod(L, event);
}

static int arith_add(lua_State *L) { return string_arith(L, LUA_OPADD, "__add"); }
static int arith_sub(lua_State *L) { return string_arith(L, LUA_OPSUB, "__sub"); }
static int arith_mul(lua_State *L) { return string_arith(L, LUA_OPMUL, "__mul"); }
static int arith_mod(lua_State *L) { return string_arith(L, LUA_OPMOD, "__mod"); }
static int arith_pow(lua_State *L) { return string_arith(L, LUA_OPPOW, "__pow"); }
static int arith_div(lua_State *L) { return string_arith(L, LUA_OPDIV, "__div"); }
static int arith_idiv(lua_State *L) { return string_arith(L, LUA_OPIDIV, "__idiv"); }
/* The core calls __unm with the operand twice, so both slots convert. */
static int arith_unm(lua_State *L) { return string_arith(L, LUA_OPUNM, "__unm"); }

static const luaL_Reg string_metamethods[] = {
    {"__add", arith_add}, {"__sub", arith_sub},   {"__mul", arith_mul},
    {"__mod", arith_mod}, {"__pow", arith_pow},   {"__div", arith_div},
    {"__idiv", arith_idiv}, {"__unm", arith_unm}, {"__index", NULL},
    {NULL, NULL},
};

static const luaL_Reg string_functions[] = {
    {"byte", str_byte},
    {"char", str_char},
    {"dump", str_dump},
    {"find", strlib_find},
    {"format", strlib_format},
    {"gmatch", strlib_gmatch},
    {"gsub", strlib_gsub},
    {"len", str_len},
    {"lower", str_lower},
    {"match", strlib_match},
    {"rep", str_rep},
    {"reverse", str_reverse},
    {"sub", str_sub},
    {"upper", str_upper},
    {"pack", strlib_pack},
    {"packsize", strlib_packsize},
    {"unpack", strlib_unpack},
    {NULL, NULL},
};

/* Expects the string table on top; leaves the stack as it found it. */
static void set_string_metatable(lua_State *L)
{
    luaL_newlibtable(L, string_metamethods);
    luaL_setfuncs(L, string_metamethods, 0);
    lua_pushvalue(L, -2);
    lua_setfield(L, -2, "__index");
    lua_pushliteral(L, "");
    lua_pushvalue(L, -2);
    lua_setmetatable(L, -2);
    lua_pop(L, 2);
}

LUAMOD_API int luaopen_string(lua_State *L)
{
    luaL_newlib(L, string_functions);
    set_string_metatable(L);
    return 1;
}
