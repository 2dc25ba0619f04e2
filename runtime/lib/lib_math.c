/*
 * lib_math.c — the mathematical library (manual §6.7), with the Lua 5.3
 * compatibility functions (atan2, cosh, sinh, tanh, pow, frexp, ldexp,
 * log10) that Debian's stock Lua 5.4 also keeps.
 *
 * Integers and floats stay distinct as the manual says: floor, ceil, abs,
 * fmod, modf, max and min keep an integer an integer; floor and ceil of a
 * float give an integer when the result fits in one.
 *
 * math.random is xoshiro256** (Blackman and Vigna), the generator Lua 5.4
 * uses, seeded and projected onto intervals the same way, so a seeded
 * sequence matches stock Lua's number for number. Its state is a full
 * userdata shared by random and randomseed as an upvalue.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <time.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

static const lua_Number PI = (lua_Number)3.141592653589793238462643383279502884;

/* Pushes an integral float [d] as an integer when it fits in one. */
static void push_integral(lua_State *L, lua_Number d)
{
    /* [-2^63, 2^63): both bounds are exact floats; NaN fails the tests */
    if (d >= (lua_Number)LUA_MININTEGER && d < -(lua_Number)LUA_MININTEGER)
        lua_pushinteger(L, (lua_Integer)d);
    else
        lua_pushnumber(L, d);
}

/*-------------------------------------------------------------------------
 * Rounding and remainders
 */

static int math_floor(lua_State *L)
{
    if (lua_isinteger(L, 1)) lua_settop(L, 1);
    else push_integral(L, floor(luaL_checknumber(L, 1)));
    return 1;
}

static int math_ceil(lua_State *L)
{
    if (lua_isinteger(L, 1)) lua_settop(L, 1);
    else push_integral(L, ceil(luaL_checknumber(L, 1)));
    return 1;
}

static int math_abs(lua_State *L)
{
    if (lua_isinteger(L, 1)) {
        lua_Integer n = lua_tointeger(L, 1);
        if (n < 0) n = (lua_Integer)(0u - (lua_Unsigned)n);  /* wraps for mininteger */
        lua_pushinteger(L, n);
    } else {
        lua_pushnumber(L, fabs(luaL_checknumber(L, 1)));
    }
    return 1;
}

static int math_fmod(lua_State *L)
{
    if (lua_isinteger(L, 1) && lua_isinteger(L, 2)) {
        lua_Integer d = lua_tointeger(L, 2);
        if ((lua_Unsigned)d + 1u <= 1u) {      /* d is 0 or -1 */
            luaL_argcheck(L, d != 0, 2, "zero");
            lua_pushinteger(L, 0);             /* x % -1, without overflowing */
        } else {
            lua_pushinteger(L, lua_tointeger(L, 1) % d);  /* C's: sign of x */
        }
    } else {
        lua_pushnumber(L, fmod(luaL_checknumber(L, 1), luaL_checknumber(L, 2)));
    }
    return 1;
}

static int math_modf(lua_State *L)
{
    if (lua_isinteger(L, 1)) {
        lua_settop(L, 1);
        lua_pushnumber(L, 0);
        return 2;
    }
    lua_Number x = luaL_checknumber(L, 1);
    lua_Number whole = x < 0 ? ceil(x) : floor(x);   /* toward zero */
    push_integral(L, whole);
    lua_pushnumber(L, x == whole ? (lua_Number)0 : x - whole);  /* 0 for inf */
    return 2;
}

static int math_tointeger(lua_State *L)
{
    int ok;
    lua_Integer n = lua_tointegerx(L, 1, &ok);
    if (ok) {
        lua_pushinteger(L, n);
    } else {
        luaL_checkany(L, 1);
        luaL_pushfail(L);
    }
    return 1;
}

/*-------------------------------------------------------------------------
 * Comparisons and types
 */

/* The argument that wins every comparison lua_compare(candidate, best, op). */
static int pick_extreme(lua_State *L, int candidate_first)
{
    int n = lua_gettop(L);
    luaL_argcheck(L, n >= 1, 1, "value expected");
    int best = 1;
    for (int i = 2; i <= n; i++) {
        int wins = candidate_first ? lua_compare(L, i, best, LUA_OPLT)
                                   : lua_compare(L, best, i, LUA_OPLT);
        if (wins) best = i;
    }
    lua_pushvalue(L, best);
    return 1;
}

static int math_min(lua_State *L) { return pick_extreme(L, 1); }
static int math_max(lua_State *L) { return pick_extreme(L, 0); }

static int math_ult(lua_State *L)
{
    lua_Integer a = luaL_checkinteger(L, 1);
    lua_Integer b = luaL_checkinteger(L, 2);
    lua_pushboolean(L, (lua_Unsigned)a < (lua_Unsigned)b);
    return 1;
}

static int math_type(lua_State *L)
{
    if (lua_type(L, 1) == LUA_TNUMBER) {
        lua_pushstring(L, lua_isinteger(L, 1) ? "integer" : "float");
    } else {
        luaL_checkany(L, 1);
        luaL_pushfail(L);
    }
    return 1;
}

/*-------------------------------------------------------------------------
 * Elementary functions
 */

static int math_sqrt(lua_State *L) { lua_pushnumber(L, sqrt(luaL_checknumber(L, 1))); return 1; }
static int math_sin(lua_State *L) { lua_pushnumber(L, sin(luaL_checknumber(L, 1))); return 1; }
static int math_cos(lua_State *L) { lua_pushnumber(L, cos(luaL_checknumber(L, 1))); return 1; }
static int math_tan(lua_State *L) { lua_pushnumber(L, tan(luaL_checknumber(L, 1))); return 1; }
static int math_asin(lua_State *L) { lua_pushnumber(L, asin(luaL_checknumber(L, 1))); return 1; }
static int math_acos(lua_State *L) { lua_pushnumber(L, acos(luaL_checknumber(L, 1))); return 1; }
static int math_exp(lua_State *L) { lua_pushnumber(L, exp(luaL_checknumber(L, 1))); return 1; }

static int math_atan(lua_State *L)
{
    lua_Number y = luaL_checknumber(L, 1);
    lua_Number x = luaL_optnumber(L, 2, 1);
    lua_pushnumber(L, atan2(y, x));
    return 1;
}

static int math_log(lua_State *L)
{
    lua_Number x = luaL_checknumber(L, 1);
    lua_Number result;
    if (lua_isnoneornil(L, 2)) {
        result = log(x);
    } else {
        lua_Number base = luaL_checknumber(L, 2);
        if (base == 2) result = log2(x);       /* exact for powers of two */
        else if (base == 10) result = log10(x);
        else result = log(x) / log(base);
    }
    lua_pushnumber(L, result);
    return 1;
}

static int math_deg(lua_State *L)
{
    lua_pushnumber(L, luaL_checknumber(L, 1) * ((lua_Number)180 / PI));
    return 1;
}

static int math_rad(lua_State *L)
{
    lua_pushnumber(L, luaL_checknumber(L, 1) * (PI / (lua_Number)180));
    return 1;
}

/* Lua 5.3 compatibility. */
static int math_cosh(lua_State *L) { lua_pushnumber(L, cosh(luaL_checknumber(L, 1))); return 1; }
static int math_sinh(lua_State *L) { lua_pushnumber(L, sinh(luaL_checknumber(L, 1))); return 1; }
static int math_tanh(lua_State *L) { lua_pushnumber(L, tanh(luaL_checknumber(L, 1))); return 1; }
static int math_log10(lua_State *L) { lua_pushnumber(L, log10(luaL_checknumber(L, 1))); return 1; }

static int math_pow(lua_State *L)
{
    lua_Number x = luaL_checknumber(L, 1);
    lua_Number y = luaL_checknumber(L, 2);
    lua_pushnumber(L, pow(x, y));
    return 1;
}

static int math_frexp(lua_State *L)
{
    int exponent;
    lua_pushnumber(L, frexp(luaL_checknumber(L, 1), &exponent));
    lua_pushinteger(L, exponent);
    return 2;
}

static int math_ldexp(lua_State *L)
{
    lua_Number mantissa = luaL_checknumber(L, 1);
    int exponent = (int)luaL_checkinteger(L, 2);
    lua_pushnumber(L, ldexp(mantissa, exponent));
    return 1;
}

/*-------------------------------------------------------------------------
 * Pseudo-random numbers: xoshiro256**
 */

typedef struct RandomState {
    uint64_t s[4];
} RandomState;

static uint64_t rotate_left(uint64_t x, int n)
{
    return (x << n) | (x >> (64 - n));
}

static uint64_t next_random(RandomState *g)
{
    uint64_t *s = g->s;
    uint64_t result = rotate_left(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotate_left(s[3], 45);
    return result;
}

/* A float in [0, 1) from the top 53 bits. */
static lua_Number random_float(uint64_t r)
{
    return (lua_Number)(r >> 11) * (lua_Number)0x1.0p-53;
}

/* A uniform value in [0, n]: mask to the smallest 2^b - 1 covering n and
 * draw again while the masked value is above n (no modulo bias). */
static lua_Unsigned project_into(uint64_t r, lua_Unsigned n, RandomState *g)
{
    if ((n & (n + 1)) == 0) return r & n;     /* n + 1 is a power of two */
    lua_Unsigned mask = n;
    for (int shift = 1; shift < 64; shift *= 2) mask |= mask >> shift;
    while ((r &= mask) > n) r = next_random(g);
    return r;
}

static int math_random(lua_State *L)
{
    RandomState *g = (RandomState *)lua_touserdata(L, lua_upvalueindex(1));
    uint64_t r = next_random(g);
    lua_Integer low, up;
    switch (lua_gettop(L)) {
    case 0:
        lua_pushnumber(L, random_float(r));
        return 1;
    case 1:
        low = 1;
        up = luaL_checkinteger(L, 1);
        if (up == 0) {                         /* all 64 bits */
            lua_pushinteger(L, (lua_Integer)r);
            return 1;
        }
        break;
    case 2:
        low = luaL_checkinteger(L, 1);
        up = luaL_checkinteger(L, 2);
        break;
    default:
        return luaL_error(L, "wrong number of arguments");
    }
    luaL_argcheck(L, low <= up, 1, "interval is empty");
    lua_Unsigned offset = project_into(r, (lua_Unsigned)up - (lua_Unsigned)low, g);
    lua_pushinteger(L, (lua_Integer)(offset + (lua_Unsigned)low));
    return 1;
}

/* Seeds the generator with [n1] and [n2], pushing them (randomseed's
 * results). */
static void seed_random(lua_State *L, RandomState *g, lua_Unsigned n1, lua_Unsigned n2)
{
    g->s[0] = (uint64_t)n1;
    g->s[1] = 0xff;                            /* never an all-zero state */
    g->s[2] = (uint64_t)n2;
    g->s[3] = 0;
    for (int i = 0; i < 16; i++) next_random(g);  /* spread the seed */
    lua_pushinteger(L, (lua_Integer)n1);
    lua_pushinteger(L, (lua_Integer)n2);
}

/* Seeds from the clock and an address: different runs, different numbers. */
static void seed_unpredictably(lua_State *L, RandomState *g)
{
    lua_Unsigned n1 = (lua_Unsigned)time(NULL);
    lua_Unsigned n2 = (lua_Unsigned)(uintptr_t)g ^ (lua_Unsigned)clock();
    seed_random(L, g, n1, n2);
}

static int math_randomseed(lua_State *L)
{
    RandomState *g = (RandomState *)lua_touserdata(L, lua_upvalueindex(1));
    if (lua_isnone(L, 1)) {
        seed_unpredictably(L, g);
    } else {
        lua_Integer n1 = luaL_checkinteger(L, 1);
        lua_Integer n2 = luaL_optinteger(L, 2, 0);
        seed_random(L, g, (lua_Unsigned)n1, (lua_Unsigned)n2);
    }
    return 2;
}

static const luaL_Reg random_functions[] = {
    { "random", math_random },
    { "randomseed", math_randomseed },
    { NULL, NULL },
};

/* Adds random and randomseed, sharing a freshly seeded state, to the
 * table on the top of the stack. */
static void add_random_functions(lua_State *L)
{
    RandomState *g = (RandomState *)lua_newuserdatauv(L, sizeof(RandomState), 0);
    seed_unpredictably(L, g);
    lua_pop(L, 2);                             /* the seeds */
    luaL_setfuncs(L, random_functions, 1);
}

static const luaL_Reg math_functions[] = {
    { "abs", math_abs },
    { "ceil", math_ceil },
    { "floor", math_floor },
    { "fmod", math_fmod },
    { "modf", math_modf },
    { "tointeger", math_tointeger },
    { "ult", math_ult },
    { "max", math_max },
    { "min", math_min },
    { "type", math_type },
    { "sqrt", math_sqrt },
    { "sin", math_sin },
    { "cos", math_cos },
    { "tan", math_tan },
    { "asin", math_asin },
    { "acos", math_acos },
    { "atan", math_atan },
    { "exp", math_exp },
    { "log", math_log },
    { "deg", math_deg },
    { "rad", math_rad },
    { "atan2", math_atan },
    { "cosh", math_cosh },
    { "sinh", math_sinh },
    { "tanh", math_tanh },
    { "pow", math_pow },
    { "frexp", math_frexp },
    { "ldexp", math_ldexp },
    { "log10", math_log10 },
    /* placeholders, set below */
    { "pi", NULL },
    { "huge", NULL },
    { "maxinteger", NULL },
    { "mininteger", NULL },
    { "random", NULL },
    { "randomseed", NULL },
    { NULL, NULL },
};

LUAMOD_API int luaopen_math(lua_State *L)
{
    luaL_newlib(L, math_functions);
    lua_pushnumber(L, PI);
    lua_setfield(L, -2, "pi");
    lua_pushnumber(L, (lua_Number)HUGE_VAL);
    lua_setfield(L, -2, "huge");
    lua_pushinteger(L, LUA_MAXINTEGER);
    lua_setfield(L, -2, "maxinteger");
    lua_pushinteger(L, LUA_MININTEGER);
    lua_setfield(L, -2, "mininteger");
    add_random_functions(L);
    return 1;
}
