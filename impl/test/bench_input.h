/* SPDX-License-Identifier: MPL-2.0 */
/*
 * bench_input.h — reading the benchmarks' inputs (bench_parse.c,
 * bench_lex.c, bench_eval.c), included once by each.
 *
 * A parse or lexer workload (tools/bench/gen-workloads) is a directory
 * <workload>.<size>.<mode> holding the workload's text cut into parts,
 * 000.hcl, 001.hcl, ...: size x1 is 100 parts, x10 is 10, x100 is one.  The
 * three sizes hold the same text, so the time per byte of the three
 * compares sizes and nothing else.  Parsing one x1 file again and again
 * would not: a processor's branch predictors learn a 19 KB input that is
 * parsed thousands of times over (measured on exprs: one part parsed
 * again and again 143 MB/s; the same part in 100 copies, 143 MB/s; 100
 * different parts in turn, 119 MB/s, as x100 in one piece, 116-120 MB/s).
 * A benchmark parses the parts in turn and counts a pass over all of
 * them.  A plain file given instead of a directory is a workload of one
 * part.
 */
#ifndef TFX_TEST_BENCH_INPUT_H
#define TFX_TEST_BENCH_INPUT_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The bytes of the file at path, NUL-terminated and malloc'd (free
 * them), their count in *n; NULL if it cannot be read. */
static inline char *slurp(const char *path, size_t *n)
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
    if (buf != NULL)
        buf[len] = '\0';
    fclose(f);
    *n = (size_t)len;
    return buf;
}

#define WORKLOAD_MAX_PARTS 1000

typedef struct {
    char *text[WORKLOAD_MAX_PARTS];
    size_t n[WORKLOAD_MAX_PARTS];
    size_t nparts;
    size_t bytes;         /* of all parts */
} workload;

static inline int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static inline void workload_free(workload *w)
{
    for (size_t i = 0; i < w->nparts; i++)
        free(w->text[i]);
    w->nparts = 0;
}

/* Reads the workload at path (a directory of parts *.hcl, read in the
 * order of their names, or one file) into *w.  0 on success; -1 with a
 * message on standard error if something cannot be read or there is no
 * part. */
static inline int workload_load(const char *path, workload *w)
{
    struct stat st;
    char *names[WORKLOAD_MAX_PARTS];
    size_t nnames = 0;
    int failed = 0;
    DIR *d;
    struct dirent *e;

    w->nparts = 0;
    w->bytes = 0;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "cannot read %s\n", path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        w->text[0] = slurp(path, &w->n[0]);
        if (w->text[0] == NULL) {
            fprintf(stderr, "cannot read %s\n", path);
            return -1;
        }
        w->nparts = 1;
        w->bytes = w->n[0];
        return 0;
    }
    d = opendir(path);
    if (d == NULL) {
        fprintf(stderr, "cannot read %s\n", path);
        return -1;
    }
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);

        if (len < 5 || strcmp(e->d_name + len - 4, ".hcl") != 0)
            continue;
        if (nnames == WORKLOAD_MAX_PARTS) {
            fprintf(stderr, "%s: more than %d parts\n", path, WORKLOAD_MAX_PARTS);
            failed = 1;
            break;
        }
        size_t size = strlen(path) + len + 2;

        names[nnames] = malloc(size);
        if (names[nnames] == NULL) {
            failed = 1;
            break;
        }
        snprintf(names[nnames], size, "%s/%s", path, e->d_name);
        nnames++;
    }
    closedir(d);
    qsort(names, nnames, sizeof(names[0]), compare_names);
    for (size_t i = 0; i < nnames; i++) {
        if (!failed) {
            w->text[w->nparts] = slurp(names[i], &w->n[w->nparts]);
            if (w->text[w->nparts] == NULL) {
                fprintf(stderr, "cannot read %s\n", names[i]);
                failed = 1;
            } else {
                w->bytes += w->n[w->nparts];
                w->nparts++;
            }
        }
        free(names[i]);
    }
    if (!failed && w->nparts == 0) {
        fprintf(stderr, "%s: no part (*.hcl)\n", path);
        failed = 1;
    }
    if (failed) {
        workload_free(w);
        return -1;
    }
    return 0;
}

#endif /* TFX_TEST_BENCH_INPUT_H */
