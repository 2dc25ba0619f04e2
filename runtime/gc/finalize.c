/*
 * finalize.c — what the manual's §2.5.3–§2.5.4 ask of a collection: weak
 * tables, ephemerons, and __gc finalizers.
 *
 * Weak tables (world stopped). mark.c records every weak table it
 * traverses, by kind: weak values, weak keys (ephemerons), both. After
 * marking:
 *  - ephemerons converge: a value is marked only once its key is, so every
 *    recorded ephemeron is passed over again until a pass marks nothing;
 *  - an entry whose key or value was not reached is removed (value set
 *    empty, a collectable key made a dead key). Strings are values, not
 *    objects, for this purpose: they are never removed (they are marked
 *    instead).
 * If a weak table could not be recorded (no memory for the list), every
 * step walks the heap for marked weak tables instead; all steps are
 * idempotent, so walking more tables than needed is only slower.
 *
 * Finalizers. gc_checkfinalizer moves an object whose metatable has __gc
 * from objs to finobj. A collection moves the unreached ones of finobj to
 * tobefnz (in finobj's order: newest first, the reverse of marking) and
 * marks them again — resurrection — after weak values were cleared and
 * before weak keys are (the manual's order). Finalizers run later, at safe
 * points, on the mutator: each object goes back to objs as an ordinary
 * object (freed by a later collection when unreachable) and its __gc, found
 * at that moment, is called protected, with the collector stopped and hooks
 * off; an error becomes the warning "error in __gc (msg)" as in Lua 5.4.
 */
#include "gc_internal.h"
#include "../vm/calls.h"
#include "../vm/metamethods.h"
#include "../vm/tables.h"

/* --- recording weak tables --------------------------------------------------- */

void gc_weak_note(GCState *gc, GCVec *list, Table *t)
{
    if (gc->weak_overflow) return; /* the heap walk finds it */
    if (list->n == list->cap && !gc_vec_grow(gc, list)) {
        gc->weak_overflow = 1;
        return;
    }
    list->items[list->n++] = t;
}

typedef int (*WeakFn)(GCState *gc, Table *t);

/* Apply [fn] to every marked table of weak mode [mode] found on the lists;
 * returns the OR of the results. */
static int walk_weak(GCState *gc, int mode, WeakFn fn)
{
    GCObject *lists[3] = { gc->objs, gc->finobj, gc->tobefnz };
    int result = 0;
    for (int l = 0; l < 3; l++) {
        for (GCObject *o = lists[l]; o != NULL; o = gc_link(o)) {
            if (o->tt != HT_TABLE || !gc_ismarked(gc, o)) continue;
            Table *t = gco2t(o);
            if (t->metatable != NULL && gc_weakmode(gc, t->metatable) == mode) result |= fn(gc, t);
        }
    }
    return result;
}

/* --- ephemerons ---------------------------------------------------------------- */

static int ephemeron_pass(GCState *gc, Table *t)
{
    return gc_traverse_ephemeron(gc, t, 0);
}

void gc_converge_ephemerons(GCState *gc)
{
    int changed;
    do {
        changed = 0;
        if (!gc->weak_overflow) {
            /* n is re-read: propagation below may add tables */
            for (size_t i = 0; i < gc->ephemeron.n; i++)
                changed |= ephemeron_pass(gc, gc->ephemeron.items[i]);
        } else {
            changed = walk_weak(gc, WEAK_KEYS, ephemeron_pass);
        }
        gc_propagate(gc);
    } while (changed);
}

/* --- clearing ---------------------------------------------------------------------- */

static inline int value_is_cleared(GCState *gc, const TValue *v)
{
    return iscollectable(v) && gc_iscleared(gc, gcvalue(v));
}

static int clear_values(GCState *gc, Table *t)
{
    TValue *array = t->array;
    for (uint32_t i = 0, n = t->asize; i < n; i++)
        if (value_is_cleared(gc, &array[i])) setempty(&array[i]);
    if (tab_isdummy(t)) return 0;
    Node *node = t->node, *limit = node + sizenode(t);
    for (Node *n = node; n < limit; n++) {
        if (value_is_cleared(gc, gval(n))) setempty(gval(n));
        if (isempty(gval(n))) gc_clearkey(n);
    }
    return 0;
}

static int clear_keys(GCState *gc, Table *t)
{
    if (tab_isdummy(t)) return 0;
    Node *node = t->node, *limit = node + sizenode(t);
    for (Node *n = node; n < limit; n++) {
        if ((n->key_tt & BIT_COLLECTABLE) && gc_iscleared(gc, n->key_val.gc)) setempty(gval(n));
        if (isempty(gval(n))) gc_clearkey(n);
    }
    return 0;
}

static void clear_list(GCState *gc, GCVec *list, size_t from, WeakFn fn)
{
    for (size_t i = from; i < list->n; i++) fn(gc, list->items[i]);
}

void gc_clear_by_values(GCState *gc, size_t wfrom, size_t afrom)
{
    if (gc->weak_overflow) {
        walk_weak(gc, WEAK_VALUES, clear_values);
        walk_weak(gc, WEAK_KEYS | WEAK_VALUES, clear_values);
        return;
    }
    clear_list(gc, &gc->weak, wfrom, clear_values);
    clear_list(gc, &gc->allweak, afrom, clear_values);
}

void gc_clear_by_keys(GCState *gc)
{
    if (gc->weak_overflow) {
        walk_weak(gc, WEAK_KEYS, clear_keys);
        walk_weak(gc, WEAK_KEYS | WEAK_VALUES, clear_keys);
        return;
    }
    clear_list(gc, &gc->ephemeron, 0, clear_keys);
    clear_list(gc, &gc->allweak, 0, clear_keys);
}

/* --- marking for finalization ----------------------------------------------------------- */

void gc_checkfinalizer(lua_State *L, GCObject *o, Table *mt)
{
    GlobalState *g = G(L);
    GCState *gc = g->gc;
    if ((o->flags & GCF_FINALIZABLE) || mt == NULL || gc->closing) return;
    TString *name = g->tmname[TM_GC];
    if (name == NULL || (mt->flags & (1u << TM_GC))) return;
    if (tm_get(mt, TM_GC, name) == NULL) return;
    /* Move o from objs to finobj. It was usually made just before, so it
     * is near the head. */
    GCObject **p = &gc->objs;
    while (*p != o) {
        if (*p == NULL) {
            lua_assert(0); /* not an ordinary object */
            return;
        }
        p = &gc_link(*p);
    }
    *p = gc_link(o);
    gc_link(o) = gc->finobj;
    gc->finobj = o;
    o->flags |= GCF_FINALIZABLE;
}

GCObject *gc_separate_tobefnz(GCState *gc, int all)
{
    GCObject **p = &gc->finobj, *o, *first = NULL;
    while ((o = *p) != NULL) {
        if (!all && gc_ismarked(gc, o)) {
            p = &gc_link(o);
            continue;
        }
        *p = gc_link(o);
        gc_link(o) = NULL;
        if (gc->tobefnz_tail != NULL)
            gc_link(gc->tobefnz_tail) = o;
        else
            gc->tobefnz = o;
        gc->tobefnz_tail = o;
        o->flags |= GCF_FINALIZED;
        if (first == NULL) first = o;
    }
    return first;
}

/* --- running finalizers ------------------------------------------------------------------ */

int gc_can_run_finalizers(lua_State *L)
{
    GCState *gc = gc_state(L);
    return gc->tobefnz != NULL && !gc->collecting && gc->fin_running == 0;
}

static void call_finalizer(lua_State *L, void *ud)
{
    (void)ud;
    call_callnoyield(L, L->top - 2, 0);
}

/* "error in __gc (msg)", through the warning function, as Lua 5.4 words it. */
static void warn_finalizer_error(lua_State *L)
{
    GlobalState *g = G(L);
    if (g->warnf == NULL) return;
    const TValue *err = s2v(L->top - 1);
    const char *msg = ttisstring(err) ? svalue(err) : "error object is not a string";
    g->warnf(g->ud_warn, "error in ", 1);
    g->warnf(g->ud_warn, "__gc", 1);
    g->warnf(g->ud_warn, " (", 1);
    g->warnf(g->ud_warn, msg, 1);
    g->warnf(g->ud_warn, ")", 0);
}

/* Take the first object of tobefnz back to objs and call its __gc. Returns
 * 0 (doing nothing) when the stack cannot make room for the call. */
static int run_one_finalizer(lua_State *L)
{
    GCState *gc = gc_state(L);
    /* Room for the function and its argument first: growing the stack may
     * collect, and the object must still be on tobefnz (a root) then. */
    if (L->stack_last - L->top <= 2 && !call_growstack(L, 2, 0)) return 0;
    GCObject *o = gc->tobefnz;
    gc->tobefnz = gc_link(o);
    if (gc->tobefnz == NULL) gc->tobefnz_tail = NULL;
    gc_link(o) = gc->objs;
    gc->objs = o;
    o->flags &= (uint8_t)~(GCF_FINALIZABLE | GCF_FINALIZED);
    gc_frames_note_finalizer(gc);

    TValue v;
    setgcovalue(&v, o, o->tt | BIT_COLLECTABLE);
    const TValue *tm = tm_getbyobj(L, &v, TM_GC);
    if (ttisnil(tm)) return 1; /* __gc was removed since: nothing to call */
    uint8_t old_allowhook = L->allowhook;
    CallInfo *ci = L->ci;
    gc->fin_running++;
    L->allowhook = 0; /* no hooks inside finalizers */
    StkId func = L->top;
    setobj2s(L, L->top, tm);
    L->top++;
    setobj2s(L, L->top, &v);
    L->top++;
    ci->callstatus |= CIST_FIN;
    int status = call_pcall(L, call_finalizer, NULL, stack_save(L, func), 0);
    ci->callstatus = (unsigned short)(ci->callstatus & ~CIST_FIN);
    L->allowhook = old_allowhook;
    gc->fin_running--;
    if (status != LUA_OK) {
        warn_finalizer_error(L);
        L->top--; /* the error object */
    }
    return 1;
}

int gc_run_finalizers(lua_State *L, uint64_t budget_ns)
{
    uint64_t start = budget_ns != 0 ? gc_now_ns() : 0;
    int count = 0;
    while (gc_can_run_finalizers(L)) {
        if (!run_one_finalizer(L)) break;
        count++;
        if (budget_ns != 0 && gc_now_ns() - start >= budget_ns) break;
    }
    return count;
}
