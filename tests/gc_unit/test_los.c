/* Tests of the large object space (runtime/gc/los.c). */
#include <stdlib.h>
#include <string.h>

#include "gc_test.h"
#include "los.h"
#include "major.h"

typedef struct LosLog {
    long calls;
    size_t bytes;
    long *per_id; /* objects start with their id, 1..nids */
    size_t nids;
} LosLog;

static void los_log_free(void *ud, void *obj, size_t size)
{
    LosLog *l = ud;
    l->calls++;
    l->bytes += size;
    uint64_t id;
    memcpy(&id, obj, sizeof id);
    if (l->per_id != NULL && id >= 1 && id <= l->nids) l->per_id[id - 1]++;
}

static LosSpace *new_space(TestAlloc *ta, LosLog *log)
{
    LosConfig cfg = { .obtain = test_obtain, .obtain_ud = ta, .on_free = log != NULL ? los_log_free : NULL, .free_ud = log };
    return los_create(&cfg);
}

static void destroy_space(LosSpace *s, TestAlloc *ta)
{
    los_destroy(s);
    CHECK_INT(ta->outstanding, 0);
    CHECK_INT(ta->live_blocks, 0);
}

static int zeroed(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i]) return 0;
    return 1;
}

TEST(los_alloc_and_lookup)
{
    TestAlloc ta = { 0 };
    LosSpace *s = new_space(&ta, NULL);
    CHECK(s != NULL);
    static const size_t sizes[] = { MAJOR_MAX_OBJECT + 1, 10000, 65536 + 7, 1 << 20, 12345 };
    enum { K = sizeof sizes / sizeof sizes[0] };
    unsigned char *o[K];
    for (int i = 0; i < K; i++) {
        o[i] = los_alloc(s, sizes[i], i % 2 ? LOS_NOREFS : LOS_REFS);
        CHECK(o[i] != NULL);
        CHECK((uintptr_t)o[i] % 16 == 0);
        CHECK(zeroed(o[i], sizes[i]));
        CHECK_INT(los_object_size(o[i]), sizes[i]);
        CHECK(los_has_refs(o[i]) == (i % 2 == 0));
        CHECK(!los_is_marked(o[i]));
        CHECK_INT(los_header(o[i])->ncards, (sizes[i] + 511) / 512);
        memset(o[i], 0x5A, sizes[i]);
    }
    for (int i = 0; i < K; i++) {
        CHECK(los_object_containing(s, o[i]) == o[i]);
        CHECK(los_object_containing(s, o[i] + 1) == o[i]);
        CHECK(los_object_containing(s, o[i] + sizes[i] / 2) == o[i]);
        CHECK(los_object_containing(s, o[i] + sizes[i] - 1) == o[i]);
        CHECK(los_object_containing(s, o[i] + sizes[i]) == NULL); /* one past: the next raw block's cards, at best */
        CHECK(los_object_containing(s, o[i] - 1) == NULL);        /* its header */
        CHECK(los_object_containing(s, los_header(o[i])->cards) == NULL);
    }
    int local;
    CHECK(los_object_containing(s, &local) == NULL);
    CHECK(los_object_containing(s, NULL) == NULL);
    CHECK(los_object_containing(s, (void *)UINTPTR_MAX) == NULL);
    size_t count = 0;
    LosStats st;
    los_stats(s, &st);
    CHECK_INT(st.objects, K);
    for (int i = 0; i < K; i++) count += sizes[i];
    CHECK_INT(st.object_bytes, count);
    CHECK(st.obtained_bytes > count);
    CHECK(los_alloc(s, 0, LOS_REFS) == NULL);
    CHECK(los_alloc(s, 100, 7) == NULL);
    /* an explicit free */
    los_free(s, o[2]);
    los_stats(s, &st);
    CHECK_INT(st.objects, K - 1);
    CHECK_INT(st.object_bytes, count - sizes[2]);
    CHECK(los_object_containing(s, o[3]) == o[3]);
    destroy_space(s, &ta);
}

typedef struct CardLog {
    int n;
    char *obj, *lo, *hi;
} CardLog;

static void log_card_range(void *ud, void *obj, void *lo, void *hi)
{
    CardLog *c = ud;
    c->n++;
    c->obj = obj;
    c->lo = lo;
    c->hi = hi;
}

/* The brief's case: a 1M-slot array (8 MB), one slot written, one card. */
TEST(los_one_card_of_a_million_slots)
{
    TestAlloc ta = { 0 };
    LosSpace *s = new_space(&ta, NULL);
    enum { SLOTS = 1 << 20 };
    uint64_t *arr = los_alloc(s, (size_t)SLOTS * sizeof(uint64_t), LOS_REFS);
    CHECK(arr != NULL);
    if (arr == NULL) return;
    CHECK_INT(los_header(arr)->ncards, (size_t)SLOTS * 8 / 512);
    CardLog c = { 0 };
    los_visit_dirty_cards(s, log_card_range, &c, 0);
    CHECK_INT(c.n, 0);
    size_t k = 777777;
    arr[k] = 42;
    los_card_mark(arr, &arr[k]);
    CHECK(los_card_is_dirty(arr, &arr[k]));
    CHECK(!los_card_is_dirty(arr, &arr[k + 64])); /* the next card */
    los_visit_dirty_cards(s, log_card_range, &c, 0);
    CHECK_INT(c.n, 1);
    CHECK(c.obj == (char *)arr);
    CHECK_INT(c.hi - c.lo, 512);
    CHECK(c.lo == (char *)arr + (k * 8 / 512) * 512);
    CHECK(c.lo <= (char *)&arr[k] && (char *)&arr[k] < c.hi);
    /* cleared as visited */
    c.n = 0;
    los_visit_dirty_cards(s, log_card_range, &c, 1);
    CHECK_INT(c.n, 1);
    c.n = 0;
    los_visit_dirty_cards(s, log_card_range, &c, 0);
    CHECK_INT(c.n, 0);
    /* through a lookup, the first and the last card, and clearing */
    CHECK(los_card_mark_addr(s, &arr[SLOTS - 1]));
    CHECK(!los_card_mark_addr(s, &c));
    los_card_mark(arr, &arr[0]);
    los_card_mark(arr, &arr[1]);
    los_visit_dirty_cards(s, log_card_range, &c, 0);
    CHECK_INT(c.n, 2);
    CHECK(c.hi == (char *)&arr[SLOTS]); /* the last one reported */
    los_card_clear(arr, &arr[0]);
    CHECK(!los_card_is_dirty(arr, &arr[1]));
    los_clear_cards(s);
    c.n = 0;
    los_visit_dirty_cards(s, log_card_range, &c, 0);
    CHECK_INT(c.n, 0);
    destroy_space(s, &ta);
}

TEST(los_partial_last_card)
{
    TestAlloc ta = { 0 };
    LosSpace *s = new_space(&ta, NULL);
    size_t n = 8192 + 100;
    char *o = los_alloc(s, n, LOS_REFS);
    los_card_mark(o, o + n - 1);
    CardLog c = { 0 };
    los_visit_dirty_cards(s, log_card_range, &c, 1);
    CHECK_INT(c.n, 1);
    CHECK(c.lo == o + 8192 && c.hi == o + n);
    destroy_space(s, &ta);
}

TEST(los_mark_sweep_random)
{
    TestAlloc ta = { 0 };
    enum { N = 150, CYCLES = 5, IDS = N * (CYCLES + 1) };
    LosLog log = { 0 };
    log.per_id = calloc(IDS, sizeof(long));
    log.nids = IDS;
    LosSpace *s = new_space(&ta, &log);
    TestRng rng = { 12345 };
    struct { unsigned char *p; size_t n; uint64_t id; int live; } r[N];
    size_t nr = 0;
    uint64_t next_id = 1;
    static const int pct[CYCLES] = { 50, 0, 100, 20, 80 };
    long bad = 0;
    for (int cycle = 0; cycle < CYCLES; cycle++) {
        while (nr < N) {
            size_t n = MAJOR_MAX_OBJECT + 1 + rng_below(&rng, 200000);
            unsigned char *p = los_alloc(s, n, (int)rng_below(&rng, 2));
            if (p == NULL) {
                bad++;
                break;
            }
            memcpy(p, &next_id, sizeof next_id);
            memset(p + 8, (int)(next_id & 0xFF), n - 8);
            r[nr].p = p;
            r[nr].n = n;
            r[nr].id = next_id++;
            nr++;
        }
        memset(log.per_id, 0, IDS * sizeof(long));
        log.calls = 0;
        size_t live = 0, dead = 0;
        for (size_t i = 0; i < nr; i++) {
            r[i].live = (int)rng_below(&rng, 100) < pct[cycle];
            if (r[i].live) {
                if (!(cycle % 2 ? los_mark_atomic(r[i].p) : los_mark(r[i].p))) bad++;
                if (los_mark(r[i].p) || los_mark_atomic(r[i].p)) bad++;
                live += r[i].n;
            } else {
                dead++;
            }
        }
        CHECK_INT(los_sweep(s), live);
        CHECK_INT(log.calls, dead);
        size_t kept = 0;
        for (size_t i = 0; i < nr; i++) {
            if (log.per_id[r[i].id - 1] != (r[i].live ? 0 : 1)) bad++;
            if (!r[i].live) continue;
            uint64_t id;
            memcpy(&id, r[i].p, sizeof id);
            if (id != r[i].id || r[i].p[r[i].n - 1] != (unsigned char)(id & 0xFF)) bad++;
            if (los_is_marked(r[i].p)) bad++;
            if (los_object_containing(s, r[i].p + r[i].n / 3) != r[i].p) bad++;
            r[kept++] = r[i];
        }
        nr = kept;
        LosStats st;
        los_stats(s, &st);
        CHECK_INT(st.objects, nr);
        CHECK_INT(st.object_bytes, live);
        CHECK_INT(st.live_bytes_last_sweep, live);
    }
    CHECK_INT(bad, 0);
    /* clear_marks: everything dies */
    for (size_t i = 0; i < nr; i++) los_mark(r[i].p);
    los_clear_marks(s);
    log.calls = 0;
    CHECK_INT(los_sweep(s), 0);
    CHECK_INT(log.calls, nr);
    free(log.per_id);
    destroy_space(s, &ta);
}

static void count_los(void *ud, void *obj, size_t size, int kind)
{
    (void)obj;
    (void)kind;
    *(size_t *)ud += size;
}

TEST(los_foreach_black_and_failures)
{
    TestAlloc ta = { 0 };
    ta.fail_now = 1;
    CHECK(new_space(&ta, NULL) == NULL);
    ta.fail_now = 0;
    LosLog log = { 0 };
    LosSpace *s = new_space(&ta, &log);
    ta.fail_now = 1;
    CHECK(los_alloc(s, 100000, LOS_REFS) == NULL); /* the array */
    ta.fail_now = 0;
    ta.fail_countdown = 1; /* the array succeeds, the object does not */
    CHECK(los_alloc(s, 100000, LOS_REFS) == NULL);
    ta.fail_now = 0;
    LosStats st;
    los_stats(s, &st);
    CHECK_INT(st.objects, 0);
    los_set_allocate_black(s, 1);
    char *a = los_alloc(s, 20000, LOS_REFS);
    los_set_allocate_black(s, 0);
    char *b = los_alloc(s, 30000, LOS_NOREFS);
    CHECK(a != NULL && b != NULL);
    CHECK(los_is_marked(a) && !los_is_marked(b));
    size_t total = 0;
    los_foreach(s, count_los, &total);
    CHECK_INT(total, 50000);
    ta.fail_now = 1;
    CHECK(los_alloc(s, 9000, LOS_REFS) == NULL);
    CHECK(los_object_containing(s, a + 5) == a); /* intact */
    ta.fail_now = 0;
    CHECK_INT(los_sweep(s), 20000);
    CHECK_INT(log.calls, 1);
    destroy_space(s, &ta);
}

/* The addresses a concurrent marker's view copies (worker.c): every object,
 * each once, ascending (the marker binary-searches them). */
TEST(los_object_addresses_sorted)
{
    TestAlloc ta = { 0 };
    LosSpace *s = new_space(&ta, NULL);
    enum { K = 40 };
    unsigned char *o[K];
    for (int i = 0; i < K; i++) o[i] = los_alloc(s, MAJOR_MAX_OBJECT + 1 + (size_t)i * 977, LOS_REFS);
    CHECK_INT(los_count(s), K);
    uintptr_t *a = calloc(K, sizeof *a);
    los_object_addresses(s, a);
    int sorted = 1, found = 0;
    for (int i = 1; i < K; i++) sorted &= a[i - 1] < a[i];
    for (int i = 0; i < K; i++)
        for (int j = 0; j < K; j++) found += a[j] == (uintptr_t)o[i];
    CHECK(sorted);
    CHECK_INT(found, K);
    free(a);
    destroy_space(s, &ta);
}

/* Retired objects (by the owner or by the sweep) leave the space at once
 * and give their memory back in los_release_some: a large block's pages a
 * slice at a time, its block last; what the pages held stays the owner's
 * business (they read as zero or as before), the header stays intact. */
TEST(los_retire_and_release_in_slices)
{
    TestAlloc ta = { 0 };
    LosLog log = { 0 };
    LosSpace *s = new_space(&ta, &log);
    size_t big = 5 * LOS_RELEASE_SLICE + 12345, small = 20000;
    unsigned char *a = los_alloc(s, big, LOS_NOREFS);
    unsigned char *b = los_alloc(s, small, LOS_REFS);
    unsigned char *c = los_alloc(s, small, LOS_REFS);
    CHECK(a != NULL && b != NULL && c != NULL);
    memset(a, 0x77, big); /* populated, as a used array is */
    size_t raw_a = los_header(a)->raw_size, raw_b = los_header(b)->raw_size;
    long blocks = ta.live_blocks + 1; /* (and the list of retired objects, from now on) */

    los_retire(s, a);
    CHECK(los_object_containing(s, a + 100) == NULL);
    LosStats st;
    los_stats(s, &st);
    CHECK_INT(st.objects, 2);
    CHECK_INT(st.object_bytes, 2 * small);
    CHECK_INT(st.retired_bytes, raw_a);
    CHECK_INT(ta.live_blocks, blocks); /* not given back yet */

    memset(c, 0x3C, small); /* a live neighbour: no slice may touch it */
    /* one slice at a time: the block stays until its pages are gone; an
     * object retired meanwhile goes first, and the big one goes on where
     * it stopped */
    CHECK(los_release_some(s, LOS_RELEASE_SLICE, 0) > 0);
    unsigned char *e = los_alloc(s, small, LOS_NOREFS);
    CHECK(e != NULL);
    los_retire(s, e);
    CHECK(los_release_some(s, 1, 0) >= small);
    CHECK_INT(los_retired_bytes(s), raw_a);
    int slices = 1;
    while (los_retired_bytes(s) != 0) {
        size_t done = los_release_some(s, LOS_RELEASE_SLICE, 0);
        CHECK(done > 0);
        if (los_retired_bytes(s) != 0) {
            CHECK_INT(ta.live_blocks, blocks);
            CHECK_INT(los_header(a)->raw_size, raw_a); /* the header is never given back early */
        }
        slices++;
        if (slices > 100) break;
    }
    CHECK_INT(ta.live_blocks, blocks - 1);
#if defined(__linux__)
    CHECK(slices >= 5); /* 5 slices of pages, then the block */
#endif
    /* small blocks: each counts as a quarter slice, however small, so a
     * slice gives back four of ten */
    unsigned char *few[10];
    for (int i = 0; i < 10; i++) {
        few[i] = los_alloc(s, small, LOS_REFS);
        CHECK(few[i] != NULL);
    }
    for (int i = 0; i < 10; i++) los_retire(s, few[i]);
    long before = ta.live_blocks;
    los_release_some(s, LOS_RELEASE_SLICE, 0);
    CHECK_INT(before - ta.live_blocks, 4);
    while (los_retired_bytes(s) != 0) los_release_some(s, LOS_RELEASE_SLICE, 0);
    CHECK_INT(before - ta.live_blocks, 10);
    int intact = 1;
    for (size_t i = 0; i < small; i++) intact &= c[i] == 0x3C;
    CHECK(intact);

    /* the sweep retires the dead: on_free now, the memory at release */
    los_mark(c);
    CHECK_INT(los_sweep(s), small);
    CHECK_INT(log.calls, 1);
    CHECK(los_object_containing(s, b) == NULL);
    CHECK(los_object_containing(s, c) == c);
    CHECK_INT(los_retired_bytes(s), raw_b);
    CHECK_INT(ta.live_blocks, blocks - 1);
    CHECK(los_release_some(s, 1, 0) >= raw_b); /* a small block goes whole */
    CHECK_INT(los_retired_bytes(s), 0);
    CHECK_INT(ta.live_blocks, blocks - 2);

    /* whatever is still retired when the space goes is given back too */
    unsigned char *d = los_alloc(s, 3 * LOS_RELEASE_SLICE, LOS_REFS);
    CHECK(d != NULL);
    los_retire(s, d);
    CHECK(los_release_some(s, LOS_RELEASE_SLICE, 0) > 0);
    CHECK(los_retired_bytes(s) != 0);
    destroy_space(s, &ta);
}

/* A releaser on another thread (LosConfig.pages), played here by hand: it
 * takes a retired block's whole pages at once, and the block goes back to
 * the allocator only once it is done with them; one that refuses leaves
 * the slices to los_release_some; a release on this thread (idle time,
 * the world stopped) cancels what it has not done and does it itself, and
 * the space's end cancels it. */
typedef struct FakeReleaser {
    int take, pending;
    int released, cancels;
    uintptr_t lo, hi;
} FakeReleaser;

static int fake_pages(void *ud, int op, void *addr, size_t len)
{
    FakeReleaser *r = ud;
    uintptr_t lo = (uintptr_t)addr, hi = lo + len;
    switch (op) {
    case LOS_PAGES_RELEASE:
        if (!r->take) return 0;
        r->released++;
        r->lo = lo;
        r->hi = hi;
        return 1;
    case LOS_PAGES_PENDING: return r->pending && lo < r->hi && hi > r->lo;
    default: r->cancels++; r->pending = 0; return 0;
    }
}

static LosSpace *new_released_space(TestAlloc *ta, FakeReleaser *r)
{
    LosConfig cfg = { .obtain = test_obtain, .obtain_ud = ta, .pages = fake_pages, .pages_ud = r };
    return los_create(&cfg);
}

/* A block of [size] bytes, every page written (as a used array's are),
 * then retired. */
static unsigned char *retire_populated(LosSpace *s, size_t size, int byte)
{
    unsigned char *p = los_alloc(s, size, LOS_NOREFS);
    CHECK(p != NULL);
    if (p != NULL) {
        memset(p, byte, size);
        los_retire(s, p);
    }
    return p;
}

/* Calls of los_release_some, a slice each, until nothing is retired
 * (each must give something back); how many it took. */
static int release_in_slices(LosSpace *s, int here)
{
    int calls = 0;
    while (los_retired_bytes(s) != 0 && calls < 100) {
        CHECK(los_release_some(s, LOS_RELEASE_SLICE, here) > 0);
        calls++;
    }
    CHECK_INT(los_retired_bytes(s), 0);
    return calls;
}

TEST(los_release_by_another_thread)
{
    TestAlloc ta = { 0 };
    FakeReleaser r = { .take = 1 };
    LosSpace *s = new_released_space(&ta, &r);
    size_t big = 5 * LOS_RELEASE_SLICE + 777;
    unsigned char *a = retire_populated(s, big, 0x55);
    size_t raw_a = los_header(a)->raw_size;
    long blocks = ta.live_blocks;

    /* handed over whole: nothing given back here, the block stays */
    CHECK_INT(los_release_some(s, LOS_RELEASE_SLICE, 0), 0);
    CHECK_INT(r.released, 1);
    CHECK(r.lo > (uintptr_t)a - sizeof(LosObject) && r.hi <= (uintptr_t)a + big);
    CHECK(r.lo % 4096 == 0 && r.hi % 4096 == 0 && r.hi - r.lo >= 4 * LOS_RELEASE_SLICE);
    CHECK_INT(los_retired_bytes(s), raw_a);
    CHECK_INT(ta.live_blocks, blocks);

    /* while the releaser has them, the block waits, and is not handed again */
    r.pending = 1;
    CHECK_INT(los_release_some(s, LOS_RELEASE_SLICE, 0), 0);
    CHECK_INT(r.released, 1);
    CHECK_INT(ta.live_blocks, blocks);
    CHECK_INT(los_header(a)->raw_size, raw_a);

    /* done: the pages count as given back, and the block goes */
    r.pending = 0;
    CHECK(los_release_some(s, LOS_RELEASE_SLICE, 0) >= r.hi - r.lo);
    CHECK_INT(los_retired_bytes(s), 0);
    CHECK_INT(ta.live_blocks, blocks - 1);
    CHECK_INT(r.cancels, 0);

    /* a releaser that refuses: slices, as without one */
    r.take = 0;
    retire_populated(s, big, 0x66);
    CHECK(release_in_slices(s, 0) >= 5);
    CHECK_INT(r.released, 1);

    /* on this thread (idle time, the world stopped): what is pending is
     * cancelled and done here */
    r.take = 1;
    retire_populated(s, big, 0x77);
    CHECK_INT(los_release_some(s, LOS_RELEASE_SLICE, 0), 0);
    CHECK_INT(r.released, 2);
    r.pending = 1;
    CHECK(los_release_some(s, SIZE_MAX, 1) > 0);
    CHECK_INT(r.cancels, 1);
    CHECK_INT(los_retired_bytes(s), 0);

    /* idle time: a slice at a time, and nothing handed over */
    retire_populated(s, big, 0x22);
    CHECK_INT(los_release_some(s, LOS_RELEASE_SLICE, 0), 0);
    CHECK_INT(r.released, 3);
    r.pending = 1;
    CHECK(los_release_some(s, LOS_RELEASE_SLICE, 1) > 0);
    CHECK_INT(r.cancels, 2);
    CHECK(los_retired_bytes(s) != 0);
    CHECK(release_in_slices(s, 1) >= 4);
    CHECK_INT(r.released, 3);

    /* and the space's end cancels what is still handed over */
    retire_populated(s, big, 0x11);
    CHECK_INT(los_release_some(s, LOS_RELEASE_SLICE, 0), 0);
    CHECK_INT(r.released, 4);
    r.pending = 1;
    destroy_space(s, &ta);
    CHECK_INT(r.cancels, 3);
}
