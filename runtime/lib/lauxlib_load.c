/*
 * lauxlib_load.c — getting chunks into a state, and the state itself:
 * luaL_loadfilex (files and stdin, with a leading '#' line and a UTF-8
 * byte-order mark skipped, text or precompiled), luaL_loadbufferx,
 * luaL_loadstring, and luaL_newstate with its allocator, panic function
 * and warning function.
 *
 * Warnings start off. The warning function is a small state machine whose
 * state is which of three functions is installed: "off" (only control
 * messages act), "on" (a new message starts with "Lua warning: "), and
 * "continuing" (the previous piece said more was coming).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"

/*-------------------------------------------------------------------------
 * Files
 */

typedef struct FileReader {
    FILE *f;
    size_t pending;          /* bytes at the start of [buffer] not yet handed out */
    char buffer[BUFSIZ];
} FileReader;

static const char *read_file_piece(lua_State *L, void *ud, size_t *size)
{
    FileReader *r = (FileReader *)ud;
    (void)L;
    if (r->pending > 0) {                      /* what sniffing the start read */
        *size = r->pending;
        r->pending = 0;
        return r->buffer;
    }
    if (feof(r->f)) return NULL;
    *size = fread(r->buffer, 1, sizeof r->buffer, r->f);
    return r->buffer;
}

/* Reads past a UTF-8 byte-order mark and returns the character after it.
 * The bytes of an incomplete mark stay pending: they are part of the text. */
static int skip_byte_order_mark(FileReader *r)
{
    static const unsigned char mark[] = { 0xEF, 0xBB, 0xBF };
    r->pending = 0;
    for (size_t i = 0; i < sizeof mark; i++) {
        int c = getc(r->f);
        if (c != mark[i]) return c;
        r->buffer[r->pending++] = (char)c;
    }
    r->pending = 0;
    return getc(r->f);
}

/* Skips the mark and a first line that starts with '#' (as in "#!/usr/bin/lua").
 * Stores the next character in [first]; returns whether a line was skipped. */
static int skip_prelude(FileReader *r, int *first)
{
    int c = skip_byte_order_mark(r);
    *first = c;
    if (c != '#') return 0;
    do c = getc(r->f);
    while (c != EOF && c != '\n');
    *first = getc(r->f);
    return 1;
}

/* Replaces the chunk name at [name_index] with "cannot <what> <file>[: reason]". */
static int file_error(lua_State *L, const char *what, int name_index)
{
    int err = errno;
    const char *filename = lua_tostring(L, name_index) + 1;  /* past '@' or '=' */
    if (err != 0)
        lua_pushfstring(L, "cannot %s %s: %s", what, filename, strerror(err));
    else
        lua_pushfstring(L, "cannot %s %s", what, filename);
    lua_remove(L, name_index);
    return LUA_ERRFILE;
}

LUALIB_API int luaL_loadfilex(lua_State *L, const char *filename, const char *mode)
{
    FileReader r;
    int name_index = lua_gettop(L) + 1;
    if (filename == NULL) {
        lua_pushliteral(L, "=stdin");
        r.f = stdin;
    } else {
        lua_pushfstring(L, "@%s", filename);
        errno = 0;
        r.f = fopen(filename, "r");
        if (r.f == NULL) return file_error(L, "open", name_index);
    }
    int first;
    if (skip_prelude(&r, &first))
        r.buffer[r.pending++] = '\n';          /* keeps line numbers right */
    if (first == LUA_SIGNATURE[0]) {           /* precompiled: no added newline */
        r.pending = 0;
        if (filename != NULL) {                /* read the start again */
            rewind(r.f);
            skip_prelude(&r, &first);
        }
    }
    if (first != EOF) r.buffer[r.pending++] = (char)first;
    errno = 0;
    int status = lua_load(L, read_file_piece, &r, lua_tostring(L, -1), mode);
    int read_failed = ferror(r.f);
    if (filename != NULL) fclose(r.f);
    if (read_failed) {
        lua_settop(L, name_index);             /* whatever lua_load left */
        return file_error(L, "read", name_index);
    }
    lua_remove(L, name_index);
    return status;
}

/*-------------------------------------------------------------------------
 * Strings
 */

typedef struct StringReader {
    const char *s;
    size_t size;
} StringReader;

static const char *read_whole_string(lua_State *L, void *ud, size_t *size)
{
    StringReader *r = (StringReader *)ud;
    (void)L;
    if (r->size == 0) return NULL;
    *size = r->size;
    r->size = 0;
    return r->s;
}

LUALIB_API int luaL_loadbufferx(lua_State *L, const char *buff, size_t sz, const char *name,
                                const char *mode)
{
    StringReader r = { buff, sz };
    return lua_load(L, read_whole_string, &r, name, mode);
}

LUALIB_API int luaL_loadstring(lua_State *L, const char *s)
{
    return luaL_loadbuffer(L, s, strlen(s), s);
}

/*-------------------------------------------------------------------------
 * The state: allocator, panic, warnings
 */

static void *default_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    (void)ud;
    (void)osize;
    if (nsize == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, nsize);
}

static int report_panic(lua_State *L)
{
    const char *msg = lua_tostring(L, -1);
    if (msg == NULL) msg = "error object is not a string";
    lua_writestringerror("PANIC: unprotected error in call to Lua API (%s)\n", msg);
    return 0;                                  /* lets the core abort */
}

static void warn_off(void *ud, const char *message, int tocont);
static void warn_on(void *ud, const char *message, int tocont);
static void warn_continuing(void *ud, const char *message, int tocont);

/* Acts on "@on" and "@off" (other "@..." are ignored); returns whether
 * [message] was a control message. Only a single-piece message, or the
 * last piece of one, can be. */
static int is_control_message(lua_State *L, const char *message, int tocont)
{
    if (tocont || message[0] != '@') return 0;
    if (strcmp(message + 1, "off") == 0)
        lua_setwarnf(L, warn_off, L);
    else if (strcmp(message + 1, "on") == 0)
        lua_setwarnf(L, warn_on, L);
    return 1;
}

static void warn_off(void *ud, const char *message, int tocont)
{
    is_control_message((lua_State *)ud, message, tocont);
}

static void warn_continuing(void *ud, const char *message, int tocont)
{
    lua_State *L = (lua_State *)ud;
    lua_writestringerror("%s", message);
    if (tocont) {
        lua_setwarnf(L, warn_continuing, L);
    } else {
        lua_writestringerror("%s", "\n");
        lua_setwarnf(L, warn_on, L);
    }
}

static void warn_on(void *ud, const char *message, int tocont)
{
    if (is_control_message((lua_State *)ud, message, tocont)) return;
    lua_writestringerror("%s", "Lua warning: ");
    warn_continuing(ud, message, tocont);
}

LUALIB_API lua_State *luaL_newstate(void)
{
    lua_State *L = lua_newstate(default_alloc, NULL);
    if (L != NULL) {
        lua_atpanic(L, report_panic);
        lua_setwarnf(L, warn_off, L);
    }
    return L;
}
