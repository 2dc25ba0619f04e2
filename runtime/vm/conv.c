/*
 * conv.c — numbers and strings: numerals, number formatting, raw
 * arithmetic with Lua's integer/float rules, lua_pushfstring's formatter,
 * chunk ids and UTF-8 escapes. Also the type-name table of object.h.
 *
 * Nothing here keeps state: every function works on its arguments and,
 * when it must create a string, on L's stack above L->top.
 */
#include <ctype.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv.h"
#include "calls.h"
#include "debuginfo.h"
#include "metamethods.h"
#include "strings.h"
#include "../gc/gc.h"

const char *const obj_typenames[LUA_NUMTYPES + 1] = {
    "no value", "nil", "boolean", "userdata", "number",
    "string", "table", "function", "userdata", "thread",
};

#define intop(op, a, b) ((lua_Integer)((lua_Unsigned)(a) op (lua_Unsigned)(b)))

/* --- small helpers ----------------------------------------------------------- */

int conv_hexavalue(int c)
{
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

int conv_ceillog2(unsigned int x)
{
    lua_assert(x > 0);
    if (x <= 1) return 0;
    return 32 - __builtin_clz(x - 1);
}

int conv_utf8esc(char *buff, unsigned long x)
{
    /* lead byte of an n-byte sequence; payload bits left for the lead byte
     * are 7 - n */
    static const unsigned char lead[7] = { 0, 0, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC };
    lua_assert(x <= 0x7FFFFFFFul);
    if (x < 0x80) {
        buff[UTF8BUFFSZ - 1] = (char)x;
        return 1;
    }
    int nbytes = x < 0x800 ? 2 : x < 0x10000 ? 3 : x < 0x200000 ? 4 : x < 0x4000000 ? 5 : 6;
    char *p = buff + UTF8BUFFSZ;
    for (int i = 1; i < nbytes; i++) {
        *--p = (char)(0x80 | (x & 0x3F));
        x >>= 6;
    }
    *--p = (char)(lead[nbytes] | x);
    return nbytes;
}

/* --- numerals ----------------------------------------------------------------- */

static const char *skip_spaces(const char *s)
{
    while (isspace((unsigned char)*s)) s++;
    return s;
}

/* An integer numeral, decimal or hexadecimal, with surrounding spaces.
 * Hexadecimal wraps around modulo 2^64; a decimal numeral that does not fit
 * fails (the caller then reads it as a float). Returns the end or NULL. */
static const char *read_integer(const char *s, lua_Integer *result)
{
    lua_Unsigned acc = 0;
    int ndigits = 0;
    s = skip_spaces(s);
    int negative = (*s == '-');
    if (*s == '-' || *s == '+') s++;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        for (s += 2; isxdigit((unsigned char)*s); s++, ndigits++)
            acc = acc * 16 + (lua_Unsigned)conv_hexavalue((unsigned char)*s);
    } else {
        /* the magnitude may reach 2^63 only for a negative numeral */
        lua_Unsigned limit = (lua_Unsigned)LUA_MAXINTEGER + (lua_Unsigned)negative;
        for (; isdigit((unsigned char)*s); s++, ndigits++) {
            unsigned d = (unsigned)(*s - '0');
            if (acc > (limit - d) / 10) return NULL; /* overflow: a float */
            acc = acc * 10 + d;
        }
    }
    if (ndigits == 0) return NULL;
    s = skip_spaces(s);
    if (*s != '\0') return NULL;
    *result = (lua_Integer)(negative ? 0u - acc : acc);
    return s;
}

/* strtod over the whole of [s] (trailing spaces allowed). */
static const char *strtod_whole(const char *s, lua_Number *result)
{
    char *end;
    *result = strtod(s, &end);
    if (end == s) return NULL;
    end = (char *)skip_spaces(end);
    return *end == '\0' ? end : NULL;
}

/* Longest float numeral we copy to retry with the locale's decimal point. */
#define MAXNUMERALLEN 200

/* A float numeral, decimal or hexadecimal. strtod does the conversion (it
 * rounds correctly and reads C99 hex floats); what it accepts beyond Lua's
 * numerals is filtered out first: "inf" and "nan" (any word with an 'n'). */
static const char *read_float(const char *s, lua_Number *result)
{
    if (strpbrk(s, "nN") != NULL) return NULL;
    const char *end = strtod_whole(s, result);
    if (end != NULL) return end;
    /* A locale whose decimal point is not '.' makes strtod stop at the
     * point: retry with the locale's character in its place. */
    const char *dot = strchr(s, '.');
    char point = localeconv()->decimal_point[0];
    if (dot == NULL || point == '.' || strlen(s) > MAXNUMERALLEN) return NULL;
    char copy[MAXNUMERALLEN + 1];
    strcpy(copy, s);
    copy[dot - s] = point;
    end = strtod_whole(copy, result);
    return end == NULL ? NULL : s + (end - copy);
}

size_t conv_str2num(const char *s, TValue *o)
{
    lua_Integer i;
    lua_Number n;
    const char *end;
    if ((end = read_integer(s, &i)) != NULL) {
        setivalue(o, i);
    } else if ((end = read_float(s, &n)) != NULL) {
        setfltvalue(o, n);
    } else {
        return 0;
    }
    return (size_t)(end - s) + 1;
}

/* --- numbers to text ---------------------------------------------------------- */

int conv_tostringbuff(const TValue *obj, char *buff)
{
    int len;
    if (ttisinteger(obj)) {
        len = snprintf(buff, MAXNUMBER2STR, LUA_INTEGER_FMT, (LUAI_UACINT)ivalue(obj));
    } else {
        len = snprintf(buff, MAXNUMBER2STR, LUA_NUMBER_FMT, (LUAI_UACNUMBER)fltvalue(obj));
        /* A float that prints like an integer gets a ".0" so it reads back
         * as a float ("inf", "nan" have letters and are left alone). */
        if (buff[strspn(buff, "-0123456789")] == '\0') {
            buff[len++] = localeconv()->decimal_point[0];
            buff[len++] = '0';
            buff[len] = '\0';
        }
    }
    return len;
}

void conv_tostring(lua_State *L, StkId obj)
{
    char buff[MAXNUMBER2STR];
    int len = conv_tostringbuff(s2v(obj), buff);
    TString *ts = str_new(L, buff, (size_t)len);
    setsvalue(L, s2v(obj), ts);
}

/* --- coercions ------------------------------------------------------------------ */

/* A string that is a numeral, converted into [result]. */
static int string_to_number(const TValue *obj, TValue *result)
{
    if (!ttisstring(obj)) return 0;
    TString *ts = tsvalue(obj);
    return conv_str2num(getstr(ts), result) == tsslen(ts) + 1;
}

int conv_tonumber(const TValue *obj, lua_Number *n)
{
    TValue v;
    if (ttisfloat(obj)) { *n = fltvalue(obj); return 1; }
    if (ttisinteger(obj)) { *n = (lua_Number)ivalue(obj); return 1; }
    if (string_to_number(obj, &v)) { *n = nvalue(&v); return 1; }
    return 0;
}

int conv_flttointns(lua_Number n, lua_Integer *p, F2Imod mode)
{
    lua_Number f = floor(n);
    if (n != f) { /* not integral (or NaN) */
        if (mode == F2Ieq) return 0;
        if (mode == F2Iceil) f += 1;
    }
    return lua_numbertointeger(f, p);
}

int conv_tointegerns(const TValue *obj, lua_Integer *p, F2Imod mode)
{
    if (ttisinteger(obj)) { *p = ivalue(obj); return 1; }
    if (ttisfloat(obj)) return conv_flttointns(fltvalue(obj), p, mode);
    return 0;
}

int conv_tointeger(const TValue *obj, lua_Integer *p, F2Imod mode)
{
    TValue v;
    if (string_to_number(obj, &v)) obj = &v;
    return conv_tointegerns(obj, p, mode);
}

/* --- integer and float operations ---------------------------------------------- */

lua_Integer conv_idiv(lua_State *L, lua_Integer m, lua_Integer n)
{
    if ((lua_Unsigned)n + 1u <= 1u) { /* n is 0 or -1 */
        if (n == 0) {
            if (L == NULL) return 0;
            dbg_runerror(L, "attempt to divide by zero");
        }
        return intop(-, 0, m); /* m // -1 == -m, wrapping for mininteger */
    }
    lua_Integer q = m / n; /* C truncates toward zero ... */
    if ((m ^ n) < 0 && m % n != 0) q -= 1; /* ... Lua floors */
    return q;
}

lua_Integer conv_mod(lua_State *L, lua_Integer m, lua_Integer n)
{
    if ((lua_Unsigned)n + 1u <= 1u) { /* n is 0 or -1 */
        if (n == 0) {
            if (L == NULL) return 0;
            dbg_runerror(L, "attempt to perform 'n%%0'");
        }
        return 0; /* avoids the overflow of mininteger % -1 */
    }
    lua_Integer r = m % n;
    if (r != 0 && (r ^ n) < 0) r += n; /* the result takes the divisor's sign */
    return r;
}

lua_Number conv_modf(lua_State *L, lua_Number m, lua_Number n)
{
    (void)L;
    lua_Number r = fmod(m, n);
    /* fmod keeps the dividend's sign; Lua's modulo has the divisor's */
    if (r > 0 ? n < 0 : (r < 0 && n != r)) r += n;
    return r;
}

lua_Integer conv_shiftl(lua_Integer x, lua_Integer y)
{
    if (y < 0) {
        if (y <= -64) return 0;
        return (lua_Integer)((lua_Unsigned)x >> (unsigned)(-y));
    }
    if (y >= 64) return 0;
    return (lua_Integer)((lua_Unsigned)x << (unsigned)y);
}

static lua_Integer int_arith(lua_State *L, int op, lua_Integer a, lua_Integer b)
{
    switch (op) {
    case LUA_OPADD: return intop(+, a, b);
    case LUA_OPSUB: return intop(-, a, b);
    case LUA_OPMUL: return intop(*, a, b);
    case LUA_OPMOD: return conv_mod(L, a, b);
    case LUA_OPIDIV: return conv_idiv(L, a, b);
    case LUA_OPBAND: return intop(&, a, b);
    case LUA_OPBOR: return intop(|, a, b);
    case LUA_OPBXOR: return intop(^, a, b);
    case LUA_OPSHL: return conv_shiftl(a, b);
    case LUA_OPSHR: return conv_shiftl(a, intop(-, 0, b));
    case LUA_OPUNM: return intop(-, 0, a);
    case LUA_OPBNOT: return intop(^, ~(lua_Unsigned)0, a);
    default: lua_assert(0); return 0;
    }
}

static lua_Number float_arith(lua_State *L, int op, lua_Number a, lua_Number b)
{
    switch (op) {
    case LUA_OPADD: return a + b;
    case LUA_OPSUB: return a - b;
    case LUA_OPMUL: return a * b;
    case LUA_OPDIV: return a / b;
    case LUA_OPPOW: return b == 2 ? a * a : pow(a, b);
    case LUA_OPIDIV: return floor(a / b);
    case LUA_OPUNM: return -a;
    case LUA_OPMOD: return conv_modf(L, a, b);
    default: lua_assert(0); return 0;
    }
}

/* Numbers only: strings are coerced by the string library's metamethods. */
static inline int to_number_ns(const TValue *o, lua_Number *n)
{
    if (ttisinteger(o)) { *n = (lua_Number)ivalue(o); return 1; }
    if (ttisfloat(o)) { *n = fltvalue(o); return 1; }
    return 0;
}

int conv_rawarith(lua_State *L, int op, const TValue *p1, const TValue *p2, TValue *res)
{
    lua_Number n1, n2;
    switch (op) {
    case LUA_OPBAND: case LUA_OPBOR: case LUA_OPBXOR:
    case LUA_OPSHL: case LUA_OPSHR: case LUA_OPBNOT: {
        lua_Integer i1, i2;
        if (!conv_tointegerns(p1, &i1, F2Ieq) || !conv_tointegerns(p2, &i2, F2Ieq)) return 0;
        setivalue(res, int_arith(L, op, i1, i2));
        return 1;
    }
    case LUA_OPDIV: case LUA_OPPOW:
        if (!to_number_ns(p1, &n1) || !to_number_ns(p2, &n2)) return 0;
        setfltvalue(res, float_arith(L, op, n1, n2));
        return 1;
    default:
        if (ttisinteger(p1) && ttisinteger(p2)) {
            /* constant folding (L == NULL) leaves division by zero to run time */
            if (L == NULL && (op == LUA_OPMOD || op == LUA_OPIDIV) && ivalue(p2) == 0) return 0;
            setivalue(res, int_arith(L, op, ivalue(p1), ivalue(p2)));
            return 1;
        }
        if (!to_number_ns(p1, &n1) || !to_number_ns(p2, &n2)) return 0;
        setfltvalue(res, float_arith(L, op, n1, n2));
        return 1;
    }
}

void conv_arith(lua_State *L, int op, const TValue *p1, const TValue *p2, StkId res)
{
    if (!conv_rawarith(L, op, p1, p2, s2v(res)))
        tm_trybin(L, p1, p2, res, (TMS)(TM_ADD + op)); /* TM_ADD.. follow LUA_OP* order */
}

/* --- lua_pushfstring -------------------------------------------------------------
 * Text is gathered in a local buffer; when it fills, it is pushed as a
 * string piece on the stack and a new piece starts. At the end the pieces
 * are joined into the one result. Pieces live on the stack so that a
 * collection triggered by the next allocation keeps them. */

#define FMT_BUFFSIZE 200

typedef struct FmtState {
    lua_State *L;
    int npieces; /* pieces pushed on the stack so far */
    int len;     /* bytes in buff */
    char buff[FMT_BUFFSIZE];
} FmtState;

static void push_piece(FmtState *fs, const char *s, size_t l)
{
    lua_State *L = fs->L;
    stack_check(L, 1);
    TString *ts = str_new(L, s, l);
    setsvalue(L, s2v(L->top), ts);
    L->top++;
    fs->npieces++;
}

static void flush_buffer(FmtState *fs)
{
    if (fs->len > 0) {
        push_piece(fs, fs->buff, (size_t)fs->len);
        fs->len = 0;
    }
}

static void add_text(FmtState *fs, const char *s, size_t l)
{
    if (l > (size_t)(FMT_BUFFSIZE - fs->len)) {
        flush_buffer(fs);
        if (l > FMT_BUFFSIZE / 2) { /* a long text becomes a piece of its own */
            push_piece(fs, s, l);
            return;
        }
    }
    memcpy(fs->buff + fs->len, s, l);
    fs->len += (int)l;
}

static void add_number(FmtState *fs, const TValue *num)
{
    char buff[MAXNUMBER2STR];
    int len = conv_tostringbuff(num, buff);
    add_text(fs, buff, (size_t)len);
}

/* Replace the [n] pieces on top of the stack by their concatenation. */
static void join_pieces(lua_State *L, int n)
{
    StkId first = L->top - n;
    size_t total = 0;
    for (StkId p = first; p < L->top; p++) total += vslen(s2v(p));
    TString *ts;
    if (total <= TIDE_MAXSHORTLEN) {
        char buff[TIDE_MAXSHORTLEN + 1];
        size_t at = 0;
        for (StkId p = first; p < L->top; p++) {
            memcpy(buff + at, svalue(s2v(p)), vslen(s2v(p)));
            at += vslen(s2v(p));
        }
        ts = str_new(L, buff, total);
    } else {
        ts = str_createlong(L, total); /* may collect: the pieces are on the stack */
        char *dst = getstr(ts);
        for (StkId p = first; p < L->top; p++) {
            memcpy(dst, svalue(s2v(p)), vslen(s2v(p)));
            dst += vslen(s2v(p));
        }
    }
    L->top = first;
    setsvalue(L, s2v(L->top), ts);
    L->top++;
}

static void add_directive(FmtState *fs, char directive, va_list *argp)
{
    char buff[UTF8BUFFSZ > 64 ? UTF8BUFFSZ : 64];
    TValue num;
    switch (directive) {
    case 's': {
        const char *s = va_arg(*argp, const char *);
        if (s == NULL) s = "(null)";
        add_text(fs, s, strlen(s));
        break;
    }
    case 'c':
        buff[0] = (char)(unsigned char)va_arg(*argp, int);
        add_text(fs, buff, 1);
        break;
    case 'd':
        setivalue(&num, va_arg(*argp, int));
        add_number(fs, &num);
        break;
    case 'I':
        setivalue(&num, (lua_Integer)va_arg(*argp, LUAI_UACINT));
        add_number(fs, &num);
        break;
    case 'f':
        setfltvalue(&num, (lua_Number)va_arg(*argp, LUAI_UACNUMBER));
        add_number(fs, &num);
        break;
    case 'p': {
        const void *p = va_arg(*argp, const void *);
        int len = snprintf(buff, sizeof buff, "%p", p);
        add_text(fs, buff, (size_t)len);
        break;
    }
    case 'U': {
        unsigned long cp = (unsigned long)va_arg(*argp, long);
        int len = conv_utf8esc(buff, cp);
        add_text(fs, buff + UTF8BUFFSZ - len, (size_t)len);
        break;
    }
    case '%':
        add_text(fs, "%", 1);
        break;
    default:
        dbg_runerror(fs->L, "invalid option '%%%c' to 'lua_pushfstring'", directive);
    }
}

const char *conv_pushvfstring(lua_State *L, const char *fmt, va_list argp)
{
    FmtState fs;
    fs.L = L;
    fs.npieces = 0;
    fs.len = 0;
    va_list args;
    va_copy(args, argp);
    const char *e;
    while ((e = strchr(fmt, '%')) != NULL) {
        add_text(&fs, fmt, (size_t)(e - fmt));
        add_directive(&fs, e[1], &args);
        fmt = e + 2;
    }
    va_end(args);
    add_text(&fs, fmt, strlen(fmt));
    if (fs.npieces == 0) {
        push_piece(&fs, fs.buff, (size_t)fs.len); /* the common case: one piece */
    } else {
        flush_buffer(&fs);
        if (fs.npieces > 1) join_pieces(L, fs.npieces);
    }
    return svalue(s2v(L->top - 1));
}

const char *conv_pushfstring(lua_State *L, const char *fmt, ...)
{
    va_list argp;
    va_start(argp, fmt);
    const char *s = conv_pushvfstring(L, fmt, argp);
    va_end(argp);
    return s;
}

/* --- chunk ids ----------------------------------------------------------------------
 * The short_src of a source, as lua5.4 forms it, in at most LUA_IDSIZE bytes
 * with the terminating zero:
 *   "=name"  -> name, cut at the end;
 *   "@file"  -> file, or "..." and the end of it when too long;
 *   text     -> [string "first line..."]. */

#define ELLIPSIS "..."
#define STR_PREFIX "[string \""
#define STR_SUFFIX "\"]"
#define LITLEN(s) (sizeof(s) - 1)

void conv_chunkid(char *out, const char *source, size_t srclen)
{
    const size_t room = LUA_IDSIZE - 1; /* bytes of text that fit */
    if (*source == '=' || *source == '@') {
        const char *name = source + 1;
        size_t len = srclen - 1;
        if (len <= room) {
            memcpy(out, name, len);
        } else if (*source == '=') { /* keep the beginning */
            len = room;
            memcpy(out, name, len);
        } else { /* keep the end: file names differ there */
            memcpy(out, ELLIPSIS, LITLEN(ELLIPSIS));
            size_t tail = room - LITLEN(ELLIPSIS);
            memcpy(out + LITLEN(ELLIPSIS), name + len - tail, tail);
            len = room;
        }
        out[len] = '\0';
        return;
    }
    /* room for the source text between the decorations */
    const size_t textroom = room - LITLEN(STR_PREFIX) - LITLEN(ELLIPSIS) - LITLEN(STR_SUFFIX);
    const char *newline = memchr(source, '\n', srclen);
    char *p = out;
    memcpy(p, STR_PREFIX, LITLEN(STR_PREFIX));
    p += LITLEN(STR_PREFIX);
    if (newline == NULL && srclen < textroom) {
        memcpy(p, source, srclen);
        p += srclen;
    } else {
        size_t len = newline != NULL ? (size_t)(newline - source) : srclen;
        if (len > textroom) len = textroom;
        memcpy(p, source, len);
        p += len;
        memcpy(p, ELLIPSIS, LITLEN(ELLIPSIS));
        p += LITLEN(ELLIPSIS);
    }
    memcpy(p, STR_SUFFIX, LITLEN(STR_SUFFIX) + 1);
}
