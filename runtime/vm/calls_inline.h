/*
 * calls_inline.h — the call-path fast helpers that calls.c and vm.c share
 * (private to those two files).
 */
#ifndef TIDE_VM_CALLS_INLINE_H
#define TIDE_VM_CALLS_INLINE_H

#include "calls.h"

/* The CallInfo after L->ci, reused from an earlier call or new, made the
 * running one. Its fields are stale: the caller sets all it uses. */
static inline CallInfo *calls_pushci(lua_State *L)
{
    CallInfo *ci = L->ci->next;
    if (ci == NULL) ci = state_extendci(L);
    L->ci = ci;
    return ci;
}

/* Enter the Lua function in slot [func], its arguments up to L->top: a
 * frame of maxstacksize registers with the missing parameters nil. The
 * caller runs it (vm_execute). May grow the stack. */
static inline CallInfo *calls_enterlua(lua_State *L, StkId func, int nresults)
{
    int fsize = clLvalue(s2v(func))->p->maxstacksize;
    if (luai_unlikely(L->stack_last - L->top <= fsize)) {
        ptrdiff_t funcoff = stack_save(L, func);
        call_growstack(L, fsize, 1);
        func = stack_restore(L, funcoff);
    }
    const Proto *p = clLvalue(s2v(func))->p;
    int narg = (int)(L->top - func) - 1;
    CallInfo *ci = calls_pushci(L);
    ci->func = func;
    ci->top = func + 1 + fsize;
    stack_note_top(L, ci->top);
    ci->nresults = (short)nresults;
    ci->callstatus = 0;
    ci->u.l.savedpc = p->code;
    ci->u.l.trap = 0;
    for (; narg < p->numparams; narg++) setnilvalue(s2v(L->top++));
    return ci;
}

#endif
