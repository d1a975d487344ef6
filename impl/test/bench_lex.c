/* SPDX-License-Identifier: MPL-2.0 */
/*
 * bench_lex.c — measures how fast the lexer alone (tfx_lex) turns text
 * into tokens: for each WORKLOAD (a directory of parts, or one file: see
 * bench_input.h) it lexes every part in turn, pass after pass, and prints
 * one JSON line {"file", "bytes", "parts", "tokens", "seconds_per_pass",
 * "mb_per_s"} (bytes and tokens: of all parts; a pass: every part lexed
 * once), for tools/bench/run-lex: the fastest of ROUNDS rounds of at least
 * half a second each, as other jobs on a shared machine only ever slow a
 * round down.  With --runs N it makes exactly N passes instead (for
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

#include "bench_input.h"

#define ROUNDS 3

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
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

/* Lexes every part of w once; their tokens, 0 if a part failed. */
static size_t lex_pass(const workload *w, tfx_lex_mode mode)
{
    size_t total = 0;

    for (size_t k = 0; k < w->nparts; k++) {
        size_t count = lex_once((const unsigned char *)w->text[k], w->n[k], mode);

        if (count == 0)
            return 0;
        total += count;
    }
    return total;
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
        workload w;
        tfx_lex_mode mode = strstr(argv[i], ".template") != NULL ? TFX_LEX_TEMPLATE : TFX_LEX_EXPRESSION;
        size_t ntokens;
        long passes;
        double begin;
        double per;

        if (workload_load(argv[i], &w) != 0)
            return 2;
        ntokens = lex_pass(&w, mode);
        if (ntokens == 0) {
            fprintf(stderr, "bench_lex: %s does not lex\n", argv[i]);
            workload_free(&w);
            return 1;
        }
        if (fixed_runs > 0) {
            begin = now();
            for (passes = 0; passes < fixed_runs; passes++)
                lex_pass(&w, mode);
            per = (now() - begin) / (double)passes;
        } else {
            per = -1.0;
            for (int round = 0; round < ROUNDS; round++) {
                double took;

                begin = now();
                for (passes = 0; (took = now() - begin) < 0.5 || passes < 3; passes++)
                    lex_pass(&w, mode);
                if (per < 0 || took / (double)passes < per)
                    per = took / (double)passes;
            }
        }
        printf("{\"bytes\":%zu,\"file\":\"%s\",\"mb_per_s\":%.3f,\"parts\":%zu,\"seconds_per_pass\":%.9f,\"tokens\":%zu}\n",
               w.bytes, argv[i], (double)w.bytes / per / 1e6, w.nparts, per, ntokens);
        workload_free(&w);
    }
    return 0;
}
