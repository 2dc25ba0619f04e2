/*
 * code.h — the code generator (code.c): emits the instructions of
 * opcodes.h for the parser, manages registers, constants and jump lists,
 * and folds constant expressions.
 *
 * Jump lists: the pending jumps of an expression (ExpDesc.t / .f) are
 * chained through their own sJ fields (each holds the offset to the next
 * jump of the list; NO_JUMP ends it) until code_patchlist gives them their
 * real target.
 */
#ifndef TIDE_VM_CODE_H
#define TIDE_VM_CODE_H

#include "parse.h"
#include "opcodes.h"

/* Binary operators. The arithmetic and bitwise ones come first, in the
 * order of lua.h's LUA_OP* (and of OP_ADD.. and TM_ADD..), so that one
 * offset converts between them. */
typedef enum BinOpr {
    OPR_ADD, OPR_SUB, OPR_MUL, OPR_MOD, OPR_POW, OPR_DIV, OPR_IDIV,
    OPR_BAND, OPR_BOR, OPR_BXOR, OPR_SHL, OPR_SHR,
    OPR_CONCAT,
    OPR_EQ, OPR_LT, OPR_LE, OPR_NE, OPR_GT, OPR_GE,
    OPR_AND, OPR_OR,
    OPR_NOBINOPR
} BinOpr;

/* Unary operators, in LUA_OPUNM / LUA_OPBNOT order for the first two. */
typedef enum UnOpr { OPR_MINUS, OPR_BNOT, OPR_NOT, OPR_LEN, OPR_NOUNOPR } UnOpr;

/* The instruction an EXP_RELOC / EXP_CALL / EXP_VARARG expression refers to. */
#define code_instruction(fs, e) ((fs)->f->code[(e)->u.info])

#define code_ABC(fs, o, a, b, c) code_ABCk((fs), (o), (a), (b), (c), 0)
#define code_setmultret(fs, e) code_setreturns((fs), (e), LUA_MULTRET)
#define code_jumpto(fs, t) code_patchlist((fs), code_jump(fs), (t))

/* Room for element [n] of a prototype array (see code.c). */
TIDE_INTERNAL void *code_growarray(FuncState *fs, void *block, int *size, int n, size_t elemsize, int limit,
                                   const char *what);

TIDE_INTERNAL int code_ABCk(FuncState *fs, OpCode o, int a, int b, int c, int k);
TIDE_INTERNAL int code_ABx(FuncState *fs, OpCode o, int a, unsigned int bx);
TIDE_INTERNAL int code_extraarg(FuncState *fs, int a);
TIDE_INTERNAL void code_fixline(FuncState *fs, int line);
TIDE_INTERNAL void code_nil(FuncState *fs, int from, int n);
TIDE_INTERNAL void code_int(FuncState *fs, int reg, lua_Integer i);
TIDE_INTERNAL void code_reserveregs(FuncState *fs, int n);
TIDE_INTERNAL void code_checkstack(FuncState *fs, int n);

TIDE_INTERNAL int code_jump(FuncState *fs);
TIDE_INTERNAL void code_ret(FuncState *fs, int first, int nret);
TIDE_INTERNAL int code_getlabel(FuncState *fs);
TIDE_INTERNAL void code_patchlist(FuncState *fs, int list, int target);
TIDE_INTERNAL void code_patchtohere(FuncState *fs, int list);
TIDE_INTERNAL void code_concat(FuncState *fs, int *l1, int l2);

TIDE_INTERNAL void code_dischargevars(FuncState *fs, ExpDesc *e);
TIDE_INTERNAL int code_exp2anyreg(FuncState *fs, ExpDesc *e);
TIDE_INTERNAL void code_exp2anyregup(FuncState *fs, ExpDesc *e);
TIDE_INTERNAL void code_exp2nextreg(FuncState *fs, ExpDesc *e);
TIDE_INTERNAL void code_exp2val(FuncState *fs, ExpDesc *e);
/* If [e] has a constant value known at compile time, put it in [v]. */
TIDE_INTERNAL int code_exp2const(FuncState *fs, const ExpDesc *e, TValue *v);
TIDE_INTERNAL void code_setreturns(FuncState *fs, ExpDesc *e, int nresults);
TIDE_INTERNAL void code_setoneret(FuncState *fs, ExpDesc *e);

TIDE_INTERNAL void code_self(FuncState *fs, ExpDesc *e, ExpDesc *key);
TIDE_INTERNAL void code_indexed(FuncState *fs, ExpDesc *t, ExpDesc *k);
TIDE_INTERNAL void code_goiftrue(FuncState *fs, ExpDesc *e);
TIDE_INTERNAL void code_goiffalse(FuncState *fs, ExpDesc *e);
TIDE_INTERNAL void code_storevar(FuncState *fs, ExpDesc *var, ExpDesc *e);

TIDE_INTERNAL void code_prefix(FuncState *fs, UnOpr op, ExpDesc *e, int line);
TIDE_INTERNAL void code_infix(FuncState *fs, BinOpr op, ExpDesc *v);
TIDE_INTERNAL void code_posfix(FuncState *fs, BinOpr op, ExpDesc *e1, ExpDesc *e2, int line);

TIDE_INTERNAL void code_settablesize(FuncState *fs, int pc, int ra, int asize, int hsize);
TIDE_INTERNAL void code_setlist(FuncState *fs, int base, int nelems, int tostore);
/* Final pass over a finished function: returns and jumps (see code.c). */
TIDE_INTERNAL void code_finish(FuncState *fs);

#endif
