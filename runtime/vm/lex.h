/*
 * lex.h — the lexer: Lua 5.4 source text to tokens (lex.c).
 *
 * The lexer pulls bytes from a Reader one at a time ([current] is the byte
 * under examination, already read) and keeps the text of the token being
 * scanned in [buff], which error messages quote ("near 'TOKEN'").
 *
 * Strings it makes (names, string literals) are kept in the anchor table
 * [anchors], which the compiler keeps on the Lua stack for the whole
 * compilation, and numbered: anchors[ts] = id and anchors[id] = ts. The
 * parser's own arrays are gc_raw memory, which the collector neither scans
 * nor updates when it moves a string, so they hold ids, never TString
 * pointers. The table also makes equal long strings one object.
 */
#ifndef TIDE_VM_LEX_H
#define TIDE_VM_LEX_H

#include "compiler.h"

/* Single-byte tokens are their own byte value; the others start above. */
#define LEX_FIRST_RESERVED 257

/* The reserved words come first, in the order lex_init interns them (and
 * TString.extra - 1 indexes). */
enum LexToken {
    TK_AND = LEX_FIRST_RESERVED, TK_BREAK, TK_DO, TK_ELSE, TK_ELSEIF, TK_END,
    TK_FALSE, TK_FOR, TK_FUNCTION, TK_GOTO, TK_IF, TK_IN, TK_LOCAL, TK_NIL,
    TK_NOT, TK_OR, TK_REPEAT, TK_RETURN, TK_THEN, TK_TRUE, TK_UNTIL, TK_WHILE,
    /* multi-byte symbols */
    TK_IDIV, TK_CONCAT, TK_DOTS, TK_EQ, TK_GE, TK_LE, TK_NE, TK_SHL, TK_SHR,
    TK_DBCOLON,
    /* tokens with a value (and the end of the stream) */
    TK_EOS, TK_FLT, TK_INT, TK_NAME, TK_STRING
};

#define LEX_NUM_RESERVED ((int)(TK_WHILE - LEX_FIRST_RESERVED + 1))

/* The value of a numeral, name or string token. */
typedef union TokenValue {
    lua_Number r;
    lua_Integer i;
    struct {
        TString *ts;
        int id; /* its anchor id */
    } s;
} TokenValue;

typedef struct Token {
    int token;
    TokenValue value;
} Token;

struct FuncState;
struct Dyndata;

typedef struct LexState {
    int current;          /* the byte under the scanner, or READER_EOZ */
    int linenumber;       /* line of [current] */
    int lastline;         /* line of the last token consumed (code lines) */
    Token t;              /* the current token */
    Token ahead;          /* a look-ahead token, or TK_EOS when none */
    struct FuncState *fs; /* the function being compiled */
    lua_State *L;
    Reader *z;
    char *buff;           /* text of the token being read (gc_raw block) */
    size_t bufflen;       /* bytes used in [buff] */
    size_t buffsize;      /* bytes allocated for [buff] */
    Table *anchors;       /* every string made while compiling, see above */
    struct Dyndata *dyd;  /* the parser's variable, goto and label lists */
    TString *source;      /* the chunk name, as a string */
    const char *chunkname;
    int nstrings;         /* strings in [anchors] (ids 1..nstrings) */
    TString *envname;     /* "_ENV" */
    int envid;
    int breakid;          /* id of "break", the label a 'break' jumps to */
} LexState;

/* Start reading [z]; [firstchar] was already read from it. */
TIDE_INTERNAL void lex_setinput(lua_State *L, LexState *ls, Reader *z, TString *source, int firstchar);
/* Move to the next token (from the look-ahead when there is one). */
TIDE_INTERNAL void lex_next(LexState *ls);
/* Read the token after the current one without consuming it. */
TIDE_INTERNAL int lex_lookahead(LexState *ls);
/* A string anchored for the whole compilation (one object per contents);
 * its id goes to *id when [id] is not NULL. */
TIDE_INTERNAL TString *lex_newstring(LexState *ls, const char *s, size_t len, int *id);
/* The id of an anchored string / the string of an id. */
TIDE_INTERNAL int lex_stringid(LexState *ls, TString *ts);
TIDE_INTERNAL TString *lex_idstring(LexState *ls, int id);
/* The printable form of a token kind for messages ("'end'", "<eof>"). */
TIDE_INTERNAL const char *lex_token2str(LexState *ls, int token);
/* Raise "chunk:line: msg near 'TOKEN'" about the current token. */
TIDE_INTERNAL _Noreturn void lex_syntaxerror(LexState *ls, const char *msg);
/* Raise "chunk:line: msg" with no token (semantic errors). */
TIDE_INTERNAL _Noreturn void lex_semerror(LexState *ls, const char *msg);

#endif
