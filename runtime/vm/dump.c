/*
 * dump.c — write a prototype tree as a binary chunk (the format is in
 * dump.h). Output goes through a small local buffer to the lua_Writer;
 * after the writer's first error nothing more is written and that status
 * is returned.
 *
 * The prototype is reachable from the caller's stack (lua_dump dumps the
 * function on top), so a collection run by the writer cannot free it.
 */
#include <string.h>

#include "compiler.h"
#include "dump.h"

#define DUMP_BUFFSIZE 512

typedef struct DumpState {
    lua_State *L;
    lua_Writer writer;
    void *data;
    int strip;
    int status; /* first nonzero status of the writer */
    size_t len; /* bytes in buff */
    unsigned char buff[DUMP_BUFFSIZE];
} DumpState;

static void flush(DumpState *D)
{
    if (D->len > 0 && D->status == 0) D->status = D->writer(D->L, D->buff, D->len, D->data);
    D->len = 0;
}

static void write_block(DumpState *D, const void *b, size_t size)
{
    if (D->status != 0) return;
    if (size > DUMP_BUFFSIZE - D->len) {
        flush(D);
        if (size > DUMP_BUFFSIZE / 2) { /* big blocks go straight out */
            if (D->status == 0) D->status = D->writer(D->L, b, size, D->data);
            return;
        }
    }
    memcpy(D->buff + D->len, b, size);
    D->len += size;
}

static void write_byte(DumpState *D, int b)
{
    unsigned char c = (unsigned char)b;
    write_block(D, &c, 1);
}

static void write_varint(DumpState *D, uint64_t x)
{
    unsigned char bytes[10];
    int n = 0;
    do {
        unsigned char b = x & 0x7F;
        x >>= 7;
        bytes[n++] = (unsigned char)(x != 0 ? b | 0x80 : b);
    } while (x != 0);
    write_block(D, bytes, (size_t)n);
}

static void write_count(DumpState *D, int n)
{
    write_varint(D, (uint64_t)(n > 0 ? n : 0));
}

static void write_string(DumpState *D, const TString *ts)
{
    if (ts == NULL) {
        write_varint(D, 0);
        return;
    }
    size_t len = tsslen(ts);
    write_varint(D, (uint64_t)len + 1);
    write_block(D, getstr(ts), len);
}

static void write_constant(DumpState *D, const TValue *o)
{
    switch (ttypetag(o)) {
    case withvariant(VNUMINT):
        write_byte(D, CHUNK_KINT);
        write_block(D, &ivalue(o), sizeof(lua_Integer));
        break;
    case withvariant(VNUMFLT):
        write_byte(D, CHUNK_KFLT);
        write_block(D, &fltvalue(o), sizeof(lua_Number));
        break;
    case withvariant(VSHRSTR):
        write_byte(D, CHUNK_KSHRSTR);
        write_string(D, tsvalue(o));
        break;
    case withvariant(VLNGSTR):
        write_byte(D, CHUNK_KLNGSTR);
        write_string(D, tsvalue(o));
        break;
    case withvariant(VFALSE): write_byte(D, CHUNK_KFALSE); break;
    case withvariant(VTRUE): write_byte(D, CHUNK_KTRUE); break;
    default:
        lua_assert(ttisnil(o));
        write_byte(D, CHUNK_KNIL);
        break;
    }
}

static void write_debug(DumpState *D, const Proto *f)
{
    int nlines = (D->strip || f->lineinfo == NULL) ? 0 : f->sizecode;
    write_count(D, nlines);
    int64_t previous = 0;
    for (int i = 0; i < nlines; i++) {
        int64_t delta = (int64_t)f->lineinfo[i] - previous;
        write_varint(D, ((uint64_t)delta << 1) ^ (uint64_t)(delta >> 63)); /* zigzag */
        previous = f->lineinfo[i];
    }
    int nlocvars = D->strip ? 0 : f->sizelocvars;
    write_count(D, nlocvars);
    for (int i = 0; i < nlocvars; i++) {
        write_string(D, f->locvars[i].varname);
        write_count(D, f->locvars[i].startpc);
        write_count(D, f->locvars[i].endpc);
    }
    int nupnames = D->strip ? 0 : f->sizeupvalues;
    write_count(D, nupnames);
    for (int i = 0; i < nupnames; i++) write_string(D, f->upvalues[i].name);
}

static void write_function(DumpState *D, const Proto *f, const TString *parent_source)
{
    /* a nested function usually shares its parent's source: not repeated */
    const TString *source = (D->strip || f->source == parent_source) ? NULL : f->source;
    write_string(D, source);
    write_count(D, f->linedefined);
    write_count(D, f->lastlinedefined);
    write_byte(D, f->numparams);
    write_byte(D, f->is_vararg);
    write_byte(D, f->maxstacksize);

    write_count(D, f->sizecode);
    write_block(D, f->code, (size_t)f->sizecode * sizeof(Instruction));

    write_count(D, f->sizek);
    for (int i = 0; i < f->sizek; i++) write_constant(D, &f->k[i]);

    write_count(D, f->sizeupvalues);
    for (int i = 0; i < f->sizeupvalues; i++) {
        write_byte(D, f->upvalues[i].instack);
        write_byte(D, f->upvalues[i].idx);
        write_byte(D, f->upvalues[i].kind);
    }

    write_count(D, f->sizep);
    for (int i = 0; i < f->sizep; i++) write_function(D, f->p[i], f->source);

    write_debug(D, f);
}

static void write_header(DumpState *D, const Proto *f)
{
    write_block(D, TIDE_SIGNATURE, sizeof(TIDE_SIGNATURE) - 1);
    write_byte(D, CHUNK_VERSION);
    write_byte(D, CHUNK_FORMAT);
    write_block(D, CHUNK_CHECKDATA, CHUNK_CHECKDATA_LEN);
    write_byte(D, sizeof(Instruction));
    write_byte(D, sizeof(lua_Integer));
    write_byte(D, sizeof(lua_Number));
    lua_Integer testint = CHUNK_TESTINT;
    lua_Number testflt = CHUNK_TESTFLT;
    write_block(D, &testint, sizeof testint);
    write_block(D, &testflt, sizeof testflt);
    write_byte(D, f->sizeupvalues);
}

int dump_proto(lua_State *L, const Proto *f, lua_Writer w, void *data, int strip)
{
    DumpState D;
    D.L = L;
    D.writer = w;
    D.data = data;
    D.strip = strip;
    D.status = 0;
    D.len = 0;
    write_header(&D, f);
    write_function(&D, f, NULL);
    flush(&D);
    return D.status;
}
