/* SPDX-License-Identifier: MPL-2.0 */
/*
 * check.h — the assertions of the unit tests.  Each test program includes
 * it once, calls CHECK*, and returns check_report() from main, which prints
 * the closing line "N passed, N failed".
 */
#ifndef TFX_TEST_CHECK_H
#define TFX_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_passed;
static int check_failed;

#define CHECK(cond) check_((cond) != 0, #cond, __FILE__, __LINE__)
#define CHECK_STR(got, want) \
    check_str_((got), (want), #got, __FILE__, __LINE__)

static void check_(int ok, const char *what, const char *file, int line)
{
    if (ok) {
        check_passed++;
        return;
    }
    check_failed++;
    fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
}

static void check_str_(const char *got, const char *want, const char *what,
                       const char *file, int line)
{
    if (got != NULL && strcmp(got, want) == 0) {
        check_passed++;
        return;
    }
    check_failed++;
    fprintf(stderr, "%s:%d: check failed: %s is \"%s\", want \"%s\"\n", file,
            line, what, got ? got : "(null)", want);
}

static int check_report(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
    return check_failed == 0 ? 0 : 1;
}

#endif /* TFX_TEST_CHECK_H */
