/*
 * check.h — the C unit tests' few macros.
 *
 * A test is a function declared with TEST(name); it registers itself before
 * main() runs (a constructor), so adding a test means writing it, nothing
 * else. CHECK* record a failure with file and line and let the test go on;
 * main.c runs every test and prints "PASS name" or "FAIL name" lines and a
 * closing "N passed, N failed", which tests/run.lua reads.
 */
#ifndef CHECK_H
#define CHECK_H

#include <string.h>

typedef void (*check_Fn)(void);

void check_register(const char *name, check_Fn fn);
/* Records [ok]; on failure prints [what] at [file]:[line]. Returns [ok]. */
int check_that(int ok, const char *what, const char *file, int line);

#define TEST(name)                                                        \
    static void name(void);                                               \
    __attribute__((constructor)) static void check_register_##name(void) \
    { check_register(#name, name); }                                      \
    static void name(void)

#define CHECK(cond) check_that((cond) != 0, #cond, __FILE__, __LINE__)
#define CHECK_INT(a, b) check_that((long long)(a) == (long long)(b), #a " == " #b, __FILE__, __LINE__)
#define CHECK_NEAR(a, b, eps) \
    check_that(((a) - (b)) <= (eps) && ((b) - (a)) <= (eps), #a " ~= " #b, __FILE__, __LINE__)
#define CHECK_STR(a, b) check_that(strcmp((a), (b)) == 0, #a " == " #b, __FILE__, __LINE__)

#endif
