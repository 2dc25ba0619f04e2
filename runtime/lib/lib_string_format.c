/*
 * lib_string_format.c — string.format (manual §6.4).
 *
 * Text between conversions is copied in runs. Each conversion is parsed
 * into a C printf form ("%" + flags, width, precision + conversion), checked
 * against what that conversion allows (the flags differ per conversion,
 * width and precision have at most two digits), and printed with the C
 * library, except where doing it here is simpler or faster: plain %d and
 * %i, every %s, and %q.
 *
 * The checks and their messages follow the reference implementation,
 * including which comes first for each conversion: the argument or the
 * form (for %c and %a the form is checked first, for the other numeric
 * conversions the argument).
 */
#include <ctype.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib_string_internal.h"

/* Flags, digits and dots a conversion may carry before its letter; a
 * longer run is "invalid format (too long)". */
#define SPEC_CHARS "-+ #0123456789."
#define MAX_SPEC_BODY 20

/* Room for one conversion's output: any with width and precision of at
 * most 99, except %f of a huge number, which prints every integer digit. */
#define MAX_ITEM 120
#define MAX_ITEM_F (110 + DBL_MAX_10_EXP)

/* Flags each conversion accepts. */
#define FLAGS_CHAR "-"
#define FLAGS_INT "-+0 "
#define FLAGS_UNSIGNED "-0"
#define FLAGS_RADIX "-#0"
#define FLAGS_FLOAT "-+ #0"

typedef struct {
    /* "%", the body (flags, width, precision), room for a length modifier,
     * the conversion letter, '\0' */
    char form[MAX_SPEC_BODY + 16];
    size_t body_len;
    char conversion;
} Spec;

/* ---- Parsing and checking a conversion -------------------------------- */

/* Is [c] one of SPEC_CHARS? (A switch: this runs for every conversion.) */
static bool is_spec_char(char c)
{
    switch (c) {
    case '-': case '+': case ' ': case '#': case '.':
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
        return true;
    default:
        return false;
    }
}

/* Reads the conversion after a '%' at [p] (the format ends at [end]);
 * returns where the text after it starts. */
static const char *read_spec(lua_State *L, const char *p, const char *end, Spec *spec)
{
    size_t n = 0;
    while (p + n < end && is_spec_char(p[n])) n++;
    if (n > MAX_SPEC_BODY) luaL_error(L, "invalid format (too long)");
    spec->body_len = n;
    spec->conversion = (p + n < end) ? p[n] : '\0';
    spec->form[0] = '%';
    memcpy(spec->form + 1, p, n);
    spec->form[n + 1] = spec->conversion;
    spec->form[n + 2] = '\0';
    return (p + n < end) ? p + n + 1 : end;
}

static const char *skip_two_digits(const char *p)
{
    if (isdigit((unsigned char)*p)) p++;
    if (isdigit((unsigned char)*p)) p++;
    return p;
}

/* Flags from [flags] in any order, then a width of at most two digits that
 * does not start with '0', then (if [precision] is allowed) '.' and at most
 * two digits, then the conversion letter. */
static void check_spec(lua_State *L, const Spec *spec, const char *flags, bool precision)
{
    const char *p = spec->form + 1;
    p += strspn(p, flags);
    if (*p != '0') {
        p = skip_two_digits(p);
        if (*p == '.' && precision) p = skip_two_digits(p + 1);
    }
    if (!isalpha((unsigned char)*p))
        luaL_error(L, "invalid conversion specification: '%s'", spec->form);
}

/* The length modifier of a printf format such as LUA_INTEGER_FMT ("%lld"
 * gives "ll"), so that forms work for whatever lua_Integer and lua_Number
 * are. */
static void copy_length_modifier(char *out, const char *model)
{
    const char *p = model + 1;
    p += strspn(p, SPEC_CHARS);
    size_t n = strlen(p) - 1;
    memcpy(out, p, n);
    out[n] = '\0';
}

/* Puts the length modifier of [model] before the conversion letter. */
static void add_length_modifier(Spec *spec, const char *model)
{
    char *letter = spec->form + 1 + spec->body_len;
    copy_length_modifier(letter, model);
    size_t n = strlen(letter);
    letter[n] = spec->conversion;
    letter[n + 1] = '\0';
}

/* ---- Output ----------------------------------------------------------- */

/* snprintf straight into the buffer, growing the room if [room] was too
 * small. */
static void add_printf(luaL_Buffer *b, size_t room, const char *form, ...)
{
    va_list ap;
    char *out = luaL_prepbuffsize(b, room);
    va_start(ap, form);
    int n = vsnprintf(out, room, form, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n >= room) {
        out = luaL_prepbuffsize(b, (size_t)n + 1);
        va_start(ap, form);
        vsnprintf(out, (size_t)n + 1, form, ap);
        va_end(ap);
    }
    luaL_addsize(b, (size_t)n);
}

static void add_decimal(luaL_Buffer *b, lua_Integer n)
{
    char digits[3 * sizeof(lua_Integer) + 2];
    char *p = digits + sizeof digits;
    lua_Unsigned u = (n < 0) ? 0u - (lua_Unsigned)n : (lua_Unsigned)n;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (n < 0) *--p = '-';
    luaL_addlstring(b, p, (size_t)(digits + sizeof digits - p));
}

/* Text between conversions: usually a few characters, which are cheaper
 * to add one by one. */
static void add_text(luaL_Buffer *b, const char *s, size_t len)
{
    if (len > 16) {
        luaL_addlstring(b, s, len);
        return;
    }
    for (size_t i = 0; i < len; i++) luaL_addchar(b, s[i]);
}

/* ---- Conversions ------------------------------------------------------ */

static void format_char(lua_State *L, luaL_Buffer *b, Spec *spec, int arg)
{
    check_spec(L, spec, FLAGS_CHAR, false);
    add_printf(b, MAX_ITEM, spec->form, (int)luaL_checkinteger(L, arg));
}

static void format_integer(lua_State *L, luaL_Buffer *b, Spec *spec, int arg, const char *flags)
{
    lua_Integer n = luaL_checkinteger(L, arg);
    bool is_signed = (spec->conversion == 'd' || spec->conversion == 'i');
    if (spec->body_len == 0 && is_signed) {
        add_decimal(b, n);
        return;
    }
    check_spec(L, spec, flags, true);
    add_length_modifier(spec, LUA_INTEGER_FMT);
    if (is_signed)
        add_printf(b, MAX_ITEM, spec->form, n);
    else
        add_printf(b, MAX_ITEM, spec->form, (lua_Unsigned)n);
}

static void format_float(lua_State *L, luaL_Buffer *b, Spec *spec, int arg)
{
    lua_Number x = luaL_checknumber(L, arg);
    check_spec(L, spec, FLAGS_FLOAT, true);
    add_length_modifier(spec, LUA_NUMBER_FMT);
    add_printf(b, spec->conversion == 'f' ? MAX_ITEM_F : MAX_ITEM, spec->form, x);
}

static void format_hex_float(lua_State *L, luaL_Buffer *b, Spec *spec, int arg)
{
    check_spec(L, spec, FLAGS_FLOAT, true);
    add_length_modifier(spec, LUA_NUMBER_FMT);
    add_printf(b, MAX_ITEM, spec->form, luaL_checknumber(L, arg));
}

static void format_pointer(lua_State *L, luaL_Buffer *b, Spec *spec, int arg)
{
    const void *p = lua_topointer(L, arg);
    check_spec(L, spec, FLAGS_CHAR, false);
    if (p == NULL) {
        spec->form[spec->body_len + 1] = 's';
        add_printf(b, MAX_ITEM, spec->form, "(null)");
    } else {
        add_printf(b, MAX_ITEM, spec->form, p);
    }
}

/* Parses the checked body of a %s: '-' flags, width, precision (-1 when
 * there is none). */
static void read_string_layout(const Spec *spec, bool *left, int *width, int *precision)
{
    const char *p = spec->form + 1;
    *left = false;
    while (*p == '-') *left = true, p++;
    *width = 0;
    while (isdigit((unsigned char)*p)) *width = *width * 10 + (*p++ - '0');
    *precision = -1;
    if (*p == '.') {
        *precision = 0;
        for (p++; isdigit((unsigned char)*p); p++) *precision = *precision * 10 + (*p - '0');
    }
}

/* %s with a width or precision, laid out here rather than by snprintf. */
static void format_string(lua_State *L, luaL_Buffer *b, Spec *spec, int arg)
{
    size_t len;
    if (spec->body_len == 0) { /* the whole string, zeros and all */
        luaL_tolstring(L, arg, &len);
        luaL_addvalue(b);
        return;
    }
    /* Take the room before pushing the string: the buffer may not be
     * touched while the string sits above it. */
    char *out = luaL_prepbuffsize(b, MAX_ITEM);
    const char *s = luaL_tolstring(L, arg, &len);
    luaL_argcheck(L, len == strlen(s), arg, "string contains zeros");
    check_spec(L, spec, FLAGS_CHAR, true);
    bool left;
    int width, precision;
    read_string_layout(spec, &left, &width, &precision);
    if (precision < 0 && len >= 100) { /* wider than any width */
        luaL_addvalue(b);
        return;
    }
    size_t shown = (precision >= 0 && (size_t)precision < len) ? (size_t)precision : len;
    size_t pad = ((size_t)width > shown) ? (size_t)width - shown : 0;
    if (!left) memset(out, ' ', pad);
    memcpy(out + (left ? 0 : pad), s, shown);
    if (left) memset(out + shown, ' ', pad);
    lua_pop(L, 1);
    luaL_addsize(b, shown + pad);
}

/* ---- %q --------------------------------------------------------------- */

static bool needs_escape(unsigned char c)
{
    return c == '"' || c == '\\' || c == '\n' || iscntrl(c);
}

static void add_quoted_string(luaL_Buffer *b, const char *s, size_t len)
{
    luaL_addchar(b, '"');
    size_t i = 0;
    while (i < len) {
        size_t run = i;
        while (run < len && !needs_escape((unsigned char)s[run])) run++;
        luaL_addlstring(b, s + i, run - i);
        if (run == len) break;
        unsigned char c = (unsigned char)s[run];
        if (c == '"' || c == '\\' || c == '\n') {
            luaL_addchar(b, '\\');
            luaL_addchar(b, (char)c);
        } else {
            /* a digit right after must not extend the escape */
            bool digit_follows = run + 1 < len && isdigit((unsigned char)s[run + 1]);
            add_printf(b, 8, digit_follows ? "\\%03d" : "\\%d", (int)c);
        }
        i = run + 1;
    }
    luaL_addchar(b, '"');
}

/* Floats are written in hexadecimal so they read back exactly; the ones
 * that have no numeral are written as expressions. */
static void add_quoted_float(luaL_Buffer *b, lua_Number x)
{
    if (isinf(x)) {
        luaL_addstring(b, x > 0 ? "1e9999" : "-1e9999");
        return;
    }
    if (isnan(x)) {
        luaL_addstring(b, "(0/0)");
        return;
    }
    char form[16] = "%";
    copy_length_modifier(form + 1, LUA_NUMBER_FMT);
    strcat(form, "a");
    char *out = luaL_prepbuffsize(b, MAX_ITEM);
    int n = snprintf(out, MAX_ITEM, form, x);
    if (n < 0 || n >= MAX_ITEM) return;
    /* the numeral must read back whatever the locale's decimal point */
    if (memchr(out, '.', (size_t)n) == NULL) {
        char *point = memchr(out, localeconv()->decimal_point[0], (size_t)n);
        if (point != NULL) *point = '.';
    }
    luaL_addsize(b, (size_t)n);
}

static void add_quoted_integer(luaL_Buffer *b, lua_Integer n)
{
    if (n != LUA_MININTEGER) {
        add_decimal(b, n);
        return;
    }
    /* -9223372036854775808 would read back as a float: use hexadecimal */
    char form[16] = "0x%";
    copy_length_modifier(form + 3, LUA_INTEGER_FMT);
    strcat(form, "x");
    add_printf(b, MAX_ITEM, form, (lua_Unsigned)n);
}

static void format_literal(lua_State *L, luaL_Buffer *b, const Spec *spec, int arg)
{
    if (spec->body_len != 0) luaL_error(L, "specifier '%%q' cannot have modifiers");
    switch (lua_type(L, arg)) {
    case LUA_TSTRING: {
        size_t len;
        const char *s = lua_tolstring(L, arg, &len);
        add_quoted_string(b, s, len);
        break;
    }
    case LUA_TNUMBER:
        if (lua_isinteger(L, arg))
            add_quoted_integer(b, lua_tointeger(L, arg));
        else
            add_quoted_float(b, lua_tonumber(L, arg));
        break;
    case LUA_TNIL:
    case LUA_TBOOLEAN:
        luaL_tolstring(L, arg, NULL);
        luaL_addvalue(b);
        break;
    default:
        luaL_argerror(L, arg, "value has no literal form");
    }
}

static void format_one(lua_State *L, luaL_Buffer *b, Spec *spec, int arg)
{
    switch (spec->conversion) {
    case 'c': format_char(L, b, spec, arg); break;
    case 'd': case 'i': format_integer(L, b, spec, arg, FLAGS_INT); break;
    case 'u': format_integer(L, b, spec, arg, FLAGS_UNSIGNED); break;
    case 'o': case 'x': case 'X': format_integer(L, b, spec, arg, FLAGS_RADIX); break;
    case 'a': case 'A': format_hex_float(L, b, spec, arg); break;
    case 'f': case 'e': case 'E': case 'g': case 'G': format_float(L, b, spec, arg); break;
    case 'p': format_pointer(L, b, spec, arg); break;
    case 'q': format_literal(L, b, spec, arg); break;
    case 's': format_string(L, b, spec, arg); break;
    default: luaL_error(L, "invalid conversion '%s' to 'format'", spec->form);
    }
}

int strlib_format(lua_State *L)
{
    int top = lua_gettop(L);
    size_t len;
    const char *fmt = luaL_checklstring(L, 1, &len);
    const char *end = fmt + len;
    int arg = 1;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    while (fmt < end) {
        const char *percent = fmt;
        while (percent < end && *percent != '%') percent++;
        add_text(&b, fmt, (size_t)(percent - fmt));
        if (percent == end) break;
        fmt = percent + 1;
        if (fmt < end && *fmt == '%') {
            luaL_addchar(&b, '%');
            fmt++;
            continue;
        }
        if (++arg > top) return luaL_argerror(L, arg, "no value");
        Spec spec;
        fmt = read_spec(L, fmt, end, &spec);
        format_one(L, &b, &spec, arg);
    }
    luaL_pushresult(&b);
    return 1;
}
