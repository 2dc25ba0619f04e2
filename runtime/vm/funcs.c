/*
 * funcs.c — prototypes, closures, upvalues and to-be-closed variables.
 *
 * Open upvalues: every thread keeps the upvalues that still point into its
 * stack in L->openupval, sorted by stack slot, highest first, at most one
 * per slot (closures that capture the same local share it). Closing copies
 * the value into the upvalue and points v at that copy.
 *
 * To-be-closed variables: a list threaded through the stack itself. Each
 * tbc slot records in tbc.delta its distance to the previous one below;
 * L->tbclist is the topmost; the list is empty when it points at the stack's
 * first slot. A distance too large for 16 bits is bridged by dummy entries
 * (delta 0) every USHRT_MAX slots.
 */
#include <limits.h>
#include <string.h>

#include "funcs.h"
#include "calls.h"
#include "debuginfo.h"
#include "metamethods.h"
#include "../gc/gc.h"

#define TBC_MAXDELTA USHRT_MAX

/* --- prototypes ------------------------------------------------------------- */

Proto *func_newproto(lua_State *L)
{
    /* gc_new zeroes the object: every array NULL, every size 0. */
    return (Proto *)gc_new(L, VPROTO, sizeof(Proto));
}

size_t func_protosize(const Proto *f)
{
    size_t n = (size_t)f->sizecode * sizeof(Instruction);
    n += (size_t)f->sizek * sizeof(TValue);
    n += (size_t)f->sizep * sizeof(Proto *);
    n += (size_t)f->sizeupvalues * sizeof(Upvaldesc);
    n += (size_t)f->sizelocvars * sizeof(LocVar);
    if (f->lineinfo != NULL) n += (size_t)f->sizecode * sizeof(int);
    return n;
}

void func_freeproto(lua_State *L, Proto *f)
{
    /* lineinfo has one entry per instruction, or is NULL when stripped. */
    if (f->code) gc_raw_freevector(L, f->code, f->sizecode, Instruction);
    if (f->lineinfo) gc_raw_freevector(L, f->lineinfo, f->sizecode, int);
    if (f->k) gc_raw_freevector(L, f->k, f->sizek, TValue);
    if (f->p) gc_raw_freevector(L, f->p, f->sizep, Proto *);
    if (f->upvalues) gc_raw_freevector(L, f->upvalues, f->sizeupvalues, Upvaldesc);
    if (f->locvars) gc_raw_freevector(L, f->locvars, f->sizelocvars, LocVar);
    f->code = NULL;
    f->lineinfo = NULL;
    f->k = NULL;
    f->p = NULL;
    f->upvalues = NULL;
    f->locvars = NULL;
}

/* --- closures ----------------------------------------------------------------- */

CClosure *func_newCclosure(lua_State *L, int nupvals)
{
    /* Zeroed upvalues are nil (VNIL is tag 0). */
    CClosure *c = (CClosure *)gc_new(L, withvariant(VCCL), sizeCclosure(nupvals));
    c->nupvalues = (uint8_t)nupvals;
    return c;
}

LClosure *func_newLclosure(lua_State *L, int nupvals)
{
    LClosure *c = (LClosure *)gc_new(L, withvariant(VLCL), sizeLclosure(nupvals));
    c->nupvalues = (uint8_t)nupvals;
    return c;
}

static UpVal *new_closed_upval(lua_State *L)
{
    UpVal *uv = (UpVal *)gc_new(L, VUPVAL, sizeof(UpVal));
    uv->v = &uv->u.value;
    setnilvalue(uv->v);
    return uv;
}

void func_initupvals(lua_State *L, LClosure *cl)
{
    /* Slots a loader already filled keep their (fresh, nil) upvalue. */
    for (int i = 0; i < cl->nupvalues; i++) {
        if (cl->upvals[i] != NULL) continue;
        UpVal *uv = new_closed_upval(L);
        cl->upvals[i] = uv;
        gc_objbarrier(L, cl, uv);
    }
}

/* --- open upvalues -------------------------------------------------------------- */

/* The upvalue that holds the link [pp], or NULL when the link is the list
 * head in the thread. */
static UpVal *link_owner(lua_State *L, UpVal **pp)
{
    if (pp == &L->openupval) return NULL;
    return (UpVal *)(void *)((char *)pp - offsetof(UpVal, u.open.next));
}

static UpVal *new_open_upval(lua_State *L, StkId level)
{
    UpVal *uv = (UpVal *)gc_new(L, VUPVAL, sizeof(UpVal));
    /* Find the insertion point only now: the allocation may have run a
     * collection that moved the upvalues of the list. */
    UpVal **pp = &L->openupval;
    UpVal *next;
    while ((next = *pp) != NULL && upval_level(next) > level) pp = &next->u.open.next;
    uv->v = s2v(level);
    uv->u.open.next = next;
    uv->u.open.previous = pp;
    if (next != NULL) {
        next->u.open.previous = &uv->u.open.next;
        gc_objbarrier(L, next, uv);
    }
    *pp = uv;
    UpVal *owner = link_owner(L, pp);
    if (owner != NULL) gc_objbarrier(L, owner, uv);
    return uv;
}

UpVal *func_findupval(lua_State *L, StkId level)
{
    for (UpVal *p = L->openupval; p != NULL && upval_level(p) >= level; p = p->u.open.next)
        if (upval_level(p) == level) return p;
    return new_open_upval(L, level);
}

void func_unlinkupval(UpVal *uv)
{
    lua_assert(upval_isopen(uv));
    *uv->u.open.previous = uv->u.open.next;
    if (uv->u.open.next != NULL) uv->u.open.next->u.open.previous = uv->u.open.previous;
}

void func_closeupval(lua_State *L, StkId level)
{
    UpVal *uv;
    /* The list is sorted highest first, so the ones to close are at its head. */
    while ((uv = L->openupval) != NULL && upval_level(uv) >= level) {
        UpVal *next = uv->u.open.next;
        TValue *from = uv->v;
        L->openupval = next;
        if (next != NULL) next->u.open.previous = &L->openupval;
        setobj(L, &uv->u.value, from); /* overwrites the open links (a union) */
        uv->v = &uv->u.value;
        gc_barrier(L, uv, uv->v);
    }
}

/* --- to-be-closed variables ------------------------------------------------------- */

/* The name of the variable in slot [level] of the running function, for
 * the message of a non-closable value. */
static const char *tbc_varname(lua_State *L, StkId level)
{
    CallInfo *ci = L->ci;
    if (!isLua(ci)) return "(C temporary)";
    const Proto *p = ci_func(ci)->p;
    const char *name = func_getlocalname(p, (int)(level - ci->func), pcRel(ci->u.l.savedpc, p));
    return name != NULL ? name : "(temporary)";
}

void func_newtbcupval(lua_State *L, StkId level)
{
    lua_assert(level > L->tbclist);
    if (l_isfalse(s2v(level))) return; /* false and nil need no closing */
    if (ttisnil(tm_getbyobj(L, s2v(level), TM_CLOSE)))
        dbg_runerror(L, "variable '%s' got a non-closable value", tbc_varname(L, level));
    while ((size_t)(level - L->tbclist) > TBC_MAXDELTA) {
        L->tbclist += TBC_MAXDELTA; /* a dummy entry bridges the gap */
        L->tbclist->tbc.delta = 0;
    }
    level->tbc.delta = (uint16_t)(level - L->tbclist);
    L->tbclist = level;
}

/* Drop the topmost tbc entry (and the dummies below it). */
static void pop_tbclist(lua_State *L)
{
    StkId tbc = L->tbclist;
    lua_assert(tbc->tbc.delta > 0);
    tbc -= tbc->tbc.delta;
    while (tbc > L->stack && tbc->tbc.delta == 0) tbc -= TBC_MAXDELTA;
    L->tbclist = tbc;
}

/* Call __close(obj, err) at L->top. */
static void call_close_method(lua_State *L, const TValue *obj, const TValue *err, int yy)
{
    StkId top = L->top;
    const TValue *tm = tm_getbyobj(L, obj, TM_CLOSE);
    setobj2s(L, top, tm);
    setobj2s(L, top + 1, obj);
    setobj2s(L, top + 2, err);
    L->top = top + 3;
    if (yy)
        call_call(L, top, 0);
    else
        call_callnoyield(L, top, 0);
}

static void close_variable(lua_State *L, StkId level, int status, int yy)
{
    if (status == LUA_OK || status == LUA_YIELD || status == CLOSEKTOP) {
        TValue nilerr = {0}; /* the payload too: it is copied */
        setnilvalue(&nilerr);
        if (L->top <= level) L->top = level + 1; /* never call over the variable */
        call_close_method(L, s2v(level), &nilerr, yy);
    } else {
        call_seterrorobj(L, status, level + 1); /* L->top = level + 2 */
        call_close_method(L, s2v(level), s2v(level + 1), yy);
    }
}

StkId func_close(lua_State *L, StkId level, int status, int yy)
{
    ptrdiff_t leveloff = stack_save(L, level);
    func_closeupval(L, level);
    while (L->tbclist >= level) {
        StkId tbc = L->tbclist;
        pop_tbclist(L); /* before the call: an error there must not close it again */
        close_variable(L, tbc, status, yy);
        level = stack_restore(L, leveloff);
    }
    return level;
}

/* --- debug information -------------------------------------------------------------- */

const char *func_getlocalname(const Proto *f, int local_number, int pc)
{
    for (int i = 0; i < f->sizelocvars && f->locvars[i].startpc <= pc; i++) {
        if (pc < f->locvars[i].endpc) { /* active at pc */
            if (--local_number == 0)
                return f->locvars[i].varname != NULL ? getstr(f->locvars[i].varname) : NULL;
        }
    }
    return NULL;
}
