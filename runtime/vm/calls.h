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

#endif
