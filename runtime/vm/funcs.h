/*
 * funcs.h — prototypes, closures, upvalues and to-be-closed variables
 * (funcs.c).
 */
#ifndef TIDE_VM_FUNCS_H
#define TIDE_VM_FUNCS_H

#include "state.h"

/* Special status of func_close: close upvalues only, do not call __close. */
#define CLOSEKTOP (-1)

TIDE_INTERNAL Proto *func_newproto(lua_State *L);
TIDE_INTERNAL void func_freeproto(lua_State *L, Proto *f); /* collector: free the arrays */
TIDE_INTERNAL size_t func_protosize(const Proto *f);       /* bytes of the arrays */
TIDE_INTERNAL CClosure *func_newCclosure(lua_State *L, int nupvals);
TIDE_INTERNAL LClosure *func_newLclosure(lua_State *L, int nupvals);
/* Give closure [cl] fresh closed upvalues holding nil. */
TIDE_INTERNAL void func_initupvals(lua_State *L, LClosure *cl);
/* The open upvalue for stack slot [level], created if needed. */
TIDE_INTERNAL UpVal *func_findupval(lua_State *L, StkId level);
/* Close open upvalues at or above [level] (copy the value in). */
TIDE_INTERNAL void func_closeupval(lua_State *L, StkId level);
/* Mark slot [level] to-be-closed (error "variable '%s' got a non-closable value"). */
TIDE_INTERNAL void func_newtbcupval(lua_State *L, StkId level);
/* Close upvalues and call __close of tbc variables at or above [level],
 * with error object [status] (LUA_OK for a normal exit, CLOSEKTOP for
 * upvalues only). [yy]: the __close calls may yield. Returns the (possibly
 * reallocated) level. */
TIDE_INTERNAL StkId func_close(lua_State *L, StkId level, int status, int yy);
/* (calls.c engineer, clarifying:) with LUA_OK (or LUA_YIELD) each __close
 * gets nil as its error and runs above the current L->top, which func_close
 * leaves as it is (so values above [level], e.g. results being returned,
 * survive); with an error status the error object (call_seterrorobj) is
 * put at the slot just above each variable closed, L->top just above it,
 * and passed to __close. CLOSEKTOP behaves as LUA_OK: it closes the
 * upvalues and, if any tbc variable lies at or above [level] (never the
 * case for a caller that means "upvalues only"), closes it with a nil
 * error too, as Lua 5.4.6's lua_settop/lua_closeslot expect; leaving such a
 * variable in the tbc list would leave the list pointing above the top. */
/* Remove the topmost tbc variable from the list (after it was closed). */
TIDE_INTERNAL void func_unlinkupval(UpVal *uv);
/* (calls.c engineer, clarifying:) func_unlinkupval takes an open upvalue
 * out of its thread's list of open upvalues (L->openupval), e.g. for the
 * collector freeing a dead open upvalue; tbc variables are popped by
 * func_close itself. */
/* Name of local [local_number] (1-based) active at [pc], or NULL. */
TIDE_INTERNAL const char *func_getlocalname(const Proto *f, int local_number, int pc);

#endif
