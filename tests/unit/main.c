/* The unit-test driver: runs every registered TEST, or those whose name
 * contains argv[1]. */
#include <stdio.h>
#include <string.h>

#include "check.h"

enum { MAX_TESTS = 512 };

static struct { const char *name; check_Fn fn; } tests[MAX_TESTS];
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
        if (current_failed) failed++; else passed++;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
