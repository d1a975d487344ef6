/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_eval_funcs.c — func.c's name index (tfx_func_builtin,
 * tfx_func_builtin_opentofu) against the general lookup over the tables
 * (tfx_func_builtin_general, tfx_func_builtin_opentofu_general) [call.lookup]
 * [flavor.table]: the same function, or none, for every name of both
 * tables, for their prefixes and one-byte changes, and for random names.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "func.h"

/* A fixed-seed xorshift generator: the same names on every run. */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static long compared;
static long differ;

/* Both lookups of both tables agree on name[0..n). */
static void compare(const char *name, size_t n)
{
    compared++;
    if (tfx_func_builtin(name, n) != tfx_func_builtin_general(name, n)
        || tfx_func_builtin_opentofu(name, n) != tfx_func_builtin_opentofu_general(name, n)) {
        differ++;
        fprintf(stderr, "lookups differ on \"%.*s\"\n", (int)n, name);
    }
}

/* A name, its prefixes and each one-byte change of it. */
static void around(const char *name)
{
    char buf[64];
    size_t n = strlen(name);
    size_t i;

    if (n >= sizeof(buf) - 1)
        return;
    for (i = 0; i <= n; i++)
        compare(name, i);
    for (i = 0; i < n; i++) {
        memcpy(buf, name, n);
        buf[i] = (char)(buf[i] + 1);
        compare(buf, n);
        buf[i] = (char)(buf[i] - 2);
        compare(buf, n);
    }
    memcpy(buf, name, n);
    buf[n] = 'x';
    compare(buf, n + 1);
    buf[n] = '\0';
    compare(buf, n + 1); /* a NUL byte inside the given length */
}

int main(void)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789_-";
    const char *name;
    size_t i;
    int k;

    /* every name is found, by both tables where it is in both */
    for (i = 0; (name = tfx_func_builtin_name(i)) != NULL; i++) {
        CHECK(tfx_func_builtin(name, strlen(name)) != NULL);
        around(name);
    }
    CHECK(i > 100);
    for (i = 0; (name = tfx_func_builtin_opentofu_name(i)) != NULL; i++) {
        CHECK(tfx_func_builtin_opentofu(name, strlen(name)) != NULL);
        around(name);
    }
    for (i = 0; (name = tfx_func_opentofu_only_name(i)) != NULL; i++)
        CHECK(tfx_func_builtin(name, strlen(name)) == NULL);
    compare("", 0);
    CHECK_STR(tfx_func_builtin("upper", 5)->name, "upper");
    for (k = 0; k < 200000; k++) {
        char buf[16];
        size_t n = (size_t)(rng() % sizeof(buf));

        for (i = 0; i < n; i++)
            buf[i] = alphabet[rng() % (sizeof(alphabet) - 1)];
        compare(buf, n);
    }
    printf("test_eval_funcs: %ld names compared, %ld differ\n", compared, differ);
    CHECK(compared > 200000 && differ == 0);
    return check_report("test_eval_funcs");
}
