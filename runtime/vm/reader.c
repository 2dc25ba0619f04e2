/*
 * reader.c — a buffered byte stream over a lua_Reader (compiler.h).
 *
 * The lexer and the binary loader pull bytes one at a time through
 * reader_getc; the buffer is whatever block the lua_Reader last returned,
 * never a copy.
 */
#include <string.h>

#include "compiler.h"

void reader_init(lua_State *L, Reader *z, lua_Reader reader, void *data)
{
    z->L = L;
    z->reader = reader;
    z->data = data;
    z->n = 0;
    z->p = NULL;
}

/* Ask the lua_Reader for the next block and return its first byte. A NULL
 * block or an empty one ends the stream. At the end [n] is left at 0 (the
 * getc macro wrapped it around), so a caller that reads on after EOZ asks
 * the reader again instead of reading past the old buffer. */
int reader_fill(Reader *z)
{
    size_t size = 0;
    const char *block = z->reader(z->L, z->data, &size);
    if (block == NULL || size == 0) {
        z->n = 0;
        return READER_EOZ;
    }
    z->n = size - 1; /* the byte returned now is consumed */
    z->p = block;
    return (unsigned char)*z->p++;
}

size_t reader_read(Reader *z, void *b, size_t n)
{
    char *dst = b;
    while (n > 0) {
        if (z->n == 0) {
            if (reader_fill(z) == READER_EOZ) return n;
            z->n++; /* reader_fill consumed one byte: put it back */
            z->p--;
        }
        size_t chunk = n <= z->n ? n : z->n;
        memcpy(dst, z->p, chunk);
        z->n -= chunk;
        z->p += chunk;
        dst += chunk;
        n -= chunk;
    }
    return 0;
}
