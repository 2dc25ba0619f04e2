/*
 * lib_io.c — the io library (Lua 5.4 manual §6.8): io.* and the methods of
 * file handles.
 *
 * A file handle is a full userdata holding a luaL_Stream (lauxlib.h) whose
 * metatable is the registry's LUA_FILEHANDLE table, exactly as the manual
 * lays it out, so streams that C modules create work with these methods and
 * C modules can take handles made here. A handle is closed when its closef
 * is NULL; the standard files have a closef that refuses and stays set.
 *
 * The default input and output files live in the registry under
 * "_IO_input" and "_IO_output".
 */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

#define IO_INPUT_KEY "_IO_input"
#define IO_OUTPUT_KEY "_IO_output"

/* io.lines and file:lines take at most this many formats (as stock does). */
#define IO_MAX_LINE_FORMATS 250

/* "n" reads at most this many characters of a numeral (as stock does). */
#define IO_MAX_NUMERAL_LENGTH 200

/* A read with at most this many formats fits in the LUA_MINSTACK slots a
 * C function starts with (a value per format, a buffer, the formats a line
 * iterator pushes): no luaL_checkstack, which is costly on this hot path. */
#define IO_UNCHECKED_FORMATS 4

/*-------------------------------------------------------------------------
 * Handles
 */

static luaL_Stream *io_handle_at(lua_State *L, int index)
{
    return (luaL_Stream *)luaL_checkudata(L, index, LUA_FILEHANDLE);
}

static int io_is_closed(const luaL_Stream *stream)
{
    return stream->closef == NULL;
}

/* The FILE of the handle at index 1; an error if it is closed. */
static FILE *io_open_file_at_1(lua_State *L)
{
    luaL_Stream *stream = io_handle_at(L, 1);
    if (io_is_closed(stream)) luaL_error(L, "attempt to use a closed file");
    return stream->f;
}

/* Pushes a new handle that counts as closed until a stream is put in it,
 * so that a failed open leaves nothing for __gc to close. */
static luaL_Stream *io_push_new_handle(lua_State *L)
{
    luaL_Stream *stream = (luaL_Stream *)lua_newuserdatauv(L, sizeof(luaL_Stream), 0);
    stream->f = NULL;
    stream->closef = NULL;
    luaL_setmetatable(L, LUA_FILEHANDLE);
    return stream;
}

static int io_close_by_fclose(lua_State *L)
{
    luaL_Stream *stream = io_handle_at(L, 1);
    errno = 0;
    return luaL_fileresult(L, fclose(stream->f) == 0, NULL);
}

static int io_close_by_pclose(lua_State *L)
{
    luaL_Stream *stream = io_handle_at(L, 1);
    errno = 0;
    return luaL_execresult(L, pclose(stream->f));
}

/* The standard files are never closed: the handle stays open. */
static int io_close_refused(lua_State *L)
{
    luaL_Stream *stream = io_handle_at(L, 1);
    stream->closef = io_close_refused;
    luaL_pushfail(L);
    lua_pushliteral(L, "cannot close standard file");
    return 2;
}

/* Closes the open handle at index 1 through its closef, which the manual
 * says is set to NULL before it runs and receives the handle alone. */
static int io_close_handle(lua_State *L)
{
    luaL_Stream *stream = io_handle_at(L, 1);
    lua_CFunction closef = stream->closef;
    stream->closef = NULL;
    lua_settop(L, 1);
    return closef(L);
}

/* Opens [filename] into a new handle on the stack or raises the error
 * io.input, io.output and io.lines give. */
static void io_push_opened_or_error(lua_State *L, const char *filename, const char *mode)
{
    luaL_Stream *stream = io_push_new_handle(L);
    stream->f = fopen(filename, mode);
    if (stream->f == NULL)
        luaL_error(L, "cannot open file '%s' (%s)", filename, strerror(errno));
    stream->closef = io_close_by_fclose;
}

/* A mode fopen accepts as the manual describes it: r, w or a, an optional
 * '+', then nothing but 'b's. */
static int io_mode_is_valid(const char *mode)
{
    if (*mode == '\0' || strchr("rwa", *mode) == NULL) return 0;
    mode++;
    if (*mode == '+') mode++;
    return strspn(mode, "b") == strlen(mode);
}

/*-------------------------------------------------------------------------
 * Reading
 */

/* The characters of a numeral seen so far, and the one looked at next. */
typedef struct {
    FILE *f;
    int current;
    int length;
    char text[IO_MAX_NUMERAL_LENGTH + 1];
} IoNumeral;

/* Keeps the current character and looks at the next; fails (spoiling the
 * text so it converts to nothing) once the numeral is too long. */
static int io_numeral_take(IoNumeral *n)
{
    if (n->length >= IO_MAX_NUMERAL_LENGTH) {
        n->text[0] = '\0';
        return 0;
    }
    n->text[n->length++] = (char)n->current;
    n->current = getc_unlocked(n->f);
    return 1;
}

/* Takes the current character if it is one of the two in [pair]. */
static int io_numeral_take_either(IoNumeral *n, const char pair[2])
{
    if (n->current == pair[0] || n->current == pair[1]) return io_numeral_take(n);
    return 0;
}

static int io_is_digit(int c, int hex)
{
    if (c >= '0' && c <= '9') return 1;
    return hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'));
}

static int io_numeral_take_digits(IoNumeral *n, int hex)
{
    int count = 0;
    while (io_is_digit(n->current, hex) && io_numeral_take(n)) count++;
    return count;
}

static int io_is_space(int c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* Reads the longest prefix of a numeral the way Lua's lexer would accept
 * one (sign, hexadecimal prefix, digits, decimal point, exponent), leaving
 * the first character after it unread. */
static void io_scan_numeral(IoNumeral *n)
{
    char decimal_point[2] = { '.', localeconv()->decimal_point[0] };
    int digits = 0, hex = 0;
    do {
        n->current = getc_unlocked(n->f);
    } while (io_is_space(n->current));
    io_numeral_take_either(n, "-+");
    if (io_numeral_take_either(n, "00")) {
        if (io_numeral_take_either(n, "xX")) hex = 1;
        else digits = 1;
    }
    digits += io_numeral_take_digits(n, hex);
    if (io_numeral_take_either(n, decimal_point)) digits += io_numeral_take_digits(n, hex);
    if (digits > 0 && io_numeral_take_either(n, hex ? "pP" : "eE")) {
        io_numeral_take_either(n, "-+");
        io_numeral_take_digits(n, 0);
    }
    ungetc(n->current, n->f);
}

static int io_read_number(lua_State *L, FILE *f)
{
    IoNumeral n;
    n.f = f;
    n.length = 0;
    flockfile(f);
    io_scan_numeral(&n);
    funlockfile(f);
    n.text[n.length] = '\0';
    if (lua_stringtonumber(L, n.text) != 0) return 1;
    luaL_pushfail(L);
    return 0;
}

/* Pushes "" and says whether the file has more to read. */
static int io_test_eof(lua_State *L, FILE *f)
{
    int c = getc(f);
    ungetc(c, f);
    lua_pushliteral(L, "");
    return c != EOF;
}

/* Reads a line, keeping its '\n' unless [chop]; fails only at end of file
 * with nothing read. */
static int io_read_line(lua_State *L, FILE *f, int chop)
{
    luaL_Buffer b;
    int c;
    size_t total = 0;
    luaL_buffinit(L, &b);
    do {
        char *space = luaL_prepbuffer(&b);
        size_t used = 0;
        flockfile(f);
        while (used < LUAL_BUFFERSIZE && (c = getc_unlocked(f)) != EOF && c != '\n')
            space[used++] = (char)c;
        funlockfile(f);
        luaL_addsize(&b, used);
        total += used;
    } while (c != EOF && c != '\n');
    if (!chop && c == '\n') luaL_addchar(&b, (char)c);
    luaL_pushresult(&b);
    return c == '\n' || total > 0;
}

/* How many bytes a regular file has after its position; 0 when that
 * cannot be known (pipes, terminals). Only a hint: the file may change. */
static size_t io_bytes_left(FILE *f)
{
    struct stat info;
    if (fstat(fileno(f), &info) != 0 || !S_ISREG(info.st_mode)) return 0;
    off_t at = ftello(f);
    if (at < 0 || info.st_size <= at) return 0;
    return (size_t)(info.st_size - at);
}

/* Reads up to [size] bytes into the buffer; says whether it got them all. */
static int io_read_into(luaL_Buffer *b, FILE *f, size_t size)
{
    char *space = luaL_prepbuffsize(b, size);
    size_t got = fread(space, 1, size, f);
    luaL_addsize(b, got);
    return got == size;
}

/* Reads the rest of the file. After a first block, a file that has more
 * is read in one piece of the size it says it has, so that a large file
 * is not copied as the buffer grows; then by blocks, for what a file that
 * does not know its size (or grew) still has. */
static void io_read_all(lua_State *L, FILE *f)
{
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    if (io_read_into(&b, f, LUAL_BUFFERSIZE)) {
        size_t left = io_bytes_left(f);
        if (left == 0 || io_read_into(&b, f, left))
            while (io_read_into(&b, f, LUAL_BUFFERSIZE)) continue;
    }
    luaL_pushresult(&b);
}

static int io_read_count(lua_State *L, FILE *f, size_t count)
{
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    char *space = luaL_prepbuffsize(&b, count);
    size_t got = fread(space, 1, count, f);
    luaL_addsize(&b, got);
    luaL_pushresult(&b);
    return got > 0;
}

/* Reads by the format at stack index [arg]; pushes one value and says
 * whether it succeeded. */
static int io_read_by_format(lua_State *L, FILE *f, int arg)
{
    if (lua_type(L, arg) == LUA_TNUMBER) {
        size_t count = (size_t)luaL_checkinteger(L, arg);
        return count == 0 ? io_test_eof(L, f) : io_read_count(L, f, count);
    }
    const char *format = luaL_checkstring(L, arg);
    if (*format == '*') format++; /* Lua 5.3's "*l" spelling */
    switch (*format) {
    case 'n': return io_read_number(L, f);
    case 'l': return io_read_line(L, f, 1);
    case 'L': return io_read_line(L, f, 0);
    case 'a': io_read_all(L, f); return 1;
    default: return luaL_argerror(L, arg, "invalid format");
    }
}

/* Reads by the [count] formats from stack index [first] on (a line when
 * there are none). Returns the number of results: one for each format up
 * to the first that fails, whose result is fail; or, when the stream has
 * an error, luaL_fileresult's three. */
static int io_read(lua_State *L, FILE *f, int first, int count)
{
    int n, ok = 1;
    clearerr(f);
    errno = 0;
    if (count == 0) {
        ok = io_read_line(L, f, 1);
        n = first + 1;
    } else {
        if (count > IO_UNCHECKED_FORMATS)
            luaL_checkstack(L, count + LUA_MINSTACK, "too many arguments");
        for (n = first; count-- > 0 && ok; n++) ok = io_read_by_format(L, f, n);
    }
    if (ferror(f)) return luaL_fileresult(L, 0, NULL);
    if (!ok) {
        lua_pop(L, 1);
        luaL_pushfail(L);
    }
    return n - first;
}

/*-------------------------------------------------------------------------
 * Writing
 */

/* Writes [value] in decimal, as LUA_INTEGER_FMT (always a "d" conversion)
 * would. Written by hand because this is the hot path of writing numbers,
 * and fprintf's format parsing costs more than the conversion. */
static int io_write_integer(FILE *f, lua_Integer value)
{
    char digits[32];
    char *end = digits + sizeof digits, *start = end;
    /* work on the magnitude as unsigned, so the minimum integer works */
    unsigned long long magnitude = value < 0 ? 0ULL - (unsigned long long)value
                                             : (unsigned long long)value;
    do {
        *--start = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude != 0);
    if (value < 0) *--start = '-';
    size_t length = (size_t)(end - start);
    return fwrite(start, 1, length, f) == length;
}

/* Writes the [count] values from stack index [first] on; the handle to
 * return must be on top. */
static int io_write(lua_State *L, FILE *f, int first, int count)
{
    int ok = 1;
    errno = 0;
    for (int arg = first; arg < first + count; arg++) {
        if (lua_type(L, arg) == LUA_TNUMBER) {
            int written = lua_isinteger(L, arg)
                ? io_write_integer(f, lua_tointeger(L, arg))
                : fprintf(f, LUA_NUMBER_FMT, lua_tonumber(L, arg)) > 0;
            ok = ok && written;
        } else {
            size_t length;
            const char *s = luaL_checklstring(L, arg, &length);
            ok = ok && fwrite(s, 1, length, f) == length;
        }
    }
    if (ok) return 1;
    return luaL_fileresult(L, 0, NULL);
}

/*-------------------------------------------------------------------------
 * Line iterators
 */

/* The iterator io.lines and file:lines return. Upvalues: the handle, the
 * number of formats, whether to close the file at its end, the formats. */
static int io_lines_step(lua_State *L)
{
    luaL_Stream *stream = (luaL_Stream *)lua_touserdata(L, lua_upvalueindex(1));
    if (io_is_closed(stream)) return luaL_error(L, "file is already closed");
    int count = (int)lua_tointeger(L, lua_upvalueindex(2));
    lua_settop(L, 1);
    if (count > IO_UNCHECKED_FORMATS) luaL_checkstack(L, count, "too many arguments");
    for (int i = 1; i <= count; i++) lua_pushvalue(L, lua_upvalueindex(3 + i));
    int n = io_read(L, stream->f, 2, count);
    if (lua_toboolean(L, -n)) return n;
    if (n > 1) /* fail, message, code: a read error */
        return luaL_error(L, "%s", lua_tostring(L, -n + 1));
    if (lua_toboolean(L, lua_upvalueindex(3))) {
        lua_settop(L, 0);
        lua_pushvalue(L, lua_upvalueindex(1));
        io_close_handle(L);
    }
    return 0;
}

/* Replaces the handle at index 1 and the formats after it with the
 * iterator over them. */
static void io_push_lines_iterator(lua_State *L, int close_at_end)
{
    int count = lua_gettop(L) - 1;
    luaL_argcheck(L, count <= IO_MAX_LINE_FORMATS, IO_MAX_LINE_FORMATS + 2, "too many arguments");
    lua_pushvalue(L, 1);
    lua_pushinteger(L, count);
    lua_pushboolean(L, close_at_end);
    lua_rotate(L, 2, 3); /* handle, count, flag, formats... */
    lua_pushcclosure(L, io_lines_step, 3 + count);
}

/*-------------------------------------------------------------------------
 * File methods
 */

static int io_method_close(lua_State *L)
{
    io_open_file_at_1(L);
    return io_close_handle(L);
}

static int io_method_flush(lua_State *L)
{
    FILE *f = io_open_file_at_1(L);
    errno = 0;
    return luaL_fileresult(L, fflush(f) == 0, NULL);
}

static int io_method_lines(lua_State *L)
{
    io_open_file_at_1(L);
    io_push_lines_iterator(L, 0);
    return 1;
}

static int io_method_read(lua_State *L)
{
    FILE *f = io_open_file_at_1(L);
    return io_read(L, f, 2, lua_gettop(L) - 1);
}

static int io_method_seek(lua_State *L)
{
    static const int whences[] = { SEEK_SET, SEEK_CUR, SEEK_END };
    static const char *const names[] = { "set", "cur", "end", NULL };
    FILE *f = io_open_file_at_1(L);
    int whence = whences[luaL_checkoption(L, 2, "cur", names)];
    lua_Integer offset = luaL_optinteger(L, 3, 0);
    luaL_argcheck(L, (lua_Integer)(off_t)offset == offset, 3, "not an integer in proper range");
    errno = 0;
    if (fseeko(f, (off_t)offset, whence) != 0) return luaL_fileresult(L, 0, NULL);
    lua_pushinteger(L, (lua_Integer)ftello(f));
    return 1;
}

static int io_method_setvbuf(lua_State *L)
{
    static const int modes[] = { _IONBF, _IOFBF, _IOLBF };
    static const char *const names[] = { "no", "full", "line", NULL };
    FILE *f = io_open_file_at_1(L);
    int mode = modes[luaL_checkoption(L, 2, NULL, names)];
    lua_Integer size = luaL_optinteger(L, 3, LUAL_BUFFERSIZE);
    errno = 0;
    return luaL_fileresult(L, setvbuf(f, NULL, mode, (size_t)size) == 0, NULL);
}

static int io_method_write(lua_State *L)
{
    FILE *f = io_open_file_at_1(L);
    int count = lua_gettop(L) - 1;
    lua_pushvalue(L, 1);
    return io_write(L, f, 2, count);
}

static int io_meta_gc(lua_State *L)
{
    luaL_Stream *stream = io_handle_at(L, 1);
    if (!io_is_closed(stream) && stream->f != NULL) io_close_handle(L);
    return 0;
}

static int io_meta_tostring(lua_State *L)
{
    luaL_Stream *stream = io_handle_at(L, 1);
    if (io_is_closed(stream)) lua_pushliteral(L, "file (closed)");
    else lua_pushfstring(L, "file (%p)", (void *)stream->f);
    return 1;
}

/*-------------------------------------------------------------------------
 * io.* functions
 */

/* Pushes the default file under [key] and returns its FILE; an error if
 * it is closed. */
static FILE *io_push_default(lua_State *L, const char *key, const char *what)
{
    lua_getfield(L, LUA_REGISTRYINDEX, key);
    luaL_Stream *stream = (luaL_Stream *)lua_touserdata(L, -1);
    if (io_is_closed(stream)) luaL_error(L, "default %s file is closed", what);
    return stream->f;
}

/* io.input and io.output: set the default from a file name or a handle,
 * then return the current default. */
static int io_set_or_get_default(lua_State *L, const char *key, const char *mode)
{
    if (!lua_isnoneornil(L, 1)) {
        const char *filename = lua_tostring(L, 1);
        if (filename != NULL) io_push_opened_or_error(L, filename, mode);
        else {
            io_open_file_at_1(L);
            lua_pushvalue(L, 1);
        }
        lua_setfield(L, LUA_REGISTRYINDEX, key);
    }
    lua_getfield(L, LUA_REGISTRYINDEX, key);
    return 1;
}

static int io_close(lua_State *L)
{
    if (lua_isnone(L, 1)) lua_getfield(L, LUA_REGISTRYINDEX, IO_OUTPUT_KEY);
    return io_method_close(L);
}

static int io_flush(lua_State *L)
{
    FILE *f = io_push_default(L, IO_OUTPUT_KEY, "output");
    errno = 0;
    return luaL_fileresult(L, fflush(f) == 0, NULL);
}

static int io_input(lua_State *L)
{
    return io_set_or_get_default(L, IO_INPUT_KEY, "r");
}

static int io_output(lua_State *L)
{
    return io_set_or_get_default(L, IO_OUTPUT_KEY, "w");
}

/* io.lines(): the iterator over the default input, left open at its end.
 * io.lines(name): the iterator, then nil, nil and the handle, so that a
 * generic for closes the file when the loop ends early. */
static int io_lines(lua_State *L)
{
    if (lua_isnone(L, 1)) lua_pushnil(L);
    int opened_here = !lua_isnil(L, 1);
    if (opened_here) {
        const char *filename = luaL_checkstring(L, 1);
        io_push_opened_or_error(L, filename, "r");
    } else {
        lua_getfield(L, LUA_REGISTRYINDEX, IO_INPUT_KEY);
    }
    lua_replace(L, 1);
    if (!opened_here) io_open_file_at_1(L);
    io_push_lines_iterator(L, opened_here);
    if (!opened_here) return 1;
    lua_pushnil(L);
    lua_pushnil(L);
    lua_pushvalue(L, 1);
    return 4;
}

static int io_open(lua_State *L)
{
    const char *filename = luaL_checkstring(L, 1);
    const char *mode = luaL_optstring(L, 2, "r");
    luaL_argcheck(L, io_mode_is_valid(mode), 2, "invalid mode");
    luaL_Stream *stream = io_push_new_handle(L);
    errno = 0;
    stream->f = fopen(filename, mode);
    if (stream->f == NULL) return luaL_fileresult(L, 0, filename);
    stream->closef = io_close_by_fclose;
    return 1;
}

static int io_popen(lua_State *L)
{
    const char *command = luaL_checkstring(L, 1);
    const char *mode = luaL_optstring(L, 2, "r");
    luaL_argcheck(L, (mode[0] == 'r' || mode[0] == 'w') && mode[1] == '\0', 2, "invalid mode");
    luaL_Stream *stream = io_push_new_handle(L);
    fflush(NULL); /* what we buffered comes out before the command's output */
    errno = 0;
    stream->f = popen(command, mode);
    if (stream->f == NULL) return luaL_fileresult(L, 0, command);
    stream->closef = io_close_by_pclose;
    return 1;
}

static int io_read_default(lua_State *L)
{
    int count = lua_gettop(L);
    FILE *f = io_push_default(L, IO_INPUT_KEY, "input");
    return io_read(L, f, 1, count);
}

static int io_tmpfile(lua_State *L)
{
    luaL_Stream *stream = io_push_new_handle(L);
    errno = 0;
    stream->f = tmpfile();
    if (stream->f == NULL) return luaL_fileresult(L, 0, NULL);
    stream->closef = io_close_by_fclose;
    return 1;
}

static int io_type(lua_State *L)
{
    luaL_checkany(L, 1);
    luaL_Stream *stream = (luaL_Stream *)luaL_testudata(L, 1, LUA_FILEHANDLE);
    if (stream == NULL) luaL_pushfail(L);
    else if (io_is_closed(stream)) lua_pushliteral(L, "closed file");
    else lua_pushliteral(L, "file");
    return 1;
}

static int io_write_default(lua_State *L)
{
    int count = lua_gettop(L);
    FILE *f = io_push_default(L, IO_OUTPUT_KEY, "output");
    return io_write(L, f, 1, count);
}

/*-------------------------------------------------------------------------
 * Opening the library
 */

static const luaL_Reg io_functions[] = {
    { "close", io_close },
    { "flush", io_flush },
    { "input", io_input },
    { "lines", io_lines },
    { "open", io_open },
    { "output", io_output },
    { "popen", io_popen },
    { "read", io_read_default },
    { "tmpfile", io_tmpfile },
    { "type", io_type },
    { "write", io_write_default },
    { NULL, NULL },
};

static const luaL_Reg io_methods[] = {
    { "close", io_method_close },
    { "flush", io_method_flush },
    { "lines", io_method_lines },
    { "read", io_method_read },
    { "seek", io_method_seek },
    { "setvbuf", io_method_setvbuf },
    { "write", io_method_write },
    { NULL, NULL },
};

static const luaL_Reg io_metamethods[] = {
    { "__index", NULL }, /* the method table, set below */
    { "__gc", io_meta_gc },
    { "__close", io_meta_gc },
    { "__tostring", io_meta_tostring },
    { NULL, NULL },
};

static void io_create_metatable(lua_State *L)
{
    luaL_newmetatable(L, LUA_FILEHANDLE);
    luaL_setfuncs(L, io_metamethods, 0);
    luaL_newlib(L, io_methods);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
}

/* Adds a standard file to the io table on top, and makes it the default
 * under [registry_key] when there is one. */
static void io_add_standard_file(lua_State *L, FILE *f, const char *registry_key, const char *name)
{
    luaL_Stream *stream = io_push_new_handle(L);
    stream->f = f;
    stream->closef = io_close_refused;
    if (registry_key != NULL) {
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, registry_key);
    }
    lua_setfield(L, -2, name);
}

LUAMOD_API int luaopen_io(lua_State *L)
{
    luaL_newlib(L, io_functions);
    io_create_metatable(L);
    io_add_standard_file(L, stdin, IO_INPUT_KEY, "stdin");
    io_add_standard_file(L, stdout, IO_OUTPUT_KEY, "stdout");
    io_add_standard_file(L, stderr, NULL, "stderr");
    return 1;
}
