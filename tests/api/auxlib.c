/*
 * auxlib.c — API test module: the auxiliary library's functions that
 * scripts cannot reach directly. Paired with auxlib.lua.
 *
 * Exercises: luaL_ref/luaL_unref (own tables and the registry, reuse of
 * freed references, LUA_REFNIL/LUA_NOREF), luaL_checkversion_,
 * luaL_requiref, luaL_getsubtable, luaL_newmetatable/luaL_setmetatable/
 * luaL_testudata/luaL_checkudata, luaL_setfuncs with upvalues and
 * placeholders, luaL_opt*, luaL_checkoption, luaL_checkstack,
 * luaL_execresult, luaL_fileresult, luaL_len, luaL_getmetafield,
 * luaL_callmeta, luaL_where, luaL_error's formats, luaL_argerror,
 * luaL_typeerror, luaL_argexpected, luaL_gsub, luaL_loadbufferx,
 * luaL_loadstring, luaL_dostring, luaL_loadfilex, luaL_newstate (its
 * allocator and panic function), and a buffer abandoned by an error.
 *
 * Written against lua.h, lauxlib.h and lualib.h only.
 */
#include <errno.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

#define POINT_TYPE "auxlib.Point"

/*-------------------------------------------------------------------------
 * References
 */

/* aux.refs(): checks of luaL_ref/luaL_unref on a fresh table and on the
 * registry; returns one boolean per property. */
static int l_refs(lua_State *L)
{
    lua_settop(L, 0);
    lua_newtable(L);                                   /* 1: the table */
    lua_pushstring(L, "a");
    int ra = luaL_ref(L, 1);
    lua_pushstring(L, "b");
    int rb = luaL_ref(L, 1);
    lua_pushstring(L, "c");
    int rc = luaL_ref(L, 1);
    int distinct = ra > 0 && rb > 0 && rc > 0 && ra != rb && rb != rc && ra != rc;
    lua_rawgeti(L, 1, rb);
    int stored = strcmp(lua_tostring(L, -1), "b") == 0;
    lua_pop(L, 1);

    lua_pushnil(L);
    int nil_ref = luaL_ref(L, 1) == LUA_REFNIL;
    int balanced = lua_gettop(L) == 1;                 /* luaL_ref popped every value */
    luaL_unref(L, 1, LUA_NOREF);                       /* both are no-ops */
    luaL_unref(L, 1, LUA_REFNIL);

    luaL_unref(L, 1, rb);
    lua_pushstring(L, "d");
    int reused = luaL_ref(L, 1) == rb;                 /* a freed reference comes back */
    luaL_unref(L, 1, ra);
    luaL_unref(L, 1, rc);
    lua_pushstring(L, "e");
    int first_back = luaL_ref(L, 1);
    lua_pushstring(L, "f");
    int second_back = luaL_ref(L, 1);
    int lifo = first_back == rc && second_back == ra;  /* the last freed first */

    lua_pushstring(L, "in the registry");
    int rr = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_rawgeti(L, LUA_REGISTRYINDEX, rr);
    int registry = rr > LUA_RIDX_LAST && strcmp(lua_tostring(L, -1), "in the registry") == 0;
    lua_pop(L, 1);
    luaL_unref(L, LUA_REGISTRYINDEX, rr);
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    lua_pushglobaltable(L);
    int globals_kept = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);

    lua_pushboolean(L, distinct);
    lua_pushboolean(L, stored);
    lua_pushboolean(L, nil_ref);
    lua_pushboolean(L, balanced);
    lua_pushboolean(L, reused);
    lua_pushboolean(L, lifo);
    lua_pushboolean(L, registry);
    lua_pushboolean(L, globals_kept);
    return 8;
}

/*-------------------------------------------------------------------------
 * Versions, modules, metatables, registration
 */

static int l_check_version(lua_State *L)
{
    luaL_checkversion(L);
    lua_pushboolean(L, 1);
    return 1;
}

static int l_wrong_version(lua_State *L)
{
    luaL_checkversion_(L, 503, LUAL_NUMSIZES);
    return 0;
}

static int l_wrong_sizes(lua_State *L)
{
    luaL_checkversion_(L, LUA_VERSION_NUM, LUAL_NUMSIZES + 1);
    return 0;
}

/* The opener luaL_requiref calls: counts its calls in the registry. */
static int open_counted(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, "auxlib.opens");
    lua_Integer opens = lua_tointeger(L, -1) + 1;
    lua_pop(L, 1);
    lua_pushinteger(L, opens);
    lua_setfield(L, LUA_REGISTRYINDEX, "auxlib.opens");
    lua_newtable(L);
    lua_pushvalue(L, 1);                               /* the module name */
    lua_setfield(L, -2, "name");
    lua_pushinteger(L, opens);
    lua_setfield(L, -2, "opens");
    return 1;
}

/* aux.requiref(name, global): the module and the stack change (0). */
static int l_requiref(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    int global = lua_toboolean(L, 2);
    int top = lua_gettop(L);
    luaL_requiref(L, name, open_counted, global);
    lua_pushinteger(L, lua_gettop(L) - top - 1);
    return 2;
}

/* aux.subtable(t, name): whether the field was a table already, and it. */
static int l_subtable(lua_State *L)
{
    luaL_checkany(L, 1);
    int existed = luaL_getsubtable(L, 1, luaL_checkstring(L, 2));
    lua_pushboolean(L, existed);
    lua_insert(L, -2);
    return 2;
}

static int l_new_point(lua_State *L)
{
    double x = (double)luaL_checknumber(L, 1);
    double *p = (double *)lua_newuserdatauv(L, sizeof(double), 0);
    *p = x;
    luaL_setmetatable(L, POINT_TYPE);
    return 1;
}

static int l_point_x(lua_State *L)
{
    double *p = (double *)luaL_checkudata(L, 1, POINT_TYPE);
    lua_pushnumber(L, (lua_Number)*p);
    return 1;
}

static int l_is_point(lua_State *L)
{
    lua_pushboolean(L, luaL_testudata(L, 1, POINT_TYPE) != NULL);
    return 1;
}

static int l_upvalues(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, lua_upvalueindex(2));
    return 2;
}

static const luaL_Reg with_upvalues_funcs[] = {
    { "ups", l_upvalues },
    { "placeholder", NULL },
    { NULL, NULL },
};

/* aux.with_upvalues(): a table of functions sharing two upvalues. */
static int l_with_upvalues(lua_State *L)
{
    lua_newtable(L);
    lua_pushstring(L, "first");
    lua_pushinteger(L, 2);
    luaL_setfuncs(L, with_upvalues_funcs, 2);
    lua_pushinteger(L, lua_gettop(L));                 /* the upvalues were popped */
    return 2;
}

/*-------------------------------------------------------------------------
 * Arguments
 */

static int l_opts(lua_State *L)
{
    size_t len, len_null;
    lua_Integer i = luaL_optinteger(L, 1, 42);
    lua_Number n = luaL_optnumber(L, 2, 0.5);
    const char *s = luaL_optlstring(L, 3, "default", &len);
    const char *none = luaL_optlstring(L, 4, NULL, &len_null);
    lua_pushinteger(L, i);
    lua_pushnumber(L, n);
    lua_pushstring(L, s);
    lua_pushinteger(L, (lua_Integer)len);
    if (none == NULL) lua_pushliteral(L, "NULL");
    else lua_pushstring(L, none);
    lua_pushinteger(L, (lua_Integer)len_null);
    return 6;
}

static int l_option(lua_State *L)
{
    static const char *const modes[] = { "read", "write", "append", NULL };
    const char *def = lua_toboolean(L, 2) ? "write" : NULL;
    lua_pushinteger(L, luaL_checkoption(L, 1, def, modes));
    return 1;
}

static int l_checkstack(lua_State *L)
{
    int n = (int)luaL_checkinteger(L, 1);
    const char *msg = luaL_optstring(L, 2, NULL);
    luaL_checkstack(L, n, msg);
    lua_pushboolean(L, 1);
    return 1;
}

static int l_argexpected(lua_State *L)
{
    luaL_argexpected(L, lua_isinteger(L, 1), 1, "integer");
    lua_pushboolean(L, 1);
    return 1;
}

static int l_argerror(lua_State *L)
{
    return luaL_argerror(L, (int)luaL_checkinteger(L, lua_gettop(L)), "custom message");
}

static int l_typeerror(lua_State *L)
{
    return luaL_typeerror(L, 1, "widget");
}

static int l_checks(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    lua_pushboolean(L, 1);
    return 1;
}

/*-------------------------------------------------------------------------
 * Results, metamethods, errors
 */

static int l_execresult(lua_State *L)
{
    int stat = (int)luaL_checkinteger(L, 1);
    int err = (int)luaL_optinteger(L, 2, 0);
    errno = err;
    return luaL_execresult(L, stat);
}

static int l_fileresult(lua_State *L)
{
    int stat = lua_toboolean(L, 1);
    const char *fname = luaL_optstring(L, 2, NULL);
    int err = (int)luaL_optinteger(L, 3, 0);
    errno = err;
    return luaL_fileresult(L, stat, fname);
}

static int l_len(lua_State *L)
{
    lua_pushinteger(L, luaL_len(L, 1));
    return 1;
}

/* aux.getmetafield(v, e): the field's type name, the field if any, and
 * how many values were left on the stack. */
static int l_getmetafield(lua_State *L)
{
    const char *event = luaL_checkstring(L, 2);
    int top = lua_gettop(L);
    int type = luaL_getmetafield(L, 1, event);
    int pushed = lua_gettop(L) - top;
    lua_pushstring(L, lua_typename(L, type));
    if (pushed > 0) lua_pushvalue(L, -2);
    else lua_pushnil(L);
    lua_pushinteger(L, pushed);
    return 3;
}

static int l_callmeta(lua_State *L)
{
    const char *event = luaL_checkstring(L, 2);
    int top = lua_gettop(L);
    int called = luaL_callmeta(L, 1, event);
    int pushed = lua_gettop(L) - top;
    lua_pushboolean(L, called);
    if (pushed > 0) lua_pushvalue(L, -2);
    else lua_pushnil(L);
    lua_pushinteger(L, pushed);
    return 3;
}

static int l_where(lua_State *L)
{
    luaL_where(L, (int)luaL_checkinteger(L, 1));
    return 1;
}

static int l_error(lua_State *L)
{
    return luaL_error(L, "%s=%d %f %c %I %%", "x", 7, (lua_Number)1.5, 'z', (lua_Integer)-12);
}

static int l_gsub(lua_State *L)
{
    const char *s = luaL_checkstring(L, 1);
    const char *p = luaL_checkstring(L, 2);
    const char *r = luaL_checkstring(L, 3);
    luaL_gsub(L, s, p, r);
    return 1;
}

/* aux.abandon(n): grows a buffer to n bytes, then raises an error; the
 * buffer's memory must still be released. */
static int l_abandon(lua_State *L)
{
    lua_Integer n = luaL_checkinteger(L, 1);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (lua_Integer i = 0; i < n; i++) luaL_addchar(&b, 'x');
    return luaL_error(L, "abandoned after %I bytes", (lua_Integer)luaL_bufflen(&b));
}

/*-------------------------------------------------------------------------
 * Loading and states
 */

/* Pushes the status name, then the chunk or message. */
static int load_result(lua_State *L, int status)
{
    static const char *const names[] = { "ok", "yield", "runtime", "syntax", "memory", "errerr", "file" };
    lua_pushstring(L, status >= 0 && status <= LUA_ERRFILE ? names[status] : "?");
    lua_insert(L, -2);
    return 2;
}

static int l_loadbuffer(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    const char *name = luaL_optstring(L, 2, s);
    const char *mode = luaL_optstring(L, 3, NULL);
    return load_result(L, luaL_loadbufferx(L, s, len, name, mode));
}

static int l_loadstring(lua_State *L)
{
    return load_result(L, luaL_loadstring(L, luaL_checkstring(L, 1)));
}

static int l_loadfile(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    const char *mode = luaL_optstring(L, 2, NULL);
    return load_result(L, luaL_loadfilex(L, name, mode));
}

/* aux.dostring(code): luaL_dostring's result and what the chunk returned. */
static int l_dostring(lua_State *L)
{
    const char *code = luaL_checkstring(L, 1);
    lua_settop(L, 1);
    int failed = luaL_dostring(L, code);
    lua_pushboolean(L, !failed);
    lua_replace(L, 1);                                 /* the code is not needed now */
    return lua_gettop(L);
}

/* aux.newstate(code): runs code in a fresh luaL_newstate state; returns
 * what it left as a string, whether a panic function was installed, and
 * whether the state's allocator allocates, grows and frees. */
static int l_newstate(lua_State *L)
{
    const char *code = luaL_checkstring(L, 1);
    lua_State *L2 = luaL_newstate();
    if (L2 == NULL) return luaL_error(L, "cannot create a state");
    luaL_openlibs(L2);
    int ok = luaL_dostring(L2, code) == LUA_OK;
    const char *result = lua_tostring(L2, -1);
    lua_pushstring(L, result != NULL ? result : "(not a string)");
    lua_pushboolean(L, ok);
    lua_pushboolean(L, lua_atpanic(L2, NULL) != NULL);
    void *ud;
    lua_Alloc alloc = lua_getallocf(L2, &ud);
    char *p = (char *)alloc(ud, NULL, LUA_TSTRING, 16);
    int alloc_ok = p != NULL;
    if (p != NULL) {
        memcpy(p, "0123456789abcde", 16);
        p = (char *)alloc(ud, p, 16, 4096);
        alloc_ok = p != NULL && memcmp(p, "0123456789abcde", 16) == 0;
        if (p != NULL) alloc_ok = alloc_ok && alloc(ud, p, 4096, 0) == NULL;
    }
    lua_pushboolean(L, alloc_ok);
    lua_close(L2);
    return 4;
}

static const luaL_Reg auxlib_funcs[] = {
    { "refs", l_refs },
    { "check_version", l_check_version },
    { "wrong_version", l_wrong_version },
    { "wrong_sizes", l_wrong_sizes },
    { "requiref", l_requiref },
    { "subtable", l_subtable },
    { "new_point", l_new_point },
    { "point_x", l_point_x },
    { "is_point", l_is_point },
    { "with_upvalues", l_with_upvalues },
    { "opts", l_opts },
    { "option", l_option },
    { "checkstack", l_checkstack },
    { "argexpected", l_argexpected },
    { "argerror", l_argerror },
    { "typeerror", l_typeerror },
    { "checks", l_checks },
    { "execresult", l_execresult },
    { "fileresult", l_fileresult },
    { "len", l_len },
    { "getmetafield", l_getmetafield },
    { "callmeta", l_callmeta },
    { "where", l_where },
    { "error", l_error },
    { "gsub", l_gsub },
    { "abandon", l_abandon },
    { "loadbuffer", l_loadbuffer },
    { "loadstring", l_loadstring },
    { "loadfile", l_loadfile },
    { "dostring", l_dostring },
    { "newstate", l_newstate },
    { NULL, NULL },
};

int luaopen_auxlib(lua_State *L)
{
    luaL_checkversion(L);
    int created = luaL_newmetatable(L, POINT_TYPE);
    int created_again = luaL_newmetatable(L, POINT_TYPE);
    int same = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    luaL_newlib(L, auxlib_funcs);
    lua_pushboolean(L, created && !created_again && same);
    lua_setfield(L, -2, "metatable_once");
    return 1;
}
