/*
 * debuginfo.h — debug information and runtime errors (debuginfo.c).
 * lua_getstack, lua_getinfo, lua_getlocal, lua_setlocal, lua_sethook,
 * lua_gethook, lua_gethookmask, lua_gethookcount are implemented there.
 *
 * Runtime errors carry the position of the running Lua function
 * ("chunk:line: message") and, for operations on bad values, the variable
 * the value came from ("attempt to index a nil value (global 'x')"), found
 * by reading the bytecode backwards from the failing instruction.
 */
#ifndef TIDE_VM_DEBUGINFO_H
#define TIDE_VM_DEBUGINFO_H

#include "state.h"

#define pcRel(pc, p) ((int)((pc) - (p)->code) - 1)
#define ci_func_proto(ci) (ci_func(ci)->p)

/* The line of instruction [pc] of [f], -1 if unknown. */
TIDE_INTERNAL int dbg_getfuncline(const Proto *f, int pc);
TIDE_INTERNAL int dbg_currentline(CallInfo *ci);

TIDE_INTERNAL _Noreturn void dbg_typeerror(lua_State *L, const TValue *o, const char *opname);
TIDE_INTERNAL _Noreturn void dbg_callerror(lua_State *L, const TValue *o);
TIDE_INTERNAL _Noreturn void dbg_forerror(lua_State *L, const TValue *o, const char *what);
TIDE_INTERNAL _Noreturn void dbg_concaterror(lua_State *L, const TValue *p1, const TValue *p2);
TIDE_INTERNAL _Noreturn void dbg_opinterror(lua_State *L, const TValue *p1, const TValue *p2, const char *msg);
TIDE_INTERNAL _Noreturn void dbg_tointerror(lua_State *L, const TValue *p1, const TValue *p2);
TIDE_INTERNAL _Noreturn void dbg_ordererror(lua_State *L, const TValue *p1, const TValue *p2);
/* Format a message, add the current position, raise LUA_ERRRUN. */
TIDE_INTERNAL _Noreturn void dbg_runerror(lua_State *L, const char *fmt, ...);
/* Push "src:line: msg" and return it. */
TIDE_INTERNAL const char *dbg_addinfo(lua_State *L, const char *msg, TString *src, int line);
/* Raise LUA_ERRRUN with the value on top, through the message handler. */
TIDE_INTERNAL _Noreturn void dbg_errormsg(lua_State *L);
/* Line and count hooks before instruction [pc]; returns nonzero when the
 * VM must refresh its trap (hooks still on). */
TIDE_INTERNAL int dbg_traceexec(lua_State *L, const Instruction *pc);
/* The name of the function called from [ci] (for messages, getinfo 'n'). */
TIDE_INTERNAL const char *dbg_funcnamefromcall(lua_State *L, CallInfo *ci, const char **name);

#endif
