/*
 * strings.h — string objects (strings.c).
 *
 * Short strings (length <= TIDE_MAXSHORTLEN) are interned in
 * GlobalState.strt: equal short strings are one object and compare by
 * pointer. Long strings are created fresh and compared by content.
 * Hashes use GlobalState.seed, fixed per build, so runs are reproducible.
 */
#ifndef TIDE_VM_STRINGS_H
#define TIDE_VM_STRINGS_H

#include "state.h"

#define MINSTRTABSIZE 128

/* Equality of two short strings, and of any two strings. */
#define eqshrstr(a, b) ((a) == (b))
TIDE_INTERNAL int str_eqlngstr(TString *a, TString *b);
#define str_equal(a, b) (isshortstr(a) ? eqshrstr(a, b) : (!isshortstr(b) && str_eqlngstr(a, b)))

TIDE_INTERNAL unsigned int str_hash(const char *s, size_t l, unsigned int seed);
/* The hash of a long string, computed on first use and kept. */
TIDE_INTERNAL unsigned int str_hashlong(TString *ts);

TIDE_INTERNAL void str_init(lua_State *L);          /* string table, memerrmsg */
TIDE_INTERNAL void str_resize(lua_State *L, int newsize); /* rehash the intern table */
/* A string with the [l] bytes at [s] (interned when short). May collect. */
TIDE_INTERNAL TString *str_new(lua_State *L, const char *s, size_t l);
TIDE_INTERNAL TString *str_newz(lua_State *L, const char *s); /* NUL-terminated */
/* A long string of length [l] whose contents the caller fills (getstr) before
 * the string is visible to anyone; always a long string, never interned. */
TIDE_INTERNAL TString *str_createlong(lua_State *L, size_t l);
/* Collector: remove [ts] from the intern table (dead short string). */
TIDE_INTERNAL void str_remove(lua_State *L, TString *ts);

#endif
