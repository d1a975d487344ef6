/* SPDX-License-Identifier: MPL-2.0 */
/*
 * bench_parse.c — measures how fast tfexpr parses files, and what memory a
 * parse takes: for each FILE (named <workload>.<size>.<mode>.hcl) it parses
 * the whole file repeatedly for at least one second and prints one JSON line
 * {"file", "bytes", "seconds_per_parse", "mb_per_s", "mallocs_per_parse",
 * "peak_bytes_per_byte"}, as tools/bench/go-parse-bench does for upstream.
 * A benchmark tool, not installed.
 *
 * usage: bench_parse [--runs N] FILE...
 *   --runs N  parse each file exactly N times after the first (for
 *             callgrind, whose instruction counts need no minimum time)
 *
 * The memory figures come from one parse (the second, untimed one) seen
 * through a malloc interposer: this program defines malloc, calloc,
 * realloc, free, posix_memalign and aligned_alloc, which take precedence
 * over the C library's for the whole process (ELF symbol interposition),
 * and forwards them to glibc's own entry points (__libc_malloc and the
 * others).  While counting, it counts allocation calls and keeps the bytes
 * live (malloc_usable_size) and their peak.  peak_bytes_per_byte is the
 * highest live byte count during the parse, less what was live before it,
 * over the source's bytes: the source's copy, tokens, tree, diagnostics
 * and any scratch memory, all of which the tfx_source holds or held.
 * Without glibc, or under AddressSanitizer (which has its own malloc), the
 * two figures are null.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tfexpr.h"

#include "bench_alloc.h"

/* Profile P14, as the upstream it is compared with (tools/bench/go-parse-bench,
 * HCL 2.14.1), and as every figure recorded before PN became the default. */
#define BENCH_PROFILE TFX_PROFILE_P14

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long len;

    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        if (f != NULL)
            fclose(f);
        return NULL;
    }
    buf = malloc((size_t)len + 1);
    if (buf != NULL && fread(buf, 1, (size_t)len, f) != (size_t)len) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *n = (size_t)len;
    return buf;
}

int main(int argc, char **argv)
{
    double min_time = 1.0;
    int fixed_runs = -1;
    tfx_limits limits;
    int i = 1;

    /* Steady state of a process that parses again and again: glibc keeps
     * freed memory instead of handing it back to the kernel after every
     * parse and faulting it in again for the next one (Go's runtime keeps
     * its heap between parses in the same way). */
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    tfx_limits_init(&limits);
    limits.max_source_bytes = (size_t)1 << 30;
    if (argc > 2 && strcmp(argv[1], "--runs") == 0) {
        fixed_runs = (int)strtol(argv[2], NULL, 10);
        i = 3;
    }
    for (; i < argc; i++) {
        size_t n;
        char *src = slurp(argv[i], &n);
        tfx_mode mode = strstr(argv[i], ".template.") != NULL ? TFX_MODE_TEMPLATE : TFX_MODE_EXPRESSION;
        tfx_source *s;
        int runs = 0;
        double begin;
        double per;
        char mem[128];

        if (src == NULL) {
            fprintf(stderr, "bench_parse: cannot read %s\n", argv[i]);
            return 2;
        }
        s = tfx_source_parse_profile(argv[i], src, n, mode, &limits, BENCH_PROFILE);
        if (s == NULL || tfx_source_has_errors(s)) {
            fprintf(stderr, "bench_parse: %s does not parse\n", argv[i]);
            return 1;
        }
        tfx_source_free(s);
        /* the second parse is counted: one-time set-up (the C library's,
         * MPFR's caches) is done by then */
#ifdef COUNT_MALLOC
        n_calls = 0;
        live_bytes = peak_bytes = 0;
        counting = 1;
#endif
        s = tfx_source_parse_profile(argv[i], src, n, mode, &limits, BENCH_PROFILE);
#ifdef COUNT_MALLOC
        counting = 0;
        snprintf(mem, sizeof(mem), "\"mallocs_per_parse\":%zu,\"peak_bytes_per_byte\":%.2f",
                 n_calls, n > 0 ? (double)peak_bytes / (double)n : 0.0);
#else
        snprintf(mem, sizeof(mem), "\"mallocs_per_parse\":null,\"peak_bytes_per_byte\":null");
#endif
        tfx_source_free(s);
        begin = now();
        while (fixed_runs >= 0 ? runs < fixed_runs : (now() - begin < min_time || runs < 3)) {
            tfx_source_free(tfx_source_parse_profile(argv[i], src, n, mode, &limits, BENCH_PROFILE));
            runs++;
        }
        per = runs > 0 ? (now() - begin) / runs : 0.0;
        printf("{\"bytes\":%zu,\"file\":\"%s\",\"mb_per_s\":%.3f,%s,\"seconds_per_parse\":%.9f}\n",
               n, argv[i], per > 0 ? (double)n / per / 1e6 : 0.0, mem, per);
        free(src);
    }
    return 0;
}
