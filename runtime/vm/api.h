/*
 * api.h — checks shared by the files that implement lua.h (api.c, state.c,
 * debuginfo.c). Private to those three.
 *
 * The checks cost nothing in a release build: luai_apicheck (luaconf.h) is
 * an assertion only with TIDE_DEBUG, LUAI_ASSERT or LUA_USE_APICHECK. The
 * manual lets an implementation trust its caller; these catch the misuse
 * (a bad index, a push without room) in debug builds, where it is cheap.
 */
#ifndef TIDE_VM_API_H
#define TIDE_VM_API_H

#include "state.h"

/* [e] must hold; [msg] says what the caller got wrong. */
#define api_check(L, e, msg) luai_apicheck(L, (e) && (msg))

/* One more value pushed: the C function promised (lua_checkstack, or the
 * LUA_MINSTACK slots every call gets) that it fits below ci->top. */
#define api_incr_top(L) \
    ((L)->top++, api_check(L, (L)->top <= (L)->ci->top, "stack overflow"))

/* At least [n] values above the running function. */
#define api_checknelems(L, n) \
    api_check(L, (n) < ((L)->top - (L)->ci->func), "not enough elements in the stack")

/* The largest lua_upvalueindex a C function may use. */
#define API_MAXUPVAL 255

#endif
