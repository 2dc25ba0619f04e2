/*
 * lib_base.c — the basic library (manual §6.1): the global functions
 * (print, type, pairs, pcall, load, tonumber, ...), _G and _VERSION.
 *
 * Everything goes through the public API; collectgarbage passes its
 * options straight to lua_gc, so whatever collector the core has answers.
 */
#include <ctype.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

/*-------------------------------------------------------------------------
 * Output and warnings
 */

static int base_print(lua_State *L)
{
    int n = lua_gettop(L);
    for (int i = 1; i <= n; i++) {
        size_t len;
        const char *s = luaL_tolstring(L, i, &len);
        if (i > 1) lua_writestring("\t", 1);
        lua_writestring(s, len);
        lua_pop(L, 1);
    }
    lua_writeline();
    return 0;
}

static int base_warn(lua_State *L)
{
    int n = lua_gettop(L);
    luaL_checkstring(L, 1);                    /* at least one piece */
    for (int i = 2; i <= n; i++) luaL_checkstring(L, i);
    for (int i = 1; i < n; i++) lua_warning(L, lua_tostring(L, i), 1);
    lua_warning(L, lua_tostring(L, n), 0);
    return 0;
}

/*-------------------------------------------------------------------------
 * Numbers
 */

static int digit_value(int c)
{
    if (isdigit(c)) return c - '0';
    return toupper(c) - 'A' + 10;
}

/*
 * Reads an integer numeral in [base] (2..36) with optional surrounding
 * whitespace and sign. Returns the end of what it read, or NULL if [s]
 * does not start with such a numeral. Overflow wraps around.
 */
static const char *parse_integer_in_base(const char *s, int base, lua_Integer *out)
{
    lua_Unsigned value = 0;
    int negative = 0;
    s += strspn(s, " \f\n\r\t\v");
    if (*s == '-') {
        negative = 1;
        s++;
    } else if (*s == '+') {
        s++;
    }
    if (!isalnum((unsigned char)*s)) return NULL;
    do {
        int digit = digit_value((unsigned char)*s);
        if (digit >= base) return NULL;
        value = value * (lua_Unsigned)base + (lua_Unsigned)digit;
        s++;
    } while (isalnum((unsigned char)*s));
    s += strspn(s, " \f\n\r\t\v");
    *out = (lua_Integer)(negative ? 0u - value : value);
    return s;
}

static int base_tonumber(lua_State *L)
{
    if (lua_isnoneornil(L, 2)) {               /* the language's own conversion */
        if (lua_type(L, 1) == LUA_TNUMBER) {
            lua_settop(L, 1);
            return 1;
        }
        size_t len;
        const char *s = lua_tolstring(L, 1, &len);
        if (s != NULL && lua_stringtonumber(L, s) == len + 1) return 1;
        luaL_checkany(L, 1);
    } else {
        lua_Integer base = luaL_checkinteger(L, 2);
        luaL_checktype(L, 1, LUA_TSTRING);    /* numbers are not numerals here */
        size_t len;
        const char *s = lua_tolstring(L, 1, &len);
        luaL_argcheck(L, 2 <= base && base <= 36, 2, "base out of range");
        lua_Integer n;
        if (parse_integer_in_base(s, (int)base, &n) == s + len) {
            lua_pushinteger(L, n);
            return 1;
        }
    }
    luaL_pushfail(L);
    return 1;
}

/*-------------------------------------------------------------------------
 * Metatables and raw access
 */

static int base_getmetatable(lua_State *L)
{
    luaL_checkany(L, 1);
    if (!lua_getmetatable(L, 1)) {
        lua_pushnil(L);
        return 1;
    }
    luaL_getmetafield(L, 1, "__metatable");   /* a protected one answers this */
    return 1;
}

static int base_setmetatable(lua_State *L)
{
    int type = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, type == LUA_TNIL || type == LUA_TTABLE, 2, "nil or table");
    if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL)
        return luaL_error(L, "cannot change a protected metatable");
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 1;
}

static int base_rawequal(lua_State *L)
{
    luaL_checkany(L, 1);
    luaL_checkany(L, 2);
    lua_pushboolean(L, lua_rawequal(L, 1, 2));
    return 1;
}

static int base_rawlen(lua_State *L)
{
    int type = lua_type(L, 1);
    luaL_argexpected(L, type == LUA_TTABLE || type == LUA_TSTRING, 1, "table or string");
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, 1));
    return 1;
}

static int base_rawget(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    lua_settop(L, 2);
    lua_rawget(L, 1);
    return 1;
}

static int base_rawset(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 1;
}

/*-------------------------------------------------------------------------
 * The collector
 */

/* Pushes the mode a generational/incremental switch left, or fail. */
static int push_previous_mode(lua_State *L, int previous)
{
    if (previous == -1) luaL_pushfail(L);      /* called from a finalizer */
    else lua_pushstring(L, previous == LUA_GCINC ? "incremental" : "generational");
    return 1;
}

/* Pushes lua_gc's result [res] with [push], or fail if the collector
 * refused (-1: called from a finalizer). */
static int push_gc_result(lua_State *L, int res, void (*push)(lua_State *, int))
{
    if (res == -1) luaL_pushfail(L);
    else push(L, res);
    return 1;
}

static void push_int_result(lua_State *L, int res) { lua_pushinteger(L, res); }
static void push_bool_result(lua_State *L, int res) { lua_pushboolean(L, res); }

static int gc_count(lua_State *L)
{
    int kbytes = lua_gc(L, LUA_GCCOUNT);
    int bytes = lua_gc(L, LUA_GCCOUNTB);
    if (kbytes == -1) {
        luaL_pushfail(L);
        return 1;
    }
    lua_pushnumber(L, (lua_Number)kbytes + (lua_Number)bytes / 1024);
    return 1;
}

static int opt_int_arg(lua_State *L, int arg)
{
    return (int)luaL_optinteger(L, arg, 0);
}

static int base_collectgarbage(lua_State *L)
{
    static const char *const names[] = { "stop", "restart", "collect", "count", "step",
                                         "setpause", "setstepmul", "isrunning",
                                         "generational", "incremental", NULL };
    static const int codes[] = { LUA_GCSTOP, LUA_GCRESTART, LUA_GCCOLLECT, LUA_GCCOUNT,
                                 LUA_GCSTEP, LUA_GCSETPAUSE, LUA_GCSETSTEPMUL,
                                 LUA_GCISRUNNING, LUA_GCGEN, LUA_GCINC };
    int what = codes[luaL_checkoption(L, 1, "collect", names)];
    switch (what) {
    case LUA_GCCOUNT:
        return gc_count(L);
    case LUA_GCSTEP:
        return push_gc_result(L, lua_gc(L, what, opt_int_arg(L, 2)), push_bool_result);
    case LUA_GCSETPAUSE:
    case LUA_GCSETSTEPMUL:
        return push_gc_result(L, lua_gc(L, what, opt_int_arg(L, 2)), push_int_result);
    case LUA_GCISRUNNING:
        return push_gc_result(L, lua_gc(L, what), push_bool_result);
    case LUA_GCGEN: {
        int minor = opt_int_arg(L, 2), major = opt_int_arg(L, 3);
        return push_previous_mode(L, lua_gc(L, what, minor, major));
    }
    case LUA_GCINC: {
        int pause = opt_int_arg(L, 2), stepmul = opt_int_arg(L, 3);
        int stepsize = opt_int_arg(L, 4);
        return push_previous_mode(L, lua_gc(L, what, pause, stepmul, stepsize));
    }
    default:
        return push_gc_result(L, lua_gc(L, what), push_int_result);
    }
}

/*-------------------------------------------------------------------------
 * Errors and protected calls
 */

static int base_error(lua_State *L)
{
    int level = (int)luaL_optinteger(L, 2, 1);
    lua_settop(L, 1);
    if (lua_type(L, 1) == LUA_TSTRING && level > 0) {
        luaL_where(L, level);                  /* prefix the position */
        lua_pushvalue(L, 1);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

static int base_assert(lua_State *L)
{
    if (lua_toboolean(L, 1)) return lua_gettop(L);  /* all arguments */
    luaL_checkany(L, 1);
    lua_remove(L, 1);
    lua_pushliteral(L, "assertion failed!");
    lua_settop(L, 1);                          /* the message, or the default */
    return base_error(L);
}

/* Results of a finished pcall/xpcall: true and the results, or false and
 * the error object. [extra] slots below the results are not returned. */
static int finish_pcall(lua_State *L, int status, lua_KContext extra)
{
    if (status != LUA_OK && status != LUA_YIELD) {
        lua_pushboolean(L, 0);
        lua_pushvalue(L, -2);
        return 2;
    }
    return lua_gettop(L) - (int)extra;
}

static int base_pcall(lua_State *L)
{
    luaL_checkany(L, 1);
    lua_pushboolean(L, 1);                     /* first result on success */
    lua_insert(L, 1);
    int status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, finish_pcall);
    return finish_pcall(L, status, 0);
}

static int base_xpcall(lua_State *L)
{
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);       /* the message handler */
    lua_pushboolean(L, 1);
    lua_pushvalue(L, 1);
    lua_rotate(L, 3, 2);                       /* f, handler, true, f, args... */
    int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, finish_pcall);
    return finish_pcall(L, status, 2);
}

/*-------------------------------------------------------------------------
 * Loading code
 */

/* load's reader function keeps the piece it returned here, so the string
 * lives while the parser reads it. */
enum { READER_PIECE_SLOT = 5 };

/* Finishes load/loadfile: the function (with [env_index] as its first
 * upvalue, if given), or fail and the message. */
static int finish_load(lua_State *L, int status, int env_index)
{
    if (status != LUA_OK) {
        luaL_pushfail(L);
        lua_insert(L, -2);
        return 2;
    }
    if (env_index != 0) {
        lua_pushvalue(L, env_index);
        if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);  /* no upvalue to set */
    }
    return 1;
}

static const char *call_reader_function(lua_State *L, void *ud, size_t *size)
{
    (void)ud;
    luaL_checkstack(L, 2, "too many nested functions");
    lua_pushvalue(L, 1);
    lua_call(L, 0, 1);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        *size = 0;
        return NULL;
    }
    if (!lua_isstring(L, -1)) luaL_error(L, "reader function must return a string");
    lua_replace(L, READER_PIECE_SLOT);
    return lua_tolstring(L, READER_PIECE_SLOT, size);
}

static int base_load(lua_State *L)
{
    size_t len;
    const char *s = lua_tolstring(L, 1, &len);
    const char *mode = luaL_optstring(L, 3, "bt");
    int env_index = !lua_isnone(L, 4) ? 4 : 0;
    int status;
    if (s != NULL) {
        const char *chunkname = luaL_optstring(L, 2, s);
        status = luaL_loadbufferx(L, s, len, chunkname, mode);
    } else {
        const char *chunkname = luaL_optstring(L, 2, "=(load)");
        luaL_checktype(L, 1, LUA_TFUNCTION);
        lua_settop(L, READER_PIECE_SLOT);
        status = lua_load(L, call_reader_function, NULL, chunkname, mode);
    }
    return finish_load(L, status, env_index);
}

static int base_loadfile(lua_State *L)
{
    const char *filename = luaL_optstring(L, 1, NULL);
    const char *mode = luaL_optstring(L, 2, NULL);
    int env_index = !lua_isnone(L, 3) ? 3 : 0;
    int status = luaL_loadfilex(L, filename, mode);
    return finish_load(L, status, env_index);
}

static int finish_dofile(lua_State *L, int status, lua_KContext ctx)
{
    (void)status;
    (void)ctx;
    return lua_gettop(L) - 1;                  /* all but the file name */
}

static int base_dofile(lua_State *L)
{
    const char *filename = luaL_optstring(L, 1, NULL);
    lua_settop(L, 1);
    if (luaL_loadfile(L, filename) != LUA_OK) return lua_error(L);
    lua_callk(L, 0, LUA_MULTRET, 0, finish_dofile);
    return finish_dofile(L, LUA_OK, 0);
}

/*-------------------------------------------------------------------------
 * Iteration and varargs
 */

static int base_next(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);                          /* a missing key is nil */
    if (lua_next(L, 1)) return 2;
    lua_pushnil(L);
    return 1;
}

static int base_pairs(lua_State *L)
{
    luaL_checkany(L, 1);
    if (luaL_getmetafield(L, 1, "__pairs") == LUA_TNIL) {
        lua_pushcfunction(L, base_next);       /* the same value as _G.next */
        lua_pushvalue(L, 1);
        lua_pushnil(L);
    } else {
        lua_pushvalue(L, 1);
        lua_call(L, 1, 3);
    }
    return 3;
}

static int ipairs_step(lua_State *L)
{
    lua_Integer i = luaL_intop(+, luaL_checkinteger(L, 2), 1);
    lua_pushinteger(L, i);
    return lua_geti(L, 1, i) == LUA_TNIL ? 1 : 2;
}

static int base_ipairs(lua_State *L)
{
    luaL_checkany(L, 1);
    lua_pushcfunction(L, ipairs_step);
    lua_pushvalue(L, 1);
    lua_pushinteger(L, 0);
    return 3;
}

static int base_select(lua_State *L)
{
    int n = lua_gettop(L);
    if (lua_type(L, 1) == LUA_TSTRING && *lua_tostring(L, 1) == '#') {
        lua_pushinteger(L, n - 1);
        return 1;
    }
    lua_Integer i = luaL_checkinteger(L, 1);
    if (i < 0) i = n + i;
    else if (i > n) i = n;
    luaL_argcheck(L, 1 <= i, 1, "index out of range");
    return n - (int)i;
}

/*-------------------------------------------------------------------------
 * Types
 */

static int base_type(lua_State *L)
{
    int type = lua_type(L, 1);
    luaL_argcheck(L, type != LUA_TNONE, 1, "value expected");
    lua_pushstring(L, lua_typename(L, type));
    return 1;
}

static int base_tostring(lua_State *L)
{
    luaL_checkany(L, 1);
    luaL_tolstring(L, 1, NULL);
    return 1;
}

static const luaL_Reg base_functions[] = {
    { "assert", base_assert },
    { "collectgarbage", base_collectgarbage },
    { "dofile", base_dofile },
    { "error", base_error },
    { "getmetatable", base_getmetatable },
    { "ipairs", base_ipairs },
    { "loadfile", base_loadfile },
    { "load", base_load },
    { "next", base_next },
    { "pairs", base_pairs },
    { "pcall", base_pcall },
    { "print", base_print },
    { "warn", base_warn },
    { "rawequal", base_rawequal },
    { "rawlen", base_rawlen },
    { "rawget", base_rawget },
    { "rawset", base_rawset },
    { "select", base_select },
    { "setmetatable", base_setmetatable },
    { "tonumber", base_tonumber },
    { "tostring", base_tostring },
    { "type", base_type },
    { "xpcall", base_xpcall },
    { LUA_GNAME, NULL },                       /* set below */
    { "_VERSION", NULL },
    { NULL, NULL },
};

LUAMOD_API int luaopen_base(lua_State *L)
{
    lua_pushglobaltable(L);
    luaL_setfuncs(L, base_functions, 0);
    lua_pushvalue(L, -1);
    lua_setfield(L, -2, LUA_GNAME);
    lua_pushliteral(L, LUA_VERSION);
    lua_setfield(L, -2, "_VERSION");
    return 1;
}
