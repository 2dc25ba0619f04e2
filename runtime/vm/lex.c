/*
 * lex.c — the lexer (lex.h).
 *
 * Character classes are ASCII and never depend on the C locale, so a
 * chunk means the same thing wherever it is loaded. Error messages follow
 * lua5.4 word for word: "chunk:line: message near 'TOKEN'", where TOKEN is
 * the text scanned so far for names, strings and numerals.
 */
#include <limits.h>
#include <string.h>

#include "lex.h"
#include "calls.h"
#include "conv.h"
#include "strings.h"
#include "tables.h"
#include "../gc/gc.h"

/* Names of the tokens above the single bytes, in enum LexToken order. */
static const char *const token_names[] = {
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function",
    "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then",
    "true", "until", "while",
    "//", "..", "...", "==", ">=", "<=", "~=", "<<", ">>", "::",
    "<eof>", "<number>", "<integer>", "<name>", "<string>"
};

_Static_assert(sizeof(token_names) / sizeof(token_names[0]) == TK_STRING - LEX_FIRST_RESERVED + 1,
               "one name per token");

/* --- character classes (ASCII only) --------------------------------------- */

static inline int is_digit(int c) { return c >= '0' && c <= '9'; }
static inline int is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static inline int is_alnum(int c) { return is_alpha(c) || is_digit(c); }
static inline int is_xdigit(int c) { return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); }
static inline int is_space(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static inline int is_print(int c) { return c >= 0x20 && c < 0x7F; }
static inline int is_newline(int c) { return c == '\n' || c == '\r'; }

/* --- reserved words ---------------------------------------------------------- */

void lex_init(lua_State *L)
{
    for (int i = 0; i < LEX_NUM_RESERVED; i++) {
        TString *ts = str_newz(L, token_names[i]);
        gc_fix(L, obj2gco(ts));
        ts->extra = (uint8_t)(i + 1);
    }
}

/* --- the token buffer -------------------------------------------------------- */

#define MIN_BUFFSIZE 32

static _Noreturn void lex_error(LexState *ls, const char *msg, int token);

static void grow_buffer(LexState *ls)
{
    if (ls->buffsize >= ((size_t)INT_MAX) / 2) lex_error(ls, "lexical element too long", 0);
    size_t newsize = ls->buffsize < MIN_BUFFSIZE ? MIN_BUFFSIZE : ls->buffsize * 2;
    if (ls->buff == NULL)
        ls->buff = gc_raw_alloc(ls->L, newsize);
    else
        ls->buff = gc_raw_realloc(ls->L, ls->buff, ls->buffsize, newsize);
    ls->buffsize = newsize;
}

static inline void save(LexState *ls, int c)
{
    if (ls->bufflen >= ls->buffsize) grow_buffer(ls);
    ls->buff[ls->bufflen++] = (char)c;
}

static inline void next_char(LexState *ls)
{
    ls->current = reader_getc(ls->z);
}

static inline void save_and_next(LexState *ls)
{
    save(ls, ls->current);
    next_char(ls);
}

/* Consume [c] if it is the current byte. */
static inline int next_is(LexState *ls, int c)
{
    if (ls->current != c) return 0;
    next_char(ls);
    return 1;
}

/* Save and consume the current byte if it is one of the two in [pair]. */
static inline int save_if_either(LexState *ls, const char *pair)
{
    if (ls->current != pair[0] && ls->current != pair[1]) return 0;
    save_and_next(ls);
    return 1;
}

/* --- errors ------------------------------------------------------------------ */

const char *lex_token2str(LexState *ls, int token)
{
    if (token < LEX_FIRST_RESERVED) {
        if (is_print(token)) return conv_pushfstring(ls->L, "'%c'", token);
        return conv_pushfstring(ls->L, "'<\\%d>'", token);
    }
    const char *name = token_names[token - LEX_FIRST_RESERVED];
    if (token < TK_EOS) return conv_pushfstring(ls->L, "'%s'", name);
    return name; /* <eof>, <name>, ... are shown as they are */
}

/* How a token appears after "near": the scanned text for tokens that have
 * one (lua5.4 quotes the raw lexeme as far as it was read). */
static const char *token_text(LexState *ls, int token)
{
    switch (token) {
    case TK_NAME: case TK_STRING: case TK_FLT: case TK_INT:
        save(ls, '\0');
        return conv_pushfstring(ls->L, "'%s'", ls->buff);
    default:
        return lex_token2str(ls, token);
    }
}

/* "chunk:line: msg", plus " near TOKEN" when [token] is not 0. */
static _Noreturn void lex_error(LexState *ls, const char *msg, int token)
{
    lua_State *L = ls->L;
    char chunk[LUA_IDSIZE];
    conv_chunkid(chunk, ls->chunkname, strlen(ls->chunkname));
    msg = conv_pushfstring(L, "%s:%d: %s", chunk, ls->linenumber, msg);
    if (token != 0) conv_pushfstring(L, "%s near %s", msg, token_text(ls, token));
    call_throw(L, LUA_ERRSYNTAX);
}

void lex_syntaxerror(LexState *ls, const char *msg)
{
    lex_error(ls, msg, ls->t.token);
}

void lex_semerror(LexState *ls, const char *msg)
{
    lex_error(ls, msg, 0);
}

/* --- strings ------------------------------------------------------------------- */

/* Anchor [ts] (see lex.h); returns the anchored copy, which differs from
 * [ts] only for a long string seen before. */
static TString *anchor(LexState *ls, TString *ts, int *id)
{
    lua_State *L = ls->L;
    const TValue *slot = tab_getstr(ls->anchors, ts);
    if (ttisinteger(slot)) {
        int known = (int)ivalue(slot);
        if (id != NULL) *id = known;
        return lex_idstring(ls, known);
    }
    int newid = ++ls->nstrings;
    TValue key, val;
    setsvalue(L, &key, ts);
    setivalue(&val, newid);
    tab_finishset(L, ls->anchors, &key, slot, &val); /* anchors[ts] = id */
    tab_setint(L, ls->anchors, newid, &key);         /* anchors[id] = ts */
    if (id != NULL) *id = newid;
    return ts;
}

TString *lex_newstring(LexState *ls, const char *s, size_t len, int *id)
{
    return anchor(ls, str_new(ls->L, s, len), id);
}

int lex_stringid(LexState *ls, TString *ts)
{
    const TValue *slot = tab_getstr(ls->anchors, ts);
    lua_assert(ttisinteger(slot));
    return (int)ivalue(slot);
}

TString *lex_idstring(LexState *ls, int id)
{
    const TValue *o = tab_getint(ls->anchors, id);
    lua_assert(ttisstring(o));
    return tsvalue(o);
}

/* --- lines --------------------------------------------------------------------- */

/* Step over a line break: "\n", "\r", "\n\r" or "\r\n". */
static void skip_newline(LexState *ls)
{
    int first = ls->current;
    lua_assert(is_newline(first));
    next_char(ls);
    if (is_newline(ls->current) && ls->current != first) next_char(ls);
    if (++ls->linenumber >= INT_MAX) lex_error(ls, "chunk has too many lines", 0);
}

void lex_setinput(lua_State *L, LexState *ls, Reader *z, TString *source, int firstchar)
{
    ls->t.token = 0;
    ls->L = L;
    ls->current = firstchar;
    ls->ahead.token = TK_EOS;
    ls->z = z;
    ls->fs = NULL;
    ls->linenumber = 1;
    ls->lastline = 1;
    ls->source = source;
    ls->bufflen = 0;
    ls->nstrings = 0;
    if (ls->buff == NULL) grow_buffer(ls);
    ls->envname = lex_newstring(ls, "_ENV", 4, &ls->envid);
    lex_newstring(ls, "break", 5, &ls->breakid);
}

/* --- numerals -------------------------------------------------------------------- */

/* Read a numeral: the longest run of digits, dots, hex digits and exponent
 * marks (with a sign right after the mark), then let conv_str2num judge the
 * whole text. A letter glued to the end is taken in so that "3x" is
 * malformed rather than two tokens. */
static int read_numeral(LexState *ls, TokenValue *value)
{
    const char *exponent = "Ee";
    int first = ls->current;
    lua_assert(is_digit(first));
    save_and_next(ls);
    if (first == '0' && save_if_either(ls, "xX")) exponent = "Pp";
    for (;;) {
        if (save_if_either(ls, exponent))
            save_if_either(ls, "-+");
        else if (is_xdigit(ls->current) || ls->current == '.')
            save_and_next(ls);
        else
            break;
    }
    if (is_alpha(ls->current)) save_and_next(ls);
    save(ls, '\0');
    TValue num;
    if (conv_str2num(ls->buff, &num) == 0) lex_error(ls, "malformed number", TK_FLT);
    if (ttisinteger(&num)) {
        value->i = ivalue(&num);
        return TK_INT;
    }
    value->r = fltvalue(&num);
    return TK_FLT;
}

/* --- long brackets ------------------------------------------------------------------ */

/* At '[' or ']': read the bracket and the '='s after it. Returns the level
 * + 2 when a second bracket of the same kind follows (a well-formed long
 * bracket), 1 for a lone bracket, 0 for '=' signs with no bracket after
 * them. The second bracket is left unread. */
static size_t bracket_level(LexState *ls)
{
    size_t count = 0;
    int bracket = ls->current;
    lua_assert(bracket == '[' || bracket == ']');
    save_and_next(ls);
    while (ls->current == '=') {
        save_and_next(ls);
        count++;
    }
    if (ls->current == bracket) return count + 2;
    return count == 0 ? 1 : 0;
}

/* A long string (value != NULL) or long comment (value == NULL) of [sep]
 * (the bracket_level result); the opening bracket's '[=*' is read. */
static void read_long_string(LexState *ls, TokenValue *value, size_t sep)
{
    int startline = ls->linenumber;
    save_and_next(ls); /* the second '[' */
    if (is_newline(ls->current)) skip_newline(ls); /* a first line break is not part of it */
    for (;;) {
        switch (ls->current) {
        case READER_EOZ: {
            const char *what = value != NULL ? "string" : "comment";
            const char *msg =
                conv_pushfstring(ls->L, "unfinished long %s (starting at line %d)", what, startline);
            lex_error(ls, msg, TK_EOS);
        }
        case ']':
            if (bracket_level(ls) == sep) {
                save_and_next(ls); /* the second ']' */
                goto done;
            }
            break;
        case '\n': case '\r':
            save(ls, '\n');
            skip_newline(ls);
            if (value == NULL) ls->bufflen = 0; /* a comment's text is not kept */
            break;
        default:
            if (value != NULL)
                save_and_next(ls);
            else
                next_char(ls);
        }
    }
done:
    if (value != NULL) value->s.ts = lex_newstring(ls, ls->buff + sep, ls->bufflen - 2 * sep, &value->s.id);
}

/* --- short strings and escapes -------------------------------------------------------- */

/* Escape errors show the string up to and including the offending byte. */
static void escape_check(LexState *ls, int ok, const char *msg)
{
    if (!ok) {
        if (ls->current != READER_EOZ) save_and_next(ls);
        lex_error(ls, msg, TK_STRING);
    }
}

/* Save the current byte (the escape letter or previous digit), step, and
 * read one hex digit. */
static int hex_digit(LexState *ls)
{
    save_and_next(ls);
    escape_check(ls, is_xdigit(ls->current), "hexadecimal digit expected");
    return conv_hexavalue(ls->current);
}

/* \xXX: returns the byte; the current byte is the second digit, unread. */
static int read_hex_escape(LexState *ls)
{
    int r = hex_digit(ls);
    r = (r << 4) + hex_digit(ls);
    ls->bufflen -= 2; /* drop the 'x' and the first digit */
    return r;
}

/* \u{XXX}: returns the code point (up to 2^31 - 1); consumes the '}'. */
static unsigned long read_utf8_escape(LexState *ls)
{
    size_t saved = 4; /* '\', 'u', '{' and the first digit get saved */
    save_and_next(ls); /* the 'u' */
    escape_check(ls, ls->current == '{', "missing '{'");
    unsigned long r = (unsigned long)hex_digit(ls);
    for (;;) {
        save_and_next(ls);
        if (!is_xdigit(ls->current)) break;
        saved++;
        escape_check(ls, r <= (0x7FFFFFFFul >> 4), "UTF-8 value too large");
        r = (r << 4) + (unsigned long)conv_hexavalue(ls->current);
    }
    escape_check(ls, ls->current == '}', "missing '}'");
    next_char(ls);
    ls->bufflen -= saved;
    return r;
}

/* \ddd (up to three digits): returns the byte value. */
static int read_decimal_escape(LexState *ls)
{
    int r = 0;
    int i;
    for (i = 0; i < 3 && is_digit(ls->current); i++) {
        r = 10 * r + ls->current - '0';
        save_and_next(ls);
    }
    escape_check(ls, r <= UCHAR_MAX, "decimal escape too large");
    ls->bufflen -= (size_t)i;
    return r;
}

/* The escape after a '\' (saved in the buffer for error messages, removed
 * here once the escape is understood). */
static void read_escape(LexState *ls)
{
    int c;
    save_and_next(ls); /* the '\' */
    switch (ls->current) {
    case 'a': c = '\a'; break;
    case 'b': c = '\b'; break;
    case 'f': c = '\f'; break;
    case 'n': c = '\n'; break;
    case 'r': c = '\r'; break;
    case 't': c = '\t'; break;
    case 'v': c = '\v'; break;
    case '\\': case '"': case '\'': c = ls->current; break;
    case 'x': c = read_hex_escape(ls); break;
    case 'u': {
        char utf8[UTF8BUFFSZ];
        int n = conv_utf8esc(utf8, read_utf8_escape(ls)); /* drops the '\' too */
        for (; n > 0; n--) save(ls, utf8[UTF8BUFFSZ - n]);
        return;
    }
    case '\n': case '\r': /* an escaped line break is a '\n' */
        skip_newline(ls);
        ls->bufflen--;
        save(ls, '\n');
        return;
    case READER_EOZ:
        return; /* the string loop reports it */
    case 'z': /* skip the following white space, line breaks included */
        ls->bufflen--;
        next_char(ls);
        while (is_space(ls->current)) {
            if (is_newline(ls->current))
                skip_newline(ls);
            else
                next_char(ls);
        }
        return;
    default:
        escape_check(ls, is_digit(ls->current), "invalid escape sequence");
        c = read_decimal_escape(ls);
        ls->bufflen--;
        save(ls, c);
        return;
    }
    /* a one-letter escape (or \x, whose last digit is current): consume it */
    next_char(ls);
    ls->bufflen--;
    save(ls, c);
}

static void read_string(LexState *ls, int delimiter, TokenValue *value)
{
    save_and_next(ls); /* the opening quote stays in the buffer for messages */
    while (ls->current != delimiter) {
        switch (ls->current) {
        case READER_EOZ:
            lex_error(ls, "unfinished string", TK_EOS);
        case '\n': case '\r':
            lex_error(ls, "unfinished string", TK_STRING);
        case '\\':
            read_escape(ls);
            break;
        default:
            save_and_next(ls);
        }
    }
    save_and_next(ls); /* the closing quote */
    value->s.ts = lex_newstring(ls, ls->buff + 1, ls->bufflen - 2, &value->s.id);
}

/* --- the scanner ------------------------------------------------------------------------ */

static void skip_comment(LexState *ls)
{
    /* the "--" is consumed */
    if (ls->current == '[') {
        size_t sep = bracket_level(ls);
        ls->bufflen = 0;
        if (sep >= 2) {
            read_long_string(ls, NULL, sep);
            ls->bufflen = 0;
            return;
        }
    }
    while (!is_newline(ls->current) && ls->current != READER_EOZ) next_char(ls);
}

static int scan(LexState *ls, TokenValue *value)
{
    ls->bufflen = 0;
    for (;;) {
        switch (ls->current) {
        case '\n': case '\r':
            skip_newline(ls);
            break;
        case ' ': case '\f': case '\t': case '\v':
            next_char(ls);
            break;
        case '-':
            next_char(ls);
            if (ls->current != '-') return '-';
            next_char(ls);
            skip_comment(ls);
            break;
        case '[': {
            size_t sep = bracket_level(ls);
            if (sep >= 2) {
                read_long_string(ls, value, sep);
                return TK_STRING;
            }
            if (sep == 0) lex_error(ls, "invalid long string delimiter", TK_STRING);
            return '[';
        }
        case '=':
            next_char(ls);
            return next_is(ls, '=') ? TK_EQ : '=';
        case '<':
            next_char(ls);
            if (next_is(ls, '=')) return TK_LE;
            return next_is(ls, '<') ? TK_SHL : '<';
        case '>':
            next_char(ls);
            if (next_is(ls, '=')) return TK_GE;
            return next_is(ls, '>') ? TK_SHR : '>';
        case '/':
            next_char(ls);
            return next_is(ls, '/') ? TK_IDIV : '/';
        case '~':
            next_char(ls);
            return next_is(ls, '=') ? TK_NE : '~';
        case ':':
            next_char(ls);
            return next_is(ls, ':') ? TK_DBCOLON : ':';
        case '"': case '\'':
            read_string(ls, ls->current, value);
            return TK_STRING;
        case '.':
            save_and_next(ls);
            if (next_is(ls, '.')) return next_is(ls, '.') ? TK_DOTS : TK_CONCAT;
            if (!is_digit(ls->current)) return '.';
            return read_numeral(ls, value);
        case '0': case '1': case '2': case '3': case '4':
        case '5': case '6': case '7': case '8': case '9':
            return read_numeral(ls, value);
        case READER_EOZ:
            return TK_EOS;
        default:
            if (is_alpha(ls->current)) {
                do {
                    save_and_next(ls);
                } while (is_alnum(ls->current));
                TString *ts = str_new(ls->L, ls->buff, ls->bufflen);
                if (isreserved(ts)) return ts->extra - 1 + LEX_FIRST_RESERVED;
                value->s.ts = anchor(ls, ts, &value->s.id);
                return TK_NAME;
            } else {
                int c = ls->current; /* a one-byte token: '+', '*', '{', ... */
                next_char(ls);
                return c;
            }
        }
    }
}

void lex_next(LexState *ls)
{
    ls->lastline = ls->linenumber;
    if (ls->ahead.token != TK_EOS) {
        ls->t = ls->ahead;
        ls->ahead.token = TK_EOS;
    } else {
        ls->t.token = scan(ls, &ls->t.value);
    }
}

int lex_lookahead(LexState *ls)
{
    lua_assert(ls->ahead.token == TK_EOS);
    ls->ahead.token = scan(ls, &ls->ahead.value);
    return ls->ahead.token;
}
