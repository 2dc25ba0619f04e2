/*
 * undump.c — load a binary chunk written by dump.c (format in dump.h).
 *
 * A binary chunk is untrusted input: any byte may be wrong. The loader
 * therefore
 *  - never trusts a count: arrays grow as their elements actually arrive
 *    (a huge count in a short chunk fails as "truncated chunk" after
 *    reading what is there), and every count has a sane limit;
 *  - checks each function's code before the VM can run it (verify_code):
 *    register, constant, upvalue and prototype indices in range, jump
 *    targets inside the code, the instruction pairs the VM relies on
 *    (a test and its jump, an arithmetic instruction and its MMBIN, LOADKX
 *    and its EXTRAARG, an open call and the instruction that consumes the
 *    values it leaves) in place, and the code ending in a return;
 * so that a corrupted chunk is rejected with an error and cannot make the
 * VM read or write out of bounds.
 *
 * Collector rules: the closure is pushed first and every prototype is
 * stored in its parent (or the closure) as soon as it exists, so the whole
 * tree is reachable from the stack. Array fields are updated so that at
 * every allocation their size fields match their allocations and every
 * slot counted by a size holds nil/NULL or a valid object.
 */
#include <string.h>

#include "compiler.h"
#include "calls.h"
#include "conv.h"
#include "dump.h"
#include "funcs.h"
#include "metamethods.h"
#include "opcodes.h"
#include "strings.h"
#include "../gc/gc.h"

/* Limits on counts (beyond what the instruction fields can address they
 * would be useless anyway). */
#define MAXCODE (1 << 26)
#define MAXCONSTANTS (MAXARG_Ax + 1)
#define MAXPROTOS (MAXARG_Bx + 1)
#define MAXUPVALUES 255
#define MAXLOCVARS (1 << 24)
#define MAXNESTING 200
#define MAXSTRINGLEN ((size_t)1 << 40)
/* Long strings above this size are read in growing steps. */
#define STRING_STEP ((size_t)1 << 20)

/* Arrays start with room for this many elements and double. */
#define FIRST_CAPACITY 64

typedef struct LoadState {
    lua_State *L;
    Reader *z;
    const char *name; /* chunk name for messages */
    int nesting;
} LoadState;

static _Noreturn void load_error(LoadState *S, const char *why)
{
    conv_pushfstring(S->L, "%s: bad binary format (%s)", S->name, why);
    call_throw(S->L, LUA_ERRSYNTAX);
}

/* --- primitives ---------------------------------------------------------- */

static void load_block(LoadState *S, void *b, size_t size)
{
    if (size > 0 && reader_read(S->z, b, size) != 0) load_error(S, "truncated chunk");
}

static int load_byte(LoadState *S)
{
    int c = reader_getc(S->z);
    if (c == READER_EOZ) load_error(S, "truncated chunk");
    return c;
}

static uint64_t load_varint(LoadState *S, uint64_t limit)
{
    uint64_t x = 0;
    for (int shift = 0;; shift += 7) {
        int b = load_byte(S);
        if (shift == 63 && (b & 0x7E) != 0) load_error(S, "integer overflow");
        x |= (uint64_t)(b & 0x7F) << shift;
        if ((b & 0x80) == 0) break;
        if (shift == 63) load_error(S, "integer overflow");
    }
    if (x > limit) load_error(S, "integer overflow");
    return x;
}

static int load_count(LoadState *S, int limit)
{
    return (int)load_varint(S, (uint64_t)limit);
}

static int load_int(LoadState *S)
{
    return (int)load_varint(S, INT32_MAX);
}

/* A string, or NULL for "no string". */
static TString *load_string(LoadState *S)
{
    lua_State *L = S->L;
    size_t size = (size_t)load_varint(S, MAXSTRINGLEN);
    if (size == 0) return NULL;
    size_t len = size - 1;
    if (len <= TIDE_MAXSHORTLEN) {
        char buff[TIDE_MAXSHORTLEN];
        load_block(S, buff, len);
        return str_new(L, buff, len);
    }
    /* A long string is filled in place. Until it is stored in the prototype
     * only this frame refers to it (conservatively pinned). A length that
     * the chunk may not back is not trusted with one allocation: past
     * STRING_STEP the string grows (into new strings; the old ones are
     * garbage) as its bytes arrive. */
    size_t have = len <= STRING_STEP ? len : STRING_STEP;
    TString *ts = str_createlong(L, have);
    load_block(S, getstr(ts), have);
    while (have < len) {
        size_t next = have <= len / 2 ? have * 2 : len;
        TString *bigger = str_createlong(L, next);
        memcpy(getstr(bigger), getstr(ts), have);
        ts = bigger;
        load_block(S, getstr(ts) + have, next - have);
        have = next;
    }
    return ts;
}

/* The next capacity of an array that must reach [n] elements. */
static int next_capacity(int cap, int n)
{
    int next = cap == 0 ? FIRST_CAPACITY : (cap <= n / 2 ? cap * 2 : n);
    return next < n ? next : n;
}

static void *grow_block(lua_State *L, void *block, int oldcap, int newcap, size_t elemsize)
{
    if (block == NULL) return gc_raw_alloc(L, (size_t)newcap * elemsize);
    return gc_raw_realloc(L, block, (size_t)oldcap * elemsize, (size_t)newcap * elemsize);
}

/* --- the parts of a function ----------------------------------------------- */

static void load_code(LoadState *S, Proto *f)
{
    int n = load_count(S, MAXCODE);
    while (f->sizecode < n) {
        int cap = f->sizecode;
        int newcap = next_capacity(cap, n);
        f->code = grow_block(S->L, f->code, cap, newcap, sizeof(Instruction));
        f->sizecode = newcap;
        load_block(S, f->code + cap, (size_t)(newcap - cap) * sizeof(Instruction));
    }
}

static void load_constant(LoadState *S, Proto *f, int i)
{
    TValue *o = &f->k[i];
    int tag = load_byte(S);
    switch (tag) {
    case CHUNK_KNIL: setnilvalue(o); break;
    case CHUNK_KFALSE: setfalse(o); break;
    case CHUNK_KTRUE: settrue(o); break;
    case CHUNK_KINT: {
        lua_Integer x;
        load_block(S, &x, sizeof x);
        setivalue(o, x);
        break;
    }
    case CHUNK_KFLT: {
        lua_Number x;
        load_block(S, &x, sizeof x);
        setfltvalue(o, x);
        break;
    }
    case CHUNK_KSHRSTR:
    case CHUNK_KLNGSTR: {
        TString *ts = load_string(S);
        if (ts == NULL || isshortstr(ts) != (tag == CHUNK_KSHRSTR)) load_error(S, "corrupted chunk");
        o = &f->k[i]; /* (load_string may have collected; f->k itself does not move) */
        setsvalue(S->L, o, ts);
        gc_objbarrier(S->L, f, ts);
        break;
    }
    default: load_error(S, "corrupted chunk");
    }
}

static void load_constants(LoadState *S, Proto *f)
{
    int n = load_count(S, MAXCONSTANTS);
    for (int i = 0; i < n; i++) {
        if (i == f->sizek) {
            int cap = f->sizek;
            int newcap = next_capacity(cap, n);
            TValue *k = grow_block(S->L, f->k, cap, newcap, sizeof(TValue));
            for (int j = cap; j < newcap; j++) setnilvalue(&k[j]);
            f->k = k;
            f->sizek = newcap;
        }
        load_constant(S, f, i);
    }
}

static void load_upvalues(LoadState *S, Proto *f)
{
    int n = load_count(S, MAXUPVALUES);
    if (n == 0) return;
    Upvaldesc *up = gc_raw_newvector(S->L, n, Upvaldesc);
    for (int i = 0; i < n; i++) {
        up[i].name = NULL;
        up[i].instack = up[i].idx = up[i].kind = 0;
    }
    f->upvalues = up;
    f->sizeupvalues = n;
    for (int i = 0; i < n; i++) {
        up[i].instack = (uint8_t)load_byte(S);
        up[i].idx = (uint8_t)load_byte(S);
        up[i].kind = (uint8_t)load_byte(S);
        if (up[i].instack > 1 || up[i].kind > RDKCTC) load_error(S, "corrupted chunk");
    }
}

static void load_function(LoadState *S, Proto *f, TString *parent_source);

static void load_protos(LoadState *S, Proto *f)
{
    int n = load_count(S, MAXPROTOS);
    for (int i = 0; i < n; i++) {
        if (i == f->sizep) {
            int cap = f->sizep;
            int newcap = next_capacity(cap, n);
            Proto **p = grow_block(S->L, f->p, cap, newcap, sizeof(Proto *));
            for (int j = cap; j < newcap; j++) p[j] = NULL;
            f->p = p;
            f->sizep = newcap;
        }
        Proto *child = func_newproto(S->L);
        f->p[i] = child;
        gc_objbarrier(S->L, f, child);
        load_function(S, child, f->source);
    }
}

static void load_lineinfo(LoadState *S, Proto *f)
{
    int n = load_count(S, MAXCODE);
    if (n == 0) return;
    if (n != f->sizecode) load_error(S, "corrupted chunk");
    int *lines = gc_raw_newvector(S->L, n, int);
    memset(lines, 0, (size_t)n * sizeof(int));
    f->lineinfo = lines;
    int64_t line = 0;
    for (int i = 0; i < n; i++) {
        uint64_t z = load_varint(S, UINT64_MAX);
        int64_t delta = (int64_t)(z >> 1) ^ -(int64_t)(z & 1); /* un-zigzag */
        if (delta > (int64_t)INT32_MAX * 2 || delta < -(int64_t)INT32_MAX * 2) load_error(S, "corrupted chunk");
        line += delta;
        if (line > INT32_MAX || line < INT32_MIN) load_error(S, "corrupted chunk");
        lines[i] = (int)line;
    }
}

static void load_locvars(LoadState *S, Proto *f)
{
    int n = load_count(S, MAXLOCVARS);
    for (int i = 0; i < n; i++) {
        if (i == f->sizelocvars) {
            int cap = f->sizelocvars;
            int newcap = next_capacity(cap, n);
            LocVar *lv = grow_block(S->L, f->locvars, cap, newcap, sizeof(LocVar));
            for (int j = cap; j < newcap; j++) {
                lv[j].varname = NULL;
                lv[j].startpc = lv[j].endpc = 0;
            }
            f->locvars = lv;
            f->sizelocvars = newcap;
        }
        TString *name = load_string(S);
        f->locvars[i].varname = name;
        if (name != NULL) gc_objbarrier(S->L, f, name);
        f->locvars[i].startpc = load_int(S);
        f->locvars[i].endpc = load_int(S);
    }
}

static void load_upvalue_names(LoadState *S, Proto *f)
{
    int n = load_count(S, MAXUPVALUES);
    if (n == 0) return;
    if (n != f->sizeupvalues) load_error(S, "corrupted chunk");
    for (int i = 0; i < n; i++) {
        TString *name = load_string(S);
        f->upvalues[i].name = name;
        if (name != NULL) gc_objbarrier(S->L, f, name);
    }
}

/* --- code verification --------------------------------------------------------- */

static int is_arith_op(OpCode op)
{
    return op >= OP_ADDI && op <= OP_SHR;
}

static int is_mmbin_op(OpCode op)
{
    return op == OP_MMBIN || op == OP_MMBINI || op == OP_MMBINK;
}

/* The checks shared by every instruction that transfers control to [target]. */
static int valid_target(const Proto *f, int target)
{
    if (target < 0 || target >= f->sizecode) return 0;
    Instruction i = f->code[target];
    /* never into an instruction that needs the previous one */
    return !isIT(i) && GET_OPCODE(i) != OP_EXTRAARG && !is_mmbin_op(GET_OPCODE(i));
}

/* Is instruction [pc] valid in [f]? The register bounds follow the
 * operands each instruction reads or writes (opcodes.h). */
static int valid_instruction(const Proto *f, int pc)
{
    const Instruction i = f->code[pc];
    const OpCode op = GET_OPCODE(i);
    const int a = GETARG_A(i), b = GETARG_B(i), c = GETARG_C(i);
    const int nregs = f->maxstacksize;
    const int last = f->sizecode - 1;
    const Instruction next = pc < last ? f->code[pc + 1] : 0;
    const Instruction prev = pc > 0 ? f->code[pc - 1] : 0;
#define REG(x) ((x) < nregs)
#define REGS(first, n) ((first) + (n) <= nregs) /* n registers from first */
#define KIDX(x) ((x) < f->sizek)
#define KSTR(x) (KIDX(x) && ttisshrstring(&f->k[x]))
#define UPV(x) ((x) < f->sizeupvalues)
#define RKC (TESTARG_k(i) ? KIDX(c) : REG(c))
#define NEXT_IS(o) (pc < last && GET_OPCODE(next) == (o))
#define OPEN_BEFORE (pc > 0 && isOT(prev)) /* the top was left by the previous instruction */
#define RETURN_C_OK (f->is_vararg ? c == f->numparams + 1 : c == 0)
#define EVENT_OK (c >= TM_ADD && c <= TM_SHR)
    switch (op) {
    case OP_MOVE: return REG(a) && REG(b);
    case OP_LOADI: case OP_LOADF: case OP_LOADFALSE: case OP_LOADTRUE: return REG(a);
    case OP_LOADK: return REG(a) && KIDX(GETARG_Bx(i));
    case OP_LOADKX: return REG(a) && NEXT_IS(OP_EXTRAARG) && KIDX(GETARG_Ax(next));
    case OP_LFALSESKIP: return REG(a) && pc + 2 <= last;
    case OP_LOADNIL: return REGS(a, b + 1);
    case OP_GETUPVAL: case OP_SETUPVAL: return REG(a) && UPV(b);
    case OP_GETTABUP: return REG(a) && UPV(b) && KSTR(c);
    case OP_GETTABLE: return REG(a) && REG(b) && REG(c);
    case OP_GETI: return REG(a) && REG(b);
    case OP_GETFIELD: return REG(a) && REG(b) && KSTR(c);
    case OP_SETTABUP: return UPV(a) && KSTR(b) && RKC;
    case OP_SETTABLE: return REG(a) && REG(b) && RKC;
    case OP_SETI: return REG(a) && RKC;
    case OP_SETFIELD: return REG(a) && KSTR(b) && RKC;
    case OP_NEWTABLE: return REG(a) && NEXT_IS(OP_EXTRAARG);
    case OP_SELF: /* the key is a string: a constant, or loaded just before (valid_flow) */
        return REGS(a, 2) && REG(b) && (TESTARG_k(i) ? KIDX(c) && ttisstring(&f->k[c]) : REG(c));
    case OP_ADDI: case OP_SHRI: case OP_SHLI:
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_MOD: case OP_POW: case OP_DIV: case OP_IDIV:
    case OP_BAND: case OP_BOR: case OP_BXOR: case OP_SHL: case OP_SHR:
        /* on success the VM skips the MMBIN* that follows */
        if (!(REG(a) && REG(b) && pc < last && is_mmbin_op(GET_OPCODE(next)))) return 0;
        return op < OP_ADD || REG(c);
    case OP_ADDK: case OP_SUBK: case OP_MULK: case OP_MODK: case OP_POWK: case OP_DIVK: case OP_IDIVK:
        return REG(a) && REG(b) && KIDX(c) && ttisnumber(&f->k[c]) && pc < last &&
               is_mmbin_op(GET_OPCODE(next));
    case OP_BANDK: case OP_BORK: case OP_BXORK:
        return REG(a) && REG(b) && KIDX(c) && ttisinteger(&f->k[c]) && pc < last &&
               is_mmbin_op(GET_OPCODE(next));
    case OP_MMBIN: return REG(a) && REG(b) && EVENT_OK && pc > 0 && is_arith_op(GET_OPCODE(prev));
    case OP_MMBINI: return REG(a) && EVENT_OK && pc > 0 && is_arith_op(GET_OPCODE(prev));
    case OP_MMBINK: return REG(a) && KIDX(b) && EVENT_OK && pc > 0 && is_arith_op(GET_OPCODE(prev));
    case OP_UNM: case OP_BNOT: case OP_NOT: case OP_LEN: return REG(a) && REG(b);
    case OP_CONCAT: return b >= 1 && REGS(a, b);
    case OP_CLOSE: case OP_TBC: return REG(a);
    case OP_JMP: return valid_target(f, pc + 1 + GETARG_sJ(i));
    case OP_EQ: case OP_LT: case OP_LE: return REG(a) && REG(b) && NEXT_IS(OP_JMP);
    case OP_EQK: return REG(a) && KIDX(b) && NEXT_IS(OP_JMP);
    case OP_EQI: case OP_LTI: case OP_LEI: case OP_GTI: case OP_GEI: case OP_TEST:
        return REG(a) && NEXT_IS(OP_JMP);
    case OP_TESTSET: return REG(a) && REG(b) && NEXT_IS(OP_JMP);
    case OP_CALL:
        return REG(a) && (b > 0 ? REGS(a, b) : OPEN_BEFORE) && (c > 0 ? REGS(a, c - 1) : 1);
    case OP_TAILCALL: return REG(a) && (b > 0 ? REGS(a, b) : OPEN_BEFORE) && RETURN_C_OK;
    case OP_RETURN:
        return a <= nregs && (b > 0 ? REGS(a, b - 1) : OPEN_BEFORE) && RETURN_C_OK;
    case OP_RETURN0: return a <= nregs;
    case OP_RETURN1: return REG(a);
    case OP_FORLOOP: return REGS(a, 4) && valid_target(f, pc + 1 - GETARG_Bx(i));
    case OP_FORPREP: return REGS(a, 4) && valid_target(f, pc + 1 + GETARG_Bx(i) + 1);
    case OP_TFORPREP: { /* the VM runs the TFORCALL it jumps to, then its TFORLOOP */
        int target = pc + 1 + GETARG_Bx(i);
        return REGS(a, 4) && valid_target(f, target) && GET_OPCODE(f->code[target]) == OP_TFORCALL &&
               GETARG_A(f->code[target]) == a;
    }
    case OP_TFORCALL:
        /* results in R[A+4].., the call itself uses R[A+4..A+6] (the frame's
         * extra slots cover a generator that reserved less); the VM goes on
         * with the TFORLOOP that follows without decoding it */
        return REGS(a, 4 + c) && a + 7 <= nregs + EXTRA_STACK && NEXT_IS(OP_TFORLOOP) &&
               GETARG_A(next) == a;
    case OP_TFORLOOP: return REGS(a, 5) && valid_target(f, pc + 1 - GETARG_Bx(i));
    case OP_SETLIST:
        return REG(a) && (b > 0 ? REGS(a, b + 1) : OPEN_BEFORE) &&
               (!TESTARG_k(i) || NEXT_IS(OP_EXTRAARG));
    case OP_CLOSURE: return REG(a) && GETARG_Bx(i) < f->sizep;
    case OP_VARARG: return f->is_vararg && REG(a) && (c > 0 ? REGS(a, c - 1) : 1);
    case OP_VARARGPREP: return pc == 0 && f->is_vararg && a == f->numparams;
    case OP_EXTRAARG: {
        OpCode p = GET_OPCODE(prev);
        return pc > 0 && (p == OP_LOADKX || p == OP_NEWTABLE || (p == OP_SETLIST && TESTARG_k(prev)));
    }
    default: return 0;
    }
#undef REG
#undef REGS
#undef KIDX
#undef KSTR
#undef UPV
#undef RKC
#undef NEXT_IS
#undef OPEN_BEFORE
#undef RETURN_C_OK
#undef EVENT_OK
}

/* Nested functions capture registers or upvalues of [f] that exist. */
static int valid_children(const Proto *f)
{
    for (int i = 0; i < f->sizep; i++) {
        const Proto *child = f->p[i];
        for (int j = 0; j < child->sizeupvalues; j++) {
            const Upvaldesc *up = &child->upvalues[j];
            if (up->instack ? up->idx >= f->maxstacksize : up->idx >= f->sizeupvalues) return 0;
        }
    }
    return 1;
}

/* The target of the jump at [pc], or -1 when it is no jump. (Targets were
 * checked by valid_instruction.) */
static int jump_target(const Proto *f, int pc)
{
    Instruction i = f->code[pc];
    switch (GET_OPCODE(i)) {
    case OP_JMP: return pc + 1 + GETARG_sJ(i);
    case OP_FORLOOP: case OP_TFORLOOP: return pc + 1 - GETARG_Bx(i);
    case OP_FORPREP: return pc + 2 + GETARG_Bx(i);
    case OP_TFORPREP: return pc + 1 + GETARG_Bx(i);
    default: return -1;
    }
}

/* Can R[reg] change between instructions [from] and [to] (exclusive)? In
 * code from a Lua compiler, an expression in progress only writes
 * registers above the ones it holds; anything else is refused. */
static int may_write_between(const Proto *f, int from, int to, int reg)
{
    for (int pc = from + 1; pc < to; pc++) {
        Instruction i = f->code[pc];
        OpCode op = GET_OPCODE(i);
        if (testAMode(op) && GETARG_A(i) <= reg) return 1;
        if (op == OP_FORPREP || op == OP_FORLOOP || op == OP_TFORPREP || op == OP_TFORCALL ||
            op == OP_TFORLOOP || op == OP_VARARGPREP)
            return 1;
    }
    return 0;
}

/* No jump from outside [first, last) lands in (first, last]: control reaches
 * [last] only through [first]. */
static int entered_only_through(const int *lo, const int *hi, int first, int last)
{
    for (int t = first + 1; t <= last; t++) {
        if (hi[t] >= 0 && (lo[t] < first || hi[t] >= last)) return 0;
    }
    return 1;
}

/* The register operand of SETLIST is the table its constructor's NEWTABLE
 * made, and a register key of SELF is the string loaded just before it: the
 * VM relies on both without checking types. A SETLIST is checked from the
 * previous SETLIST on the same register when there is one since the
 * NEWTABLE (that one was proven already), so a long constructor costs
 * linear time. */
static int valid_dataflow(const Proto *f, const int *lo, const int *hi)
{
    int table_known_at[MAXARG_A + 1]; /* last NEWTABLE/SETLIST of each register */
    for (int r = 0; r <= MAXARG_A; r++) table_known_at[r] = -1;
    for (int pc = 0; pc < f->sizecode; pc++) {
        Instruction i = f->code[pc];
        OpCode op = GET_OPCODE(i);
        if (op == OP_NEWTABLE) {
            table_known_at[GETARG_A(i)] = pc;
        } else if (op == OP_SETLIST) {
            int a = GETARG_A(i), start = table_known_at[a];
            if (start < 0 || may_write_between(f, start, pc, a) || !entered_only_through(lo, hi, start, pc))
                return 0;
            table_known_at[a] = pc;
        } else if (op == OP_SELF && !TESTARG_k(i)) {
            int c = GETARG_C(i);
            int load = pc - 1;
            if (load >= 0 && GET_OPCODE(f->code[load]) == OP_EXTRAARG) load--; /* LOADKX */
            if (load < 0 || hi[pc] >= 0) return 0;
            Instruction li = f->code[load];
            int k = GET_OPCODE(li) == OP_LOADK ? GETARG_Bx(li)
                  : GET_OPCODE(li) == OP_LOADKX ? GETARG_Ax(f->code[load + 1]) : -1;
            if (k < 0 || GETARG_A(li) != c || !ttisstring(&f->k[k])) return 0;
        }
    }
    return 1;
}

/* Checks that need the jumps into each instruction: lo[t]/hi[t] are the
 * first/last instruction jumping to t (hi[t] < 0: none). */
static int valid_flow(lua_State *L, const Proto *f)
{
    int n = f->sizecode;
    int *lo = gc_raw_newvector(L, 2 * (size_t)n, int);
    int *hi = lo + n;
    for (int t = 0; t < n; t++) {
        lo[t] = n;
        hi[t] = -1;
    }
    for (int pc = 0; pc < n; pc++) {
        int t = jump_target(f, pc);
        if (t < 0) continue;
        if (pc < lo[t]) lo[t] = pc;
        if (pc > hi[t]) hi[t] = pc;
    }
    int ok = valid_dataflow(f, lo, hi);
    gc_raw_freevector(L, lo, 2 * (size_t)n, int);
    return ok;
}

static void verify_code(LoadState *S, const Proto *f)
{
    int ok = f->sizecode > 0 && f->is_vararg <= 1 && f->numparams <= f->maxstacksize;
    if (ok) {
        OpCode final = GET_OPCODE(f->code[f->sizecode - 1]);
        ok = final == OP_RETURN || final == OP_RETURN0 || final == OP_RETURN1;
    }
    /* every opcode first: the other checks look at neighbours and targets */
    for (int pc = 0; ok && pc < f->sizecode; pc++) ok = GET_OPCODE(f->code[pc]) < NUM_OPCODES;
    /* a vararg function starts by adjusting its arguments */
    if (ok && f->is_vararg) ok = GET_OPCODE(f->code[0]) == OP_VARARGPREP;
    for (int pc = 0; ok && pc < f->sizecode; pc++) ok = valid_instruction(f, pc);
    if (ok) ok = valid_children(f);
    if (ok) ok = valid_flow(S->L, f);
    if (!ok) load_error(S, "invalid code");
}

/* --- functions and the header ------------------------------------------------------ */

static void load_function(LoadState *S, Proto *f, TString *parent_source)
{
    lua_State *L = S->L;
    if (++S->nesting > MAXNESTING) load_error(S, "too many nested functions");
    TString *source = load_string(S);
    f->source = source != NULL ? source : parent_source;
    if (f->source != NULL) gc_objbarrier(L, f, f->source);
    f->linedefined = load_int(S);
    f->lastlinedefined = load_int(S);
    f->numparams = (uint8_t)load_byte(S);
    f->is_vararg = (uint8_t)load_byte(S);
    f->maxstacksize = (uint8_t)load_byte(S);
    load_code(S, f);
    load_constants(S, f);
    load_upvalues(S, f);
    load_protos(S, f);
    load_lineinfo(S, f);
    load_locvars(S, f);
    load_upvalue_names(S, f);
    verify_code(S, f);
    S->nesting--;
}

static void check_literal(LoadState *S, const char *expected, size_t len, const char *why)
{
    char buff[16];
    lua_assert(len <= sizeof buff);
    load_block(S, buff, len);
    if (memcmp(buff, expected, len) != 0) load_error(S, why);
}

static void check_size(LoadState *S, size_t size, const char *what)
{
    if ((size_t)load_byte(S) != size) {
        conv_pushfstring(S->L, "%s: bad binary format (%s size mismatch)", S->name, what);
        call_throw(S->L, LUA_ERRSYNTAX);
    }
}

static void check_header(LoadState *S)
{
    /* the signature's first byte was read by the caller */
    check_literal(S, &TIDE_SIGNATURE[1], sizeof(TIDE_SIGNATURE) - 2, "not a binary chunk");
    if (load_byte(S) != CHUNK_VERSION) load_error(S, "version mismatch");
    if (load_byte(S) != CHUNK_FORMAT) load_error(S, "format mismatch");
    check_literal(S, CHUNK_CHECKDATA, CHUNK_CHECKDATA_LEN, "corrupted chunk");
    check_size(S, sizeof(Instruction), "Instruction");
    check_size(S, sizeof(lua_Integer), "lua_Integer");
    check_size(S, sizeof(lua_Number), "lua_Number");
    lua_Integer testint;
    lua_Number testflt;
    load_block(S, &testint, sizeof testint);
    if (testint != CHUNK_TESTINT) load_error(S, "integer format mismatch");
    load_block(S, &testflt, sizeof testflt);
    if (testflt != CHUNK_TESTFLT) load_error(S, "float format mismatch");
}

LClosure *undump_chunk(lua_State *L, Reader *z, const char *chunkname)
{
    LoadState S;
    if (*chunkname == '@' || *chunkname == '=') S.name = chunkname + 1;
    else if (*chunkname == TIDE_SIGNATURE[0]) S.name = "binary string";
    else S.name = chunkname;
    S.L = L;
    S.z = z;
    S.nesting = 0;
    check_header(&S);
    int nupvalues = load_byte(&S);
    LClosure *cl = func_newLclosure(L, nupvalues);
    setclLvalue(L, s2v(L->top), cl);
    call_inctop(L);
    Proto *f = func_newproto(L);
    cl->p = f;
    gc_objbarrier(L, cl, f);
    load_function(&S, f, NULL);
    if (nupvalues != f->sizeupvalues) load_error(&S, "corrupted chunk");
    func_initupvals(L, cl);
    return cl;
}
