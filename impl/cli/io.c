/* SPDX-License-Identifier: MPL-2.0 */
/*
 * io.c — reading the command line's inputs: an expression's file or
 * standard input, variables files.  Kept apart from main.c so that the
 * variable-file fuzz harness (fuzz/fuzz_varfile.c) links the readers
 * without the commands.
 */
#include "cli.h"

#include <stdlib.h>

/* Reads all of `f` into a malloc'd buffer (NUL-terminated, for callers
 * that want a string; *n does not count the NUL). */
char *cli_read_all(FILE *f, size_t *n)
{
    size_t cap = 65536;
    char *buf = malloc(cap);

    *n = 0;
    if (buf == NULL)
        return NULL;
    for (;;) {
        size_t got = fread(buf + *n, 1, cap - 1 - *n, f);

        *n += got;
        if (got == 0)
            break;
        if (*n == cap - 1) {
            char *more = cap > ((size_t)-1) / 2 ? NULL : realloc(buf, cap * 2);

            if (more == NULL) {
                free(buf);
                return NULL;
            }
            buf = more;
            cap *= 2;
        }
    }
    if (ferror(f)) {
        free(buf);
        return NULL;
    }
    buf[*n] = '\0';
    return buf;
}

char *cli_read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    char *buf;

    if (f == NULL)
        return NULL;
    buf = cli_read_all(f, n);
    fclose(f);
    return buf;
}
