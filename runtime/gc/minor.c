/*
 * minor.c — the nursery collection: copy what is live out of the nursery.
 *
 * World stopped, on the mutator thread, from an allocation that found the
 * nursery full, from TIDE_GC_DEBUG's countdown, or as the first step of a
 * full collection. In order:
 *  1. Pin. Nursery objects the C stack and registers point at or into
 *     (conservatively: C code holds raw pointers), and young strings in
 *     the stack slots of active C functions (lua_tostring's pointer stays
 *     valid while the value is on the stack, as the manual promises), stay
 *     where they are for this collection.
 *  2. Roots. The state's own references, every thread's stack and its list
 *     of open upvalues, strong handles, objects waiting for their
 *     finalizer, and every dirty card (the remembered set, cards.c). A
 *     young object reached from them is copied into the major heap —
 *     promotion on first survival, see below — and the reference updated;
 *     the copy is then scanned in turn (the grey stack).
 *  3. Weakness. Weak handles to dead young objects are cleared; young
 *     objects marked for finalization that nothing reached are copied
 *     (resurrected) and queued for their finalizer, newest first; tracking
 *     weak handles are cleared after that. Weak tables hold their young
 *     entries strongly until the next full collection (an object may
 *     outlive its last strong reference for a while; the manual allows it).
 *  4. The string table's chains lose their dead young strings and follow
 *     the moved ones. Only the buckets that got a young string since the
 *     last collection are looked at (strings.c logs them, and logs them
 *     all again when it rehashes the table; a log that grew too long
 *     means every bucket).
 *  5. The nursery is free again but for the pinned objects (nursery.c).
 * References that still lead to a young (pinned) object from an old one
 * keep their card dirty. Promotion that finds no memory pins the object
 * instead: it stays young, and the collection stays correct.
 *
 * Promotion on first survival, or aging (TIDE_GC_DEBUG=aging): an object
 * that survives its first collection stays where it is (pinned for that
 * collection, GCF_AGED) and is promoted by the second, so that what lives
 * a little longer than one collection never reaches the major heap; the
 * aged objects occupy the nursery meanwhile, and allocation goes on in the
 * fragments around them. Promotion on first survival is the default.
 * Measured on the samples (600 frames, seed 1): aging promotes much less
 * where objects live a few frames (coroutines 51 -> 19 MB, shooter 1.6 ->
 * 0.7 MB) but on a world whose nursery survival is ~65% the aged objects
 * crowd the nursery: twice the collections, p99 pause 8.4 -> 16 ms, for
 * 9% less promoted (runtime/README.md has the table).
 */
#include <stdio.h>

#include "gc_internal.h"
#include "../vm/funcs.h"

/* The promotion front's sizes, in 16-byte steps: those the slow path keeps
 * young (larger young objects, which the fast path takes when they fit its
 * window, are few, and may go to the large-object space). */
#define FRONT_MAX GC_YOUNG_MAX
#define FRONT_SIZES (FRONT_MAX / 16 + 1)

/* References counted from old objects to one pinned object (cementing). */
typedef struct CementCount {
    GCObject *o;
    uint32_t refs;
} CementCount;

typedef struct Minor {
    GCState *gc;
    GlobalState *g;
    size_t promoted;     /* bytes copied out */
    int overflow;        /* the grey or pin list could not grow: rescan */
    int pins_lost;       /* the pin list could not grow: the nursery stays full */
    int no_promote;      /* walking the old spaces: pin, never allocate there */
    size_t logged_slots, logged_objects; /* the remembered set's logs, for the trace */
    lua_State *running;  /* the thread the collection was started from */
    CementCount *counts; /* references from old objects to pinned ones */
    size_t counts_cap, counts_used, cemented;
    int aging;           /* objects survive one collection in place before promotion */
    size_t stack_slots;  /* stack slots scanned, and cleared above the live ones (trace) */
    size_t stack_cleared;
    uint64_t stacks_ns;  /* time on the threads' stacks (nursery.c's budget) */
    /* The promotion front: per kind (refs, none) and size in 16-byte
     * steps, the major block the last copy of that size went to, taken
     * from inline while it has room (major_take_slot); the bytes taken so
     * are counted in front_bytes and added to the heap's at the end. Half
     * the cost of a copy was the two calls and the class lookup of each
     * promotion's allocation (samples/world's generating frames, perf). */
    MajorBlock *front[MAJOR_KINDS][FRONT_SIZES];
    size_t front_bytes;
    int black;           /* the major heap's black allocation, for the front */
    uint32_t black_epoch;
} Minor;

#define young(m, p) gc_isyoung((m)->g, (p))

/* --- pinning, copying ---------------------------------------------------------- */

static void pin(Minor *m, GCObject *o)
{
    if (o->flags & (GCF_PINNED | GCF_FORWARDED)) return;
    o->flags |= GCF_PINNED;
    if (!gc_vec_push(m->gc, &m->gc->pinned, o)) m->overflow = m->pins_lost = 1;
    else if (!gc_isleaf(o->tt) || o->tt == HT_PART) gc_grey_push(m->gc, o);
    if (m->gc->grey_overflow) m->overflow = 1;
}

static void pin_cb(void *ud, GCObject *o)
{
    pin(ud, o);
}

/* Room in the major heap for a copy of [size] bytes; NULL if there is none. */
static inline GCObject *alloc_copy(Minor *m, size_t size, int isstring)
{
    if (size > FRONT_MAX) return gc_alloc_old(m->gc, size, isstring, 1);
    MajorBlock **front = &m->front[isstring ? MAJOR_NOREFS : MAJOR_REFS][(size + 15) >> 4];
    MajorBlock *b = *front;
    if (b != NULL && b->nfree > 0) {
        GCObject *n = major_take_slot(b, m->black, m->black_epoch);
        n->age = GC_SPACE_MAJOR;
        m->front_bytes += b->obj_size;
        return n;
    }
    GCObject *n = gc_alloc_old(m->gc, size, isstring, 1); /* (counted there) */
    if (n != NULL) {
        lua_assert(n->age == GC_SPACE_MAJOR);
        *front = major_block_of(n);
    }
    return n;
}

/* The bytes the front took, now the heap's. */
static void front_done(Minor *m)
{
    GCState *gc = m->gc;
    gc->old += m->front_bytes;
    gc->old_added += m->front_bytes;
    major_add_slot_bytes(gc->major, m->front_bytes);
    m->front_bytes = 0;
}

/* Copy [n] bytes (a multiple of GC_ALIGN, which the source's span and the
 * destination both cover) in 16-byte steps, inline: most objects are a few
 * dozen bytes, where the call to memcpy cost more than the copy (promotion
 * on a high-survival loop: 3.66 -> 3.80 MB/ms). */
static inline void copy_words(void *to, const void *from, size_t n)
{
    char *d = to;
    const char *s = from;
    for (size_t i = 0; i < n; i += GC_ALIGN) memcpy(d + i, s + i, GC_ALIGN);
}

static GCObject *promote(Minor *m, GCObject *o)
{
    size_t size = gc_object_size(o);
    int isstring = novariant(o->tt) == LUA_TSTRING;
    GCObject *n = alloc_copy(m, size, isstring);
    if (n == NULL) { /* no memory: it stays young */
        pin(m, o);
        return o;
    }
    uint8_t space = n->age;
    if (size <= FRONT_MAX)
        copy_words(n, o, gc_round(size)); /* (a major slot: a multiple of 16 as well) */
    else
        memcpy(n, o, size); /* (maybe a large object, of [size] bytes exactly) */
    n->age = space;
    n->flags &= (uint8_t) ~(GCF_PINNED | GCF_FORWARDED | GCF_AGED);
    n->marked = 0;
    if (o->tt == HT_UPVAL) { /* a closed upvalue points into itself */
        UpVal *ou = gco2upv(o), *nu = gco2upv(n);
        if (!upval_isopen(ou)) nu->v = &nu->u.value;
    }
    o->flags |= GCF_FORWARDED;
    o->idhash = (uint32_t)gc_round(size); /* the husk's span (nursery.c) */
    gc_forward_slot(o) = n;
    m->promoted += size;
    if (!isstring) {
        gc_grey_push(m->gc, n);
        if (m->gc->grey_overflow) m->overflow = 1;
    }
    return n;
}

/* Where the young object [o] is now: its copy, itself if pinned, or a new
 * copy. */
static inline GCObject *forward(Minor *m, GCObject *o)
{
    if (o->flags & GCF_FORWARDED) return gc_forward_slot(o);
    if (o->flags & GCF_PINNED) return o;
    if (m->no_promote || (m->aging && !(o->flags & GCF_AGED))) {
        /* aging: the first survival keeps the object where it is */
        o->flags |= GCF_AGED;
        pin(m, o);
        return o;
    }
    return promote(m, o);
}

/* Fix one reference; returns 1 if it still leads to a young object that
 * is not cemented (a cemented one is a root: nothing needs to remember
 * it). */
static inline int fix_ref(Minor *m, GCObject **ref)
{
    GCObject *o = *ref;
    if (o == NULL || !young(m, o)) return 0;
    o = forward(m, o);
    *ref = o;
    return young(m, o) && !(o->flags & GCF_CEMENTED);
}

static inline int fix_value(Minor *m, TValue *v)
{
    if (!iscollectable(v)) return 0;
    return fix_ref(m, &v->v.gc);
}

#define FIX(m, field) fix_ref((m), (GCObject **)(void *)&(field))

/* --- scanning objects -------------------------------------------------------------- */

/* --- cementing -------------------------------------------------------------------------
 * A pinned object that many old objects reference would keep all their
 * slots in the remembered set, collection after collection. Once
 * CEMENT_REFS references from old objects to it are found in one
 * collection, it is cemented instead: it stays in place and is a root of
 * every nursery collection (so nothing needs to remember it) until a full
 * collection finds it dead. References are counted in a small table keyed
 * by the pinned object, made on demand; without memory for it nothing is
 * cemented. */
#define CEMENT_REFS 64

static void cement(Minor *m, GCObject *o)
{
    if (!gc_vec_push(m->gc, &m->gc->cemented, o)) return;
    o->flags |= GCF_CEMENTED;
    m->cemented++;
}

/* A reference from an old object leads to the young [o] after the fix:
 * 1 if it must be remembered, 0 if [o] is (now) cemented. */
static int keep_old_ref(Minor *m, GCObject *o)
{
    if (m->counts == NULL) {
        size_t cap = 64;
        while (cap < m->gc->pinned.n * 2) cap *= 2;
        m->counts = gc_internal_realloc(m->gc, NULL, 0, cap * sizeof(CementCount));
        if (m->counts == NULL) return 1;
        memset(m->counts, 0, cap * sizeof(CementCount));
        m->counts_cap = cap;
    }
    size_t mask = m->counts_cap - 1;
    size_t i = ((uintptr_t)o >> 4) * 0x9E3779B97F4A7C15ull >> 20 & mask;
    for (size_t probes = 0; probes < m->counts_cap; probes++, i = (i + 1) & mask) {
        CementCount *c = &m->counts[i];
        if (c->o == NULL) {
            if (m->counts_used * 2 >= m->counts_cap) return 1; /* full enough: stop counting */
            c->o = o;
            m->counts_used++;
        }
        if (c->o != o) continue;
        if (++c->refs < CEMENT_REFS) return 1;
        cement(m, o);
        return !(o->flags & GCF_CEMENTED);
    }
    return 1;
}

/* [count] nodes of old (or young) storage [p] from [n]. */
static void scan_part_nodes(Minor *m, Part *p, Node *n, size_t count)
{
    int remember = !young(m, p);
    for (; count > 0; count--, n++) {
        /* a node may straddle two cards: each field keeps its own entry */
        if (fix_value(m, gval(n)) && remember && keep_old_ref(m, gcvalue(gval(n))))
            gc_remember_slot(m->gc, p, gval(n));
        if ((n->key_tt & BIT_COLLECTABLE) && fix_ref(m, &n->key_val.gc) && remember && keep_old_ref(m, n->key_val.gc))
            gc_remember_slot(m->gc, p, &n->key_val);
    }
}

static void scan_part_range(Minor *m, Part *p, char *lo, char *hi)
{
    int remember = !young(m, p);
    char *payload = part_payload(p);
    if (p->pad == PART_ARRAY) {
        TValue *a = (TValue *)(void *)payload;
        size_t first = (size_t)(lo - payload) / sizeof(TValue);
        size_t last = ((size_t)(hi - payload) + sizeof(TValue) - 1) / sizeof(TValue);
        for (size_t i = first; i < last; i++)
            if (fix_value(m, &a[i]) && remember && keep_old_ref(m, gcvalue(&a[i]))) gc_remember_slot(m->gc, p, &a[i]);
    } else if (p->pad == PART_NODES) {
        size_t first = (size_t)(lo - payload) / sizeof(Node);
        size_t last = ((size_t)(hi - payload) + sizeof(Node) - 1) / sizeof(Node);
        scan_part_nodes(m, p, (Node *)(void *)payload + first, last - first);
    }
}

static void scan_table(Minor *m, Table *t, int *y)
{
    *y |= FIX(m, t->metatable);
    if (t->array != NULL) {
        GCObject *p = obj2gco(part_of(t->array));
        if (young(m, p)) {
            GCObject *np = forward(m, p);
            /* (release: the worker reads storage through it, worker.c) */
            __atomic_store_n(&t->array, (TValue *)part_payload((Part *)(void *)np), __ATOMIC_RELEASE);
            *y |= young(m, np);
        }
    }
    if (!tab_isdummy(t)) {
        GCObject *p = obj2gco(part_of(t->node));
        if (young(m, p)) {
            GCObject *np = forward(m, p);
            if (np != p) {
                Node *oldnode = t->node, *newnode = part_payload((Part *)(void *)np);
                if (t->lastfree != NULL) t->lastfree = newnode + (t->lastfree - oldnode);
                __atomic_store_n(&t->node, newnode, __ATOMIC_RELEASE);
            }
            *y |= young(m, np);
        }
    }
}

static void scan_proto(Minor *m, Proto *f, int *y)
{
    *y |= FIX(m, f->source);
    for (int i = 0; i < f->sizek; i++) *y |= fix_value(m, &f->k[i]);
    for (int i = 0; i < f->sizeupvalues; i++) *y |= FIX(m, f->upvalues[i].name);
    for (int i = 0; i < f->sizep; i++) *y |= FIX(m, f->p[i]);
    for (int i = 0; i < f->sizelocvars; i++) *y |= FIX(m, f->locvars[i].varname);
}

/* Fix every reference [o] holds; an old object that still references a
 * young one keeps (or gets) its card. */
static void scan_object(Minor *m, GCObject *o)
{
    int y = 0;
    switch (o->tt) {
    case HT_TABLE:
        scan_table(m, gco2t(o), &y);
        break;
    case HT_PART: {
        Part *p = (Part *)(void *)o;
        scan_part_range(m, p, part_payload(p), (char *)part_payload(p) + p->nbytes);
        return; /* remembered slot by slot */
    }
    case HT_LCL: {
        LClosure *cl = gco2lcl(o);
        y |= FIX(m, cl->p);
        for (int i = 0; i < cl->nupvalues; i++) y |= FIX(m, cl->upvals[i]);
        break;
    }
    case HT_CCL: {
        CClosure *cl = gco2ccl(o);
        for (int i = 0; i < cl->nupvalues; i++) y |= fix_value(m, &cl->upvalue[i]);
        break;
    }
    case HT_UPVAL: {
        /* Open: the value is a stack slot, maybe of a thread this
         * collection skips as clean; the upvalue is remembered when a young
         * value was stored through it (OP_SETUPVAL, lua_setupvalue). The
         * links are the thread's. */
        UpVal *uv = gco2upv(o);
        y |= fix_value(m, uv->v);
        break;
    }
    case HT_PROTO:
        scan_proto(m, gco2p(o), &y);
        break;
    case HT_UDATA: {
        Udata *u = gco2u(o);
        y |= FIX(m, u->metatable);
        for (int i = 0; i < u->nuvalue; i++) y |= fix_value(m, &u->uv[i]);
        break;
    }
    default: /* strings; threads are scanned as roots */
        break;
    }
    if (y && !young(m, o)) gc_remember_object(m->gc, o);
}

static void drain(Minor *m)
{
    GCVec *grey = &m->gc->grey;
    while (grey->n > 0) scan_object(m, grey->items[--grey->n]);
}

static void card_object_cb(void *ud, GCObject *o)
{
    scan_object(ud, o);
}

static void card_part_cb(void *ud, Part *p, char *lo, char *hi)
{
    scan_part_range(ud, p, lo, hi);
}

/* --- threads ------------------------------------------------------------------------ */

/* A running stack with more slots than this above its live ones, four
 * times as many, is shrunk at the next safe point. */
#define STACK_SHRINK_SLOTS ((ptrdiff_t)64 * 1024)

/* The end of the slots that may be live on [th]'s stack (as for a full
 * mark, mark.c); above it, up to stack_last + EXTRA_STACK, nothing is. */
static StkId live_bound(lua_State *th)
{
    StkId end = th->stack_last + EXTRA_STACK, bound = th->top;
    if (isLua(th->ci) && th->ci->top > bound) bound = th->ci->top;
    return bound < end ? bound : end;
}

/* Above its live slots every nursery collection clears a stack whole (a
 * dead object's address would otherwise linger there for a later scan):
 * one that grew for a million values and went back to a few hundred would
 * cost milliseconds each time. The running stack is shrunk at the next
 * safe point (call_shrinkstack moves it, which no allocation may: gc.h,
 * gc_check); the others shrink at the end of a major cycle. */
static int stack_oversized(lua_State *th)
{
    StkId bound = live_bound(th), end = th->stack_last + EXTRA_STACK;
    return end - bound > STACK_SHRINK_SLOTS && end - bound > 4 * (bound - th->stack);
}

void gc_note_oversized_stack(lua_State *L)
{
    GCState *gc = gc_state(L);
    if (L->stack == NULL || gc->stack_shrink_pending || !stack_oversized(L)) return;
    gc->stack_shrink_pending = 1;
    gc_set_debt(gc);
}

/* [v] needs fixing by a nursery collection. */
#define young_value(g, v) (iscollectable(v) && gc_isyoung((g), gcvalue(v)))

/* Above its live slots, up to the highest frame top since the last
 * collection, [th]'s stack is set to nil (a dead young object's address
 * must not linger there for a later scan whose bound is higher); the mark
 * then follows the live slots (state.h, stack_hwm). Returns the slots
 * cleared. */
static size_t clear_above_live(lua_State *th, StkId bound)
{
    StkId base = th->stack, end = th->stack_last + EXTRA_STACK;
    StkId written = base + th->stack_hwm + EXTRA_STACK;
    if (written > end) written = end;
    for (StkId slot = bound; slot < written; slot++) setnilvalue(s2v(slot));
    th->stack_hwm = (uint32_t)(bound - base);
    return written > bound ? (size_t)(written - bound) : 0;
}

/* The slots from the young floor up to those that may be live (as for a
 * full mark, mark.c), but for the clean gap; above them the stack is
 * cleared (clear_above_live). The floor and the gap then rise to the
 * lowest slot the running frame may write: below it nothing young is
 * left, and nothing is written until control returns there (state.h,
 * young_floor), but for the slots of young objects left pinned: the floor
 * stays below them. A deep stack costs its top frames, not its depth. */
static void scan_thread(Minor *m, lua_State *th)
{
    StkId base = th->stack;
    if (base == NULL || th->stack_clean) return;
    StkId bound = live_bound(th);
    StkId from = base + th->young_floor, gap_lo = base + th->young_gap_lo, gap_hi = base + th->young_gap_hi;
    lua_assert(from <= gap_lo && gap_lo <= gap_hi && gap_hi <= bound);
    size_t floor = gc_frame_lowest(th, th->ci);
    int y = 0;
    for (StkId slot = from; slot < bound; slot++) {
        if (slot == gap_lo) slot = gap_hi; /* (clean) */
        if (slot >= bound || !fix_value(m, s2v(slot))) continue;
        y = 1;
        if ((size_t)(slot - base) < floor) floor = (size_t)(slot - base);
    }
    m->stack_slots += (size_t)(bound - from) - (size_t)(gap_hi - gap_lo);
    if (th == m->running && stack_oversized(th)) m->gc->stack_shrink_pending = 1; /* (gc_set_debt follows) */
    m->stack_cleared += clear_above_live(th, bound);
    /* Open upvalues: the list is the thread's, relinked here, highest slot
     * first. Those below the floor, or in the gap, are old: an upvalue is
     * made for a slot of the running frame, and one left young there kept
     * the floor below it. */
    UpVal **link = &th->openupval;
    for (UpVal *uv; (uv = *link) != NULL; link = &uv->u.open.next) {
        if (upval_level(uv) < from) {
            uv->u.open.previous = link;
            break;
        }
        if (young(m, uv)) uv = gco2upv(forward(m, obj2gco(uv)));
        *link = uv;
        uv->u.open.previous = link;
        if (young(m, uv)) {
            y = 1;
            if ((size_t)(upval_level(uv) - base) < floor) floor = (size_t)(upval_level(uv) - base);
        }
    }
    th->young_floor = th->young_gap_lo = th->young_gap_hi = (uint32_t)floor;
    /* A suspended or idle thread changes only through the API or a resume
     * (thread_touch): until then, with nothing young on it, skip it. A
     * running one, or one that resumed another, writes its stack itself.
     * A closure with one of its open upvalues may store into it without a
     * touch (OP_SETUPVAL): that store remembers the upvalue, whose scan
     * fixes the slot (scan_object). */
    if (!y && gc_thread_idle(th) && th != m->running) th->stack_clean = 1;
}

/* [L] has just stopped running: a resume of it returned (it yielded,
 * finished or died). It changes next through a resume or the API
 * (thread_touch), and its stack is in the cache now, where a nursery
 * collection would take three cache misses for it (the state, the frame,
 * the stack) — for each of the thousands of coroutines a game resumes
 * between two collections, when 2–7% of them hold anything young
 * (samples/coroutines: 2,400–3,200 stacks, 0.35–0.9 ms a collection).
 * If nothing young is on it, it is left as a collection would leave it
 * (cleared above its live slots, its floor at its frame) and clean, and
 * off the dirty list if it is last there: a resume lists the thread it
 * resumes, and nested resumes return in the reverse order. Values the
 * resumer then pops (lua_xmove, which leaves [L] clean) are old or not
 * collectable, and stay so. */
void gc_thread_stopped(lua_State *L)
{
    StkId base = L->stack;
    if (base == NULL || L->stack_clean || !gc_thread_idle(L)) return;
    GlobalState *g = G(L);
    StkId bound = live_bound(L);
    StkId from = base + L->young_floor, gap_lo = base + L->young_gap_lo, gap_hi = base + L->young_gap_hi;
    size_t floor = gc_frame_lowest(L, L->ci);
    int young = 0;
    for (StkId slot = from; slot < bound; slot++) {
        if (slot == gap_lo) slot = gap_hi; /* (clean) */
        if (slot < bound && young_value(g, s2v(slot))) {
            young = 1; /* (the lowest: the floor stays below it) */
            if ((size_t)(slot - base) < floor) floor = (size_t)(slot - base);
            break;
        }
    }
    for (UpVal *uv = L->openupval; uv != NULL && upval_level(uv) >= from; uv = uv->u.open.next)
        if (gc_isyoung(g, uv)) {
            young = 1;
            if ((size_t)(upval_level(uv) - base) < floor) floor = (size_t)(upval_level(uv) - base);
        }
    /* Either way the stack is cleared above its live slots now, while it
     * is in the cache, and its floor raised as a collection would raise
     * it: a thread left dirty (samples/coroutines' first frame starts
     * 5,500 scripts, each with young locals) then costs the collection its
     * live slots only, not the ~28 slots above them it used to clear, a
     * cache miss every four. */
    clear_above_live(L, bound);
    L->young_floor = L->young_gap_lo = L->young_gap_hi = (uint32_t)floor;
    if (young) return;
    L->stack_clean = 1;
    GCState *gc = gc_state(L);
    GCVec *dirty = &gc->dirty_threads;
    if (!gc->dirty_threads_lost && dirty->n > 0 && dirty->items[dirty->n - 1] == L) dirty->n--;
}

/* A clean gap shorter than this, with young slots below it, is given up
 * for a later, longer one (the thread has one gap). */
#define GAP_KEEP ((size_t)1024)

/* Young open upvalues whose slots the scan between collections can step
 * over (a young value's way); it stops at the next one. */
#define YOUNG_UPVALS_NOTED 8

/* Slots looked at between two looks at the clock; a slice that may look at
 * fewer is not reported as a pause (tide.h, TIDE_GC_PAUSE_STACK_STEP). */
#define STACK_STEP_SLOTS ((size_t)4096)

/* Between nursery collections: look at the slots below [L]'s running
 * frame, upwards from its clean gap, for about [max_ns], and raise the
 * floor and the gap over those that hold nothing young, so that the next
 * collection does not scan them in its pause (state.h, young_floor). The
 * slots below the running frame change only once control returns there,
 * which lowers floor and gap again (gc_stack_return). A young value stops
 * the floor (it stays below it); above it a new gap begins. So does the
 * slot of a young open upvalue: the collection relinks those, and the
 * floor and the gap must leave them to it. Returns 1 if slots are left to
 * look at. */
int gc_raise_young_floor(lua_State *L, uint64_t max_ns)
{
    StkId base = L->stack;
    if (base == NULL) return 0;
    GlobalState *g = G(L);
    size_t floor = L->young_floor, lo = L->young_gap_lo, hi = L->young_gap_hi;
    size_t limit = gc_frame_lowest(L, L->ci);
    if (hi >= limit) return 0;
    /* the young open upvalues' slots, lowest first (the list is highest
     * first): the scan stops at each; past the last one noted, at all */
    size_t young_uv[YOUNG_UPVALS_NOTED], nuv = 0;
    for (UpVal *uv = L->openupval; uv != NULL && upval_level(uv) >= base + hi; uv = uv->u.open.next) {
        if (!gc_isyoung(g, uv) || upval_level(uv) >= base + limit) continue;
        if (nuv == YOUNG_UPVALS_NOTED) limit = young_uv[--nuv]; /* the highest noted goes */
        memmove(young_uv + 1, young_uv, nuv * sizeof *young_uv);
        young_uv[0] = (size_t)(upval_level(uv) - base);
        nuv++;
    }
    GCState *gc = gc_state(L);
    int report = limit - hi >= STACK_STEP_SLOTS;
    uint64_t start = 0, deadline = 0;
    size_t heap_before = 0;
    if (report) {
        gc_frames_note_pause_begin(gc, TIDE_GC_PAUSE_STACK_STEP);
        start = gc_now_ns();
        deadline = start + max_ns;
        heap_before = gc_total(gc);
    }
    size_t s = hi, next_look = hi + STACK_STEP_SLOTS, next_uv = 0;
    int kept_gap = 0;
    for (; s < limit; s++) {
        if (s == next_look) {
            if (gc_now_ns() >= deadline) break;
            next_look += STACK_STEP_SLOTS;
        }
        if (next_uv < nuv && young_uv[next_uv] == s) {
            next_uv++;
        } else if (!young_value(g, s2v(base + s))) {
            continue;
        }
        /* young at s: [hi, s) is clean */
        if (floor == lo) {
            floor = s; /* everything below s is clean */
        } else if (s - lo >= GAP_KEEP) {
            kept_gap = 1; /* keep the gap [lo, s) */
            break;
        }
        lo = s + 1; /* (a short gap above young slots is given up) */
    }
    hi = s > lo ? s : lo;
    if (floor == lo) floor = lo = hi; /* the gap reaches down to the floor */
    L->young_floor = (uint32_t)floor;
    L->young_gap_lo = (uint32_t)lo;
    L->young_gap_hi = (uint32_t)hi;
    if (report) gc_frames_note_pause(gc, TIDE_GC_PAUSE_STACK_STEP, start, gc_now_ns() - start, heap_before);
    return s < limit && !kept_gap;
}

/* Young strings in the slots of the active C functions of [th] (the base
 * frame included: the host's own values), from its young floor up (below
 * it nothing is young: a string pinned there lowered the floor). */
static void pin_c_frames(Minor *m, lua_State *th)
{
    if (th->stack == NULL || th->stack_clean) return;
    StkId floor = th->stack + th->young_floor, hi = th->top;
    for (CallInfo *ci = th->ci; ci != NULL; hi = ci->func, ci = ci->previous) {
        StkId lo = ci == &th->base_ci ? th->stack : ci->func;
        if (!isLua(ci))
            for (StkId s = lo > floor ? lo : floor; s < hi; s++) {
                TValue *v = s2v(s);
                if (ttisstring(v) && young(m, gcvalue(v))) pin(m, gcvalue(v));
            }
        if (lo <= floor) break;
    }
}

/* The main thread and the dirty ones (all of them if the list is lost):
 * with thousands of suspended coroutines, visiting each would cost a cache
 * miss apiece, in every collection, for threads that did not run.
 * The time spent on the stacks counts in the fixed part of the pause (the
 * budget, nursery.c), though fewer threads run between closer
 * collections: a game resumes its coroutines all through the frame, so
 * that most of them run between any two collections, and a smaller budget
 * would mostly multiply the scans (measured on samples/coroutines: 9 times
 * the nursery collections' time for a 25% shorter pause). */
static void for_each_thread(Minor *m, void (*fn)(Minor *m, lua_State *th))
{
    GCState *gc = m->gc;
    if (gc->g->mainthread != NULL) fn(m, gc->g->mainthread);
    GCVec *list = gc->dirty_threads_lost ? &gc->threads : &gc->dirty_threads;
    for (size_t i = 0; i < list->n; i++) fn(m, list->items[i]);
}

/* After the stacks were scanned: the list keeps the threads still dirty. */
static void relist_dirty_threads(GCState *gc)
{
    GCVec *dirty = &gc->dirty_threads;
    if (gc->dirty_threads_lost) {
        dirty->n = 0;
        gc->dirty_threads_lost = 0;
        for (size_t i = 0; i < gc->threads.n; i++) {
            lua_State *th = gc->threads.items[i];
            if (!th->stack_clean && !gc_vec_push(gc, dirty, th)) gc->dirty_threads_lost = 1;
        }
        return;
    }
    size_t kept = 0;
    for (size_t i = 0; i < dirty->n; i++) {
        lua_State *th = dirty->items[i];
        if (!th->stack_clean) dirty->items[kept++] = th;
    }
    dirty->n = kept;
}

void gc_list_dirty_thread(GCState *gc, lua_State *th)
{
    th->stack_clean = 0;
    if (!gc_vec_push(gc, &gc->dirty_threads, th)) gc->dirty_threads_lost = 1;
}

void gc_thread_dirty(lua_State *L)
{
    gc_list_dirty_thread(gc_state(L), L);
}

/* --- roots --------------------------------------------------------------------------- */

static void pin_words(void *ud, const uintptr_t *w, size_t n)
{
    Minor *m = ud;
    gc_nursery_find(m->gc, w, n, pin_cb, m);
}

/* Returns the time the conservative scan took: finding the objects the
 * words point into walks the nursery up to the highest one, a walk that
 * follows the bytes allocated (the budget's scaled part, nursery.c). */
static uint64_t pin_roots(Minor *m)
{
    GCState *gc = m->gc;
    Nursery *ns = &gc->nursery;
    uint64_t start = gc_now_ns();
    gc_stack_words(gc, (uintptr_t)ns->lo, (uintptr_t)ns->hi, pin_words, m);
    uint64_t walk_ns = gc_now_ns() - start;
    uint64_t frames_start = gc_now_ns();
    for_each_thread(m, pin_c_frames);
    m->stacks_ns += gc_now_ns() - frames_start;
    for (size_t i = 0; i < gc->cemented.n; i++) pin(m, gc->cemented.items[i]);
    return walk_ns;
}

static void handle_value_cb(void *ud, TValue *v)
{
    fix_value(ud, v);
}

/* Slot-log entries fetched ahead of the one being visited. */
#define RS_PREFETCH 16

/* One slot of the slot log (released storage reads nil). */
static void scan_logged_slot(Minor *m, RememberedSlot e)
{
    Part *p = rs_part(e);
    if (rs_kind(e) == PART_ARRAY) {
        TValue *v = e.slot;
        if (fix_value(m, v) && keep_old_ref(m, gcvalue(v))) gc_remember_slot(m->gc, p, v);
    } else { /* the node holding the slot: its value and its key */
        char *payload = part_payload(p);
        size_t i = (size_t)((char *)e.slot - payload) / sizeof(Node);
        scan_part_nodes(m, p, (Node *)(void *)payload + i, 1);
    }
}

/* The logs of the remembered set (cards.c): each logged slot, each logged
 * object. What still leads to a young object afterwards is logged again,
 * in fresh logs. */
static void scan_remembered(Minor *m)
{
    GCState *gc = m->gc;
    RememberedSlot *slots = gc->rs_slots;
    size_t nslots = gc->rs_nslots, slots_cap = gc->rs_slots_cap;
    GCVec objects = gc->rs_objects;
    gc->rs_slots = NULL;
    gc->rs_nslots = gc->rs_slots_cap = 0;
    gc_rs_recent_clear(gc);
    memset(&gc->rs_objects, 0, sizeof gc->rs_objects);
    m->logged_slots = nslots;
    m->logged_objects = objects.n;
    for (size_t i = 0; i < nslots; i++) {
        /* The slots are scattered over the old heap, and what they hold
         * over the nursery: fetch both ahead (the slot first, then, once it
         * has arrived, what it points at), so that the misses overlap. */
        if (i + 2 * RS_PREFETCH < nslots) __builtin_prefetch(slots[i + 2 * RS_PREFETCH].slot, 1);
        if (i + RS_PREFETCH < nslots) {
            /* a value slot, or a node's key, which has a value's layout */
            const TValue *ahead = slots[i + RS_PREFETCH].slot;
            if (iscollectable(ahead)) __builtin_prefetch(gcvalue(ahead));
        }
        scan_logged_slot(m, slots[i]);
    }
    for (size_t i = 0; i < objects.n; i++) {
        GCObject *o = objects.items[i];
        o->flags &= (uint8_t)~GCF_REMEMBERED;
        scan_object(m, o);
    }
    /* keep the larger buffers for the next cycle */
    if (gc->rs_slots == NULL) {
        gc->rs_slots = slots;
        gc->rs_slots_cap = slots_cap;
    } else if (slots != NULL) {
        gc_internal_realloc(gc, slots, slots_cap * sizeof(RememberedSlot), 0);
    }
    if (gc->rs_objects.items == NULL) {
        gc->rs_objects.items = objects.items;
        gc->rs_objects.cap = objects.cap;
    } else {
        gc_vec_free(gc, &objects);
    }
}

static void fix_roots(Minor *m)
{
    GCState *gc = m->gc;
    GlobalState *g = m->g;
    fix_value(m, &g->l_registry);
    for (int i = 0; i < LUA_NUMTYPES; i++) FIX(m, g->mt[i]);
    for (int i = 0; i < TM_COUNT; i++) FIX(m, g->tmname[i]);
    FIX(m, g->memerrmsg);
    for_each_thread(m, scan_thread);
    gc_handles_foreach_kind(gc, HANDLE_STRONG, handle_value_cb, m);
    for (size_t i = gc->tobefnz_head; i < gc->tobefnz.n; i++) fix_ref(m, (GCObject **)&gc->tobefnz.items[i]);
}

/* The old objects' references to young ones: the remembered set's logs
 * and the dirty cards. */
static void fix_old_to_young(Minor *m)
{
    scan_remembered(m);
    gc_cards_visit(m->gc, card_object_cb, card_part_cb, m);
}

static void scan_if_pinned_cb(void *ud, GCObject *o)
{
    if (o->flags & GCF_PINNED) scan_object(ud, o);
}

/* After an overflow some copies or pinned objects were not queued: scan
 * every old object and every pinned one again (scanning is idempotent).
 * The walk over the old spaces must not allocate in them, so what it
 * finds young is pinned rather than copied. */
static void rescan_all(Minor *m)
{
    while (m->overflow) {
        m->overflow = 0;
        m->gc->grey_overflow = 0;
        m->no_promote = 1;
        gc_heap_foreach(m->gc, 0, card_object_cb, m);
        m->no_promote = 0;
        drain(m);
        if (m->pins_lost) /* pinned objects the list lost: find them by their flag */
            gc_nursery_foreach(m->gc, scan_if_pinned_cb, m);
        else
            for (size_t i = 0; i < m->gc->pinned.n; i++) scan_object(m, m->gc->pinned.items[i]);
        drain(m);
    }
}

/* --- weakness and finalization --------------------------------------------------------- */

/* A young object nothing reached. */
static inline int dead_young(Minor *m, const GCObject *o)
{
    return young(m, o) && !(o->flags & (GCF_FORWARDED | GCF_PINNED));
}

static void weak_handle_cb(void *ud, TValue *v)
{
    Minor *m = ud;
    if (!iscollectable(v) || !young(m, gcvalue(v))) return;
    GCObject *o = gcvalue(v);
    if (ttisstring(v)) /* strings are values: a weak handle keeps them */
        fix_value(m, v);
    else if (dead_young(m, o))
        setnilvalue(v);
    else if (o->flags & GCF_FORWARDED)
        v->v.gc = gc_forward_slot(o);
}

/* Young finalizable objects nothing reached go to tobefnz (newest first,
 * the manual's order) and are copied with all they reach; the others
 * follow their moves. */
static void separate_finalizable(Minor *m)
{
    GCState *gc = m->gc;
    GCVec *fin = &gc->finobj;
    size_t first_new = gc->tobefnz.n;
    for (size_t i = fin->n; i-- > 0;) {
        GCObject *o = fin->items[i];
        if (dead_young(m, o) && gc_vec_push(gc, &gc->tobefnz, o)) {
            o->flags |= GCF_FINALIZED;
            fin->items[i] = NULL;
        }
    }
    size_t kept = 0;
    for (size_t i = 0; i < fin->n; i++)
        if (fin->items[i] != NULL) fin->items[kept++] = fin->items[i];
    fin->n = kept;
    for (size_t i = first_new; i < gc->tobefnz.n; i++) fix_ref(m, (GCObject **)&gc->tobefnz.items[i]);
    drain(m);
    rescan_all(m);
    for (size_t i = 0; i < fin->n; i++) fix_ref(m, (GCObject **)&fin->items[i]);
    drain(m);
    rescan_all(m);
}

/* --- the string table ---------------------------------------------------------------------- */

/* One chain: dead young strings leave, moved ones are followed. */
static void fix_chain(Minor *m, TString **link)
{
    StringTable *tb = &m->g->strt;
    TString *ts;
    while ((ts = *link) != NULL) {
        GCObject *o = obj2gco(ts);
        if (young(m, ts)) {
            if (o->flags & GCF_FORWARDED) {
                ts = gco2ts(gc_forward_slot(o));
                *link = ts;
            } else if (!(o->flags & GCF_PINNED)) {
                *link = ts->u.hnext;
                tb->nuse--;
                continue;
            }
        }
        link = &ts->u.hnext;
    }
}

static void fix_string_table(Minor *m)
{
    GCState *gc = m->gc;
    StringTable *tb = &m->g->strt;
    if (tb->hash == NULL) return;
    if (gc->string_walk_all) {
        for (int i = 0; i < tb->size; i++) fix_chain(m, &tb->hash[i]);
    } else {
        for (size_t i = 0; i < gc->nstring_buckets; i++) fix_chain(m, &tb->hash[gc->string_buckets[i]]);
    }
    gc->nstring_buckets = 0;
    /* pinned strings stay young: look at their buckets again (all of them
     * when the pin list lost some) */
    gc->string_walk_all = m->pins_lost != 0;
    for (size_t i = 0; i < gc->pinned.n; i++) {
        GCObject *o = gc->pinned.items[i];
        if (o->tt == HT_SHRSTR) gc_note_string_bucket_(gc, gco2ts(o)->hash & (unsigned int)(tb->size - 1));
    }
}

/* --- the collection ---------------------------------------------------------------------------- */

static void unpin_all(GCState *gc)
{
    for (size_t i = 0; i < gc->pinned.n; i++) {
        GCObject *o = gc->pinned.items[i];
        o->flags &= (uint8_t)~GCF_PINNED;
    }
}

static void unpin_cb(void *ud, GCObject *o)
{
    (void)ud;
    o->flags &= (uint8_t)~GCF_PINNED;
}

void gc_cemented_filter(GCState *gc)
{
    size_t kept = 0;
    for (size_t i = 0; i < gc->cemented.n; i++) {
        GCObject *o = gc->cemented.items[i];
        if (gc_ismarked(gc, o))
            gc->cemented.items[kept++] = o;
        else
            o->flags &= (uint8_t)~GCF_CEMENTED;
    }
    gc->cemented.n = kept;
}

/* --- the string-bucket log ------------------------------------------------------------------------ */

void gc_note_string_bucket_(GCState *gc, unsigned int bucket)
{
    if (gc->string_walk_all) return;
    if (gc->nstring_buckets == gc->string_buckets_cap) {
        size_t ncap = gc->string_buckets_cap == 0 ? 256 : gc->string_buckets_cap * 2;
        /* past the table's size, walking every bucket is cheaper */
        uint32_t *nb = ncap > (size_t)gc->g->strt.size * 2 ? NULL
                     : gc_internal_realloc(gc, gc->string_buckets, gc->string_buckets_cap * sizeof(uint32_t),
                                           ncap * sizeof(uint32_t));
        if (nb == NULL) {
            gc->string_walk_all = 1;
            return;
        }
        gc->string_buckets = nb;
        gc->string_buckets_cap = ncap;
    }
    gc->string_buckets[gc->nstring_buckets++] = bucket;
}

void gc_note_string_bucket(lua_State *L, unsigned int bucket)
{
    gc_note_string_bucket_(gc_state(L), bucket);
}

void gc_note_string_rehash(lua_State *L)
{
    GCState *gc = gc_state(L);
    if (gc == NULL) return;
    gc->nstring_buckets = 0;
    gc->string_walk_all = 0;
}

void gc_minor(lua_State *L, int reason, int inside_full)
{
    GCState *gc = gc_state(L);
    if (gc->nursery.raw == NULL) return;
    if (!inside_full) gc_frames_note_pause_begin(gc, reason == GC_REASON_EMERGENCY ? TIDE_GC_PAUSE_EMERGENCY : TIDE_GC_PAUSE_MINOR);
    uint64_t start = gc_now_ns();
    size_t heap_before = gc_total(gc);
    uint8_t was_collecting = gc->collecting;
    gc->collecting = 1;
    gc_nursery_seal(gc);
    if (gc->verify_before && !inside_full) gc_verify_heap(L, "before a nursery collection");

    Minor m;
    memset(&m, 0, sizeof m);
    m.gc = gc;
    m.g = G(L);
    m.running = L;
    m.aging = gc->aging && !inside_full; /* a full collection empties the nursery */
    major_black_state(gc->major, &m.black, &m.black_epoch);
    gc->pinned.n = 0;
    /* The grey stack of a major cycle that is marking waits (cycle.c): this
     * collection uses a stack of its own. */
    GCVec cycle_grey = gc->grey;
    int cycle_overflow = gc->grey_overflow;
    gc->grey = gc->minor_grey;
    gc->grey.n = 0;
    gc->grey_overflow = 0;
    gc_scrub_stack(); /* the verifier's frames held object addresses */
    size_t allocated = gc_nursery_used(gc);
    gc->nursery_allocated += allocated;
    uint64_t scaled_ns = pin_roots(&m), walk_ns = scaled_ns;
    uint64_t roots_start = gc_now_ns();
    size_t threads_scanned = 1 + (gc->dirty_threads_lost ? gc->threads.n : gc->dirty_threads.n);
    fix_roots(&m);
    relist_dirty_threads(gc);
    uint64_t roots_ns = gc_now_ns() - roots_start;
    m.stacks_ns += roots_ns;
    /* The stacks follow the allocation while the threads that ran since
     * the last collection are fewer than half of all: coroutines made or
     * resumed all along, each one more stack for the next collection
     * (bench/gc/giants.lua coroutines: 1,000-3,000 new ones a collection,
     * 130 ns each, collections of 0.5-1 ms against a 0.35 ms target).
     * When most threads ran, a smaller budget would find most of them
     * again: their cost is then the fixed part. */
    if (threads_scanned < gc->threads.n / 2) scaled_ns += m.stacks_ns;
    /* the part of the pause that follows what was allocated (the budget,
     * nursery.c): the conservative scan's walk, the old-to-young
     * references, the copies, the strings */
    uint64_t scaled_start = gc_now_ns();
    fix_old_to_young(&m);
    drain(&m);
    rescan_all(&m);
    scaled_ns += gc_now_ns() - scaled_start;
    gc_handles_foreach_kind(gc, HANDLE_WEAK, weak_handle_cb, &m);
    separate_finalizable(&m);
    gc_handles_foreach_kind(gc, HANDLE_WEAK_TRACK, weak_handle_cb, &m);
    front_done(&m); /* (the last copy was made above) */
    scaled_start = gc_now_ns();
    fix_string_table(&m);
    uint64_t strings_ns = gc_now_ns() - scaled_start;
    scaled_ns += strings_ns;
    uint64_t reset_start = gc_now_ns();

    if (!m.pins_lost) {
        gc_nursery_reset(gc);
        unpin_all(gc);
    } else { /* the pinned objects are not all listed: find them by their flag */
        gc_nursery_reset_by_flags(gc);
        gc_nursery_foreach(gc, unpin_cb, NULL);
    }
    gc->pinned.n = 0;
    gc->nursery.stretch = 0; /* (the frame's: its one collection came) */
    gc->minor_grey = gc->grey;
    gc->grey = cycle_grey;
    gc->grey_overflow = cycle_overflow;
    if (m.counts != NULL) gc_internal_realloc(gc, m.counts, m.counts_cap * sizeof(CementCount), 0);
    gc_free_released(gc);
    uint64_t reset_ns = gc_now_ns() - reset_start;
    gc->promoted += m.promoted;
    gc->minors++;
    if (inside_full)
        gc->pretenure_left = 0;
    else
        gc_nursery_note_survival(gc, allocated, m.promoted);
    if (gc->verify_after && !inside_full) gc_verify_heap(L, "after a nursery collection");
    gc->collecting = was_collecting;
    if (gc->trace)
        fprintf(stderr, "tide gc: nursery collection %llu: %.3f ms (%.3f ms copying: %.3f finding pinned, %.3f strings; %.3f ms roots and %zu stacks: %zu slots scanned, %zu cleared; "
                        "%.3f ms resetting), after %zu bytes (budget %zu), "
                        "promoted %zu bytes, pinned %zu bytes, logged %zu slots and %zu objects, cemented %zu (%zu in all); "
                        "pretenuring %zu bytes\n",
                (unsigned long long)gc->minors, (double)(gc_now_ns() - start) / 1e6, (double)scaled_ns / 1e6,
                (double)walk_ns / 1e6, (double)strings_ns / 1e6,
                (double)roots_ns / 1e6, threads_scanned, m.stack_slots, m.stack_cleared, (double)reset_ns / 1e6,
                allocated, gc->nursery.budget, m.promoted,
                gc->nursery.pinned_bytes, m.logged_slots, m.logged_objects, m.cemented, gc->cemented.n,
                gc->pretenure_left);
    if (!inside_full) {
        /* a step at the next safe point: the stress mode's, or the one
         * that scans the rest of a running stack (cycle.c) */
        gc->eager_step_pending = gc->cycles_eager || (gc->cycle_marking && gc->partial_stacks.n > 0);
        uint64_t end = gc_now_ns();
        gc_pacer_note_growth(gc, end, m.promoted);
        gc_set_debt(gc);
        uint64_t duration = end - start;
        if (reason == GC_REASON_ALLOCATION)
            gc_nursery_adapt(gc, allocated, duration > scaled_ns ? duration - scaled_ns : 0, scaled_ns);
        gc_frames_note_pause(gc, reason == GC_REASON_EMERGENCY ? TIDE_GC_PAUSE_EMERGENCY : TIDE_GC_PAUSE_MINOR,
                             start, duration, heap_before);
    }
}
