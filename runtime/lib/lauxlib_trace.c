/*
 * lauxlib_trace.c — the auxiliary library's view of the call stack: where
 * the running code is (luaL_where), what the failing function is called
 * (luaL_argerror), and the stack traceback (luaL_traceback).
 *
 * A function is named, as stock Lua names it, first by a global name — the
 * field of a loaded module it is stored in, found by searching
 * package.loaded two levels deep ("string.rep", "print") — and otherwise by
 * what the calling code called it ("local 'f'", "method 'm'", ...).
 *
 * Only the public debug interface (lua_getstack, lua_getinfo) is used.
 */
#include <string.h>

#include "lauxlib.h"
#include "lua.h"

/* A long traceback shows its first TRACE_HEAD levels, a line saying how
 * many were left out, and its last TRACE_TAIL levels. */
enum { TRACE_HEAD = 10, TRACE_TAIL = 11 };

/*-------------------------------------------------------------------------
 * Global names
 */

/*
 * Searches the table on the top of the stack, [depth] levels deep, for a
 * string key whose value is raw-equal to the value at [target]. On success
 * pushes the dotted path ("string.rep") and returns 1; otherwise leaves
 * the stack as it was and returns 0.
 */
static int find_field_path(lua_State *L, int target, int depth)
{
    if (depth == 0 || lua_type(L, -1) != LUA_TTABLE) return 0;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        if (lua_type(L, -2) == LUA_TSTRING) {
            if (lua_rawequal(L, target, -1)) {
                lua_pop(L, 1);                /* the value; the key is the path */
                return 1;
            }
            if (find_field_path(L, target, depth - 1)) {
                /* stack: key, value, rest-of-path */
                lua_remove(L, -2);
                lua_pushliteral(L, ".");
                lua_insert(L, -2);
                lua_concat(L, 3);             /* key "." rest */
                return 1;
            }
        }
        lua_pop(L, 1);
    }
    return 0;
}

/*
 * Pushes onto [L] the function running at [ar] (a level of [L1]) and
 * returns 1, or returns 0 if [L1] has no room to fetch it (an error must
 * not be raised in a thread that is not running).
 */
static int push_level_function(lua_State *L, lua_State *L1, lua_Debug *ar)
{
    if (L1 != L && !lua_checkstack(L1, 1)) return 0;
    lua_getinfo(L1, "f", ar);
    if (L1 != L) lua_xmove(L1, L, 1);
    return 1;
}

/*
 * If the function at [ar] is a field of a loaded module, pushes its name
 * ("_G." dropped, so globals read "print") and returns 1; otherwise pushes
 * nothing and returns 0.
 */
static int push_global_name(lua_State *L, lua_State *L1, lua_Debug *ar)
{
    int top = lua_gettop(L);
    luaL_checkstack(L, 6, "not enough stack");
    if (!push_level_function(L, L1, ar)) return 0;
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    if (!find_field_path(L, top + 1, 2)) {
        lua_settop(L, top);
        return 0;
    }
    const char *name = lua_tostring(L, -1);
    if (strncmp(name, LUA_GNAME ".", sizeof(LUA_GNAME)) == 0) {
        lua_pushstring(L, name + sizeof(LUA_GNAME));
        lua_remove(L, -2);
    }
    lua_copy(L, -1, top + 1);
    lua_settop(L, top + 1);
    return 1;
}

/* Pushes how a traceback names the function at [ar]: "function 'print'",
 * "local 'f'", "main chunk", "function <file:12>" or "?". */
static void push_function_description(lua_State *L, lua_State *L1, lua_Debug *ar)
{
    if (push_global_name(L, L1, ar)) {
        lua_pushfstring(L, "function '%s'", lua_tostring(L, -1));
        lua_remove(L, -2);
    } else if (*ar->namewhat != '\0') {
        lua_pushfstring(L, "%s '%s'", ar->namewhat, ar->name);
    } else if (*ar->what == 'm') {
        lua_pushliteral(L, "main chunk");
    } else if (*ar->what != 'C') {
        lua_pushfstring(L, "function <%s:%d>", ar->short_src, ar->linedefined);
    } else {
        lua_pushliteral(L, "?");
    }
}

/*-------------------------------------------------------------------------
 * Positions and argument errors
 */

LUALIB_API void luaL_where(lua_State *L, int level)
{
    lua_Debug ar;
    if (lua_getstack(L, level, &ar)) {
        lua_getinfo(L, "Sl", &ar);
        if (ar.currentline > 0) {
            lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
            return;
        }
    }
    lua_pushliteral(L, "");
}

LUALIB_API int luaL_argerror(lua_State *L, int arg, const char *extramsg)
{
    lua_Debug ar;
    if (!lua_getstack(L, 0, &ar))           /* called outside any function */
        return luaL_error(L, "bad argument #%d (%s)", arg, extramsg);
    lua_getinfo(L, "n", &ar);
    if (strcmp(ar.namewhat, "method") == 0) {
        arg--;                              /* 'self' is not counted */
        if (arg == 0)
            return luaL_error(L, "calling '%s' on bad self (%s)", ar.name, extramsg);
    }
    const char *name = ar.name;
    if (name == NULL)
        name = push_global_name(L, L, &ar) ? lua_tostring(L, -1) : "?";
    return luaL_error(L, "bad argument #%d to '%s' (%s)", arg, name, extramsg);
}

/*-------------------------------------------------------------------------
 * Tracebacks
 */

/* The deepest level of [L1]'s stack that exists, or -1 if it has none:
 * doubles a probe until it falls off the stack, then bisects. */
static int deepest_level(lua_State *L1)
{
    lua_Debug ar;
    if (!lua_getstack(L1, 0, &ar)) return -1;
    int valid = 0, invalid = 1;
    while (lua_getstack(L1, invalid, &ar)) {
        valid = invalid;
        invalid *= 2;
    }
    while (invalid - valid > 1) {
        int middle = valid + (invalid - valid) / 2;
        if (lua_getstack(L1, middle, &ar)) valid = middle;
        else invalid = middle;
    }
    return valid;
}

/* Adds one traceback line: "\n\tfile:line: in <description>". */
static void add_frame_line(lua_State *L, lua_State *L1, luaL_Buffer *b, lua_Debug *ar)
{
    lua_getinfo(L1, "Slnt", ar);
    if (ar->currentline <= 0)
        lua_pushfstring(L, "\n\t%s: in ", ar->short_src);
    else
        lua_pushfstring(L, "\n\t%s:%d: in ", ar->short_src, ar->currentline);
    luaL_addvalue(b);
    push_function_description(L, L1, ar);
    luaL_addvalue(b);
    if (ar->istailcall) luaL_addstring(b, "\n\t(...tail calls...)");
}

LUALIB_API void luaL_traceback(lua_State *L, lua_State *L1, const char *msg, int level)
{
    luaL_Buffer b;
    lua_Debug ar;
    int last = deepest_level(L1);
    int levels = last - level + 1;
    /* Stock Lua's skip line counts one level fewer than it leaves out;
     * the number is reproduced as it prints it. */
    int skip_line_pending = levels > TRACE_HEAD + TRACE_TAIL + 1;
    int shown = 0;
    luaL_buffinit(L, &b);
    if (msg != NULL) {
        luaL_addstring(&b, msg);
        luaL_addchar(&b, '\n');
    }
    luaL_addstring(&b, "stack traceback:");
    while (lua_getstack(L1, level, &ar)) {
        if (skip_line_pending && shown == TRACE_HEAD) {
            lua_pushfstring(L, "\n\t...\t(skipping %d levels)",
                            levels - (TRACE_HEAD + TRACE_TAIL + 1));
            luaL_addvalue(&b);
            level = last - TRACE_TAIL + 1;
            skip_line_pending = 0;
            continue;
        }
        add_frame_line(L, L1, &b, &ar);
        level++;
        shown++;
    }
    luaL_pushresult(&b);
}
