/*
 * vm.c — the interpreter: a register machine over the instruction set of
 * opcodes.h, and the operations on values it shares with the API
 * (comparison, indexing with metamethods, concatenation, length).
 *
 * The loop keeps the running frame in locals: [ci], its closure [cl], the
 * constants [k], the register base [base] and the program counter [pc].
 * Invariants of the loop:
 *  - [cl] may move (the nursery copies closures): while the loop's frame is
 *    a precise window (precise_begin) the collector does not see the local,
 *    so [cl] is reloaded from the stack after every window; elsewhere the
 *    conservative scan pins it.
 *  - Before anything that can raise an error, call a function or collect,
 *    pc is saved in ci->u.l.savedpc (errors and tracebacks read it, and a
 *    resume after a yield continues from it). "Protect" does that, sets
 *    L->top to the frame's top (so that a call made from there starts above
 *    every live register), and afterwards reloads [base] (the stack may
 *    have moved) and [trap].
 *  - Instructions that consume a variable number of values (B == 0 forms
 *    of CALL, RETURN, SETLIST) find their end in L->top, left there by the
 *    instruction before them (CALL/VARARG with C == 0); nothing in between
 *    touches L->top.
 *  - [trap] mirrors ci->u.l.trap: set when hooks are on or the stack moved.
 *    When set, every instruction first goes through the hook logic
 *    (dbg_traceexec) and reloads base. It is re-read after calls and
 *    backward jumps, so that a hook set asynchronously (a signal handler
 *    calling lua_sethook) is seen inside loops.
 *
 * Arithmetic follows the manual: integer operations wrap around (computed
 * on unsigned values), "/" and "^" are float, "//" and "%" floor. The fast
 * paths handle numbers only; everything else (strings included: the string
 * library's metatable converts them) falls into the MMBIN* instruction
 * that follows every arithmetic instruction.
 */
#include <math.h>
#include <string.h>

#include "vm.h"
#include "calls.h"
#include "calls_inline.h"
#include "conv.h"
#include "debuginfo.h"
#include "funcs.h"
#include "metamethods.h"
#include "opcodes.h"
#include "strings.h"
#include "tables.h"
#include "../gc/gc.h"

/* Limit of __index / __newindex chains that are tables. */
#define MAX_TAG_LOOP 2000

#define likely_(x) luai_likely(x)
#define unlikely_(x) luai_unlikely(x)

/* =========================================================================
 * Number helpers
 */

/* Integers in [-2^53, 2^53] convert to floats exactly. */
#define INT_FITS_FLOAT_LIMIT ((lua_Unsigned)1 << 53)
#define int_fits_float(i) ((INT_FITS_FLOAT_LIMIT + (lua_Unsigned)(i)) <= 2 * INT_FITS_FLOAT_LIMIT)

#define intop(op, a, b) ((lua_Integer)((lua_Unsigned)(a) op (lua_Unsigned)(b)))

/* Value as a float, for numbers only (no string coercion). */
#define tonumberns(o, n) \
    (ttisfloat(o) ? ((n) = fltvalue(o), 1) : ttisinteger(o) ? ((n) = (lua_Number)ivalue(o), 1) : 0)

/* Value as an integer, for integers and integral floats only. */
#define tointegerns(o, p) \
    (likely_(ttisinteger(o)) ? (*(p) = ivalue(o), 1) : conv_tointegerns((o), (p), F2Ieq))

static inline lua_Integer vm_shiftl(lua_Integer x, lua_Integer y)
{
    if (y < 0) {
        if (y <= -64) return 0;
        return (lua_Integer)((lua_Unsigned)x >> (unsigned)(-y));
    }
    if (y >= 64) return 0;
    return (lua_Integer)((lua_Unsigned)x << (unsigned)y);
}
/* x >> y; negating through unsigned keeps LUA_MININTEGER defined */
#define vm_shiftr(x, y) vm_shiftl((x), (lua_Integer)(0u - (lua_Unsigned)(y)))

/* Floor modulo and division; the slow cases (zero, negative divisors)
 * and their errors are conv.c's. */
static inline lua_Integer vm_imod(lua_State *L, lua_Integer m, lua_Integer n)
{
    if (likely_(n > 0)) {
        lua_Integer r = m % n;
        return r < 0 ? r + n : r;
    }
    return conv_mod(L, m, n);
}

static inline lua_Integer vm_iidiv(lua_State *L, lua_Integer m, lua_Integer n)
{
    if (likely_(n > 0)) {
        lua_Integer q = m / n;
        return (m % n < 0) ? q - 1 : q;
    }
    return conv_idiv(L, m, n);
}

/* The operations of the arithmetic instructions, uniform in shape. */
#define op_iadd(L, a, b) ((void)(L), intop(+, a, b))
#define op_isub(L, a, b) ((void)(L), intop(-, a, b))
#define op_imul(L, a, b) ((void)(L), intop(*, a, b))
#define op_imod(L, a, b) vm_imod(L, a, b)
#define op_iidiv(L, a, b) vm_iidiv(L, a, b)
#define op_fadd(L, a, b) ((void)(L), (a) + (b))
#define op_fsub(L, a, b) ((void)(L), (a) - (b))
#define op_fmul(L, a, b) ((void)(L), (a) * (b))
#define op_fdiv(L, a, b) ((void)(L), (a) / (b))
#define op_fpow(L, a, b) ((void)(L), (b) == 2 ? (a) * (a) : pow((a), (b)))
#define op_fidiv(L, a, b) ((void)(L), floor((a) / (b)))
#define op_fmod(L, a, b) conv_modf(L, a, b)
#define op_band(a, b) intop(&, a, b)
#define op_bor(a, b) intop(|, a, b)
#define op_bxor(a, b) intop(^, a, b)

/* --- exact comparisons between integers and floats ----------------------- */

static inline int lt_int_flt(lua_Integer i, lua_Number f)
{
    if (int_fits_float(i)) return (lua_Number)i < f;
    lua_Integer fi; /* i < f  <=>  i < ceil(f) */
    if (conv_flttointns(f, &fi, F2Iceil)) return i < fi;
    return f > 0; /* f is out of the integer range (or NaN) */
}

static inline int le_int_flt(lua_Integer i, lua_Number f)
{
    if (int_fits_float(i)) return (lua_Number)i <= f;
    lua_Integer fi; /* i <= f  <=>  i <= floor(f) */
    if (conv_flttointns(f, &fi, F2Ifloor)) return i <= fi;
    return f > 0;
}

static inline int lt_flt_int(lua_Number f, lua_Integer i)
{
    if (int_fits_float(i)) return f < (lua_Number)i;
    lua_Integer fi; /* f < i  <=>  floor(f) < i */
    if (conv_flttointns(f, &fi, F2Ifloor)) return fi < i;
    return f < 0;
}

static inline int le_flt_int(lua_Number f, lua_Integer i)
{
    if (int_fits_float(i)) return f <= (lua_Number)i;
    lua_Integer fi; /* f <= i  <=>  ceil(f) <= i */
    if (conv_flttointns(f, &fi, F2Iceil)) return fi <= i;
    return f < 0;
}

static inline int lt_num(const TValue *l, const TValue *r)
{
    if (ttisinteger(l)) {
        lua_Integer li = ivalue(l);
        return ttisinteger(r) ? li < ivalue(r) : lt_int_flt(li, fltvalue(r));
    }
    lua_Number lf = fltvalue(l);
    return ttisfloat(r) ? lf < fltvalue(r) : lt_flt_int(lf, ivalue(r));
}

static inline int le_num(const TValue *l, const TValue *r)
{
    if (ttisinteger(l)) {
        lua_Integer li = ivalue(l);
        return ttisinteger(r) ? li <= ivalue(r) : le_int_flt(li, fltvalue(r));
    }
    lua_Number lf = fltvalue(l);
    return ttisfloat(r) ? lf <= fltvalue(r) : le_flt_int(lf, ivalue(r));
}

/* =========================================================================
 * Comparison
 */

/* strcoll order of two strings that may contain '\0': compare the pieces
 * between zeros one by one. */
static int str_order(const TString *a, const TString *b)
{
    const char *s1 = getstr(a);
    size_t len1 = tsslen(a);
    const char *s2 = getstr(b);
    size_t len2 = tsslen(b);
    for (;;) {
        int cmp = strcoll(s1, s2);
        if (cmp != 0) return cmp;
        size_t piece1 = strlen(s1), piece2 = strlen(s2);
        if (piece2 == len2) return piece1 == len1 ? 0 : 1; /* b is exhausted */
        if (piece1 == len1) return -1;                     /* a is exhausted */
        piece1++; /* step over the '\0' */
        piece2++;
        s1 += piece1;
        len1 -= piece1;
        s2 += piece2;
        len2 -= piece2;
    }
}

static int lt_others(lua_State *L, const TValue *l, const TValue *r)
{
    if (ttisstring(l) && ttisstring(r)) return str_order(tsvalue(l), tsvalue(r)) < 0;
    return tm_callorder(L, l, r, TM_LT);
}

static int le_others(lua_State *L, const TValue *l, const TValue *r)
{
    if (ttisstring(l) && ttisstring(r)) return str_order(tsvalue(l), tsvalue(r)) <= 0;
    return tm_callorder(L, l, r, TM_LE);
}

int vm_lessthan(lua_State *L, const TValue *l, const TValue *r)
{
    if (ttisnumber(l) && ttisnumber(r)) return lt_num(l, r);
    return lt_others(L, l, r);
}

int vm_lessequal(lua_State *L, const TValue *l, const TValue *r)
{
    if (ttisnumber(l) && ttisnumber(r)) return le_num(l, r);
    return le_others(L, l, r);
}

int vm_equalobj(lua_State *L, const TValue *t1, const TValue *t2)
{
    const TValue *tm;
    if (ttypetag(t1) != ttypetag(t2)) {
        /* different variants: only an integer and a float can be equal */
        if (ttype(t1) != LUA_TNUMBER || ttype(t2) != LUA_TNUMBER) return 0;
        lua_Integer i1, i2;
        return conv_tointegerns(t1, &i1, F2Ieq) && conv_tointegerns(t2, &i2, F2Ieq) && i1 == i2;
    }
    switch (ttypetag(t1)) {
    case VNIL: case VFALSE: case VTRUE:
        return 1;
    case VNUMINT:
        return ivalue(t1) == ivalue(t2);
    case VNUMFLT:
        return fltvalue(t1) == fltvalue(t2);
    case VLIGHTUSERDATA:
        return pvalue(t1) == pvalue(t2);
    case VLCF:
        return fvalue(t1) == fvalue(t2);
    case withvariant(VSHRSTR):
        return eqshrstr(tsvalue(t1), tsvalue(t2));
    case withvariant(VLNGSTR):
        return str_eqlngstr(tsvalue(t1), tsvalue(t2)) != 0;
    case withvariant(VUSERDATA):
        if (uvalue(t1) == uvalue(t2)) return 1;
        if (L == NULL) return 0;
        tm = fasttm(L, uvalue(t1)->metatable, TM_EQ);
        if (tm == NULL) tm = fasttm(L, uvalue(t2)->metatable, TM_EQ);
        break;
    case withvariant(VTABLE):
        if (hvalue(t1) == hvalue(t2)) return 1;
        if (L == NULL) return 0;
        tm = fasttm(L, hvalue(t1)->metatable, TM_EQ);
        if (tm == NULL) tm = fasttm(L, hvalue(t2)->metatable, TM_EQ);
        break;
    default: /* same object? (an identity test, never an order) */
        return gcvalue(t1) == gcvalue(t2);
    }
    if (tm == NULL) return 0;
    tm_callres(L, tm, t1, t2, L->top); /* the result lands just above the top */
    return !l_isfalse(s2v(L->top));
}

/* Raw equality with a constant of the EQK instruction (nil, booleans,
 * numbers, strings): the common cases without a call. */
static inline int equal_constant(const TValue *v, const TValue *kv)
{
    if (rawtt(v) == rawtt(kv)) {
        switch (ttypetag(v)) {
        case VNUMINT: return ivalue(v) == ivalue(kv);
        case VNUMFLT: return fltvalue(v) == fltvalue(kv);
        case withvariant(VSHRSTR): return tsvalue(v) == tsvalue(kv);
        case VNIL: case VFALSE: case VTRUE: return 1;
        default: break;
        }
    }
    return vm_equalobj(NULL, v, kv);
}

/* =========================================================================
 * Indexing
 */

/* The slot of t[n] in table [h]: the array part inline, else the hash part. */
static inline const TValue *int_slot(Table *h, lua_Integer n)
{
    if ((lua_Unsigned)n - 1u < (lua_Unsigned)h->asize) return &h->array[n - 1];
    return tab_getint(h, n);
}

/* The raw slot of h[key] (maybe empty or the absent key). */
static inline const TValue *any_slot(Table *h, const TValue *key)
{
    if (ttisshrstring(key)) return tab_getshortstr(h, tsvalue(key));
    if (ttisinteger(key)) return int_slot(h, ivalue(key));
    return tab_get(h, key);
}

/* The common shapes of a miss in table [h] for the short-string key
 * [key], resolved without vm_finishget: no metatable (the result is nil),
 * or an __index table that has the key (classes and prototypes). Returns
 * the value, &vm_nil for nil, or NULL when vm_finishget must decide. */
static const TValue vm_nil = {{NULL}, VNIL};

static inline const TValue *miss_shortcut(lua_State *L, Table *h, TString *key)
{
    Table *mt = h->metatable;
    if (mt == NULL) return &vm_nil;
    const TValue *tm = fasttm(L, mt, TM_INDEX);
    if (tm == NULL) return &vm_nil;
    if (!ttistable(tm)) return NULL;
    const TValue *slot = tab_getshortstr(hvalue(tm), key);
    if (isempty(slot)) return NULL;
    gc_weak_read(L, hvalue(tm), slot);
    return slot;
}

void vm_finishget(lua_State *L, const TValue *t, TValue *key, StkId val, const TValue *slot)
{
    for (int loop = 0; loop < MAX_TAG_LOOP; loop++) {
        const TValue *tm;
        if (slot == NULL) { /* t is not a table */
            tm = tm_getbyobj(L, t, TM_INDEX);
            if (unlikely_(ttisnil(tm))) dbg_typeerror(L, t, "index");
        } else { /* a table where t[key] is absent */
            lua_assert(isempty(slot));
            tm = fasttm(L, hvalue(t)->metatable, TM_INDEX);
            if (tm == NULL) {
                setnilvalue(s2v(val));
                return;
            }
        }
        if (ttisfunction(tm)) {
            tm_callres(L, tm, t, key, val);
            return;
        }
        t = tm; /* index the __index value in turn */
        if (ttistable(t)) {
            slot = any_slot(hvalue(t), key);
            if (!isempty(slot)) {
                gc_weak_read(L, hvalue(t), slot);
                setobj2s(L, val, slot);
                return;
            }
        } else {
            slot = NULL;
        }
    }
    dbg_runerror(L, "'__index' chain too long; possible loop");
}

void vm_finishset(lua_State *L, const TValue *t, TValue *key, TValue *val, const TValue *slot)
{
    for (int loop = 0; loop < MAX_TAG_LOOP; loop++) {
        const TValue *tm;
        if (slot != NULL) { /* a table where t[key] is absent or nil */
            Table *h = hvalue(t);
            lua_assert(isempty(slot));
            tm = fasttm(L, h->metatable, TM_NEWINDEX);
            if (tm == NULL) { /* a raw store */
                tab_finishset(L, h, key, slot, val); /* (its own barriers) */
                tab_invalidate_tm(h);
                return;
            }
        } else {
            tm = tm_getbyobj(L, t, TM_NEWINDEX);
            if (unlikely_(ttisnil(tm))) dbg_typeerror(L, t, "index");
        }
        if (ttisfunction(tm)) {
            tm_call(L, tm, t, key, val);
            return;
        }
        t = tm; /* assign into the __newindex value in turn */
        if (ttistable(t)) {
            slot = any_slot(hvalue(t), key);
            if (!isempty(slot)) {
                gc_satb_value(L, slot);
                setobj(L, (TValue *)slot, val);
                gc_barrier_back(L, hvalue(t), slot, val);
                return;
            }
        } else {
            slot = NULL;
        }
    }
    dbg_runerror(L, "'__newindex' chain too long; possible loop");
}

void vm_gettable(lua_State *L, const TValue *t, TValue *key, StkId val)
{
    const TValue *slot = NULL;
    if (ttistable(t)) {
        slot = any_slot(hvalue(t), key);
        if (!isempty(slot)) {
            gc_weak_read(L, hvalue(t), slot);
            setobj2s(L, val, slot);
            return;
        }
    }
    vm_finishget(L, t, key, val, slot);
}

void vm_settable(lua_State *L, const TValue *t, TValue *key, TValue *val)
{
    const TValue *slot = NULL;
    if (ttistable(t)) {
        Table *h = hvalue(t);
        slot = any_slot(h, key);
        if (!isempty(slot)) {
            gc_satb_value(L, slot);
            setobj(L, (TValue *)slot, val);
            gc_barrier_back(L, h, slot, val);
            return;
        }
    }
    vm_finishset(L, t, key, val, slot);
}

/* =========================================================================
 * Length and concatenation
 */

void vm_objlen(lua_State *L, StkId ra, const TValue *rb)
{
    const TValue *tm;
    switch (ttypetag(rb)) {
    case withvariant(VTABLE): {
        Table *h = hvalue(rb);
        tm = fasttm(L, h->metatable, TM_LEN);
        if (tm != NULL) break;
        setivalue(s2v(ra), (lua_Integer)tab_getn(h));
        return;
    }
    case withvariant(VSHRSTR):
        setivalue(s2v(ra), tsvalue(rb)->shrlen);
        return;
    case withvariant(VLNGSTR):
        setivalue(s2v(ra), (lua_Integer)tsvalue(rb)->u.lnglen);
        return;
    default:
        tm = tm_getbyobj(L, rb, TM_LEN);
        if (unlikely_(ttisnil(tm))) dbg_typeerror(L, rb, "get length of");
        break;
    }
    tm_callres(L, tm, rb, rb, ra);
}

/* Make the value in [o] a string if it is a number; is it a string now? */
static inline int to_string_in_place(lua_State *L, StkId o)
{
    if (ttisstring(s2v(o))) return 1;
    if (!ttisnumber(s2v(o))) return 0;
    conv_tostring(L, o);
    return 1;
}

#define is_empty_string(o) (ttisshrstring(o) && tsvalue(o)->shrlen == 0)

/* Copy the [n] strings below [top] into [buff], in order. */
static void copy_strings(StkId top, int n, char *buff)
{
    size_t copied = 0;
    do {
        TString *s = tsvalue(s2v(top - n));
        size_t len = tsslen(s);
        memcpy(buff + copied, getstr(s), len);
        copied += len;
    } while (--n > 0);
}

/* Lengths beyond this cannot be allocated anyway. */
#define MAX_STRING_SIZE ((size_t)(PTRDIFF_MAX / 2))

void vm_concat(lua_State *L, int total)
{
    if (total == 1) return;
    do {
        /* Invariant: the [total] operands are the values just below L->top;
         * a __concat call is made with L->top right above its operands
         * (vm_finishop relies on that after a yield). */
        StkId top = L->top;
        int n = 2; /* operands consumed by this step */
        if (!(ttisstring(s2v(top - 2)) || ttisnumber(s2v(top - 2))) || !to_string_in_place(L, top - 1)) {
            tm_trybin(L, s2v(top - 2), s2v(top - 1), top - 2, TM_CONCAT);
        } else if (is_empty_string(s2v(top - 1))) {
            to_string_in_place(L, top - 2); /* the result is the first operand */
        } else if (is_empty_string(s2v(top - 2))) {
            setobjs2s(L, top - 2, top - 1);
        } else {
            /* as many string operands as there are in a row */
            size_t total_len = vslen(s2v(top - 1));
            for (n = 1; n < total && to_string_in_place(L, top - n - 1); n++) {
                size_t len = vslen(s2v(top - n - 1));
                if (unlikely_(len >= MAX_STRING_SIZE - total_len)) {
                    L->top = top - total;
                    dbg_runerror(L, "string length overflow");
                }
                total_len += len;
            }
            TString *ts;
            if (total_len <= TIDE_MAXSHORTLEN) {
                char buff[TIDE_MAXSHORTLEN];
                copy_strings(top, n, buff);
                ts = str_new(L, buff, total_len);
            } else {
                ts = str_createlong(L, total_len);
                /* the operands are read after the allocation: a collection
                 * may have moved them (their stack slots were updated) */
                copy_strings(top, n, getstr(ts));
            }
            setsvalue(L, s2v(top - n), ts);
        }
        total -= n - 1;
        L->top -= n - 1;
    } while (total > 1);
}

/* =========================================================================
 * Numeric for loops
 */

/* The integer limit of an integer loop from [init] with [step]; 1 when the
 * loop must not run at all. A float limit out of the integer range is
 * clipped. */
static int for_limit(lua_State *L, lua_Integer init, const TValue *lim, lua_Integer *p, lua_Integer step)
{
    if (!conv_tointeger(lim, p, step < 0 ? F2Iceil : F2Ifloor)) {
        lua_Number flim;
        if (!conv_tonumber(lim, &flim)) dbg_forerror(L, lim, "limit");
        if (0 < flim) { /* larger than every integer */
            if (step < 0) return 1;
            *p = LUA_MAXINTEGER;
        } else { /* smaller than every integer (or NaN) */
            if (step > 0) return 1;
            *p = LUA_MININTEGER;
        }
    }
    return step > 0 ? init > *p : init < *p;
}

/* FORPREP: check the control values and prepare them; 1 when the loop
 * does not run. An integer loop keeps, in place of its limit, the number of
 * iterations left (unsigned: it never overflows). */
static int for_prepare(lua_State *L, StkId ra)
{
    TValue *pinit = s2v(ra);
    TValue *plimit = s2v(ra + 1);
    TValue *pstep = s2v(ra + 2);
    if (ttisinteger(pinit) && ttisinteger(pstep)) {
        lua_Integer init = ivalue(pinit);
        lua_Integer step = ivalue(pstep);
        lua_Integer limit;
        if (step == 0) dbg_runerror(L, "'for' step is zero");
        setivalue(s2v(ra + 3), init);
        if (for_limit(L, init, plimit, &limit, step)) return 1;
        lua_Unsigned count;
        if (step > 0) {
            count = (lua_Unsigned)limit - (lua_Unsigned)init;
            if (step != 1) count /= (lua_Unsigned)step;
        } else {
            count = (lua_Unsigned)init - (lua_Unsigned)limit;
            /* -(step + 1) + 1 == -step, without negating LUA_MININTEGER */
            count /= (lua_Unsigned)(-(step + 1)) + 1u;
        }
        setivalue(plimit, (lua_Integer)count);
        return 0;
    }
    lua_Number init, flimit, step;
    if (unlikely_(!conv_tonumber(plimit, &flimit))) dbg_forerror(L, plimit, "limit");
    if (unlikely_(!conv_tonumber(pstep, &step))) dbg_forerror(L, pstep, "step");
    if (unlikely_(!conv_tonumber(pinit, &init))) dbg_forerror(L, pinit, "initial value");
    if (step == 0) dbg_runerror(L, "'for' step is zero");
    if (0 < step ? flimit < init : init < flimit) return 1;
    setfltvalue(plimit, flimit);
    setfltvalue(pstep, step);
    setfltvalue(s2v(ra), init);
    setfltvalue(s2v(ra + 3), init);
    return 0;
}

/* FORLOOP of a float loop: 1 to go on. */
static inline int for_float_step(StkId ra)
{
    lua_Number step = fltvalue(s2v(ra + 2));
    lua_Number limit = fltvalue(s2v(ra + 1));
    lua_Number idx = fltvalue(s2v(ra)) + step;
    if (0 < step ? idx <= limit : limit <= idx) {
        s2v(ra)->v.n = idx;
        setfltvalue(s2v(ra + 3), idx);
        return 1;
    }
    return 0;
}

/* =========================================================================
 * Closures and varargs
 */

static void push_closure(lua_State *L, Proto *p, UpVal **encup, StkId base, StkId ra)
{
    int nup = p->sizeupvalues;
    const Upvaldesc *desc = p->upvalues;
    LClosure *ncl = func_newLclosure(L, nup);
    ncl->p = p;
    setclLvalue(L, s2v(ra), ncl); /* anchored before the upvalues allocate */
    /* (a barrier even for the first upvalues, stored before anything else
     * allocates: ncl may be born old, pretenured, and the enclosing
     * closure's upvalues young — gc/nursery.c) */
    for (int j = 0; j < nup; j++) {
        UpVal *uv = desc[j].instack ? func_findupval(L, base + desc[j].idx) : encup[desc[j].idx];
        ncl->upvals[j] = uv;
        gc_objbarrier(L, ncl, uv);
    }
}

/* VARARGPREP: copy the function and its fixed parameters above the extra
 * arguments, so that the frame starts after them. */
static void adjust_varargs(lua_State *L, int nfixparams, CallInfo *ci, int framesize)
{
    int actual = (int)(L->top - ci->func) - 1;
    int nextra = actual - nfixparams;
    ci->u.l.nextraargs = nextra;
    stack_check(L, framesize + 1);
    setobjs2s(L, L->top, ci->func);
    L->top++;
    for (int j = 1; j <= nfixparams; j++) {
        setobjs2s(L, L->top, ci->func + j);
        L->top++;
        setnilvalue(s2v(ci->func + j)); /* no stale copy for the collector */
    }
    ci->func += actual + 1;
    ci->top += actual + 1;
    stack_note_top(L, ci->top);
    lua_assert(L->top <= ci->top && ci->top <= L->stack_last);
}

/* VARARG: [wanted] extra arguments (all of them when negative) to [where]. */
static void get_varargs(lua_State *L, CallInfo *ci, StkId where, int wanted)
{
    int nextra = ci->u.l.nextraargs;
    int j;
    if (wanted < 0) {
        wanted = nextra;
        if (unlikely_(L->stack_last - L->top <= nextra)) {
            ptrdiff_t whereoff = stack_save(L, where);
            call_growstack(L, nextra, 1);
            where = stack_restore(L, whereoff);
        }
        L->top = where + nextra;
        stack_note_top(L, L->top); /* (past the frame's top, for SETLIST or a call) */
    }
    for (j = 0; j < wanted && j < nextra; j++) setobjs2s(L, where + j, ci->func - nextra + j);
    for (; j < wanted; j++) setnilvalue(s2v(where + j));
}

/* =========================================================================
 * Finishing an instruction after a yield
 */

void vm_finishop(lua_State *L)
{
    CallInfo *ci = L->ci;
    StkId base = ci->func + 1;
    Instruction inst = *(ci->u.l.savedpc - 1); /* the interrupted instruction */
    switch (GET_OPCODE(inst)) {
    case OP_MMBIN: case OP_MMBINI: case OP_MMBINK: {
        /* the result goes to the A of the arithmetic instruction before */
        L->top--;
        setobjs2s(L, base + GETARG_A(*(ci->u.l.savedpc - 2)), L->top);
        break;
    }
    case OP_UNM: case OP_BNOT: case OP_LEN:
    case OP_GETTABUP: case OP_GETTABLE: case OP_GETI: case OP_GETFIELD: case OP_SELF:
        L->top--;
        setobjs2s(L, base + GETARG_A(inst), L->top);
        break;
    case OP_LT: case OP_LE: case OP_LTI: case OP_LEI: case OP_GTI: case OP_GEI: case OP_EQ: {
        int res = !l_isfalse(s2v(L->top - 1));
        L->top--;
        if (ci->callstatus & CIST_LEQ) { /* "<=" ran as "not (b < a)" */
            ci->callstatus &= (unsigned short)~CIST_LEQ;
            res = !res;
        }
        lua_assert(GET_OPCODE(*ci->u.l.savedpc) == OP_JMP);
        if (res != GETARG_k(inst)) ci->u.l.savedpc++; /* condition failed: skip the jump */
        break;
    }
    case OP_CONCAT: {
        StkId top = L->top - 1; /* where __concat was called; its result is there */
        int a = GETARG_A(inst);
        int left = (int)(top - 1 - (base + a)); /* operands still to join */
        setobjs2s(L, top - 2, top);
        L->top = top - 1;
        vm_concat(L, left);
        break;
    }
    case OP_CLOSE: /* a __close yielded: redo the instruction for the rest */
        ci->u.l.savedpc--;
        break;
    case OP_RETURN: { /* idem, and the return itself */
        StkId ra = base + GETARG_A(inst);
        L->top = ra + ci->u2.nres;
        ci->u.l.savedpc--;
        break;
    }
    default: /* CALL, TAILCALL, TFORCALL, SET*: nothing left to do */
        break;
    }
}

/* =========================================================================
 * The interpreter loop
 */

#define RA(i) (base + GETARG_A(i))
#define RB(i) (base + GETARG_B(i))
#define vRB(i) s2v(RB(i))
#define KB(i) (k + GETARG_B(i))
#define RC(i) (base + GETARG_C(i))
#define vRC(i) s2v(RC(i))
#define KC(i) (k + GETARG_C(i))
#define RKC(i) (TESTARG_k(i) ? k + GETARG_C(i) : s2v(base + GETARG_C(i)))

#define updatetrap(ci) (trap = (ci)->u.l.trap)
#define updatebase(ci) (base = (ci)->func + 1)
#define savepc() (ci->u.l.savedpc = pc)
#define savestate() (savepc(), L->top = ci->top)

/* Around anything that may raise, call or move the stack. */
#define Protect(exp) do { savestate(); exp; updatetrap(ci); updatebase(ci); } while (0)
/* The same, for operations that read L->top as the previous instruction
 * left it. */
#define ProtectNT(exp) do { savepc(); exp; updatetrap(ci); updatebase(ci); } while (0)
/* For operations that may raise errors but neither call nor move the stack. */
#define halfProtect(exp) do { savestate(); exp; } while (0)

/*
 * Precise calls (gc.h, GCStackWindow). Around a call out of the loop at a
 * point where every value the loop holds is also in a register of the Lua
 * stack (pc saved, L->top set), the loop's own C frame [rsp, frame address)
 * is a window the conservative scan skips, so that stale temporaries in
 * its spill slots keep nothing alive. The caller's callee-saved registers,
 * which the loop's prologue spills inside that range, were saved first by
 * vm_execute's frame (see there). x86-64 only: there the frame address is
 * the top of the locals and spill slots; elsewhere no window is pushed.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(TIDE_VM_NO_WINDOWS)
#define precise_begin(L, w) \
    do { \
        uintptr_t sp_; \
        /* Zero the callee-saved registers (the compiler moves whatever it \
         * still needs from them into the frame first): the callee would \
         * spill their stale contents below the window. */ \
        __asm__ volatile("xor %%ebx, %%ebx\n\txor %%r12d, %%r12d\n\txor %%r13d, %%r13d\n\t" \
                         "xor %%r14d, %%r14d\n\txor %%r15d, %%r15d" \
                         ::: "rbx", "r12", "r13", "r14", "r15"); \
        __asm__ volatile("mov %%rsp, %0" : "=r"(sp_)); \
        (w).lo = sp_; \
        (w).hi = (uintptr_t)__builtin_frame_address(0); \
        (w).prev = G(L)->stack_windows; \
        G(L)->stack_windows = &(w); \
    } while (0)
#define precise_end(L, w) (G(L)->stack_windows = (w).prev)
#else
#define precise_begin(L, w) ((void)0)
#define precise_end(L, w) ((void)0)
#endif

/* A collection step after an allocating instruction; [c] bounds the live
 * registers (the collector marks up to the highest of L->top and every
 * frame's top). */
#define checkGC(L, c) \
    do { \
        if (unlikely_(G(L)->gc_debt > 0)) { \
            savepc(); \
            L->top = (c); \
            precise_begin(L, window); \
            gc_step(L); \
            precise_end(L, window); \
            cl = ci_func(ci); /* the window hid it: it may have moved */ \
            updatetrap(ci); \
            updatebase(ci); \
        } \
    } while (0)

#define dojump(ci, ins, extra) do { pc += GETARG_sJ(ins) + (extra); updatetrap(ci); } while (0)
/* The instruction after a test is a JMP: take it. */
#define donextjump(ci) do { Instruction ni_ = *pc; dojump(ci, ni_, 1); } while (0)
/* Tests: skip the jump when the condition differs from k, else take it. */
#define docondjump(cond) do { if ((cond) != GETARG_k(i)) pc++; else donextjump(ci); } while (0)

/* Hooks before an instruction. Also reached after a stack reallocation set
 * the trap: then there is nothing to do but reload base. */
static int vm_trace(lua_State *L, CallInfo *ci, const Instruction *pc)
{
    if (!(L->hookmask & (LUA_MASKLINE | LUA_MASKCOUNT))) {
        ci->u.l.trap = 0;
        return 0;
    }
    return dbg_traceexec(L, pc);
}

/* Fetch the next instruction (each case computes its A register). */
#define vmfetch() \
    do { \
        if (unlikely_(trap)) { \
            trap = vm_trace(L, ci, pc); \
            updatebase(ci); \
        } \
        i = *(pc++); \
    } while (0)

#if defined(__GNUC__) && !defined(TIDE_VM_SWITCH)
#define VM_JUMPTABLE 1
#define vmdispatch(o) goto *dispatch_table[o];
#define vmcase(l) L_##l: ra = RA(i);
#define vmbreak do { vmfetch(); vmdispatch(GET_OPCODE(i)); } while (0)
#else
#define VM_JUMPTABLE 0
#define vmdispatch(o) switch (o)
#define vmcase(l) case l: ra = RA(i);
#define vmbreak break
#endif

/* --- arithmetic instruction bodies (fall into MMBIN* when not numbers) --- */

#define op_arithf_aux(v1, v2, fop) \
    do { \
        lua_Number n1_, n2_; \
        if (tonumberns(v1, n1_) && tonumberns(v2, n2_)) { \
            pc++; \
            setfltvalue(s2v(ra), fop(L, n1_, n2_)); \
        } \
    } while (0)

#define op_arith_aux(v1, v2, iop, fop) \
    do { \
        if (likely_(ttisinteger(v1) && ttisinteger(v2))) { \
            lua_Integer i1_ = ivalue(v1), i2_ = ivalue(v2); \
            pc++; \
            setivalue(s2v(ra), iop(L, i1_, i2_)); \
        } else { \
            op_arithf_aux(v1, v2, fop); \
        } \
    } while (0)

#define op_arith(iop, fop) do { TValue *v1 = vRB(i); TValue *v2 = vRC(i); op_arith_aux(v1, v2, iop, fop); } while (0)
#define op_arithK(iop, fop) do { TValue *v1 = vRB(i); TValue *v2 = KC(i); op_arith_aux(v1, v2, iop, fop); } while (0)
#define op_arithf(fop) do { TValue *v1 = vRB(i); TValue *v2 = vRC(i); op_arithf_aux(v1, v2, fop); } while (0)
#define op_arithfK(fop) do { TValue *v1 = vRB(i); TValue *v2 = KC(i); op_arithf_aux(v1, v2, fop); } while (0)

#define op_bitwiseK(op) \
    do { \
        TValue *v1 = vRB(i); \
        lua_Integer i1_; \
        lua_Integer i2_ = ivalue(KC(i)); \
        if (tointegerns(v1, &i1_)) { \
            pc++; \
            setivalue(s2v(ra), op(i1_, i2_)); \
        } \
    } while (0)

#define op_bitwise(op) \
    do { \
        TValue *v1 = vRB(i); \
        TValue *v2 = vRC(i); \
        lua_Integer i1_, i2_; \
        if (tointegerns(v1, &i1_) && tointegerns(v2, &i2_)) { \
            pc++; \
            setivalue(s2v(ra), op(i1_, i2_)); \
        } \
    } while (0)

#define cmp_lt(a, b) ((a) < (b))
#define cmp_le(a, b) ((a) <= (b))
#define cmp_gt(a, b) ((a) > (b))
#define cmp_ge(a, b) ((a) >= (b))

/* LT/LE: registers */
#define op_order(opi, opn, others) \
    do { \
        TValue *rb = vRB(i); \
        int cond; \
        if (ttisinteger(s2v(ra)) && ttisinteger(rb)) \
            cond = opi(ivalue(s2v(ra)), ivalue(rb)); \
        else if (ttisnumber(s2v(ra)) && ttisnumber(rb)) \
            cond = opn(s2v(ra), rb); \
        else \
            Protect(cond = others(L, s2v(ra), rb)); \
        docondjump(cond); \
    } while (0)

/* LTI/LEI/GTI/GEI: a register and an immediate; [flip] tells the
 * metamethod that the immediate was the left operand. */
#define op_orderI(opi, flip, event) \
    do { \
        int cond; \
        int im = GETARG_sB(i); \
        if (ttisinteger(s2v(ra))) \
            cond = opi(ivalue(s2v(ra)), im); \
        else if (ttisfloat(s2v(ra))) \
            cond = opi(fltvalue(s2v(ra)), (lua_Number)im); \
        else \
            Protect(cond = tm_callorderi(L, s2v(ra), im, flip, GETARG_C(i), event)); \
        docondjump(cond); \
    } while (0)

__attribute__((noinline)) static void vm_run(lua_State *L, CallInfo *ci)
{
    GCStackWindow window; /* see precise_begin */
    (void)window;
    LClosure *cl;
    TValue *k;
    StkId base;
    const Instruction *pc;
    int trap;
#if VM_JUMPTABLE
#define VM_LABEL_ADDRESS(name, mode, a, t, it, ot, mm) &&L_OP_##name,
    static const void *const dispatch_table[NUM_OPCODES] = {TIDE_OPCODES(VM_LABEL_ADDRESS)};
#undef VM_LABEL_ADDRESS
#endif

startfunc:
    trap = L->hookmask;
returning: /* continue the frame of [ci]; trap already set */
    cl = ci_func(ci);
    k = cl->p->k;
    pc = ci->u.l.savedpc;
    if (unlikely_(trap)) {
        if (pc == cl->p->code) { /* entering, not resuming */
            if (cl->p->is_vararg)
                trap = 0; /* the call hook runs after VARARGPREP */
            else
                call_hookcall(L, ci);
        }
        ci->u.l.trap = 1; /* until vm_trace says otherwise */
    }
    base = ci->func + 1;

    for (;;) {
        Instruction i;
        StkId ra;
        vmfetch();
        lua_assert(base == ci->func + 1);
        vmdispatch(GET_OPCODE(i)) {
        vmcase(OP_MOVE) {
            setobjs2s(L, ra, RB(i));
            vmbreak;
        }
        vmcase(OP_LOADI) {
            setivalue(s2v(ra), GETARG_sBx(i));
            vmbreak;
        }
        vmcase(OP_LOADF) {
            setfltvalue(s2v(ra), (lua_Number)GETARG_sBx(i));
            vmbreak;
        }
        vmcase(OP_LOADK) {
            setobj2s(L, ra, k + GETARG_Bx(i));
            vmbreak;
        }
        vmcase(OP_LOADKX) {
            TValue *rb = k + GETARG_Ax(*pc);
            pc++;
            setobj2s(L, ra, rb);
            vmbreak;
        }
        vmcase(OP_LOADFALSE) {
            setfalse(s2v(ra));
            vmbreak;
        }
        vmcase(OP_LFALSESKIP) {
            setfalse(s2v(ra));
            pc++;
            vmbreak;
        }
        vmcase(OP_LOADTRUE) {
            settrue(s2v(ra));
            vmbreak;
        }
        vmcase(OP_LOADNIL) {
            int b = GETARG_B(i);
            do {
                setnilvalue(s2v(ra));
                ra++;
            } while (b--);
            vmbreak;
        }
        vmcase(OP_GETUPVAL) {
            setobj2s(L, ra, cl->upvals[GETARG_B(i)]->v);
            vmbreak;
        }
        vmcase(OP_SETUPVAL) {
            UpVal *uv = cl->upvals[GETARG_B(i)];
            gc_satb_value(L, uv->v); /* open or closed: another thread's stack may hold it */
            setobj(L, uv->v, s2v(ra));
            /* open too: the slot may be on the stack of a suspended thread
             * that nursery collections skip (stack_clean); the remembered
             * upvalue leads them to the slot (minor.c) */
            gc_barrier(L, uv, s2v(ra));
            vmbreak;
        }
        vmcase(OP_GETTABUP) {
            TValue *upval = cl->upvals[GETARG_B(i)]->v;
            TValue *rc = KC(i);
            const TValue *slot = NULL;
            if (ttistable(upval)) {
                slot = tab_getshortstr(hvalue(upval), tsvalue(rc));
                if (!isempty(slot)) {
                    gc_weak_read(L, hvalue(upval), slot);
                    setobj2s(L, ra, slot);
                    vmbreak;
                }
            }
            Protect(vm_finishget(L, upval, rc, ra, slot));
            vmbreak;
        }
        vmcase(OP_GETTABLE) {
            TValue *rb = vRB(i);
            TValue *rc = vRC(i);
            const TValue *slot = NULL;
            if (ttistable(rb)) {
                Table *h = hvalue(rb);
                slot = ttisinteger(rc) ? int_slot(h, ivalue(rc))
                       : ttisshrstring(rc) ? tab_getshortstr(h, tsvalue(rc))
                                           : tab_get(h, rc);
                if (!isempty(slot)) {
                    gc_weak_read(L, h, slot);
                    setobj2s(L, ra, slot);
                    vmbreak;
                }
                if (h->metatable == NULL) {
                    setnilvalue(s2v(ra));
                    vmbreak;
                }
            }
            Protect(vm_finishget(L, rb, rc, ra, slot));
            vmbreak;
        }
        vmcase(OP_GETI) {
            TValue *rb = vRB(i);
            int c = GETARG_C(i);
            const TValue *slot = NULL;
            if (ttistable(rb)) {
                slot = int_slot(hvalue(rb), c);
                if (!isempty(slot)) {
                    gc_weak_read(L, hvalue(rb), slot);
                    setobj2s(L, ra, slot);
                    vmbreak;
                }
                if (hvalue(rb)->metatable == NULL) {
                    setnilvalue(s2v(ra));
                    vmbreak;
                }
            }
            TValue key;
            setivalue(&key, c);
            Protect(vm_finishget(L, rb, &key, ra, slot));
            vmbreak;
        }
        vmcase(OP_GETFIELD) {
            TValue *rb = vRB(i);
            TValue *rc = KC(i);
            const TValue *slot = NULL;
            if (ttistable(rb)) {
                Table *h = hvalue(rb);
                slot = tab_getshortstr(h, tsvalue(rc));
                if (!isempty(slot)) {
                    gc_weak_read(L, h, slot);
                    setobj2s(L, ra, slot);
                    vmbreak;
                }
                const TValue *found = miss_shortcut(L, h, tsvalue(rc));
                if (found != NULL) {
                    setobj2s(L, ra, found);
                    vmbreak;
                }
            }
            Protect(vm_finishget(L, rb, rc, ra, slot));
            vmbreak;
        }
        vmcase(OP_SETTABUP) {
            TValue *upval = cl->upvals[GETARG_A(i)]->v;
            TValue *rb = KB(i);
            TValue *rc = RKC(i);
            const TValue *slot = NULL;
            if (ttistable(upval)) {
                Table *h = hvalue(upval);
                slot = tab_getshortstr(h, tsvalue(rb));
                if (!isempty(slot)) {
                    gc_satb_value(L, slot);
                    setobj(L, (TValue *)slot, rc);
                    gc_barrier_back(L, h, slot, rc);
                    vmbreak;
                }
            }
            Protect(vm_finishset(L, upval, rb, rc, slot));
            vmbreak;
        }
        vmcase(OP_SETTABLE) {
            TValue *t = s2v(ra);
            TValue *rb = vRB(i);
            TValue *rc = RKC(i);
            const TValue *slot = NULL;
            if (ttistable(t)) {
                Table *h = hvalue(t);
                if (ttisinteger(rb)) {
                    slot = int_slot(h, ivalue(rb));
                    /* an empty but present slot of a table without
                     * metatable takes the value in place too (integer keys
                     * are never metamethod names) */
                    if (!isempty(slot) || (h->metatable == NULL && !isabstkey(slot))) {
                        gc_satb_value(L, slot);
                        setobj(L, (TValue *)slot, rc);
                        gc_barrier_back(L, h, slot, rc);
                        vmbreak;
                    }
                } else {
                    slot = ttisshrstring(rb) ? tab_getshortstr(h, tsvalue(rb)) : tab_get(h, rb);
                    if (!isempty(slot)) {
                        gc_satb_value(L, slot);
                        setobj(L, (TValue *)slot, rc);
                        gc_barrier_back(L, h, slot, rc);
                        vmbreak;
                    }
                }
            }
            Protect(vm_finishset(L, t, rb, rc, slot));
            vmbreak;
        }
        vmcase(OP_SETI) {
            TValue *t = s2v(ra);
            int b = GETARG_B(i);
            TValue *rc = RKC(i);
            const TValue *slot = NULL;
            if (ttistable(t)) {
                Table *h = hvalue(t);
                slot = int_slot(h, b);
                if (!isempty(slot) || (h->metatable == NULL && !isabstkey(slot))) {
                    gc_satb_value(L, slot);
                    setobj(L, (TValue *)slot, rc);
                    gc_barrier_back(L, h, slot, rc);
                    vmbreak;
                }
            }
            TValue key;
            setivalue(&key, b);
            Protect(vm_finishset(L, t, &key, rc, slot));
            vmbreak;
        }
        vmcase(OP_SETFIELD) {
            TValue *t = s2v(ra);
            TValue *rb = KB(i);
            TValue *rc = RKC(i);
            const TValue *slot = NULL;
            if (ttistable(t)) {
                Table *h = hvalue(t);
                slot = tab_getshortstr(h, tsvalue(rb));
                if (!isempty(slot)) {
                    gc_satb_value(L, slot);
                    setobj(L, (TValue *)slot, rc);
                    gc_barrier_back(L, h, slot, rc);
                    vmbreak;
                }
            }
            Protect(vm_finishset(L, t, rb, rc, slot));
            vmbreak;
        }
        vmcase(OP_NEWTABLE) {
            unsigned int b = (unsigned int)GETARG_B(i); /* log2(hash size) + 1, or 0 */
            unsigned int c = (unsigned int)GETARG_C(i); /* array size */
            if (b > 0) b = 1u << (b - 1);
            if (TESTARG_k(i)) c += (unsigned int)GETARG_Ax(*pc) * (MAXARG_C + 1);
            pc++; /* the EXTRAARG */
            savepc();
            Table *t = tab_new(L);
            sethvalue(L, s2v(ra), t);
            if (b != 0 || c != 0) tab_resize(L, t, c, b);
            checkGC(L, ci->top);
            vmbreak;
        }
        vmcase(OP_SELF) {
            TValue *rb = vRB(i);
            TValue *rc = RKC(i);
            TString *key = tsvalue(rc); /* read before R[A+1] changes */
            const TValue *slot = NULL;
            setobj2s(L, ra + 1, rb);
            if (ttistable(rb)) {
                Table *h = hvalue(rb);
                if (likely_(isshortstr(key))) {
                    slot = tab_getshortstr(h, key);
                    if (!isempty(slot)) {
                        gc_weak_read(L, h, slot);
                        setobj2s(L, ra, slot);
                        vmbreak;
                    }
                    const TValue *found = miss_shortcut(L, h, key); /* a method of the class */
                    if (found != NULL) {
                        setobj2s(L, ra, found);
                        vmbreak;
                    }
                } else {
                    slot = tab_getstr(h, key);
                    if (!isempty(slot)) {
                        gc_weak_read(L, h, slot);
                        setobj2s(L, ra, slot);
                        vmbreak;
                    }
                }
            }
            TValue keyv;
            setsvalue(L, &keyv, key);
            Protect(vm_finishget(L, rb, &keyv, ra, slot));
            vmbreak;
        }
        vmcase(OP_ADDI) {
            TValue *v1 = vRB(i);
            int imm = GETARG_sC(i);
            if (ttisinteger(v1)) {
                lua_Integer iv1 = ivalue(v1);
                pc++;
                setivalue(s2v(ra), intop(+, iv1, imm));
            } else if (ttisfloat(v1)) {
                lua_Number nb = fltvalue(v1);
                pc++;
                setfltvalue(s2v(ra), nb + (lua_Number)imm);
            }
            vmbreak;
        }
        vmcase(OP_ADDK) {
            op_arithK(op_iadd, op_fadd);
            vmbreak;
        }
        vmcase(OP_SUBK) {
            op_arithK(op_isub, op_fsub);
            vmbreak;
        }
        vmcase(OP_MULK) {
            op_arithK(op_imul, op_fmul);
            vmbreak;
        }
        vmcase(OP_MODK) {
            savestate(); /* "attempt to perform 'n%%0'" */
            op_arithK(op_imod, op_fmod);
            vmbreak;
        }
        vmcase(OP_POWK) {
            op_arithfK(op_fpow);
            vmbreak;
        }
        vmcase(OP_DIVK) {
            op_arithfK(op_fdiv);
            vmbreak;
        }
        vmcase(OP_IDIVK) {
            savestate(); /* "attempt to divide by zero" */
            op_arithK(op_iidiv, op_fidiv);
            vmbreak;
        }
        vmcase(OP_BANDK) {
            op_bitwiseK(op_band);
            vmbreak;
        }
        vmcase(OP_BORK) {
            op_bitwiseK(op_bor);
            vmbreak;
        }
        vmcase(OP_BXORK) {
            op_bitwiseK(op_bxor);
            vmbreak;
        }
        vmcase(OP_SHRI) {
            TValue *rb = vRB(i);
            int ic = GETARG_sC(i);
            lua_Integer ib;
            if (tointegerns(rb, &ib)) {
                pc++;
                setivalue(s2v(ra), vm_shiftl(ib, -ic));
            }
            vmbreak;
        }
        vmcase(OP_SHLI) {
            TValue *rb = vRB(i);
            int ic = GETARG_sC(i);
            lua_Integer ib;
            if (tointegerns(rb, &ib)) {
                pc++;
                setivalue(s2v(ra), vm_shiftl(ic, ib));
            }
            vmbreak;
        }
        vmcase(OP_ADD) {
            op_arith(op_iadd, op_fadd);
            vmbreak;
        }
        vmcase(OP_SUB) {
            op_arith(op_isub, op_fsub);
            vmbreak;
        }
        vmcase(OP_MUL) {
            op_arith(op_imul, op_fmul);
            vmbreak;
        }
        vmcase(OP_MOD) {
            savestate();
            op_arith(op_imod, op_fmod);
            vmbreak;
        }
        vmcase(OP_POW) {
            op_arithf(op_fpow);
            vmbreak;
        }
        vmcase(OP_DIV) {
            op_arithf(op_fdiv);
            vmbreak;
        }
        vmcase(OP_IDIV) {
            savestate();
            op_arith(op_iidiv, op_fidiv);
            vmbreak;
        }
        vmcase(OP_BAND) {
            op_bitwise(op_band);
            vmbreak;
        }
        vmcase(OP_BOR) {
            op_bitwise(op_bor);
            vmbreak;
        }
        vmcase(OP_BXOR) {
            op_bitwise(op_bxor);
            vmbreak;
        }
        vmcase(OP_SHL) {
            op_bitwise(vm_shiftl);
            vmbreak;
        }
        vmcase(OP_SHR) {
            op_bitwise(vm_shiftr);
            vmbreak;
        }
        vmcase(OP_MMBIN) {
            Instruction pi = *(pc - 2); /* the arithmetic instruction */
            TValue *rb = vRB(i);
            TMS event = (TMS)GETARG_C(i);
            StkId result = RA(pi);
            Protect(tm_trybin(L, s2v(ra), rb, result, event));
            vmbreak;
        }
        vmcase(OP_MMBINI) {
            Instruction pi = *(pc - 2);
            int imm = GETARG_sB(i);
            TMS event = (TMS)GETARG_C(i);
            StkId result = RA(pi);
            Protect(tm_trybini(L, s2v(ra), imm, GETARG_k(i), result, event));
            vmbreak;
        }
        vmcase(OP_MMBINK) {
            Instruction pi = *(pc - 2);
            TValue *imm = KB(i);
            TMS event = (TMS)GETARG_C(i);
            StkId result = RA(pi);
            Protect(tm_trybinassoc(L, s2v(ra), imm, GETARG_k(i), result, event));
            vmbreak;
        }
        vmcase(OP_UNM) {
            TValue *rb = vRB(i);
            if (ttisinteger(rb)) {
                lua_Integer ib = ivalue(rb);
                setivalue(s2v(ra), intop(-, 0, ib));
            } else if (ttisfloat(rb)) {
                lua_Number nb = fltvalue(rb);
                setfltvalue(s2v(ra), -nb);
            } else {
                Protect(tm_trybin(L, rb, rb, ra, TM_UNM));
            }
            vmbreak;
        }
        vmcase(OP_BNOT) {
            TValue *rb = vRB(i);
            lua_Integer ib;
            if (tointegerns(rb, &ib)) {
                setivalue(s2v(ra), intop(^, ~(lua_Unsigned)0, ib));
            } else {
                Protect(tm_trybin(L, rb, rb, ra, TM_BNOT));
            }
            vmbreak;
        }
        vmcase(OP_NOT) {
            if (l_isfalse(vRB(i)))
                settrue(s2v(ra));
            else
                setfalse(s2v(ra));
            vmbreak;
        }
        vmcase(OP_LEN) {
            TValue *rb = vRB(i);
            if (ttistable(rb) && hvalue(rb)->metatable == NULL) {
                lua_Integer n = (lua_Integer)tab_getn(hvalue(rb));
                setivalue(s2v(ra), n);
            } else if (ttisshrstring(rb)) {
                lua_Integer n = tsvalue(rb)->shrlen;
                setivalue(s2v(ra), n);
            } else {
                Protect(vm_objlen(L, ra, rb));
            }
            vmbreak;
        }
        vmcase(OP_CONCAT) {
            int n = GETARG_B(i);
            L->top = ra + n; /* the operands end here */
            ProtectNT(vm_concat(L, n));
            checkGC(L, ci->top);
            vmbreak;
        }
        vmcase(OP_CLOSE) {
            Protect(func_close(L, ra, LUA_OK, 1));
            vmbreak;
        }
        vmcase(OP_TBC) {
            halfProtect(func_newtbcupval(L, ra));
            vmbreak;
        }
        vmcase(OP_JMP) {
            dojump(ci, i, 0);
            vmbreak;
        }
        vmcase(OP_EQ) {
            TValue *rb = vRB(i);
            int cond;
            if (ttisinteger(s2v(ra)) && ttisinteger(rb))
                cond = ivalue(s2v(ra)) == ivalue(rb);
            else if (ttisshrstring(s2v(ra)) && ttisshrstring(rb))
                cond = tsvalue(s2v(ra)) == tsvalue(rb);
            else
                Protect(cond = vm_equalobj(L, s2v(ra), rb));
            docondjump(cond);
            vmbreak;
        }
        vmcase(OP_LT) {
            op_order(cmp_lt, lt_num, lt_others);
            vmbreak;
        }
        vmcase(OP_LE) {
            op_order(cmp_le, le_num, le_others);
            vmbreak;
        }
        vmcase(OP_EQK) {
            /* constants have no __eq: raw equality decides */
            int cond = equal_constant(s2v(ra), KB(i));
            docondjump(cond);
            vmbreak;
        }
        vmcase(OP_EQI) {
            int cond;
            int im = GETARG_sB(i);
            if (ttisinteger(s2v(ra)))
                cond = ivalue(s2v(ra)) == im;
            else if (ttisfloat(s2v(ra)))
                cond = fltvalue(s2v(ra)) == (lua_Number)im;
            else
                cond = 0; /* nothing else equals a number */
            docondjump(cond);
            vmbreak;
        }
        vmcase(OP_LTI) {
            op_orderI(cmp_lt, 0, TM_LT);
            vmbreak;
        }
        vmcase(OP_LEI) {
            op_orderI(cmp_le, 0, TM_LE);
            vmbreak;
        }
        vmcase(OP_GTI) {
            op_orderI(cmp_gt, 1, TM_LT);
            vmbreak;
        }
        vmcase(OP_GEI) {
            op_orderI(cmp_ge, 1, TM_LE);
            vmbreak;
        }
        vmcase(OP_TEST) {
            int cond = !l_isfalse(s2v(ra));
            docondjump(cond);
            vmbreak;
        }
        vmcase(OP_TESTSET) {
            TValue *rb = vRB(i);
            if (l_isfalse(rb) == GETARG_k(i)) {
                pc++;
            } else {
                setobj2s(L, ra, rb);
                donextjump(ci);
            }
            vmbreak;
        }
        vmcase(OP_CALL) {
            int b = GETARG_B(i);
            int nresults = GETARG_C(i) - 1;
            if (b != 0) L->top = ra + b; /* else the previous instruction set it */
            savepc();
            if (likely_(ttisLclosure(s2v(ra)))) { /* Lua to Lua: same C frame */
                ci = calls_enterlua(L, ra, nresults);
                goto startfunc;
            }
            precise_begin(L, window);
            CallInfo *newci = call_precall(L, ra, nresults);
            precise_end(L, window);
            if (newci == NULL) { /* a C function, done */
                cl = ci_func(ci); /* the window hid it: it may have moved */
                updatetrap(ci);
                updatebase(ci);
            } else { /* __call led to a Lua function */
                ci = newci;
                goto startfunc;
            }
            vmbreak;
        }
        vmcase(OP_TAILCALL) {
            int b = GETARG_B(i); /* arguments + 1 */
            int nparams1 = GETARG_C(i);
            /* a vararg function's func slot sits above its extra arguments */
            int delta = nparams1 ? ci->u.l.nextraargs + nparams1 : 0;
            if (b != 0)
                L->top = ra + b;
            else
                b = (int)(L->top - ra);
            savepc();
            if (TESTARG_k(i)) {
                func_closeupval(L, base);
                lua_assert(L->tbclist < base); /* no tbc variables left */
            }
            if (delta != 0) gc_stack_write(L, ci->func - delta);
            int n = call_pretailcall(L, ci, ra, b, delta);
            if (n < 0) goto startfunc; /* a Lua function now runs in this frame */
            /* a C function ran: return its results as ours */
            ci->func -= delta;
            call_poscall(L, ci, n);
            updatetrap(ci);
            goto ret;
        }
        vmcase(OP_RETURN) {
            int n = GETARG_B(i) - 1; /* results */
            int nparams1 = GETARG_C(i);
            if (n < 0) n = (int)(L->top - ra);
            savepc();
            if (TESTARG_k(i)) { /* close upvalues and tbc variables first */
                ci->u2.nres = n; /* for vm_finishop if a __close yields */
                if (L->top < ci->top) L->top = ci->top;
                func_close(L, base, LUA_OK, 1);
                updatetrap(ci);
                updatebase(ci);
                ra = RA(i);
            }
            if (nparams1) ci->func -= ci->u.l.nextraargs + nparams1;
            L->top = ra + n;
            call_poscall(L, ci, n);
            updatetrap(ci);
            goto ret;
        }
        vmcase(OP_RETURN0) {
            if (unlikely_(L->hookmask)) {
                L->top = ra;
                savepc();
                call_poscall(L, ci, 0);
                trap = 1;
            } else {
                int nres = ci->nresults;
                gc_stack_return(L, ci->previous);
                L->ci = ci->previous;
                L->top = base - 1;
                for (; unlikely_(nres > 0); nres--) setnilvalue(s2v(L->top++));
            }
            goto ret;
        }
        vmcase(OP_RETURN1) {
            if (unlikely_(L->hookmask)) {
                L->top = ra + 1;
                savepc();
                call_poscall(L, ci, 1);
                trap = 1;
            } else {
                int nres = ci->nresults;
                gc_stack_return(L, ci->previous);
                L->ci = ci->previous;
                if (nres == 0) {
                    L->top = base - 1;
                } else {
                    setobjs2s(L, base - 1, ra);
                    L->top = base;
                    for (; unlikely_(nres > 1); nres--) setnilvalue(s2v(L->top++));
                }
            }
            goto ret;
        }
        vmcase(OP_FORLOOP) {
            if (likely_(ttisinteger(s2v(ra + 2)))) {
                lua_Unsigned count = (lua_Unsigned)ivalue(s2v(ra + 1));
                if (count > 0) {
                    lua_Integer step = ivalue(s2v(ra + 2));
                    lua_Integer idx = ivalue(s2v(ra));
                    s2v(ra + 1)->v.i = (lua_Integer)(count - 1);
                    idx = intop(+, idx, step);
                    s2v(ra)->v.i = idx;
                    setivalue(s2v(ra + 3), idx);
                    pc -= GETARG_Bx(i);
                }
            } else if (for_float_step(ra)) {
                pc -= GETARG_Bx(i);
            }
            updatetrap(ci); /* a signal may have set a hook */
            vmbreak;
        }
        vmcase(OP_FORPREP) {
            savestate();
            if (for_prepare(L, ra)) pc += GETARG_Bx(i) + 1;
            vmbreak;
        }
        vmcase(OP_TFORPREP) {
            halfProtect(func_newtbcupval(L, ra + 3));
            pc += GETARG_Bx(i);
            i = *(pc++); /* the TFORCALL, run without tracing it apart */
            lua_assert(GET_OPCODE(i) == OP_TFORCALL && ra == RA(i));
            goto tforcall;
        }
        vmcase(OP_TFORCALL) {
        tforcall:
            /* R[A] iterator, R[A+1] state, R[A+2] control, R[A+3] closing
             * value; the call goes above them */
            ra = RA(i);
            setobjs2s(L, ra + 4, ra);
            setobjs2s(L, ra + 5, ra + 1);
            setobjs2s(L, ra + 6, ra + 2);
            L->top = ra + 4 + 3;
            ProtectNT(call_call(L, ra + 4, GETARG_C(i)));
            i = *(pc++); /* the TFORLOOP */
            lua_assert(GET_OPCODE(i) == OP_TFORLOOP);
            goto tforloop;
        }
        vmcase(OP_TFORLOOP) {
        tforloop:
            ra = RA(i);
            if (!ttisnil(s2v(ra + 4))) {
                setobjs2s(L, ra + 2, ra + 4);
                pc -= GETARG_Bx(i);
            }
            vmbreak;
        }
        vmcase(OP_SETLIST) {
            int n = GETARG_B(i);
            unsigned int last = (unsigned int)GETARG_C(i);
            if (n == 0)
                n = (int)(L->top - ra) - 1; /* up to the top */
            else
                L->top = ci->top;
            last += (unsigned int)n;
            if (TESTARG_k(i)) {
                last += (unsigned int)GETARG_Ax(*pc) * (MAXARG_C + 1);
                pc++;
            }
            Table *h = hvalue(s2v(ra));
            if (last > h->asize) {
                savepc();
                tab_resizearray(L, h, last); /* all at once */
                updatebase(ci);
                ra = RA(i);
                h = hvalue(s2v(ra));
            }
            for (; n > 0; n--) {
                TValue *val = s2v(ra + n);
                TValue *dst = &h->array[last - 1];
                gc_satb_value(L, dst);
                setobj(L, dst, val);
                last--;
                gc_barrier_back(L, h, dst, val);
            }
            vmbreak;
        }
        vmcase(OP_CLOSURE) {
            Proto *p = cl->p->p[GETARG_Bx(i)];
            halfProtect(push_closure(L, p, cl->upvals, base, ra));
            checkGC(L, ci->top);
            vmbreak;
        }
        vmcase(OP_VARARG) {
            int n = GETARG_C(i) - 1; /* wanted; -1: all */
            Protect(get_varargs(L, ci, ra, n));
            vmbreak;
        }
        vmcase(OP_VARARGPREP) {
            ProtectNT(adjust_varargs(L, GETARG_A(i), ci, cl->p->maxstacksize));
            if (unlikely_(trap)) { /* the call hook, deferred until now */
                call_hookcall(L, ci);
                L->oldpc = 1; /* the next instruction counts as a new line */
            }
            updatebase(ci);
            vmbreak;
        }
        vmcase(OP_EXTRAARG) {
            lua_assert(0); /* always consumed by the instruction before */
            vmbreak;
        }
#if !VM_JUMPTABLE
        default:
            lua_assert(0);
            break;
#endif
        }
    }

ret: /* the frame of [ci] returned */
    if (ci->callstatus & CIST_FRESH) return;
    ci = ci->previous;
    goto returning;
}

/* The loop's entry. __builtin_unwind_init spills every callee-saved
 * register of the caller into this frame, which the conservative scan
 * reads, before vm_run's prologue spills them again inside its windows. */
__attribute__((noinline)) void vm_execute(lua_State *L, CallInfo *ci)
{
    __builtin_unwind_init();
    vm_run(L, ci);
    __asm__ volatile("" ::: "memory"); /* no tail call: this frame must stay */
}
