/*
 * lib_string_pattern.c — Lua patterns (manual §6.4.1) and the functions
 * built on them: string.find, string.match, string.gmatch, string.gsub.
 *
 * The matcher is a backtracking one working on byte pointers into the
 * subject and the pattern. Both strings stay on the Lua stack (or in the
 * running iterator's upvalues) for as long as a match runs, which is what
 * keeps those pointers valid while callbacks (gsub's replacement function,
 * __index of its table) run and the collector moves objects.
 *
 * Recursion: every nested call of match_here costs one unit of a budget of
 * MAX_MATCH_DEPTH; running out raises "pattern too complex". The calls that
 * nest are the same as the reference implementation's (captures, '?',
 * the expansions of '*', '+', '-'), so the same patterns hit the limit.
 */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "lib_string_internal.h"

#define MAX_CAPTURES 32
#define MAX_MATCH_DEPTH 200

/* A capture's length while it is still open, and the length that marks a
 * position capture "()". */
#define CAPTURE_OPEN (-1)
#define CAPTURE_POSITION (-2)

/* No match has ended anywhere yet (gmatch). */
#define NO_MATCH ((size_t)-1)

typedef struct {
    const char *start;
    ptrdiff_t len;
} Capture;

typedef struct {
    lua_State *L;
    const char *subject;
    const char *subject_end;
    const char *pattern_end;
    int depth_left;
    int level; /* captures opened so far */
    Capture capture[MAX_CAPTURES];
} Matcher;

static inline int uchar(char c) { return (unsigned char)c; }

static void matcher_init(Matcher *m, lua_State *L, const char *s, size_t ls, const char *p,
                         size_t lp)
{
    m->L = L;
    m->subject = s;
    m->subject_end = s + ls;
    m->pattern_end = p + lp;
    m->depth_left = MAX_MATCH_DEPTH;
    m->level = 0;
}

static void matcher_reset(Matcher *m)
{
    m->depth_left = MAX_MATCH_DEPTH;
    m->level = 0;
}

/* ---- Single-character classes ----------------------------------------- */

/* [cl] is the letter after '%'; an upper-case letter is the complement.
 * Any other character stands for itself. */
static bool class_matches(int c, int cl)
{
    bool in;
    switch (tolower(cl)) {
    case 'a': in = isalpha(c); break;
    case 'c': in = iscntrl(c); break;
    case 'd': in = isdigit(c); break;
    case 'g': in = isgraph(c); break;
    case 'l': in = islower(c); break;
    case 'p': in = ispunct(c); break;
    case 's': in = isspace(c); break;
    case 'u': in = isupper(c); break;
    case 'w': in = isalnum(c); break;
    case 'x': in = isxdigit(c); break;
    case 'z': in = (c == 0); break; /* Lua 5.1's class: 5.4 still has it */
    default: return cl == c;
    }
    return isupper(cl) ? !in : in;
}

/* A set "[...]": [p] is its '[' and [close] its closing ']'. */
static bool set_matches(int c, const char *p, const char *close)
{
    bool result = true;
    p++;
    if (*p == '^') {
        result = false;
        p++;
    }
    for (; p < close; p++) {
        if (*p == '%') {
            p++;
            if (class_matches(c, uchar(*p))) return result;
        } else if (p[1] == '-' && p + 2 < close) {
            if (uchar(p[0]) <= c && c <= uchar(p[2])) return result;
            p += 2;
        } else if (uchar(*p) == c) {
            return result;
        }
    }
    return !result;
}

/* One past the single-character class that starts at [p]. */
static const char *class_end(Matcher *m, const char *p)
{
    char c = *p++;
    if (c == '%') {
        if (p >= m->pattern_end) luaL_error(m->L, "malformed pattern (ends with '%%')");
        return p + 1;
    }
    if (c == '[') {
        if (p < m->pattern_end && *p == '^') p++;
        do { /* the first character of a set may be ']' itself */
            if (p >= m->pattern_end) luaL_error(m->L, "malformed pattern (missing ']')");
            c = *p++;
            if (c == '%' && p < m->pattern_end) p++;
        } while (p >= m->pattern_end || *p != ']');
        return p + 1;
    }
    return p;
}

/* Does the character at [s] match the class [p, ep)? */
static bool single_matches(const Matcher *m, const char *s, const char *p, const char *ep)
{
    if (s >= m->subject_end) return false;
    int c = uchar(*s);
    switch (*p) {
    case '.': return true;
    case '%': return class_matches(c, uchar(p[1]));
    case '[': return set_matches(c, p, ep - 1);
    default: return uchar(*p) == c;
    }
}

/* Runs of one class. class_span(s, end, p, ep, true) is one past the
 * longest run from [s] of characters in the class [p, ep);
 * class_span(..., false) is the first character from [s] that is in it
 * (or [end]). They give the same answers as single_matches character by
 * character, with the class decoded once instead of for every character:
 * '*', '+' and the search for where a match can start spend their time
 * here. SPAN_WHILE advances [s] (up to [end]) while the test [in_class]
 * is [target]. */
#define SPAN_WHILE(in_class)                                                \
    do {                                                                    \
        while (s < end && ((in_class) != 0) == target) s++;                 \
    } while (0)

static const char *class_letter_span(const char *s, const char *end, int cl, bool want)
{
    bool target = isupper(cl) ? !want : want;
    switch (tolower(cl)) {
    case 'a': SPAN_WHILE(isalpha(uchar(*s))); return s;
    case 'c': SPAN_WHILE(iscntrl(uchar(*s))); return s;
    case 'd': SPAN_WHILE(isdigit(uchar(*s))); return s;
    case 'g': SPAN_WHILE(isgraph(uchar(*s))); return s;
    case 'l': SPAN_WHILE(islower(uchar(*s))); return s;
    case 'p': SPAN_WHILE(ispunct(uchar(*s))); return s;
    case 's': SPAN_WHILE(isspace(uchar(*s))); return s;
    case 'u': SPAN_WHILE(isupper(uchar(*s))); return s;
    case 'w': SPAN_WHILE(isalnum(uchar(*s))); return s;
    case 'x': SPAN_WHILE(isxdigit(uchar(*s))); return s;
    case 'z': SPAN_WHILE(*s == '\0'); return s;
    default:
        target = want;
        SPAN_WHILE(uchar(*s) == cl);
        return s;
    }
}

static const char *class_span(const char *s, const char *end, const char *p, const char *ep,
                              bool want)
{
    bool target = want;
    switch (*p) {
    case '.': /* every character */
        return want ? end : s;
    case '%':
        return class_letter_span(s, end, uchar(p[1]), want);
    case '[':
        SPAN_WHILE(set_matches(uchar(*s), p, ep - 1));
        return s;
    default:
        if (!want) {
            const char *hit = memchr(s, *p, (size_t)(end - s));
            return hit != NULL ? hit : end;
        }
        SPAN_WHILE(*s == *p);
        return s;
    }
}

#undef SPAN_WHILE

/* ---- The matcher ------------------------------------------------------ */

static const char *match_here(Matcher *m, const char *s, const char *p);

/* %bxy at [p] (pointing at x). */
static const char *match_balance(Matcher *m, const char *s, const char *p)
{
    if (p + 1 >= m->pattern_end)
        luaL_error(m->L, "malformed pattern (missing arguments to '%%b')");
    if (s >= m->subject_end || *s != p[0]) return NULL;
    char open = p[0], close = p[1];
    ptrdiff_t depth = 1;
    while (++s < m->subject_end) {
        if (*s == close) {
            if (--depth == 0) return s + 1;
        } else if (*s == open) {
            depth++;
        }
    }
    return NULL;
}

/* %f[set] at [p] (pointing at '['): succeeds between a character not in
 * the set and one in it; the subject's ends count as '\0'. */
static const char *match_frontier(Matcher *m, const char *s, const char *p, const char **next)
{
    if (p >= m->pattern_end || *p != '[') luaL_error(m->L, "missing '[' after '%%f' in pattern");
    const char *ep = class_end(m, p);
    int before = (s == m->subject) ? 0 : uchar(s[-1]);
    int here = (s < m->subject_end) ? uchar(*s) : 0;
    *next = ep;
    if (!set_matches(before, p, ep - 1) && set_matches(here, p, ep - 1)) return s;
    return NULL;
}

/* %1-%9: the text of an earlier, closed capture. */
static const char *match_backreference(Matcher *m, const char *s, int digit)
{
    int l = digit - '1';
    if (l < 0 || l >= m->level || m->capture[l].len == CAPTURE_OPEN)
        luaL_error(m->L, "invalid capture index %%%d", l + 1);
    ptrdiff_t len = m->capture[l].len;
    if (len == CAPTURE_POSITION) return NULL; /* a position is no text */
    if (m->subject_end - s >= len && memcmp(m->capture[l].start, s, (size_t)len) == 0)
        return s + len;
    return NULL;
}

static const char *start_capture(Matcher *m, const char *s, const char *p, ptrdiff_t what)
{
    if (m->level >= MAX_CAPTURES) luaL_error(m->L, "too many captures");
    m->capture[m->level].start = s;
    m->capture[m->level].len = what;
    m->level++;
    const char *result = match_here(m, s, p);
    if (result == NULL) m->level--;
    return result;
}

static const char *end_capture(Matcher *m, const char *s, const char *p)
{
    int l = m->level - 1;
    while (l >= 0 && m->capture[l].len != CAPTURE_OPEN) l--;
    if (l < 0) luaL_error(m->L, "invalid pattern capture");
    m->capture[l].len = s - m->capture[l].start;
    const char *result = match_here(m, s, p);
    if (result == NULL) m->capture[l].len = CAPTURE_OPEN;
    return result;
}

/* '*' and '+': the longest run of [p, ep) from [s] that lets the rest
 * match. */
static const char *max_expand(Matcher *m, const char *s, const char *p, const char *ep)
{
    ptrdiff_t count = class_span(s, m->subject_end, p, ep, true) - s;
    for (; count >= 0; count--) {
        const char *result = match_here(m, s + count, ep + 1);
        if (result != NULL) return result;
    }
    return NULL;
}

/* '-': the shortest run that lets the rest match. */
static const char *min_expand(Matcher *m, const char *s, const char *p, const char *ep)
{
    for (;;) {
        const char *result = match_here(m, s, ep + 1);
        if (result != NULL) return result;
        if (!single_matches(m, s, p, ep)) return NULL;
        s++;
    }
}

/* A class at [p, ep) followed by an optional quantifier. */
static const char *match_quantified(Matcher *m, const char *s, const char *p, const char *ep,
                                    const char **next)
{
    char quantifier = (ep < m->pattern_end) ? *ep : '\0';
    if (!single_matches(m, s, p, ep)) {
        if (quantifier == '*' || quantifier == '?' || quantifier == '-') {
            *next = ep + 1; /* zero occurrences will do */
            return s;
        }
        return NULL;
    }
    switch (quantifier) {
    case '?': {
        const char *result = match_here(m, s + 1, ep + 1);
        if (result != NULL) {
            *next = NULL;
            return result;
        }
        *next = ep + 1;
        return s;
    }
    case '+': *next = NULL; return max_expand(m, s + 1, p, ep);
    case '*': *next = NULL; return max_expand(m, s, p, ep);
    case '-': *next = NULL; return min_expand(m, s, p, ep);
    default: *next = ep; return s + 1;
    }
}

/* Matches pattern items from [p] on at [s], without counting depth.
 * Items that finish the whole match themselves (captures, expansions)
 * return directly; the others advance [s] and [p] and loop. */
static const char *match_items(Matcher *m, const char *s, const char *p)
{
    const char *end = m->pattern_end;
    while (p < end) {
        const char *next = NULL;
        switch (*p) {
        case '(':
            if (p + 1 < end && p[1] == ')') return start_capture(m, s, p + 2, CAPTURE_POSITION);
            return start_capture(m, s, p + 1, CAPTURE_OPEN);
        case ')':
            return end_capture(m, s, p + 1);
        case '$':
            if (p + 1 == end) return (s == m->subject_end) ? s : NULL;
            break;
        case '%':
            if (p + 1 >= end) break; /* class_end reports it */
            if (p[1] == 'b') {
                s = match_balance(m, s, p + 2);
                next = p + 4;
            } else if (p[1] == 'f') {
                s = match_frontier(m, s, p + 2, &next);
            } else if (isdigit(uchar(p[1]))) {
                s = match_backreference(m, s, uchar(p[1]));
                next = p + 2;
            }
            break;
        }
        if (next == NULL) s = match_quantified(m, s, p, class_end(m, p), &next);
        if (s == NULL || next == NULL) return s;
        p = next;
    }
    return s;
}

static const char *match_here(Matcher *m, const char *s, const char *p)
{
    if (m->depth_left-- == 0) luaL_error(m->L, "pattern too complex");
    s = match_items(m, s, p);
    m->depth_left++;
    return s;
}

/* ---- Captures --------------------------------------------------------- */

/* Capture [i] of the match [s, e): as text in [*start, *start + *len), or
 * as a position (returns true, *len unset). With no captures at all,
 * capture 0 is the whole match. */
static bool capture_span(const Matcher *m, int i, const char *s, const char *e,
                         const char **start, size_t *len)
{
    if (i >= m->level) {
        if (i != 0) luaL_error(m->L, "invalid capture index %%%d", i + 1);
        *start = s;
        *len = (size_t)(e - s);
        return false;
    }
    const Capture *c = &m->capture[i];
    if (c->len == CAPTURE_OPEN) luaL_error(m->L, "unfinished capture");
    *start = c->start;
    if (c->len == CAPTURE_POSITION) return true;
    *len = (size_t)c->len;
    return false;
}

static void push_capture(const Matcher *m, int i, const char *s, const char *e)
{
    const char *start;
    size_t len;
    if (capture_span(m, i, s, e, &start, &len))
        lua_pushinteger(m->L, (lua_Integer)(start - m->subject) + 1);
    else
        lua_pushlstring(m->L, start, len);
}

/* Pushes every capture; with none, the whole match [s, e) when [s] is not
 * NULL (find pushes only real captures). */
static int push_captures(const Matcher *m, const char *s, const char *e)
{
    int count = (m->level == 0 && s != NULL) ? 1 : m->level;
    luaL_checkstack(m->L, count, "too many captures");
    for (int i = 0; i < count; i++) push_capture(m, i, s, e);
    return count;
}

/* ---- Searching -------------------------------------------------------- */

static bool is_special(char c)
{
    switch (c) {
    case '^': case '$': case '*': case '+': case '?':
    case '.': case '(': case '[': case '%': case '-':
        return true;
    default:
        return false;
    }
}

static bool has_specials(const char *p, size_t lp)
{
    for (size_t i = 0; i < lp; i++)
        if (is_special(p[i])) return true;
    return false;
}

static const char *find_plain(const char *s, size_t ls, const char *p, size_t lp)
{
    if (lp == 0) return s;
    if (lp > ls) return NULL;
    const char *last = s + (ls - lp);
    while (s <= last) {
        const char *hit = memchr(s, p[0], (size_t)(last - s) + 1);
        if (hit == NULL) return NULL;
        /* the last byte first: a cheap test that rejects most near misses */
        if (hit[lp - 1] == p[lp - 1] && memcmp(hit + 1, p + 1, lp - 1) == 0) return hit;
        s = hit + 1;
    }
    return NULL;
}

/* Where a match can start. When the pattern's first item is a single
 * class that must match at least once, a match can only start at a
 * character of that class, so searches jump from one such character to the
 * next instead of running the matcher at every position. An attempt at any
 * other position would fail at once without side effects, so the results
 * and errors are the same. */
typedef struct {
    const char *p, *ep; /* the first item's class, or p == NULL */
} StartFilter;

static StartFilter start_filter(Matcher *m, const char *p, bool anchored)
{
    StartFilter f = {NULL, NULL};
    const char *end = m->pattern_end;
    if (anchored || p >= end) return f;
    switch (*p) {
    case '(': case ')': return f;
    case '$': if (p + 1 == end) return f; break;
    case '%':
        if (p + 1 < end && (p[1] == 'b' || p[1] == 'f' || isdigit(uchar(p[1])))) return f;
        break;
    }
    /* the first attempt would decode this item too, raising the same errors */
    const char *ep = class_end(m, p);
    if (ep < end && (*ep == '*' || *ep == '?' || *ep == '-')) return f;
    f.p = p;
    f.ep = ep;
    return f;
}

/* The first position at or after [s] where a match can start. */
static const char *next_candidate(const Matcher *m, const StartFilter *f, const char *s)
{
    if (f->p == NULL || s >= m->subject_end) return s;
    return class_span(s, m->subject_end, f->p, f->ep, false);
}

static int find_aux(lua_State *L, bool find)
{
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = strlib_start_position(luaL_optinteger(L, 3, 1), ls) - 1;
    if (init > ls) {
        luaL_pushfail(L);
        return 1;
    }
    if (find && (lua_toboolean(L, 4) || !has_specials(p, lp))) {
        const char *hit = find_plain(s + init, ls - init, p, lp);
        if (hit != NULL) {
            lua_pushinteger(L, (lua_Integer)(hit - s) + 1);
            lua_pushinteger(L, (lua_Integer)(hit - s + (ptrdiff_t)lp));
            return 2;
        }
        luaL_pushfail(L);
        return 1;
    }
    bool anchored = lp > 0 && *p == '^';
    if (anchored) p++, lp--;
    Matcher m;
    matcher_init(&m, L, s, ls, p, lp);
    StartFilter filter = start_filter(&m, p, anchored);
    const char *start = s + init;
    do {
        start = next_candidate(&m, &filter, start);
        matcher_reset(&m);
        const char *e = match_here(&m, start, p);
        if (e != NULL) {
            if (!find) return push_captures(&m, start, e);
            lua_pushinteger(L, (lua_Integer)(start - s) + 1);
            lua_pushinteger(L, (lua_Integer)(e - s));
            return push_captures(&m, NULL, NULL) + 2;
        }
    } while (start++ < m.subject_end && !anchored);
    luaL_pushfail(L);
    return 1;
}

int strlib_find(lua_State *L) { return find_aux(L, true); }
int strlib_match(lua_State *L) { return find_aux(L, false); }

/* ---- gmatch ----------------------------------------------------------- */

/* Where the iterator resumes, and where its last match ended (an empty
 * match may not end where the previous match did). Offsets, not pointers:
 * the strings may move between calls. */
typedef struct {
    size_t next;
    size_t last_end;
} GmatchState;

static int gmatch_step(lua_State *L)
{
    size_t ls, lp;
    const char *s = lua_tolstring(L, lua_upvalueindex(1), &ls);
    const char *p = lua_tolstring(L, lua_upvalueindex(2), &lp);
    GmatchState *state = lua_touserdata(L, lua_upvalueindex(3));
    if (state->next > ls) return 0; /* no attempt at all: no pattern errors */
    Matcher m;
    matcher_init(&m, L, s, ls, p, lp);
    StartFilter filter = start_filter(&m, p, false);
    for (const char *start = s + state->next; start <= m.subject_end; start++) {
        start = next_candidate(&m, &filter, start);
        matcher_reset(&m);
        const char *e = match_here(&m, start, p);
        if (e != NULL && (size_t)(e - s) != state->last_end) {
            state->next = state->last_end = (size_t)(e - s);
            return push_captures(&m, start, e);
        }
    }
    state->next = ls + 1;
    return 0;
}

int strlib_gmatch(lua_State *L)
{
    size_t ls;
    luaL_checklstring(L, 1, &ls);
    luaL_checkstring(L, 2);
    size_t init = strlib_start_position(luaL_optinteger(L, 3, 1), ls) - 1;
    if (init > ls) init = ls + 1; /* past the end: nothing matches */
    lua_settop(L, 2);
    GmatchState *state = lua_newuserdatauv(L, sizeof *state, 0);
    state->next = init;
    state->last_end = NO_MATCH;
    lua_pushcclosure(L, gmatch_step, 3);
    return 1;
}

/* ---- gsub ------------------------------------------------------------- */

/* gsub's third argument, which stays at stack index 3. */
typedef struct {
    int type;
    const char *text; /* a string (or number) replacement */
    size_t len;
} Replacement;

/* A replacement string: %0-%9 are captures, %% is '%'. */
static void add_template(const Matcher *m, luaL_Buffer *b, const Replacement *r, const char *s,
                         const char *e)
{
    lua_State *L = m->L;
    const char *t = r->text;
    const char *t_end = t + r->len;
    while (t < t_end) {
        const char *escape = memchr(t, '%', (size_t)(t_end - t));
        if (escape == NULL) {
            luaL_addlstring(b, t, (size_t)(t_end - t));
            return;
        }
        luaL_addlstring(b, t, (size_t)(escape - t));
        t = escape + 1;
        int c = (t < t_end) ? uchar(*t) : 0;
        if (c == '%') {
            luaL_addchar(b, '%');
        } else if (c == '0') {
            luaL_addlstring(b, s, (size_t)(e - s));
        } else if (isdigit(c)) {
            const char *start;
            size_t clen;
            if (capture_span(m, c - '1', s, e, &start, &clen)) {
                lua_pushinteger(L, (lua_Integer)(start - m->subject) + 1);
                lua_tolstring(L, -1, NULL);
                luaL_addvalue(b);
            } else {
                luaL_addlstring(b, start, clen);
            }
        } else {
            luaL_error(L, "invalid use of '%%' in replacement string");
        }
        t++;
    }
}

/* Adds what replaces the match [s, e): the value the function or table
 * gives, or the match itself when that value is false or nil. */
static void add_replacement(const Matcher *m, luaL_Buffer *b, const Replacement *r,
                            const char *s, const char *e)
{
    lua_State *L = m->L;
    if (r->type == LUA_TFUNCTION) {
        lua_pushvalue(L, 3);
        int count = push_captures(m, s, e);
        lua_call(L, count, 1);
    } else if (r->type == LUA_TTABLE) {
        push_capture(m, 0, s, e);
        lua_gettable(L, 3);
    } else {
        add_template(m, b, r, s, e);
        return;
    }
    int type = lua_type(L, -1);
    if (type == LUA_TSTRING) {
        luaL_addvalue(b);
    } else if (type == LUA_TNUMBER) {
        lua_tolstring(L, -1, NULL); /* a number becomes its string */
        luaL_addvalue(b);
    } else if (!lua_toboolean(L, -1)) {
        lua_pop(L, 1);
        luaL_addlstring(b, s, (size_t)(e - s));
    } else {
        luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    }
}

int strlib_gsub(lua_State *L)
{
    size_t ls, lp;
    const char *src = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    Replacement repl = {lua_type(L, 3), NULL, 0};
    lua_Integer max_count = luaL_optinteger(L, 4, (lua_Integer)ls + 1);
    luaL_argexpected(L,
                     repl.type == LUA_TNUMBER || repl.type == LUA_TSTRING ||
                         repl.type == LUA_TFUNCTION || repl.type == LUA_TTABLE,
                     3, "string/function/table");
    if (repl.type == LUA_TNUMBER || repl.type == LUA_TSTRING)
        repl.text = lua_tolstring(L, 3, &repl.len);
    bool anchored = lp > 0 && *p == '^';
    if (anchored) p++, lp--;
    Matcher m;
    matcher_init(&m, L, src, ls, p, lp);
    /* with no replacement allowed nothing is attempted, not even decoding */
    StartFilter filter = start_filter(&m, p, anchored || max_count <= 0);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    const char *s = src, *last_end = NULL;
    lua_Integer count = 0;
    while (count < max_count) {
        matcher_reset(&m);
        const char *e = match_here(&m, s, p);
        if (e != NULL && e != last_end) {
            count++;
            add_replacement(&m, &b, &repl, s, e);
            s = last_end = e;
        } else if (s < m.subject_end) {
            const char *next = next_candidate(&m, &filter, s + 1);
            luaL_addlstring(&b, s, (size_t)(next - s));
            s = next;
        } else {
            break;
        }
        if (anchored) break;
    }
    luaL_addlstring(&b, s, (size_t)(m.subject_end - s));
    luaL_pushresult(&b);
    lua_pushinteger(L, count);
    return 2;
}
