/*
 * lib_package.c — the package library (Lua 5.4 manual §6.3): require, the
 * four searchers, package.searchpath and package.loadlib.
 *
 * C libraries are opened with dlopen. Every handle opened is kept in the
 * registry table "_CLIBS" (by path, to open each library once, and in
 * order, by integer key); that table's __gc closes them all, last opened
 * first, when the state closes — after everything that could still call
 * into them has been collected.
 *
 * dlopen and dlsym are POSIX (<dlfcn.h>), within the _POSIX_C_SOURCE the
 * build defines; the program must link with -ldl on older C libraries.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

/*-------------------------------------------------------------------------
 * Default paths: those of Debian's lua5.4 package, the multiarch folder
 * named for the target the compiler builds for.
 */

#if defined(TIDE_MULTIARCH)
#define PKG_MULTIARCH TIDE_MULTIARCH
#elif defined(__linux__) && defined(__x86_64__) && defined(__ILP32__)
#define PKG_MULTIARCH "x86_64-linux-gnux32"
#elif defined(__linux__) && defined(__x86_64__)
#define PKG_MULTIARCH "x86_64-linux-gnu"
#elif defined(__linux__) && defined(__i386__)
#define PKG_MULTIARCH "i386-linux-gnu"
#elif defined(__linux__) && defined(__aarch64__)
#define PKG_MULTIARCH "aarch64-linux-gnu"
#elif defined(__linux__) && defined(__arm__) && defined(__ARM_PCS_VFP)
#define PKG_MULTIARCH "arm-linux-gnueabihf"
#elif defined(__linux__) && defined(__arm__)
#define PKG_MULTIARCH "arm-linux-gnueabi"
#elif defined(__linux__) && defined(__riscv) && __riscv_xlen == 64
#define PKG_MULTIARCH "riscv64-linux-gnu"
#elif defined(__linux__) && defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
#define PKG_MULTIARCH "powerpc64le-linux-gnu"
#elif defined(__linux__) && defined(__s390x__)
#define PKG_MULTIARCH "s390x-linux-gnu"
#endif

#define PKG_LOCAL_SHARE "/usr/local/share/lua/5.4/"
#define PKG_LOCAL_LIB "/usr/local/lib/lua/5.4/"
#define PKG_SHARE "/usr/share/lua/5.4/"
#define PKG_LIB "/usr/lib/lua/5.4/"

#define PKG_DEFAULT_PATH                                                      \
    PKG_LOCAL_SHARE "?.lua;" PKG_LOCAL_SHARE "?/init.lua;"                    \
    PKG_LOCAL_LIB "?.lua;" PKG_LOCAL_LIB "?/init.lua;"                        \
    PKG_SHARE "?.lua;" PKG_SHARE "?/init.lua;"                                \
    "./?.lua;./?/init.lua"

#ifdef PKG_MULTIARCH
#define PKG_MULTIARCH_CPATH "/usr/lib/" PKG_MULTIARCH "/lua/5.4/?.so;"
#else
#define PKG_MULTIARCH_CPATH ""
#endif

#define PKG_DEFAULT_CPATH                                                     \
    PKG_LOCAL_LIB "?.so;" PKG_MULTIARCH_CPATH PKG_LIB "?.so;"                  \
    PKG_LOCAL_LIB "loadall.so;./?.so"

/* package.config: directory separator, template separator, substitution
 * mark, executable-directory mark, mark of the part of a module name that
 * luaopen_ names ignore. */
#define PKG_CONFIG "/\n;\n?\n!\n-\n"

#define PKG_CLIBS_KEY "_CLIBS"

/* lookup_function's results besides 0 (found). */
enum { PKG_ERROR_OPEN = 1, PKG_ERROR_INIT = 2 };

/*-------------------------------------------------------------------------
 * C libraries
 */

/* The handle opened earlier for [path], or NULL. */
static void *pkg_known_library(lua_State *L, const char *path)
{
    lua_getfield(L, LUA_REGISTRYINDEX, PKG_CLIBS_KEY);
    lua_getfield(L, -1, path);
    void *handle = lua_touserdata(L, -1);
    lua_pop(L, 2);
    return handle;
}

static void pkg_remember_library(lua_State *L, const char *path, void *handle)
{
    lua_getfield(L, LUA_REGISTRYINDEX, PKG_CLIBS_KEY);
    lua_pushlightuserdata(L, handle);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, path);
    lua_rawseti(L, -2, luaL_len(L, -2) + 1);
    lua_pop(L, 1);
}

static int pkg_close_libraries(lua_State *L)
{
    for (lua_Integer i = luaL_len(L, 1); i >= 1; i--) {
        lua_rawgeti(L, 1, i);
        dlclose(lua_touserdata(L, -1));
        lua_pop(L, 1);
    }
    return 0;
}

static void pkg_create_libraries_table(lua_State *L)
{
    luaL_getsubtable(L, LUA_REGISTRYINDEX, PKG_CLIBS_KEY);
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, pkg_close_libraries);
    lua_setfield(L, -2, "__gc");
    lua_setmetatable(L, -2);
    lua_pop(L, 1);
}

/* Opens the library at [path] (once) and pushes its C function [symbol],
 * or true when [symbol] is "*" (the library is then opened with its
 * symbols global). On failure pushes dlerror's message and returns
 * PKG_ERROR_OPEN or PKG_ERROR_INIT. */
static int pkg_lookup_function(lua_State *L, const char *path, const char *symbol)
{
    int global = symbol[0] == '*';
    void *handle = pkg_known_library(L, path);
    if (handle == NULL) {
        handle = dlopen(path, RTLD_NOW | (global ? RTLD_GLOBAL : RTLD_LOCAL));
        if (handle == NULL) {
            lua_pushstring(L, dlerror());
            return PKG_ERROR_OPEN;
        }
        pkg_remember_library(L, path, handle);
    }
    if (global) {
        lua_pushboolean(L, 1);
        return 0;
    }
    /* POSIX gives dlsym's result as void *; a function is read out of it. */
    void *address = dlsym(handle, symbol);
    if (address == NULL) {
        lua_pushstring(L, dlerror());
        return PKG_ERROR_INIT;
    }
    lua_CFunction function;
    memcpy(&function, &address, sizeof function);
    lua_pushcfunction(L, function);
    return 0;
}

static int pkg_loadlib(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    const char *symbol = luaL_checkstring(L, 2);
    int status = pkg_lookup_function(L, path, symbol);
    if (status == 0) return 1;
    luaL_pushfail(L);
    lua_insert(L, -2);
    lua_pushstring(L, status == PKG_ERROR_OPEN ? "open" : "init");
    return 3;
}

/* Pushes the open function of module [name] from the library at [path]:
 * luaopen_ and the name with dots as underscores. A name with a hyphen is
 * tried first by its part before the hyphen, then by its part after. */
static int pkg_lookup_open_function(lua_State *L, const char *path, const char *name)
{
    name = luaL_gsub(L, name, ".", "_");
    const char *hyphen = strchr(name, '-');
    if (hyphen != NULL) {
        lua_pushfstring(L, "luaopen_%s", lua_pushlstring(L, name, (size_t)(hyphen - name)));
        int status = pkg_lookup_function(L, path, lua_tostring(L, -1));
        if (status != PKG_ERROR_INIT) return status;
        lua_pop(L, 3); /* prefix, symbol, message */
        name = hyphen + 1;
    }
    return pkg_lookup_function(L, path, lua_pushfstring(L, "luaopen_%s", name));
}

/*-------------------------------------------------------------------------
 * Searching paths
 */

static int pkg_is_readable(const char *filename)
{
    FILE *f = fopen(filename, "r");
    if (f == NULL) return 0;
    fclose(f);
    return 1;
}

/* Pushes the first file of [path] (templates already holding the name)
 * that can be read and returns it; or pushes the message listing every
 * template and returns NULL. */
static const char *pkg_search_templates(lua_State *L, const char *path)
{
    const char *start = path;
    while (*path != '\0') {
        const char *end = strchr(start, ';');
        size_t length = end == NULL ? strlen(start) : (size_t)(end - start);
        const char *filename = lua_pushlstring(L, start, length);
        if (pkg_is_readable(filename)) return filename;
        lua_pop(L, 1);
        if (end == NULL) break;
        start = end + 1;
    }
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, "no file '");
    luaL_addgsub(&b, path, ";", "'\n\tno file '");
    luaL_addstring(&b, "'");
    luaL_pushresult(&b);
    return NULL;
}

/* package.searchpath's work: [name] with [separator] turned into
 * [replacement], put for each '?' of [path]. Leaves one value on the
 * stack, the file found or the message, and says whether it found one. */
static int pkg_search_path(lua_State *L, const char *name, const char *path,
                           const char *separator, const char *replacement)
{
    int base = lua_gettop(L);
    if (separator[0] != '\0' && strchr(name, separator[0]) != NULL)
        name = luaL_gsub(L, name, separator, replacement);
    const char *templates = luaL_gsub(L, path, "?", name);
    int found = pkg_search_templates(L, templates) != NULL;
    lua_replace(L, base + 1); /* drop the templates (and the changed name) */
    lua_settop(L, base + 1);
    return found;
}

static int pkg_searchpath(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    const char *path = luaL_checkstring(L, 2);
    const char *separator = luaL_optstring(L, 3, ".");
    const char *replacement = luaL_optstring(L, 4, "/");
    lua_settop(L, 4);
    if (pkg_search_path(L, name, path, separator, replacement)) return 1;
    luaL_pushfail(L);
    lua_insert(L, -2);
    return 2;
}

/* Searches the package field [field] ("path" or "cpath") for [name];
 * pushes the file found (and returns it) or the message (and returns
 * NULL). */
static const char *pkg_search_field(lua_State *L, const char *name, const char *field)
{
    lua_getfield(L, lua_upvalueindex(1), field);
    const char *path = lua_tostring(L, -1);
    if (path == NULL) luaL_error(L, "'package.%s' must be a string", field);
    int found = pkg_search_path(L, name, path, ".", "/");
    lua_remove(L, -2);
    return found ? lua_tostring(L, -1) : NULL;
}

/*-------------------------------------------------------------------------
 * Searchers. Each returns a loader and its data, or a message saying
 * what it tried, or nothing.
 */

/* Returns the loader on top and [filename] as its data, or raises the
 * error that loading it gave. */
static int pkg_loader_or_error(lua_State *L, int loaded, const char *filename)
{
    if (loaded) {
        lua_pushstring(L, filename);
        return 2;
    }
    return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s",
                      lua_tostring(L, 1), filename, lua_tostring(L, -1));
}

static int pkg_searcher_preload(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    if (lua_getfield(L, -1, name) == LUA_TNIL) {
        lua_pushfstring(L, "no field package.preload['%s']", name);
        return 1;
    }
    lua_pushliteral(L, ":preload:");
    return 2;
}

static int pkg_searcher_lua(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    const char *filename = pkg_search_field(L, name, "path");
    if (filename == NULL) return 1;
    return pkg_loader_or_error(L, luaL_loadfile(L, filename) == LUA_OK, filename);
}

static int pkg_searcher_c(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    const char *filename = pkg_search_field(L, name, "cpath");
    if (filename == NULL) return 1;
    return pkg_loader_or_error(L, pkg_lookup_open_function(L, filename, name) == 0, filename);
}

/* "a.b.c" from the C library of "a", which may hold several modules. */
static int pkg_searcher_c_root(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    const char *dot = strchr(name, '.');
    if (dot == NULL) return 0;
    lua_pushlstring(L, name, (size_t)(dot - name));
    const char *filename = pkg_search_field(L, lua_tostring(L, -1), "cpath");
    if (filename == NULL) return 1;
    int status = pkg_lookup_open_function(L, filename, name);
    if (status == PKG_ERROR_INIT) {
        lua_pushfstring(L, "no module '%s' in file '%s'", name, filename);
        return 1;
    }
    return pkg_loader_or_error(L, status == 0, filename);
}

/*-------------------------------------------------------------------------
 * require
 */

/* Pushes the loader of [name] and its data from the first searcher that
 * has one; otherwise the error lists what every searcher tried. */
static void pkg_find_loader(lua_State *L, const char *name)
{
    if (lua_getfield(L, lua_upvalueindex(1), "searchers") != LUA_TTABLE)
        luaL_error(L, "'package.searchers' must be a table");
    int searchers = lua_gettop(L);
    luaL_Buffer tried;
    luaL_buffinit(L, &tried);
    for (lua_Integer i = 1;; i++) {
        if (lua_rawgeti(L, searchers, i) == LUA_TNIL) {
            lua_pop(L, 1);
            luaL_pushresult(&tried);
            luaL_error(L, "module '%s' not found:%s", name, lua_tostring(L, -1));
        }
        lua_pushstring(L, name);
        lua_call(L, 1, 2);
        if (lua_isfunction(L, -2)) return;
        if (lua_isstring(L, -2)) {
            lua_pop(L, 1);
            /* one value added: the stack stays as the buffer expects */
            lua_pushfstring(L, "\n\t%s", lua_tostring(L, -1));
            lua_remove(L, -2);
            luaL_addvalue(&tried);
        } else {
            lua_pop(L, 2);
        }
    }
}

static int pkg_require(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    lua_settop(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE); /* 2 */
    if (lua_getfield(L, 2, name) != LUA_TNIL && lua_toboolean(L, -1)) return 1;
    lua_pop(L, 1);
    pkg_find_loader(L, name);
    int data = lua_gettop(L), loader = data - 1;
    lua_pushvalue(L, loader);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, data);
    lua_call(L, 2, 1);
    if (!lua_isnil(L, -1)) lua_setfield(L, 2, name);
    else lua_pop(L, 1);
    if (lua_getfield(L, 2, name) == LUA_TNIL) { /* nothing stored: true */
        lua_pop(L, 1);
        lua_pushboolean(L, 1);
        lua_pushvalue(L, -1);
        lua_setfield(L, 2, name);
    }
    lua_pushvalue(L, data);
    return 2;
}

/*-------------------------------------------------------------------------
 * Opening the library
 */

/* Pushes the value of the environment variable [variable] ("LUA_PATH" or
 * "LUA_CPATH", its _5_4 form first) with its first ";;" replaced by
 * [fallback]; [fallback] alone when neither is set or the registry's
 * LUA_NOENV asks to ignore the environment (lua -E). */
static void pkg_push_path(lua_State *L, const char *variable, const char *fallback)
{
    const char *versioned = lua_pushfstring(L, "%s_5_4", variable);
    const char *value = getenv(versioned);
    if (value == NULL) value = getenv(variable);
    lua_pop(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, "LUA_NOENV");
    int ignore_environment = lua_toboolean(L, -1);
    lua_pop(L, 1);
    const char *mark = value == NULL ? NULL : strstr(value, ";;");
    if (value == NULL || ignore_environment) {
        lua_pushstring(L, fallback);
    } else if (mark == NULL) {
        lua_pushstring(L, value);
    } else {
        const char *after = mark + 2;
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        luaL_addlstring(&b, value, (size_t)(mark - value));
        if (mark > value) luaL_addchar(&b, ';');
        luaL_addstring(&b, fallback);
        if (*after != '\0') luaL_addchar(&b, ';');
        luaL_addstring(&b, after);
        luaL_pushresult(&b);
    }
}

static void pkg_create_searchers(lua_State *L)
{
    static const lua_CFunction searchers[] = {
        pkg_searcher_preload, pkg_searcher_lua, pkg_searcher_c, pkg_searcher_c_root,
    };
    int count = (int)(sizeof searchers / sizeof searchers[0]);
    lua_createtable(L, count, 0);
    for (int i = 0; i < count; i++) {
        lua_pushvalue(L, -2); /* the package table, their upvalue */
        lua_pushcclosure(L, searchers[i], 1);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "searchers");
}

static const luaL_Reg pkg_functions[] = {
    { "loadlib", pkg_loadlib },
    { "searchpath", pkg_searchpath },
    { "preload", NULL },
    { "cpath", NULL },
    { "path", NULL },
    { "searchers", NULL },
    { "loaded", NULL },
    { NULL, NULL },
};

static const luaL_Reg pkg_global_functions[] = {
    { "require", pkg_require },
    { NULL, NULL },
};

LUAMOD_API int luaopen_package(lua_State *L)
{
    pkg_create_libraries_table(L);
    luaL_newlib(L, pkg_functions);
    pkg_create_searchers(L);
    pkg_push_path(L, "LUA_PATH", PKG_DEFAULT_PATH);
    lua_setfield(L, -2, "path");
    pkg_push_path(L, "LUA_CPATH", PKG_DEFAULT_CPATH);
    lua_setfield(L, -2, "cpath");
    lua_pushliteral(L, PKG_CONFIG);
    lua_setfield(L, -2, "config");
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_setfield(L, -2, "loaded");
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_setfield(L, -2, "preload");
    lua_pushglobaltable(L);
    lua_pushvalue(L, -2);
    luaL_setfuncs(L, pkg_global_functions, 1);
    lua_pop(L, 1);
    return 1;
}
