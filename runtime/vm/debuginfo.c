/*
 * debuginfo.c — the debug interface of lua.h (stack levels, lua_getinfo,
 * locals, hooks), the line and count hooks the interpreter calls, and the
 * runtime errors with their "source:line:" prefix and variable names.
 *
 * Names of values ("global 'x'", "local 't'", "method 'm'") are recovered
 * from the bytecode alone: starting from the instruction that failed (or
 * that made a call), find the last instruction before it that wrote the
 * register involved, and name what that instruction read. This is a
 * symbolic execution that trusts only straight-line code: a write that a
 * jump into the examined range may have skipped does not count.
 *
 * Strings this file hands out (source, names) point into string objects
 * that the described function keeps alive; a lua_Debug lives on the C
 * stack, where the collector's conservative scan pins what it points into.
 */
#include <string.h>

#include "debuginfo.h"
#include "api.h"
#include "calls.h"
#include "conv.h"
#include "funcs.h"
#include "metamethods.h"
#include "opcodes.h"
#include "strings.h"
#include "tables.h"
#include "../gc/gc.h"

/* The name of the environment upvalue the compiler gives every chunk. */
#define ENV_NAME "_ENV"

/* The instruction the frame of [ci] (a Lua function) is running. */
static int currentpc(CallInfo *ci)
{
    lua_assert(isLua(ci));
    return pcRel(ci->u.l.savedpc, ci_func(ci)->p);
}

/* ==========================================================================
 * Lines
 */

int dbg_getfuncline(const Proto *f, int pc)
{
    if (f->lineinfo == NULL || pc < 0 || pc >= f->sizecode) return -1;
    return f->lineinfo[pc];
}

int dbg_currentline(CallInfo *ci)
{
    int pc = currentpc(ci);
    /* a frame set up but not started yet is at its first instruction */
    return dbg_getfuncline(ci_func(ci)->p, pc < 0 ? 0 : pc);
}

/* Do instructions [oldpc] and [newpc] belong to different lines? */
static int line_changed(const Proto *p, int oldpc, int newpc)
{
    if (p->lineinfo == NULL) return 0; /* stripped: no lines at all */
    return p->lineinfo[oldpc] != p->lineinfo[newpc];
}

/* ==========================================================================
 * Hooks
 */

LUA_API void lua_sethook(lua_State *L, lua_Hook func, int mask, int count)
{
    thread_touch(L);
    if (func == NULL || mask == 0) { /* either means "no hook" */
        mask = 0;
        func = NULL;
    }
    L->hook = func;
    L->basehookcount = count;
    L->hookcount = count;
    L->hookmask = mask;
    /* Running Lua frames look at hooks only when their trap is set. */
    if (mask != 0)
        for (CallInfo *ci = L->ci; ci != NULL; ci = ci->previous)
            if (isLua(ci)) ci->u.l.trap = 1;
}

LUA_API lua_Hook lua_gethook(lua_State *L)
{
    thread_touch(L);
    return L->hook;
}

LUA_API int lua_gethookmask(lua_State *L)
{
    thread_touch(L);
    return L->hookmask;
}

LUA_API int lua_gethookcount(lua_State *L)
{
    thread_touch(L);
    return L->basehookcount;
}

/*
 * Called by the interpreter before the instruction at [pc] while line or
 * count hooks are on. The count hook fires every basehookcount
 * instructions; the line hook when the instruction starts a new line or
 * the code jumped backwards (a loop re-entering the same line). A hook may
 * yield (lua_yield(L, 0)): the instruction is then run after the resume,
 * without calling the hook for it a second time (CIST_HOOKYIELD).
 */
int dbg_traceexec(lua_State *L, const Instruction *pc)
{
    CallInfo *ci = L->ci;
    int mask = L->hookmask;
    const Proto *p = ci_func(ci)->p;
    if (!(mask & (LUA_MASKLINE | LUA_MASKCOUNT))) {
        ci->u.l.trap = 0; /* hooks went off: stop checking */
        return 0;
    }
    pc++; /* hooks see the frame as if the instruction had started */
    ci->u.l.savedpc = pc;
    int counthook = (mask & LUA_MASKCOUNT) && --L->hookcount == 0;
    if (counthook)
        L->hookcount = L->basehookcount;
    else if (!(mask & LUA_MASKLINE))
        return 1; /* counting, not yet due */
    if (ci->callstatus & CIST_HOOKYIELD) { /* the hook ran before the yield */
        ci->callstatus &= (unsigned short)~CIST_HOOKYIELD;
        return 1;
    }
    if (!isIT(*(ci->u.l.savedpc - 1))) L->top = ci->top; /* top is not in use */
    if (counthook) call_hook(L, LUA_HOOKCOUNT, -1, 0, 0);
    if (mask & LUA_MASKLINE) {
        int oldpc = (L->oldpc >= 0 && L->oldpc < p->sizecode) ? L->oldpc : 0;
        int npci = pcRel(pc, p);
        if (npci <= oldpc || line_changed(p, oldpc, npci))
            call_hook(L, LUA_HOOKLINE, dbg_getfuncline(p, npci), 0, 0);
        L->oldpc = npci;
    }
    if (L->status == LUA_YIELD) { /* the hook called lua_yield */
        if (counthook) L->hookcount = 1; /* fire again right after the resume */
        ci->u.l.savedpc--;                /* the resume re-fetches this instruction */
        ci->callstatus |= CIST_HOOKYIELD;
        call_throw(L, LUA_YIELD);
    }
    return 1;
}

/* ==========================================================================
 * Stack levels and locals
 */

LUA_API int lua_getstack(lua_State *L, int level, lua_Debug *ar)
{
    if (level < 0) return 0;
    CallInfo *ci = L->ci;
    for (; level > 0 && ci != &L->base_ci; ci = ci->previous) level--;
    if (level != 0 || ci == &L->base_ci) return 0;
    ar->i_ci = ci;
    return 1;
}

/* Extra argument -[n] (n negative) of the vararg Lua function of [ci];
 * the extra arguments lie below its function slot. */
static const char *find_vararg(CallInfo *ci, int n, StkId *pos)
{
    if (ci_func(ci)->p->is_vararg) {
        int nextra = ci->u.l.nextraargs;
        if (n >= -nextra) {
            *pos = ci->func - nextra - (n + 1);
            return "(vararg)";
        }
    }
    return NULL;
}

/* Local [n] of the frame of [ci]: its name and its slot. Slots without a
 * declared name (temporaries, a C function's values) get a generic one. */
static const char *find_local(lua_State *L, CallInfo *ci, int n, StkId *pos)
{
    StkId base = ci->func + 1;
    const char *name = NULL;
    if (isLua(ci)) {
        if (n < 0) return find_vararg(ci, n, pos);
        name = func_getlocalname(ci_func(ci)->p, n, currentpc(ci));
    }
    if (name == NULL) {
        /* the frame's slots end where the next frame starts */
        StkId limit = ci == L->ci ? L->top : ci->next->func;
        if (n <= 0 || limit - base < n) return NULL;
        name = isLua(ci) ? "(temporary)" : "(C temporary)";
    }
    *pos = base + (n - 1);
    return name;
}

LUA_API const char *lua_getlocal(lua_State *L, const lua_Debug *ar, int n)
{
    thread_touch(L);
    if (ar == NULL) { /* the parameters of the Lua function on the top */
        const TValue *f = s2v(L->top - 1);
        if (!ttisLclosure(f)) return NULL;
        return func_getlocalname(clLvalue(f)->p, n, 0);
    }
    StkId pos = NULL;
    const char *name = find_local(L, ar->i_ci, n, &pos);
    if (name != NULL) {
        setobjs2s(L, L->top, pos);
        api_incr_top(L);
    }
    return name;
}

LUA_API const char *lua_setlocal(lua_State *L, const lua_Debug *ar, int n)
{
    thread_touch(L);
    StkId pos = NULL;
    const char *name = find_local(L, ar->i_ci, n, &pos);
    if (name != NULL) {
        gc_stack_return_(L, ar->i_ci); /* a frame below the running one, maybe its varargs */
        setobjs2s(L, pos, L->top - 1);
        L->top--;
    }
    return name;
}

/* ==========================================================================
 * Names from the bytecode
 */

static const char *register_name(const Proto *p, int lastpc, int reg, const char **name);

static const char *upvalue_name(const Proto *p, int uv)
{
    if (uv < 0 || uv >= p->sizeupvalues) return "?";
    TString *s = p->upvalues[uv].name;
    return s == NULL ? "?" : getstr(s);
}

/* The pc of the last instruction before [lastpc] that certainly wrote
 * register [reg], or -1. */
static int find_setreg(const Proto *p, int lastpc, int reg)
{
    int setreg = -1;
    int jmptarget = 0; /* code before this pc may have been jumped over */
    /* A metamethod instruction runs in place of the operation before it,
     * which therefore did not write its register. */
    if (testMMMode(GET_OPCODE(p->code[lastpc]))) lastpc--;
    for (int pc = 0; pc < lastpc; pc++) {
        Instruction i = p->code[pc];
        OpCode op = GET_OPCODE(i);
        int a = GETARG_A(i);
        int writes;
        switch (op) {
        case OP_LOADNIL: /* R[A] .. R[A+B] */
            writes = a <= reg && reg <= a + GETARG_B(i);
            break;
        case OP_TFORCALL: /* the loop's registers from A+2 up */
            writes = reg >= a + 2;
            break;
        case OP_CALL:
        case OP_TAILCALL: /* results overwrite everything from A up */
            writes = reg >= a;
            break;
        case OP_JMP: { /* writes nothing, but code before its target is conditional */
            int dest = pc + 1 + GETARG_sJ(i);
            if (dest <= lastpc && dest > jmptarget) jmptarget = dest;
            writes = 0;
            break;
        }
        default:
            writes = testAMode(op) && reg == a;
            break;
        }
        if (writes) setreg = pc < jmptarget ? -1 : pc;
    }
    return setreg;
}

/* The name of constant [k] when it is a string, else "?". */
static void constant_name(const Proto *p, int k, const char **name)
{
    *name = (k < p->sizek && ttisstring(&p->k[k])) ? svalue(&p->k[k]) : "?";
}

/* The name of a key held in register [reg]: only a constant string counts. */
static void register_key_name(const Proto *p, int pc, int reg, const char **name)
{
    const char *kind = register_name(p, pc, reg, name);
    if (kind == NULL || strcmp(kind, "constant") != 0) *name = "?";
}

/* The key of instruction [i] (SELF): a constant or a register (k bit). */
static void rk_key_name(const Proto *p, int pc, Instruction i, const char **name)
{
    if (GETARG_k(i))
        constant_name(p, GETARG_C(i), name);
    else
        register_key_name(p, pc, GETARG_C(i), name);
}

/* "global" when the indexed table [t] (upvalue t when [isup], else register
 * t) is the variable _ENV, "field" otherwise. */
static const char *table_kind(const Proto *p, int pc, int t, int isup)
{
    const char *name;
    if (isup)
        name = upvalue_name(p, t);
    else
        register_name(p, pc, t, &name);
    return (name != NULL && strcmp(name, ENV_NAME) == 0) ? "global" : "field";
}

/* What register [reg] holds at instruction [lastpc]: the kind ("local",
 * "global", "field", "upvalue", "constant", "method") and, in *[name], the
 * name; NULL when nothing reasonable is known (*name is then NULL too). */
static const char *register_name(const Proto *p, int lastpc, int reg, const char **name)
{
    *name = func_getlocalname(p, reg + 1, lastpc);
    if (*name != NULL) return "local";
    int pc = find_setreg(p, lastpc, reg);
    if (pc < 0) return NULL;
    Instruction i = p->code[pc];
    switch (GET_OPCODE(i)) {
    case OP_MOVE: {
        int b = GETARG_B(i);
        if (b < GETARG_A(i)) return register_name(p, pc, b, name); /* copied from b */
        break;
    }
    case OP_GETTABUP:
        constant_name(p, GETARG_C(i), name);
        return table_kind(p, pc, GETARG_B(i), 1);
    case OP_GETTABLE:
        register_key_name(p, pc, GETARG_C(i), name);
        return table_kind(p, pc, GETARG_B(i), 0);
    case OP_GETI:
        *name = "integer index";
        return "field";
    case OP_GETFIELD:
        constant_name(p, GETARG_C(i), name);
        return table_kind(p, pc, GETARG_B(i), 0);
    case OP_GETUPVAL:
        *name = upvalue_name(p, GETARG_B(i));
        return "upvalue";
    case OP_LOADK:
    case OP_LOADKX: {
        int k = GET_OPCODE(i) == OP_LOADK ? GETARG_Bx(i) : GETARG_Ax(p->code[pc + 1]);
        if (k < p->sizek && ttisstring(&p->k[k])) {
            *name = svalue(&p->k[k]);
            return "constant";
        }
        break;
    }
    case OP_SELF:
        rk_key_name(p, pc, i, name);
        return "method";
    default:
        break;
    }
    return NULL;
}

/* The name of the function that instruction [pc] of [p] called: the
 * called value's name for a call, the event for an instruction that calls
 * a metamethod. */
static const char *funcname_from_code(lua_State *L, const Proto *p, int pc, const char **name)
{
    if (pc < 0 || pc >= p->sizecode) return NULL;
    Instruction i = p->code[pc];
    TMS tm;
    switch (GET_OPCODE(i)) {
    case OP_CALL:
    case OP_TAILCALL:
        return register_name(p, pc, GETARG_A(i), name);
    case OP_TFORCALL:
        *name = "for iterator";
        return "for iterator";
    case OP_SELF: case OP_GETTABUP: case OP_GETTABLE: case OP_GETI: case OP_GETFIELD:
        tm = TM_INDEX;
        break;
    case OP_SETTABUP: case OP_SETTABLE: case OP_SETI: case OP_SETFIELD:
        tm = TM_NEWINDEX;
        break;
    case OP_MMBIN: case OP_MMBINI: case OP_MMBINK:
        if (GETARG_C(i) >= TM_N) return NULL;
        tm = (TMS)GETARG_C(i);
        break;
    case OP_UNM: tm = TM_UNM; break;
    case OP_BNOT: tm = TM_BNOT; break;
    case OP_LEN: tm = TM_LEN; break;
    case OP_CONCAT: tm = TM_CONCAT; break;
    case OP_EQ: tm = TM_EQ; break;
    /* EQK and EQI never call __eq (a constant is never a table/userdata) */
    case OP_LT: case OP_LTI: case OP_GTI: tm = TM_LT; break;
    case OP_LE: case OP_LEI: case OP_GEI: tm = TM_LE; break;
    case OP_CLOSE: case OP_RETURN: tm = TM_CLOSE; break;
    default:
        return NULL;
    }
    *name = getstr(G(L)->tmname[tm]) + 2; /* without the "__" */
    return "metamethod";
}

const char *dbg_funcnamefromcall(lua_State *L, CallInfo *ci, const char **name)
{
    if (ci->callstatus & CIST_HOOKED) { /* called by a hook */
        *name = "?";
        return "hook";
    }
    if (ci->callstatus & CIST_FIN) { /* called as a finalizer */
        *name = "__gc";
        return "metamethod";
    }
    if (isLua(ci)) return funcname_from_code(L, ci_func(ci)->p, currentpc(ci), name);
    return NULL;
}

/* ==========================================================================
 * lua_getinfo
 */

/* 'S': where the function comes from. */
static void info_source(lua_Debug *ar, const TValue *fn)
{
    if (!ttisLclosure(fn)) {
        ar->source = "=[C]";
        ar->srclen = sizeof("=[C]") - 1;
        ar->linedefined = -1;
        ar->lastlinedefined = -1;
        ar->what = "C";
    } else {
        const Proto *p = clLvalue(fn)->p;
        if (p->source != NULL) {
            ar->source = getstr(p->source);
            ar->srclen = tsslen(p->source);
        } else { /* stripped */
            ar->source = "=?";
            ar->srclen = sizeof("=?") - 1;
        }
        ar->linedefined = p->linedefined;
        ar->lastlinedefined = p->lastlinedefined;
        ar->what = p->linedefined == 0 ? "main" : "Lua";
    }
    conv_chunkid(ar->short_src, ar->source, ar->srclen);
}

/* 'u': upvalues and parameters. */
static void info_params(lua_Debug *ar, const TValue *fn)
{
    if (ttisLclosure(fn)) {
        const Proto *p = clLvalue(fn)->p;
        ar->nups = clLvalue(fn)->nupvalues;
        ar->nparams = p->numparams;
        ar->isvararg = (char)p->is_vararg;
    } else { /* C functions take anything */
        ar->nups = ttisCclosure(fn) ? clCvalue(fn)->nupvalues : 0;
        ar->nparams = 0;
        ar->isvararg = 1;
    }
}

/* 'n': the activation's name, from its caller; a tail call has none. */
static void info_name(lua_State *L, lua_Debug *ar, CallInfo *ci)
{
    const char *namewhat = NULL;
    if (ci != NULL && !(ci->callstatus & CIST_TAIL))
        namewhat = dbg_funcnamefromcall(L, ci->previous, &ar->name);
    if (namewhat == NULL) {
        ar->namewhat = "";
        ar->name = NULL;
    } else {
        ar->namewhat = namewhat;
    }
}

/* Fill the fields of [ar] that [what] asks for; 0 for an unknown letter. */
static int fill_info(lua_State *L, const char *what, lua_Debug *ar, const TValue *fn, CallInfo *ci)
{
    int ok = 1;
    for (; *what != '\0'; what++) {
        switch (*what) {
        case 'S':
            info_source(ar, fn);
            break;
        case 'l':
            ar->currentline = (ci != NULL && isLua(ci)) ? dbg_currentline(ci) : -1;
            break;
        case 'u':
            info_params(ar, fn);
            break;
        case 't':
            ar->istailcall = (char)(ci != NULL && (ci->callstatus & CIST_TAIL));
            break;
        case 'n':
            info_name(L, ar, ci);
            break;
        case 'r':
            if (ci == NULL || !(ci->callstatus & CIST_TRAN)) {
                ar->ftransfer = ar->ntransfer = 0;
            } else {
                ar->ftransfer = ci->u2.transferinfo.ftransfer;
                ar->ntransfer = ci->u2.transferinfo.ntransfer;
            }
            break;
        case 'L':
        case 'f': /* pushed by lua_getinfo */
            break;
        default:
            ok = 0;
            break;
        }
    }
    return ok;
}

/* 'L': push a table whose keys are the lines that have code (nil for a C
 * function). The VARARGPREP opening a vararg function is not a line of
 * its body. */
static void push_active_lines(lua_State *L, const TValue *fn)
{
    if (!ttisLclosure(fn)) {
        setnilvalue(s2v(L->top));
        api_incr_top(L);
        return;
    }
    /* cl and p are C locals: a collection the table's growth runs pins them */
    LClosure *cl = clLvalue(fn);
    const Proto *p = cl->p;
    Table *t = tab_new(L);
    sethvalue(L, s2v(L->top), t);
    api_incr_top(L);
    if (p->lineinfo == NULL) return; /* stripped */
    int first = (p->is_vararg && p->sizecode > 0 && GET_OPCODE(p->code[0]) == OP_VARARGPREP) ? 1 : 0;
    TValue on;
    settrue(&on);
    for (int pc = first; pc < p->sizecode; pc++) tab_setint(L, t, p->lineinfo[pc], &on);
}

LUA_API int lua_getinfo(lua_State *L, const char *what, lua_Debug *ar)
{
    thread_touch(L);
    CallInfo *ci;
    TValue fn; /* a copy: the stack may move under 'L', and '>' pops it */
    if (*what == '>') {
        ci = NULL;
        api_check(L, ttisfunction(s2v(L->top - 1)), "function expected");
        setobj(L, &fn, s2v(L->top - 1));
        L->top--;
        what++;
    } else {
        ci = ar->i_ci;
        setobj(L, &fn, s2v(ci->func));
        lua_assert(ttisfunction(&fn));
    }
    int ok = fill_info(L, what, ar, &fn, ci);
    if (strchr(what, 'f') != NULL) {
        setobj2s(L, L->top, &fn);
        api_incr_top(L);
    }
    if (strchr(what, 'L') != NULL) push_active_lines(L, &fn);
    return ok;
}

/* ==========================================================================
 * Runtime errors
 */

/* Is [o] an upvalue of the running Lua function? Its kind and name then. */
static const char *upvalue_kind(CallInfo *ci, const TValue *o, const char **name)
{
    LClosure *cl = ci_func(ci);
    for (int i = 0; i < cl->nupvalues; i++) {
        if (cl->upvals[i]->v == o) {
            *name = upvalue_name(cl->p, i);
            return "upvalue";
        }
    }
    return NULL;
}

/* The register of the running Lua function that [o] is, or -1. (Pointer
 * equality only: [o] may point anywhere.) */
static int register_of(CallInfo *ci, const TValue *o)
{
    StkId base = ci->func + 1;
    for (int r = 0; base + r < ci->top; r++)
        if (s2v(base + r) == o) return r;
    return -1;
}

/* Push " (kind 'name')", or "" without a kind, and return it. */
static const char *format_varinfo(lua_State *L, const char *kind, const char *name)
{
    if (kind == NULL) return "";
    return conv_pushfstring(L, " (%s '%s')", kind, name);
}

/* Where the value [o] of a failed operation came from, for the message. */
static const char *varinfo(lua_State *L, const TValue *o)
{
    CallInfo *ci = L->ci;
    const char *name = NULL;
    const char *kind = NULL;
    if (isLua(ci)) {
        kind = upvalue_kind(ci, o, &name);
        if (kind == NULL) {
            int reg = register_of(ci, o);
            if (reg >= 0) kind = register_name(ci_func(ci)->p, currentpc(ci), reg, &name);
        }
    }
    return format_varinfo(L, kind, name);
}

/* "attempt to <op> a <type> value<extra>". The type name comes first: the
 * pushes below may move the stack [o] points into. */
static _Noreturn void typeerror_with(lua_State *L, const char *tname, const char *op, const char *extra)
{
    dbg_runerror(L, "attempt to %s a %s value%s", op, tname, extra);
}

void dbg_typeerror(lua_State *L, const TValue *o, const char *op)
{
    const char *tname = tm_objtypename(L, o);
    typeerror_with(L, tname, op, varinfo(L, o));
}

void dbg_callerror(lua_State *L, const TValue *o)
{
    const char *tname = tm_objtypename(L, o);
    const char *name = NULL;
    /* the call instruction names the callee better than the register does
     * (a method, a for iterator, a metamethod) */
    const char *kind = dbg_funcnamefromcall(L, L->ci, &name);
    const char *extra = kind != NULL ? format_varinfo(L, kind, name) : varinfo(L, o);
    typeerror_with(L, tname, "call", extra);
}

void dbg_forerror(lua_State *L, const TValue *o, const char *what)
{
    dbg_runerror(L, "bad 'for' %s (number expected, got %s)", what, tm_objtypename(L, o));
}

void dbg_concaterror(lua_State *L, const TValue *p1, const TValue *p2)
{
    if (ttisstring(p1) || ttisnumber(p1)) p1 = p2; /* the first one was fine */
    dbg_typeerror(L, p1, "concatenate");
}

void dbg_opinterror(lua_State *L, const TValue *p1, const TValue *p2, const char *msg)
{
    if (!ttisnumber(p1)) p2 = p1; /* blame the first operand that is not a number */
    dbg_typeerror(L, p2, msg);
}

void dbg_tointerror(lua_State *L, const TValue *p1, const TValue *p2)
{
    lua_Integer unused;
    if (!conv_tointegerns(p1, &unused, F2Ieq)) p2 = p1; /* blame the first bad one */
    dbg_runerror(L, "number%s has no integer representation", varinfo(L, p2));
}

void dbg_ordererror(lua_State *L, const TValue *p1, const TValue *p2)
{
    const char *t1 = tm_objtypename(L, p1);
    const char *t2 = tm_objtypename(L, p2);
    if (strcmp(t1, t2) == 0)
        dbg_runerror(L, "attempt to compare two %s values", t1);
    else
        dbg_runerror(L, "attempt to compare %s with %s", t1, t2);
}

const char *dbg_addinfo(lua_State *L, const char *msg, TString *src, int line)
{
    char where[LUA_IDSIZE];
    if (src != NULL) {
        conv_chunkid(where, getstr(src), tsslen(src));
    } else { /* stripped */
        where[0] = '?';
        where[1] = '\0';
    }
    return conv_pushfstring(L, "%s:%d: %s", where, line, msg);
}

void dbg_errormsg(lua_State *L)
{
    call_throwwithhandler(L); /* the message handler, then the throw */
}

void dbg_runerror(lua_State *L, const char *fmt, ...)
{
    CallInfo *ci = L->ci;
    va_list argp;
    va_start(argp, fmt);
    const char *msg = conv_pushvfstring(L, fmt, argp);
    va_end(argp);
    if (isLua(ci)) { /* "source:line: " before the message, which it replaces */
        dbg_addinfo(L, msg, ci_func(ci)->p->source, dbg_currentline(ci));
        setobjs2s(L, L->top - 2, L->top - 1);
        L->top--;
    }
    dbg_errormsg(L);
}
