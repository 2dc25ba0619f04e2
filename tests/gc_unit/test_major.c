/* Tests of the major heap (runtime/gc/major.c). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "gc_test.h"
#include "major.h"

/* --- helpers ---------------------------------------------------------------- */

/* on_free records: every test object starts with its id (1..nids). */
typedef struct FreeLog {
    long calls;
    size_t bytes;
    long *per_id;
    size_t nids;
    long unknown;
} FreeLog;

static void log_free(void *ud, void *obj, size_t size)
{
    FreeLog *l = ud;
    l->calls++;
    l->bytes += size;
    uint64_t id;
    memcpy(&id, obj, sizeof id);
    if (l->per_id != NULL && id >= 1 && id <= l->nids)
        l->per_id[id - 1]++;
    else
        l->unknown++;
}

static MajorHeap *new_heap(TestAlloc *ta, FreeLog *fl, unsigned blocks_per_arena)
{
    MajorConfig cfg = { .obtain = test_obtain, .obtain_ud = ta, .on_free = fl != NULL ? log_free : NULL,
                        .free_ud = fl, .blocks_per_arena = blocks_per_arena };
    return major_create(&cfg);
}

/* Destroy [h]; everything obtained must be back. */
static void destroy_heap(MajorHeap *h, TestAlloc *ta)
{
    major_destroy(h);
    CHECK_INT(ta->outstanding, 0);
    CHECK_INT(ta->live_blocks, 0);
}

static int all_zero(const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        if (c[i] != 0) return 0;
    return 1;
}

static void put_id(void *obj, uint64_t id)
{
    memcpy(obj, &id, sizeof id);
}

/* The bytes after the id: a pattern of the id. */
static void fill_pattern(void *obj, size_t n, uint64_t id)
{
    unsigned char *c = obj;
    put_id(obj, id);
    for (size_t i = sizeof id; i < n; i++) c[i] = (unsigned char)(id * 31 + i);
}

static int check_pattern(const void *obj, size_t n, uint64_t id)
{
    const unsigned char *c = obj;
    uint64_t got;
    memcpy(&got, obj, sizeof got);
    if (got != id) return 0;
    for (size_t i = sizeof id; i < n; i++)
        if (c[i] != (unsigned char)(id * 31 + i)) return 0;
    return 1;
}

static void count_object(void *ud, void *obj, size_t size, int kind)
{
    (void)obj;
    (void)size;
    (void)kind;
    (*(size_t *)ud)++;
}

/* --- size classes ------------------------------------------------------------- */

TEST(major_size_classes)
{
    int n = major_class_count();
    CHECK(n > 8 && n <= MAJOR_MAX_CLASSES);
    CHECK_INT(major_class_size(0), 16);
    CHECK(major_class_size(n - 1) >= MAJOR_MAX_OBJECT);
    int bad = 0;
    for (int c = 0; c < n; c++) {
        size_t s = major_class_size(c);
        unsigned slots = major_class_slots(c);
        if (s % 16 != 0 || (c > 0 && s <= major_class_size(c - 1))) bad++;
        if (slots == 0 || slots > MAJOR_BITMAP_WORDS * 64 || slots * s > MAJOR_PAYLOAD) bad++;
        if (slots != MAJOR_PAYLOAD / s) bad++; /* widened to fill the block */
        /* geometric: at most 25% apart from 128 bytes up to 4 KiB */
        if (c + 1 < n && s >= 128 && major_class_size(c + 1) <= 4096 && (major_class_size(c + 1) - s) * 4 > s) bad++;
    }
    CHECK_INT(bad, 0);
    int wrong = 0;
    for (size_t sz = 1; sz <= MAJOR_MAX_OBJECT; sz++) {
        int c = major_class_of(sz);
        if (c < 0 || major_class_size(c) < sz || (c > 0 && major_class_size(c - 1) >= sz)) wrong++;
    }
    CHECK_INT(wrong, 0);
    CHECK_INT(major_class_of(0), -1);
    CHECK_INT(major_class_of(MAJOR_MAX_OBJECT + 1), -1);
    CHECK(MAJOR_OBJ_START % 16 == 0 && MAJOR_OBJ_START >= sizeof(MajorBlock));
}

/* --- allocation ------------------------------------------------------------------ */

TEST(major_alloc_every_class)
{
    TestAlloc ta = { 0 };
    MajorHeap *h = new_heap(&ta, NULL, 0);
    CHECK(h != NULL);
    if (h == NULL) return;
    int n = major_class_count(), bad = 0;
    for (int kind = 0; kind < MAJOR_KINDS; kind++)
        for (int c = 0; c < n; c++) {
            size_t lo = c == 0 ? 1 : major_class_size(c - 1) + 1;
            size_t hi = major_class_size(c) < MAJOR_MAX_OBJECT ? major_class_size(c) : MAJOR_MAX_OBJECT;
            size_t sizes[2] = { lo, hi };
            for (int k = 0; k < 2; k++) {
                unsigned char *p = major_alloc(h, sizes[k], kind);
                if (p == NULL) {
                    bad++;
                    continue;
                }
                if ((uintptr_t)p % 16 != 0) bad++;
                if (!all_zero(p, major_class_size(c))) bad++;
                if (major_object_size(p) != major_class_size(c)) bad++;
                if (major_has_refs(p) != (kind == MAJOR_REFS)) bad++;
                if (major_object_containing(h, p) != p) bad++;
                if (major_block_of(p)->class_index != c || major_is_marked(p)) bad++;
                memset(p, 0xAB, major_class_size(c));
            }
        }
    CHECK_INT(bad, 0);
    MajorStats st;
    major_stats(h, &st);
    size_t used = 0;
    for (int kind = 0; kind < MAJOR_KINDS; kind++)
        for (int c = 0; c < n; c++) {
            CHECK_INT(st.blocks_per_class[kind][c], major_class_slots(c) == 1 ? 2 : 1); /* two objects each */
            used += st.blocks_per_class[kind][c];
        }
    CHECK_INT(st.blocks_used, used);
    CHECK_INT(st.arenas, (used + 63) / 64);
    CHECK_INT(st.block_bytes, used * MAJOR_BLOCK_SIZE);
    CHECK(major_alloc(h, 0, MAJOR_REFS) == NULL);
    CHECK(major_alloc(h, MAJOR_MAX_OBJECT + 1, MAJOR_REFS) == NULL);
    CHECK(major_alloc(h, 16, 2) == NULL);
    destroy_heap(h, &ta);
}

TEST(major_zeroed_on_reuse)
{
    TestAlloc ta = { 0 };
    MajorHeap *h = new_heap(&ta, NULL, 0);
    enum { N = 500 }; /* two full blocks: the only free slots are the freed ones */
    CHECK_INT(2 * major_class_slots(major_class_of(64)), N);
    void *objs[N];
    for (int i = 0; i < N; i++) {
        objs[i] = major_alloc(h, 64, MAJOR_NOREFS);
        memset(objs[i], 0xFF, 64);
    }
    for (int i = 0; i < N; i += 2) major_mark(objs[i]);
    major_begin_sweep(h);
    major_sweep_all(h);
    int reused = 0, dirty = 0;
    for (int i = 0; i < N / 2; i++) {
        unsigned char *p = major_alloc(h, 64, MAJOR_NOREFS);
        for (int j = 1; j < N; j += 2)
            if (objs[j] == p) reused++;
        if (!all_zero(p, 64)) dirty++;
    }
    CHECK_INT(reused, N / 2); /* the freed slots are taken before any new block */
    CHECK_INT(dirty, 0);
    for (int i = 0; i < N; i += 2) CHECK(check_pattern(objs[i], 0, 0xFFFFFFFFFFFFFFFFull));
    destroy_heap(h, &ta);
}

/* A block taken empty is handed out in slot order without a free list
 * built first (bump); a sweep of a block filled only in part lists every
 * free slot, those never handed out included, and each is handed out
 * once. */
TEST(major_fresh_block_in_order)
{
    TestAlloc ta = { 0 };
    MajorHeap *h = new_heap(&ta, NULL, 0);
    int c = major_class_of(48);
    unsigned per_block = major_class_slots(c);
    size_t size = major_class_size(c);
    enum { FIRST = 40 };
    char *objs[FIRST];
    for (int i = 0; i < FIRST; i++) {
        objs[i] = major_alloc(h, 48, MAJOR_REFS);
        CHECK(objs[i] != NULL);
        if (i > 0) CHECK(objs[i] == objs[i - 1] + size); /* in order, one block */
        put_id(objs[i], (uint64_t)i + 1);
    }
    MajorBlock *b = major_block_of(objs[0]);
    CHECK(b->free_list == NULL);
    CHECK_INT(b->bump, FIRST);
    CHECK_INT(b->nfree, per_block - FIRST);
    /* every other one survives: the sweep lists the 20 dead and the slots
     * above 40, and the block takes exactly that many before a new one */
    for (int i = 0; i < FIRST; i += 2) major_mark(objs[i]);
    major_begin_sweep(h);
    major_sweep_all(h);
    CHECK_INT(b->bump, per_block);
    CHECK_INT(b->nfree, per_block - FIRST / 2);
    size_t nfree = b->nfree;
    char **taken = calloc(nfree, sizeof *taken);
    for (size_t i = 0; i < nfree; i++) {
        taken[i] = major_alloc(h, 48, MAJOR_REFS);
        CHECK(major_block_of(taken[i]) == b);
        for (int j = 0; j < FIRST; j += 2) CHECK(taken[i] != objs[j]); /* not a live one */
        for (size_t k = 0; k < i; k++) CHECK(taken[i] != taken[k]);  /* once each */
    }
    CHECK_INT(b->nfree, 0);
    CHECK(major_block_of(major_alloc(h, 48, MAJOR_REFS)) != b);
    for (int j = 0; j < FIRST; j += 2) {
        uint64_t id;
        memcpy(&id, objs[j], sizeof id);
        CHECK_INT(id, (uint64_t)j + 1);
    }
    free(taken);
    destroy_heap(h, &ta);
}

/* --- finding objects ------------------------------------------------------------------ */

/* Every byte of a full block of every class maps to its slot (the
 * reciprocal division is exact), the header and the tail to nothing. */
TEST(major_containing_every_offset)
{
    TestAlloc ta = { 0 };
    MajorHeap *h = new_heap(&ta, NULL, 0);
    int n = major_class_count();
    long wrong = 0;
    for (int c = 0; c < n; c++) {
        size_t size = major_class_size(c);
        unsigned slots = major_class_slots(c);
        size_t req = size < MAJOR_MAX_OBJECT ? size : MAJOR_MAX_OBJECT;
        char *first = major_alloc(h, req, MAJOR_REFS);
        for (unsigned i = 1; i < slots; i++) major_alloc(h, req, MAJOR_REFS);
        MajorBlock *b = major_block_of(first);
        if (first != (char *)b + MAJOR_OBJ_START) wrong++;
        for (size_t off = 0; off < MAJOR_BLOCK_SIZE; off++) {
            char *a = (char *)b + off;
            char *expect = NULL;
            if (off >= MAJOR_OBJ_START && (off - MAJOR_OBJ_START) / size < slots)
                expect = (char *)b + MAJOR_OBJ_START + (off - MAJOR_OBJ_START) / size * size;
            if (major_object_containing(h, a) != expect) wrong++;
        }
    }
    CHECK_INT(wrong, 0);
    destroy_heap(h, &ta);
}

TEST(major_containing_edges)
{
    TestAlloc ta = { 0 };
    FreeLog fl = { 0 };
    MajorHeap *h = new_heap(&ta, &fl, 0);
    int c = major_class_of(100);
    size_t size = major_class_size(c);
    unsigned slots = major_class_slots(c);
    char **objs = calloc(slots + 1, sizeof *objs);
    for (unsigned i = 0; i <= slots; i++) objs[i] = major_alloc(h, 100, MAJOR_REFS);
    char *last = objs[slots - 1];
    MajorBlock *b = major_block_of(objs[0]);
    CHECK(major_block_of(objs[slots]) != b); /* the first block is full */
    CHECK(major_block_of(last) == b);

    /* starts, interior, last byte */
    CHECK(major_object_containing(h, objs[7]) == objs[7]);
    CHECK(major_object_containing(h, objs[7] + 1) == objs[7]);
    CHECK(major_object_containing(h, objs[7] + size - 1) == objs[7]);
    /* one past the end: the next object, when there is one */
    CHECK(major_object_containing(h, objs[7] + size) == objs[8]);
    /* header and tail */
    CHECK(major_object_containing(h, b) == NULL);
    CHECK(major_object_containing(h, (char *)b + MAJOR_OBJ_START - 1) == NULL);
    CHECK(major_object_containing(h, last + size) == NULL); /* the tail (or the next block) */
    CHECK(major_object_containing(h, (char *)b + MAJOR_BLOCK_SIZE - 1) == NULL);
    /* outside the heap */
    int local = 0;
    void *elsewhere = malloc(64);
    CHECK(major_object_containing(h, NULL) == NULL);
    CHECK(major_object_containing(h, &local) == NULL);
    CHECK(major_object_containing(h, elsewhere) == NULL);
    CHECK(major_object_containing(h, (void *)UINTPTR_MAX) == NULL);
    CHECK(!major_in_heap(h, &local) && !major_in_heap(h, elsewhere));
    free(elsewhere);
    /* a free block of an arena: in the heap, holding nothing */
    char *free_block = (char *)major_block_of(objs[slots]) + 4 * MAJOR_BLOCK_SIZE;
    CHECK(major_in_heap(h, free_block));
    CHECK(major_object_containing(h, free_block + MAJOR_OBJ_START) == NULL);

    /* free slots: every object survives but slot 5, slot 9 and the last */
    for (unsigned i = 0; i <= slots; i++) {
        put_id(objs[i], i + 1);
        if (i != 5 && i != 9 && i != slots - 1) major_mark(objs[i]);
    }
    /* unswept: the dead objects are already gone for the lookup */
    major_begin_sweep(h);
    CHECK(major_unswept_count(h) == 2);
    CHECK(major_object_containing(h, objs[5]) == NULL);
    CHECK(major_object_containing(h, objs[5] + 3) == NULL);
    CHECK(major_object_containing(h, objs[6] + 3) == objs[6]);
    size_t seen = 0;
    major_foreach(h, count_object, &seen);
    CHECK_INT(seen, slots + 1 - 3);
    major_sweep_all(h);
    CHECK_INT(fl.calls, 3);
    CHECK(major_object_containing(h, objs[5]) == NULL);
    CHECK(major_object_containing(h, objs[9] + size / 2) == NULL);
    CHECK(major_object_containing(h, objs[4] + size) == NULL); /* one past: a free slot */
    CHECK(major_object_containing(h, objs[3] + size) == objs[4]);
    CHECK(major_object_containing(h, last) == NULL);
    CHECK(major_object_containing(h, objs[slots - 2] + size) == NULL);
    CHECK(major_object_containing(h, objs[slots - 2] + size - 1) == objs[slots - 2]);
    free(objs);
    destroy_heap(h, &ta);
}

/* --- mark and sweep ------------------------------------------------------------------- */

typedef struct Rec {
    char *p;
    size_t n;
    uint64_t id;
    int live;
} Rec;

enum { RANDOM_OBJECTS = 20000, RANDOM_CYCLES = 7, MAX_IDS = RANDOM_OBJECTS * (RANDOM_CYCLES + 1) };

TEST(major_mark_sweep_random)
{
    TestAlloc ta = { 0 };
    FreeLog fl = { 0 };
    fl.nids = MAX_IDS;
    fl.per_id = calloc(MAX_IDS, sizeof(long));
    MajorHeap *h = new_heap(&ta, &fl, 16);
    TestRng rng = { 0x9E3779B97F4A7C15ull };
    Rec *recs = calloc(RANDOM_OBJECTS, sizeof *recs);
    size_t nrecs = 0;
    uint64_t next_id = 1;
    static const int live_percent[RANDOM_CYCLES] = { 50, 10, 90, 0, 100, 30, 70 };
    long bad_free = 0, bad_content = 0, bad_mark = 0, alloc_fail = 0;
    for (int cycle = 0; cycle < RANDOM_CYCLES; cycle++) {
        /* top up the population: mostly small objects, some up to 8 KiB */
        while (nrecs < RANDOM_OBJECTS) {
            size_t n = rng_below(&rng, 4) == 0 ? 16 + rng_below(&rng, MAJOR_MAX_OBJECT - 15)
                                               : 16 + rng_below(&rng, 240);
            int kind = (int)rng_below(&rng, 2);
            char *p = major_alloc(h, n, kind);
            if (p == NULL) {
                alloc_fail++;
                break;
            }
            fill_pattern(p, n, next_id);
            recs[nrecs++] = (Rec){ p, n, next_id++, 0 };
        }
        memset(fl.per_id, 0, MAX_IDS * sizeof(long));
        fl.calls = 0;
        fl.bytes = 0;
        size_t live_bytes = 0, dead_bytes = 0, nlive = 0;
        for (size_t i = 0; i < nrecs; i++) {
            recs[i].live = (int)rng_below(&rng, 100) < live_percent[cycle];
            if (!recs[i].live) {
                dead_bytes += major_object_size(recs[i].p);
                continue;
            }
            int fresh = cycle % 2 ? major_mark_atomic(recs[i].p) : major_mark(recs[i].p);
            if (!fresh) bad_mark++;
            if (major_mark(recs[i].p) || major_mark_atomic(recs[i].p)) bad_mark++; /* already set */
            live_bytes += major_object_size(recs[i].p);
            nlive++;
        }
        for (size_t i = 0; i < nrecs; i++)
            if (major_is_marked(recs[i].p) != recs[i].live) bad_mark++;
        major_begin_sweep(h);
        if (cycle % 3 == 0) {
            major_sweep_all(h);
        } else {
            while (major_sweep_some(h, 5) > 0) {
            }
        }
        CHECK_INT(major_unswept_count(h), 0);
        /* exactly the unmarked objects were freed, once each */
        for (size_t i = 0; i < nrecs; i++)
            if (fl.per_id[recs[i].id - 1] != (recs[i].live ? 0 : 1)) bad_free++;
        CHECK_INT(fl.calls, nrecs - nlive);
        CHECK_INT(fl.bytes, dead_bytes);
        CHECK_INT(fl.unknown, 0);
        MajorStats st;
        major_stats(h, &st);
        CHECK_INT(st.live_bytes_last_sweep, live_bytes);
        CHECK_INT(st.slot_bytes, live_bytes);
        CHECK(st.fragmentation >= 0.0 && st.fragmentation <= 1.0);
        size_t seen = 0;
        major_foreach(h, count_object, &seen);
        CHECK_INT(seen, nlive);
        /* survivors keep their contents and lose their marks */
        size_t kept = 0;
        for (size_t i = 0; i < nrecs; i++) {
            if (!recs[i].live) continue;
            if (!check_pattern(recs[i].p, recs[i].n, recs[i].id)) bad_content++;
            if (major_is_marked(recs[i].p)) bad_mark++;
            if (major_object_containing(h, recs[i].p + recs[i].n - 1) != recs[i].p) bad_content++;
            recs[kept++] = recs[i];
        }
        nrecs = kept;
    }
    CHECK_INT(alloc_fail, 0);
    CHECK_INT(bad_free, 0);
    CHECK_INT(bad_mark, 0);
    CHECK_INT(bad_content, 0);
    free(recs);
    free(fl.per_id);
    destroy_heap(h, &ta);
}

/* A promotion takes a block written ahead (the reserve) before it sweeps
 * an unswept block of its class; an ordinary allocation sweeps one. */
TEST(major_promotion_takes_reserve_before_sweeping)
{
    TestAlloc ta = { 0 };
    FreeLog fl = { 0 };
    MajorHeap *h = new_heap(&ta, &fl, 0);
    unsigned per_block = major_class_slots(major_class_of(64));
    char **objs = calloc(2 * per_block, sizeof *objs);
    for (unsigned i = 0; i < 2 * per_block; i++) {
        objs[i] = major_alloc(h, 64, MAJOR_REFS);
        put_id(objs[i], 1);
        if (i % 2 == 0) major_mark(objs[i]); /* half of each block survives */
    }
    major_begin_sweep(h);
    size_t unswept = major_unswept_count(h);
    CHECK_INT(unswept, 2);
    major_reserve(h, 4, 4);
    CHECK(major_warm_free_blocks(h) >= 1);
    char *p = major_alloc_promotion(h, 64, MAJOR_REFS);
    CHECK(p != NULL);
    CHECK_INT(major_unswept_count(h), unswept); /* nothing swept */
    CHECK_INT(fl.calls, 0);
    for (unsigned i = 0; i < 2 * per_block; i++) CHECK(major_block_of(p) != major_block_of(objs[i]));
    /* without a reserve, a promotion sweeps as any allocation does */
    for (unsigned i = 1; i < per_block; i++) major_alloc_promotion(h, 64, MAJOR_REFS); /* (fills the fresh block) */
    while (major_warm_free_blocks(h) > 0) major_alloc(h, 4000, MAJOR_REFS); /* (other classes take the rest) */
    major_alloc_promotion(h, 64, MAJOR_REFS);
    CHECK_INT(major_unswept_count(h), unswept - 1);
    CHECK_INT(fl.calls, per_block / 2);
    free(objs);
    destroy_heap(h, &ta);
}

TEST(major_lazy_sweep)
{
    TestAlloc ta = { 0 };
    FreeLog fl = { 0 };
    MajorHeap *h = new_heap(&ta, &fl, 0);
    enum { PER = 3 };
    unsigned sa = major_class_slots(major_class_of(64)), sc = major_class_slots(major_class_of(1000));
    /* three full blocks each of: A (64 bytes, refs), B (64, no refs), C (1000, refs) */
    char **a = calloc(PER * sa, sizeof *a), **bb = calloc(PER * sa, sizeof *bb), **cc = calloc(PER * sc, sizeof *cc);
    for (unsigned i = 0; i < PER * sa; i++) {
        a[i] = major_alloc(h, 64, MAJOR_REFS);
        bb[i] = major_alloc(h, 64, MAJOR_NOREFS);
        put_id(a[i], 1);
        put_id(bb[i], 2);
    }
    for (unsigned i = 0; i < PER * sc; i++) {
        cc[i] = major_alloc(h, 1000, MAJOR_REFS);
        put_id(cc[i], 3);
    }
    CHECK(!major_has_refs(bb[0]) && major_has_refs(a[0]));
    /* every other object survives */
    for (unsigned i = 0; i < PER * sa; i += 2) {
        major_mark(a[i]);
        major_mark(bb[i]);
    }
    for (unsigned i = 0; i < PER * sc; i += 2) major_mark(cc[i]);
    MajorStats st;
    major_stats(h, &st);
    size_t blocks = st.blocks_used;
    CHECK_INT(blocks, 3 * PER);
    major_begin_sweep(h);
    CHECK_INT(major_unswept_count(h), blocks);
    CHECK_INT(fl.calls, 0); /* nothing swept yet */
    CHECK(major_object_containing(h, a[1]) == NULL); /* dead, not yet freed */
    CHECK(major_object_containing(h, a[2]) == a[2]);

    /* an allocation of A's class sweeps one A block, nothing else */
    char *p = major_alloc(h, 60, MAJOR_REFS);
    CHECK(p != NULL);
    CHECK_INT(major_unswept_count(h), blocks - 1);
    CHECK_INT(fl.calls, sa / 2);
    CHECK(!major_block_unswept(major_block_of(p)));
    int reused = 0;
    for (unsigned i = 1; i < PER * sa; i += 2) reused |= a[i] == p;
    CHECK(reused); /* it took a slot the sweep freed */

    /* idle time: a bounded number */
    CHECK_INT(major_sweep_some(h, 2), 2);
    CHECK_INT(major_unswept_count(h), blocks - 3);
    long calls = fl.calls;

    /* one block on demand */
    MajorBlock *cb = major_block_of(cc[sc]); /* C's second block */
    if (major_block_unswept(cb)) {
        size_t live = major_sweep_block_of(h, cc[sc]);
        size_t expect_live = 0;
        for (unsigned i = sc; i < 2 * sc; i++)
            if (i % 2 == 0) expect_live += major_object_size(cc[i]);
        CHECK_INT(live, expect_live);
        CHECK(!major_block_unswept(cb));
        CHECK(fl.calls > calls);
    }
    major_sweep_all(h);
    CHECK_INT(major_unswept_count(h), 0);
    long expect = (long)(PER * sa / 2) * 2 + (long)(PER * sc - (PER * sc + 1) / 2);
    CHECK_INT(fl.calls, expect);
    free(a);
    free(bb);
    free(cc);
    destroy_heap(h, &ta);
}

/* Beginning a sweep visits no block: the blocks of later arenas are listed
 * for sweeping only as the sweep or allocation reaches them, yet every
 * block counts as unswept at once (liveness, sweeping one on demand), and
 * each is swept exactly once. */
TEST(major_begin_sweep_lists_later)
{
    TestAlloc ta = { 0 };
    FreeLog fl = { 0 };
    MajorHeap *h = new_heap(&ta, &fl, 2); /* two blocks an arena: many arenas */
    unsigned sa = major_class_slots(major_class_of(64));
    enum { BLOCKS = 24 };
    unsigned n = BLOCKS * sa;
    char **a = calloc(n, sizeof *a);
    for (unsigned i = 0; i < n; i++) {
        a[i] = major_alloc(h, 64, MAJOR_REFS);
        put_id(a[i], 1);
    }
    for (unsigned i = 0; i < n; i += 2) major_mark(a[i]); /* every other one survives */
    MajorStats st;
    major_stats(h, &st);
    CHECK_INT(st.blocks_used, BLOCKS);
    CHECK(st.arenas >= BLOCKS / 2);
    major_begin_sweep(h);
    CHECK_INT(major_unswept_count(h), BLOCKS);
    CHECK_INT(fl.calls, 0);
    /* the last block, in an arena no one has listed: unswept all the same */
    char *last_dead = a[n - 1], *last_live = a[n - 2];
    CHECK(major_block_unswept(major_block_of(last_dead)));
    CHECK(major_object_containing(h, last_dead) == NULL);
    CHECK(major_object_containing(h, last_live) == last_live);
    /* swept on demand before its arena was listed */
    MajorBlock *lb = major_block_of(last_dead);
    long in_last = 0, live_in_last = 0;
    for (unsigned i = 0; i < n; i++)
        if (major_block_of(a[i]) == lb) {
            in_last++;
            live_in_last += i % 2 == 0;
        }
    size_t live = major_sweep_block_of(h, last_dead);
    CHECK_INT(live, (size_t)live_in_last * major_object_size(last_live));
    CHECK_INT(major_unswept_count(h), BLOCKS - 1);
    CHECK_INT(fl.calls, in_last - live_in_last);
    /* allocation lists arenas as it needs them, and reuses freed slots */
    char *p = major_alloc(h, 64, MAJOR_REFS);
    CHECK(p != NULL && !major_block_unswept(major_block_of(p)));
    /* the rest, each block once: the one swept above is skipped */
    major_sweep_all(h);
    CHECK_INT(major_unswept_count(h), 0);
    CHECK_INT(fl.calls, (long)(n - (n + 1) / 2)); /* the odd indices */
    major_stats(h, &st);
    CHECK_INT(st.blocks_unswept, 0);
    for (unsigned i = 0; i < n; i += 2) CHECK(major_object_containing(h, a[i]) == a[i]);
    /* and a second sweep after it starts over from the first arena */
    for (unsigned i = 0; i < n; i += 4) major_mark(a[i]);
    major_mark(p);
    major_begin_sweep(h);
    major_sweep_all(h);
    long second_dead = 0;
    for (unsigned i = 0; i < n; i += 2) second_dead += i % 4 != 0;
    CHECK_INT(fl.calls, (long)(n - (n + 1) / 2) + second_dead);
    free(a);
    destroy_heap(h, &ta);
}

/* --- arenas ---------------------------------------------------------------------------- */

TEST(major_arenas_returned)
{
    TestAlloc ta = { 0 };
    ta.large_threshold = 2 * MAJOR_BLOCK_SIZE; /* arenas, not descriptors or arrays */
    FreeLog fl = { 0 };
    MajorHeap *h = new_heap(&ta, &fl, 4);
    unsigned per_block = major_class_slots(major_class_of(4000));
    unsigned per_arena = per_block * 4;
    char *objs[64];
    CHECK(3 * per_arena <= 64);
    for (unsigned i = 0; i < 3 * per_arena; i++) objs[i] = major_alloc(h, 4000, MAJOR_REFS);
    MajorStats st;
    major_stats(h, &st);
    CHECK_INT(st.arenas, 3);
    CHECK_INT(ta.large_allocs, 3);
    CHECK_INT(st.arena_bytes, 3 * 5 * MAJOR_BLOCK_SIZE);

    /* one survivor keeps one arena */
    major_mark(objs[per_arena + 1]);
    major_begin_sweep(h);
    major_sweep_all(h);
    major_stats(h, &st);
    CHECK_INT(st.arenas, 1);
    CHECK_INT(st.blocks_used, 1);
    CHECK_INT(ta.large_frees, 2);
    CHECK(major_object_containing(h, objs[per_arena + 1]) == objs[per_arena + 1]);

    /* nothing survives: the last one goes too */
    major_begin_sweep(h);
    major_sweep_all(h);
    major_stats(h, &st);
    CHECK_INT(st.arenas, 0);
    CHECK_INT(ta.large_frees, 3);
    CHECK_INT(st.block_bytes, 0);

    /* on demand, in the middle of a lazy sweep */
    for (unsigned i = 0; i < 2 * per_arena; i++) objs[i] = major_alloc(h, 4000, MAJOR_REFS);
    CHECK_INT(ta.large_allocs, 5);
    major_begin_sweep(h);
    CHECK_INT(major_sweep_some(h, 7), 7); /* one arena has all its blocks swept (and empty) */
    CHECK_INT(ta.large_frees, 3);          /* the sweep is not over: nothing given back yet */
    CHECK_INT(major_release_empty_arenas(h), 1);
    CHECK_INT(ta.large_frees, 4);
    CHECK_INT(major_sweep_some(h, 10), 1);
    CHECK_INT(ta.large_frees, 5); /* the end of the sweep */
    major_stats(h, &st);
    CHECK_INT(st.arenas, 0);
    destroy_heap(h, &ta);
}

/* The promotion reserve: major_reserve writes free blocks ahead and
 * counts them; taking one spends the reserve, giving one back refills it;
 * the release of empty arenas keeps it, and drops what is over it. */
TEST(major_reserve_kept_warm)
{
    TestAlloc ta = { 0 };
    ta.large_threshold = 2 * MAJOR_BLOCK_SIZE; /* arenas */
    MajorHeap *h = new_heap(&ta, NULL, 4);
    CHECK_INT(major_warm_free_blocks(h), 0);
    /* eight blocks wanted, at most four written per call: two arenas */
    CHECK_INT(major_reserve(h, 8, 4), 4);
    CHECK_INT(major_warm_free_blocks(h), 4);
    CHECK_INT(major_reserve(h, 8, 4), 4);
    CHECK_INT(major_warm_free_blocks(h), 8);
    CHECK_INT(ta.large_allocs, 2);
    CHECK_INT(major_reserve(h, 8, 4), 0); /* met: nothing to do */

    /* blocks taken come out of the reserve; a new arena's blocks are
     * written only as far as the reserve asks */
    unsigned per_block = major_class_slots(major_class_of(4000));
    for (unsigned i = 0; i < per_block * 3; i++) CHECK(major_alloc(h, 4000, MAJOR_REFS) != NULL);
    CHECK_INT(major_warm_free_blocks(h), 5);
    CHECK_INT(major_reserve(h, 8, 4), 3);
    CHECK_INT(major_warm_free_blocks(h), 8);
    CHECK_INT(ta.large_allocs, 3);
    MajorStats st;
    major_stats(h, &st);
    CHECK_INT(st.blocks_warm_free, 8);
    CHECK_INT(st.blocks_cold_free, 1); /* the third arena's last block */
    CHECK_INT(st.blocks - st.blocks_used, 9);

    /* nothing survives: the three blocks come back warm (11), and the
     * release at the end of the sweep keeps the reserve: the third arena
     * (3 warm blocks) goes, the two full ones (4 each) stay */
    major_begin_sweep(h);
    major_sweep_all(h);
    major_stats(h, &st);
    CHECK_INT(st.blocks_used, 0);
    CHECK_INT(st.arenas, 2);
    CHECK_INT(st.blocks_cold_free, 0);
    CHECK_INT(ta.large_frees, 1);
    CHECK_INT(major_warm_free_blocks(h), 8);
    /* with no reserve wanted, they go too */
    major_reserve(h, 0, 0);
    CHECK_INT(major_release_empty_arenas(h), 2);
    CHECK_INT(major_warm_free_blocks(h), 0);
    destroy_heap(h, &ta);
}

/* A prefaulter that records what it is given and takes it while
 * [accept]; either way it puts PAGE_MARK at the start of every page of
 * the block, which the heap must leave alone when the block was taken and
 * write over when it was not. It records what is cancelled. */
#define PAGE_MARK 0xA5
#define PAGE_STRIDE ((size_t)4096)
typedef struct FakePrefaulter {
    int accept;
    uintptr_t given[64], declined[64];
    size_t ngiven, ndeclined;
    uintptr_t cancelled_lo[8], cancelled_hi[8];
    size_t ncancelled;
} FakePrefaulter;

static int fake_prefault(void *ud, void *addr, size_t len)
{
    FakePrefaulter *f = ud;
    CHECK_INT(len, MAJOR_BLOCK_SIZE);
    CHECK(((uintptr_t)addr & MAJOR_BLOCK_MASK) == 0);
    for (size_t off = 0; off < len; off += PAGE_STRIDE) ((unsigned char *)addr)[off] = PAGE_MARK;
    if (!f->accept) {
        if (f->ndeclined < 64) f->declined[f->ndeclined++] = (uintptr_t)addr;
        return 0;
    }
    if (f->ngiven < 64) f->given[f->ngiven++] = (uintptr_t)addr;
    return 1;
}

/* Every page of the block at [a] starts with [byte]. */
static int pages_start_with(uintptr_t a, unsigned char byte)
{
    for (size_t off = 0; off < MAJOR_BLOCK_SIZE; off += PAGE_STRIDE)
        if (((unsigned char *)a)[off] != byte) return 0;
    return 1;
}

static void fake_prefault_cancel(void *ud, void *addr, size_t len)
{
    FakePrefaulter *f = ud;
    if (f->ncancelled < 8) {
        f->cancelled_lo[f->ncancelled] = (uintptr_t)addr;
        f->cancelled_hi[f->ncancelled++] = (uintptr_t)addr + len;
    }
}

/* The reserve's blocks go to the prefaulter when it takes them (the heap
 * writes none of their pages: a fresh block's first word is left as the
 * obtain made it), to the heap's own writes when it declines; an arena
 * goes back only after the prefaulter has been told to drop its range. */
TEST(major_reserve_prefaulted)
{
    TestAlloc ta = { 0 };
    ta.large_threshold = 2 * MAJOR_BLOCK_SIZE; /* arenas */
    FakePrefaulter f = { 0 };
    f.accept = 1;
    MajorConfig cfg = { .obtain = test_obtain, .obtain_ud = &ta, .blocks_per_arena = 4,
                        .prefault = fake_prefault, .prefault_cancel = fake_prefault_cancel, .prefault_ud = &f };
    MajorHeap *h = major_create(&cfg);
    CHECK(h != NULL);
    CHECK_INT(major_reserve(h, 6, 6), 6);
    CHECK_INT(major_warm_free_blocks(h), 6);
    CHECK_INT(f.ngiven, 6);
    for (size_t i = 0; i < f.ngiven; i++) {
        for (size_t j = 0; j < i; j++) CHECK(f.given[i] != f.given[j]); /* six different blocks */
        CHECK(pages_start_with(f.given[i], PAGE_MARK));                /* not written */
    }
    /* declined: the heap writes the block itself, and it counts as warm too */
    f.accept = 0;
    CHECK_INT(major_reserve(h, 8, 2), 2);
    CHECK_INT(major_warm_free_blocks(h), 8);
    CHECK_INT(f.ngiven, 6);
    CHECK_INT(f.ndeclined, 2);
    for (size_t i = 0; i < f.ndeclined; i++) CHECK(pages_start_with(f.declined[i], 0));
    /* the blocks the prefaulter was given lie in arenas that go back at the
     * end of the sweep (no reserve wanted): each arena's range is cancelled
     * before it is freed, and covers the blocks given out of it */
    major_reserve(h, 0, 0);
    CHECK_INT(major_release_empty_arenas(h), 2);
    CHECK_INT(ta.large_frees, 2);
    CHECK_INT(f.ncancelled, 2);
    for (size_t i = 0; i < f.ngiven; i++) {
        int covered = 0;
        for (size_t k = 0; k < f.ncancelled; k++)
            covered |= f.given[i] >= f.cancelled_lo[k] && f.given[i] + MAJOR_BLOCK_SIZE <= f.cancelled_hi[k];
        CHECK(covered);
    }
    destroy_heap(h, &ta);
}

/* An obtain that hands arenas out from the top of one region downwards,
 * as mmap does: each new arena lies below the ones before it. Smaller
 * requests (the heap's own metadata) go to test_obtain. */
typedef struct DownwardAlloc {
    TestAlloc ta;
    char *region;
    size_t size, used;
} DownwardAlloc;

static void *downward_obtain(void *ud, void *block, size_t osize, size_t nsize)
{
    DownwardAlloc *d = ud;
    int arena = (block == NULL ? nsize : osize) >= 2 * MAJOR_BLOCK_SIZE;
    if (!arena) return test_obtain(&d->ta, block, osize, nsize);
    if (block != NULL) return NULL; /* freed with the region */
    if (d->used + nsize > d->size) return NULL;
    d->used += nsize;
    return d->region + d->size - d->used;
}

/* Promotion takes a warm block (faulted in ahead) before a cold one, even
 * when the cold one lies lower: a new arena below the others, warmed only
 * in part. And arenas grow with the heap (max_blocks_per_arena), a quarter
 * of the blocks so far at a time, so that a big heap is obtained in few
 * calls. */
TEST(major_warm_blocks_first_arenas_grow)
{
    DownwardAlloc d = { 0 };
    d.size = (size_t)16 << 20;
    d.region = malloc(d.size);
    CHECK(d.region != NULL);
    MajorConfig cfg = { .obtain = downward_obtain, .obtain_ud = &d, .blocks_per_arena = 4,
                        .max_blocks_per_arena = 16 };
    MajorHeap *h = major_create(&cfg);
    CHECK(h != NULL);
    CHECK_INT(major_reserve(h, 4, 4), 4); /* arena A: 4 warm */
    CHECK_INT(major_reserve(h, 6, 2), 2); /* arena B, below A: 2 warm, 2 cold */
    MajorStats st;
    major_stats(h, &st);
    CHECK_INT(st.arenas, 2);
    CHECK_INT(st.blocks_warm_free, 6);
    CHECK_INT(st.blocks_cold_free, 2);
    /* six classes, a fresh block each: all six warm ones, B's cold last */
    for (int c = 0; c < 6; c++) CHECK(major_alloc(h, major_class_size(c), MAJOR_REFS) != NULL);
    major_stats(h, &st);
    CHECK_INT(st.blocks_used, 6);
    CHECK_INT(st.blocks_warm_free, 0);
    CHECK_INT(st.blocks_cold_free, 2);
    CHECK(major_alloc(h, major_class_size(6), MAJOR_REFS) != NULL);
    major_stats(h, &st);
    CHECK_INT(st.blocks_cold_free, 1);

    /* growth: 8 blocks so far, so the next arenas have 4, 4 (12/4 = 3 < 4),
     * 4, 5, 6, 7, 9, 11, 14, 16, 16 ... */
    major_reserve(h, 200, 200);
    major_stats(h, &st);
    CHECK(st.blocks >= 200);
    CHECK(st.arenas < 25); /* 4-block arenas would be 50 */
    MajorArenaView views[64];
    CHECK(st.arenas <= 64);
    major_arena_views(h, views);
    unsigned biggest = 0;
    for (size_t i = 0; i < st.arenas; i++) {
        CHECK(views[i].nblocks >= 4 && views[i].nblocks <= 16);
        if (views[i].nblocks > biggest) biggest = views[i].nblocks;
    }
    CHECK_INT(biggest, 16);
    major_destroy(h);
    CHECK_INT(d.ta.outstanding, 0);
    free(d.region);
}

/* The reserve's blocks are taken in the order they were handed to the
 * prefaulter, which serves them in that order. A new arena comes below the
 * others (as mmap places them), so by address its blocks, handed last and
 * the least likely to be faulted in yet, would be taken first. A block
 * handed out of an arena that has gone back is skipped. */
TEST(major_handed_blocks_taken_oldest_first)
{
    DownwardAlloc d = { 0 };
    d.size = (size_t)16 << 20;
    d.region = malloc(d.size);
    CHECK(d.region != NULL);
    FakePrefaulter f = { 0 };
    f.accept = 1;
    MajorConfig cfg = { .obtain = downward_obtain, .obtain_ud = &d, .blocks_per_arena = 4,
                        .prefault = fake_prefault, .prefault_cancel = fake_prefault_cancel, .prefault_ud = &f };
    MajorHeap *h = major_create(&cfg);
    CHECK(h != NULL);
    CHECK_INT(major_reserve(h, 4, 4), 4); /* arena A */
    CHECK_INT(major_reserve(h, 8, 4), 4); /* arena B, below A */
    CHECK_INT(f.ngiven, 8);
    CHECK(f.given[4] < f.given[0]);
    /* eight classes, a fresh block each: A's four, then B's */
    for (int c = 0; c < 8; c++) {
        void *o = major_alloc(h, major_class_size(c), MAJOR_REFS);
        CHECK(o != NULL);
        CHECK((uintptr_t)major_block_of(o) == f.given[c]);
    }
    /* blocks handed out of arenas that then go back: never taken (under
     * AddressSanitizer, never even looked at) */
    CHECK_INT(major_reserve(h, 8, 8), 8);
    CHECK_INT(f.ngiven, 16);
    major_reserve(h, 0, 0);
    CHECK(major_release_empty_arenas(h) > 0);
    for (int c = 8; c < 12; c++) {
        void *o = major_alloc(h, major_class_size(c), MAJOR_REFS);
        CHECK(o != NULL);
        CHECK(major_in_heap(h, o));
    }
    major_destroy(h);
    CHECK_INT(d.ta.outstanding, 0);
    free(d.region);
}

/* An allocation in the middle of a lazy sweep sweeps a bounded number of
 * its class's blocks looking for a free slot (SWEEP_FOR_REFILL, 8), then
 * takes a free block: a nursery collection promoting into a class whose
 * blocks are all full must not sweep them all in its pause. */
TEST(major_refill_sweep_bounded)
{
    TestAlloc ta = { 0 };
    FreeLog fl = { 0 };
    MajorHeap *h = new_heap(&ta, &fl, 0);
    enum { BLOCKS = 40 };
    unsigned per_block = major_class_slots(major_class_of(64));
    char **objs = calloc((size_t)BLOCKS * per_block, sizeof *objs);
    for (size_t i = 0; i < (size_t)BLOCKS * per_block; i++) {
        objs[i] = major_alloc(h, 64, MAJOR_REFS);
        put_id(objs[i], 1);
        major_mark(objs[i]); /* everything survives: no block has room */
    }
    MajorStats st;
    major_stats(h, &st);
    CHECK_INT(st.blocks_used, BLOCKS);
    major_begin_sweep(h);
    char *p = major_alloc(h, 64, MAJOR_REFS);
    CHECK(p != NULL);
    size_t swept = BLOCKS - major_unswept_count(h);
    CHECK(swept >= 1 && swept <= 8);
    CHECK(!major_block_unswept(major_block_of(p)));
    major_stats(h, &st);
    CHECK_INT(st.blocks_used, BLOCKS + 1); /* a fresh block */
    CHECK_INT(fl.calls, 0);
    major_sweep_all(h);
    CHECK_INT(fl.calls, 0);
    free(objs);
    destroy_heap(h, &ta);
}

/* --- cards ------------------------------------------------------------------------------ */

typedef struct RangeLog {
    int n;
    char *lo[16], *hi[16];
} RangeLog;

static void log_range(void *ud, void *lo, void *hi)
{
    RangeLog *r = ud;
    if (r->n < 16) {
        r->lo[r->n] = lo;
        r->hi[r->n] = hi;
    }
    r->n++;
}

TEST(major_cards)
{
    TestAlloc ta = { 0 };
    MajorHeap *h = new_heap(&ta, NULL, 0);
    unsigned slots = major_class_slots(major_class_of(64));
    char **o = calloc(2 * slots, sizeof *o);
    for (unsigned i = 0; i < 2 * slots; i++) o[i] = major_alloc(h, 64, MAJOR_REFS);
    char *b = (char *)major_block_of(o[0]);
    char *b2 = (char *)major_block_of(o[slots]);
    char *end = b + MAJOR_OBJ_START + slots * major_object_size(o[0]);
    RangeLog r = { 0 };
    major_visit_dirty_cards(h, log_range, &r, 0);
    CHECK_INT(r.n, 0);

    /* one slot: one card, one 512-byte range around it */
    char *slot = o[100] + 8;
    size_t card = (size_t)(slot - b) / 512;
    CHECK(!major_card_is_dirty(slot));
    major_card_mark(slot);
    CHECK(major_card_is_dirty(slot) && major_card_is_dirty(b + card * 512));
    CHECK(!major_card_is_dirty(b + card * 512 + 512));
    major_visit_dirty_cards(h, log_range, &r, 0);
    CHECK_INT(r.n, 1);
    CHECK(r.lo[0] == b + card * 512 && r.hi[0] == b + card * 512 + 512);
    CHECK(r.lo[0] <= slot && slot < r.hi[0]);

    /* the first card is clipped to the first slot, the last to the last */
    major_card_mark(o[0]);
    major_card_mark(end - 1);
    /* adjacent cards make one range; another block's card is another range */
    major_card_mark(b + card * 512 + 512);
    major_card_mark(o[slots] + 3);
    r.n = 0;
    major_visit_dirty_cards(h, log_range, &r, 1);
    int first_of_b2 = b2 < b ? 0 : 3;
    int first_of_b = b2 < b ? 1 : 0;
    CHECK_INT(r.n, 4);
    if (r.n == 4) {
        CHECK(r.lo[first_of_b] == b + MAJOR_OBJ_START && r.hi[first_of_b] == b + 512);
        CHECK(r.lo[first_of_b + 1] == b + card * 512 && r.hi[first_of_b + 1] == b + card * 512 + 1024);
        CHECK(r.lo[first_of_b + 2] == b + (size_t)(end - 1 - b) / 512 * 512 && r.hi[first_of_b + 2] == end);
        CHECK(r.lo[first_of_b2] == b2 + MAJOR_OBJ_START && r.hi[first_of_b2] == b2 + 512);
    }
    /* cleared as visited */
    r.n = 0;
    major_visit_dirty_cards(h, log_range, &r, 0);
    CHECK_INT(r.n, 0);
    CHECK(!major_card_is_dirty(slot));

    /* clearing one card, all cards */
    major_card_mark(slot);
    major_card_clear(slot);
    CHECK(!major_card_is_dirty(slot));
    major_card_mark(o[5]);
    major_card_mark(o[slots + 5]);
    major_clear_cards(h);
    major_visit_dirty_cards(h, log_range, &r, 0);
    CHECK_INT(r.n, 0);
    free(o);
    destroy_heap(h, &ta);
}

/* --- failure of obtain ------------------------------------------------------------------ */

TEST(major_obtain_fails)
{
    TestAlloc ta = { 0 };
    ta.fail_now = 1;
    CHECK(new_heap(&ta, NULL, 0) == NULL);
    CHECK_INT(ta.outstanding, 0);
    ta.fail_now = 0;
    FreeLog fl = { 0 };
    MajorHeap *h = new_heap(&ta, &fl, 1);
    size_t base = ta.outstanding;

    /* the first arena: its raw block, then its descriptor, fails */
    ta.fail_now = 1;
    CHECK(major_alloc(h, 32, MAJOR_REFS) == NULL);
    ta.fail_now = 0;
    ta.fail_countdown = 2; /* the arena array and the raw block succeed ... */
    CHECK(major_alloc(h, 32, MAJOR_REFS) == NULL); /* ... the descriptor does not */
    CHECK_INT(ta.live_blocks, 2);                 /* heap + array: the raw block went back */
    ta.fail_now = 0;
    ta.fail_countdown = 0;
    char *p = major_alloc(h, 32, MAJOR_REFS);
    CHECK(p != NULL);
    put_id(p, 77);
    CHECK(ta.outstanding > base);

    /* a full one-block arena, then no memory: NULL, and the heap is intact */
    unsigned slots = major_class_slots(major_class_of(32));
    for (unsigned i = 1; i < slots; i++) CHECK(major_alloc(h, 32, MAJOR_REFS) != NULL);
    ta.fail_now = 1;
    CHECK(major_alloc(h, 32, MAJOR_REFS) == NULL);
    CHECK(major_object_containing(h, p) == p);

    /* still no memory, but a sweep frees the block: allocation succeeds by
     * sweeping on demand, and the arena is not given back on the way */
    major_begin_sweep(h);
    char *q = major_alloc(h, 32, MAJOR_REFS);
    CHECK(q != NULL);
    CHECK_INT(fl.calls, slots);
    MajorStats st;
    major_stats(h, &st);
    CHECK_INT(st.arenas, 1);
    ta.fail_now = 0;
    destroy_heap(h, &ta);
}

/* --- black allocation, clearing marks -------------------------------------------------------- */

TEST(major_allocate_black)
{
    TestAlloc ta = { 0 };
    FreeLog fl = { 0 };
    MajorHeap *h = new_heap(&ta, &fl, 0);
    major_set_allocate_black(h, 1);
    char *p = major_alloc(h, 200, MAJOR_REFS);
    CHECK(major_is_marked(p));
    major_set_allocate_black(h, 0);
    char *q = major_alloc(h, 200, MAJOR_REFS);
    CHECK(!major_is_marked(q));
    put_id(q, 5);
    major_begin_sweep(h);
    major_sweep_all(h);
    CHECK_INT(fl.calls, 1); /* q only */
    CHECK(major_object_containing(h, p) == p);
    CHECK(!major_is_marked(p));
    destroy_heap(h, &ta);
}

/* set_allocated's plain store of a mark is for blocks taken empty since
 * black allocation began (MajorBlock.black_epoch); a block taken before
 * it, or in an earlier cycle, keeps the atomic one. */
TEST(major_black_epoch)
{
    TestAlloc ta = { 0 };
    MajorHeap *h = new_heap(&ta, NULL, 0);
    char *white = major_alloc(h, 48, MAJOR_REFS);
    MajorBlock *a = major_block_of(white);
    CHECK_INT(a->black_epoch, 0);
    major_set_allocate_black(h, 1);
    char *p;
    do {
        p = major_alloc(h, 48, MAJOR_REFS);
        CHECK(major_is_marked(p));
    } while (major_block_of(p) == a);
    MajorBlock *b = major_block_of(p);
    CHECK(b->black_epoch != 0);
    CHECK(!major_is_marked(white));
    major_set_allocate_black(h, 0);
    major_set_allocate_black(h, 1); /* the next cycle: b's epoch is stale */
    do {
        p = major_alloc(h, 48, MAJOR_REFS);
        CHECK(major_is_marked(p));
    } while (major_block_of(p) == b);
    MajorBlock *c = major_block_of(p);
    CHECK(c->black_epoch != 0 && c->black_epoch != b->black_epoch);
    destroy_heap(h, &ta);
}

/* A marker thread marks the white objects of a block while the owner
 * allocates black into the same block: no mark is lost (the block was
 * taken before black allocation, so its marks are set atomically). */
enum { RACE_ROUNDS = 200, RACE_WHITE = 100, RACE_BLACK = 150 };
typedef struct RaceJob {
    char **white;
    _Atomic int ready, go;
} RaceJob;

static void *mark_white(void *ud)
{
    RaceJob *j = ud;
    atomic_store(&j->ready, 1);
    while (!atomic_load(&j->go)) {
    }
    /* from the top: the white objects in the bitmap word that the first
     * black ones share (slots 64-127) are marked while those are made */
    for (int i = RACE_WHITE - 1; i >= 0; i--) major_mark_atomic(j->white[i]);
    return NULL;
}

TEST(major_allocate_black_beside_marker)
{
    for (int round = 0; round < RACE_ROUNDS; round++) {
        TestAlloc ta = { 0 };
        MajorHeap *h = new_heap(&ta, NULL, 0);
        char *white[RACE_WHITE], *black[RACE_BLACK];
        for (int i = 0; i < RACE_WHITE; i++) white[i] = major_alloc(h, 48, MAJOR_REFS);
        major_set_allocate_black(h, 1);
        RaceJob job = { white, 0, 0 };
        pthread_t th;
        pthread_create(&th, NULL, mark_white, &job);
        while (!atomic_load(&job.ready)) {
        }
        atomic_store(&job.go, 1);
        for (int i = 0; i < RACE_BLACK; i++) black[i] = major_alloc(h, 48, MAJOR_REFS);
        pthread_join(th, NULL);
        CHECK(major_block_of(black[RACE_BLACK - 1]) == major_block_of(white[0])); /* one block */
        int marked = 0;
        for (int i = 0; i < RACE_WHITE; i++) marked += major_is_marked(white[i]);
        for (int i = 0; i < RACE_BLACK; i++) marked += major_is_marked(black[i]);
        CHECK_INT(marked, RACE_WHITE + RACE_BLACK);
        destroy_heap(h, &ta);
    }
}

TEST(major_marks_cleared)
{
    TestAlloc ta = { 0 };
    FreeLog fl = { 0 };
    MajorHeap *h = new_heap(&ta, &fl, 0);
    char *objs[100];
    for (int i = 0; i < 100; i++) objs[i] = major_alloc(h, 16 + (size_t)i * 40, i % 2);
    for (int i = 0; i < 100; i += 3) major_mark(objs[i]);
    major_clear_marks(h);
    int marked = 0;
    for (int i = 0; i < 100; i++) marked += major_is_marked(objs[i]);
    CHECK_INT(marked, 0);
    major_begin_sweep(h);
    major_sweep_all(h);
    CHECK_INT(fl.calls, 100);
    MajorStats st;
    major_stats(h, &st);
    CHECK_INT(st.blocks_used, 0);
    CHECK_INT(st.slot_bytes, 0);
    CHECK_INT(st.arenas, 0);
    destroy_heap(h, &ta);
}

/* --- concurrent marking ---------------------------------------------------------------------- */

enum { MARK_THREADS = 4, MARK_OBJECTS = 5000 };
typedef struct MarkJob {
    char **objs;
    long fresh;
} MarkJob;

static void *mark_all(void *ud)
{
    MarkJob *j = ud;
    for (int i = 0; i < MARK_OBJECTS; i++) j->fresh += major_mark_atomic(j->objs[i]);
    return NULL;
}

TEST(major_mark_atomic_threads)
{
    TestAlloc ta = { 0 };
    MajorHeap *h = new_heap(&ta, NULL, 0);
    char **objs = calloc(MARK_OBJECTS, sizeof *objs);
    for (int i = 0; i < MARK_OBJECTS; i++) objs[i] = major_alloc(h, 16 + (size_t)(i % 7) * 16, MAJOR_REFS);
    pthread_t th[MARK_THREADS];
    MarkJob jobs[MARK_THREADS];
    for (int t = 0; t < MARK_THREADS; t++) {
        jobs[t] = (MarkJob){ objs, 0 };
        pthread_create(&th[t], NULL, mark_all, &jobs[t]);
    }
    long fresh = 0;
    for (int t = 0; t < MARK_THREADS; t++) {
        pthread_join(th[t], NULL);
        fresh += jobs[t].fresh;
    }
    CHECK_INT(fresh, MARK_OBJECTS); /* each object marked by exactly one thread */
    int marked = 0;
    for (int i = 0; i < MARK_OBJECTS; i++) marked += major_is_marked(objs[i]);
    CHECK_INT(marked, MARK_OBJECTS);
    free(objs);
    destroy_heap(h, &ta);
}

/* The view a concurrent marker takes of the heap (worker.c): a word is an
 * object only if it is the start of a slot allocated in a block in use when
 * the view was taken; every other word — interiors, headers, tails, free
 * slots, blocks taken later, anything outside the arenas — is not, since a
 * torn read may produce any of them. */
TEST(major_view_objects)
{
    TestAlloc ta = { 0 };
    MajorHeap *h = new_heap(&ta, NULL, 4);
    int c = major_class_of(48);
    size_t size = major_class_size(c);
    unsigned slots = major_class_slots(c);
    char **objs = calloc(slots, sizeof *objs);
    for (unsigned i = 0; i < slots - 3; i++) objs[i] = major_alloc(h, 48, MAJOR_REFS);
    char *noref = major_alloc(h, 48, MAJOR_NOREFS); /* a second block */
    size_t n = major_arena_count(h);
    CHECK_INT(n, 1);
    MajorArenaView *v = calloc(n + 2, sizeof *v); /* +2: the arenas added below */
    major_arena_views(h, v);
    size_t hint = 0;
    MajorBlock *b = major_block_of(objs[0]);
    long wrong = 0;
    for (size_t off = 0; off < MAJOR_BLOCK_SIZE; off++) {
        uintptr_t a = (uintptr_t)b + off;
        void *expect = NULL;
        if (off >= MAJOR_OBJ_START && (off - MAJOR_OBJ_START) % size == 0 &&
            (off - MAJOR_OBJ_START) / size < slots - 3)
            expect = (void *)a;
        if (major_view_object(v, n, a, &hint) != expect) wrong++;
    }
    CHECK_INT(wrong, 0);
    CHECK(major_view_object(v, n, (uintptr_t)noref, &hint) == noref);
    /* a free slot of a block in use: not an object until allocated, then one
     * (born black while a cycle marks: the marker skips it by its mark) */
    char *later = (char *)b + MAJOR_OBJ_START + (size_t)(slots - 3) * size;
    CHECK(major_view_object(v, n, (uintptr_t)later, &hint) == NULL);
    major_set_allocate_black(h, 1);
    char *q = major_alloc(h, 48, MAJOR_REFS);
    CHECK(q == later);
    CHECK(major_view_object(v, n, (uintptr_t)q, &hint) == q);
    CHECK(major_is_marked(q));
    /* blocks taken and arenas added after the view are not in it */
    char *other = major_alloc(h, 4000, MAJOR_REFS);
    CHECK(major_view_object(v, n, (uintptr_t)other, &hint) == NULL);
    for (int i = 0; i < 200; i++) other = major_alloc(h, 4000, MAJOR_REFS);
    CHECK(major_arena_count(h) > n);
    CHECK(major_view_object(v, n, (uintptr_t)other, &hint) == NULL);
    /* words that are no addresses of the heap at all */
    CHECK(major_view_object(v, n, 0, &hint) == NULL);
    CHECK(major_view_object(v, n, (uintptr_t)b - 16, &hint) == NULL);
    CHECK(major_view_object(v, n, (uintptr_t)b + (size_t)4 * MAJOR_BLOCK_SIZE, &hint) == NULL);
    CHECK(major_view_object(v, n, UINTPTR_MAX & ~(uintptr_t)15, &hint) == NULL);
    CHECK(major_view_object(v, 0, (uintptr_t)objs[0], &hint) == NULL);
    free(v);
    free(objs);
    destroy_heap(h, &ta);
}

/* The hint (the arena of the last lookup) changes no answer: lookups that
 * hop between arenas, land outside them or carry a stale hint answer as a
 * lookup with no hint does, and the hint follows the arena found. */
TEST(major_view_hint)
{
    TestAlloc ta = { 0 };
    MajorHeap *h = new_heap(&ta, NULL, 4);
    enum { OBJS = 600 };
    char **objs = calloc(OBJS, sizeof *objs);
    for (int i = 0; i < OBJS; i++) objs[i] = major_alloc(h, 4000, MAJOR_REFS);
    size_t n = major_arena_count(h);
    CHECK(n >= 4);
    MajorArenaView *v = calloc(n, sizeof *v);
    major_arena_views(h, v);
    size_t hint = 0;
    long wrong = 0, hops = 0;
    TestRng rng = { 12345 };
    for (int k = 0; k < 20000; k++) {
        uintptr_t a = (uintptr_t)objs[rng_below(&rng, OBJS)];
        switch (rng_below(&rng, 4)) {
        case 0: break;                                             /* an object */
        case 1: a += 16; break;                                    /* inside one */
        case 2: a = v[rng_below(&rng, n)].base - 16; break;        /* just below an arena */
        case 3: a ^= (uintptr_t)1 << (40 + rng_below(&rng, 6)); break; /* far away */
        }
        size_t fresh = SIZE_MAX, before = hint;
        void *expect = major_view_object(v, n, a, &fresh);
        if (major_view_object(v, n, a, &hint) != expect) wrong++;
        if (expect != NULL && (hint >= n || a - v[hint].base >= (size_t)v[hint].nblocks * MAJOR_BLOCK_SIZE)) wrong++;
        if (hint != before) hops++;
    }
    CHECK_INT(wrong, 0);
    CHECK(hops > 100); /* the lookups did go from arena to arena */
    hint = n + 7; /* stale: from a larger view */
    CHECK(major_view_object(v, n, (uintptr_t)objs[0], &hint) == objs[0]);
    CHECK(hint < n);
    free(v);
    free(objs);
    destroy_heap(h, &ta);
}

/* --- statistics ------------------------------------------------------------------------------- */

TEST(major_stats_counts)
{
    TestAlloc ta = { 0 };
    MajorHeap *h = new_heap(&ta, NULL, 0);
    MajorStats st;
    major_stats(h, &st);
    CHECK_INT(st.blocks_used, 0);
    CHECK(st.fragmentation == 0.0);
    for (int i = 0; i < 1000; i++) major_alloc(h, 48, MAJOR_NOREFS);
    for (int i = 0; i < 10; i++) major_alloc(h, 3000, MAJOR_REFS);
    major_stats(h, &st);
    size_t s48 = major_class_size(major_class_of(48)), s3k = major_class_size(major_class_of(3000));
    size_t b48 = (1000 + major_class_slots(major_class_of(48)) - 1) / major_class_slots(major_class_of(48));
    size_t b3k = (10 + major_class_slots(major_class_of(3000)) - 1) / major_class_slots(major_class_of(3000));
    CHECK_INT(st.blocks_per_class[MAJOR_NOREFS][major_class_of(48)], b48);
    CHECK_INT(st.blocks_per_class[MAJOR_REFS][major_class_of(3000)], b3k);
    CHECK_INT(st.blocks_used, b48 + b3k);
    CHECK_INT(st.block_bytes, (b48 + b3k) * MAJOR_BLOCK_SIZE);
    CHECK_INT(st.slot_bytes, 1000 * s48 + 10 * s3k);
    CHECK_NEAR(st.fragmentation, 1.0 - (double)(1000 * s48 + 10 * s3k) / (double)st.block_bytes, 1e-9);
    CHECK_INT(st.arenas, 1);
    CHECK(st.obtain_calls >= 3);
    destroy_heap(h, &ta);
}
