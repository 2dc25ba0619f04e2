/*
 * compiler.h — from source text or a binary chunk to a closure: the buffered
 * reader (reader.c), the lexer (lex.c), the parser and code generator
 * (parse.c, code.c), binary chunks (dump.c, undump.c).
 *
 * Both loaders push the new closure (with its upvalues created, all nil; the
 * API then sets the first to the globals) onto L's stack and return it.
 * They raise errors with call_throw: LUA_ERRSYNTAX with the message
 * "chunkname:line: message near 'token'" as lua5.4 words it, LUA_ERRMEM.
 */
#ifndef TIDE_VM_COMPILER_H
#define TIDE_VM_COMPILER_H

#include "state.h"

/* Kinds of variables (Upvaldesc.kind). */
#define VDKREG 0     /* a regular variable */
#define RDKCONST 1   /* <const> */
#define RDKTOCLOSE 2 /* <close> */
#define RDKCTC 3     /* a compile-time constant (never in a register) */

/* A buffered input stream over a lua_Reader. */
typedef struct Reader {
    size_t n;          /* bytes still unread in the buffer */
    const char *p;     /* current position in the buffer */
    lua_Reader reader;
    void *data;
    lua_State *L;
} Reader;

#define READER_EOZ (-1)
#define reader_getc(z) (((z)->n--) > 0 ? (unsigned char)(*(z)->p++) : reader_fill(z))

TIDE_INTERNAL void reader_init(lua_State *L, Reader *z, lua_Reader reader, void *data);
TIDE_INTERNAL int reader_fill(Reader *z);  /* next byte, or READER_EOZ */
/* Read [n] bytes into [b]; returns the number NOT read (0 on success). */
TIDE_INTERNAL size_t reader_read(Reader *z, void *b, size_t n);

/* Intern the reserved words (fixed strings, TString.extra set). */
TIDE_INTERNAL void lex_init(lua_State *L);

/* Compile Lua text; [firstchar] is the first byte, already read. */
TIDE_INTERNAL LClosure *parse_chunk(lua_State *L, Reader *z, const char *chunkname, int firstchar);
/* Load a binary chunk (the signature's first byte already read). Rejects
 * anything malformed with "chunkname: bad binary format (...)" or
 * "truncated chunk". */
TIDE_INTERNAL LClosure *undump_chunk(lua_State *L, Reader *z, const char *chunkname);
/* Write [f] as a binary chunk; [strip] drops debug information. Returns the
 * first nonzero status of the writer, or 0. */
TIDE_INTERNAL int dump_proto(lua_State *L, const Proto *f, lua_Writer w, void *data, int strip);

/* Binary chunks start with this. */
#define TIDE_SIGNATURE "\x1bLua"

#endif
