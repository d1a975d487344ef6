/* SPDX-License-Identifier: MPL-2.0 */
/*
 * fuzz_deflate.c — the Go-compatible DEFLATE compressor (impl/deflate.h)
 * on arbitrary data.
 *
 * Input: a mode byte, then the data.  With the mode's low bit clear the
 * data is compressed as it is; with it set the data is a small program
 * that expands it (so that short inputs reach the window's slide, the
 * block limits and long matches): pairs (n, v), where n < 128 appends v
 * n + 1 times and n >= 128 copies (n - 127) * 97 bytes from (v + 1) * 128
 * bytes back (or appends v if there is no such byte), up to 1 MiB.
 * Limits: the default steps and a 64 MiB memory budget.
 * Properties:
 *   - zlib inflates the gzip member back to the data, with its CRC-32 and
 *     size, and the raw stream without the sync flush too;
 *   - the member has Go's header and ends with the sync and final empty
 *     stored blocks;
 *   - a second run in a fresh context gives the same bytes;
 *   - nothing leaks (LSan) and nothing crashes (ASan, UBSan).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "ctx.h"
#include "deflate.h"
#include "fuzz_common.h"

#define MAX_EXPANDED ((size_t)1 << 20)

typedef struct {
    const unsigned char *in;
    size_t nbytes;
    bool raw;
    unsigned char *out; /* malloc'd copy */
    size_t nout;
} job;

static void compress_job(tfx_ctx *ctx, void *arg)
{
    job *j = arg;
    size_t n = 0;
    const unsigned char *z = j->raw ? tfx_deflate_go(ctx, j->in, j->nbytes, false, &n)
                                    : tfx_gzip_go(ctx, j->in, j->nbytes, &n);

    j->out = malloc(n > 0 ? n : 1);
    if (j->out == NULL)
        fuzz_fail("out of memory");
    memcpy(j->out, z, n);
    j->nout = n;
}

static bool run(job *j)
{
    tfx_ctx ctx;
    tfx_ctx_limits limits;
    bool ok;

    tfx_ctx_limits_init(&limits);
    limits.max_memory_bytes = FUZZ_MAX_MEMORY;
    if (!tfx_ctx_init(&ctx, &limits))
        fuzz_fail("cannot make a context");
    ok = tfx_ctx_try(&ctx, compress_job, j);
    if (!ok && strcmp(ctx.fail_summary, "Evaluation step limit exceeded") != 0
        && strcmp(ctx.fail_summary, "Memory limit exceeded") != 0)
        fuzz_fail("unexpected failure: %s", ctx.fail_summary);
    tfx_ctx_free(&ctx);
    return ok;
}

static void check_inflate(const job *j)
{
    z_stream s;
    unsigned char *back = malloc(j->nbytes + 64);
    int rc;

    if (back == NULL)
        fuzz_fail("out of memory");
    memset(&s, 0, sizeof s);
    if (inflateInit2(&s, j->raw ? -15 : 16 + 15) != Z_OK)
        fuzz_fail("inflateInit2");
    s.next_in = j->out;
    s.avail_in = (uInt)j->nout;
    s.next_out = back;
    s.avail_out = (uInt)(j->nbytes + 64);
    rc = inflate(&s, Z_FINISH);
    if (rc != Z_STREAM_END || s.avail_in != 0 || s.total_out != j->nbytes
        || memcmp(back, j->in, j->nbytes) != 0)
        fuzz_fail("zlib does not inflate the %s stream back (rc %d, %lu of %zu bytes)",
                  j->raw ? "raw" : "gzip", rc, s.total_out, j->nbytes);
    inflateEnd(&s);
    free(back);
}

static unsigned char *expand(const unsigned char *p, size_t n, size_t *nout)
{
    unsigned char *out = calloc(MAX_EXPANDED, 1);
    size_t len = 0, i;

    if (out == NULL)
        fuzz_fail("out of memory");
    for (i = 0; i + 1 < n && len < MAX_EXPANDED; i += 2) {
        size_t count, dist, k;

        if (p[i] < 128) {
            count = (size_t)p[i] + 1;
            for (k = 0; k < count && len < MAX_EXPANDED; k++)
                out[len++] = p[i + 1];
            continue;
        }
        count = (size_t)(p[i] - 127) * 97;
        dist = ((size_t)p[i + 1] + 1) * 128;
        if (dist > len) {
            out[len++] = p[i + 1];
            continue;
        }
        for (k = 0; k < count && len < MAX_EXPANDED; k++) {
            out[len] = out[len - dist];
            len++;
        }
    }
    *nout = len;
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *expanded = NULL;
    const unsigned char *in;
    size_t nbytes, pass;

    if (size == 0)
        return 0;
    if (data[0] & 1) {
        expanded = expand(data + 1, size - 1, &nbytes);
        in = expanded;
    } else {
        in = data + 1;
        nbytes = size - 1;
    }
    for (pass = 0; pass < 2; pass++) {
        job a = {in, nbytes, pass == 1, NULL, 0};
        job b = a;

        if (!run(&a)) {
            if (run(&b))
                fuzz_fail("a second run succeeds where the first failed");
            continue;
        }
        if (!run(&b) || a.nout != b.nout || memcmp(a.out, b.out, a.nout) != 0)
            fuzz_fail("two runs of the same input differ");
        check_inflate(&a);
        if (!a.raw) {
            uLong crc = crc32(crc32(0L, Z_NULL, 0), in, (uInt)nbytes);
            const unsigned char *t = a.out + a.nout - 8;

            if (a.nout < 27 || memcmp(a.out, "\x1f\x8b\x08\0\0\0\0\0\0\xff", 10) != 0)
                fuzz_fail("not Go's gzip header");
            if (memcmp(t - 9, "\0\0\xff\xff\x01\0\0\xff\xff", 9) != 0)
                fuzz_fail("the stream does not end with the sync and final stored blocks");
            if (t[0] != (crc & 0xff) || t[1] != ((crc >> 8) & 0xff)
                || t[2] != ((crc >> 16) & 0xff) || t[3] != ((crc >> 24) & 0xff)
                || t[4] != (nbytes & 0xff) || t[5] != ((nbytes >> 8) & 0xff)
                || t[6] != ((nbytes >> 16) & 0xff) || t[7] != ((nbytes >> 24) & 0xff))
                fuzz_fail("bad trailer");
        }
        free(a.out);
        free(b.out);
    }
    free(expanded);
    return 0;
}
