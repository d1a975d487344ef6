/* SPDX-License-Identifier: MPL-2.0 */
/*
 * bench_eval.c — measures how fast tfexpr parses and evaluates, and what
 * memory that takes: for each FILE (eval-<workload>.hcl, variables in
 * eval-<workload>.vars.json as plain JSON) it parses and evaluates the
 * file repeatedly for at least one second and prints one JSON line
 * {"file", "bytes", "seconds_per_eval", "mb_per_s", "mallocs_per_eval",
 * "peak_bytes_per_byte"}, as tools/bench/go-eval-bench does for upstream.
 * A benchmark tool, not installed.
 *
 * usage: bench_eval [--runs N] FILE...
 *   --runs N  parse and evaluate each file exactly N times after the
 *             first two (for callgrind, whose counts need no minimum time)
 *
 * The memory figures come from one parse and evaluation (the second,
 * untimed one) seen through a malloc interposer, as in bench_parse.c: this
 * program defines malloc, calloc, realloc, free, posix_memalign and
 * aligned_alloc, which take precedence over the C library's for the whole
 * process (ELF symbol interposition), and forwards them to glibc's own
 * entry points.  While counting, it counts allocation calls and keeps the
 * bytes live (malloc_usable_size) and their peak.  peak_bytes_per_byte is
 * the highest live byte count from the start of the parse until the result
 * is freed, less what was live before (the context with its variables),
 * over the source's bytes: the source, its tokens and tree, the
 * evaluation's arena with every value made on the way, the result and any
 * scratch memory.  Without glibc, or under AddressSanitizer (which has its
 * own malloc), the two figures are null.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tfexpr.h"

#include "bench_alloc.h"
#include "bench_input.h"

/* Profile P14, as the upstream it is compared with (tools/bench/go-eval-bench,
 * HCL 2.14.1 and cty 1.12.1), and as every figure recorded before PN became
 * the default. */
#define BENCH_PROFILE TFX_PROFILE_P14

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One parse and evaluation; 0 if it had no errors.  With count set, the
 * allocations from the parse until the result is freed are counted. */
static int run(const char *path, const char *src, size_t n, const tfx_context *ctx, int count)
{
    tfx_source *s;
    tfx_result *r;
    int failed;

#ifdef COUNT_MALLOC
    if (count) {
        n_calls = 0;
        live_bytes = peak_bytes = 0;
        counting = 1;
    }
#else
    (void)count;
#endif
    s = tfx_source_parse_profile(path, src, n, TFX_MODE_EXPRESSION, NULL, BENCH_PROFILE);
    r = s != NULL && !tfx_source_has_errors(s) ? tfx_evaluate(s, ctx, NULL) : NULL;
    failed = r == NULL || tfx_result_has_errors(r);
    tfx_result_free(r);
    tfx_source_free(s);
#ifdef COUNT_MALLOC
    counting = 0;
#endif
    return failed;
}

int main(int argc, char **argv)
{
    double min_time = 1.0;
    int fixed_runs = -1;
    int i = 1;

    /* Steady state of a process that evaluates again and again (as in
     * bench_parse.c). */
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    if (argc > 2 && strcmp(argv[1], "--runs") == 0) {
        fixed_runs = (int)strtol(argv[2], NULL, 10);
        i = 3;
    }
    for (; i < argc; i++) {
        size_t n;
        size_t nvars;
        char *src = slurp(argv[i], &n);
        char varpath[4096];
        char *vars;
        char *error = NULL;
        tfx_context *ctx = tfx_context_new();
        int runs = 0;
        double begin;
        double per;
        size_t len = strlen(argv[i]);
        char mem[128];

        if (src == NULL || ctx == NULL || len < 4 || len + 16 > sizeof(varpath)) {
            fprintf(stderr, "bench_eval: cannot read %s\n", argv[i]);
            return 2;
        }
        snprintf(varpath, sizeof(varpath), "%.*s.vars.json", (int)(len - 4), argv[i]);
        vars = slurp(varpath, &nvars);
        tfx_context_set_profile(ctx, BENCH_PROFILE);
        if (vars == NULL || tfx_context_set_json_all(ctx, vars, nvars, &error) != 0) {
            fprintf(stderr, "bench_eval: %s: %s\n", varpath, error != NULL ? error : "cannot read");
            return 2;
        }
        if (run(argv[i], src, n, ctx, 0) != 0) {
            fprintf(stderr, "bench_eval: %s does not evaluate without errors\n", argv[i]);
            return 1;
        }
        /* the second run is counted: one-time set-up (the C library's,
         * MPFR's caches, the function index) is done by then */
        run(argv[i], src, n, ctx, 1);
#ifdef COUNT_MALLOC
        snprintf(mem, sizeof(mem), "\"mallocs_per_eval\":%zu,\"peak_bytes_per_byte\":%.2f", n_calls,
                 n > 0 ? (double)peak_bytes / (double)n : 0.0);
#else
        snprintf(mem, sizeof(mem), "\"mallocs_per_eval\":null,\"peak_bytes_per_byte\":null");
#endif
        begin = now();
        while (fixed_runs >= 0 ? runs < fixed_runs : (now() - begin < min_time || runs < 3)) {
            run(argv[i], src, n, ctx, 0);
            runs++;
        }
        per = runs > 0 ? (now() - begin) / runs : 0.0;
        printf("{\"bytes\":%zu,\"file\":\"%s\",\"mb_per_s\":%.3f,%s,\"seconds_per_eval\":%.9f}\n",
               n, argv[i], per > 0 ? (double)n / per / 1e6 : 0.0, mem, per);
        tfx_context_free(ctx);
        free(vars);
        free(src);
    }
    return 0;
}
