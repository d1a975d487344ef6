/*
 * bench_eval.c — measures how fast tfexpr parses and evaluates: for each
 * FILE (eval-<workload>.hcl, variables in eval-<workload>.vars.json as
 * plain JSON) it parses and evaluates the file repeatedly for at least one
 * second and prints one JSON line {"file", "bytes", "seconds_per_eval",
 * "mb_per_s"}, as tools/bench/go-eval-bench does for upstream.  A
 * benchmark tool, not installed.
 *
 * With BENCH_EVAL_RUNS=N in the environment it runs each file N times
 * after the first run instead of timing for a second (for callgrind).
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tfexpr.h"

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

/* One parse and evaluation; 0 if it had no errors. */
static int run(const char *path, const char *src, size_t n, const tfx_context *ctx)
{
    tfx_source *s = tfx_source_parse(path, src, n, TFX_MODE_EXPRESSION, NULL);
    tfx_result *r = s != NULL && !tfx_source_has_errors(s) ? tfx_evaluate(s, ctx, NULL) : NULL;
    int failed = r == NULL || tfx_result_has_errors(r);

    tfx_result_free(r);
    tfx_source_free(s);
    return failed;
}

int main(int argc, char **argv)
{
    double min_time = 1.0;
    const char *fixed = getenv("BENCH_EVAL_RUNS");
    int nfixed = fixed != NULL ? atoi(fixed) : -1;
    int i;

    /* Steady state of a process that evaluates again and again (as in
     * bench_parse.c). */
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    for (i = 1; i < argc; i++) {
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

        if (src == NULL || ctx == NULL || len < 4 || len + 16 > sizeof(varpath)) {
            fprintf(stderr, "bench_eval: cannot read %s\n", argv[i]);
            return 2;
        }
        snprintf(varpath, sizeof(varpath), "%.*s.vars.json", (int)(len - 4), argv[i]);
        vars = slurp(varpath, &nvars);
        if (vars == NULL || tfx_context_set_json_all(ctx, vars, nvars, &error) != 0) {
            fprintf(stderr, "bench_eval: %s: %s\n", varpath, error != NULL ? error : "cannot read");
            return 2;
        }
        if (run(argv[i], src, n, ctx) != 0) {
            fprintf(stderr, "bench_eval: %s does not evaluate without errors\n", argv[i]);
            return 1;
        }
        begin = now();
        while (nfixed >= 0 ? runs < nfixed : now() - begin < min_time || runs < 3) {
            run(argv[i], src, n, ctx);
            runs++;
        }
        per = (now() - begin) / (runs > 0 ? runs : 1);
        printf("{\"bytes\":%zu,\"file\":\"%s\",\"mb_per_s\":%.3f,\"seconds_per_eval\":%.9f}\n",
               n, argv[i], (double)n / per / 1e6, per);
        tfx_context_free(ctx);
        free(vars);
        free(src);
    }
    return 0;
}
