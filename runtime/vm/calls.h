/*
 * calls.h — the stack, calls and returns, errors and protected calls,
 * coroutines (calls.c). lua_resume, lua_yieldk, lua_isyieldable,
 * lua_error are implemented in calls.c.
 *
 * Errors are longjmps (setjmp/longjmp, not C++ exceptions) to the innermost
 * call_rawrunprotected. An error status is one of lua.h's LUA_ERR*.
 */
#ifndef TIDE_VM_CALLS_H
#define TIDE_VM_CALLS_H

#include "state.h"

typedef void (*Pfunc)(lua_State *L, void *ud);

/* Raise the error [errcode] with the error object on top of the stack. */
TIDE_INTERNAL _Noreturn void call_throw(lua_State *L, int errcode);
/* Run f(L, ud) catching errors; returns the status. */
TIDE_INTERNAL int call_rawrunprotected(lua_State *L, Pfunc f, void *ud);
/* A protected call with message handler offset [ef]; on error restores the
 * stack to [oldtop] with the error object there and closes tbc variables. */
TIDE_INTERNAL int call_pcall(lua_State *L, Pfunc f, void *ud, ptrdiff_t oldtop, ptrdiff_t ef);
/* Put the error object for [errcode] at [oldtop] (memory errors use the
 * preallocated message). */
TIDE_INTERNAL void call_seterrorobj(lua_State *L, int errcode, StkId oldtop);

/* Call the function at [func] with the arguments above it; [nresults]
 * results (LUA_MULTRET for all) are left from [func] upward. */
TIDE_INTERNAL void call_call(lua_State *L, StkId func, int nresults);
TIDE_INTERNAL void call_callnoyield(lua_State *L, StkId func, int nresults);
/* Start a call: for a C function, run it and finish (returns NULL); for a
 * Lua function, push its CallInfo and return it (the VM runs it). Resolves
 * __call. */
TIDE_INTERNAL CallInfo *call_precall(lua_State *L, StkId func, int nresults);
/* Tail call from the Lua function of [ci]: returns -1 when a Lua function
 * was set up in [ci]'s place, else the number of results a C function left. */
TIDE_INTERNAL int call_pretailcall(lua_State *L, CallInfo *ci, StkId func, int narg1, int delta);
/* Finish a call: move [nres] results into place, pop the CallInfo. */
TIDE_INTERNAL void call_poscall(lua_State *L, CallInfo *ci, int nres);
/* The function slot resolved through __call (error "attempt to call a X value"). */
TIDE_INTERNAL StkId call_tryfuncTM(lua_State *L, StkId func);

/* Grow the stack to hold [n] more slots; with [raiseerror] 0 returns 0 on
 * failure instead of raising. Rebases open upvalues and CallInfos. */
TIDE_INTERNAL int call_growstack(lua_State *L, int n, int raiseerror);
TIDE_INTERNAL int call_reallocstack(lua_State *L, int newsize, int raiseerror);
TIDE_INTERNAL void call_shrinkstack(lua_State *L); /* collector: give back unused stack */
TIDE_INTERNAL void call_inctop(lua_State *L);       /* top++ with a stack check */

/* Hooks: call the hook for [event]; the call hook of a new Lua frame. */
TIDE_INTERNAL void call_hook(lua_State *L, int event, int line, int ftransfer, int ntransfer);
TIDE_INTERNAL void call_hookcall(lua_State *L, CallInfo *ci);

/* Load a chunk in protected mode (text or binary by its first byte, checked
 * against [mode] "b", "t" or "bt"); on success the closure is on top. */
struct Reader;
TIDE_INTERNAL int call_protectedparser(lua_State *L, struct Reader *z, const char *name, const char *mode);

/* The C-stack check for nested C calls and parser recursion: raises
 * "C stack overflow" past TIDE_MAXCCALLS. */
TIDE_INTERNAL void call_checkcstack(lua_State *L);
#define call_incCcalls(L) do { (L)->nCcalls++; if (getCcalls(L) >= TIDE_MAXCCALLS) call_checkcstack(L); } while (0)
#define call_decCcalls(L) ((L)->nCcalls--)


/* --- added by the calls.c engineer (additive) ------------------------------ */

/* Raise LUA_ERRRUN with the error object on top of the stack after passing
 * it through the current message handler (L->errfunc, when nonzero): the
 * handler is called with the error object as its only argument, without
 * yields, and its one result replaces the error object. An error inside the
 * handler recurses through here until the C-stack limit, which ends as
 * LUA_ERRERR ("error in error handling"), as in Lua 5.4. lua_error and
 * dbg_errormsg (debuginfo.c) both end here. */
TIDE_INTERNAL _Noreturn void call_throwwithhandler(lua_State *L);

/* The CallInfo of a C function that has to-be-closed slots (lua_toclose)
 * keeps its wanted results encoded in ci->nresults below LUA_MULTRET, so
 * that call_poscall knows to close them before moving the results:
 *   lua_toclose:  func_newtbcupval(L, slot);
 *                 if (!call_hastocloseCfunc(ci->nresults))
 *                     ci->nresults = call_codeNresults(ci->nresults);
 *   lua_settop / lua_closeslot close with func_close(L, level, LUA_OK, 0)
 *   (LUA_OK leaves L->top alone; see funcs.h). */
#define call_hastocloseCfunc(n) ((n) < LUA_MULTRET)
#define call_codeNresults(n) (-(n) - 3)
#define call_decodeNresults(n) (-(n) - 3)

/* Stacks. A thread's stack is one gc_raw block of
 *     (stacksize(L) + EXTRA_STACK) * sizeof(StackValue)
 * bytes; stack_last = stack + stacksize. Whoever creates a thread (state.c)
 * allocates BASIC_STACK_SIZE + EXTRA_STACK slots that way, sets them all to
 * nil, sets stack_last, and sets L->tbclist = L->stack (the list of
 * to-be-closed slots is empty when it points at the stack's first slot,
 * which is the base CallInfo's function slot and never a tbc variable);
 * state_freethread frees the block with the same size. call_reallocstack
 * moves the stack and rebases L->top, L->tbclist, every CallInfo's func and
 * top (L->ci and below), and the open upvalues, and sets the trap of every
 * Lua CallInfo. It never runs inside an allocation: the collector may call
 * call_shrinkstack only from gc_step reached through gc_check, or from
 * lua_gc, never from a collection that an allocation (gc_new, gc_raw_*)
 * triggers, because C code holds StkIds across allocations.
 * ERRORSTACKSIZE: the size a stack grows to for handling "stack overflow". */
#define ERRORSTACKSIZE (LUAI_MAXSTACK + 200)

/* Close upvalues and tbc variables at or above stack offset [level] with
 * error status [status], in protected mode: an error in a __close replaces
 * the status (and error object) and closing goes on with the rest. Returns
 * the final status. (For lua_closethread / state_resetthread and pcall.) */
TIDE_INTERNAL int call_closeprotected(lua_State *L, ptrdiff_t level, int status);

/* How the API's lua_callk and lua_pcallk must drive calls so that a
 * coroutine can yield across them and lua_resume can finish them ("unroll"):
 *
 * lua_callk(L, nargs, nresults, ctx, k):
 *     func = L->top - (nargs + 1);
 *     if (k != NULL && yieldable(L)) {
 *         L->ci->u.c.k = k; L->ci->u.c.ctx = ctx;
 *         call_call(L, func, nresults);
 *     } else
 *         call_callnoyield(L, func, nresults);
 *     then adjust ci->top for LUA_MULTRET results (if L->top > L->ci->top,
 *     L->ci->top = L->top).
 *
 * lua_pcallk(L, nargs, nresults, errfunc, ctx, k):
 *     ef = errfunc == 0 ? 0 : stack_save(L, <stack slot of errfunc>);
 *     func = L->top - (nargs + 1);
 *     if (k == NULL || !yieldable(L)) {
 *         status = call_pcall(L, <Pfunc that does call_callnoyield(L, func,
 *                             nresults)>, ..., stack_save(L, func), ef);
 *     } else {   // the call is already protected by lua_resume
 *         CallInfo *ci = L->ci;
 *         ci->u.c.k = k; ci->u.c.ctx = ctx;
 *         ci->u2.funcidx = (int)stack_save(L, func);   // a byte offset
 *         ci->u.c.old_errfunc = L->errfunc;
 *         L->errfunc = ef;
 *         ci_setoah(ci, L->allowhook);
 *         ci->callstatus |= CIST_YPCALL;
 *         call_call(L, func, nresults);
 *         ci->callstatus &= ~CIST_YPCALL;
 *         L->errfunc = ci->u.c.old_errfunc;
 *         status = LUA_OK;
 *     }
 *     then adjust ci->top for LUA_MULTRET results as lua_callk does.
 *
 * After a yield, lua_resume calls k(L, LUA_YIELD, ctx); after an error
 * inside a CIST_YPCALL frame of a coroutine, it closes that call's tbc
 * slots, puts the error object at funcidx, restores errfunc and allowhook
 * from the fields above and calls k(L, status, ctx). */

#endif
