/* SPDX-License-Identifier: MPL-2.0 */
/*
 * bench_parse.c — measures how fast tfexpr parses, and what memory a parse
 * takes: for each WORKLOAD (a directory of parts, or one file: see
 * bench_input.h) it parses every part in turn, pass after pass, for at
 * least one second and prints one JSON line {"file", "bytes", "parts",
 * "seconds_per_pass", "mb_per_s", "mallocs_per_parse",
 * "peak_bytes_per_byte"}, as tools/bench/go-parse-bench does for upstream
 * (bytes: of all parts; a pass: every part parsed once).  A benchmark
 * tool, not installed.
 *
 * usage: bench_parse [--runs N] WORKLOAD...
 *   --runs N  make exactly N passes after the first (for callgrind, whose
 *             instruction counts need no minimum time)
 *
 * The memory figures come from one parse of each part (after a first,
 * untimed pass) seen through a malloc interposer: this program defines
 * malloc, calloc, realloc, free, posix_memalign and aligned_alloc, which
 * take precedence over the C library's for the whole process (ELF symbol
 * interposition), and forwards them to glibc's own entry points
 * (__libc_malloc and the others).  While counting, it counts allocation
 * calls and keeps the bytes live (malloc_usable_size) and their peak.
 * peak_bytes_per_byte is the highest live byte count during a part's
 * parse, less what was live before it, over the part's bytes (the highest
 * of the parts'): the source's copy, tokens, tree, diagnostics and any
 * scratch memory, all of which the tfx_source holds or held.
 * mallocs_per_parse is the mean of the parts' allocation calls.
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
#include "bench_input.h"

/* Profile P14, as the upstream it is compared with (tools/bench/go-parse-bench,
 * HCL 2.14.1), and as every figure recorded before PN became the default. */
#define BENCH_PROFILE TFX_PROFILE_P14

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Parses every part of w once; 0 if each parsed without errors. */
static int parse_pass(const char *path, const workload *w, tfx_mode mode, const tfx_limits *limits)
{
    int failed = 0;

    for (size_t k = 0; k < w->nparts; k++) {
        tfx_source *s = tfx_source_parse_profile(path, w->text[k], w->n[k], mode, limits, BENCH_PROFILE);

        failed |= s == NULL || tfx_source_has_errors(s);
        tfx_source_free(s);
    }
    return failed;
}

/* The memory of one parse of each part (after a pass that did the
 * one-time set-up: the C library's, MPFR's caches), as JSON members: the
 * mean of the parts' malloc calls, and the highest of their peaks of live
 * bytes over their source bytes. */
static void memory_figures(const char *path, const workload *w, tfx_mode mode, const tfx_limits *limits,
                           char *out, size_t nout)
{
#ifdef COUNT_MALLOC
    size_t calls = 0;
    double peak = 0.0;

    for (size_t k = 0; k < w->nparts; k++) {
        tfx_source *s;

        n_calls = 0;
        live_bytes = peak_bytes = 0;
        counting = 1;
        s = tfx_source_parse_profile(path, w->text[k], w->n[k], mode, limits, BENCH_PROFILE);
        counting = 0;
        tfx_source_free(s);
        calls += n_calls;
        if (w->n[k] > 0 && (double)peak_bytes / (double)w->n[k] > peak)
            peak = (double)peak_bytes / (double)w->n[k];
    }
    snprintf(out, nout, "\"mallocs_per_parse\":%zu,\"peak_bytes_per_byte\":%.2f",
             (calls + w->nparts / 2) / w->nparts, peak);
#else
    (void)path;
    (void)w;
    (void)mode;
    (void)limits;
    snprintf(out, nout, "\"mallocs_per_parse\":null,\"peak_bytes_per_byte\":null");
#endif
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
        workload w;
        tfx_mode mode = strstr(argv[i], ".template") != NULL ? TFX_MODE_TEMPLATE : TFX_MODE_EXPRESSION;
        int passes = 0;
        double begin;
        double per;
        char mem[128];

        if (workload_load(argv[i], &w) != 0)
            return 2;
        if (parse_pass(argv[i], &w, mode, &limits) != 0) {
            fprintf(stderr, "bench_parse: %s does not parse\n", argv[i]);
            workload_free(&w);
            return 1;
        }
        memory_figures(argv[i], &w, mode, &limits, mem, sizeof(mem));
        begin = now();
        while (fixed_runs >= 0 ? passes < fixed_runs : (now() - begin < min_time || passes < 3)) {
            parse_pass(argv[i], &w, mode, &limits);
            passes++;
        }
        per = passes > 0 ? (now() - begin) / passes : 0.0;
        printf("{\"bytes\":%zu,\"file\":\"%s\",\"mb_per_s\":%.3f,%s,\"parts\":%zu,\"seconds_per_pass\":%.9f}\n",
               w.bytes, argv[i], per > 0 ? (double)w.bytes / per / 1e6 : 0.0, mem, w.nparts, per);
        workload_free(&w);
    }
    return 0;
}
