/* The collector unit tests' driver (same output as tests/unit: one
 * "PASS name" / "FAIL name" line per test, failed checks as indented lines
 * before it, then "N passed, N failed"). Runs every registered TEST, or
 * those whose name contains argv[1]. Also the helpers of gc_test.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gc_test.h"

enum { MAX_TESTS = 256 };

static struct {
    const char *name;
    check_Fn fn;
} tests[MAX_TESTS];
static int test_count;
static int current_failed;

void check_register(const char *name, check_Fn fn)
{
    if (test_count == MAX_TESTS) {
        fprintf(stderr, "check: more than %d tests; raise MAX_TESTS\n", MAX_TESTS);
        return;
    }
    tests[test_count].name = name;
    tests[test_count].fn = fn;
    test_count++;
}

int check_that(int ok, const char *what, const char *file, int line)
{
    if (!ok) {
        fprintf(stdout, "  %s:%d: check failed: %s\n", file, line, what);
        current_failed = 1;
    }
    return ok;
}

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

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    int passed = 0, failed = 0;
    for (int i = 0; i < test_count; i++) {
        if (only && !strstr(tests[i].name, only)) continue;
        current_failed = 0;
        tests[i].fn();
        printf("%s %s\n", current_failed ? "FAIL" : "PASS", tests[i].name);
        fflush(stdout);
        if (current_failed)
            failed++;
        else
            passed++;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
