/*
 * parse.h — the state the parser (parse.c) and the code generator (code.c)
 * share: expression descriptors, per-function state, the lists of active
 * variables, pending gotos and labels.
 *
 * Register discipline: the registers of a function are its active local
 * variables (from 0 up, compile-time constants take none) followed by
 * temporaries. [freereg] is the first free register; temporaries are
 * allocated and freed in stack order, so an expression's value held in a
 * temporary is always the topmost one when it is freed.
 */
#ifndef TIDE_VM_PARSE_H
#define TIDE_VM_PARSE_H

#include "lex.h"

/* Limit of active local variables per function (the manual's 200). */
#define MAXVARS 200
/* Limit of upvalues per function (fits Upvaldesc.idx). */
#define MAXUPVAL 255

/* Marks the end of a list of jumps / an unset jump. */
#define NO_JUMP (-1)

/* Kinds of expression descriptors: where the value of an expression is, or
 * how to get it. */
typedef enum {
    EXP_VOID,     /* no value (an empty expression list) */
    EXP_NIL,      /* constant nil */
    EXP_TRUE,     /* constant true */
    EXP_FALSE,    /* constant false */
    EXP_K,        /* a constant in k[]: u.info = its index */
    EXP_KFLT,     /* float constant: u.nval */
    EXP_KINT,     /* integer constant: u.ival */
    EXP_KSTR,     /* string constant: u.strval (not yet in k[]) */
    EXP_NONRELOC, /* in register u.info, which cannot change */
    EXP_LOCAL,    /* a local variable: u.var.ridx register, u.var.vidx index */
    EXP_UPVAL,    /* an upvalue: u.info its index */
    EXP_CONST,    /* a compile-time constant: u.info its index in actvar */
    EXP_INDEXED,  /* t[k]: u.ind.t table register, u.ind.idx key register */
    EXP_INDEXUP,  /* Up[t][K]: u.ind.t upvalue, u.ind.idx string constant */
    EXP_INDEXI,   /* t[i]: u.ind.t table register, u.ind.idx the integer key */
    EXP_INDEXSTR, /* t.s: u.ind.t table register, u.ind.idx string constant */
    EXP_JMP,      /* a test; u.info = pc of its jump */
    EXP_RELOC,    /* result of instruction u.info, whose A is still free */
    EXP_CALL,     /* a call; u.info = pc of the CALL */
    EXP_VARARG    /* '...'; u.info = pc of the VARARG */
} ExpKind;

#define exp_isvar(k) (EXP_LOCAL <= (k) && (k) <= EXP_INDEXSTR)
#define exp_isindexed(k) (EXP_INDEXED <= (k) && (k) <= EXP_INDEXSTR)
#define exp_hasmultret(k) ((k) == EXP_CALL || (k) == EXP_VARARG)

typedef struct ExpDesc {
    ExpKind k;
    union {
        int info;
        lua_Integer ival;
        lua_Number nval;
        TString *strval;
        struct {
            short idx;    /* key: register, constant index or integer */
            uint8_t t;    /* table: register or upvalue */
        } ind;
        struct {
            uint8_t ridx;          /* register */
            unsigned short vidx;   /* index among the function's active variables */
        } var;
    } u;
    int t; /* jumps taken when the expression is true */
    int f; /* jumps taken when it is false */
} ExpDesc;

/* An active local variable. Names are anchor ids (lex.h): this lives in
 * gc_raw memory, where a TString pointer would not follow a moving string. */
typedef struct VarDesc {
    TValue k;        /* value of a compile-time constant (kind RDKCTC) ... */
    int kstr;        /* ... or, when it is a string, its anchor id (else 0) */
    int name;        /* anchor id of the name */
    uint8_t kind;    /* VDKREG, RDKCONST, RDKTOCLOSE or RDKCTC (compiler.h) */
    uint8_t ridx;    /* its register */
    short pidx;      /* its entry in Proto.locvars */
} VarDesc;

/* A pending goto or a label. */
typedef struct LabelDesc {
    int name;         /* anchor id */
    int pc;           /* the jump (goto) or the position (label) */
    int line;
    uint8_t nactvar;  /* active variables at that point */
    uint8_t close;    /* the goto leaves the scope of a captured variable */
} LabelDesc;

typedef struct LabelList {
    LabelDesc *arr;
    int n;
    int size;
} LabelList;

/* The parser's growable lists, shared by all the functions being compiled
 * (a nested function uses the part after its parent's). gc_raw memory,
 * freed by parse_chunk whatever happens. */
typedef struct Dyndata {
    struct {
        VarDesc *arr;
        int n;
        int size;
    } actvar;
    LabelList gt;     /* pending gotos */
    LabelList label;  /* visible labels */
    struct {          /* line of each instruction of the functions in progress */
        int *arr;
        int size;
    } lines;
} Dyndata;

struct BlockCnt;

/* The state of a function being compiled. The Proto's arrays are its
 * capacity (size fields = allocated slots, unused ones nil/NULL); the
 * counters here say how many are in use. */
typedef struct FuncState {
    Proto *f;
    struct FuncState *prev;   /* the enclosing function */
    LexState *ls;
    struct BlockCnt *bl;      /* the innermost block */
    Table *kcache;            /* constant -> index in f->k (on the Lua stack) */
    int pc;                   /* instructions emitted */
    int lasttarget;           /* pc of the last jump target */
    int firstline;            /* where this function's lines start in dyd->lines */
    int nk;                   /* constants in f->k */
    int np;                   /* prototypes in f->p */
    int firstlocal;           /* its first variable in dyd->actvar */
    int firstlabel;           /* its first label in dyd->label */
    short ndebugvars;         /* entries in f->locvars */
    uint8_t nactvar;          /* active local variables */
    uint8_t nups;             /* upvalues */
    uint8_t freereg;          /* first free register */
    uint8_t needclose;        /* returns must close upvalues / tbc variables */
} FuncState;

/* parse.c, for code.c */
TIDE_INTERNAL int parse_nvarstack(FuncState *fs);
TIDE_INTERNAL VarDesc *parse_vardesc(FuncState *fs, int vidx);
/* The value of the compile-time constant at [index] of dyd->actvar. */
TIDE_INTERNAL void parse_constvalue(FuncState *fs, int index, TValue *v);
/* Raise "too many [what] (limit is [limit]) in <function>". */
TIDE_INTERNAL _Noreturn void parse_errorlimit(FuncState *fs, int limit, const char *what);

#endif
