/*
 * code.c — the code generator (code.h).
 *
 * Expressions are kept symbolic (ExpDesc) for as long as possible so that
 * the instruction that finally computes a value can target the right
 * register, use a constant or immediate operand, or fold away entirely.
 *
 * Invariants:
 *  - an EXP_RELOC expression's instruction is the last one emitted, except
 *    for the MMBIN* that follows an arithmetic instruction;
 *  - every arithmetic/bitwise instruction is immediately followed by its
 *    MMBIN / MMBINI / MMBINK (the VM skips it on the fast path);
 *  - no jump lands on an instruction that depends on the one before it
 *    (an MMBIN*, an EXTRAARG, an instruction reading the open top);
 *  - instruction [pc] was emitted at line lines[firstline + pc].
 */
#include <math.h>
#include <string.h>

#include "code.h"
#include "conv.h"
#include "metamethods.h"
#include "strings.h"
#include "tables.h"
#include "../gc/gc.h"

/* Largest constant index an RK / K operand (B or C field) can hold. */
#define MAXINDEXRK MAXARG_B
/* "No register" for patch_testreg: the value is not wanted. */
#define NO_REG MAXARG_A

#define hasjumps(e) ((e)->t != (e)->f)

/* =========================================================================
 * Growing the prototype's arrays
 */

/* Make room for element [n] in a prototype array of *size elements. The
 * new slots are zeroed (nil values, NULL pointers) and *size is updated
 * before anything else can allocate, so the collector always sees a
 * consistent array. Returns the (maybe moved) block; the caller stores it
 * at once. */
void *code_growarray(FuncState *fs, void *block, int *size, int n, size_t elemsize, int limit, const char *what)
{
    lua_State *L = fs->ls->L;
    int old = *size;
    if (n < old) return block;
    if (old >= limit) parse_errorlimit(fs, limit, what);
    int newsize = old < 4 ? 4 : (old <= limit / 2 ? old * 2 : limit);
    char *nb = block == NULL ? gc_raw_alloc(L, (size_t)newsize * elemsize)
                             : gc_raw_realloc(L, block, (size_t)old * elemsize, (size_t)newsize * elemsize);
    memset(nb + (size_t)old * elemsize, 0, (size_t)(newsize - old) * elemsize);
    *size = newsize;
    return nb;
}

/* The line of each instruction goes to the parser's line buffer; the
 * prototype gets its lineinfo, exactly sizecode long, when it is closed. */
static void save_line(FuncState *fs, int line)
{
    Dyndata *dyd = fs->ls->dyd;
    int i = fs->firstline + fs->pc;
    if (i >= dyd->lines.size) {
        int old = dyd->lines.size;
        if (old >= INT32_MAX / 2) parse_errorlimit(fs, INT32_MAX / 2, "instructions");
        int newsize = old < 64 ? 64 : old * 2;
        dyd->lines.arr = dyd->lines.arr == NULL
                             ? gc_raw_newvector(fs->ls->L, newsize, int)
                             : gc_raw_reallocvector(fs->ls->L, dyd->lines.arr, old, newsize, int);
        dyd->lines.size = newsize;
    }
    dyd->lines.arr[i] = line;
}

/* =========================================================================
 * Emitting instructions
 */

static int emit(FuncState *fs, Instruction i)
{
    Proto *f = fs->f;
    if (fs->pc >= f->sizecode)
        f->code = code_growarray(fs, f->code, &f->sizecode, fs->pc, sizeof(Instruction), INT32_MAX / 2,
                                 "instructions");
    save_line(fs, fs->ls->lastline);
    f->code[fs->pc] = i;
    return fs->pc++;
}

int code_ABCk(FuncState *fs, OpCode o, int a, int b, int c, int k)
{
    lua_assert(getOpMode(o) == iABC);
    lua_assert(a <= MAXARG_A && b <= MAXARG_B && c <= MAXARG_C && (k & ~1) == 0);
    return emit(fs, CREATE_ABCk(o, a, b, c, k));
}

int code_ABx(FuncState *fs, OpCode o, int a, unsigned int bx)
{
    lua_assert(getOpMode(o) == iABx && a <= MAXARG_A && bx <= MAXARG_Bx);
    return emit(fs, CREATE_ABx(o, a, bx));
}

static int code_AsBx(FuncState *fs, OpCode o, int a, int sbx)
{
    return emit(fs, CREATE_ABx(o, a, (unsigned int)(sbx + OFFSET_sBx)));
}

static int code_sJ(FuncState *fs, OpCode o, int sj, int k)
{
    return emit(fs, CREATE_sJ(o, (unsigned int)(sj + OFFSET_sJ), k));
}

int code_extraarg(FuncState *fs, int a)
{
    lua_assert(a <= MAXARG_Ax);
    return emit(fs, CREATE_Ax(OP_EXTRAARG, a));
}

/* The instruction is attributed to [line] instead (for statements whose
 * "line" is where they started, like a call spanning lines). */
void code_fixline(FuncState *fs, int line)
{
    fs->ls->dyd->lines.arr[fs->firstline + fs->pc - 1] = line;
}

/* The previous instruction, when it can be merged with a new one: not
 * when a jump may land between them. */
static Instruction *previous_instruction(FuncState *fs)
{
    if (fs->pc > fs->lasttarget) return &fs->f->code[fs->pc - 1];
    return NULL;
}

void code_nil(FuncState *fs, int from, int n)
{
    int last = from + n - 1;
    Instruction *prev = previous_instruction(fs);
    if (prev != NULL && GET_OPCODE(*prev) == OP_LOADNIL) {
        /* extend the previous LOADNIL when the ranges touch or overlap */
        int pfrom = GETARG_A(*prev);
        int plast = pfrom + GETARG_B(*prev);
        if ((pfrom <= from && from <= plast + 1) || (from <= pfrom && pfrom <= last + 1)) {
            if (pfrom < from) from = pfrom;
            if (plast > last) last = plast;
            SETARG_A(*prev, from);
            SETARG_B(*prev, last - from);
            return;
        }
    }
    code_ABC(fs, OP_LOADNIL, from, n - 1, 0);
}

/* =========================================================================
 * Jumps and jump lists
 */

static int jump_dest(FuncState *fs, int pc)
{
    int offset = GETARG_sJ(fs->f->code[pc]);
    return offset == NO_JUMP ? NO_JUMP : pc + 1 + offset;
}

static void set_jump(FuncState *fs, int pc, int dest)
{
    Instruction *jmp = &fs->f->code[pc];
    int offset = dest - (pc + 1);
    lua_assert(dest != NO_JUMP);
    if (!(-OFFSET_sJ <= offset && offset <= MAXARG_sJ - OFFSET_sJ))
        lex_syntaxerror(fs->ls, "control structure too long");
    lua_assert(GET_OPCODE(*jmp) == OP_JMP);
    SETARG_sJ(*jmp, offset);
}

void code_concat(FuncState *fs, int *l1, int l2)
{
    if (l2 == NO_JUMP) return;
    if (*l1 == NO_JUMP) {
        *l1 = l2;
        return;
    }
    int list = *l1, next;
    while ((next = jump_dest(fs, list)) != NO_JUMP) list = next;
    set_jump(fs, list, l2);
}

int code_jump(FuncState *fs)
{
    return code_sJ(fs, OP_JMP, NO_JUMP, 0);
}

void code_ret(FuncState *fs, int first, int nret)
{
    OpCode op = nret == 0 ? OP_RETURN0 : nret == 1 ? OP_RETURN1 : OP_RETURN;
    code_ABC(fs, op, first, nret + 1, 0);
}

static int cond_jump(FuncState *fs, OpCode op, int a, int b, int c, int k)
{
    code_ABCk(fs, op, a, b, c, k);
    return code_jump(fs);
}

/* The current position, marked as a jump target (nothing emitted before
 * it may be merged with what comes after). */
int code_getlabel(FuncState *fs)
{
    fs->lasttarget = fs->pc;
    return fs->pc;
}

/* The instruction that decides jump [pc]: the test before it, if any. */
static Instruction *jump_control(FuncState *fs, int pc)
{
    Instruction *pi = &fs->f->code[pc];
    if (pc >= 1 && testTMode(GET_OPCODE(*(pi - 1)))) return pi - 1;
    return pi;
}

/* A TESTSET controlling jump [node] stores its value into [reg]; without a
 * register (NO_REG) or when it would copy a register onto itself, it
 * becomes a plain TEST. Returns 0 when the jump has no TESTSET. */
static int patch_testreg(FuncState *fs, int node, int reg)
{
    Instruction *i = jump_control(fs, node);
    if (GET_OPCODE(*i) != OP_TESTSET) return 0;
    if (reg != NO_REG && reg != GETARG_B(*i))
        SETARG_A(*i, reg);
    else
        *i = CREATE_ABCk(OP_TEST, GETARG_B(*i), 0, 0, GETARG_k(*i));
    return 1;
}

static void remove_values(FuncState *fs, int list)
{
    for (; list != NO_JUMP; list = jump_dest(fs, list)) patch_testreg(fs, list, NO_REG);
}

/* Patch every jump of [list]: those that carry a value (TESTSET) go to
 * [vtarget] with the value in [reg], the others to [dtarget]. */
static void patch_list_aux(FuncState *fs, int list, int vtarget, int reg, int dtarget)
{
    while (list != NO_JUMP) {
        int next = jump_dest(fs, list);
        if (patch_testreg(fs, list, reg))
            set_jump(fs, list, vtarget);
        else
            set_jump(fs, list, dtarget);
        list = next;
    }
}

void code_patchlist(FuncState *fs, int list, int target)
{
    lua_assert(target <= fs->pc);
    patch_list_aux(fs, list, target, NO_REG, target);
}

void code_patchtohere(FuncState *fs, int list)
{
    int here = code_getlabel(fs);
    code_patchlist(fs, list, here);
}

/* =========================================================================
 * Registers
 */

void code_checkstack(FuncState *fs, int n)
{
    int newstack = fs->freereg + n;
    if (newstack > fs->f->maxstacksize) {
        if (newstack >= MAXREGS) lex_syntaxerror(fs->ls, "function or expression needs too many registers");
        fs->f->maxstacksize = (uint8_t)newstack;
    }
}

void code_reserveregs(FuncState *fs, int n)
{
    code_checkstack(fs, n);
    fs->freereg = (uint8_t)(fs->freereg + n);
}

/* Free a temporary register (never a local variable's): it must be the
 * topmost one in use. */
static void free_reg(FuncState *fs, int reg)
{
    if (reg >= parse_nvarstack(fs)) {
        fs->freereg--;
        lua_assert(reg == fs->freereg);
    }
}

static void free_regs(FuncState *fs, int r1, int r2)
{
    if (r1 > r2) {
        free_reg(fs, r1);
        free_reg(fs, r2);
    } else {
        free_reg(fs, r2);
        free_reg(fs, r1);
    }
}

static void free_exp(FuncState *fs, ExpDesc *e)
{
    if (e->k == EXP_NONRELOC) free_reg(fs, e->u.info);
}

static void free_exps(FuncState *fs, ExpDesc *e1, ExpDesc *e2)
{
    int r1 = e1->k == EXP_NONRELOC ? e1->u.info : -1;
    int r2 = e2->k == EXP_NONRELOC ? e2->u.info : -1;
    free_regs(fs, r1, r2);
}

/* =========================================================================
 * Constants
 *
 * fs->kcache maps a key to the index of the constant in f->k. The key is
 * the value itself except where the table would confuse values that are
 * distinct constants: nil cannot be a key (the cache table itself stands
 * for it), and an integral float would become an integer key (it uses a
 * nearby non-integral float instead). A cache hit is verified against
 * f->k, so a key shared by two values only costs a duplicate constant.
 */

static int same_constant(const TValue *a, const TValue *b)
{
    if (rawtt(a) != rawtt(b)) return 0;
    switch (ttypetag(a)) {
    case VNUMINT: return ivalue(a) == ivalue(b);
    case VNUMFLT: return memcmp(&fltvalue(a), &fltvalue(b), sizeof(lua_Number)) == 0;
    case withvariant(VSHRSTR): return tsvalue(a) == tsvalue(b);
    case withvariant(VLNGSTR): return str_eqlngstr(tsvalue(a), tsvalue(b));
    default: return 1; /* nil, false, true */
    }
}

static int add_constant(FuncState *fs, const TValue *key, const TValue *v)
{
    lua_State *L = fs->ls->L;
    Proto *f = fs->f;
    const TValue *slot = tab_get(fs->kcache, key);
    if (ttisinteger(slot)) {
        lua_Integer idx = ivalue(slot);
        if (idx < fs->nk && same_constant(&f->k[idx], v)) return (int)idx;
    }
    int idx = fs->nk;
    if (idx >= f->sizek)
        f->k = code_growarray(fs, f->k, &f->sizek, idx, sizeof(TValue), MAXARG_Ax + 1, "constants");
    setobj(L, &f->k[idx], v);
    fs->nk++;
    gc_barrier(L, f, v);
    TValue tv;
    setivalue(&tv, idx);
    tab_set(L, fs->kcache, key, &tv);
    return idx;
}

static int string_K(FuncState *fs, TString *s)
{
    TValue o;
    setsvalue(fs->ls->L, &o, s);
    return add_constant(fs, &o, &o);
}

static int int_K(FuncState *fs, lua_Integer n)
{
    TValue o;
    setivalue(&o, n);
    return add_constant(fs, &o, &o);
}

static int number_K(FuncState *fs, lua_Number r)
{
    TValue o;
    lua_Integer ik;
    setfltvalue(&o, r);
    if (!conv_flttointns(r, &ik, F2Ieq)) return add_constant(fs, &o, &o);
    /* an integral float: key it by r(1 + 2^-52), which is no integer
     * (except for huge values, where the check in add_constant decides) */
    const lua_Number q = ldexp(1.0, -52);
    TValue key;
    setfltvalue(&key, ik == 0 ? q : r + r * q);
    return add_constant(fs, &key, &o);
}

static int false_K(FuncState *fs)
{
    TValue o;
    setfalse(&o);
    return add_constant(fs, &o, &o);
}

static int true_K(FuncState *fs)
{
    TValue o;
    settrue(&o);
    return add_constant(fs, &o, &o);
}

static int nil_K(FuncState *fs)
{
    TValue key, v;
    setnilvalue(&v);
    sethvalue(fs->ls->L, &key, fs->kcache);
    return add_constant(fs, &key, &v);
}

static void load_constant(FuncState *fs, int reg, int k)
{
    if (k <= MAXARG_Bx) {
        code_ABx(fs, OP_LOADK, reg, (unsigned int)k);
    } else {
        code_ABx(fs, OP_LOADKX, reg, 0);
        code_extraarg(fs, k);
    }
}

/* Does [i] fit the signed Bx field (LOADI, LOADF)? */
static int fits_sBx(lua_Integer i)
{
    return -OFFSET_sBx <= i && i <= MAXARG_Bx - OFFSET_sBx;
}

/* Does [i] fit a signed C (or B) field (sC)? */
static int fits_sC(lua_Integer i)
{
    return (lua_Unsigned)i + OFFSET_sC <= (lua_Unsigned)MAXARG_C;
}

void code_int(FuncState *fs, int reg, lua_Integer i)
{
    if (fits_sBx(i))
        code_AsBx(fs, OP_LOADI, reg, (int)i);
    else
        load_constant(fs, reg, int_K(fs, i));
}

static void code_float(FuncState *fs, int reg, lua_Number f)
{
    lua_Integer fi;
    if (conv_flttointns(f, &fi, F2Ieq) && fits_sBx(fi) && !(fi == 0 && signbit(f)))
        code_AsBx(fs, OP_LOADF, reg, (int)fi);
    else
        load_constant(fs, reg, number_K(fs, f));
}

/* =========================================================================
 * Expressions to values
 */

/* The value of a numeral expression (no jumps), into [v] when not NULL. */
static int tonumeral(const ExpDesc *e, TValue *v)
{
    if (hasjumps(e)) return 0;
    switch (e->k) {
    case EXP_KINT:
        if (v != NULL) setivalue(v, e->u.ival);
        return 1;
    case EXP_KFLT:
        if (v != NULL) setfltvalue(v, e->u.nval);
        return 1;
    default:
        return 0;
    }
}

int code_exp2const(FuncState *fs, const ExpDesc *e, TValue *v)
{
    if (hasjumps(e)) return 0;
    switch (e->k) {
    case EXP_FALSE: setfalse(v); return 1;
    case EXP_TRUE: settrue(v); return 1;
    case EXP_NIL: setnilvalue(v); return 1;
    case EXP_KSTR: setsvalue(fs->ls->L, v, e->u.strval); return 1;
    case EXP_CONST: parse_constvalue(fs, e->u.info, v); return 1;
    default: return tonumeral(e, v);
    }
}

/* A compile-time constant's value as an expression. */
static void const_to_exp(const TValue *v, ExpDesc *e)
{
    switch (ttypetag(v)) {
    case VNUMINT: e->k = EXP_KINT; e->u.ival = ivalue(v); break;
    case VNUMFLT: e->k = EXP_KFLT; e->u.nval = fltvalue(v); break;
    case VFALSE: e->k = EXP_FALSE; break;
    case VTRUE: e->k = EXP_TRUE; break;
    case VNIL: e->k = EXP_NIL; break;
    case withvariant(VSHRSTR): case withvariant(VLNGSTR):
        e->k = EXP_KSTR;
        e->u.strval = tsvalue(v);
        break;
    default: lua_assert(0);
    }
}

void code_setreturns(FuncState *fs, ExpDesc *e, int nresults)
{
    Instruction *pc = &code_instruction(fs, e);
    SETARG_C(*pc, nresults + 1);
    if (e->k == EXP_VARARG) {
        SETARG_A(*pc, fs->freereg);
        code_reserveregs(fs, 1);
    } else {
        lua_assert(e->k == EXP_CALL);
    }
}

void code_setoneret(FuncState *fs, ExpDesc *e)
{
    if (e->k == EXP_CALL) {
        /* a call already leaves its first result in its base register */
        lua_assert(GETARG_C(code_instruction(fs, e)) == 2);
        e->k = EXP_NONRELOC;
        e->u.info = GETARG_A(code_instruction(fs, e));
    } else if (e->k == EXP_VARARG) {
        SETARG_C(code_instruction(fs, e), 2);
        e->k = EXP_RELOC;
    }
}

static void string_to_K(FuncState *fs, ExpDesc *e)
{
    lua_assert(e->k == EXP_KSTR);
    e->u.info = string_K(fs, e->u.strval);
    e->k = EXP_K;
}

/* Variables become values: emit the read of an upvalue or table field
 * (its destination register still open: EXP_RELOC). */
void code_dischargevars(FuncState *fs, ExpDesc *e)
{
    switch (e->k) {
    case EXP_CONST: {
        TValue v;
        parse_constvalue(fs, e->u.info, &v);
        const_to_exp(&v, e);
        break;
    }
    case EXP_LOCAL:
        e->u.info = e->u.var.ridx;
        e->k = EXP_NONRELOC;
        break;
    case EXP_UPVAL:
        e->u.info = code_ABC(fs, OP_GETUPVAL, 0, e->u.info, 0);
        e->k = EXP_RELOC;
        break;
    case EXP_INDEXUP: {
        int t = e->u.ind.t, idx = e->u.ind.idx;
        e->u.info = code_ABC(fs, OP_GETTABUP, 0, t, idx);
        e->k = EXP_RELOC;
        break;
    }
    case EXP_INDEXI: {
        int t = e->u.ind.t, idx = e->u.ind.idx;
        free_reg(fs, t);
        e->u.info = code_ABC(fs, OP_GETI, 0, t, idx);
        e->k = EXP_RELOC;
        break;
    }
    case EXP_INDEXSTR: {
        int t = e->u.ind.t, idx = e->u.ind.idx;
        free_reg(fs, t);
        e->u.info = code_ABC(fs, OP_GETFIELD, 0, t, idx);
        e->k = EXP_RELOC;
        break;
    }
    case EXP_INDEXED: {
        int t = e->u.ind.t, idx = e->u.ind.idx;
        free_regs(fs, t, idx);
        e->u.info = code_ABC(fs, OP_GETTABLE, 0, t, idx);
        e->k = EXP_RELOC;
        break;
    }
    case EXP_VARARG: case EXP_CALL:
        code_setoneret(fs, e);
        break;
    default:
        break;
    }
}

/* Put the value of [e] in register [reg] (jumps of [e] aside). */
static void discharge_to_reg(FuncState *fs, ExpDesc *e, int reg)
{
    code_dischargevars(fs, e);
    switch (e->k) {
    case EXP_NIL: code_nil(fs, reg, 1); break;
    case EXP_FALSE: code_ABC(fs, OP_LOADFALSE, reg, 0, 0); break;
    case EXP_TRUE: code_ABC(fs, OP_LOADTRUE, reg, 0, 0); break;
    case EXP_KSTR: string_to_K(fs, e); /* fallthrough */
    case EXP_K: load_constant(fs, reg, e->u.info); break;
    case EXP_KFLT: code_float(fs, reg, e->u.nval); break;
    case EXP_KINT: code_int(fs, reg, e->u.ival); break;
    case EXP_RELOC: SETARG_A(code_instruction(fs, e), reg); break;
    case EXP_NONRELOC:
        if (reg != e->u.info) code_ABC(fs, OP_MOVE, reg, e->u.info, 0);
        break;
    default:
        lua_assert(e->k == EXP_JMP);
        return; /* the value is decided by the jumps */
    }
    e->u.info = reg;
    e->k = EXP_NONRELOC;
}

static void discharge_to_anyreg(FuncState *fs, ExpDesc *e)
{
    if (e->k != EXP_NONRELOC) {
        code_reserveregs(fs, 1);
        discharge_to_reg(fs, e, fs->freereg - 1);
    }
}

static int load_bool_label(FuncState *fs, int a, OpCode op)
{
    code_getlabel(fs);
    return code_ABC(fs, op, a, 0, 0);
}

/* Does some jump of [list] need a boolean value loaded (not a TESTSET,
 * which produces its own value)? */
static int need_value(FuncState *fs, int list)
{
    for (; list != NO_JUMP; list = jump_dest(fs, list)) {
        if (GET_OPCODE(*jump_control(fs, list)) != OP_TESTSET) return 1;
    }
    return 0;
}

/* Put the full value of [e], jumps included, in register [reg]: jumps that
 * carry a value (TESTSET) store it there; the others land on code that
 * loads false or true. */
static void exp_to_reg(FuncState *fs, ExpDesc *e, int reg)
{
    discharge_to_reg(fs, e, reg);
    if (e->k == EXP_JMP) code_concat(fs, &e->t, e->u.info); /* the test is a "true" jump */
    if (hasjumps(e)) {
        int load_false = NO_JUMP, load_true = NO_JUMP;
        if (need_value(fs, e->t) || need_value(fs, e->f)) {
            int skip = e->k == EXP_JMP ? NO_JUMP : code_jump(fs);
            load_false = load_bool_label(fs, reg, OP_LFALSESKIP);
            load_true = load_bool_label(fs, reg, OP_LOADTRUE);
            code_patchtohere(fs, skip);
        }
        int end = code_getlabel(fs);
        patch_list_aux(fs, e->f, end, reg, load_false);
        patch_list_aux(fs, e->t, end, reg, load_true);
    }
    e->f = e->t = NO_JUMP;
    e->u.info = reg;
    e->k = EXP_NONRELOC;
}

void code_exp2nextreg(FuncState *fs, ExpDesc *e)
{
    code_dischargevars(fs, e);
    free_exp(fs, e);
    code_reserveregs(fs, 1);
    exp_to_reg(fs, e, fs->freereg - 1);
}

int code_exp2anyreg(FuncState *fs, ExpDesc *e)
{
    code_dischargevars(fs, e);
    if (e->k == EXP_NONRELOC) {
        if (!hasjumps(e)) return e->u.info;
        if (e->u.info >= parse_nvarstack(fs)) { /* a temporary: finish it in place */
            exp_to_reg(fs, e, e->u.info);
            return e->u.info;
        }
        /* a local variable with jumps: the result needs a register of its own */
    }
    code_exp2nextreg(fs, e);
    return e->u.info;
}

/* A value in a register or an upvalue (tables indexed through upvalues
 * use GETTABUP/SETTABUP directly). */
void code_exp2anyregup(FuncState *fs, ExpDesc *e)
{
    if (e->k != EXP_UPVAL || hasjumps(e)) code_exp2anyreg(fs, e);
}

/* A value in a register or a constant. */
void code_exp2val(FuncState *fs, ExpDesc *e)
{
    if (hasjumps(e))
        code_exp2anyreg(fs, e);
    else
        code_dischargevars(fs, e);
}

/* Try to make [e] a constant of k[] addressable by an operand field. */
static int exp_to_K(FuncState *fs, ExpDesc *e)
{
    if (hasjumps(e)) return 0;
    int info;
    switch (e->k) {
    case EXP_TRUE: info = true_K(fs); break;
    case EXP_FALSE: info = false_K(fs); break;
    case EXP_NIL: info = nil_K(fs); break;
    case EXP_KINT: info = int_K(fs, e->u.ival); break;
    case EXP_KFLT: info = number_K(fs, e->u.nval); break;
    case EXP_KSTR: info = string_K(fs, e->u.strval); break;
    case EXP_K: info = e->u.info; break;
    default: return 0;
    }
    if (info > MAXINDEXRK) return 0;
    e->k = EXP_K;
    e->u.info = info;
    return 1;
}

/* A constant operand when possible (returns 1), else a register. */
static int exp_to_RK(FuncState *fs, ExpDesc *e)
{
    if (exp_to_K(fs, e)) return 1;
    code_exp2anyreg(fs, e);
    return 0;
}

static void code_ABRK(FuncState *fs, OpCode o, int a, int b, ExpDesc *ec)
{
    int k = exp_to_RK(fs, ec);
    code_ABCk(fs, o, a, b, ec->u.info, k);
}

void code_storevar(FuncState *fs, ExpDesc *var, ExpDesc *ex)
{
    switch (var->k) {
    case EXP_LOCAL:
        free_exp(fs, ex);
        exp_to_reg(fs, ex, var->u.var.ridx); /* compute the value right into the variable */
        return;
    case EXP_UPVAL: {
        int e = code_exp2anyreg(fs, ex);
        code_ABC(fs, OP_SETUPVAL, e, var->u.info, 0);
        break;
    }
    case EXP_INDEXUP: code_ABRK(fs, OP_SETTABUP, var->u.ind.t, var->u.ind.idx, ex); break;
    case EXP_INDEXI: code_ABRK(fs, OP_SETI, var->u.ind.t, var->u.ind.idx, ex); break;
    case EXP_INDEXSTR: code_ABRK(fs, OP_SETFIELD, var->u.ind.t, var->u.ind.idx, ex); break;
    case EXP_INDEXED: code_ABRK(fs, OP_SETTABLE, var->u.ind.t, var->u.ind.idx, ex); break;
    default: lua_assert(0);
    }
    free_exp(fs, ex);
}

/* obj:method -> SELF: the method in R[A], the object in R[A+1]. */
void code_self(FuncState *fs, ExpDesc *e, ExpDesc *key)
{
    code_exp2anyreg(fs, e);
    int ereg = e->u.info;
    free_exp(fs, e);
    e->u.info = fs->freereg;
    e->k = EXP_NONRELOC;
    code_reserveregs(fs, 2);
    code_ABRK(fs, OP_SELF, e->u.info, ereg, key);
    free_exp(fs, key);
}

/* =========================================================================
 * Conditions
 */

static void negate_condition(FuncState *fs, ExpDesc *e)
{
    Instruction *pc = jump_control(fs, e->u.info);
    lua_assert(testTMode(GET_OPCODE(*pc)) && GET_OPCODE(*pc) != OP_TESTSET && GET_OPCODE(*pc) != OP_TEST);
    SETARG_k(*pc, GETARG_k(*pc) ^ 1);
}

/* A jump taken when [e]'s truth is [cond]. A preceding NOT is dropped and
 * its operand tested with the opposite sense. */
static int jump_on_cond(FuncState *fs, ExpDesc *e, int cond)
{
    if (e->k == EXP_RELOC) {
        Instruction ie = code_instruction(fs, e);
        if (GET_OPCODE(ie) == OP_NOT) {
            lua_assert(e->u.info == fs->pc - 1);
            fs->pc--; /* the NOT was the last instruction */
            return cond_jump(fs, OP_TEST, GETARG_B(ie), 0, 0, !cond);
        }
    }
    discharge_to_anyreg(fs, e);
    free_exp(fs, e);
    return cond_jump(fs, OP_TESTSET, NO_REG, e->u.info, 0, cond);
}

/* Go on when [e] is true, jump (the f list) when it is false. */
void code_goiftrue(FuncState *fs, ExpDesc *e)
{
    int pc;
    code_dischargevars(fs, e);
    switch (e->k) {
    case EXP_JMP:
        negate_condition(fs, e);
        pc = e->u.info;
        break;
    case EXP_K: case EXP_KFLT: case EXP_KINT: case EXP_KSTR: case EXP_TRUE:
        pc = NO_JUMP; /* always true */
        break;
    default:
        pc = jump_on_cond(fs, e, 0);
        break;
    }
    code_concat(fs, &e->f, pc);
    code_patchtohere(fs, e->t);
    e->t = NO_JUMP;
}

/* Go on when [e] is false, jump (the t list) when it is true. */
void code_goiffalse(FuncState *fs, ExpDesc *e)
{
    int pc;
    code_dischargevars(fs, e);
    switch (e->k) {
    case EXP_JMP:
        pc = e->u.info;
        break;
    case EXP_NIL: case EXP_FALSE:
        pc = NO_JUMP; /* always false */
        break;
    default:
        pc = jump_on_cond(fs, e, 1);
        break;
    }
    code_concat(fs, &e->t, pc);
    code_patchtohere(fs, e->f);
    e->f = NO_JUMP;
}

static void code_not(FuncState *fs, ExpDesc *e)
{
    switch (e->k) {
    case EXP_NIL: case EXP_FALSE:
        e->k = EXP_TRUE;
        break;
    case EXP_K: case EXP_KFLT: case EXP_KINT: case EXP_KSTR: case EXP_TRUE:
        e->k = EXP_FALSE;
        break;
    case EXP_JMP:
        negate_condition(fs, e);
        break;
    case EXP_RELOC: case EXP_NONRELOC:
        discharge_to_anyreg(fs, e);
        free_exp(fs, e);
        e->u.info = code_ABC(fs, OP_NOT, 0, e->u.info, 0);
        e->k = EXP_RELOC;
        break;
    default:
        lua_assert(0);
    }
    int temp = e->f; /* true and false exits swap */
    e->f = e->t;
    e->t = temp;
    remove_values(fs, e->f); /* the jumps' values are no longer what the expression yields */
    remove_values(fs, e->t);
}

/* =========================================================================
 * Indexing
 */

static int is_Kstr(FuncState *fs, const ExpDesc *e)
{
    return e->k == EXP_K && !hasjumps(e) && e->u.info <= MAXARG_B && ttisshrstring(&fs->f->k[e->u.info]);
}

static int is_Kint(const ExpDesc *e)
{
    return e->k == EXP_KINT && !hasjumps(e);
}

/* An integer key for GETI/SETI (0..MAXARG_C). */
static int is_Cint(const ExpDesc *e)
{
    return is_Kint(e) && (lua_Unsigned)e->u.ival <= (lua_Unsigned)MAXARG_C;
}

/* An integer for an sC immediate. */
static int is_SCint(const ExpDesc *e)
{
    return is_Kint(e) && fits_sC(e->u.ival);
}

/* A number with an integral value fitting an sB/sC immediate: the encoded
 * immediate in *pi, and whether it was a float in *isfloat. */
static int is_SCnumber(const ExpDesc *e, int *pi, int *isfloat)
{
    lua_Integer i;
    if (e->k == EXP_KINT)
        i = e->u.ival;
    else if (e->k == EXP_KFLT && conv_flttointns(e->u.nval, &i, F2Ieq))
        *isfloat = 1;
    else
        return 0;
    if (hasjumps(e) || !fits_sC(i)) return 0;
    *pi = int2sC((int)i);
    return 1;
}

/* t[k]: [t] (a local, a register or an upvalue) becomes an indexed
 * variable, keyed the cheapest way the key allows. */
void code_indexed(FuncState *fs, ExpDesc *t, ExpDesc *k)
{
    if (k->k == EXP_KSTR) string_to_K(fs, k);
    lua_assert(!hasjumps(t) && (t->k == EXP_LOCAL || t->k == EXP_NONRELOC || t->k == EXP_UPVAL));
    if (t->k == EXP_UPVAL && !is_Kstr(fs, k)) code_exp2anyreg(fs, t); /* GETTABUP needs a string key */
    if (t->k == EXP_UPVAL) {
        int up = t->u.info;
        t->u.ind.t = (uint8_t)up;
        t->u.ind.idx = (short)k->u.info;
        t->k = EXP_INDEXUP;
        return;
    }
    uint8_t treg = t->k == EXP_LOCAL ? t->u.var.ridx : (uint8_t)t->u.info;
    t->u.ind.t = treg;
    if (is_Kstr(fs, k)) {
        t->u.ind.idx = (short)k->u.info;
        t->k = EXP_INDEXSTR;
    } else if (is_Cint(k)) {
        t->u.ind.idx = (short)k->u.ival;
        t->k = EXP_INDEXI;
    } else {
        t->u.ind.idx = (short)code_exp2anyreg(fs, k);
        t->k = EXP_INDEXED;
    }
}

/* =========================================================================
 * Operators
 */

/* May [op] (a LUA_OP*) be folded over these operands? Not when it would
 * raise an error at run time (division by zero, bitwise on a float
 * without an integer value). */
static int fold_allowed(int op, const TValue *v1, const TValue *v2)
{
    switch (op) {
    case LUA_OPBAND: case LUA_OPBOR: case LUA_OPBXOR:
    case LUA_OPSHL: case LUA_OPSHR: case LUA_OPBNOT: {
        lua_Integer i;
        return conv_tointegerns(v1, &i, F2Ieq) && conv_tointegerns(v2, &i, F2Ieq);
    }
    case LUA_OPDIV: case LUA_OPIDIV: case LUA_OPMOD:
        return nvalue(v2) != 0;
    default:
        return 1;
    }
}

/* Fold [op] over two numerals into [e1]. Results that are NaN or a float
 * zero (which might be -0) stay run-time operations. */
static int constant_fold(int op, ExpDesc *e1, const ExpDesc *e2)
{
    TValue v1, v2, res;
    if (!tonumeral(e1, &v1) || !tonumeral(e2, &v2) || !fold_allowed(op, &v1, &v2)) return 0;
    if (!conv_rawarith(NULL, op, &v1, &v2, &res)) return 0;
    if (ttisinteger(&res)) {
        e1->k = EXP_KINT;
        e1->u.ival = ivalue(&res);
    } else {
        lua_Number n = fltvalue(&res);
        if (isnan(n) || n == 0) return 0;
        e1->k = EXP_KFLT;
        e1->u.nval = n;
    }
    return 1;
}

static void swap_exps(ExpDesc *e1, ExpDesc *e2)
{
    ExpDesc temp = *e1;
    *e1 = *e2;
    *e2 = temp;
}

static void code_unexpval(FuncState *fs, OpCode op, ExpDesc *e, int line)
{
    int r = code_exp2anyreg(fs, e);
    free_exp(fs, e);
    e->u.info = code_ABC(fs, op, 0, r, 0);
    e->k = EXP_RELOC;
    code_fixline(fs, line);
}

/* Emit binary instruction [op] with second operand field [v2] and its
 * metamethod instruction [mmop] (operands swapped back when [flip]). */
static void finish_binexpval(FuncState *fs, ExpDesc *e1, ExpDesc *e2, OpCode op, int v2, int flip, int line,
                             OpCode mmop, TMS event)
{
    int v1 = code_exp2anyreg(fs, e1);
    int pc = code_ABCk(fs, op, 0, v1, v2, 0);
    free_exps(fs, e1, e2);
    e1->u.info = pc;
    e1->k = EXP_RELOC;
    code_fixline(fs, line);
    code_ABCk(fs, mmop, v1, v2, (int)event, flip);
    code_fixline(fs, line);
}

/* Both operands in registers. */
static void code_binexpval(FuncState *fs, OpCode op, ExpDesc *e1, ExpDesc *e2, int line)
{
    int v2 = code_exp2anyreg(fs, e2);
    lua_assert(OP_ADD <= op && op <= OP_SHR);
    finish_binexpval(fs, e1, e2, op, v2, 0, line, OP_MMBIN, (TMS)(op - OP_ADD + TM_ADD));
}

/* Second operand an immediate integer (ADDI, SHRI, SHLI). */
static void code_bini(FuncState *fs, OpCode op, ExpDesc *e1, ExpDesc *e2, int flip, int line, TMS event)
{
    int v2 = int2sC((int)e2->u.ival);
    lua_assert(e2->k == EXP_KINT);
    finish_binexpval(fs, e1, e2, op, v2, flip, line, OP_MMBINI, event);
}

/* Second operand a constant of k[] (ADDK ... BXORK). */
static void code_binK(FuncState *fs, BinOpr opr, ExpDesc *e1, ExpDesc *e2, int flip, int line)
{
    TMS event = (TMS)(opr + TM_ADD);
    int v2 = e2->u.info;
    OpCode op = (OpCode)(opr + OP_ADDK);
    finish_binexpval(fs, e1, e2, op, v2, flip, line, OP_MMBINK, event);
}

/* r1 - I as r1 + (-I), r1 << I as r1 >> (-I): when both I and -I fit an
 * immediate. The metamethod still gets the original I. */
static int finish_binexpneg(FuncState *fs, ExpDesc *e1, ExpDesc *e2, OpCode op, int line, TMS event)
{
    if (!is_Kint(e2)) return 0;
    lua_Integer i2 = e2->u.ival;
    if (!(fits_sC(i2) && fits_sC(-i2))) return 0;
    int v2 = (int)i2;
    finish_binexpval(fs, e1, e2, op, int2sC(-v2), 0, line, OP_MMBINI, event);
    SETARG_B(fs->f->code[fs->pc - 1], int2sC(v2));
    return 1;
}

static void code_binNoK(FuncState *fs, BinOpr opr, ExpDesc *e1, ExpDesc *e2, int flip, int line)
{
    if (flip) swap_exps(e1, e2); /* back to the source order */
    code_binexpval(fs, (OpCode)(opr + OP_ADD), e1, e2, line);
}

static void code_arith(FuncState *fs, BinOpr opr, ExpDesc *e1, ExpDesc *e2, int flip, int line)
{
    if (tonumeral(e2, NULL) && exp_to_K(fs, e2))
        code_binK(fs, opr, e1, e2, flip, line);
    else
        code_binNoK(fs, opr, e1, e2, flip, line);
}

/* '+' and '*': a numeral on the left moves right so that it can be an
 * immediate or constant operand. */
static void code_commutative(FuncState *fs, BinOpr op, ExpDesc *e1, ExpDesc *e2, int line)
{
    int flip = 0;
    if (tonumeral(e1, NULL)) {
        swap_exps(e1, e2);
        flip = 1;
    }
    if (op == OPR_ADD && is_SCint(e2))
        code_bini(fs, OP_ADDI, e1, e2, flip, line, TM_ADD);
    else
        code_arith(fs, op, e1, e2, flip, line);
}

static void code_bitwise(FuncState *fs, BinOpr opr, ExpDesc *e1, ExpDesc *e2, int line)
{
    int flip = 0;
    if (e1->k == EXP_KINT) {
        swap_exps(e1, e2);
        flip = 1;
    }
    if (e2->k == EXP_KINT && exp_to_K(fs, e2))
        code_binK(fs, opr, e1, e2, flip, line);
    else
        code_binNoK(fs, opr, e1, e2, flip, line);
}

/* '<' and '<=' (with '>' and '>=' already turned around). */
static void code_order(FuncState *fs, OpCode op, ExpDesc *e1, ExpDesc *e2)
{
    int r1, r2, im, isfloat = 0;
    if (is_SCnumber(e2, &im, &isfloat)) {
        r1 = code_exp2anyreg(fs, e1);
        r2 = im;
        op = (OpCode)(op - OP_LT + OP_LTI);
    } else if (is_SCnumber(e1, &im, &isfloat)) { /* I < r2 is r2 > I */
        r1 = code_exp2anyreg(fs, e2);
        r2 = im;
        op = op == OP_LT ? OP_GTI : OP_GEI;
    } else {
        r1 = code_exp2anyreg(fs, e1);
        r2 = code_exp2anyreg(fs, e2);
    }
    free_exps(fs, e1, e2);
    e1->u.info = cond_jump(fs, op, r1, r2, isfloat, 1);
    e1->k = EXP_JMP;
}

/* '==' and '~='. code_infix left [e1] in a register or as a constant. */
static void code_eq(FuncState *fs, BinOpr opr, ExpDesc *e1, ExpDesc *e2)
{
    int r1, r2, im, isfloat = 0;
    OpCode op;
    if (e1->k != EXP_NONRELOC) { /* a constant: make it the second operand */
        lua_assert(e1->k == EXP_K || e1->k == EXP_KINT || e1->k == EXP_KFLT);
        swap_exps(e1, e2);
    }
    r1 = code_exp2anyreg(fs, e1);
    if (is_SCnumber(e2, &im, &isfloat)) {
        op = OP_EQI;
        r2 = im;
    } else if (exp_to_RK(fs, e2)) {
        op = OP_EQK;
        r2 = e2->u.info;
    } else {
        op = OP_EQ;
        r2 = code_exp2anyreg(fs, e2);
    }
    free_exps(fs, e1, e2);
    e1->u.info = cond_jump(fs, op, r1, r2, isfloat, opr == OPR_EQ);
    e1->k = EXP_JMP;
}

/* e1 .. e2, both in consecutive registers; a chain becomes one CONCAT
 * (the right operand's CONCAT, emitted just before, is extended). */
static void code_concat_op(FuncState *fs, ExpDesc *e1, ExpDesc *e2, int line)
{
    Instruction *prev = previous_instruction(fs);
    if (prev != NULL && GET_OPCODE(*prev) == OP_CONCAT) {
        int n = GETARG_B(*prev);
        lua_assert(e1->u.info + 1 == GETARG_A(*prev));
        free_exp(fs, e2);
        SETARG_A(*prev, e1->u.info);
        SETARG_B(*prev, n + 1);
    } else {
        code_ABC(fs, OP_CONCAT, e1->u.info, 2, 0);
        free_exp(fs, e2);
        code_fixline(fs, line);
    }
}

void code_prefix(FuncState *fs, UnOpr op, ExpDesc *e, int line)
{
    static const ExpDesc zero = { .k = EXP_KINT, .u.ival = 0, .t = NO_JUMP, .f = NO_JUMP };
    code_dischargevars(fs, e);
    switch (op) {
    case OPR_MINUS: case OPR_BNOT:
        if (constant_fold((int)op + LUA_OPUNM, e, &zero)) break;
        /* fallthrough */
    case OPR_LEN:
        code_unexpval(fs, (OpCode)(op + OP_UNM), e, line);
        break;
    case OPR_NOT:
        code_not(fs, e);
        break;
    default:
        lua_assert(0);
    }
}

/* The left operand [v] of [op] was read; prepare it before the right one
 * is parsed. */
void code_infix(FuncState *fs, BinOpr op, ExpDesc *v)
{
    code_dischargevars(fs, v);
    switch (op) {
    case OPR_AND:
        code_goiftrue(fs, v);
        break;
    case OPR_OR:
        code_goiffalse(fs, v);
        break;
    case OPR_CONCAT:
        code_exp2nextreg(fs, v); /* operands go to consecutive registers */
        break;
    case OPR_ADD: case OPR_SUB: case OPR_MUL: case OPR_DIV: case OPR_IDIV: case OPR_MOD: case OPR_POW:
    case OPR_BAND: case OPR_BOR: case OPR_BXOR: case OPR_SHL: case OPR_SHR:
        if (!tonumeral(v, NULL)) code_exp2anyreg(fs, v); /* numerals may fold or be immediates */
        break;
    case OPR_EQ: case OPR_NE:
        if (!tonumeral(v, NULL)) exp_to_RK(fs, v);
        break;
    case OPR_LT: case OPR_LE: case OPR_GT: case OPR_GE: {
        int dummy, dummy2;
        if (!is_SCnumber(v, &dummy, &dummy2)) code_exp2anyreg(fs, v);
        break;
    }
    default:
        lua_assert(0);
    }
}

void code_posfix(FuncState *fs, BinOpr opr, ExpDesc *e1, ExpDesc *e2, int line)
{
    code_dischargevars(fs, e2);
    if (opr <= OPR_SHR && constant_fold((int)opr + LUA_OPADD, e1, e2)) return;
    switch (opr) {
    case OPR_AND:
        lua_assert(e1->t == NO_JUMP); /* closed by code_goiftrue */
        code_concat(fs, &e2->f, e1->f);
        *e1 = *e2;
        break;
    case OPR_OR:
        lua_assert(e1->f == NO_JUMP); /* closed by code_goiffalse */
        code_concat(fs, &e2->t, e1->t);
        *e1 = *e2;
        break;
    case OPR_CONCAT:
        code_exp2nextreg(fs, e2);
        code_concat_op(fs, e1, e2, line);
        break;
    case OPR_ADD: case OPR_MUL:
        code_commutative(fs, opr, e1, e2, line);
        break;
    case OPR_SUB:
        if (finish_binexpneg(fs, e1, e2, OP_ADDI, line, TM_SUB)) break;
        /* fallthrough */
    case OPR_DIV: case OPR_IDIV: case OPR_MOD: case OPR_POW:
        code_arith(fs, opr, e1, e2, 0, line);
        break;
    case OPR_BAND: case OPR_BOR: case OPR_BXOR:
        code_bitwise(fs, opr, e1, e2, line);
        break;
    case OPR_SHL:
        if (is_SCint(e1)) {
            swap_exps(e1, e2);
            code_bini(fs, OP_SHLI, e1, e2, 1, line, TM_SHL); /* I << r2 */
        } else if (!finish_binexpneg(fs, e1, e2, OP_SHRI, line, TM_SHL)) { /* r1 >> -I */
            code_binexpval(fs, OP_SHL, e1, e2, line);
        }
        break;
    case OPR_SHR:
        if (is_SCint(e2))
            code_bini(fs, OP_SHRI, e1, e2, 0, line, TM_SHR);
        else
            code_binexpval(fs, OP_SHR, e1, e2, line);
        break;
    case OPR_EQ: case OPR_NE:
        code_eq(fs, opr, e1, e2);
        break;
    case OPR_GT: case OPR_GE: /* a > b is b < a; a >= b is b <= a */
        swap_exps(e1, e2);
        opr = (BinOpr)(opr - OPR_GT + OPR_LT);
        /* fallthrough */
    case OPR_LT: case OPR_LE:
        code_order(fs, opr == OPR_LT ? OP_LT : OP_LE, e1, e2);
        break;
    default:
        lua_assert(0);
    }
}

/* =========================================================================
 * Table constructors
 */

void code_settablesize(FuncState *fs, int pc, int ra, int asize, int hsize)
{
    Instruction *inst = &fs->f->code[pc];
    int rb = hsize != 0 ? conv_ceillog2((unsigned int)hsize) + 1 : 0;
    int extra = asize / (MAXARG_C + 1);
    int rc = asize % (MAXARG_C + 1);
    inst[0] = CREATE_ABCk(OP_NEWTABLE, ra, rb, rc, extra > 0);
    inst[1] = CREATE_Ax(OP_EXTRAARG, extra);
}

/* Store [tostore] values (LUA_MULTRET: up to the top) from the registers
 * after [base] into the table at [base], after its [nelems] first items. */
void code_setlist(FuncState *fs, int base, int nelems, int tostore)
{
    lua_assert(tostore != 0 && tostore <= LFIELDS_PER_FLUSH);
    if (tostore == LUA_MULTRET) tostore = 0;
    if (nelems <= MAXARG_C) {
        code_ABC(fs, OP_SETLIST, base, tostore, nelems);
    } else {
        int extra = nelems / (MAXARG_C + 1);
        code_ABCk(fs, OP_SETLIST, base, tostore, nelems % (MAXARG_C + 1), 1);
        code_extraarg(fs, extra);
    }
    fs->freereg = (uint8_t)(base + 1);
}

/* =========================================================================
 * The final pass
 */

/* Where a chain of jumps to jumps finally leads (bounded, in case of a
 * loop made only of jumps). */
static int final_target(const Instruction *code, int i)
{
    for (int count = 0; count < 100; count++) {
        Instruction pc = code[i];
        if (GET_OPCODE(pc) != OP_JMP) break;
        i += GETARG_sJ(pc) + 1;
    }
    return i;
}

/* Returns learn whether they must close upvalues (k) and, in vararg
 * functions, where the frame really starts (C = numparams + 1), which is
 * known only now; RETURN0/RETURN1 cannot say either and become RETURN.
 * Jumps to jumps go straight to the end of the chain. */
void code_finish(FuncState *fs)
{
    Proto *p = fs->f;
    for (int i = 0; i < fs->pc; i++) {
        Instruction *pc = &p->code[i];
        switch (GET_OPCODE(*pc)) {
        case OP_RETURN0: case OP_RETURN1:
            if (!(fs->needclose || p->is_vararg)) break;
            SET_OPCODE(*pc, OP_RETURN);
            /* fallthrough */
        case OP_RETURN: case OP_TAILCALL:
            if (fs->needclose) SETARG_k(*pc, 1);
            if (p->is_vararg) SETARG_C(*pc, p->numparams + 1);
            break;
        case OP_JMP:
            set_jump(fs, i, final_target(p->code, i));
            break;
        default:
            break;
        }
    }
}
