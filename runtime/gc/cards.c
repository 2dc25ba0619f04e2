/*
 * cards.c — the remembered set: the write barrier's slow path and the
 * walk over dirty cards that a nursery collection starts from.
 *
 * A card is one byte per 512 bytes of an old space: in the header of every
 * major-heap block (major.h) and in front of every large object (los.h).
 * The barrier (gc.h) dirties a card when it stores a young reference into
 * an old object:
 *  - for table storage (a Part) the card of the slot written — a
 *    million-slot array costs one card per write, and the collection scans
 *    512 bytes of it, not the whole array;
 *  - for any other object the card of its header; the collection then
 *    rescans the whole object (they are small, or — a prototype — own
 *    their references in plain arrays the cards cannot cover).
 * Invariant (verify.c checks it): every old-to-young reference lies on a
 * dirty card in that sense. Only the mutator writes cards; a nursery
 * collection reads and clears them, and dirties again the cards that still
 * lead to a young (pinned) object afterwards.
 *
 * Mutator only; the world is stopped while cards are visited.
 */
#include "gc_internal.h"

/* --- the barrier's slow path ------------------------------------------------- */

void gc_remember_object(GCObject *o)
{
    switch (o->age) {
    case GC_SPACE_MAJOR:
        major_card_mark(o);
        break;
    case GC_SPACE_LOS:
        los_card_mark(o, o);
        break;
    default: /* young (no card needed) or the main thread (always scanned) */
        break;
    }
}

void gc_remember_slot(Part *p, const void *slot)
{
    switch (p->hdr.age) {
    case GC_SPACE_MAJOR:
        major_card_mark(slot);
        break;
    case GC_SPACE_LOS:
        los_card_mark(p, slot);
        break;
    default:
        break;
    }
}

void gc_barrier_(lua_State *L, GCObject *owner)
{
    (void)L;
    gc_remember_object(owner);
}

/* The slot lies in the table's array part or its hash part. */
void gc_barrier_slot_(lua_State *L, const Table *t, const void *slot)
{
    (void)L;
    const char *s = slot;
    Part *p;
    if (t->array != NULL && s >= (const char *)t->array && s < (const char *)(t->array + t->asize))
        p = part_of(t->array);
    else
        p = part_of(t->node);
    lua_assert(p->hdr.tt == HT_PART && s >= (const char *)part_payload(p) &&
               s < (const char *)part_payload(p) + p->nbytes);
    gc_remember_slot(p, slot);
}

/* An object born old was filled without barriers: every card it covers
 * (for a Part, whose slots are carded one by one), or its header's. */
void gc_remember_new_old(GCObject *o)
{
    if (o->tt != HT_PART) {
        if (novariant(o->tt) != LUA_TSTRING) gc_remember_object(o);
        return;
    }
    Part *p = (Part *)(void *)o;
    char *payload = part_payload(p);
    char *end = payload + p->nbytes;
    for (char *s = payload; s < end; s += MAJOR_CARD_SIZE) gc_remember_slot(p, s);
    if (p->nbytes > 0) gc_remember_slot(p, end - 1);
}

int gc_is_remembered_object(const GCObject *o)
{
    switch (o->age) {
    case GC_SPACE_MAJOR:
        return major_card_is_dirty(o);
    case GC_SPACE_LOS:
        return los_card_is_dirty(o, o);
    default:
        return 1; /* young, or the main thread: nothing to remember */
    }
}

int gc_is_remembered_slot(const Part *p, const void *slot)
{
    switch (p->hdr.age) {
    case GC_SPACE_MAJOR:
        return major_card_is_dirty(slot);
    case GC_SPACE_LOS:
        return los_card_is_dirty(p, slot);
    default:
        return 1;
    }
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
    char *s = (char *)b + MAJOR_OBJ_START + (size_t)major_slot_of(b, lo) * size;
    for (; s < hi; s += size) {
        GCObject *o = major_object_containing(cv->gc->major, s);
        if (o != NULL) visit_object(cv, o, lo, hi);
    }
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
    major_visit_dirty_cards(gc->major, visit_major_range, &cv, 1);
    los_visit_dirty_cards(gc->los, visit_los_range, &cv, 1);
}
