/* SPDX-License-Identifier: MPL-2.0 */
/*
 * gzipdump.c — compresses inputs from stdin with tfexpr's Go-compatible
 * gzip writer (deflate.h), for tools/gzipdiff to compare with
 * tools/go-gzipdump (Go's compress/gzip).  Both speak the same format.
 *
 * Request: a line holding the input's length in bytes (decimal), then that
 * many raw bytes.  Answer, one line: the base64 (standard, padded) of the
 * gzip member written as Terraform's base64gzip writes it (one Write,
 * Flush, Close), or "L <why>" when a limit stops the work.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "deflate.h"

typedef struct {
    const unsigned char *in;
    size_t nbytes;
    unsigned char *out;
    size_t nout;
} request;

static void compress_one(tfx_ctx *ctx, void *arg)
{
    request *r = arg;

    r->out = tfx_gzip_go(ctx, r->in, r->nbytes, &r->nout);
}

static void put_base64(const unsigned char *p, size_t n)
{
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t i;

    for (i = 0; i + 2 < n; i += 3) {
        unsigned long v = (unsigned long)p[i] << 16 | (unsigned long)p[i + 1] << 8 | p[i + 2];

        putchar(alphabet[(v >> 18) & 63]);
        putchar(alphabet[(v >> 12) & 63]);
        putchar(alphabet[(v >> 6) & 63]);
        putchar(alphabet[v & 63]);
    }
    if (n - i == 1) {
        unsigned long v = (unsigned long)p[i] << 16;

        printf("%c%c==", alphabet[(v >> 18) & 63], alphabet[(v >> 12) & 63]);
    } else if (n - i == 2) {
        unsigned long v = (unsigned long)p[i] << 16 | (unsigned long)p[i + 1] << 8;

        printf("%c%c%c=", alphabet[(v >> 18) & 63], alphabet[(v >> 12) & 63],
               alphabet[(v >> 6) & 63]);
    }
}

int main(void)
{
    char line[64];

    while (fgets(line, sizeof line, stdin) != NULL) {
        char *end = NULL;
        unsigned long long n = strtoull(line, &end, 10);
        unsigned char *buf;
        request r;
        tfx_ctx ctx;

        if (end == line || (*end != '\n' && *end != '\0'))
            return 2;
        buf = malloc(n > 0 ? (size_t)n : 1);
        if (buf == NULL || fread(buf, 1, (size_t)n, stdin) != (size_t)n) {
            free(buf);
            return 2;
        }
        memset(&r, 0, sizeof r);
        r.in = buf;
        r.nbytes = (size_t)n;
        if (!tfx_ctx_init(&ctx, NULL)) {
            free(buf);
            return 2;
        }
        if (tfx_ctx_try(&ctx, compress_one, &r))
            put_base64(r.out, r.nout);
        else
            printf("L %s", ctx.fail_summary);
        putchar('\n');
        fflush(stdout);
        tfx_ctx_free(&ctx);
        free(buf);
    }
    return 0;
}
