/*
 * calls.c — the Lua stack, calls and returns, errors and protected calls,
 * loading chunks, coroutines (lua_resume, lua_yieldk, lua_isyieldable) and
 * lua_error.
 *
 * Errors and yields are longjmps to the innermost call_rawrunprotected. A
 * coroutine never keeps C frames between resumes: a yield unwinds the C
 * stack to lua_resume, and the next resume finishes what was interrupted
 * from the CallInfo list alone ("unroll"): a C function through its
 * continuation, a Lua function through vm_finishop and vm_execute.
 *
 * Nested C calls are counted in the low 16 bits of L->nCcalls (calls into
 * C or into a fresh vm_execute), non-yieldable ones in the high 16 bits.
 */
#include <stdlib.h>
#include <string.h>

#include "calls.h"
#include "calls_inline.h"
#include "compiler.h"
#include "conv.h"
#include "debuginfo.h"
#include "funcs.h"
#include "metamethods.h"
#include "strings.h"
#include "vm.h"
#include "../gc/gc.h"

/* A recovery point: call_throw jumps to the innermost one of the thread. */
struct tide_longjmp {
    struct tide_longjmp *previous;
    jmp_buf b;
    volatile int status;
};

#define errorstatus(s) ((s) > LUA_YIELD)

/* What ccall adds to nCcalls: one C level, plus one non-yieldable level. */
#define NONYIELDABLE_CALL (0x10000u | 1u)

/* =========================================================================
 * Errors
 */

void call_seterrorobj(lua_State *L, int errcode, StkId oldtop)
{
    switch (errcode) {
    case LUA_ERRMEM:
        setsvalue(L, s2v(oldtop), G(L)->memerrmsg);
        break;
    case LUA_ERRERR:
        setsvalue(L, s2v(oldtop), str_newz(L, "error in error handling"));
        break;
    case LUA_OK: /* closing without an error: nil */
        setnilvalue(s2v(oldtop));
        break;
    default: /* the error object is on top */
        lua_assert(errorstatus(errcode));
        setobjs2s(L, oldtop, L->top - 1);
        break;
    }
    L->top = oldtop + 1;
}

static _Noreturn void jump_to(struct tide_longjmp *target, int errcode)
{
    target->status = errcode;
    longjmp(target->b, 1);
}

void call_throw(lua_State *L, int errcode)
{
    if (L->errorJmp != NULL) jump_to(L->errorJmp, errcode);
    GlobalState *g = G(L);
    lua_State *mainth = g->mainthread;
    if (L != mainth) {
        /* A coroutine used outside lua_resume: it dies, and the error goes
         * on in the main thread if that one can catch it. */
        errcode = state_resetthread(L, errcode);
        if (mainth->errorJmp != NULL) {
            setobjs2s(L, mainth->top, L->top - 1);
            mainth->top++;
            jump_to(mainth->errorJmp, errcode);
        }
    }
    /* Nothing can catch it: the panic function is the last chance to jump
     * out; it finds the error object on top. */
    if (g->panic != NULL) {
        g->stack_windows = NULL; /* the panic function may jump anywhere */
        call_seterrorobj(L, errcode, L->top);
        if (L->ci->top < L->top) L->ci->top = L->top;
        stack_note_top(L, L->ci->top);
        g->panic(L);
    }
    abort();
}

int call_rawrunprotected(lua_State *L, Pfunc f, void *ud)
{
    uint32_t saved_nCcalls = L->nCcalls;
    GCStackWindow *saved_windows = G(L)->stack_windows;
    struct tide_longjmp lj;
    lj.status = LUA_OK;
    lj.previous = L->errorJmp;
    L->errorJmp = &lj;
    if (setjmp(lj.b) == 0) f(L, ud);
    L->errorJmp = lj.previous;
    L->nCcalls = saved_nCcalls;
    G(L)->stack_windows = saved_windows; /* those of frames an error unwound */
    return lj.status;
}

_Noreturn void call_throwwithhandler(lua_State *L)
{
    if (L->errfunc != 0) {
        StkId handler = stack_restore(L, L->errfunc);
        /* handler(errobj): room for the extra slot is in EXTRA_STACK */
        setobjs2s(L, L->top, L->top - 1);
        setobjs2s(L, L->top - 1, handler);
        L->top++;
        call_callnoyield(L, L->top - 2, 1);
    }
    call_throw(L, LUA_ERRRUN);
}

LUA_API int lua_error(lua_State *L)
{
    thread_touch(L);
    const TValue *errobj = s2v(L->top - 1);
    /* Re-raising the memory-error message keeps its status. */
    if (ttisstring(errobj) && tsvalue(errobj) == G(L)->memerrmsg) call_throw(L, LUA_ERRMEM);
    call_throwwithhandler(L);
}

struct CloseArgs {
    StkId level;
    int status;
};

static void close_in_protected_mode(lua_State *L, void *ud)
{
    struct CloseArgs *args = ud;
    func_close(L, args->level, args->status, 0);
}

int call_closeprotected(lua_State *L, ptrdiff_t level, int status)
{
    CallInfo *old_ci = L->ci;
    uint8_t old_allowhook = L->allowhook;
    for (;;) {
        struct CloseArgs args;
        args.level = stack_restore(L, level);
        args.status = status;
        int st = call_rawrunprotected(L, close_in_protected_mode, &args);
        if (luai_likely(st == LUA_OK)) return args.status;
        /* a __close raised an error: it replaces the previous one; the
         * variables still open get it next */
        L->ci = old_ci;
        gc_stack_return(L, old_ci);
        L->allowhook = old_allowhook;
        status = st;
    }
}

int call_pcall(lua_State *L, Pfunc f, void *ud, ptrdiff_t oldtop, ptrdiff_t ef)
{
    CallInfo *old_ci = L->ci;
    uint8_t old_allowhook = L->allowhook;
    ptrdiff_t old_errfunc = L->errfunc;
    L->errfunc = ef;
    int status = call_rawrunprotected(L, f, ud);
    if (luai_unlikely(status != LUA_OK)) {
        L->ci = old_ci;
        gc_stack_return(L, old_ci);
        L->allowhook = old_allowhook;
        status = call_closeprotected(L, oldtop, status);
        call_seterrorobj(L, status, stack_restore(L, oldtop));
        call_shrinkstack(L); /* after a stack overflow, give the space back */
    }
    L->errfunc = old_errfunc;
    return status;
}

/* =========================================================================
 * The stack
 */

/* Point everything that points into the stack at [newstack] instead of
 * [oldstack] (both still allocated). */
static void rebase_stack(lua_State *L, StkId oldstack, StkId newstack)
{
    L->top = newstack + (L->top - oldstack);
    L->tbclist = newstack + (L->tbclist - oldstack);
    for (UpVal *up = L->openupval; up != NULL; up = up->u.open.next)
        up->v = s2v(newstack + (upval_level(up) - oldstack));
    for (CallInfo *ci = L->ci; ci != NULL; ci = ci->previous) {
        ci->top = newstack + (ci->top - oldstack);
        ci->func = newstack + (ci->func - oldstack);
        if (isLua(ci)) ci->u.l.trap = 1; /* the VM must reload its base */
    }
}

int call_reallocstack(lua_State *L, int newsize, int raiseerror)
{
    size_t nbytes = (size_t)(newsize + EXTRA_STACK) * sizeof(StackValue);
    /* A new block, then copy: the old stack stays whole (and visible to a
     * collection the allocation may run) until everything is rebased. */
    StkId newstack = raiseerror ? (StkId)gc_raw_alloc(L, nbytes)
                                : (StkId)gc_raw_try_realloc(L, NULL, 0, nbytes);
    if (newstack == NULL) return 0;
    StkId oldstack = L->stack;
    int oldsize = stacksize(L);
    int ncopy = (oldsize < newsize ? oldsize : newsize) + EXTRA_STACK;
    memcpy(newstack, oldstack, (size_t)ncopy * sizeof(StackValue));
    for (int i = ncopy; i < newsize + EXTRA_STACK; i++) setnilvalue(s2v(newstack + i));
    rebase_stack(L, oldstack, newstack);
    L->stack = newstack;
    L->stack_last = newstack + newsize;
    gc_raw_free(L, oldstack, (size_t)(oldsize + EXTRA_STACK) * sizeof(StackValue));
    return 1;
}

int call_growstack(lua_State *L, int n, int raiseerror)
{
    int size = stacksize(L);
    if (luai_unlikely(size > LUAI_MAXSTACK)) {
        /* already using the extra room of a stack overflow: the error is
         * being handled and overflowed again */
        if (raiseerror) call_throw(L, LUA_ERRERR);
        return 0;
    }
    if (n < LUAI_MAXSTACK) {
        int newsize = 2 * size;
        int needed = (int)(L->top - L->stack) + n;
        if (newsize > LUAI_MAXSTACK) newsize = LUAI_MAXSTACK;
        if (newsize < needed) newsize = needed;
        if (luai_likely(newsize <= LUAI_MAXSTACK)) return call_reallocstack(L, newsize, raiseerror);
    }
    /* Past the limit: grow into the room kept for handling the error. */
    call_reallocstack(L, ERRORSTACKSIZE, raiseerror);
    if (raiseerror) dbg_runerror(L, "stack overflow");
    return 0;
}

/* Slots in use: up to the highest top of any frame. */
static int stack_inuse(lua_State *L)
{
    StkId lim = L->top;
    for (CallInfo *ci = L->ci; ci != NULL; ci = ci->previous)
        if (lim < ci->top) lim = ci->top;
    int res = (int)(lim - L->stack) + 1;
    return res < LUA_MINSTACK ? LUA_MINSTACK : res;
}

void call_shrinkstack(lua_State *L)
{
    int inuse = stack_inuse(L);
    int max = inuse > LUAI_MAXSTACK / 3 ? LUAI_MAXSTACK : inuse * 3;
    /* Not while handling an overflow (inuse above the limit), and only when
     * the stack is much larger than what is used. */
    if (inuse <= LUAI_MAXSTACK && stacksize(L) > max) {
        int nsize = inuse > LUAI_MAXSTACK / 3 ? LUAI_MAXSTACK : inuse * 2;
        call_reallocstack(L, nsize, 0); /* failing is fine */
    }
    state_shrinkci(L);
}

void call_inctop(lua_State *L)
{
    stack_check(L, 1);
    L->top++;
}

/* =========================================================================
 * Hooks
 */

void call_hook(lua_State *L, int event, int line, int ftransfer, int ntransfer)
{
    lua_Hook hook = L->hook;
    if (hook == NULL || !L->allowhook) return;
    CallInfo *ci = L->ci;
    unsigned short mask = CIST_HOOKED;
    ptrdiff_t top = stack_save(L, L->top);
    ptrdiff_t ci_top = stack_save(L, ci->top);
    lua_Debug ar;
    ar.event = event;
    ar.currentline = line;
    ar.i_ci = ci;
    if (ntransfer != 0) {
        mask |= CIST_TRAN;
        ci->u2.transferinfo.ftransfer = (unsigned short)ftransfer;
        ci->u2.transferinfo.ntransfer = (unsigned short)ntransfer;
    }
    if (isLua(ci) && L->top < ci->top) L->top = ci->top; /* keep every register */
    stack_check(L, LUA_MINSTACK);
    if (ci->top < L->top + LUA_MINSTACK) ci->top = L->top + LUA_MINSTACK;
    stack_note_top(L, ci->top);
    L->allowhook = 0; /* no hooks inside a hook */
    ci->callstatus |= mask;
    hook(L, &ar);
    lua_assert(!L->allowhook);
    L->allowhook = 1;
    ci->top = stack_restore(L, ci_top);
    L->top = stack_restore(L, top);
    ci->callstatus &= (unsigned short)~mask;
}

void call_hookcall(lua_State *L, CallInfo *ci)
{
    L->oldpc = 0; /* a new function: every line is new */
    if (L->hookmask & LUA_MASKCALL) {
        int event = (ci->callstatus & CIST_TAIL) ? LUA_HOOKTAILCALL : LUA_HOOKCALL;
        const Proto *p = ci_func(ci)->p;
        ci->u.l.savedpc++; /* hooks expect pc past the current instruction */
        call_hook(L, event, -1, 1, p->numparams);
        ci->u.l.savedpc--;
    }
}

static void rethook(lua_State *L, CallInfo *ci, int nres)
{
    if (L->hookmask & LUA_MASKRET) {
        StkId firstres = L->top - nres;
        int delta = 0; /* a vararg function's func was moved up; show the original */
        if (isLua(ci)) {
            const Proto *p = ci_func(ci)->p;
            if (p->is_vararg) delta = ci->u.l.nextraargs + p->numparams + 1;
        }
        ci->func += delta;
        call_hook(L, LUA_HOOKRET, -1, (int)(firstres - ci->func), nres);
        ci->func -= delta;
    }
    if (isLua(ci = ci->previous)) L->oldpc = pcRel(ci->u.l.savedpc, ci_func(ci)->p);
}

/* =========================================================================
 * Calls and returns
 */

StkId call_tryfuncTM(lua_State *L, StkId func)
{
    if (luai_unlikely(L->stack_last - L->top <= 1)) {
        ptrdiff_t funcoff = stack_save(L, func);
        call_growstack(L, 1, 1);
        func = stack_restore(L, funcoff);
    }
    const TValue *tm = tm_getbyobj(L, s2v(func), TM_CALL);
    if (luai_unlikely(ttisnil(tm))) dbg_callerror(L, s2v(func));
    /* the called value becomes the first argument of its __call */
    for (StkId p = L->top; p > func; p--) setobjs2s(L, p, p - 1);
    L->top++;
    setobj2s(L, func, tm);
    return func;
}

/* Move the [nres] results on top of the stack to [res], adjusted to [wanted]. */
static inline void move_results(lua_State *L, StkId res, int nres, int wanted)
{
    switch (wanted) {
    case 0:
        L->top = res;
        return;
    case 1:
        if (nres == 0)
            setnilvalue(s2v(res));
        else
            setobjs2s(L, res, L->top - nres);
        L->top = res + 1;
        return;
    case LUA_MULTRET:
        wanted = nres;
        break;
    default:
        if (call_hastocloseCfunc(wanted)) {
            /* a C function with tbc slots: close them first (the results
             * stay on top); CIST_CLSRET lets a resume redo this after a
             * yield inside a __close */
            ptrdiff_t resoff = stack_save(L, res);
            L->ci->callstatus |= CIST_CLSRET;
            L->ci->u2.nres = nres;
            func_close(L, res, LUA_OK, 1);
            L->ci->callstatus &= (unsigned short)~CIST_CLSRET;
            if (L->hookmask) rethook(L, L->ci, nres);
            res = stack_restore(L, resoff);
            wanted = call_decodeNresults(wanted);
            if (wanted == LUA_MULTRET) wanted = nres;
        }
        break;
    }
    StkId first = L->top - nres;
    int i;
    if (nres > wanted) nres = wanted;
    for (i = 0; i < nres; i++) setobjs2s(L, res + i, first + i);
    for (; i < wanted; i++) setnilvalue(s2v(res + i));
    L->top = res + wanted;
}

void call_poscall(lua_State *L, CallInfo *ci, int nres)
{
    gc_stack_return(L, ci->previous); /* before the results land in its frame */
    int wanted = ci->nresults;
    if (luai_unlikely(L->hookmask && !call_hastocloseCfunc(wanted))) rethook(L, ci, nres);
    move_results(L, ci->func, nres, wanted);
    L->ci = ci->previous;
}

/* Call the C function [f] in slot [func]; returns its number of results
 * (already moved into place). */
static inline int precall_c(lua_State *L, StkId func, int nresults, lua_CFunction f)
{
    if (luai_unlikely(L->stack_last - L->top <= LUA_MINSTACK)) {
        ptrdiff_t funcoff = stack_save(L, func);
        call_growstack(L, LUA_MINSTACK, 1);
        func = stack_restore(L, funcoff);
    }
    CallInfo *ci = calls_pushci(L);
    ci->func = func;
    ci->top = L->top + LUA_MINSTACK;
    stack_note_top(L, ci->top);
    ci->nresults = (short)nresults;
    ci->callstatus = CIST_C;
    ci->u.c.k = NULL;
    if (luai_unlikely(L->hookmask & LUA_MASKCALL)) {
        int narg = (int)(L->top - func) - 1;
        call_hook(L, LUA_HOOKCALL, -1, 1, narg);
    }
    int n = f(L);
    call_poscall(L, ci, n);
    return n;
}

CallInfo *call_precall(lua_State *L, StkId func, int nresults)
{
    for (;;) {
        switch (ttypetag(s2v(func))) {
        case withvariant(VCCL):
            precall_c(L, func, nresults, clCvalue(s2v(func))->f);
            return NULL;
        case withvariant(VLCF):
            precall_c(L, func, nresults, fvalue(s2v(func)));
            return NULL;
        case withvariant(VLCL):
            return calls_enterlua(L, func, nresults);
        default:
            func = call_tryfuncTM(L, func); /* and try again */
            break;
        }
    }
}

int call_pretailcall(lua_State *L, CallInfo *ci, StkId func, int narg1, int delta)
{
    for (;;) {
        switch (ttypetag(s2v(func))) {
        case withvariant(VCCL):
            return precall_c(L, func, LUA_MULTRET, clCvalue(s2v(func))->f);
        case withvariant(VLCF):
            return precall_c(L, func, LUA_MULTRET, fvalue(s2v(func)));
        case withvariant(VLCL): {
            int fsize = clLvalue(s2v(func))->p->maxstacksize;
            if (luai_unlikely(L->stack_last - L->top <= fsize - delta)) {
                ptrdiff_t funcoff = stack_save(L, func);
                call_growstack(L, fsize - delta, 1);
                func = stack_restore(L, funcoff);
            }
            const Proto *p = clLvalue(s2v(func))->p;
            /* the callee takes the caller's place (its original place, for
             * a vararg caller) */
            ci->func -= delta;
            for (int i = 0; i < narg1; i++) setobjs2s(L, ci->func + i, func + i);
            func = ci->func;
            for (; narg1 <= p->numparams; narg1++) setnilvalue(s2v(func + narg1));
            ci->top = func + 1 + fsize;
            stack_note_top(L, ci->top);
            ci->u.l.savedpc = p->code;
            ci->callstatus |= CIST_TAIL;
            L->top = func + narg1;
            return -1;
        }
        default:
            func = call_tryfuncTM(L, func);
            narg1++;
            break;
        }
    }
}

/* Call from C: Lua functions run in a fresh vm_execute. [inc] counts the
 * C level (and the non-yieldable level). */
static inline void ccall(lua_State *L, StkId func, int nresults, uint32_t inc)
{
    L->nCcalls += inc;
    if (luai_unlikely(getCcalls(L) >= TIDE_MAXCCALLS)) {
        ptrdiff_t funcoff = stack_save(L, func);
        stack_check(L, 0); /* leave the EXTRA_STACK room free */
        func = stack_restore(L, funcoff);
        call_checkcstack(L);
    }
    CallInfo *ci = call_precall(L, func, nresults);
    if (ci != NULL) {
        ci->callstatus = CIST_FRESH;
        vm_execute(L, ci);
    }
    L->nCcalls -= inc;
}

void call_call(lua_State *L, StkId func, int nresults)
{
    ccall(L, func, nresults, 1);
}

void call_callnoyield(lua_State *L, StkId func, int nresults)
{
    ccall(L, func, nresults, NONYIELDABLE_CALL);
}

void call_checkcstack(lua_State *L)
{
    if (getCcalls(L) == TIDE_MAXCCALLS)
        dbg_runerror(L, "C stack overflow");
    else if (getCcalls(L) >= TIDE_MAXCCALLS / 10 * 11)
        call_throw(L, LUA_ERRERR); /* overflowed again while handling it */
}

/* =========================================================================
 * Loading chunks
 */

struct ParseArgs {
    Reader *z;
    const char *name;
    const char *mode;
};

static void check_mode(lua_State *L, const char *mode, const char *kind)
{
    if (mode != NULL && strchr(mode, kind[0]) == NULL) {
        conv_pushfstring(L, "attempt to load a %s chunk (mode is '%s')", kind, mode);
        call_throw(L, LUA_ERRSYNTAX);
    }
}

static void parse_protected(lua_State *L, void *ud)
{
    struct ParseArgs *args = ud;
    int c = reader_getc(args->z);
    LClosure *cl;
    if (c == TIDE_SIGNATURE[0]) {
        check_mode(L, args->mode, "binary");
        cl = undump_chunk(L, args->z, args->name);
    } else {
        check_mode(L, args->mode, "text");
        cl = parse_chunk(L, args->z, args->name, c);
    }
    func_initupvals(L, cl);
}

int call_protectedparser(lua_State *L, struct Reader *z, const char *name, const char *mode)
{
    struct ParseArgs args;
    args.z = z;
    args.name = name;
    args.mode = mode;
    incnny(L); /* no yields while parsing */
    int status = call_pcall(L, parse_protected, &args, stack_save(L, L->top), L->errfunc);
    decnny(L);
    return status;
}

/* =========================================================================
 * Coroutines
 */

/* Finish a lua_pcallk interrupted by a yield or, in a coroutine, by an
 * error (whose status unroll left in the CallInfo). Returns the status for
 * the continuation. */
static int finish_pcallk(lua_State *L, CallInfo *ci)
{
    int status = ci_getrecst(ci);
    if (luai_likely(status == LUA_OK)) {
        status = LUA_YIELD; /* it was a yield */
    } else {
        StkId func = stack_restore(L, ci->u2.funcidx);
        L->allowhook = (uint8_t)ci_getoah(ci);
        func = func_close(L, func, status, 1); /* may yield or raise */
        call_seterrorobj(L, status, func);
        call_shrinkstack(L);
        ci_setrecst(ci, LUA_OK);
    }
    ci->callstatus &= (unsigned short)~CIST_YPCALL;
    L->errfunc = ci->u.c.old_errfunc;
    return status;
}

/* Finish the C function of [ci], interrupted by a yield (or an error in a
 * lua_pcallk): call its continuation, then return from it. */
static void finish_ccall(lua_State *L, CallInfo *ci)
{
    int n;
    if (ci->callstatus & CIST_CLSRET) {
        n = ci->u2.nres; /* it was closing tbc slots while returning: redo */
    } else {
        int status = LUA_YIELD;
        lua_assert(ci->u.c.k != NULL && yieldable(L));
        if (ci->callstatus & CIST_YPCALL) status = finish_pcallk(L, ci);
        if (L->top > ci->top) ci->top = L->top; /* results of lua_callk (MULTRET) */
        stack_note_top(L, ci->top);
        n = ci->u.c.k(L, status, ci->u.c.ctx);
    }
    call_poscall(L, ci, n);
}

/* Run every interrupted frame of the coroutine down to its base. */
static void unroll(lua_State *L, void *ud)
{
    (void)ud;
    CallInfo *ci;
    while ((ci = L->ci) != &L->base_ci) {
        if (!isLua(ci)) {
            finish_ccall(L, ci);
        } else {
            vm_finishop(L);
            vm_execute(L, ci);
        }
    }
}

static CallInfo *find_pcall(lua_State *L)
{
    for (CallInfo *ci = L->ci; ci != NULL; ci = ci->previous)
        if (ci->callstatus & CIST_YPCALL) return ci;
    return NULL;
}

/* After an error inside a coroutine, let the innermost lua_pcallk (if any)
 * catch it and go on running. */
static int recover(lua_State *L, int status)
{
    CallInfo *ci;
    while (errorstatus(status) && (ci = find_pcall(L)) != NULL) {
        L->ci = ci;
        gc_stack_return(L, ci);
        ci_setrecst(ci, status);
        status = call_rawrunprotected(L, unroll, NULL);
    }
    return status;
}

static void resume_body(lua_State *L, void *ud)
{
    int n = *(int *)ud;
    StkId firstarg = L->top - n;
    CallInfo *ci = L->ci;
    if (L->status == LUA_OK) { /* starting: call the body */
        ccall(L, firstarg - 1, LUA_MULTRET, 0);
        return;
    }
    lua_assert(L->status == LUA_YIELD);
    L->status = LUA_OK;
    if (isLua(ci)) { /* it yielded inside a line or count hook */
        L->top = firstarg;
        vm_execute(L, ci);
    } else { /* a C function yielded: its results are the resume values */
        if (ci->u.c.k != NULL) n = ci->u.c.k(L, LUA_YIELD, ci->u.c.ctx);
        call_poscall(L, ci, n);
    }
    unroll(L, NULL);
}

static int resume_error(lua_State *L, const char *msg, int narg)
{
    L->top -= narg;
    setsvalue(L, s2v(L->top), str_newz(L, msg));
    L->top++;
    return LUA_ERRRUN;
}

LUA_API int lua_resume(lua_State *L, lua_State *from, int nargs, int *nresults)
{
    thread_touch(L);
    if (L->status == LUA_OK) {
        if (L->ci != &L->base_ci)
            return resume_error(L, "cannot resume non-suspended coroutine", nargs);
        if (L->top - (L->ci->func + 1) == nargs) /* no function below the arguments */
            return resume_error(L, "cannot resume dead coroutine", nargs);
    } else if (L->status != LUA_YIELD) {
        return resume_error(L, "cannot resume dead coroutine", nargs);
    }
    L->nCcalls = from != NULL ? getCcalls(from) : 0;
    if (getCcalls(L) >= TIDE_MAXCCALLS) return resume_error(L, "C stack overflow", nargs);
    L->nCcalls++;
    gc_resume_enter(L); /* a cycle's initial pause scans the resume chain */
    int status = call_rawrunprotected(L, resume_body, &nargs);
    gc_resume_leave(L);
    status = recover(L, status);
    if (luai_likely(!errorstatus(status))) {
        lua_assert(status == L->status);
    } else { /* the coroutine dies; its frames stay for tracebacks */
        L->status = (uint8_t)status;
        call_seterrorobj(L, status, L->top);
        L->ci->top = L->top;
        stack_note_top(L, L->ci->top);
    }
    *nresults = status == LUA_YIELD ? L->ci->u2.nyield : (int)(L->top - (L->ci->func + 1));
    gc_thread_stopped(L);
    return status;
}

LUA_API int lua_yieldk(lua_State *L, int nresults, lua_KContext ctx, lua_KFunction k)
{
    thread_touch(L);
    CallInfo *ci = L->ci;
    if (luai_unlikely(!yieldable(L))) {
        if (L != G(L)->mainthread)
            dbg_runerror(L, "attempt to yield across a C-call boundary");
        else
            dbg_runerror(L, "attempt to yield from outside a coroutine");
    }
    L->status = LUA_YIELD;
    ci->u2.nyield = nresults;
    if (isLua(ci)) {
        /* inside a line/count hook: dbg_traceexec raises the yield when the
         * hook returns */
        lua_assert(nresults == 0 && k == NULL);
        lua_assert(ci->callstatus & CIST_HOOKED);
        return 0;
    }
    ci->u.c.k = k;
    if (k != NULL) ci->u.c.ctx = ctx;
    call_throw(L, LUA_YIELD);
}

LUA_API int lua_isyieldable(lua_State *L)
{
    thread_touch(L);
    return yieldable(L);
}
