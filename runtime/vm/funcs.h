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
/* Remove the topmost tbc variable from the list (after it was closed). */
TIDE_INTERNAL void func_unlinkupval(UpVal *uv);
/* Name of local [local_number] (1-based) active at [pc], or NULL. */
TIDE_INTERNAL const char *func_getlocalname(const Proto *f, int local_number, int pc);

#endif
