/*
 * cards.c — the remembered set: where the write barrier records old-to-young
 * references, and how a nursery collection finds them again.
 *
 * Two logs, with cards behind them:
 *  - the slot log: one entry (Part, slot) per barrier hit on table storage
 *    — a young value stored into an old table's array or hash slot. The
 *    collection visits exactly those slots: one cache line each, where a
 *    512-byte card costs eight. (Measured on samples/world, 1M objects and
 *    thousands of fresh tables stored into old ones each frame: 11,000
 *    dirty card runs, 6.5 MB of old heap rescanned, 7–16 ms per nursery
 *    collection with cards alone.)
 *  - the object log: old objects of any other kind (closures, upvalues,
 *    userdata, prototypes) that were given a young reference, each once
 *    (GCF_REMEMBERED); the collection rescans them whole — they are small,
 *    or (a prototype) keep their references in plain arrays.
 * Cards (one byte per 512 bytes of the major heap's blocks and of large
 * objects) take what the logs cannot: a slot log that reaches
 * RS_MAX_SLOTS entries is folded into cards (so a program that writes the
 * same slots over and over costs bounded memory), a log that cannot grow
 * falls back to cards, and storage born old (a large array filled by a
 * resize) is carded whole.
 *
 * Invariant (verify.c checks it): every reference from an old object to a
 * young one is in the slot log (table storage), has its owner in the object
 * log, or lies on a dirty card (the slot's card for table storage, the
 * header's card for anything else).
 *
 * Entries must never name freed memory: storage released by a table is
 * cleared (its slots read as nil, so its entries find nothing to do) and a
 * large one is freed only after the next nursery collection
 * (gc_free_released); a full collection drops the entries of objects it
 * is about to free (gc_remembered_filter). Visiting an entry reads only the
 * slot: its storage's kind is in the entry.
 *
 * Mutator only; the world is stopped while the set is read.
 */
#include "gc_internal.h"

/* Slot-log entries before it is folded into cards (16 bytes each). */
#define RS_MAX_SLOTS ((size_t)1 << 18)

/* --- cards --------------------------------------------------------------------- */

/* Blocks with dirty cards are listed, so that a collection visits them
 * and not every block of the heap (6,000 blocks of card bytes cost ~1 ms
 * on a 100 MB heap). A block that cannot be listed makes the next
 * collection visit them all. */
static void card_major(GCState *gc, const void *addr)
{
    major_card_mark(addr);
    MajorBlock *b = major_block_of(addr);
    if (b->listed) return;
    if (gc_vec_push(gc, &gc->dirty_blocks, b))
        b->listed = 1;
    else
        gc->dirty_blocks_lost = 1;
}

static void card_object(GCState *gc, GCObject *o)
{
    switch (o->age) {
    case GC_SPACE_MAJOR:
        card_major(gc, o);
        break;
    case GC_SPACE_LOS:
        los_card_mark(o, o);
        break;
    default: /* young (no card needed) or the main thread (always scanned) */
        break;
    }
}

static void card_slot(GCState *gc, Part *p, const void *slot)
{
    switch (p->hdr.age) {
    case GC_SPACE_MAJOR:
        card_major(gc, slot);
        break;
    case GC_SPACE_LOS:
        los_card_mark(p, slot);
        break;
    default:
        break;
    }
}

/* --- the logs ---------------------------------------------------------------------- */

static int grow_slots(GCState *gc)
{
    size_t ncap = gc->rs_slots_cap == 0 ? 1024 : gc->rs_slots_cap * 2;
    RememberedSlot *ns = gc_internal_realloc(gc, gc->rs_slots, gc->rs_slots_cap * sizeof(RememberedSlot),
                                             ncap * sizeof(RememberedSlot));
    if (ns == NULL) return 0;
    gc->rs_slots = ns;
    gc->rs_slots_cap = ncap;
    return 1;
}

/* The slot log is full: its entries become cards. */
static void fold_into_cards(GCState *gc)
{
    for (size_t i = 0; i < gc->rs_nslots; i++) card_slot(gc, rs_part(gc->rs_slots[i]), gc->rs_slots[i].slot);
    gc->rs_nslots = 0;
}

void gc_rs_recent_clear(GCState *gc)
{
    memset(gc->rs_recent, 0, sizeof gc->rs_recent);
}

void gc_remember_slot(GCState *gc, Part *p, void *slot)
{
    if (p->hdr.age == GC_SPACE_NURSERY) return;
    /* The same entry logged since the log was last emptied or rewritten
     * is there still (or in a card it was folded into): a program that
     * stores fresh objects into the same few old slots all the time (a
     * scratch table promoted long ago) would otherwise log every store,
     * and the next collection would visit each. */
    uintptr_t part = (uintptr_t)p | p->pad;
    RememberedSlot *recent = &gc->rs_recent[((uintptr_t)slot >> 4) * 0x9E3779B97F4A7C15ull >> 56];
    if (recent->slot == slot && recent->part == part) return;
    if (gc->rs_nslots == gc->rs_slots_cap) {
        if (gc->rs_nslots >= RS_MAX_SLOTS) {
            fold_into_cards(gc);
        } else if (!grow_slots(gc)) {
            card_slot(gc, p, slot);
            return;
        }
    }
    RememberedSlot *e = &gc->rs_slots[gc->rs_nslots++];
    e->part = part;
    e->slot = slot;
    *recent = *e;
}

void gc_remember_object(GCState *gc, GCObject *o)
{
    if ((o->flags & GCF_REMEMBERED) || o->age == GC_SPACE_NURSERY || o->age == GC_SPACE_EXTERNAL) return;
    if (gc_vec_push(gc, &gc->rs_objects, o))
        o->flags |= GCF_REMEMBERED;
    else
        card_object(gc, o);
}

/* --- the barrier's slow path ------------------------------------------------------------ */

void gc_barrier_(lua_State *L, GCObject *owner)
{
    gc_remember_object(gc_state(L), owner);
}

/* The slot lies in the table's array part or its hash part. */
void gc_barrier_slot_(lua_State *L, const Table *t, const void *slot)
{
    const char *s = slot;
    Part *p;
    if (t->array != NULL && s >= (const char *)t->array && s < (const char *)(t->array + t->asize))
        p = part_of(t->array);
    else
        p = part_of(t->node);
    lua_assert(p->hdr.tt == HT_PART && s >= (const char *)part_payload(p) &&
               s < (const char *)part_payload(p) + p->nbytes);
    gc_remember_slot(gc_state(L), p, (void *)(uintptr_t)slot);
}

/* An object born old may be filled without barriers: it is scanned whole
 * at the next nursery collection. Table storage is born zeroed (nil) and
 * whoever fills it remembers what it stores (gc_new_part). */
void gc_remember_new_old(GCState *gc, GCObject *o)
{
    if (o->tt != HT_PART && novariant(o->tt) != LUA_TSTRING) gc_remember_object(gc, o);
}

int gc_card_is_dirty_object(const GCObject *o)
{
    switch (o->age) {
    case GC_SPACE_MAJOR:
        return major_card_is_dirty(o);
    case GC_SPACE_LOS:
        return los_card_is_dirty(o, o);
    default:
        return 0;
    }
}

int gc_card_is_dirty_slot(const Part *p, const void *slot)
{
    switch (p->hdr.age) {
    case GC_SPACE_MAJOR:
        return major_card_is_dirty(slot);
    case GC_SPACE_LOS:
        return los_card_is_dirty(p, slot);
    default:
        return 0;
    }
}

/* --- released storage -------------------------------------------------------------------- */

void gc_free_released(GCState *gc)
{
    /* While a cycle marks, released storage may still be on a grey stack
     * (a young table's, handed over by the initial pause) or being read by
     * the worker: it waits for the end of the mark, whose sweep frees what
     * the mark did not reach (sweep.c) and leaves the rest for after the
     * next nursery collection. */
    if (gc->cycle_marking) return;
    /* (retired: the memory goes back after the pause, gc_release_retired) */
    size_t retired = los_retired_bytes(gc->los);
    for (size_t i = 0; i < gc->released_los.n; i++) {
        Part *p = gc->released_los.items[i];
        gc->old -= los_object_size(p);
        los_retire(gc->los, p);
    }
    gc->raw += los_retired_bytes(gc->los) - retired;
    gc->released_los.n = 0;
}

/* --- a full collection drops what it frees -------------------------------------------------- */

void gc_remembered_filter(GCState *gc)
{
    gc_rs_recent_clear(gc);
    size_t kept = 0;
    for (size_t i = 0; i < gc->rs_nslots; i++) {
        RememberedSlot e = gc->rs_slots[i];
        Part *p = rs_part(e);
        if (p->pad != PART_RELEASED && gc_ismarked(gc, obj2gco(p))) gc->rs_slots[kept++] = e;
    }
    gc->rs_nslots = kept;
    kept = 0;
    for (size_t i = 0; i < gc->rs_objects.n; i++) {
        GCObject *o = gc->rs_objects.items[i];
        if (gc_ismarked(gc, o))
            gc->rs_objects.items[kept++] = o;
        else
            o->flags &= (uint8_t)~GCF_REMEMBERED;
    }
    gc->rs_objects.n = kept;
}

void gc_remembered_filter_part(GCState *gc, const Part *p)
{
    gc_rs_recent_clear(gc);
    size_t kept = 0;
    for (size_t i = 0; i < gc->rs_nslots; i++)
        if (rs_part(gc->rs_slots[i]) != p) gc->rs_slots[kept++] = gc->rs_slots[i];
    gc->rs_nslots = kept;
}

/* --- visiting dirty cards ------------------------------------------------------- */

typedef struct CardVisit {
    GCState *gc;
    gc_CardObjectFn obj_fn;
    gc_CardPartFn slots_fn;
    void *ud;
} CardVisit;

/* [o] overlaps the dirty range [lo, hi). */
static void visit_object(CardVisit *cv, GCObject *o, char *lo, char *hi)
{
    if (o->tt == HT_PART) {
        Part *p = (Part *)(void *)o;
        char *payload = part_payload(p), *end = payload + p->nbytes;
        if (lo < payload) lo = payload;
        if (hi > end) hi = end;
        if (lo < hi && p->pad != PART_RELEASED) cv->slots_fn(cv->ud, p, lo, hi);
    } else if ((char *)o >= lo && (char *)o < hi) {
        cv->obj_fn(cv->ud, o);
    }
}

/* A run of dirty cards of one block: every live slot overlapping it. */
static void visit_major_range(void *ud, void *lo_, void *hi_)
{
    CardVisit *cv = ud;
    char *lo = lo_, *hi = hi_;
    MajorBlock *b = major_block_of(lo);
    if (b->kind == MAJOR_NOREFS) return;
    size_t size = b->obj_size;
    unsigned i = major_slot_of(b, lo);
    char *s = (char *)b + MAJOR_OBJ_START + (size_t)i * size;
    for (; s < hi && i < b->count; s += size, i++)
        if (major_slot_is_live(b, i)) visit_object(cv, (GCObject *)(void *)s, lo, hi);
}

static void visit_los_range(void *ud, void *obj, void *lo, void *hi)
{
    CardVisit *cv = ud;
    if (!los_has_refs(obj)) return;
    visit_object(cv, obj, lo, hi);
}

void gc_cards_visit(GCState *gc, gc_CardObjectFn obj_fn, gc_CardPartFn slots_fn, void *ud)
{
    CardVisit cv = {gc, obj_fn, slots_fn, ud};
    /* The list is taken first: the visit may dirty (and list) cards again. */
    GCVec listed = gc->dirty_blocks;
    int lost = gc->dirty_blocks_lost;
    memset(&gc->dirty_blocks, 0, sizeof gc->dirty_blocks);
    gc->dirty_blocks_lost = 0;
    /* A lazy sweep may have freed a listed block since (and even given its
     * arena back): only blocks still in use are looked at. */
    size_t in_use = 0;
    for (size_t i = 0; i < listed.n; i++)
        if (major_block_in_use(gc->major, listed.items[i])) listed.items[in_use++] = listed.items[i];
    listed.n = in_use;
    for (size_t i = 0; i < listed.n; i++) ((MajorBlock *)listed.items[i])->listed = 0;
    if (lost) {
        major_visit_dirty_cards(gc->major, visit_major_range, &cv, 1);
    } else {
        for (size_t i = 0; i < listed.n; i++)
            major_visit_block_dirty_cards(listed.items[i], visit_major_range, &cv, 1);
    }
    if (gc->dirty_blocks.items == NULL) { /* keep the buffer */
        listed.n = 0;
        gc->dirty_blocks = listed;
    } else {
        gc_vec_free(gc, &listed);
    }
    los_visit_dirty_cards(gc->los, visit_los_range, &cv, 1);
}

/* After a sweep (when its last block is swept): blocks it gave back leave
 * the list. */
void gc_cards_forget_freed(GCState *gc)
{
    size_t kept = 0;
    for (size_t i = 0; i < gc->dirty_blocks.n; i++) {
        MajorBlock *b = gc->dirty_blocks.items[i];
        if (major_block_in_use(gc->major, b)) gc->dirty_blocks.items[kept++] = b;
    }
    gc->dirty_blocks.n = kept;
}
