/*
 * opcodes.h — the instruction set: the contract between the code generator
 * (parse.c/code.c), the interpreter (vm.c), the debug information
 * (debuginfo.c) and binary chunks (dump.c/undump.c).
 *
 * A register machine. Every instruction is 32 bits:
 *
 *        31      24 23     16 15 14      7 6      0
 *   iABC  [   C    ][   B    ][k][   A    ][  op  ]
 *   iABx  [        Bx         ][   A    ][  op  ]      Bx: 17 bits, unsigned
 *   iAsBx [        sBx        ][   A    ][  op  ]      sBx: Bx - OFFSET_sBx
 *   iAx   [            Ax             ][  op  ]        Ax: 25 bits
 *   isJ   [            sJ             ][  op  ]        sJ: Ax-field - OFFSET_sJ
 *
 * Notation: R[x] register x of the running function; K[x] constant x;
 * Up[x] upvalue x; RK(x) is K[x] when the k bit is set, else R[x];
 * sC/sB are C/B read as signed (C - OFFSET_sC). "pc++" skips the next
 * instruction. Conditional tests are followed by a JMP; a test that
 * "succeeds" executes that jump, otherwise the jump is skipped.
 *
 * Arithmetic fast paths: an arithmetic or bitwise instruction handles the
 * number cases itself and, when it succeeds, skips the MMBIN* instruction
 * that the code generator always places after it; when the operands are not
 * numbers (or strings coercible by the rules of the manual, done by the
 * metamethod path), execution falls into the MMBIN*, which calls the
 * metamethod named by its C operand (a TMS value of metamethods.h) and
 * stores the result into the A register of the arithmetic instruction.
 */
#ifndef TIDE_VM_OPCODES_H
#define TIDE_VM_OPCODES_H

#include <stdint.h>

enum OpMode { iABC, iABx, iAsBx, iAx, isJ };

#define SIZE_OP 7
#define SIZE_A 8
#define SIZE_B 8
#define SIZE_C 8
#define SIZE_Bx (SIZE_C + SIZE_B + 1)
#define SIZE_Ax (SIZE_Bx + SIZE_A)
#define SIZE_sJ SIZE_Ax

#define POS_OP 0
#define POS_A (POS_OP + SIZE_OP)
#define POS_k (POS_A + SIZE_A)
#define POS_B (POS_k + 1)
#define POS_C (POS_B + SIZE_B)
#define POS_Bx POS_k
#define POS_Ax POS_A
#define POS_sJ POS_A

#define MAXARG_A ((1 << SIZE_A) - 1)
#define MAXARG_B ((1 << SIZE_B) - 1)
#define MAXARG_C ((1 << SIZE_C) - 1)
#define MAXARG_Bx ((1 << SIZE_Bx) - 1)
#define MAXARG_Ax ((1 << SIZE_Ax) - 1)
#define MAXARG_sJ ((1 << SIZE_sJ) - 1)
#define OFFSET_sBx (MAXARG_Bx >> 1)
#define OFFSET_sJ (MAXARG_sJ >> 1)
#define OFFSET_sC (MAXARG_C >> 1)
#define int2sC(i) ((i) + OFFSET_sC)
#define sC2int(i) ((i) - OFFSET_sC)

#define MASK1(n, p) ((~((~(uint32_t)0) << (n))) << (p))
#define MASK0(n, p) (~MASK1(n, p))

#define GET_OPCODE(i) ((OpCode)(((i) >> POS_OP) & MASK1(SIZE_OP, 0)))
#define SET_OPCODE(i, o) ((i) = (((i) & MASK0(SIZE_OP, POS_OP)) | (((uint32_t)(o) << POS_OP) & MASK1(SIZE_OP, POS_OP))))

#define getarg(i, pos, size) ((int)(((i) >> (pos)) & MASK1(size, 0)))
#define setarg(i, v, pos, size) ((i) = (((i) & MASK0(size, pos)) | (((uint32_t)(v) << (pos)) & MASK1(size, pos))))

#define GETARG_A(i) getarg(i, POS_A, SIZE_A)
#define SETARG_A(i, v) setarg(i, v, POS_A, SIZE_A)
#define GETARG_B(i) getarg(i, POS_B, SIZE_B)
#define GETARG_sB(i) sC2int(GETARG_B(i))
#define SETARG_B(i, v) setarg(i, v, POS_B, SIZE_B)
#define GETARG_C(i) getarg(i, POS_C, SIZE_C)
#define GETARG_sC(i) sC2int(GETARG_C(i))
#define SETARG_C(i, v) setarg(i, v, POS_C, SIZE_C)
#define TESTARG_k(i) ((int)((i) & (1u << POS_k)))
#define GETARG_k(i) getarg(i, POS_k, 1)
#define SETARG_k(i, v) setarg(i, v, POS_k, 1)
#define GETARG_Bx(i) getarg(i, POS_Bx, SIZE_Bx)
#define SETARG_Bx(i, v) setarg(i, v, POS_Bx, SIZE_Bx)
#define GETARG_Ax(i) getarg(i, POS_Ax, SIZE_Ax)
#define SETARG_Ax(i, v) setarg(i, v, POS_Ax, SIZE_Ax)
#define GETARG_sBx(i) (getarg(i, POS_Bx, SIZE_Bx) - OFFSET_sBx)
#define SETARG_sBx(i, b) SETARG_Bx((i), (unsigned int)((b) + OFFSET_sBx))
#define GETARG_sJ(i) (getarg(i, POS_sJ, SIZE_sJ) - OFFSET_sJ)
#define SETARG_sJ(i, j) setarg(i, (unsigned int)((j) + OFFSET_sJ), POS_sJ, SIZE_sJ)

#define CREATE_ABCk(o, a, b, c, k) \
    (((uint32_t)(o) << POS_OP) | ((uint32_t)(a) << POS_A) | ((uint32_t)(b) << POS_B) | \
     ((uint32_t)(c) << POS_C) | ((uint32_t)(k) << POS_k))
#define CREATE_ABx(o, a, bc) (((uint32_t)(o) << POS_OP) | ((uint32_t)(a) << POS_A) | ((uint32_t)(bc) << POS_Bx))
#define CREATE_Ax(o, a) (((uint32_t)(o) << POS_OP) | ((uint32_t)(a) << POS_Ax))
#define CREATE_sJ(o, j, k) \
    (((uint32_t)(o) << POS_OP) | ((uint32_t)(j) << POS_sJ) | ((uint32_t)(k) << POS_k))

/* Registers a function may use (A is 8 bits; the top one stays free). */
#define MAXREGS 255
/* Fields flushed per SETLIST */
#define LFIELDS_PER_FLUSH 50

/*
 * The instructions. X(name, mode, sets_A, is_test, uses_top_in, sets_top_out, is_mm)
 *   sets_A:  writes R[A] (debuginfo.c uses it to find who set a register)
 *   is_test: a test whose next instruction is a JMP
 *   it:      reads the stack top left by the previous instruction (B == 0 etc.)
 *   ot:      leaves a variable number of values up to the top (C == 0 etc.)
 *   mm:      calls a metamethod (MMBIN*), for debug names
 */
#define TIDE_OPCODES(X)                                                                     \
    X(MOVE, iABC, 1, 0, 0, 0, 0)       /* R[A] := R[B] */                                  \
    X(LOADI, iAsBx, 1, 0, 0, 0, 0)     /* R[A] := sBx (integer) */                         \
    X(LOADF, iAsBx, 1, 0, 0, 0, 0)     /* R[A] := (float)sBx */                            \
    X(LOADK, iABx, 1, 0, 0, 0, 0)      /* R[A] := K[Bx] */                                 \
    X(LOADKX, iABx, 1, 0, 0, 0, 0)     /* R[A] := K[Ax of the next instruction, EXTRAARG] */ \
    X(LOADFALSE, iABC, 1, 0, 0, 0, 0)  /* R[A] := false */                                 \
    X(LFALSESKIP, iABC, 1, 0, 0, 0, 0) /* R[A] := false; pc++ */                           \
    X(LOADTRUE, iABC, 1, 0, 0, 0, 0)   /* R[A] := true */                                  \
    X(LOADNIL, iABC, 1, 0, 0, 0, 0)    /* R[A], ..., R[A+B] := nil */                      \
    X(GETUPVAL, iABC, 1, 0, 0, 0, 0)   /* R[A] := Up[B] */                                 \
    X(SETUPVAL, iABC, 0, 0, 0, 0, 0)   /* Up[B] := R[A] */                                 \
    X(GETTABUP, iABC, 1, 0, 0, 0, 0)   /* R[A] := Up[B][K[C]] (K[C] a short string) */     \
    X(GETTABLE, iABC, 1, 0, 0, 0, 0)   /* R[A] := R[B][R[C]] */                            \
    X(GETI, iABC, 1, 0, 0, 0, 0)       /* R[A] := R[B][C] (C an integer key) */            \
    X(GETFIELD, iABC, 1, 0, 0, 0, 0)   /* R[A] := R[B][K[C]] (K[C] a short string) */      \
    X(SETTABUP, iABC, 0, 0, 0, 0, 0)   /* Up[A][K[B]] := RK(C) (K[B] a short string) */    \
    X(SETTABLE, iABC, 0, 0, 0, 0, 0)   /* R[A][R[B]] := RK(C) */                           \
    X(SETI, iABC, 0, 0, 0, 0, 0)       /* R[A][B] := RK(C) (B an integer key) */           \
    X(SETFIELD, iABC, 0, 0, 0, 0, 0)   /* R[A][K[B]] := RK(C) (K[B] a short string) */     \
    X(NEWTABLE, iABC, 1, 0, 0, 0, 0)   /* R[A] := {}: B = log2(hash size)+1 (0: none);    \
                                          array size C, plus EXTRAARG Ax * (MAXARG_C+1)   \
                                          when k; always followed by EXTRAARG */           \
    X(SELF, iABC, 1, 0, 0, 0, 0)       /* R[A+1] := R[B]; R[A] := R[B][RK(C)] */           \
    X(ADDI, iABC, 1, 0, 0, 0, 0)       /* R[A] := R[B] + sC */                             \
    X(ADDK, iABC, 1, 0, 0, 0, 0)       /* R[A] := R[B] + K[C] (K[C] a number) */           \
    X(SUBK, iABC, 1, 0, 0, 0, 0)                                                           \
    X(MULK, iABC, 1, 0, 0, 0, 0)                                                           \
    X(MODK, iABC, 1, 0, 0, 0, 0)                                                           \
    X(POWK, iABC, 1, 0, 0, 0, 0)                                                           \
    X(DIVK, iABC, 1, 0, 0, 0, 0)                                                           \
    X(IDIVK, iABC, 1, 0, 0, 0, 0)                                                          \
    X(BANDK, iABC, 1, 0, 0, 0, 0)      /* R[A] := R[B] & K[C] (K[C] an integer) */         \
    X(BORK, iABC, 1, 0, 0, 0, 0)                                                           \
    X(BXORK, iABC, 1, 0, 0, 0, 0)                                                          \
    X(SHRI, iABC, 1, 0, 0, 0, 0)       /* R[A] := R[B] >> sC */                            \
    X(SHLI, iABC, 1, 0, 0, 0, 0)       /* R[A] := sC << R[B] */                            \
    X(ADD, iABC, 1, 0, 0, 0, 0)        /* R[A] := R[B] + R[C] */                           \
    X(SUB, iABC, 1, 0, 0, 0, 0)                                                            \
    X(MUL, iABC, 1, 0, 0, 0, 0)                                                            \
    X(MOD, iABC, 1, 0, 0, 0, 0)                                                            \
    X(POW, iABC, 1, 0, 0, 0, 0)                                                            \
    X(DIV, iABC, 1, 0, 0, 0, 0)                                                            \
    X(IDIV, iABC, 1, 0, 0, 0, 0)                                                           \
    X(BAND, iABC, 1, 0, 0, 0, 0)                                                           \
    X(BOR, iABC, 1, 0, 0, 0, 0)                                                            \
    X(BXOR, iABC, 1, 0, 0, 0, 0)                                                           \
    X(SHL, iABC, 1, 0, 0, 0, 0)                                                            \
    X(SHR, iABC, 1, 0, 0, 0, 0)                                                            \
    X(MMBIN, iABC, 0, 0, 0, 0, 1)      /* metamethod C over R[A] and R[B] */               \
    X(MMBINI, iABC, 0, 0, 0, 0, 1)     /* metamethod C over R[A] and sB; k: swap operands */ \
    X(MMBINK, iABC, 0, 0, 0, 0, 1)     /* metamethod C over R[A] and K[B]; k: swap */      \
    X(UNM, iABC, 1, 0, 0, 0, 0)        /* R[A] := -R[B] */                                 \
    X(BNOT, iABC, 1, 0, 0, 0, 0)       /* R[A] := ~R[B] */                                 \
    X(NOT, iABC, 1, 0, 0, 0, 0)        /* R[A] := not R[B] */                              \
    X(LEN, iABC, 1, 0, 0, 0, 0)        /* R[A] := #R[B] */                                 \
    X(CONCAT, iABC, 1, 0, 0, 0, 0)     /* R[A] := R[A] .. ... .. R[A+B-1] */               \
    X(CLOSE, iABC, 0, 0, 0, 0, 0)      /* close upvalues and tbc variables >= R[A] */      \
    X(TBC, iABC, 0, 0, 0, 0, 0)        /* mark R[A] to-be-closed */                        \
    X(JMP, isJ, 0, 0, 0, 0, 0)         /* pc += sJ */                                      \
    X(EQ, iABC, 0, 1, 0, 0, 0)         /* if ((R[A] == R[B]) ~= k) then pc++ */            \
    X(LT, iABC, 0, 1, 0, 0, 0)         /* if ((R[A] <  R[B]) ~= k) then pc++ */            \
    X(LE, iABC, 0, 1, 0, 0, 0)         /* if ((R[A] <= R[B]) ~= k) then pc++ */            \
    X(EQK, iABC, 0, 1, 0, 0, 0)        /* if ((R[A] == K[B]) ~= k) then pc++ */            \
    X(EQI, iABC, 0, 1, 0, 0, 0)        /* if ((R[A] == sB) ~= k) then pc++; C: sB is a float */ \
    X(LTI, iABC, 0, 1, 0, 0, 0)        /* if ((R[A] <  sB) ~= k) then pc++ */              \
    X(LEI, iABC, 0, 1, 0, 0, 0)        /* if ((R[A] <= sB) ~= k) then pc++ */              \
    X(GTI, iABC, 0, 1, 0, 0, 0)        /* if ((R[A] >  sB) ~= k) then pc++ */              \
    X(GEI, iABC, 0, 1, 0, 0, 0)        /* if ((R[A] >= sB) ~= k) then pc++ */              \
    X(TEST, iABC, 0, 1, 0, 0, 0)       /* if (not R[A] == k) then pc++ */                  \
    X(TESTSET, iABC, 1, 1, 0, 0, 0)    /* if (not R[B] == k) then pc++ else R[A] := R[B] */ \
    X(CALL, iABC, 1, 0, 1, 1, 0)       /* R[A], ..., R[A+C-2] := R[A](R[A+1], ..., R[A+B-1]);  \
                                          B == 0: arguments up to top; C == 0: keep all results */ \
    X(TAILCALL, iABC, 1, 0, 1, 1, 0)   /* return R[A](R[A+1], ..., R[A+B-1]); k: close upvalues \
                                          first; C > 0: vararg function with C-1 parameters */ \
    X(RETURN, iABC, 0, 0, 1, 0, 0)     /* return R[A], ..., R[A+B-2]; B == 0: up to top;   \
                                          k: close first; C > 0 as in TAILCALL */          \
    X(RETURN0, iABC, 0, 0, 0, 0, 0)    /* return */                                        \
    X(RETURN1, iABC, 0, 0, 0, 0, 0)    /* return R[A] */                                   \
    X(FORLOOP, iABx, 0, 0, 0, 0, 0)    /* numeric for: update counters; if the loop goes on, pc -= Bx */ \
    X(FORPREP, iABx, 0, 0, 0, 0, 0)    /* numeric for: check and prepare; if it does not run, pc += Bx + 1 */ \
    X(TFORPREP, iABx, 0, 0, 0, 0, 0)   /* generic for: mark R[A+3] to-be-closed; pc += Bx */ \
    X(TFORCALL, iABC, 0, 0, 0, 0, 0)   /* R[A+4], ..., R[A+3+C] := R[A](R[A+1], R[A+2]) */ \
    X(TFORLOOP, iABx, 0, 0, 0, 0, 0)   /* if R[A+4] ~= nil then { R[A+2] := R[A+4]; pc -= Bx } */ \
    X(SETLIST, iABC, 0, 0, 1, 0, 0)    /* R[A][C+i] := R[A+i], 1 <= i <= B (B == 0: up to top);   \
                                          k: C += EXTRAARG Ax * (MAXARG_C+1) */            \
    X(CLOSURE, iABx, 1, 0, 0, 0, 0)    /* R[A] := closure(KPROTO[Bx]) */                   \
    X(VARARG, iABC, 1, 0, 0, 1, 0)     /* R[A], ..., R[A+C-2] = vararg; C == 0: all */     \
    X(VARARGPREP, iABC, 0, 0, 1, 0, 0) /* adjust the vararg parameters (A: fixed parameters) */ \
    X(EXTRAARG, iAx, 0, 0, 0, 0, 0)    /* extra (larger) argument for the previous instruction */

typedef enum {
#define TIDE_OPCODE_ENUM(name, mode, a, t, it, ot, mm) OP_##name,
    TIDE_OPCODES(TIDE_OPCODE_ENUM)
#undef TIDE_OPCODE_ENUM
    NUM_OPCODES
} OpCode;

/* Per-opcode properties, from the list above (opcodes.c). */
typedef struct OpInfo {
    const char *name;
    uint8_t mode, sets_a, is_test, uses_top, sets_top, is_mm;
} OpInfo;
TIDE_INTERNAL extern const OpInfo op_info[NUM_OPCODES];

#define getOpMode(o) ((enum OpMode)op_info[o].mode)
#define testAMode(o) (op_info[o].sets_a)
#define testTMode(o) (op_info[o].is_test)
#define testITMode(o) (op_info[o].uses_top)
#define testOTMode(o) (op_info[o].sets_top)
#define testMMMode(o) (op_info[o].is_mm)

/* An instruction that uses the top set by the previous one (it) or leaves
 * one for the next (ot): "open" call/vararg forms. */
#define isOT(i) ((testOTMode(GET_OPCODE(i)) && GETARG_C(i) == 0) || GET_OPCODE(i) == OP_TAILCALL)
#define isIT(i) (testITMode(GET_OPCODE(i)) && GETARG_B(i) == 0)

#endif
