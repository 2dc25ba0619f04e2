/*
 * value.h — what a Lua value is inside libtide.
 *
 * A value is 16 bytes: an 8-byte payload and a one-byte tag. 64-bit integers
 * must round-trip unchanged, which is why this is a tagged union and not
 * NaN-boxing.
 *
 * Tag layout (one byte):
 *   bits 0-3  the basic type, LUA_TNIL .. LUA_TTHREAD, or an internal type
 *             (TIDE_TPROTO, TIDE_TUPVAL, TIDE_TPART) that never appears in a
 *             value a script can see
 *   bits 4-5  the variant (integer/float, short/long string, Lua closure /
 *             light C function / C closure, false/true, nil/empty/absent key)
 *   bit  6    set when the payload is a pointer to a collectable object
 *
 * Invariant: a value whose tag has BIT_COLLECTABLE holds, in v.gc, a pointer
 * to a live object whose header type equals the tag without that bit
 * (value_check in debug builds).
 */
#ifndef TIDE_VM_VALUE_H
#define TIDE_VM_VALUE_H

#include <stdint.h>
#include <stddef.h>
#include "lua.h"

typedef struct GCObject GCObject;

/* Internal types, after the nine of lua.h (LUA_NUMTYPES == 9). */
#define TIDE_TPROTO LUA_NUMTYPES         /* 9: a function prototype */
#define TIDE_TUPVAL (LUA_NUMTYPES + 1)   /* 10: an upvalue */
#define TIDE_TPART (LUA_NUMTYPES + 2)    /* 11: storage of a table (array or hash part) */

#define make_variant(t, v) ((t) | ((v) << 4))
#define BIT_COLLECTABLE (1 << 6)
#define collectable(t) ((t) | BIT_COLLECTABLE)

/* Nil has three variants: the value nil; an empty table slot (absent from a
 * table, distinct so the table code can tell "no entry" from "nil stored",
 * which never happens: storing nil empties the slot); and the "absent key"
 * result that table lookups return for a missing key. Only the first is
 * ever seen by scripts or the API. */
#define VNIL make_variant(LUA_TNIL, 0)
#define VEMPTY make_variant(LUA_TNIL, 1)
#define VABSTKEY make_variant(LUA_TNIL, 2)

#define VFALSE make_variant(LUA_TBOOLEAN, 0)
#define VTRUE make_variant(LUA_TBOOLEAN, 1)

#define VLIGHTUSERDATA make_variant(LUA_TLIGHTUSERDATA, 0)
#define VUSERDATA collectable(make_variant(LUA_TUSERDATA, 0))

#define VNUMINT make_variant(LUA_TNUMBER, 0)
#define VNUMFLT make_variant(LUA_TNUMBER, 1)

#define VSHRSTR collectable(make_variant(LUA_TSTRING, 0))
#define VLNGSTR collectable(make_variant(LUA_TSTRING, 1))

#define VTABLE collectable(make_variant(LUA_TTABLE, 0))

#define VLCL collectable(make_variant(LUA_TFUNCTION, 0)) /* Lua closure */
#define VLCF make_variant(LUA_TFUNCTION, 1)              /* light C function */
#define VCCL collectable(make_variant(LUA_TFUNCTION, 2)) /* C closure */

#define VTHREAD collectable(make_variant(LUA_TTHREAD, 0))

/* Tags of internal objects, as stored in their headers. */
#define VPROTO make_variant(TIDE_TPROTO, 0)
#define VUPVAL make_variant(TIDE_TUPVAL, 0)
#define VPART make_variant(TIDE_TPART, 0)

typedef union Value {
    GCObject *gc;    /* collectable objects */
    void *p;         /* light userdata */
    lua_CFunction f; /* light C functions */
    lua_Integer i;   /* integers */
    lua_Number n;    /* floats */
} Value;

typedef struct TValue {
    Value v;
    uint8_t tt; /* the tag, with the collectable bit */
} TValue;

/*
 * A slot of a thread's stack. It is a TValue, plus, in the padding after the
 * tag, the link of the list of to-be-closed variables: tbc_delta is the
 * distance (in slots) to the previous to-be-closed slot below this one, or 0.
 * Copying a value into a stack slot copies v and tt only, never tbc_delta.
 */
typedef union StackValue {
    TValue val;
    struct {
        Value v;
        uint8_t tt;
        uint16_t delta;
    } tbc;
} StackValue;

/* A pointer to a stack slot. Stack slots are addressed by pointer inside a
 * function that cannot reallocate the stack, and by offset
 * (stack_save/stack_restore in state.h) across anything that can. */
typedef StackValue *StkId;

#define s2v(o) (&(o)->val)

/* --- tags ---------------------------------------------------------------- */

#define rawtt(o) ((o)->tt)
#define novariant(t) ((t) & 0x0F)    /* basic type */
#define withvariant(t) ((t) & 0x3F)  /* type and variant, no collectable bit */
#define ttypetag(o) withvariant(rawtt(o))
#define ttype(o) (novariant(rawtt(o)))

#define checktag(o, t) (rawtt(o) == (t))
#define checktype(o, t) (ttype(o) == (t))
#define iscollectable(o) (rawtt(o) & BIT_COLLECTABLE)

#define ttisnil(o) checktype((o), LUA_TNIL)
#define ttisstrictnil(o) checktag((o), VNIL)
#define isabstkey(o) checktag((o), VABSTKEY)
#define isempty(o) ttisnil(o)

#define ttisboolean(o) checktype((o), LUA_TBOOLEAN)
#define ttisfalse(o) checktag((o), VFALSE)
#define ttistrue(o) checktag((o), VTRUE)
/* Lua's falsity: nil (any variant) and false. */
#define l_isfalse(o) (ttisfalse(o) || ttisnil(o))

#define ttisnumber(o) checktype((o), LUA_TNUMBER)
#define ttisinteger(o) checktag((o), VNUMINT)
#define ttisfloat(o) checktag((o), VNUMFLT)
#define ttisstring(o) checktype((o), LUA_TSTRING)
#define ttisshrstring(o) checktag((o), VSHRSTR)
#define ttislngstring(o) checktag((o), VLNGSTR)
#define ttistable(o) checktag((o), VTABLE)
#define ttisfunction(o) checktype((o), LUA_TFUNCTION)
#define ttisLclosure(o) checktag((o), VLCL)
#define ttislcf(o) checktag((o), VLCF)
#define ttisCclosure(o) checktag((o), VCCL)
#define ttisclosure(o) (ttisLclosure(o) || ttisCclosure(o))
#define ttislightuserdata(o) checktag((o), VLIGHTUSERDATA)
#define ttisfulluserdata(o) checktag((o), VUSERDATA)
#define ttisthread(o) checktag((o), VTHREAD)

/* --- payload access (no checks; debug builds assert the tag) -------------- */

#define ivalue(o) ((o)->v.i)
#define fltvalue(o) ((o)->v.n)
#define nvalue(o) (ttisinteger(o) ? (lua_Number)ivalue(o) : fltvalue(o))
#define pvalue(o) ((o)->v.p)
#define fvalue(o) ((o)->v.f)
#define gcvalue(o) ((o)->v.gc)
#define tsvalue(o) ((TString *)gcvalue(o))
#define hvalue(o) ((Table *)gcvalue(o))
#define clLvalue(o) ((LClosure *)gcvalue(o))
#define clCvalue(o) ((CClosure *)gcvalue(o))
#define uvalue(o) ((Udata *)gcvalue(o))
#define thvalue(o) ((lua_State *)gcvalue(o))

/* --- setting values (stores into the stack or into fresh objects only; a
 * store into a heap object goes through gc_barrier, see gc/gc.h) --------- */

#define settt_(o, t) ((o)->tt = (uint8_t)(t))
#define setnilvalue(o) settt_((o), VNIL)
#define setempty(o) settt_((o), VEMPTY)
#define setfalse(o) settt_((o), VFALSE)
#define settrue(o) settt_((o), VTRUE)
#define setbvalue(o, b) ((b) ? settrue(o) : setfalse(o))
#define setivalue(o, x) ((void)((o)->v.i = (x)), settt_((o), VNUMINT))
#define setfltvalue(o, x) ((void)((o)->v.n = (x)), settt_((o), VNUMFLT))
#define setpvalue(o, x) ((void)((o)->v.p = (x)), settt_((o), VLIGHTUSERDATA))
#define setfvalue(o, x) ((void)((o)->v.f = (x)), settt_((o), VLCF))
#define setgcovalue(o, x, tag) ((void)((o)->v.gc = (GCObject *)(x)), settt_((o), (tag)))
#define setsvalue(L, o, s) ((void)(L), setgcovalue((o), (s), ((GCObject *)(s))->tt | BIT_COLLECTABLE))
#define sethvalue(L, o, h) ((void)(L), setgcovalue((o), (h), VTABLE))
#define setclLvalue(L, o, c) ((void)(L), setgcovalue((o), (c), VLCL))
#define setclCvalue(L, o, c) ((void)(L), setgcovalue((o), (c), VCCL))
#define setuvalue(L, o, u) ((void)(L), setgcovalue((o), (u), VUSERDATA))
#define setthvalue(L, o, t) ((void)(L), setgcovalue((o), (t), VTHREAD))

/* Copy a value. Into a heap object: use gc_barrier after it. */
#define setobj(L, o1, o2) ((void)(L), (o1)->v = (o2)->v, (o1)->tt = (o2)->tt)
/* Copy into a stack slot (no barrier: stacks are roots, rescanned). */
#define setobj2s(L, o1, o2) setobj((L), s2v(o1), (o2))
#define setobjs2s(L, o1, o2) setobj((L), s2v(o1), s2v(o2))

/* Float keys and numbers: is [n] an integral float that fits lua_Integer? */
#define TIDE_MAXINTEGER_FLT 9223372036854775808.0 /* 2^63 */

#endif
