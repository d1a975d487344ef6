/* SPDX-License-Identifier: MPL-2.0 */
/*
 * bench_lex.c — measures how fast the lexer alone (tfx_lex) turns files
 * into tokens: for each FILE (named <workload>.<size>.<mode>.hcl) it lexes
 * the whole file repeatedly for at least one second and prints one JSON
 * line {"file", "bytes", "tokens", "seconds_per_lex", "mb_per_s"}, for
 * tools/bench/run-lex: the fastest of ROUNDS rounds of at least half a
 * second each, as other jobs on a shared machine only ever slow a round
 * down.  With --runs N it lexes each file exactly N times instead (for
 * instruction counts under callgrind).  Time is the process's CPU time,
 * which other jobs disturb less than wall time.  A benchmark tool, not
 * installed.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arena.h"
#include "lex.h"

#define ROUNDS 3

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf;
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

/* Lexes src once in a fresh arena; the number of tokens, 0 on failure. */
static size_t lex_once(const unsigned char *src, size_t n, tfx_lex_mode mode)
{
    tfx_arena *arena = tfx_arena_new(0);
    tfx_tokens tokens;
    size_t count = 0;

    if (arena != NULL && tfx_lex(arena, src, n, mode, &tokens))
        count = tokens.n;
    tfx_arena_free(arena);
    return count;
}

int main(int argc, char **argv)
{
    long fixed_runs = 0;
    int i = 1;

    /* As bench_parse: keep freed memory between runs, as a process that
     * lexes again and again does. */
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    if (argc > 2 && strcmp(argv[1], "--runs") == 0) {
        fixed_runs = strtol(argv[2], NULL, 10);
        i = 3;
    }
    for (; i < argc; i++) {
        size_t n;
        unsigned char *src = slurp(argv[i], &n);
        tfx_lex_mode mode = strstr(argv[i], ".template.") != NULL ? TFX_LEX_TEMPLATE : TFX_LEX_EXPRESSION;
        size_t ntokens;
        long runs;
        double begin;
        double per;

        if (src == NULL) {
            fprintf(stderr, "bench_lex: cannot read %s\n", argv[i]);
            return 2;
        }
        ntokens = lex_once(src, n, mode);
        if (ntokens == 0) {
            fprintf(stderr, "bench_lex: %s does not lex\n", argv[i]);
            return 1;
        }
        if (fixed_runs > 0) {
            begin = now();
            for (runs = 0; runs < fixed_runs; runs++)
                lex_once(src, n, mode);
            per = (now() - begin) / (double)runs;
        } else {
            per = -1.0;
            for (int round = 0; round < ROUNDS; round++) {
                double took;

                begin = now();
                for (runs = 0; (took = now() - begin) < 0.5 || runs < 3; runs++)
                    lex_once(src, n, mode);
                if (per < 0 || took / (double)runs < per)
                    per = took / (double)runs;
            }
        }
        printf("{\"bytes\":%zu,\"file\":\"%s\",\"mb_per_s\":%.3f,\"seconds_per_lex\":%.9f,\"tokens\":%zu}\n",
               n, argv[i], (double)n / per / 1e6, per, ntokens);
        free(src);
    }
    return 0;
}
