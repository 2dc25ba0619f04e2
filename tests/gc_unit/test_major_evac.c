/* Tests of the major heap's support for evacuation (runtime/gc/major.c,
 * the functions after "evacuation"): an owner's copy of the survivors of
 * sparse blocks, done as evacuate.c does it, with the heap alone. */
#include <stdlib.h>
#include <string.h>

#include "gc_test.h"
#include "major.h"

typedef struct Census {
    size_t blocks;
    size_t marked;   /* allocated and marked slots, over every block */
    size_t sparse;   /* blocks with some, but under a quarter, marked */
} Census;

static void census_cb(void *ud, MajorBlock *b)
{
    Census *c = ud;
    unsigned m = major_block_marked_count(b);
    c->blocks++;
    c->marked += m;
    if (m > 0 && m * 4 < b->count) c->sparse++;
}

static Census census(MajorHeap *h)
{
    Census c = { 0, 0, 0 };
    major_foreach_block(h, census_cb, &c);
    return c;
}

static void put_u64(void *p, uint64_t v)
{
    memcpy(p, &v, sizeof v);
}

static uint64_t get_u64(const void *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

TEST(major_evacuation_copies_out_of_sparse_blocks)
{
    TestAlloc ta = { 0 };
    MajorConfig cfg = { .obtain = test_obtain, .obtain_ud = &ta, .blocks_per_arena = 4 };
    MajorHeap *h = major_create(&cfg);
    CHECK(h != NULL);
    const size_t size = 96;
    int c = major_class_of(size);
    unsigned slots = major_class_slots(c);
    unsigned n = slots * 12; /* twelve full blocks: three arenas */
    char **obj = calloc(n, sizeof *obj);
    for (unsigned i = 0; i < n; i++) {
        obj[i] = major_alloc(h, size, MAJOR_REFS);
        CHECK(obj[i] != NULL);
        put_u64(obj[i], i + 1);
    }
    CHECK_INT(major_free_block_count(h), 0);
    /* one object in ten survives the "mark" */
    for (unsigned i = 0; i < n; i += 10) major_mark(obj[i]);
    Census before = census(h);
    CHECK_INT(before.blocks, 12);
    CHECK_INT(before.marked, (n + 9) / 10);
    CHECK_INT(before.sparse, 12);

    /* every block is full: without growth there is no slot for a copy */
    MajorBlock *evacuating[12];
    unsigned nevac = 0;
    for (unsigned i = 0; i < n; i++) {
        MajorBlock *b = major_block_of(obj[i]);
        if (b->state != MAJOR_BLOCK_SWEPT) continue;
        CHECK(major_evacuate_block(h, b));
        CHECK(b->state == MAJOR_BLOCK_EVACUATING);
        if (nevac < 12) evacuating[nevac++] = b;
    }
    CHECK_INT(nevac, 12);
    major_evacuate_detach(h);
    CHECK(major_evacuate_block(h, major_block_of(obj[0])) == 0); /* already evacuating */
    CHECK(major_alloc_in_class(h, c, MAJOR_REFS, 0) == NULL);

    /* with growth, copies go to a new arena, never into the evacuating blocks */
    size_t copied = 0;
    for (unsigned i = 0; i < n; i += 10) {
        char *copy = major_alloc_in_class(h, c, MAJOR_REFS, 1);
        CHECK(copy != NULL);
        MajorBlock *cb = major_block_of(copy);
        CHECK(cb->state == MAJOR_BLOCK_SWEPT);
        for (unsigned j = 0; j < nevac; j++) CHECK(cb != evacuating[j]);
        memcpy(copy, obj[i], size);
        major_mark(copy);
        major_unmark(obj[i]);
        CHECK(!major_is_marked(obj[i]) && major_is_marked(copy));
        obj[i] = copy;
        copied++;
    }
    CHECK_INT(copied, (n + 9) / 10);
    Census during = census(h);
    CHECK_INT(during.marked, before.marked);
    CHECK(during.blocks > before.blocks);

    /* the sweep frees the emptied blocks, and the arenas they leave */
    major_begin_sweep(h);
    major_sweep_all(h);
    Census after = census(h);
    CHECK_INT(after.blocks, (copied + slots - 1) / slots);
    for (unsigned i = 0; i < n; i += 10) {
        CHECK(major_object_containing(h, obj[i]) == obj[i]);
        CHECK_INT(get_u64(obj[i]), i + 1);
    }
    MajorStats st;
    major_stats(h, &st);
    CHECK_INT(st.blocks_used, after.blocks);
    CHECK(st.arenas <= (after.blocks + 3) / 4 + 1);
    CHECK_INT(major_free_block_count(h), st.blocks - st.blocks_used);

    /* ordinary allocation resumes in the heap as it is now */
    CHECK(major_alloc(h, size, MAJOR_REFS) != NULL);
    free(obj);
    major_destroy(h);
    CHECK_INT(ta.outstanding, 0);
}

TEST(major_evacuation_uses_room_before_arenas)
{
    TestAlloc ta = { 0 };
    MajorConfig cfg = { .obtain = test_obtain, .obtain_ud = &ta, .blocks_per_arena = 4 };
    MajorHeap *h = major_create(&cfg);
    const size_t size = 48;
    int c = major_class_of(size);
    unsigned slots = major_class_slots(c);
    /* two blocks: the first full, the second half full */
    char **obj = calloc(2 * slots, sizeof *obj);
    unsigned n = slots + slots / 2;
    for (unsigned i = 0; i < n; i++) obj[i] = major_alloc(h, size, MAJOR_NOREFS);
    MajorBlock *first = major_block_of(obj[0]), *second = major_block_of(obj[n - 1]);
    CHECK(first != second);
    CHECK_INT(second->nfree, slots - slots / 2);
    size_t free_blocks = major_free_block_count(h);
    CHECK_INT(free_blocks, 2); /* an arena of four blocks */
    /* evacuate the first: its copies land in the second's free slots */
    CHECK(major_evacuate_block(h, first));
    major_evacuate_detach(h);
    for (unsigned i = 0; i < 4; i++) {
        char *copy = major_alloc_in_class(h, c, MAJOR_NOREFS, 0);
        CHECK(copy != NULL && major_block_of(copy) == second);
    }
    CHECK_INT(major_free_block_count(h), free_blocks);
    /* once the second is full, a free block of the arena, then nothing */
    while (second->nfree > 0) CHECK(major_alloc_in_class(h, c, MAJOR_NOREFS, 0) != NULL);
    for (unsigned i = 0; i < 2 * slots; i++) {
        char *p = major_alloc_in_class(h, c, MAJOR_NOREFS, 0);
        CHECK(p != NULL && major_block_of(p) != first);
    }
    CHECK_INT(major_free_block_count(h), 0);
    CHECK(major_alloc_in_class(h, c, MAJOR_NOREFS, 0) == NULL);
    CHECK(major_alloc_in_class(h, -1, MAJOR_NOREFS, 1) == NULL);
    CHECK(major_alloc_in_class(h, c, MAJOR_KINDS, 1) == NULL);
    free(obj);
    major_destroy(h);
    CHECK_INT(ta.outstanding, 0);
}
