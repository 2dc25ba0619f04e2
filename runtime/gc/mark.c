/*
 * mark.c — marking for a full collection: the grey stack and the
 * traversal of every object type.
 *
 * World stopped (inside gc_collect, after its nursery collection: the
 * nursery holds only pinned objects), mutator thread. gc_mark
 * (gc_internal.h) sets an object's mark (in its space's bitmap, or its
 * header in the nursery) and pushes it on the grey stack unless it is a
 * leaf (strings, Parts: a table traverses its own storage); gc_propagate
 * pops and traverses until the stack is empty. Nothing recurses: the stack
 * is an explicit array. When it cannot grow, the object stays marked but
 * untraversed and grey_overflow is set; gc_propagate then traverses every
 * marked object of every space again (a rescan) until a pass completes
 * without overflow. Traversal is idempotent, so a rescan
 * only costs time.
 *
 * Weak tables are traversed by their mode (the raw "__mode" field of their
 * metatable) and recorded for finalize.c, which settles ephemerons and
 * clears dead entries.
 */
#include <string.h>

#include "gc_internal.h"
#include "../vm/metamethods.h"
#include "../vm/tables.h"

/* --- the grey stack ------------------------------------------------------- */

void gc_grey_push_slow(GCState *gc, GCObject *o)
{
    if (gc->grey.n == gc->grey.cap && !gc_vec_grow(gc, &gc->grey)) {
        gc->grey_overflow = 1; /* o stays marked; the rescan traverses it */
        return;
    }
    gc->grey.items[gc->grey.n++] = o;
}

static void drain(GCState *gc)
{
    while (gc->grey.n > 0) gc_traverse(gc, gc->grey.items[--gc->grey.n]);
}

/* Rescan: traverse every marked object again (traversal is idempotent). */
static void traverse_if_marked(void *ud, GCObject *o)
{
    GCState *gc = ud;
    if (gc_ismarked(gc, o) && !gc_isleaf(o->tt)) {
        gc_traverse(gc, o);
        drain(gc);
    }
}

void gc_propagate(GCState *gc)
{
    drain(gc);
    while (gc->grey_overflow) {
        gc->grey_overflow = 0;
        gc_heap_foreach(gc, 1, traverse_if_marked, gc);
        lua_State *mainth = gc->g->mainthread;
        if (mainth != NULL) traverse_if_marked(gc, obj2gco(mainth));
    }
}

/* --- walking every object ----------------------------------------------------------- */

typedef struct HeapWalk {
    void (*fn)(void *ud, GCObject *o);
    void *ud;
} HeapWalk;

static void space_object_cb(void *ud, void *obj, size_t size, int kind)
{
    HeapWalk *w = ud;
    (void)size;
    (void)kind;
    w->fn(w->ud, obj);
}

void gc_heap_foreach(GCState *gc, int with_nursery, void (*fn)(void *ud, GCObject *o), void *ud)
{
    HeapWalk w = {fn, ud};
    major_foreach(gc->major, space_object_cb, &w);
    los_foreach(gc->los, space_object_cb, &w);
    if (with_nursery) gc_nursery_foreach(gc, fn, ud);
}

/* --- tables ----------------------------------------------------------------- */

int gc_weakmode(GCState *gc, Table *mt)
{
    TString *name = gc->g->tmname[TM_MODE];
    if (name == NULL || (mt->flags & (1u << TM_MODE))) return 0;
    const TValue *mode = tm_get(mt, TM_MODE, name);
    if (mode == NULL || !ttisstring(mode)) return 0;
    const char *s = svalue(mode);
    return (strchr(s, 'k') != NULL ? WEAK_KEYS : 0) | (strchr(s, 'v') != NULL ? WEAK_VALUES : 0);
}

static inline void mark_nodekey(GCState *gc, const Node *n)
{
    if (n->key_tt & BIT_COLLECTABLE) gc_mark(gc, n->key_val.gc);
}

static void traverse_strong(GCState *gc, Table *t)
{
    TValue *array = t->array;
    for (uint32_t i = 0, n = t->asize; i < n; i++) gc_markvalue(gc, &array[i]);
    if (tab_isdummy(t)) return;
    Node *node = t->node, *limit = node + sizenode(t);
    for (Node *n = node; n < limit; n++) {
        if (isempty(gval(n))) {
            gc_clearkey(gc, n);
        } else {
            mark_nodekey(gc, n);
            gc_markvalue(gc, gval(n));
        }
    }
}

/* Weak values, strong keys. The array part and the values wait for
 * gc_clear_by_values. */
static void traverse_weakvalues(GCState *gc, Table *t)
{
    if (tab_isdummy(t)) return;
    Node *node = t->node, *limit = node + sizenode(t);
    for (Node *n = node; n < limit; n++) {
        if (isempty(gval(n)))
            gc_clearkey(gc, n);
        else
            mark_nodekey(gc, n);
    }
}

/* Is the key of [n] unreachable so far (an unmarked collectable
 * non-string)? */
static inline int key_is_white(GCState *gc, const Node *n)
{
    if (!(n->key_tt & BIT_COLLECTABLE)) return 0;
    return gc_iscleared(gc, n->key_val.gc);
}

/* Ephemeron: a value is reachable through the table only if its key is
 * reachable. Keys in the array part are integers, so array values are
 * strong. */
int gc_traverse_ephemeron(GCState *gc, Table *t, int with_array)
{
    int marked = 0;
    if (with_array) {
        TValue *array = t->array;
        for (uint32_t i = 0, n = t->asize; i < n; i++) gc_markvalue(gc, &array[i]);
    }
    if (tab_isdummy(t)) return 0;
    Node *node = t->node, *limit = node + sizenode(t);
    for (Node *n = node; n < limit; n++) {
        TValue *v = gval(n);
        if (isempty(v)) {
            gc_clearkey(gc, n);
        } else if (!key_is_white(gc, n) && iscollectable(v) && !gc_ismarked(gc, gcvalue(v))) {
            gc_mark(gc, gcvalue(v));
            marked = 1;
        }
    }
    return marked;
}

/* Weak keys and values: nothing is marked through the table. */
static void traverse_allweak(GCState *gc, Table *t)
{
    if (tab_isdummy(t)) return;
    Node *node = t->node, *limit = node + sizenode(t);
    for (Node *n = node; n < limit; n++)
        if (isempty(gval(n))) gc_clearkey(gc, n);
}

int gc_traverse_table_begin(GCState *gc, Table *t)
{
    Table *mt = t->metatable;
    if (t->array != NULL) gc_mark(gc, obj2gco(part_of(t->array)));
    if (!tab_isdummy(t)) gc_mark(gc, obj2gco(part_of(t->node)));
    if (mt == NULL) return 0;
    gc_mark(gc, obj2gco(mt));
    /* A young table traversed by a cycle's initial pause (a pinned one) is
     * not recorded with the weak tables: it may move before the final
     * pause, so it holds its entries strongly for this cycle. */
    int mode = gc->cycle_marking && gc_isyoung(gc->g, t) ? 0 : gc_weakmode(gc, mt);
    if (mode != 0) t->weak |= TAB_WEAK; /* (a __mode set after setmetatable) */
    return mode;
}

int gc_traverse_strong_range(GCState *gc, Table *t, size_t *pos, size_t count)
{
    size_t asize = t->asize, nsize = tab_isdummy(t) ? 0 : sizenode(t);
    size_t i = *pos, end = i + count;
    for (; i < asize && i < end; i++) gc_markvalue(gc, &t->array[i]);
    for (; i >= asize && i - asize < nsize && i < end; i++) {
        Node *n = &t->node[i - asize];
        if (isempty(gval(n))) {
            gc_clearkey(gc, n);
        } else {
            mark_nodekey(gc, n);
            gc_markvalue(gc, gval(n));
        }
    }
    *pos = i;
    return i >= asize + nsize;
}

static void traverse_table(GCState *gc, Table *t)
{
    int mode = gc_traverse_table_begin(gc, t);
    switch (mode) {
    case 0:
        traverse_strong(gc, t);
        break;
    case WEAK_VALUES:
        traverse_weakvalues(gc, t);
        gc_weak_note(gc, &gc->weak, t);
        break;
    case WEAK_KEYS:
        gc_traverse_ephemeron(gc, t, 1);
        gc_weak_note(gc, &gc->ephemeron, t);
        break;
    default:
        traverse_allweak(gc, t);
        gc_weak_note(gc, &gc->allweak, t);
        break;
    }
}

void gc_traverse_part(GCState *gc, Part *p)
{
    if (p->pad == PART_ARRAY) {
        TValue *a = part_payload(p);
        for (size_t i = 0, n = p->nbytes / sizeof(TValue); i < n; i++) gc_markvalue(gc, &a[i]);
    } else if (p->pad == PART_NODES) {
        Node *node = part_payload(p);
        for (size_t i = 0, n = p->nbytes / sizeof(Node); i < n; i++) {
            Node *nd = &node[i];
            if (isempty(gval(nd))) {
                gc_clearkey(gc, nd);
            } else {
                mark_nodekey(gc, nd);
                gc_markvalue(gc, gval(nd));
            }
        }
    }
}

/* --- functions ------------------------------------------------------------------ */

static void traverse_proto(GCState *gc, Proto *f)
{
    if (f->source != NULL) gc_mark(gc, obj2gco(f->source));
    for (int i = 0; i < f->sizek; i++) gc_markvalue(gc, &f->k[i]);
    for (int i = 0; i < f->sizeupvalues; i++)
        if (f->upvalues[i].name != NULL) gc_mark(gc, obj2gco(f->upvalues[i].name));
    for (int i = 0; i < f->sizep; i++)
        if (f->p[i] != NULL) gc_mark(gc, obj2gco(f->p[i]));
    for (int i = 0; i < f->sizelocvars; i++)
        if (f->locvars[i].varname != NULL) gc_mark(gc, obj2gco(f->locvars[i].varname));
}

static void traverse_lclosure(GCState *gc, LClosure *cl)
{
    if (cl->p != NULL) gc_mark(gc, obj2gco(cl->p));
    for (int i = 0; i < cl->nupvalues; i++)
        if (cl->upvals[i] != NULL) gc_mark(gc, obj2gco(cl->upvals[i]));
}

static void traverse_cclosure(GCState *gc, CClosure *cl)
{
    for (int i = 0; i < cl->nupvalues; i++) gc_markvalue(gc, &cl->upvalue[i]);
}

/* Closed: the value it holds. Open: the stack slot it names, too — the
 * value it will hold when closed, which matters when its thread dies
 * (state_freethread closes it then). */
static void traverse_upval(GCState *gc, UpVal *uv)
{
    if (uv->v != NULL) gc_markvalue(gc, uv->v);
}

/* --- userdata, threads ----------------------------------------------------------- */

static void traverse_udata(GCState *gc, Udata *u)
{
    if (u->metatable != NULL) gc_mark(gc, obj2gco(u->metatable));
    for (int i = 0; i < u->nuvalue; i++) gc_markvalue(gc, &u->uv[i]);
}

/*
 * The slots of a thread's stack that may hold live values lie below its
 * bound: its top, or, when its running frame is a Lua function, the higher
 * of its top and that frame's top (in the middle of an instruction, which
 * is where an allocation may collect, any register up to ci->top may be
 * live while L->top is stale). Frames below the running one need nothing
 * more: their live values lie below the slot of the function they called
 * (registers above a call's function slot are dead by construction, and a
 * metamethod is called at ci->top), exactly as in Lua 5.4, where a
 * collection marks up to L->top. Slots below the bound are marked; every
 * slot above, up to the end of the EXTRA_STACK room, is set to nil — the
 * contract the VM relies on: after a collection no stack slot names a
 * freed object, so a slot that a later, higher bound covers is nil or was
 * written since.
 */
void gc_traverse_thread_stack(GCState *gc, lua_State *th)
{
    gc_traverse_thread_stack_from(gc, th, 0);
}

void gc_traverse_thread_stack_from(GCState *gc, lua_State *th, size_t from)
{
    if (th->stack == NULL) return; /* being created */
    StkId slot = th->stack + from;
    StkId end = th->stack_last + EXTRA_STACK;
    StkId bound = th->top;
    if (isLua(th->ci) && th->ci->top > bound) bound = th->ci->top;
    if (bound > end) bound = end;
    for (; slot < bound; slot++) gc_markvalue(gc, s2v(slot));
    for (UpVal *uv = th->openupval; uv != NULL; uv = uv->u.open.next) gc_mark(gc, obj2gco(uv));
    for (; slot < end; slot++) setnilvalue(s2v(slot));
}

/* A major cycle scans each stack once (cycle.c): a thread scanned since
 * the cycle began, at a touch or at the initial pause, is done. */
static void traverse_thread(GCState *gc, lua_State *th)
{
    if (gc->cycle_marking) {
        if (th->gc_scanned == gc->g->gc_cycle) return;
        th->gc_scanned = gc->g->gc_cycle;
    }
    gc_traverse_thread_stack(gc, th);
}

/* --- dispatch ---------------------------------------------------------------------- */

void gc_traverse(GCState *gc, GCObject *o)
{
    switch (o->tt) {
    case HT_TABLE:
        traverse_table(gc, gco2t(o));
        break;
    case HT_LCL:
        traverse_lclosure(gc, gco2lcl(o));
        break;
    case HT_CCL:
        traverse_cclosure(gc, gco2ccl(o));
        break;
    case HT_UPVAL:
        traverse_upval(gc, gco2upv(o));
        break;
    case HT_PROTO:
        traverse_proto(gc, gco2p(o));
        break;
    case HT_UDATA:
        traverse_udata(gc, gco2u(o));
        break;
    case HT_THREAD:
        traverse_thread(gc, gco2th(o));
        break;
    case HT_PART: /* a leaf, pushed only when handed over on its own (cycle.c) */
        gc_traverse_part(gc, (Part *)(void *)o);
        break;
    default: /* strings are leaves */
        break;
    }
}
