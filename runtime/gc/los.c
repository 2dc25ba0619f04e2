/*
 * los.c — the large object space (see los.h for the model).
 *
 * Invariants:
 *  - objs[0..n) holds the header of every object, sorted by object address
 *    (objects never overlap, so by any address inside them as well).
 *  - object_bytes and obtained_bytes are the sums of size and raw_size
 *    over objs.
 *  - A header's cards pointer points at the start of its own raw block,
 *    ncards bytes, zero when created; cards beyond the object do not exist.
 *  - retired[0..nretired) holds objects taken out of objs whose memory is
 *    not yet given back; retired_bytes is the sum of their raw_size. A
 *    retired object's cards are gone: its ncards counts the bytes of its
 *    whole pages past the header already given back to the system (the
 *    header and the raw size stay readable).
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* madvise (MADV_DONTNEED) */
#endif
#include "los.h"

#include <string.h>
#include <unistd.h>
#if defined(__unix__)
#include <sys/mman.h>
#endif

_Static_assert(sizeof(LosObject) % 16 == 0, "the object after the header must stay 16-byte aligned");

struct LosSpace {
    LosConfig cfg;
    LosObject **objs;
    size_t n, cap;
    size_t object_bytes, obtained_bytes, live_last_sweep;
    uint64_t obtain_calls;
    int allocate_black;
    LosObject **retired;
    size_t nretired, retired_cap, retired_bytes;
};

static void *space_obtain(LosSpace *s, void *block, size_t osize, size_t nsize)
{
    s->obtain_calls++;
    return s->cfg.obtain(s->cfg.obtain_ud, block, osize, nsize);
}

static inline uintptr_t obj_addr(const LosObject *h)
{
    return (uintptr_t)h + sizeof(LosObject);
}

LosSpace *los_create(const LosConfig *cfg)
{
    if (cfg == NULL || cfg->obtain == NULL) return NULL;
    LosSpace *s = cfg->obtain(cfg->obtain_ud, NULL, 0, sizeof(LosSpace));
    if (s == NULL) return NULL;
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    s->obtain_calls = 1;
    return s;
}

static void free_object(LosSpace *s, LosObject *h)
{
    s->object_bytes -= h->size;
    s->obtained_bytes -= h->raw_size;
    space_obtain(s, h->raw, h->raw_size, 0);
}

/* [h], already out of objs, to be given back by los_release_some; freed
 * now if the list cannot grow. */
static void retire(LosSpace *s, LosObject *h)
{
    s->object_bytes -= h->size;
    s->obtained_bytes -= h->raw_size;
    if (s->nretired == s->retired_cap) {
        size_t ncap = s->retired_cap == 0 ? 16 : s->retired_cap * 2;
        LosObject **nr = space_obtain(s, s->retired, s->retired_cap * sizeof(LosObject *), ncap * sizeof(LosObject *));
        if (nr == NULL) {
            space_obtain(s, h->raw, h->raw_size, 0);
            return;
        }
        s->retired = nr;
        s->retired_cap = ncap;
    }
    h->ncards = 0; /* (now the bytes of pages given back) */
    h->handed = 0;
    s->retired[s->nretired++] = h;
    s->retired_bytes += h->raw_size;
}

void los_destroy(LosSpace *s)
{
    if (s == NULL) return;
    for (size_t i = 0; i < s->n; i++) free_object(s, s->objs[i]);
    for (size_t i = 0; i < s->nretired; i++) {
        LosObject *h = s->retired[i];
        if (h->handed) s->cfg.pages(s->cfg.pages_ud, LOS_PAGES_CANCEL, h->raw, h->raw_size);
        space_obtain(s, h->raw, h->raw_size, 0);
    }
    if (s->objs != NULL) space_obtain(s, s->objs, s->cap * sizeof(LosObject *), 0);
    if (s->retired != NULL) space_obtain(s, s->retired, s->retired_cap * sizeof(LosObject *), 0);
    s->cfg.obtain(s->cfg.obtain_ud, s, sizeof *s, 0);
}

void los_set_allocate_black(LosSpace *s, int on)
{
    s->allocate_black = on != 0;
}

/* The number of objects whose address is below [a]: the insertion point
 * of an object at [a], and one past the only candidate to contain [a]. */
static size_t lower_bound(const LosSpace *s, uintptr_t a)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (obj_addr(s->objs[mid]) < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void *los_alloc(LosSpace *s, size_t n, int kind)
{
    if (n == 0 || n > SIZE_MAX / 4 || (kind != LOS_REFS && kind != LOS_NOREFS)) return NULL;
    if (s->n == s->cap) {
        size_t ncap = s->cap == 0 ? 16 : s->cap * 2;
        LosObject **no = space_obtain(s, s->objs, s->cap * sizeof(LosObject *), ncap * sizeof(LosObject *));
        if (no == NULL) return NULL;
        s->objs = no;
        s->cap = ncap;
    }
    size_t ncards = (n + LOS_CARD_SIZE - 1) >> LOS_CARD_SHIFT;
    size_t raw_size = ncards + 15 + sizeof(LosObject) + n;
    char *raw = space_obtain(s, NULL, 0, raw_size);
    if (raw == NULL) return NULL;
    uintptr_t hdr = ((uintptr_t)raw + ncards + 15) & ~(uintptr_t)15;
    LosObject *h = (LosObject *)(void *)hdr;
    h->raw = raw;
    h->raw_size = raw_size;
    h->size = n;
    h->ncards = ncards;
    h->cards = (uint8_t *)raw;
    atomic_init(&h->mark, s->allocate_black ? 1 : 0);
    h->kind = (uint8_t)kind;
    memset(h->pad_, 0, sizeof h->pad_);
    memset(raw, 0, ncards);
    void *obj = (void *)obj_addr(h);
    memset(obj, 0, n);
    size_t pos = lower_bound(s, (uintptr_t)obj);
    memmove(&s->objs[pos + 1], &s->objs[pos], (s->n - pos) * sizeof(LosObject *));
    s->objs[pos] = h;
    s->n++;
    s->object_bytes += n;
    s->obtained_bytes += raw_size;
    return obj;
}

/* The position of the object containing [a], or -1. */
static ptrdiff_t find(const LosSpace *s, uintptr_t a)
{
    size_t k = lower_bound(s, a + 1); /* objects starting at or below a */
    if (k == 0) return -1;
    const LosObject *h = s->objs[k - 1];
    if (a - obj_addr(h) >= h->size) return -1;
    return (ptrdiff_t)(k - 1);
}

void *los_object_containing(const LosSpace *s, const void *addr)
{
    uintptr_t a = (uintptr_t)addr;
    if (s->n == 0 || a == UINTPTR_MAX) return NULL;
    ptrdiff_t k = find(s, a);
    return k < 0 ? NULL : (void *)obj_addr(s->objs[k]);
}

void los_free(LosSpace *s, void *obj)
{
    ptrdiff_t k = find(s, (uintptr_t)obj);
    if (k < 0 || obj_addr(s->objs[k]) != (uintptr_t)obj) return;
    free_object(s, s->objs[k]);
    memmove(&s->objs[k], &s->objs[k + 1], (s->n - (size_t)k - 1) * sizeof(LosObject *));
    s->n--;
}

void los_retire(LosSpace *s, void *obj)
{
    ptrdiff_t k = find(s, (uintptr_t)obj);
    if (k < 0 || obj_addr(s->objs[k]) != (uintptr_t)obj) return;
    LosObject *h = s->objs[k];
    memmove(&s->objs[k], &s->objs[k + 1], (s->n - (size_t)k - 1) * sizeof(LosObject *));
    s->n--;
    retire(s, h);
}

size_t los_retired_bytes(const LosSpace *s)
{
    return s->retired_bytes;
}

#if defined(__unix__) && defined(MADV_DONTNEED)
static size_t page_size(void)
{
    static size_t size;
    if (size == 0) {
        long n = sysconf(_SC_PAGESIZE);
        size = n > 0 ? (size_t)n : 4096;
    }
    return size;
}
#endif

size_t los_release_some(LosSpace *s, size_t max_bytes, int here)
{
    size_t done = 0, work = 0;
    while (s->nretired > 0 && work < max_bytes) {
        LosObject *h = s->retired[s->nretired - 1];
#if defined(__unix__) && defined(MADV_DONTNEED)
        /* the whole pages past the header, by the releaser or a slice at a
         * time: giving back a populated 16 MiB block in one free costs ~1
         * ms, and a slice of it as many times less */
        size_t page = page_size();
        uintptr_t lo = ((uintptr_t)h + sizeof *h + page - 1) & ~(uintptr_t)(page - 1);
        uintptr_t hi = ((uintptr_t)h->raw + h->raw_size) & ~(uintptr_t)(page - 1);
        size_t pages = hi > lo ? (size_t)(hi - lo) : 0;
        lua_assert(h->ncards <= pages);
        if (h->handed) {
            /* The releaser has the pages: the block waits until it is done
             * with them, unless this is to be done [here], when what it has
             * not begun is. (Pages it gave back already are given back
             * again below: that costs little.) */
            void *rest = (void *)(lo + h->ncards);
            size_t len = pages - h->ncards;
            if (s->cfg.pages(s->cfg.pages_ud, LOS_PAGES_PENDING, rest, len)) {
                if (!here) break;
                s->cfg.pages(s->cfg.pages_ud, LOS_PAGES_CANCEL, rest, len);
            } else {
                h->ncards = pages;
                done += len;
            }
            h->handed = 0;
        }
        if (pages - h->ncards > LOS_RELEASE_SLICE) {
            if (s->cfg.pages != NULL && !here &&
                s->cfg.pages(s->cfg.pages_ud, LOS_PAGES_RELEASE, (void *)(lo + h->ncards), pages - h->ncards)) {
                h->handed = 1;
                break;
            }
            size_t n = max_bytes - done < LOS_RELEASE_SLICE ? max_bytes - done : LOS_RELEASE_SLICE;
            n = (n + page - 1) & ~(page - 1); /* (< pages - ncards: inside the object) */
            if (madvise((void *)(lo + h->ncards), n, MADV_DONTNEED) == 0) {
                h->ncards += n;
                done += n;
                work += n;
                continue;
            }
        }
#endif
        done += h->raw_size - h->ncards;
        /* a block of any size is a call to the allocator, which now and
         * then takes far longer than the size says (glibc here: a 64 KiB
         * free of samples/coroutines' took 0.6-1.3 ms, all of it on the
         * processor; a slice used to free sixteen of them) */
        work += h->raw_size - h->ncards > LOS_FREE_WORK ? h->raw_size - h->ncards : LOS_FREE_WORK;
        s->nretired--;
        s->retired_bytes -= h->raw_size;
        space_obtain(s, h->raw, h->raw_size, 0);
    }
    return done;
}

size_t los_count(const LosSpace *s)
{
    return s->n;
}

void los_object_addresses(const LosSpace *s, uintptr_t *out)
{
    for (size_t i = 0; i < s->n; i++) out[i] = obj_addr(s->objs[i]);
}

void los_clear_marks(LosSpace *s)
{
    for (size_t i = 0; i < s->n; i++) atomic_store_explicit(&s->objs[i]->mark, 0, memory_order_relaxed);
}

int los_card_mark_addr(LosSpace *s, const void *slot)
{
    void *obj = los_object_containing(s, slot);
    if (obj == NULL) return 0;
    los_card_mark(obj, slot);
    return 1;
}

/* The first dirty card at or after [k] (ncards if none), eight at a time
 * through the clean stretches: a 1M-slot array has 16384 cards. */
static size_t next_dirty(const uint8_t *cards, size_t k, size_t ncards)
{
    while (k < ncards && (k & 7) != 0 && !cards[k]) k++;
    while (k + 8 <= ncards) {
        uint64_t w;
        memcpy(&w, cards + k, sizeof w);
        if (w != 0) break;
        k += 8;
    }
    while (k < ncards && !cards[k]) k++;
    return k;
}

void los_visit_dirty_cards(LosSpace *s, los_RangeFn fn, void *ud, int clear)
{
    for (size_t i = 0; i < s->n; i++) {
        LosObject *h = s->objs[i];
        uint8_t *cards = h->cards;
        uintptr_t obj = obj_addr(h);
        size_t k = 0;
        while ((k = next_dirty(cards, k, h->ncards)) < h->ncards) {
            size_t first = k;
            while (k < h->ncards && cards[k]) k++;
            if (clear) memset(cards + first, 0, k - first);
            size_t lo = first << LOS_CARD_SHIFT, hi = k << LOS_CARD_SHIFT;
            if (hi > h->size) hi = h->size; /* the last card is partial */
            fn(ud, (void *)obj, (void *)(obj + lo), (void *)(obj + hi));
        }
    }
}

void los_clear_cards(LosSpace *s)
{
    for (size_t i = 0; i < s->n; i++) memset(s->objs[i]->cards, 0, s->objs[i]->ncards);
}

size_t los_sweep(LosSpace *s)
{
    size_t kept = 0, live = 0;
    for (size_t i = 0; i < s->n; i++) {
        LosObject *h = s->objs[i];
        if (atomic_load_explicit(&h->mark, memory_order_relaxed)) {
            atomic_store_explicit(&h->mark, 0, memory_order_relaxed);
            live += h->size;
            s->objs[kept++] = h;
        } else {
            if (s->cfg.on_free != NULL) s->cfg.on_free(s->cfg.free_ud, (void *)obj_addr(h), h->size);
            retire(s, h);
        }
    }
    s->n = kept;
    s->live_last_sweep = live;
    return live;
}

void los_foreach(LosSpace *s, los_ObjectFn fn, void *ud)
{
    for (size_t i = 0; i < s->n; i++) fn(ud, (void *)obj_addr(s->objs[i]), s->objs[i]->size, s->objs[i]->kind);
}

void los_stats(const LosSpace *s, LosStats *out)
{
    memset(out, 0, sizeof *out);
    out->objects = s->n;
    out->object_bytes = s->object_bytes;
    out->obtained_bytes = s->obtained_bytes;
    out->live_bytes_last_sweep = s->live_last_sweep;
    out->obtain_calls = s->obtain_calls;
    out->retired_bytes = s->retired_bytes;
}

void los_set_on_free(LosSpace *s, los_OnFree on_free, void *ud)
{
    s->cfg.on_free = on_free;
    s->cfg.free_ud = ud;
}
