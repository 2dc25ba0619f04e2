/*
 * evacuate.c — compacting the sparse size classes of the major heap
 * (DESIGN §4.3): after the mark of a synchronous full collection, the
 * marked objects of blocks that are mostly dead are copied into other
 * blocks of their class, every reference to them is fixed, and the sweep
 * that follows frees the blocks they left (and the arenas those empty).
 *
 * When. Only in a full collection the program asked for (lua_gc "collect":
 * a loading screen, a level change) or in a memory emergency, and never in
 * low-latency mode (gc_evacuation_allowed). A collection the collector
 * starts itself (the pacer, at a safe point or inside an allocation;
 * TIDE_GC_DEBUG's countdown) never evacuates: it must stay as short as a
 * full mark and sweep.
 *
 * World stopped, mutator thread, inside gc_collect after step 4 (weak
 * entries cleared, finalizable objects separated and resurrected) and
 * after gc_remembered_filter, before the sweep. Every block is swept then
 * (a mark never starts on unswept blocks), so a block's free list is
 * valid, and the mark bits say exactly what survives.
 *
 * What may move. A marked object of a major block whose marked slots are
 * below EVAC_LIVE_PERCENT of its slots — tables, their storage (Parts),
 * closures, upvalues (open or closed), prototypes and strings (short and
 * long) — unless its block holds an object that must stay, in which case
 * nothing of that block moves (the block is simply not freed):
 *  - full userdata and threads: C keeps their addresses (lua_touserdata,
 *    lua_tothread, the VM's pointers into stacks);
 *  - fixed objects (gc_fix): the runtime keeps them in C statics;
 *  - any major object a word of the C stack or registers points at or into
 *    (roots.c records them during the mark: a C local may hold an object, a
 *    Node *, a TValue * into storage, a char * into a string);
 *  - strings in the stack slots of active C functions, and in the upvalues
 *    of active C closures (lua_tostring's pointer stays valid while the
 *    value is on the stack, as the manual promises; the host and the
 *    engine bindings also read names from C closure upvalues). A collection
 *    that lua_gc runs does not scan the frames of the C function that
 *    called it (control.c), so the stack slots are what protect them.
 * Prototypes do move: no Proto * is kept outside objects but in C locals
 * (the VM reloads its closure, and so its prototype, after every window
 * the conservative scan skips; the code, constants and nested-prototype
 * arrays are plain memory the copy shares with the original, and a
 * CallInfo's savedpc points into the code array, which does not move).
 * One caller is not covered: lua_dump keeps prototypes in C locals while
 * it calls the writer, and unlike lua_load it does not raise
 * unanchored_callers, so a writer that calls lua_gc(LUA_GCCOLLECT) hides
 * them from the scan.
 *
 * Which blocks. Per size class and kind, the sparse blocks (candidates)
 * are taken from the sparsest up while the class has room for their
 * marked objects outside them: the free slots of its other blocks, plus
 * whole free blocks of arenas already held — those only while the class
 * frees more blocks than it takes. No arena is ever asked for: an
 * evacuation needs no memory it does not have (it may run in an
 * emergency), and never makes the heap's arenas more. (Copying into new
 * arenas would let the first collection after a mass drop move more — the
 * dead objects' slots are free only after the sweep — but measured on
 * samples/world it grew the arenas: the blocks it empties lie scattered
 * over arenas that stay in use.) Since the fix-up walks the whole heap,
 * an evacuation that would free (net) fewer than 1/EVAC_MIN_GAIN_SHARE of
 * the blocks is skipped, but in an emergency. The chosen blocks are taken
 * off the allocation lists first (major_evacuate_block,
 * major_evacuate_detach), so that no copy lands in one.
 *
 * How. Each object is copied (memcpy) into a slot of its class and kind;
 * the copy is marked, the original unmarked (the sweep frees it) and left
 * as a husk: GCF_FORWARDED and the copy's address in its first payload
 * word, as a nursery collection leaves them. A closed upvalue's v pointed
 * at its own value: the copy's is rebased. A moved slot is also set in its
 * block's moved bitmap, which is what the fix-up looks at: a reference is
 * redirected iff it points into a chosen block, at or into a slot whose
 * moved bit is set. The test reads nothing at the address itself, so it is
 * safe on any word: values of dead objects, stale slots.
 *
 * Fixing references — everything that may name a moved object:
 *  - every marked object of every space (nursery objects pinned by the
 *    nursery collection included; blocks of strings, which reference
 *    nothing, are skipped): its fields, a table's array / hash part
 *    pointers (interior: Part payloads) and its lastfree (rebased with its
 *    hash part), a storage's values and keys (dead keys hold an identity,
 *    not an address: gc_clearkey);
 *  - every thread's stack (marked threads, and the main thread) and every
 *    thread's list of open upvalues, dead threads' too: the links are
 *    interior pointers into upvalues (previous) and the sweep walks those
 *    lists (freeing an open upvalue unlinks it, freeing a thread closes its
 *    upvalues); a marked open upvalue's stack slot is fixed with it, since
 *    a dead thread's stack is not, and closing copies that slot;
 *  - the state's roots (registry, per-type metatables, metamethod names,
 *    the memory-error message), GC handles, finobj and the pending part of
 *    tobefnz, the remembered set's logs (slot-log entries name a Part,
 *    kind in the low bits, and a slot inside it), and the string table's
 *    chains (a moved string keeps its hash, so its bucket).
 * An old object left referencing a young (pinned, not cemented) object is
 * remembered again as it is fixed, since the cards and log entries of an
 * original do not cover its copy. Then the husks become fillers
 * (HT_FILLER), so that the sweep frees them like any dead object without
 * freeing what the copies now own (a prototype's arrays) or unlinking them
 * from a thread.
 *
 * TIDE_GC_DEBUG=evacuate-all makes every evacuation move every block that
 * can move, dense or not, into new arenas if need be, whatever it costs:
 * with verify, it checks the fix-up on every object the program has (the
 * sparse blocks of ordinary runs reach only some kinds of objects, and
 * seldom the state's own).
 */
#include <stdlib.h>

#include "gc_internal.h"
#include "../vm/tables.h"

/* A block is sparse when fewer than this share of its slots survived. */
#define EVAC_LIVE_PERCENT 25
/* An evacuation must free (net) at least 1/EVAC_MIN_GAIN_SHARE of the
 * blocks in use (outside emergencies). */
#define EVAC_MIN_GAIN_SHARE 64
/* The filter of the block index has 2^EVAC_FILTER_SHIFT bits (32 KiB). */
#define EVAC_FILTER_SHIFT 18
#define EVAC_FILTER_WORDS (((size_t)1 << EVAC_FILTER_SHIFT) / 64)

typedef struct EvacBlock {
    MajorBlock *b;
    uint16_t live;   /* marked slots at the survey */
    uint16_t nfree;  /* free slots at the survey */
    uint8_t pinned;  /* holds an object that must stay: not evacuated */
    uint8_t chosen;
    uint64_t moved[MAJOR_BITMAP_WORDS]; /* slot i was copied out */
} EvacBlock;

typedef struct Evac {
    GCState *gc;
    GlobalState *g;
    EvacBlock *blocks;  /* the candidates, then the chosen ones */
    size_t n, cap;
    /* The blocks indexed by address (their number: address >> block
     * shift): an open-addressing table of numbers (0: empty) and, beside
     * it, their positions in blocks[]; before it, the range the blocks
     * span and a filter of 2^EVAC_FILTER_SHIFT bits (bit h set: some block's
     * number hashes to h). Nearly every reference the fix-up meets leads
     * elsewhere, and the range or the filter (32 KiB) turns it away
     * without a probe. */
    uint64_t *keys;
    uint32_t *pos;
    size_t index_size;  /* a power of two, at least four times n */
    unsigned index_shift;
    uintptr_t lo, span;
    uint64_t *filter;
    /* the survey: every block's free slots, by kind and class */
    size_t free_slots[MAJOR_KINDS][MAJOR_MAX_CLASSES];
    size_t blocks_used; /* blocks in use at the survey */
    int unswept;        /* a block is not swept: nothing can be done */
    int moved_strings;  /* a NOREFS block was chosen: walk the string table */
    int emergency;      /* memory ran out: any gain is worth it */
    int may_grow;       /* copies may take new arenas (evacuate-all only) */
    uint8_t exhausted[MAJOR_KINDS][MAJOR_MAX_CLASSES]; /* no slot left for a copy */
    int all;            /* TIDE_GC_DEBUG=evacuate-all: every block that can move does */
    GCEvacStats stats;
} Evac;

/* --- the blocks, by address ------------------------------------------------------ */

static inline uint64_t block_hash(uint64_t key)
{
    return key * 0x9E3779B97F4A7C15ull;
}

static int build_index(Evac *ev)
{
    GCState *gc = ev->gc;
    size_t size = 64;
    unsigned bits = 6;
    while (size < ev->n * 4) {
        size *= 2;
        bits++;
    }
    if (size != ev->index_size) {
        uint64_t *keys = gc_internal_realloc(gc, NULL, 0, size * sizeof(uint64_t));
        uint32_t *pos = keys != NULL ? gc_internal_realloc(gc, NULL, 0, size * sizeof(uint32_t)) : NULL;
        if (pos == NULL) {
            if (keys != NULL) gc_internal_realloc(gc, keys, size * sizeof(uint64_t), 0);
            return 0;
        }
        if (ev->keys != NULL) gc_internal_realloc(gc, ev->keys, ev->index_size * sizeof(uint64_t), 0);
        if (ev->pos != NULL) gc_internal_realloc(gc, ev->pos, ev->index_size * sizeof(uint32_t), 0);
        ev->keys = keys;
        ev->pos = pos;
        ev->index_size = size;
    }
    if (ev->filter == NULL) {
        ev->filter = gc_internal_realloc(gc, NULL, 0, EVAC_FILTER_WORDS * sizeof(uint64_t));
        if (ev->filter == NULL) return 0;
    }
    memset(ev->keys, 0, size * sizeof(uint64_t));
    memset(ev->filter, 0, EVAC_FILTER_WORDS * sizeof(uint64_t));
    ev->index_shift = 64 - bits;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (size_t i = 0; i < ev->n; i++) {
        uintptr_t a = (uintptr_t)ev->blocks[i].b;
        if (a < lo) lo = a;
        if (a + MAJOR_BLOCK_SIZE > hi) hi = a + MAJOR_BLOCK_SIZE;
        uint64_t key = (uint64_t)(a >> MAJOR_BLOCK_SHIFT), hash = block_hash(key);
        size_t f = (size_t)(hash >> (64 - EVAC_FILTER_SHIFT));
        ev->filter[f >> 6] |= (uint64_t)1 << (f & 63);
        size_t h = (size_t)(hash >> ev->index_shift);
        while (ev->keys[h] != 0) h = (h + 1) & (size - 1);
        ev->keys[h] = key;
        ev->pos[h] = (uint32_t)i;
    }
    ev->lo = ev->n > 0 ? lo : 1;
    ev->span = ev->n > 0 ? hi - lo : 0;
    return 1;
}

/* The indexed block containing [p], or NULL. Reads nothing at [p]. */
static inline EvacBlock *block_at(const Evac *ev, const void *p)
{
    uintptr_t a = (uintptr_t)p;
    if (a - ev->lo >= ev->span) return NULL;
    uint64_t key = (uint64_t)(a >> MAJOR_BLOCK_SHIFT), hash = block_hash(key);
    size_t f = (size_t)(hash >> (64 - EVAC_FILTER_SHIFT));
    if (!((ev->filter[f >> 6] >> (f & 63)) & 1)) return NULL;
    size_t h = (size_t)(hash >> ev->index_shift);
    for (;;) {
        uint64_t k = ev->keys[h];
        if (k == key) return &ev->blocks[ev->pos[h]];
        if (k == 0) return NULL;
        h = (h + 1) & (ev->index_size - 1);
    }
}

/* Where the byte [p] is now: in the copy when [p] lies in a slot that was
 * copied out (at the same offset from the copy's start), else [p]. */
static inline void *forward(const Evac *ev, void *p)
{
    EvacBlock *eb = block_at(ev, p);
    if (eb == NULL) return p;
    MajorBlock *b = eb->b;
    if (((uintptr_t)p & MAJOR_BLOCK_MASK) < MAJOR_OBJ_START) return p;
    unsigned i = major_slot_of(b, p);
    if (i >= b->count || !((eb->moved[i >> 6] >> (i & 63)) & 1)) return p;
    char *start = (char *)b + MAJOR_OBJ_START + (size_t)i * b->obj_size;
    char *copy = (char *)gc_forward_slot((GCObject *)(void *)start);
    return copy + ((char *)p - start);
}

/* Must a reference from an old object to the object [o] be remembered:
 * is [o] young, and not cemented (a cemented object is a root of every
 * nursery collection, minor.c)? */
static inline int needs_remembering(const Evac *ev, const GCObject *o)
{
    return gc_isyoung(ev->g, o) && !(o->flags & GCF_CEMENTED);
}

/* Fix one reference to an object; returns needs_remembering. */
#define fix_ref(ev, ref) fix_ref_((ev), (void **)(void *)&(ref))
static inline int fix_ref_(const Evac *ev, void **ref)
{
    void *p = *ref;
    if (p == NULL) return 0;
    p = forward(ev, p);
    *ref = p;
    return needs_remembering(ev, p);
}

static inline int fix_value(const Evac *ev, TValue *v)
{
    return iscollectable(v) ? fix_ref(ev, v->v.gc) : 0;
}

/* --- choosing blocks ---------------------------------------------------------------- */

static void survey_cb(void *ud, MajorBlock *b)
{
    Evac *ev = ud;
    ev->blocks_used++;
    if (major_block_unswept(b)) {
        ev->unswept = 1;
        return;
    }
    ev->free_slots[b->kind][b->class_index] += b->nfree;
    unsigned live = major_block_marked_count(b);
    if (live == 0 || (!ev->all && (size_t)live * 100 >= (size_t)b->count * EVAC_LIVE_PERCENT)) return;
    if (ev->n == ev->cap) { /* no room: fewer candidates, that is all */
        size_t ncap = ev->cap == 0 ? 64 : ev->cap * 2;
        EvacBlock *nb = gc_internal_realloc(ev->gc, ev->blocks, ev->cap * sizeof(EvacBlock),
                                            ncap * sizeof(EvacBlock));
        if (nb == NULL) return;
        ev->blocks = nb;
        ev->cap = ncap;
    }
    EvacBlock *eb = &ev->blocks[ev->n++];
    memset(eb, 0, sizeof *eb);
    eb->b = b;
    eb->live = (uint16_t)live;
    eb->nfree = b->nfree;
}

/* [o] (any word: it is only looked up) must stay: so must its block. */
static inline void pin_address(Evac *ev, const void *o)
{
    EvacBlock *eb = block_at(ev, o);
    if (eb != NULL) eb->pinned = 1;
}

static inline void pin_string(Evac *ev, const TValue *v)
{
    if (ttisstring(v)) pin_address(ev, gcvalue(v));
}

/* Strings in the stack slots of the active C functions of [th] (the base
 * frame included: the host's own values; and a Lua frame running a hook,
 * whose C function works above it), and in the upvalues of the active C
 * closures. */
static void pin_c_frames(Evac *ev, lua_State *th)
{
    if (th->stack == NULL) return;
    for (CallInfo *ci = &th->base_ci; ci != NULL; ci = ci == th->ci ? NULL : ci->next) {
        if (isLua(ci) && !(ci->callstatus & CIST_HOOKED)) continue;
        StkId lo = ci == &th->base_ci ? th->stack : ci->func;
        StkId hi = ci == th->ci ? th->top : ci->next->func;
        for (StkId s = lo; s < hi; s++) pin_string(ev, s2v(s));
        if (ci != &th->base_ci && ttisCclosure(s2v(ci->func))) {
            CClosure *cl = clCvalue(s2v(ci->func));
            for (int i = 0; i < cl->nupvalues; i++) pin_string(ev, &cl->upvalue[i]);
        }
    }
}

/* A candidate holding an object C keeps the address of stays whole. */
static void pin_unmovable(EvacBlock *eb)
{
    MajorBlock *b = eb->b;
    char *base = (char *)b + MAJOR_OBJ_START;
    unsigned words = ((unsigned)b->count + 63) >> 6;
    for (unsigned w = 0; w < words && !eb->pinned; w++) {
        uint64_t bits = b->alloc[w] & atomic_load_explicit(&b->mark[w], memory_order_relaxed);
        for (; bits != 0; bits &= bits - 1) {
            const GCObject *o = (const GCObject *)(void *)(base + ((size_t)w * 64 +
                                (size_t)__builtin_ctzll((unsigned long long)bits)) * b->obj_size);
            if (o->tt == HT_UDATA || o->tt == HT_THREAD || gc_isfixed(o)) {
                eb->pinned = 1;
                break;
            }
        }
    }
}

static void pin_all(Evac *ev)
{
    GCState *gc = ev->gc;
    for (size_t i = 0; i < gc->stack_roots.n; i++) pin_address(ev, gc->stack_roots.items[i]);
    for (size_t i = 0; i < ev->n; i++) pin_unmovable(&ev->blocks[i]);
    if (ev->g->mainthread != NULL) pin_c_frames(ev, ev->g->mainthread);
    for (size_t i = 0; i < gc->threads.n; i++) {
        lua_State *th = gc->threads.items[i];
        if (gc_ismarked(gc, obj2gco(th))) pin_c_frames(ev, th);
    }
}

/* By kind, class, then live slots (sparsest first). */
static int compare_candidates(const void *x, const void *y)
{
    const EvacBlock *a = x, *b = y;
    if (a->b->kind != b->b->kind) return a->b->kind < b->b->kind ? -1 : 1;
    if (a->b->class_index != b->b->class_index) return a->b->class_index < b->b->class_index ? -1 : 1;
    if (a->live != b->live) return a->live < b->live ? -1 : 1;
    return (uintptr_t)a->b < (uintptr_t)b->b ? -1 : (uintptr_t)a->b > (uintptr_t)b->b;
}

/* Choose, in the run [first, last) of one class, the longest prefix of
 * unpinned candidates whose marked objects fit in the class's room
 * outside them; up to [*spare_blocks] empty blocks (free in arenas, or
 * new) may make up the difference while fewer are taken than the prefix
 * frees. Returns the blocks the choice frees minus those it takes. */
static size_t choose_in_class(Evac *ev, size_t first, size_t last, size_t *spare_blocks)
{
    MajorBlock *b0 = ev->blocks[first].b;
    size_t slots = b0->count;
    size_t room = ev->free_slots[b0->kind][b0->class_index];
    size_t need = 0, taken = 0, best = 0, best_extra = 0;
    for (size_t i = first; i < last; i++) {
        EvacBlock *eb = &ev->blocks[i];
        if (eb->pinned) continue;
        taken++;
        if (ev->all) { /* whatever it costs */
            best = taken;
            continue;
        }
        need += eb->live;
        room -= eb->nfree; /* its free slots are not room: it is emptied */
        size_t shortfall = need > room ? need - room : 0;
        size_t extra = (shortfall + slots - 1) / slots;
        if (extra <= *spare_blocks && extra < taken) {
            best = taken;
            best_extra = extra;
        }
    }
    *spare_blocks -= best_extra;
    size_t gain = best - best_extra;
    for (size_t i = first; i < last && best > 0; i++) {
        EvacBlock *eb = &ev->blocks[i];
        if (eb->pinned) continue;
        eb->chosen = 1;
        best--;
    }
    return gain;
}

/* Survey the heap, pin, choose; the chosen blocks end up in blocks[0..n),
 * indexed, off the allocation lists. Returns 0 when nothing is chosen. */
static int choose_blocks(Evac *ev)
{
    GCState *gc = ev->gc;
    major_foreach_block(gc->major, survey_cb, ev);
    if (ev->unswept || ev->n == 0) return 0;
    if (!build_index(ev)) return 0;
    pin_all(ev);
    qsort(ev->blocks, ev->n, sizeof(EvacBlock), compare_candidates);
    size_t spare_blocks = major_free_block_count(gc->major);
    size_t gain = 0;
    for (size_t first = 0; first < ev->n;) {
        size_t last = first + 1;
        while (last < ev->n && ev->blocks[last].b->kind == ev->blocks[first].b->kind &&
               ev->blocks[last].b->class_index == ev->blocks[first].b->class_index)
            last++;
        gain += choose_in_class(ev, first, last, &spare_blocks);
        first = last;
    }
    /* The fix-up walks the whole heap, whatever moves: a gain below
     * EVAC_MIN_GAIN_SHARE of the blocks is not worth it, but in an
     * emergency, where any block may be the one missing. */
    if (!ev->emergency && !ev->all && gain * EVAC_MIN_GAIN_SHARE < ev->blocks_used) return 0;
    if (gain == 0) return 0;
    size_t kept = 0;
    for (size_t i = 0; i < ev->n; i++)
        if (ev->blocks[i].chosen) ev->blocks[kept++] = ev->blocks[i];
    ev->n = kept;
    if (ev->n == 0 || !build_index(ev)) return 0;
    /* All of them off the lists before the first copy: no copy may land
     * in a block being emptied. */
    for (size_t i = 0; i < ev->n; i++) {
        int ok = major_evacuate_block(gc->major, ev->blocks[i].b);
        lua_assert(ok);
        (void)ok;
        if (ev->blocks[i].b->kind == MAJOR_NOREFS) ev->moved_strings = 1;
    }
    major_evacuate_detach(gc->major);
    ev->stats.chosen = ev->n;
    return 1;
}

/* --- copying ------------------------------------------------------------------------- */

/* Copy the marked objects of [eb] out; when its class has no slot left
 * (the room was misjudged, or obtain refused an arena), the rest stay
 * where they are, marked, and the block is not freed. */
static void copy_block(Evac *ev, EvacBlock *eb)
{
    MajorHeap *h = ev->gc->major;
    MajorBlock *b = eb->b;
    uint8_t *exhausted = &ev->exhausted[b->kind][b->class_index];
    char *base = (char *)b + MAJOR_OBJ_START;
    unsigned words = ((unsigned)b->count + 63) >> 6;
    unsigned left = 0;
    for (unsigned w = 0; w < words; w++) {
        uint64_t bits = b->alloc[w] & atomic_load_explicit(&b->mark[w], memory_order_relaxed);
        for (; bits != 0; bits &= bits - 1) {
            unsigned i = w * 64 + (unsigned)__builtin_ctzll((unsigned long long)bits);
            GCObject *o = (GCObject *)(void *)(base + (size_t)i * b->obj_size);
            GCObject *n = *exhausted ? NULL : major_alloc_in_class(h, b->class_index, b->kind, ev->may_grow);
            if (n == NULL) {
                *exhausted = 1;
                left++;
                continue;
            }
            size_t size = gc_object_size(o);
            lua_assert(size <= b->obj_size && major_object_size(n) == b->obj_size);
            memcpy(n, o, size);
            major_mark(n);
            major_unmark(o);
            if (o->tt == HT_UPVAL) { /* a closed upvalue points into itself */
                UpVal *ou = gco2upv(o), *nu = gco2upv(n);
                if (!upval_isopen(ou)) nu->v = &nu->u.value;
            }
            o->flags |= GCF_FORWARDED;
            gc_forward_slot(o) = n;
            eb->moved[i >> 6] |= (uint64_t)1 << (i & 63);
            /* the copy is old bytes too: the sweep takes the husk's off */
            ev->gc->old += b->obj_size;
            ev->stats.objects++;
            ev->stats.bytes += b->obj_size;
        }
    }
    if (left == 0) ev->stats.blocks++;
}

/* --- fixing references ------------------------------------------------------------------ */

static void fix_table(const Evac *ev, Table *t, int *y)
{
    *y |= fix_ref(ev, t->metatable);
    if (t->array != NULL) { /* a Part's payload */
        t->array = forward(ev, t->array);
        *y |= needs_remembering(ev, obj2gco(part_of(t->array)));
    }
    if (!tab_isdummy(t)) {
        Node *old = t->node, *now = forward(ev, old);
        if (now != old) {
            if (t->lastfree != NULL) t->lastfree = now + (t->lastfree - old);
            t->node = now;
        }
        *y |= needs_remembering(ev, obj2gco(part_of(now)));
    }
}

/* A storage's slots; with [remember], every slot left leading to a young
 * object goes into the slot log (the storage is a copy). */
static void fix_part(const Evac *ev, Part *p, int remember)
{
    GCState *gc = ev->gc;
    char *payload = part_payload(p);
    if (p->pad == PART_ARRAY) {
        TValue *a = (TValue *)(void *)payload;
        for (size_t i = 0, n = p->nbytes / sizeof(TValue); i < n; i++)
            if (fix_value(ev, &a[i]) && remember) gc_remember_slot(gc, p, &a[i]);
    } else if (p->pad == PART_NODES) {
        Node *node = (Node *)(void *)payload;
        for (size_t i = 0, n = p->nbytes / sizeof(Node); i < n; i++) {
            Node *nd = &node[i];
            if (fix_value(ev, gval(nd)) && remember) gc_remember_slot(gc, p, gval(nd));
            if ((nd->key_tt & BIT_COLLECTABLE) && fix_ref(ev, nd->key_val.gc) && remember)
                gc_remember_slot(gc, p, &nd->key_val);
        }
    }
}

static void fix_proto(const Evac *ev, Proto *f, int *y)
{
    *y |= fix_ref(ev, f->source);
    for (int i = 0; i < f->sizek; i++) *y |= fix_value(ev, &f->k[i]);
    for (int i = 0; i < f->sizeupvalues; i++) *y |= fix_ref(ev, f->upvalues[i].name);
    for (int i = 0; i < f->sizep; i++) *y |= fix_ref(ev, f->p[i]);
    for (int i = 0; i < f->sizelocvars; i++) *y |= fix_ref(ev, f->locvars[i].varname);
}

/* Fix what [o] references (threads excepted: fix_thread). Returns 1 if
 * [o] is left referencing a young object through a field its header's
 * card covers (Parts remember slot by slot: [remember]). */
static int fix_object(const Evac *ev, GCObject *o, int remember)
{
    int y = 0;
    switch (o->tt) {
    case HT_TABLE:
        fix_table(ev, gco2t(o), &y);
        break;
    case HT_PART:
        fix_part(ev, (Part *)(void *)o, remember);
        break;
    case HT_LCL: {
        LClosure *cl = gco2lcl(o);
        y |= fix_ref(ev, cl->p);
        for (int i = 0; i < cl->nupvalues; i++) y |= fix_ref(ev, cl->upvals[i]);
        break;
    }
    case HT_CCL: {
        CClosure *cl = gco2ccl(o);
        for (int i = 0; i < cl->nupvalues; i++) y |= fix_value(ev, &cl->upvalue[i]);
        break;
    }
    case HT_UPVAL: {
        UpVal *uv = gco2upv(o);
        if (uv->v == NULL) break;
        if (upval_isopen(uv))
            fix_value(ev, uv->v); /* a stack slot (its thread may be dead); links: fix_thread */
        else
            y |= fix_value(ev, &uv->u.value);
        break;
    }
    case HT_PROTO:
        fix_proto(ev, gco2p(o), &y);
        break;
    case HT_UDATA: {
        Udata *u = gco2u(o);
        y |= fix_ref(ev, u->metatable);
        for (int i = 0; i < u->nuvalue; i++) y |= fix_value(ev, &u->uv[i]);
        break;
    }
    default: /* strings (their chain links: fix_strings) */
        break;
    }
    return y;
}

/* Fix a marked object of the old spaces. An object left referencing a
 * young (pinned, not cemented) object is remembered again: the copies
 * must be (the cards and log entries of the originals do not cover them),
 * and for the others it only adds an entry or two (after a full
 * collection's nursery collection only pinned objects are young, and one
 * that many old objects name is cemented). */
static void fix_old(const Evac *ev, GCObject *o)
{
    if (o->tt == HT_THREAD) return;
    if (fix_object(ev, o, 1)) gc_remember_object(ev->gc, o);
}

/* The marked objects of a block that may hold references (strings have
 * none to fix: their blocks are skipped, and the string table's chains
 * are fixed on their own). */
static void fix_block_cb(void *ud, MajorBlock *b)
{
    const Evac *ev = ud;
    if (b->kind == MAJOR_NOREFS) return;
    char *base = (char *)b + MAJOR_OBJ_START;
    unsigned words = ((unsigned)b->count + 63) >> 6;
    for (unsigned w = 0; w < words; w++) {
        uint64_t bits = b->alloc[w] & atomic_load_explicit(&b->mark[w], memory_order_relaxed);
        for (; bits != 0; bits &= bits - 1) {
            unsigned i = w * 64 + (unsigned)__builtin_ctzll((unsigned long long)bits);
            fix_old(ev, (GCObject *)(void *)(base + (size_t)i * b->obj_size));
        }
    }
}

static void fix_large_cb(void *ud, void *obj, size_t size, int kind)
{
    (void)size;
    if (kind != LOS_NOREFS && los_is_marked(obj)) fix_old(ud, obj);
}

/* Young objects: fixed, never remembered. */
static void fix_young_cb(void *ud, GCObject *o)
{
    const Evac *ev = ud;
    if (o->tt != HT_THREAD && gc_ismarked(ev->gc, o)) fix_object(ev, o, 0);
}

/* A live thread's stack (every slot: those above the marked bound are
 * nil); any thread's open upvalues, relinked as they are now. */
static void fix_thread(const Evac *ev, lua_State *th, int live)
{
    if (live && th->stack != NULL)
        for (StkId s = th->stack; s < th->stack_last + EXTRA_STACK; s++) fix_value(ev, s2v(s));
    UpVal **link = &th->openupval;
    for (UpVal *uv; (uv = *link) != NULL; link = &uv->u.open.next) {
        uv = forward(ev, uv);
        *link = uv;
        uv->u.open.previous = link;
    }
}

static void fix_handle_cb(void *ud, TValue *v)
{
    fix_value(ud, v);
}

/* The chains of the string table (dead strings are still in them: the
 * sweep unlinks those). */
static void fix_strings(const Evac *ev)
{
    StringTable *tb = &ev->g->strt;
    if (tb->hash == NULL) return;
    for (int i = 0; i < tb->size; i++)
        for (TString **link = &tb->hash[i]; *link != NULL; link = &(*link)->u.hnext) fix_ref(ev, *link);
}

static void fix_remembered(const Evac *ev)
{
    GCState *gc = ev->gc;
    gc_rs_recent_clear(gc); /* (entries move) */
    for (size_t i = 0; i < gc->rs_nslots; i++) {
        RememberedSlot *e = &gc->rs_slots[i];
        Part *p = rs_part(*e);
        Part *np = forward(ev, p);
        if (np == p) continue;
        e->slot = (char *)np + ((char *)e->slot - (char *)p);
        e->part = (uintptr_t)np | (uintptr_t)rs_kind(*e);
    }
    for (size_t i = 0; i < gc->rs_objects.n; i++) fix_ref(ev, gc->rs_objects.items[i]);
}

static void fix_roots(const Evac *ev)
{
    GCState *gc = ev->gc;
    GlobalState *g = ev->g;
    fix_value(ev, &g->l_registry);
    for (int i = 0; i < LUA_NUMTYPES; i++) fix_ref(ev, g->mt[i]);
    for (int i = 0; i < TM_COUNT; i++) fix_ref(ev, g->tmname[i]);
    fix_ref(ev, g->memerrmsg);
    gc_handles_foreach(gc, fix_handle_cb, (void *)ev);
    for (size_t i = 0; i < gc->finobj.n; i++) fix_ref(ev, gc->finobj.items[i]);
    for (size_t i = gc->tobefnz_head; i < gc->tobefnz.n; i++) fix_ref(ev, gc->tobefnz.items[i]);
    fix_remembered(ev);
}

static void fix_all(Evac *ev)
{
    GCState *gc = ev->gc;
    major_foreach_block(gc->major, fix_block_cb, ev);
    los_foreach(gc->los, fix_large_cb, ev);
    gc_nursery_foreach(gc, fix_young_cb, ev);
    if (ev->g->mainthread != NULL) fix_thread(ev, ev->g->mainthread, 1);
    for (size_t i = 0; i < gc->threads.n; i++) {
        lua_State *th = gc->threads.items[i];
        fix_thread(ev, th, gc_ismarked(gc, obj2gco(th)));
    }
    fix_roots(ev);
    if (ev->moved_strings) fix_strings(ev);
}

/* --- after the fix-up ----------------------------------------------------------------------- */

/* The husks become fillers. */
static void retire_husks(const Evac *ev)
{
    for (size_t k = 0; k < ev->n; k++) {
        const EvacBlock *eb = &ev->blocks[k];
        MajorBlock *b = eb->b;
        char *base = (char *)b + MAJOR_OBJ_START;
        for (unsigned w = 0; w < MAJOR_BITMAP_WORDS; w++) {
            for (uint64_t bits = eb->moved[w]; bits != 0; bits &= bits - 1) {
                unsigned i = w * 64 + (unsigned)__builtin_ctzll((unsigned long long)bits);
                GCObject *o = (GCObject *)(void *)(base + (size_t)i * b->obj_size);
                /* Freed by the sweep as a dead object of no type: nothing
                 * it named is the husk's any more. */
                o->tt = HT_FILLER;
                o->flags = 0;
            }
        }
    }
}

/* --- the evacuation ----------------------------------------------------------------------------- */

void gc_evacuate(lua_State *L, GCReason reason)
{
    GCState *gc = gc_state(L);
    uint64_t start = gc_now_ns();
    Evac ev;
    memset(&ev, 0, sizeof ev);
    ev.gc = gc;
    ev.g = G(L);
    ev.lo = 1;
    ev.emergency = reason == GC_REASON_EMERGENCY;
    ev.all = gc->evacuate_all;
    ev.may_grow = ev.all && !ev.emergency;
    if (!gc->stack_roots_lost && choose_blocks(&ev)) {
        for (size_t i = 0; i < ev.n; i++) copy_block(&ev, &ev.blocks[i]);
        fix_all(&ev);
        retire_husks(&ev);
    }
    if (ev.blocks != NULL) gc_internal_realloc(gc, ev.blocks, ev.cap * sizeof(EvacBlock), 0);
    if (ev.keys != NULL) gc_internal_realloc(gc, ev.keys, ev.index_size * sizeof(uint64_t), 0);
    if (ev.pos != NULL) gc_internal_realloc(gc, ev.pos, ev.index_size * sizeof(uint32_t), 0);
    if (ev.filter != NULL) gc_internal_realloc(gc, ev.filter, EVAC_FILTER_WORDS * sizeof(uint64_t), 0);
    gc_vec_free(gc, &gc->stack_roots);
    gc->stack_roots_lost = 0;
    gc->may_evacuate = 0;
    ev.stats.ns = gc_now_ns() - start;
    gc->evac_last = ev.stats;
    gc->evac_total.blocks += ev.stats.blocks;
    gc->evac_total.objects += ev.stats.objects;
    gc->evac_total.bytes += ev.stats.bytes;
    gc->evac_total.chosen += ev.stats.chosen;
    gc->evac_total.ns += ev.stats.ns;
}
