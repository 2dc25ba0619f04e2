/* The helpers of gc_test.h. The driver is tests/unit/main.c's (one "PASS
 * name" / "FAIL name" line per test, then "N passed, N failed"). */
#include <stdlib.h>

#include "gc_test.h"

void *test_obtain(void *ud, void *block, size_t osize, size_t nsize)
{
    TestAlloc *t = ud;
    if (nsize == 0) {
        if (block != NULL) {
            free(block);
            t->frees++;
            t->live_blocks--;
            t->outstanding -= osize;
            if (t->large_threshold != 0 && osize >= t->large_threshold) t->large_frees++;
        }
        return NULL;
    }
    if (t->fail_now) {
        t->failures++;
        return NULL;
    }
    if (t->fail_countdown > 0 && --t->fail_countdown == 0) t->fail_now = 1; /* this one succeeds */
    void *nb = realloc(block, nsize);
    if (nb == NULL) {
        t->failures++;
        return NULL;
    }
    if (block == NULL) {
        t->allocs++;
        t->live_blocks++;
        t->outstanding += nsize;
        if (t->large_threshold != 0 && nsize >= t->large_threshold) t->large_allocs++;
    } else {
        t->reallocs++;
        t->outstanding += nsize - osize;
    }
    return nb;
}
