/*
 * userdata_vec.c — API test module: a vector of floats as a full userdata,
 * built the way C libraries build their types. Paired with
 * userdata_vec.lua, which states what every call must print.
 *
 * Exercises: lua_newuserdatauv with a user value, luaL_newmetatable,
 * luaL_setmetatable, luaL_checkudata, luaL_testudata, __name in type
 * errors, metamethods written in C (__index as a closure over the method
 * table, __newindex, __len, __eq, __add, __tostring, __close, __gc),
 * luaL_setfuncs with a shared upvalue (a statistics table), luaL_newlib,
 * luaL_checkoption, luaL_argcheck, luaL_argexpected, luaL_opt, lua_next
 * over a table, luaL_Buffer with luaL_addvalue, lua_arith and lua_compare
 * on values the caller chose, lua_rawlen and lua_topointer of a userdata.
 *
 * Written against lua.h and lauxlib.h only: it builds unchanged against
 * stock Lua 5.4 and against libtide.
 */
#include <math.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"

#define VEC_TYPE "tide.api.vec"

typedef struct Vec {
    lua_Integer n;
    lua_Number v[];
} Vec;

/*-------------------------------------------------------------------------
 * Making and checking vectors
 */

/* Pushes a new zeroed vector of [n] elements with one user value (its
 * label) and the vector metatable. */
static Vec *vec_push(lua_State *L, lua_Integer n)
{
    luaL_argcheck(L, n >= 0 && (lua_Unsigned)n <= (((size_t)-1) - sizeof(Vec)) / sizeof(lua_Number),
                  1, "size out of range");
    size_t bytes = sizeof(Vec) + (size_t)n * sizeof(lua_Number);
    Vec *vec = (Vec *)lua_newuserdatauv(L, bytes, 1);
    vec->n = n;
    for (lua_Integer i = 0; i < n; i++) vec->v[i] = 0.0;
    luaL_setmetatable(L, VEC_TYPE);
    return vec;
}

static Vec *vec_check(lua_State *L, int arg)
{
    return (Vec *)luaL_checkudata(L, arg, VEC_TYPE);
}

/* The 0-based slot for Lua index [arg], which must be in 1..n. */
static lua_Integer vec_check_index(lua_State *L, const Vec *vec, int arg)
{
    lua_Integer i = luaL_checkinteger(L, arg);
    luaL_argcheck(L, 1 <= i && i <= vec->n, arg, "index out of range");
    return i - 1;
}

/* The statistics table every function shares as upvalue 1. */
static void stats_bump(lua_State *L, const char *field)
{
    lua_getfield(L, lua_upvalueindex(1), field);
    lua_Integer count = lua_tointeger(L, -1);
    lua_pop(L, 1);
    lua_pushinteger(L, count + 1);
    lua_setfield(L, lua_upvalueindex(1), field);
}

/*-------------------------------------------------------------------------
 * Module functions
 */

/* vec.new(n) */
static int l_new(lua_State *L)
{
    vec_push(L, luaL_checkinteger(L, 1));
    stats_bump(L, "created");
    return 1;
}

/* vec.from(t): the numbers at keys 1..#t; other keys are ignored. */
static int l_from(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer n = luaL_len(L, 1);
    Vec *vec = vec_push(L, n);
    stats_bump(L, "created");
    lua_pushnil(L);
    while (lua_next(L, 1) != 0) {
        /* key at -2, value at -1; lua_isinteger does not convert the key */
        if (lua_isinteger(L, -2)) {
            lua_Integer k = lua_tointeger(L, -2);
            if (1 <= k && k <= n) {
                int isnum;
                lua_Number x = lua_tonumberx(L, -1, &isnum);
                if (!isnum)
                    return luaL_error(L, "element %I is not a number (a %s)", k,
                                      luaL_typename(L, -1));
                vec->v[k - 1] = x;
            }
        }
        lua_pop(L, 1);
    }
    return 1;
}

/* vec.is(x) */
static int l_is(lua_State *L)
{
    lua_pushboolean(L, luaL_testudata(L, 1, VEC_TYPE) != NULL);
    return 1;
}

/* vec.stats(): a copy of the statistics table. */
static int l_stats(lua_State *L)
{
    lua_newtable(L);
    int copy = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, lua_upvalueindex(1)) != 0) {
        /* key value -> key key value, and copy[key] = value */
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_settable(L, copy);
    }
    return 1;
}

/* vec.calc(a, op, b): a op b for an operator name, with Lua's semantics
 * (metamethods included). */
static int l_calc(lua_State *L)
{
    static const char *const names[] = { "add", "sub", "mul", "div", "idiv", "mod", "pow",
                                         "band", "bor", "bxor", "shl", "shr", "unm", "bnot",
                                         NULL };
    static const int ops[] = { LUA_OPADD, LUA_OPSUB, LUA_OPMUL, LUA_OPDIV, LUA_OPIDIV,
                               LUA_OPMOD, LUA_OPPOW, LUA_OPBAND, LUA_OPBOR, LUA_OPBXOR,
                               LUA_OPSHL, LUA_OPSHR, LUA_OPUNM, LUA_OPBNOT };
    int op = ops[luaL_checkoption(L, 2, NULL, names)];
    luaL_checkany(L, 1);
    lua_pushvalue(L, 1);
    if (op != LUA_OPUNM && op != LUA_OPBNOT) {
        luaL_checkany(L, 3);
        lua_pushvalue(L, 3);
    }
    lua_arith(L, op);
    return 1;
}

/* vec.cmp(a, b): "<", "==" or ">" (or "?" when unordered). */
static int l_cmp(lua_State *L)
{
    luaL_checkany(L, 1);
    luaL_checkany(L, 2);
    const char *answer = lua_compare(L, 1, 2, LUA_OPLT)   ? "<"
                         : lua_compare(L, 1, 2, LUA_OPEQ) ? "=="
                         : lua_compare(L, 2, 1, LUA_OPLT) ? ">"
                                                          : "?";
    lua_pushstring(L, answer);
    return 1;
}

/*-------------------------------------------------------------------------
 * Methods
 */

/* v:sum() */
static int m_sum(lua_State *L)
{
    const Vec *vec = vec_check(L, 1);
    lua_Number total = 0.0;
    for (lua_Integer i = 0; i < vec->n; i++) total += vec->v[i];
    lua_pushnumber(L, total);
    return 1;
}

/* v:norm([kind]): kind is "l2" (the default), "l1" or "max". */
static int m_norm(lua_State *L)
{
    static const char *const kinds[] = { "l2", "l1", "max", NULL };
    const Vec *vec = vec_check(L, 1);
    int kind = luaL_checkoption(L, 2, "l2", kinds);
    lua_Number result = 0.0;
    for (lua_Integer i = 0; i < vec->n; i++) {
        lua_Number x = fabs(vec->v[i]);
        if (kind == 0) result += x * x;
        else if (kind == 1) result += x;
        else if (x > result) result = x;
    }
    lua_pushnumber(L, kind == 0 ? sqrt(result) : result);
    return 1;
}

/* v:scale([factor]): multiplies in place by factor (default 2); returns v. */
static int m_scale(lua_State *L)
{
    Vec *vec = vec_check(L, 1);
    lua_Number factor = luaL_opt(L, luaL_checknumber, 2, 2.0);
    for (lua_Integer i = 0; i < vec->n; i++) vec->v[i] *= factor;
    lua_settop(L, 1);
    return 1;
}

/* v:label([text]): with text, sets the label (a user value) and returns
 * v; without, returns the label (nil if unset). */
static int m_label(lua_State *L)
{
    vec_check(L, 1);
    if (lua_isnone(L, 2)) {
        lua_getiuservalue(L, 1, 1);
        return 1;
    }
    luaL_argexpected(L, lua_type(L, 2) == LUA_TSTRING, 2, "string");
    lua_settop(L, 2);
    lua_setiuservalue(L, 1, 1);
    return 1;
}

/* v:bytes(): the userdata's block size, as lua_rawlen reports it. */
static int m_bytes(lua_State *L)
{
    vec_check(L, 1);
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, 1));
    return 1;
}

/* v:same_block(): does lua_topointer give the block lua_touserdata gives? */
static int m_same_block(lua_State *L)
{
    vec_check(L, 1);
    lua_pushboolean(L, lua_topointer(L, 1) == lua_touserdata(L, 1));
    return 1;
}

/*-------------------------------------------------------------------------
 * Metamethods
 */

/* __index: integers index elements; anything else looks up a method in
 * the method table, upvalue 2. */
static int mm_index(lua_State *L)
{
    const Vec *vec = vec_check(L, 1);
    if (lua_isinteger(L, 2)) {
        lua_Integer i = lua_tointeger(L, 2);
        if (1 <= i && i <= vec->n) lua_pushnumber(L, vec->v[i - 1]);
        else lua_pushnil(L);
        return 1;
    }
    lua_pushvalue(L, 2);
    lua_rawget(L, lua_upvalueindex(2));
    return 1;
}

static int mm_newindex(lua_State *L)
{
    Vec *vec = vec_check(L, 1);
    lua_Integer i = vec_check_index(L, vec, 2);
    vec->v[i] = luaL_checknumber(L, 3);
    return 0;
}

static int mm_len(lua_State *L)
{
    lua_pushinteger(L, vec_check(L, 1)->n);
    return 1;
}

static int mm_eq(lua_State *L)
{
    const Vec *a = vec_check(L, 1), *b = vec_check(L, 2);
    int equal = a->n == b->n;
    for (lua_Integer i = 0; equal && i < a->n; i++) equal = a->v[i] == b->v[i];
    lua_pushboolean(L, equal);
    return 1;
}

/* __add: vector + vector of the same length, or vector + number either
 * way round. */
static int mm_add(lua_State *L)
{
    int vec_arg = luaL_testudata(L, 1, VEC_TYPE) ? 1 : 2;
    int other = 3 - vec_arg;
    const Vec *a = vec_check(L, vec_arg);
    const Vec *b = luaL_testudata(L, other, VEC_TYPE);
    lua_Number scalar = 0.0;
    if (b) luaL_argcheck(L, b->n == a->n, other, "vectors differ in length");
    else scalar = luaL_checknumber(L, other);
    Vec *sum = vec_push(L, a->n);
    for (lua_Integer i = 0; i < a->n; i++) sum->v[i] = a->v[i] + (b ? b->v[i] : scalar);
    stats_bump(L, "created");
    return 1;
}

/* __tostring: "vec(1.0, 2.5)" or "label(1.0, 2.5)". Each element goes
 * through luaL_tolstring, so floats print as tostring prints them. */
static int mm_tostring(lua_State *L)
{
    const Vec *vec = vec_check(L, 1);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    if (lua_getiuservalue(L, 1, 1) == LUA_TSTRING) luaL_addvalue(&b);
    else {
        lua_pop(L, 1);
        luaL_addstring(&b, "vec");
    }
    luaL_addchar(&b, '(');
    for (lua_Integer i = 0; i < vec->n; i++) {
        if (i > 0) luaL_addlstring(&b, ", ", 2);
        lua_pushnumber(L, vec->v[i]);
        luaL_tolstring(L, -1, NULL);
        lua_remove(L, -2);
        luaL_addvalue(&b);
    }
    luaL_addchar(&b, ')');
    luaL_pushresult(&b);
    return 1;
}

static int mm_close(lua_State *L)
{
    vec_check(L, 1);
    stats_bump(L, "closed");
    return 0;
}

static int mm_gc(lua_State *L)
{
    vec_check(L, 1);
    stats_bump(L, "freed");
    return 0;
}

/*-------------------------------------------------------------------------
 * The module
 */

static const luaL_Reg module_functions[] = {
    { "new", l_new }, { "from", l_from }, { "is", l_is },
    { "stats", l_stats }, { "calc", l_calc }, { "cmp", l_cmp },
    { NULL, NULL },
};

static const luaL_Reg methods[] = {
    { "sum", m_sum }, { "norm", m_norm }, { "scale", m_scale },
    { "label", m_label }, { "bytes", m_bytes }, { "same_block", m_same_block },
    { NULL, NULL },
};

static const luaL_Reg metamethods[] = {
    { "__newindex", mm_newindex }, { "__len", mm_len }, { "__eq", mm_eq },
    { "__add", mm_add }, { "__tostring", mm_tostring }, { "__close", mm_close },
    { "__gc", mm_gc },
    { "__index", NULL }, /* placeholder: set below, as a closure */
    { NULL, NULL },
};

int luaopen_userdata_vec(lua_State *L);

int luaopen_userdata_vec(lua_State *L)
{
    lua_newtable(L); /* the statistics table, shared as upvalue 1 */
    int stats = lua_gettop(L);
    static const char *const counters[] = { "created", "closed", "freed" };
    for (int i = 0; i < 3; i++) {
        lua_pushinteger(L, 0);
        lua_setfield(L, stats, counters[i]);
    }

    luaL_newmetatable(L, VEC_TYPE);
    lua_pushvalue(L, stats);
    luaL_setfuncs(L, metamethods, 1);
    int metatable = lua_gettop(L);

    luaL_newlibtable(L, methods);
    lua_pushvalue(L, stats);
    luaL_setfuncs(L, methods, 1);

    lua_pushvalue(L, stats); /* __index = closure(stats, methods) */
    lua_insert(L, -2);
    lua_pushcclosure(L, mm_index, 2);
    lua_setfield(L, metatable, "__index");

    luaL_newlibtable(L, module_functions);
    lua_pushvalue(L, stats);
    luaL_setfuncs(L, module_functions, 1);
    return 1;
}
