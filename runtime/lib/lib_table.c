/*
 * lib_table.c — the table library (manual §6.6): concat, insert, move,
 * pack, unpack, remove, sort.
 *
 * Every element access goes through lua_geti/lua_seti and every length
 * through luaL_len, so __index, __newindex and __len are honoured as in
 * Lua 5.4; a non-table argument is accepted when its metatable has the
 * metamethods the function needs.
 *
 * table.sort is an introsort: quicksort with a median-of-three pivot down
 * to three elements, switching to heapsort for a range once the partition
 * depth passes twice its log2 size, so no input makes it quadratic. The
 * partition scans rely on sentinels that a consistent order function
 * guarantees; a scan running past one proves the order function
 * inconsistent and raises "invalid order function for sorting".
 */
#include <limits.h>
#include <stdint.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

/* What a function does to its table argument. */
enum { TAB_READ = 1, TAB_WRITE = 2, TAB_LENGTH = 4 };

/* Whether the metatable on the top of the stack has the field [event];
 * the looked-up value stays pushed. */
static int has_metafield(lua_State *L, const char *event)
{
    lua_pushstring(L, event);
    return lua_rawget(L, -2) != LUA_TNIL;
}

/* Checks that argument [arg] is a table, or has a metatable with the
 * metamethods that [needs] (TAB_*) calls for. */
static void check_table_like(lua_State *L, int arg, int needs)
{
    if (lua_type(L, arg) == LUA_TTABLE) return;
    int top = lua_gettop(L);
    int ok = lua_getmetatable(L, arg);
    if (ok && (needs & TAB_READ)) {
        ok = has_metafield(L, "__index");
        lua_pop(L, 1);
    }
    if (ok && (needs & TAB_WRITE)) {
        ok = has_metafield(L, "__newindex");
        lua_pop(L, 1);
    }
    if (ok && (needs & TAB_LENGTH)) {
        ok = has_metafield(L, "__len");
        lua_pop(L, 1);
    }
    lua_settop(L, top);
    if (!ok) luaL_checktype(L, arg, LUA_TTABLE);  /* raises the type error */
}

/* The length of argument [arg], after checking it supports [needs]. */
static lua_Integer checked_length(lua_State *L, int arg, int needs)
{
    check_table_like(L, arg, needs | TAB_LENGTH);
    return luaL_len(L, arg);
}

/*-------------------------------------------------------------------------
 * insert, remove, move
 */

static int table_insert(lua_State *L)
{
    lua_Integer end = luaL_intop(+, checked_length(L, 1, TAB_READ | TAB_WRITE), 1);
    lua_Integer pos;
    switch (lua_gettop(L)) {
    case 2:
        pos = end;                             /* append */
        break;
    case 3:
        pos = luaL_checkinteger(L, 2);
        /* 1 <= pos <= end, compared unsigned so that one test covers both */
        luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)end, 2,
                      "position out of bounds");
        for (lua_Integer i = end; i > pos; i--) {
            lua_geti(L, 1, i - 1);
            lua_seti(L, 1, i);
        }
        break;
    default:
        return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    lua_seti(L, 1, pos);                       /* the value is on the top */
    return 0;
}

static int table_remove(lua_State *L)
{
    lua_Integer size = checked_length(L, 1, TAB_READ | TAB_WRITE);
    lua_Integer pos = luaL_optinteger(L, 2, size);
    /* 1 <= pos <= size + 1; stock Lua 5.4.4 blames argument #1 here, and
     * the message is kept identical */
    if (pos != size)
        luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 1,
                      "position out of bounds");
    lua_geti(L, 1, pos);                       /* the result */
    for (; pos < size; pos++) {
        lua_geti(L, 1, pos + 1);
        lua_seti(L, 1, pos);
    }
    lua_pushnil(L);
    lua_seti(L, 1, pos);
    return 1;
}

static void copy_elements(lua_State *L, int dest, lua_Integer from, lua_Integer to,
                          lua_Integer count, int backwards)
{
    if (backwards) {
        for (lua_Integer i = count - 1; i >= 0; i--) {
            lua_geti(L, 1, from + i);
            lua_seti(L, dest, to + i);
        }
    } else {
        for (lua_Integer i = 0; i < count; i++) {
            lua_geti(L, 1, from + i);
            lua_seti(L, dest, to + i);
        }
    }
}

static int table_move(lua_State *L)
{
    lua_Integer first = luaL_checkinteger(L, 2);
    lua_Integer last = luaL_checkinteger(L, 3);
    lua_Integer to = luaL_checkinteger(L, 4);
    int dest = !lua_isnoneornil(L, 5) ? 5 : 1;
    check_table_like(L, 1, TAB_READ);
    check_table_like(L, dest, TAB_WRITE);
    if (last >= first) {
        luaL_argcheck(L, first > 0 || last < LUA_MAXINTEGER + first, 3,
                      "too many elements to move");
        lua_Integer count = last - first + 1;
        luaL_argcheck(L, to <= LUA_MAXINTEGER - count + 1, 4, "destination wrap around");
        /* Copying forwards would overwrite elements not yet read only when
         * the destination starts inside the source range, in the same table. */
        int overlapping = to > first && to <= last &&
                          (dest == 1 || lua_compare(L, 1, dest, LUA_OPEQ));
        copy_elements(L, dest, first, to, count, overlapping);
    }
    lua_pushvalue(L, dest);
    return 1;
}

/*-------------------------------------------------------------------------
 * concat, pack, unpack
 */

static void add_element(lua_State *L, luaL_Buffer *b, lua_Integer i)
{
    lua_geti(L, 1, i);
    if (!lua_isstring(L, -1))
        luaL_error(L, "invalid value (%s) at index %I in table for 'concat'",
                   luaL_typename(L, -1), i);
    luaL_addvalue(b);
}

static int table_concat(lua_State *L)
{
    lua_Integer last = checked_length(L, 1, TAB_READ);
    size_t sep_len;
    const char *sep = luaL_optlstring(L, 2, "", &sep_len);
    lua_Integer i = luaL_optinteger(L, 3, 1);
    last = luaL_optinteger(L, 4, last);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (; i < last; i++) {
        add_element(L, &b, i);
        luaL_addlstring(&b, sep, sep_len);
    }
    if (i == last) add_element(L, &b, i);      /* the range was not empty */
    luaL_pushresult(&b);
    return 1;
}

static int table_pack(lua_State *L)
{
    int n = lua_gettop(L);
    lua_createtable(L, n, 1);
    lua_insert(L, 1);
    for (int i = n; i >= 1; i--) lua_seti(L, 1, i);
    lua_pushinteger(L, n);
    lua_setfield(L, 1, "n");
    return 1;
}

static int table_unpack(lua_State *L)
{
    lua_Integer i = luaL_optinteger(L, 2, 1);
    lua_Integer last = luaL_opt(L, luaL_checkinteger, 3, luaL_len(L, 1));
    if (i > last) return 0;
    lua_Unsigned count = (lua_Unsigned)last - (lua_Unsigned)i;  /* minus one */
    if (count >= (lua_Unsigned)INT_MAX || !lua_checkstack(L, (int)(++count)))
        return luaL_error(L, "too many results to unpack");
    for (; i < last; i++) lua_geti(L, 1, i);  /* stops before 'last': no overflow */
    lua_geti(L, 1, last);
    return (int)count;
}

/*-------------------------------------------------------------------------
 * sort
 *
 * The table is argument 1 and the order function (or nil) argument 2.
 */

static int invalid_order(lua_State *L)
{
    return luaL_error(L, "invalid order function for sorting");
}

/* Whether the value at [a] sorts before the value at [b]; both are
 * negative (relative to the top) indices. */
static int sort_less(lua_State *L, int a, int b)
{
    if (lua_isnil(L, 2)) return lua_compare(L, a, b, LUA_OPLT);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, a - 1);                   /* one more value above it now */
    lua_pushvalue(L, b - 2);                   /* and two above this one */
    lua_call(L, 2, 1);
    int less = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return less;
}

/* Puts t[i] and t[j] in order (swapping them if t[j] < t[i]). */
static void order_pair(lua_State *L, lua_Integer i, lua_Integer j)
{
    lua_geti(L, 1, i);
    lua_geti(L, 1, j);
    if (sort_less(L, -1, -2)) {
        lua_seti(L, 1, i);
        lua_seti(L, 1, j);
    } else {
        lua_pop(L, 2);
    }
}

static void swap_elements(lua_State *L, lua_Integer i, lua_Integer j)
{
    lua_geti(L, 1, i);
    lua_geti(L, 1, j);
    lua_seti(L, 1, i);
    lua_seti(L, 1, j);
}

/*
 * Orders t[lo], t[mid], t[up] so that t[lo] <= t[mid] <= t[up], with two
 * or three comparisons.
 */
static void order_three(lua_State *L, lua_Integer lo, lua_Integer mid, lua_Integer up)
{
    order_pair(L, lo, up);
    lua_geti(L, 1, mid);
    lua_geti(L, 1, lo);
    if (sort_less(L, -2, -1)) {                /* t[mid] < t[lo] <= t[up] */
        lua_seti(L, 1, mid);
        lua_seti(L, 1, lo);
        return;
    }
    lua_pop(L, 1);
    lua_geti(L, 1, up);                        /* stack: t[mid], t[up] */
    if (sort_less(L, -1, -2)) {                /* t[lo] <= t[up] < t[mid] */
        lua_seti(L, 1, mid);
        lua_seti(L, 1, up);
        return;
    }
    lua_pop(L, 2);
}

/*
 * Puts the median of t[lo], t[mid], t[up] at mid, moves it to
 * t[up - 1] and leaves it pushed as the pivot. Afterwards t[lo] <= pivot
 * <= t[up]: the sentinels of the partition scans.
 */
static void push_median_pivot(lua_State *L, lua_Integer lo, lua_Integer mid, lua_Integer up)
{
    order_three(L, lo, mid, up);
    lua_geti(L, 1, mid);                       /* the pivot */
    lua_geti(L, 1, up - 1);
    lua_seti(L, 1, mid);
    lua_pushvalue(L, -1);
    lua_seti(L, 1, up - 1);
}

/*
 * Partitions t[lo..up] (at least four elements) around the median of
 * t[lo], t[mid], t[up]; returns the pivot's final index p, with
 * t[lo..p-1] <= t[p] <= t[p+1..up].
 */
static lua_Integer partition(lua_State *L, lua_Integer lo, lua_Integer mid, lua_Integer up)
{
    push_median_pivot(L, lo, mid, up);         /* stack: pivot */
    lua_Integer i = lo, j = up - 1;
    for (;;) {
        /* up to an element not below the pivot; t[up - 1] is the pivot
         * itself, where a consistent order stops */
        for (;;) {
            lua_geti(L, 1, ++i);               /* stack: pivot, t[i] */
            if (!sort_less(L, -1, -2)) break;
            if (i == up - 1) invalid_order(L);
            lua_pop(L, 1);
        }
        /* down to an element not above the pivot; t[lo] <= pivot stops it */
        for (;;) {
            lua_geti(L, 1, --j);               /* stack: pivot, t[i], t[j] */
            if (!sort_less(L, -3, -1)) break;
            if (j == lo) invalid_order(L);
            lua_pop(L, 1);
        }
        /* stack: pivot, t[i], t[j] */
        if (j < i) {
            lua_pop(L, 3);
            break;
        }
        lua_seti(L, 1, i);                     /* swap through the stack */
        lua_seti(L, 1, j);
    }
    swap_elements(L, i, up - 1);               /* the pivot into place */
    return i;
}

/* Moves t[root] down the max-heap of t[lo..lo+size-1] (1-based heap
 * positions 'root' counted from lo). */
static void sift_down(lua_State *L, lua_Integer lo, lua_Integer root, lua_Integer size)
{
    for (;;) {
        lua_Integer child = 2 * root;
        if (child > size) return;
        if (child < size) {                    /* the larger of two children */
            lua_geti(L, 1, lo + child - 1);
            lua_geti(L, 1, lo + child);
            if (sort_less(L, -2, -1)) child++;
            lua_pop(L, 2);
        }
        lua_geti(L, 1, lo + root - 1);
        lua_geti(L, 1, lo + child - 1);
        if (!sort_less(L, -2, -1)) {
            lua_pop(L, 2);
            return;
        }
        lua_seti(L, 1, lo + root - 1);
        lua_seti(L, 1, lo + child - 1);
        root = child;
    }
}

/* Heapsort of t[lo..up]: the fallback that bounds the worst case. */
static void heap_sort(lua_State *L, lua_Integer lo, lua_Integer up)
{
    lua_Integer size = up - lo + 1;
    for (lua_Integer root = size / 2; root >= 1; root--) sift_down(L, lo, root, size);
    for (lua_Integer last = size; last > 1; last--) {
        swap_elements(L, lo, lo + last - 1);
        sift_down(L, lo, 1, last - 1);
    }
}

/* Ranges at least this long may take their middle pivot candidate from a
 * scattered position (see intro_sort). */
enum { SCATTER_MIN_RANGE = 100 };

/* A xorshift step: the scattered candidate positions. */
static uint32_t next_scatter(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

/* The middle candidate for the pivot of t[lo..up]: the middle element, or
 * once a partition has come out lopsided (*scatter != 0), a pseudo-random
 * element of the middle half, which breaks up patterns that keep the
 * middle element extreme. */
static lua_Integer pivot_candidate(lua_Integer lo, lua_Integer up, uint32_t *scatter)
{
    lua_Integer size = up - lo + 1;
    if (*scatter == 0 || size < SCATTER_MIN_RANGE) return lo + (up - lo) / 2;
    lua_Integer quarter = size / 4;
    return lo + quarter + (lua_Integer)(next_scatter(scatter) % (uint32_t)(2 * quarter));
}

/* Sorts t[lo..up]; [depth] partitions may still be spent before heapsort. */
static void intro_sort(lua_State *L, lua_Integer lo, lua_Integer up, int depth, uint32_t *scatter)
{
    while (up - lo >= 3) {
        if (depth-- == 0) {
            heap_sort(L, lo, up);
            return;
        }
        lua_Integer p = partition(L, lo, pivot_candidate(lo, up, scatter), up);
        lua_Integer smaller = p - lo < up - p ? p - lo : up - p;
        if (*scatter == 0 && smaller < (up - lo) / 32)
            *scatter = 0x9E3779B9u ^ (uint32_t)up;  /* any nonzero seed */
        if (p - lo < up - p) {                 /* recurse into the smaller side */
            intro_sort(L, lo, p - 1, depth, scatter);
            lo = p + 1;
        } else {
            intro_sort(L, p + 1, up, depth, scatter);
            up = p - 1;
        }
    }
    if (up - lo == 2) {
        order_three(L, lo, lo + 1, up);
    } else if (up - lo == 1) {
        order_pair(L, lo, up);
    }
}

static int floor_log2(lua_Integer n)
{
    int log = 0;
    while (n > 1) {
        n >>= 1;
        log++;
    }
    return log;
}

static int table_sort(lua_State *L)
{
    lua_Integer n = checked_length(L, 1, TAB_READ | TAB_WRITE);
    if (n > 1) {
        luaL_argcheck(L, n < INT_MAX, 1, "array too big");
        if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
        lua_settop(L, 2);
        uint32_t scatter = 0;
        intro_sort(L, 1, n, 2 * floor_log2(n), &scatter);
    }
    return 0;
}

static const luaL_Reg table_functions[] = {
    { "concat", table_concat },
    { "insert", table_insert },
    { "pack", table_pack },
    { "unpack", table_unpack },
    { "remove", table_remove },
    { "move", table_move },
    { "sort", table_sort },
    { NULL, NULL },
};

LUAMOD_API int luaopen_table(lua_State *L)
{
    luaL_newlib(L, table_functions);
    return 1;
}
