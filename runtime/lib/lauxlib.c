/*
 * lauxlib.c — the auxiliary library (manual §5): metatables and
 * metamethods, errors and argument checks, references, module
 * registration, and the small helpers the standard libraries share.
 *
 * Its companions: lauxlib_trace.c (positions, argument errors naming the
 * function, tracebacks), lauxlib_buffer.c (luaL_Buffer, luaL_gsub) and
 * lauxlib_load.c (loading chunks, luaL_newstate and its panic and warning
 * functions). Everything here is written on lua.h alone.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/wait.h> /* POSIX: decoding a status from system()/pclose() */

#include "lauxlib.h"
#include "lua.h"

/*-------------------------------------------------------------------------
 * Metatables and metamethods
 */

LUALIB_API int luaL_getmetafield(lua_State *L, int obj, const char *event)
{
    if (!lua_getmetatable(L, obj)) return LUA_TNIL;
    lua_pushstring(L, event);
    int type = lua_rawget(L, -2);
    if (type == LUA_TNIL) lua_pop(L, 2);       /* the nil and the metatable */
    else lua_remove(L, -2);                    /* the metatable */
    return type;
}

LUALIB_API int luaL_callmeta(lua_State *L, int obj, const char *event)
{
    obj = lua_absindex(L, obj);
    if (luaL_getmetafield(L, obj, event) == LUA_TNIL) return 0;
    lua_pushvalue(L, obj);
    lua_call(L, 1, 1);
    return 1;
}

LUALIB_API int luaL_newmetatable(lua_State *L, const char *tname)
{
    if (luaL_getmetatable(L, tname) != LUA_TNIL) return 0;  /* already there */
    lua_pop(L, 1);
    lua_createtable(L, 0, 2);
    lua_pushstring(L, tname);
    lua_setfield(L, -2, "__name");              /* error messages use it */
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, tname);
    return 1;
}

LUALIB_API void luaL_setmetatable(lua_State *L, const char *tname)
{
    luaL_getmetatable(L, tname);
    lua_setmetatable(L, -2);
}

LUALIB_API void *luaL_testudata(lua_State *L, int ud, const char *tname)
{
    void *p = lua_touserdata(L, ud);
    if (p == NULL || !lua_getmetatable(L, ud)) return NULL;
    luaL_getmetatable(L, tname);
    if (!lua_rawequal(L, -1, -2)) p = NULL;
    lua_pop(L, 2);
    return p;
}

LUALIB_API void *luaL_checkudata(lua_State *L, int ud, const char *tname)
{
    void *p = luaL_testudata(L, ud, tname);
    if (p == NULL) luaL_typeerror(L, ud, tname);
    return p;
}

/* Pushes the textual form of a value that has no __tostring: its type (or
 * its metatable's __name) and its identity. */
static void push_identity_string(lua_State *L, int idx)
{
    int name_type = luaL_getmetafield(L, idx, "__name");
    const char *kind = name_type == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, idx);
    lua_pushfstring(L, "%s: %p", kind, lua_topointer(L, idx));
    if (name_type != LUA_TNIL) lua_remove(L, -2);
}

LUALIB_API const char *luaL_tolstring(lua_State *L, int idx, size_t *len)
{
    idx = lua_absindex(L, idx);
    if (luaL_callmeta(L, idx, "__tostring")) {
        if (!lua_isstring(L, -1)) luaL_error(L, "'__tostring' must return a string");
        return lua_tolstring(L, -1, len);
    }
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
    case LUA_TSTRING:
        lua_pushvalue(L, idx);                 /* a number converts in place */
        break;
    case LUA_TBOOLEAN:
        lua_pushstring(L, lua_toboolean(L, idx) ? "true" : "false");
        break;
    case LUA_TNIL:
        lua_pushliteral(L, "nil");
        break;
    default:
        push_identity_string(L, idx);
        break;
    }
    return lua_tolstring(L, -1, len);
}

/*-------------------------------------------------------------------------
 * Errors
 */

LUALIB_API int luaL_error(lua_State *L, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    luaL_where(L, 1);
    lua_pushvfstring(L, fmt, args);
    va_end(args);
    lua_concat(L, 2);
    return lua_error(L);
}

LUALIB_API int luaL_typeerror(lua_State *L, int arg, const char *tname)
{
    const char *actual;
    if (luaL_getmetafield(L, arg, "__name") == LUA_TSTRING)
        actual = lua_tostring(L, -1);
    else if (lua_type(L, arg) == LUA_TLIGHTUSERDATA)
        actual = "light userdata";
    else
        actual = luaL_typename(L, arg);
    const char *msg = lua_pushfstring(L, "%s expected, got %s", tname, actual);
    return luaL_argerror(L, arg, msg);
}

static void type_mismatch(lua_State *L, int arg, int expected)
{
    luaL_typeerror(L, arg, lua_typename(L, expected));
}

LUALIB_API int luaL_fileresult(lua_State *L, int stat, const char *fname)
{
    int saved_errno = errno;                   /* the calls below may change it */
    if (stat) {
        lua_pushboolean(L, 1);
        return 1;
    }
    luaL_pushfail(L);
    if (fname != NULL)
        lua_pushfstring(L, "%s: %s", fname, strerror(saved_errno));
    else
        lua_pushstring(L, strerror(saved_errno));
    lua_pushinteger(L, saved_errno);
    return 3;
}

LUALIB_API int luaL_execresult(lua_State *L, int stat)
{
    if (stat != 0 && errno != 0)               /* the call itself failed */
        return luaL_fileresult(L, 0, NULL);
    const char *how = "exit";
    if (WIFEXITED(stat)) {
        stat = WEXITSTATUS(stat);
    } else if (WIFSIGNALED(stat)) {
        stat = WTERMSIG(stat);
        how = "signal";
    }
    if (*how == 'e' && stat == 0) lua_pushboolean(L, 1);
    else luaL_pushfail(L);
    lua_pushstring(L, how);
    lua_pushinteger(L, stat);
    return 3;
}

/*-------------------------------------------------------------------------
 * Argument checks
 */

LUALIB_API void luaL_checktype(lua_State *L, int arg, int t)
{
    if (lua_type(L, arg) != t) type_mismatch(L, arg, t);
}

LUALIB_API void luaL_checkany(lua_State *L, int arg)
{
    if (lua_type(L, arg) == LUA_TNONE) luaL_argerror(L, arg, "value expected");
}

LUALIB_API const char *luaL_checklstring(lua_State *L, int arg, size_t *len)
{
    const char *s = lua_tolstring(L, arg, len);
    if (s == NULL) type_mismatch(L, arg, LUA_TSTRING);
    return s;
}

LUALIB_API const char *luaL_optlstring(lua_State *L, int arg, const char *def, size_t *len)
{
    if (!lua_isnoneornil(L, arg)) return luaL_checklstring(L, arg, len);
    if (len != NULL) *len = def != NULL ? strlen(def) : 0;
    return def;
}

LUALIB_API lua_Number luaL_checknumber(lua_State *L, int arg)
{
    int isnum;
    lua_Number d = lua_tonumberx(L, arg, &isnum);
    if (!isnum) type_mismatch(L, arg, LUA_TNUMBER);
    return d;
}

LUALIB_API lua_Number luaL_optnumber(lua_State *L, int arg, lua_Number def)
{
    return luaL_opt(L, luaL_checknumber, arg, def);
}

LUALIB_API lua_Integer luaL_checkinteger(lua_State *L, int arg)
{
    int isnum;
    lua_Integer d = lua_tointegerx(L, arg, &isnum);
    if (!isnum) {
        if (lua_isnumber(L, arg))
            luaL_argerror(L, arg, "number has no integer representation");
        else
            type_mismatch(L, arg, LUA_TNUMBER);
    }
    return d;
}

LUALIB_API lua_Integer luaL_optinteger(lua_State *L, int arg, lua_Integer def)
{
    return luaL_opt(L, luaL_checkinteger, arg, def);
}

LUALIB_API int luaL_checkoption(lua_State *L, int arg, const char *def, const char *const lst[])
{
    const char *name = def != NULL ? luaL_optstring(L, arg, def) : luaL_checkstring(L, arg);
    for (int i = 0; lst[i] != NULL; i++)
        if (strcmp(lst[i], name) == 0) return i;
    return luaL_argerror(L, arg, lua_pushfstring(L, "invalid option '%s'", name));
}

LUALIB_API void luaL_checkstack(lua_State *L, int space, const char *msg)
{
    if (lua_checkstack(L, space)) return;
    if (msg != NULL) luaL_error(L, "stack overflow (%s)", msg);
    else luaL_error(L, "stack overflow");
}

LUALIB_API void luaL_checkversion_(lua_State *L, lua_Number ver, size_t sz)
{
    lua_Number core = lua_version(L);
    if (sz != LUAL_NUMSIZES)
        luaL_error(L, "core and library have incompatible numeric types");
    else if (core != ver)
        luaL_error(L, "version mismatch: app. needs %f, Lua core provides %f", ver, core);
}

/*-------------------------------------------------------------------------
 * References
 *
 * References are the positive integer keys of a table. Freed ones form a
 * linked list threaded through the table itself: the slot just after the
 * registry's predefined ones (LUA_RIDX_LAST + 1) holds the most recently
 * freed reference, each freed slot holds the next one, and 0 ends the list.
 */

enum { FREE_LIST_HEAD = LUA_RIDX_LAST + 1 };

LUALIB_API int luaL_ref(lua_State *L, int t)
{
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return LUA_REFNIL;
    }
    t = lua_absindex(L, t);
    int ref;
    if (lua_rawgeti(L, t, FREE_LIST_HEAD) == LUA_TNIL) {  /* first use */
        ref = 0;
        lua_pushinteger(L, 0);
        lua_rawseti(L, t, FREE_LIST_HEAD);
    } else {
        ref = (int)lua_tointeger(L, -1);
    }
    lua_pop(L, 1);
    if (ref != 0) {                            /* reuse a freed one */
        lua_rawgeti(L, t, ref);
        lua_rawseti(L, t, FREE_LIST_HEAD);
    } else {
        ref = (int)lua_rawlen(L, t) + 1;
    }
    lua_rawseti(L, t, ref);
    return ref;
}

LUALIB_API void luaL_unref(lua_State *L, int t, int ref)
{
    if (ref < 0) return;                       /* LUA_NOREF, LUA_REFNIL */
    t = lua_absindex(L, t);
    lua_rawgeti(L, t, FREE_LIST_HEAD);
    lua_rawseti(L, t, ref);                    /* t[ref] = old head */
    lua_pushinteger(L, ref);
    lua_rawseti(L, t, FREE_LIST_HEAD);         /* head = ref */
}

/*-------------------------------------------------------------------------
 * Tables and modules
 */

LUALIB_API lua_Integer luaL_len(lua_State *L, int idx)
{
    int isnum;
    lua_len(L, idx);
    lua_Integer len = lua_tointegerx(L, -1, &isnum);
    if (!isnum) luaL_error(L, "object length is not an integer");
    lua_pop(L, 1);
    return len;
}

LUALIB_API int luaL_getsubtable(lua_State *L, int idx, const char *fname)
{
    if (lua_getfield(L, idx, fname) == LUA_TTABLE) return 1;
    lua_pop(L, 1);
    idx = lua_absindex(L, idx);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, idx, fname);
    return 0;
}

LUALIB_API void luaL_setfuncs(lua_State *L, const luaL_Reg *l, int nup)
{
    luaL_checkstack(L, nup, "too many upvalues");
    for (; l->name != NULL; l++) {
        if (l->func == NULL) {
            lua_pushboolean(L, 0);             /* a placeholder */
        } else {
            for (int i = 0; i < nup; i++) lua_pushvalue(L, -nup);
            lua_pushcclosure(L, l->func, nup);
        }
        lua_setfield(L, -(nup + 2), l->name);
    }
    lua_pop(L, nup);
}

LUALIB_API void luaL_requiref(lua_State *L, const char *modname, lua_CFunction openf, int glb)
{
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_getfield(L, -1, modname);
    if (!lua_toboolean(L, -1)) {               /* not loaded yet */
        lua_pop(L, 1);
        lua_pushcfunction(L, openf);
        lua_pushstring(L, modname);
        lua_call(L, 1, 1);
        lua_pushvalue(L, -1);
        lua_setfield(L, -3, modname);          /* LOADED[modname] = module */
    }
    lua_remove(L, -2);                         /* the LOADED table */
    if (glb) {
        lua_pushvalue(L, -1);
        lua_setglobal(L, modname);
    }
}
