/*
 * bench_parse.c — measures how fast tfexpr parses files: for each FILE
 * (named <workload>.<size>.<mode>.hcl) it parses the whole file repeatedly
 * for at least one second and prints one JSON line {"file", "bytes",
 * "seconds_per_parse", "mb_per_s"}, as tools/bench/go-parse-bench does for
 * upstream.  A benchmark tool, not installed.
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

int main(int argc, char **argv)
{
    double min_time = 1.0;
    tfx_limits limits;
    int i;

    /* Steady state of a process that parses again and again: glibc keeps
     * freed memory instead of handing it back to the kernel after every
     * parse and faulting it in again for the next one (Go's runtime keeps
     * its heap between parses in the same way). */
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    tfx_limits_init(&limits);
    limits.max_source_bytes = (size_t)1 << 30;
    for (i = 1; i < argc; i++) {
        size_t n;
        char *src = slurp(argv[i], &n);
        tfx_mode mode = strstr(argv[i], ".template.") != NULL ? TFX_MODE_TEMPLATE : TFX_MODE_EXPRESSION;
        tfx_source *s;
        int runs = 0;
        double begin;
        double per;

        if (src == NULL) {
            fprintf(stderr, "bench_parse: cannot read %s\n", argv[i]);
            return 2;
        }
        s = tfx_source_parse(argv[i], src, n, mode, &limits);
        if (s == NULL || tfx_source_has_errors(s)) {
            fprintf(stderr, "bench_parse: %s does not parse\n", argv[i]);
            return 1;
        }
        tfx_source_free(s);
        begin = now();
        while (now() - begin < min_time || runs < 3) {
            tfx_source_free(tfx_source_parse(argv[i], src, n, mode, &limits));
            runs++;
        }
        per = (now() - begin) / runs;
        printf("{\"bytes\":%zu,\"file\":\"%s\",\"mb_per_s\":%.3f,\"seconds_per_parse\":%.9f}\n",
               n, argv[i], (double)n / per / 1e6, per);
        free(src);
    }
    return 0;
}
