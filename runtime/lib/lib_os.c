/*
 * lib_os.c — the os library (Lua 5.4 manual §6.9): time and dates, the
 * process (exit, execute, getenv, clock), files by name (remove, rename,
 * tmpname) and the locale.
 *
 * Times are integers of time_t seconds; dates go through the C library's
 * localtime_r/gmtime_r, mktime and strftime, with the conversion
 * specifiers C99 defines checked before strftime sees them.
 */
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

/* Room strftime gets for one conversion (every C99 conversion fits). */
#define OS_CONVERSION_ROOM 250

/*-------------------------------------------------------------------------
 * Times and date tables
 */

static time_t os_check_time(lua_State *L, int arg)
{
    lua_Integer t = luaL_checkinteger(L, arg);
    luaL_argcheck(L, (lua_Integer)(time_t)t == t, arg, "time out-of-bounds");
    return (time_t)t;
}

static void os_set_field(lua_State *L, const char *key, int value, int delta)
{
    lua_pushinteger(L, (lua_Integer)value + delta);
    lua_setfield(L, -2, key);
}

/* Fills the table on top with the fields of [date], as os.date("*t")
 * returns them and os.time normalizes them. */
static void os_set_date_fields(lua_State *L, const struct tm *date)
{
    os_set_field(L, "year", date->tm_year, 1900);
    os_set_field(L, "month", date->tm_mon, 1);
    os_set_field(L, "day", date->tm_mday, 0);
    os_set_field(L, "hour", date->tm_hour, 0);
    os_set_field(L, "min", date->tm_min, 0);
    os_set_field(L, "sec", date->tm_sec, 0);
    os_set_field(L, "yday", date->tm_yday, 1);
    os_set_field(L, "wday", date->tm_wday, 1);
    if (date->tm_isdst < 0) return; /* unknown: no field */
    lua_pushboolean(L, date->tm_isdst);
    lua_setfield(L, -2, "isdst");
}

/* Reads the integer field [key] of the table on top, less [delta], which
 * must fit a C int; a missing field takes [fallback], or is an error when
 * [fallback] is negative. */
static int os_get_field(lua_State *L, const char *key, int fallback, int delta)
{
    int isnum;
    int type = lua_getfield(L, -1, key);
    lua_Integer value = lua_tointegerx(L, -1, &isnum);
    if (!isnum) {
        if (type != LUA_TNIL) return luaL_error(L, "field '%s' is not an integer", key);
        if (fallback < 0) return luaL_error(L, "field '%s' missing in date table", key);
        value = fallback;
    } else {
        int fits = value >= 0 ? value - delta <= INT_MAX : value >= (lua_Integer)INT_MIN + delta;
        if (!fits) return luaL_error(L, "field '%s' is out-of-bound", key);
        value -= delta;
    }
    lua_pop(L, 1);
    return (int)value;
}

static int os_get_dst_field(lua_State *L)
{
    int isdst = lua_getfield(L, -1, "isdst") == LUA_TNIL ? -1 : lua_toboolean(L, -1);
    lua_pop(L, 1);
    return isdst;
}

/* The time a date table stands for; normalizes the table's fields. */
static time_t os_time_of_table(lua_State *L)
{
    struct tm date;
    memset(&date, 0, sizeof date);
    date.tm_year = os_get_field(L, "year", -1, 1900);
    date.tm_mon = os_get_field(L, "month", -1, 1);
    date.tm_mday = os_get_field(L, "day", -1, 0);
    date.tm_hour = os_get_field(L, "hour", 12, 0);
    date.tm_min = os_get_field(L, "min", 0, 0);
    date.tm_sec = os_get_field(L, "sec", 0, 0);
    date.tm_isdst = os_get_dst_field(L);
    time_t t = mktime(&date);
    os_set_date_fields(L, &date);
    return t;
}

/*-------------------------------------------------------------------------
 * os.date's conversions
 */

/* The conversions C99's strftime defines: plain, then after E, then
 * after O. */
static const char os_plain_conversions[] = "aAbBcCdDeFgGhHIjmMnprRStTuUVwWxXyYzZ%";
static const char os_e_conversions[] = "cCxXyY";
static const char os_o_conversions[] = "deHImMSuUVwWy";

/* The length of the conversion [spec] starts with (after its '%'), or an
 * argument error naming it. */
static size_t os_conversion_length(lua_State *L, const char *spec, size_t left)
{
    if (left >= 1 && spec[0] != '\0' && strchr(os_plain_conversions, spec[0]) != NULL) return 1;
    if (left >= 2 && spec[1] != '\0') {
        if (spec[0] == 'E' && strchr(os_e_conversions, spec[1]) != NULL) return 2;
        if (spec[0] == 'O' && strchr(os_o_conversions, spec[1]) != NULL) return 2;
    }
    const char *message = lua_pushfstring(L, "invalid conversion specifier '%%%s'", spec);
    return (size_t)luaL_argerror(L, 1, message);
}

static void os_format_date(lua_State *L, const char *format, size_t length, const struct tm *date)
{
    const char *end = format + length;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    while (format < end) {
        if (*format != '%') {
            luaL_addchar(&b, *format++);
            continue;
        }
        format++;
        size_t spec_length = os_conversion_length(L, format, (size_t)(end - format));
        char conversion[4] = { '%', format[0], spec_length == 2 ? format[1] : '\0', '\0' };
        format += spec_length;
        char *room = luaL_prepbuffsize(&b, OS_CONVERSION_ROOM);
        luaL_addsize(&b, strftime(room, OS_CONVERSION_ROOM, conversion, date));
    }
    luaL_pushresult(&b);
}

/*-------------------------------------------------------------------------
 * os.* functions
 */

static int os_clock(lua_State *L)
{
    lua_pushnumber(L, (lua_Number)clock() / (lua_Number)CLOCKS_PER_SEC);
    return 1;
}

static int os_date(lua_State *L)
{
    size_t length;
    const char *format = luaL_optlstring(L, 1, "%c", &length);
    time_t t = lua_isnoneornil(L, 2) ? time(NULL) : os_check_time(L, 2);
    int utc = format[0] == '!';
    if (utc) {
        format++;
        length--;
    }
    struct tm date;
    struct tm *filled = utc ? gmtime_r(&t, &date) : localtime_r(&t, &date);
    if (filled == NULL)
        return luaL_error(L, "date result cannot be represented in this installation");
    if (strcmp(format, "*t") == 0) {
        lua_createtable(L, 0, 9);
        os_set_date_fields(L, &date);
    } else {
        os_format_date(L, format, length, &date);
    }
    return 1;
}

static int os_difftime(lua_State *L)
{
    time_t t1 = os_check_time(L, 1);
    time_t t2 = os_check_time(L, 2);
    lua_pushnumber(L, (lua_Number)difftime(t1, t2));
    return 1;
}

static int os_execute(lua_State *L)
{
    const char *command = luaL_optstring(L, 1, NULL);
    if (command == NULL) {
        lua_pushboolean(L, system(NULL));
        return 1;
    }
    errno = 0;
    return luaL_execresult(L, system(command));
}

static int os_exit(lua_State *L)
{
    int status;
    if (lua_isboolean(L, 1)) status = lua_toboolean(L, 1) ? EXIT_SUCCESS : EXIT_FAILURE;
    else status = (int)luaL_optinteger(L, 1, EXIT_SUCCESS);
    if (lua_toboolean(L, 2)) lua_close(L);
    exit(status);
}

static int os_getenv(lua_State *L)
{
    lua_pushstring(L, getenv(luaL_checkstring(L, 1))); /* NULL pushes nil */
    return 1;
}

static int os_remove(lua_State *L)
{
    const char *filename = luaL_checkstring(L, 1);
    errno = 0;
    return luaL_fileresult(L, remove(filename) == 0, filename);
}

static int os_rename(lua_State *L)
{
    const char *from = luaL_checkstring(L, 1);
    const char *to = luaL_checkstring(L, 2);
    errno = 0;
    return luaL_fileresult(L, rename(from, to) == 0, NULL);
}

static int os_setlocale(lua_State *L)
{
    static const int categories[] = {
        LC_ALL, LC_COLLATE, LC_CTYPE, LC_MONETARY, LC_NUMERIC, LC_TIME,
    };
    static const char *const names[] = {
        "all", "collate", "ctype", "monetary", "numeric", "time", NULL,
    };
    const char *locale = luaL_optstring(L, 1, NULL);
    int category = categories[luaL_checkoption(L, 2, "all", names)];
    lua_pushstring(L, setlocale(category, locale));
    return 1;
}

static int os_time(lua_State *L)
{
    time_t t;
    if (lua_isnoneornil(L, 1)) {
        t = time(NULL);
    } else {
        luaL_checktype(L, 1, LUA_TTABLE);
        lua_settop(L, 1);
        t = os_time_of_table(L);
    }
    /* mktime's -1 is its error, even where it could be a real time */
    if ((time_t)(lua_Integer)t != t || t == (time_t)-1)
        return luaL_error(L, "time result cannot be represented in this installation");
    lua_pushinteger(L, (lua_Integer)t);
    return 1;
}

/* A name no file had, under /tmp. mkstemp creates the file (tmpnam would
 * race another process to it); the caller gets an empty file. */
static int os_tmpname(lua_State *L)
{
    char name[] = "/tmp/lua_XXXXXX";
    int fd = mkstemp(name);
    if (fd == -1) return luaL_error(L, "unable to generate a unique filename");
    close(fd);
    lua_pushstring(L, name);
    return 1;
}

static const luaL_Reg os_functions[] = {
    { "clock", os_clock },
    { "date", os_date },
    { "difftime", os_difftime },
    { "execute", os_execute },
    { "exit", os_exit },
    { "getenv", os_getenv },
    { "remove", os_remove },
    { "rename", os_rename },
    { "setlocale", os_setlocale },
    { "time", os_time },
    { "tmpname", os_tmpname },
    { NULL, NULL },
};

LUAMOD_API int luaopen_os(lua_State *L)
{
    luaL_newlib(L, os_functions);
    return 1;
}
