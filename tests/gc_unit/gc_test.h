/*
 * gc_test.h — what the collector's unit tests share: a counting obtain
 * callback that can be told to fail, and a fixed-seed PRNG.
 */
#ifndef GC_TEST_H
#define GC_TEST_H

#include <stddef.h>
#include <stdint.h>

#include "check.h"

/* An obtain callback (lua_Alloc's contract) over malloc/realloc/free that
 * counts what passes through it. fail_countdown > 0: that many more
 * allocations succeed, then every one fails; 0: never fail. */
typedef struct TestAlloc {
    long allocs;            /* successful calls with nsize > 0 and no block */
    long reallocs;          /* successful calls with nsize > 0 and a block */
    long frees;             /* calls with nsize == 0 and a block */
    long failures;          /* refused calls */
    long live_blocks;       /* allocs - frees */
    size_t outstanding;     /* bytes handed out and not given back */
    size_t large_threshold; /* allocations of at least this size ... */
    long large_allocs, large_frees; /* ... are counted here too */
    long fail_countdown;
    int fail_now;           /* refuse every allocation while set */
} TestAlloc;

void *test_obtain(void *ud, void *block, size_t osize, size_t nsize);

/* xorshift64*: deterministic across platforms. */
typedef struct TestRng {
    uint64_t s;
} TestRng;
static inline uint64_t rng_next(TestRng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545F4914F6CDD1Dull;
}
/* Uniform in [0, n) (n > 0; the bias is negligible for small n). */
static inline size_t rng_below(TestRng *r, size_t n)
{
    return (size_t)(rng_next(r) >> 11) % n;
}

#endif
