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
 * Finalizers. gc_checkfinalizer appends an object whose metatable has
 * __gc to finobj. A collection moves the unreached ones of finobj to
 * tobefnz, newest first (the reverse order of marking, as the manual
 * says), and marks them again — resurrection — after weak values were
 * cleared and before weak keys are (the manual's order). Finalizers run
 * later, at safe points, on the mutator: each object leaves tobefnz as an
 * ordinary object (freed by a later collection when unreachable) and its
 * __gc, found at that moment, is called protected, with the collector
 * stopped and hooks off; an error becomes the warning "error in __gc
 * (msg)" as in Lua 5.4.
 */
#include <string.h>

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

typedef struct WeakWalk {
    GCState *gc;
    int mode;
    WeakFn fn;
    int result;
} WeakWalk;

static void weak_walk_cb(void *ud, GCObject *o)
{
    WeakWalk *w = ud;
    if (o->tt != HT_TABLE || !gc_ismarked(w->gc, o)) return;
    Table *t = gco2t(o);
    if (t->metatable != NULL && gc_weakmode(w->gc, t->metatable) == w->mode) w->result |= w->fn(w->gc, t);
}

/* Apply [fn] to every marked table of weak mode [mode] in the heap;
 * returns the OR of the results. */
static int walk_weak(GCState *gc, int mode, WeakFn fn)
{
    WeakWalk w = {gc, mode, fn, 0};
    gc_heap_foreach(gc, 1, weak_walk_cb, &w);
    return w.result;
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
        if (isempty(gval(n))) gc_clearkey(gc, n);
    }
    return 0;
}

static int clear_keys(GCState *gc, Table *t)
{
    if (tab_isdummy(t)) return 0;
    Node *node = t->node, *limit = node + sizenode(t);
    for (Node *n = node; n < limit; n++) {
        if ((n->key_tt & BIT_COLLECTABLE) && gc_iscleared(gc, n->key_val.gc)) setempty(gval(n));
        if (isempty(gval(n))) gc_clearkey(gc, n);
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
    if (gc->finobj.n == gc->finobj.cap && !gc_vec_grow(gc, &gc->finobj)) {
        if (gc_may_collect(gc)) gc_collect(L, GC_REASON_EMERGENCY);
        if (gc->finobj.n == gc->finobj.cap && !gc_vec_grow(gc, &gc->finobj)) gc_memerror(L);
    }
    gc->finobj.items[gc->finobj.n++] = o;
    o->flags |= GCF_FINALIZABLE;
}

size_t gc_separate_tobefnz(GCState *gc, int all)
{
    GCVec *fin = &gc->finobj, *tbf = &gc->tobefnz;
    if (gc->tobefnz_head > 0) { /* drop the slots of finalizers already run */
        tbf->n -= gc->tobefnz_head;
        if (tbf->n > 0) memmove(tbf->items, tbf->items + gc->tobefnz_head, tbf->n * sizeof(void *));
        gc->tobefnz_head = 0;
    }
    size_t first = tbf->n;
    /* Newest first: from the end of finobj. Kept objects slide down in
     * place (j walks behind i), keeping their order. */
    size_t keep = fin->n;
    for (size_t i = fin->n; i-- > 0;) {
        GCObject *o = fin->items[i];
        int separate = all || !gc_ismarked(gc, o);
        if (separate && (tbf->n < tbf->cap || gc_vec_grow(gc, tbf))) {
            tbf->items[tbf->n++] = o;
            o->flags |= GCF_FINALIZED;
        } else {
            if (separate) gc_mark(gc, o); /* no room: it waits, alive, for the next cycle */
            fin->items[--keep] = o;
        }
    }
    /* the kept ones are now fin->items[keep..n): move them to the front */
    size_t nkept = fin->n - keep;
    if (nkept > 0 && keep > 0) memmove(fin->items, fin->items + keep, nkept * sizeof(void *));
    fin->n = nkept;
    return first;
}

/* --- running finalizers ------------------------------------------------------------------ */

int gc_can_run_finalizers(lua_State *L)
{
    GCState *gc = gc_state(L);
    return gc_pending_count(gc) > 0 && !gc->collecting && gc->fin_running == 0;
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

/* Take the first object of tobefnz back to the ordinary objects and call
 * its __gc. Returns 0 (doing nothing) when the stack cannot make room for
 * the call. */
static int run_one_finalizer(lua_State *L)
{
    GCState *gc = gc_state(L);
    /* Room for the function and its argument first: growing the stack may
     * collect, and the object must still be in tobefnz (a root) then. */
    if (L->stack_last - L->top <= 2 && !call_growstack(L, 2, 0)) return 0;
    GCObject *o = gc->tobefnz.items[gc->tobefnz_head++];
    if (gc->tobefnz_head == gc->tobefnz.n) gc->tobefnz_head = gc->tobefnz.n = 0;
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
