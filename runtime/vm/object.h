/*
 * object.h — the layout of every collectable object.
 *
 * Objects move (DESIGN §3): the nursery copies them. Therefore
 *  - nothing hashes or orders by address: tables, functions, userdata and
 *    threads used as keys hash by their identity (GCObject.idhash, assigned
 *    lazily by gc_identity), and tostring prints that identity;
 *  - an object never points into itself except where this file says so and
 *    names who rebases the pointer when it moves;
 *  - full userdata and threads never move (C code and the VM keep raw
 *    pointers to them and into their stacks/payloads).
 *
 * Every object starts with a GCObject header. An object's size is a function
 * of its header and fields (gc_object_size in gc/gc_internal.h), so a heap can be
 * walked linearly.
 */
#ifndef TIDE_VM_OBJECT_H
#define TIDE_VM_OBJECT_H

#include "value.h"

/* Header flags (GCObject.flags). The collector owns them all. */
#define GCF_PINNED 0x01       /* may not move during the current collection */
#define GCF_FORWARDED 0x02    /* moved: the first payload word holds the new address */
#define GCF_REMEMBERED 0x04   /* old object in the remembered set */
#define GCF_FINALIZABLE 0x08  /* has a __gc metamethod: run it before freeing */
#define GCF_FINALIZED 0x10    /* its finalizer was scheduled: never again */
#define GCF_CEMENTED 0x20     /* pinned as a root until the next major collection */
#define GCF_FIXED 0x40        /* permanent (gc_fix): never collected, never moved */
#define GCF_AGED 0x80         /* young, and survived a nursery collection in place */

/*
 * The 8-byte header. [tt] is the object's tag (value.h) without
 * BIT_COLLECTABLE. [age] names the space the object lives in (the
 * collector's GC_SPACE_*: nursery, major heap, large-object space, or
 * outside every space for the main thread). [marked] is the mark of
 * objects whose space keeps no mark bitmap (nursery and main thread); the
 * major heap and the large-object space keep marks outside objects.
 * [idhash] is 0 until gc_identity assigns a nonzero identity; it never
 * changes after that, wherever the object moves.
 */
struct GCObject {
    uint8_t tt;
    uint8_t flags;
    uint8_t age;
    uint8_t marked;
    uint32_t idhash;
};

/* --- strings --------------------------------------------------------------
 * Short strings (at most TIDE_MAXSHORTLEN bytes) are interned: two equal
 * short strings are the same object, so they compare by pointer. Long
 * strings are compared by content and hash lazily.
 * Contents are always followed by a '\0' (not counted in the length). */
#define TIDE_MAXSHORTLEN 40

typedef struct TString {
    GCObject hdr;
    uint8_t extra;   /* short: reserved-word index + 1 (lexer), 0 if none;
                        long: 1 when [hash] has been computed */
    uint8_t shrlen;  /* short strings: length */
    uint32_t hash;
    union {
        size_t lnglen;        /* long strings: length */
        struct TString *hnext; /* short strings: next in the intern table bucket */
    } u;
    char contents[1];
} TString;

#define getstr(ts) ((ts)->contents)
#define tsslen(s) ((s)->hdr.tt == (VSHRSTR & 0x3F) ? (size_t)(s)->shrlen : (s)->u.lnglen)
#define isshortstr(s) ((s)->hdr.tt == (VSHRSTR & 0x3F))
#define sizelstring(l) (offsetof(TString, contents) + (l) + 1)
#define svalue(o) getstr(tsvalue(o))
#define vslen(o) tsslen(tsvalue(o))
/* Is [s] a reserved word of Lua? (set by lex_init on the interned words) */
#define isreserved(s) (isshortstr(s) && (s)->extra > 0)

/* --- table storage --------------------------------------------------------
 * The array part and the hash part of a table are each one Part object, so
 * that the collector's cards and marking cover them and a resize during a
 * concurrent mark leaves the old storage alive until it is swept.
 * A table points at the Part's payload (t->array, t->node), an interior
 * pointer; part_of() recovers the Part. The collector rebases those
 * pointers when a Part moves. */
typedef struct Part {
    GCObject hdr;
    uint32_t nbytes;          /* payload size */
    uint32_t pad;
    /* payload follows, 16-byte aligned */
} Part;
#define part_payload(p) ((void *)((char *)(p) + sizeof(Part)))
#define part_of(payload) ((Part *)((char *)(payload) - sizeof(Part)))

/* A hash node, 32 bytes: the value, then the key split into payload and tag
 * (so the key's tag and the chain link share one 8-byte word). */
typedef struct Node {
    TValue val;
    Value key_val;
    uint8_t key_tt;
    int32_t next;       /* offset to the next node of the chain, 0 if none */
} Node;

/* Bits of Table.flags: bit i set means metamethod i (TM_INDEX..TM_EQ, see
 * metamethods.h) is known to be absent from this table used as a
 * metatable. Any raw store into the table clears the cache (tab_invalidate_tm). */
typedef struct Table {
    GCObject hdr;
    uint8_t flags;       /* absent-metamethod cache */
    uint8_t lsizenode;   /* log2 of the number of hash nodes */
    uint16_t weak;       /* TAB_WEAK when the metatable had a "__mode" with
                            'k' or 'v' at lua_setmetatable (gc.h's
                            gc_weak_read tests it) */
    uint32_t asize;      /* number of slots in the array part */
    TValue *array;       /* payload of a Part, or NULL when asize == 0 */
    Node *node;          /* payload of a Part, or the shared dummy node */
    Node *lastfree;      /* free-position hint, points into node[] or one past */
    struct Table *metatable;
    uint32_t lenhint;    /* tables.c: the last border tab_getn found (a cache; <= asize) */
} Table;

#define sizenode(t) (1u << (t)->lsizenode)
#define TAB_WEAK 1u

/* --- prototypes ------------------------------------------------------------
 * A compiled function. Its arrays are plain allocations owned by the
 * prototype (allocated and freed through gc_raw_alloc/gc_raw_free, counted
 * in the heap size); the collector traverses k[], p[], source, the upvalue
 * names and the local-variable names. */
typedef uint32_t Instruction;

typedef struct Upvaldesc {
    TString *name;   /* for debug information; may be NULL */
    uint8_t instack; /* 1: captures a register of the enclosing function */
    uint8_t idx;     /* the register (instack) or the enclosing upvalue index */
    uint8_t kind;    /* kind of the captured variable (compiler.h) */
} Upvaldesc;

typedef struct LocVar {
    TString *varname;
    int startpc; /* first instruction where the variable is active */
    int endpc;   /* first instruction where it is dead */
} LocVar;

typedef struct Proto {
    GCObject hdr;
    uint8_t numparams;
    uint8_t is_vararg;
    uint8_t maxstacksize; /* registers the function needs */
    uint8_t pad;
    int sizeupvalues;
    int sizek;
    int sizecode;
    int sizep;
    int sizelocvars;
    int linedefined;
    int lastlinedefined;
    TValue *k;               /* constants */
    Instruction *code;
    struct Proto **p;        /* nested functions */
    Upvaldesc *upvalues;
    int *lineinfo;           /* line of each instruction (sizecode entries) */
    LocVar *locvars;
    TString *source;         /* "@file", "=text" or the source; may be NULL (stripped) */
} Proto;

/* --- upvalues -------------------------------------------------------------
 * Open: [v] points at a stack slot of the thread that created it. The stack
 * can be reallocated; calls.c rebases open upvalues when it does (they are
 * listed in lua_State.openupval, ordered by slot, highest first).
 * Closed: [v] points at this upvalue's own [u.value] (a self-pointer: the
 * collector rebases it when the upvalue moves). upval_isopen tells. */
typedef struct UpVal {
    GCObject hdr;
    uint8_t tbc;   /* unused by the VM; spare */
    TValue *v;
    union {
        struct {
            struct UpVal *next;      /* next open upvalue (lower slot) */
            struct UpVal **previous; /* the link that points here */
        } open;
        TValue value;
    } u;
} UpVal;

#define upval_isopen(up) ((up)->v != &(up)->u.value)
#define upval_level(up) ((StkId)((up)->v)) /* open upvalues only */

/* --- closures -------------------------------------------------------------- */
typedef struct CClosure {
    GCObject hdr;
    uint8_t nupvalues;
    lua_CFunction f;
    TValue upvalue[1]; /* nupvalues entries (at least the space of one) */
} CClosure;

typedef struct LClosure {
    GCObject hdr;
    uint8_t nupvalues;
    Proto *p;
    UpVal *upvals[1]; /* nupvalues entries */
} LClosure;

#define sizeCclosure(n) (offsetof(CClosure, upvalue) + sizeof(TValue) * ((n) > 0 ? (n) : 1))
#define sizeLclosure(n) (offsetof(LClosure, upvals) + sizeof(UpVal *) * ((n) > 0 ? (n) : 1))

/* --- full userdata ----------------------------------------------------------
 * Never moves. The user block follows the user values, aligned for any C
 * type (LUAI_MAXALIGN). */
typedef struct Udata {
    GCObject hdr;
    uint16_t nuvalue;
    size_t len;
    struct Table *metatable;
    TValue uv[1]; /* nuvalue user values (space of one even when 0) */
} Udata;

#define udata_mem_offset(nuv) \
    ((offsetof(Udata, uv) + sizeof(TValue) * ((nuv) > 0 ? (nuv) : 1) + 15) & ~(size_t)15)
#define getudatamem(u) ((char *)(u) + udata_mem_offset((u)->nuvalue))
#define sizeudata(nuv, nb) (udata_mem_offset(nuv) + (nb))

/* --- casts ----------------------------------------------------------------- */
#define obj2gco(o) ((GCObject *)(o))
#define gco2ts(o) ((TString *)(o))
#define gco2t(o) ((Table *)(o))
#define gco2lcl(o) ((LClosure *)(o))
#define gco2ccl(o) ((CClosure *)(o))
#define gco2u(o) ((Udata *)(o))
#define gco2th(o) ((lua_State *)(o))
#define gco2p(o) ((Proto *)(o))
#define gco2upv(o) ((UpVal *)(o))

/* The short names of the types for messages, indexed by LUA_T* + 1 (so
 * LUA_TNONE is index 0); lives in conv.c. */
TIDE_INTERNAL extern const char *const obj_typenames[LUA_NUMTYPES + 1];
#define ttypename(x) obj_typenames[(x) + 1]

#endif
