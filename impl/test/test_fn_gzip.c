/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_fn_gzip.c — unit tests of the Go-compatible gzip writer (deflate.h)
 * and of base64gzip (funcs_gzip.c; spec/functions-gzip.md).
 *
 * The fixed expectations were produced by Go 1.19's compress/gzip
 * (tools/go-gzipdump, the calls Terraform makes), not by tfexpr.  The
 * random inputs are checked by inflating the output with zlib and by the
 * structure the spec gives the member; byte equality with Go on random
 * inputs is tools/gzipdiff's job (`make gzipdiff`).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ZLIB_CONST
#include <zlib.h>

#include "check.h"
#include "common.h"
#include "deflate.h"
#include "funcs_internal.h"
#include "render.h"
#include "testval.h"

/* ---- Fixed vectors from Go ---- */

static const char *gzip_b64(const unsigned char *in, size_t n)
{
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char pad = '=';
    size_t nout = 0, i, k = 0;
    const unsigned char *out = tfx_gzip_go(C, in, n, &nout);
    char *text = tfx_ctx_alloc(C, (nout + 2) / 3 * 4 + 1);

    for (i = 0; i < nout; i += 3) {
        unsigned long v = (unsigned long)out[i] << 16;

        if (i + 1 < nout)
            v |= (unsigned long)out[i + 1] << 8;
        if (i + 2 < nout)
            v |= out[i + 2];
        text[k++] = alphabet[(v >> 18) & 63];
        text[k++] = alphabet[(v >> 12) & 63];
        text[k++] = pad;
        text[k++] = pad;
        if (i + 1 < nout)
            text[k - 2] = alphabet[(v >> 6) & 63];
        if (i + 2 < nout)
            text[k - 1] = alphabet[v & 63];
    }
    text[k] = '\0';
    return text;
}

static void test_vectors(tfx_ctx *ctx, void *arg)
{
    unsigned char all[256], as[1000];
    size_t i;

    TFX_UNUSED(ctx);
    TFX_UNUSED(arg);
    for (i = 0; i < 256; i++)
        all[i] = (unsigned char)i;
    memset(as, 'a', sizeof as);
    /* [gzip.member] [gzip.member.header] [gzip.deflate.flush] [gzip.deflate.close] */
    CHECK_STR(gzip_b64((const unsigned char *)"", 0), "H4sIAAAAAAAA/wAAAP//AQAA//8AAAAAAAAAAA==");
    /* [gzip.block.fixed] */
    CHECK_STR(gzip_b64((const unsigned char *)"hello world", 11),
              "H4sIAAAAAAAA/8pIzcnJVyjPL8pJAQAAAP//AQAA//+FEUoNCwAAAA==");
    /* [gzip.level] [gzip.deflate.lazy] [gzip.deflate.match]: one long run */
    CHECK_STR(gzip_b64(as, sizeof as), "H4sIAAAAAAAA/0ocBaNgFAx7AAAAAP//AQAA//8D2jia6AMAAA==");
    /* [gzip.block.stored]: 256 distinct bytes are cheapest stored */
    CHECK_STR(gzip_b64(all, sizeof all),
              "H4sIAAAAAAAA/wAAAf/+AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKiss"
              "LS4vMDEyMzQ1Njc4OTo7PD0+P0BBQkNERUZHSElKS0xNTk9QUVJTVFVWV1hZWltcXV5fYGFiY2RlZmdo"
              "aWprbG1ub3BxcnN0dXZ3eHl6e3x9fn+AgYKDhIWGh4iJiouMjY6PkJGSk5SVlpeYmZqbnJ2en6ChoqOk"
              "paanqKmqq6ytrq+wsbKztLW2t7i5uru8vb6/wMHCw8TFxsfIycrLzM3Oz9DR0tPU1dbX2Nna29zd3t/g"
              "4eLj5OXm5+jp6uvs7e7v8PHy8/T19vf4+fr7/P3+/wAAAP//AQAA//9zjAUpAAEAAA==");
}

/* ---- Random inputs: zlib inflates them back ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

/* Random data of one of several kinds: random bytes, a small alphabet,
 * a repeated unit with mutations, runs. */
static void fill_random(unsigned char *buf, size_t n, unsigned kind)
{
    size_t i;
    unsigned char unit[37];
    size_t unit_len = 1 + rnd() % sizeof unit;

    for (i = 0; i < unit_len; i++)
        unit[i] = (unsigned char)rnd();
    for (i = 0; i < n; i++) {
        switch (kind % 4) {
        case 0:
            buf[i] = (unsigned char)rnd();
            break;
        case 1:
            buf[i] = (unsigned char)("abcd"[rnd() % 4]);
            break;
        case 2:
            buf[i] = rnd() % 500 == 0 ? (unsigned char)rnd() : unit[i % unit_len];
            break;
        default:
            buf[i] = i > 0 && rnd() % 100 != 0 ? buf[i - 1] : (unsigned char)rnd();
            break;
        }
    }
}

/* Inflates a gzip member (gzip true) or a raw DEFLATE stream; true if it
 * decodes completely to exactly want[0..nwant). */
static bool inflates_to(const unsigned char *z, size_t nz, bool gzip, const unsigned char *want,
                        size_t nwant)
{
    z_stream s;
    unsigned char *out = malloc(nwant + 16);
    bool ok;
    int rc;

    if (out == NULL)
        return false;
    memset(&s, 0, sizeof s);
    if (inflateInit2(&s, gzip ? 16 + 15 : -15) != Z_OK) {
        free(out);
        return false;
    }
    s.next_in = z;
    s.avail_in = (uInt)nz;
    s.next_out = out;
    s.avail_out = (uInt)(nwant + 16);
    rc = inflate(&s, Z_FINISH);
    ok = rc == Z_STREAM_END && s.total_out == nwant && s.avail_in == 0
         && memcmp(out, want, nwant) == 0;
    inflateEnd(&s);
    free(out);
    return ok;
}

static void test_roundtrip(tfx_ctx *ctx, void *arg)
{
    static const size_t sizes[] = {0,     1,     3,     4,     5,     257,   258,
                                   262,   4096,  16383, 16384, 16385, 32767, 32768,
                                   32769, 65274, 65535, 65536, 65537, 98304, 200000};
    size_t i;

    TFX_UNUSED(arg);
    for (i = 0; i < 200; i++) {
        size_t n = i < TFX_COUNTOF(sizes) * 4 ? sizes[i % TFX_COUNTOF(sizes)] : rnd() % 70000;
        unsigned kind = (unsigned)(i / TFX_COUNTOF(sizes)) + (unsigned)i;
        unsigned char *in = tfx_ctx_alloc(ctx, n > 0 ? n : 1);
        size_t nz = 0, nraw = 0;
        const unsigned char *z, *raw;
        uLong crc;

        fill_random(in, n, kind);
        z = tfx_gzip_go(ctx, in, n, &nz);
        /* [gzip.member] the whole member inflates back to the input */
        CHECK(inflates_to(z, nz, true, in, n));
        /* [gzip.member.header] */
        CHECK(nz >= 18 + 9 && memcmp(z, "\x1f\x8b\x08\0\0\0\0\0\0\xff", 10) == 0);
        /* [gzip.deflate.flush] [gzip.deflate.close] the stream's end */
        CHECK(memcmp(z + nz - 8 - 9, "\0\0\xff\xff\x01\0\0\xff\xff", 9) == 0);
        /* [gzip.member.trailer] */
        crc = crc32(crc32(0L, Z_NULL, 0), in, (uInt)n);
        CHECK(z[nz - 8] == (crc & 0xff) && z[nz - 7] == ((crc >> 8) & 0xff)
              && z[nz - 6] == ((crc >> 16) & 0xff) && z[nz - 5] == ((crc >> 24) & 0xff));
        CHECK(z[nz - 4] == (n & 0xff) && z[nz - 3] == ((n >> 8) & 0xff)
              && z[nz - 2] == ((n >> 16) & 0xff) && z[nz - 1] == 0);
        /* [gzip.deflate] [gzip.deflate.write] the raw stream without the
         * flush, too */
        raw = tfx_deflate_go(ctx, in, n, false, &nraw);
        CHECK(inflates_to(raw, nraw, false, in, n));
        /* [gzip.block.choice] at most 9 bits a byte, and the blocks' framing */
        CHECK(nraw <= n + n / 8 + (n / 16384 + 2) * 320);
    }
}

/* [gzip.block.stored] [gzip.deflate.window] Random bytes past the slide:
 * blocks of random data are stored while their bytes are in the window. */
static void test_stored(tfx_ctx *ctx, void *arg)
{
    size_t n = 100000, nraw = 0;
    unsigned char *in = tfx_ctx_alloc(ctx, n);
    const unsigned char *raw;

    TFX_UNUSED(arg);
    fill_random(in, n, 0);
    raw = tfx_deflate_go(ctx, in, n, false, &nraw);
    CHECK((raw[0] & 7) == 0); /* not final, stored */
    CHECK(inflates_to(raw, nraw, false, in, n));
}

/* [gzip.block.header] A skewed text gives a dynamic block. */
static void test_dynamic(tfx_ctx *ctx, void *arg)
{
    size_t n = 5000, nraw = 0, i;
    unsigned char *in = tfx_ctx_alloc(ctx, n);
    const unsigned char *raw;

    TFX_UNUSED(arg);
    for (i = 0; i < n; i++)
        in[i] = (unsigned char)("eeeeeeetaoinshrdlu \n"[rnd() % 20]);
    raw = tfx_deflate_go(ctx, in, n, false, &nraw);
    CHECK((raw[0] & 7) == 4); /* not final, dynamic */
    CHECK(inflates_to(raw, nraw, false, in, n));
    CHECK(nraw < n * 6 / 10);
}

/* ---- The function ---- */

static void test_function(tfx_ctx *ctx, void *arg)
{
    const tfx_value *u = tfx_value_unknown(ctx, &tfx_type_str);
    const tfx_value *secret =
        tfx_value_mark(ctx, SN("hello world", 11), tfx_marks_one(ctx, "sensitive", 9));

    TFX_UNUSED(arg);
    /* [fn.base64gzip] */
    CHECK_STR(call("base64gzip", 1, SN("hello world", 11)),
              "\"H4sIAAAAAAAA/8pIzcnJVyjPL8pJAQAAAP//AQAA//+FEUoNCwAAAA==\" :: string");
    /* the UTF-8 bytes: "héllo 日本" */
    CHECK_STR(call("base64gzip", 1, SN("h\xc3\xa9llo \xe6\x97\xa5\xe6\x9c\xac", 13)),
              "\"H4sIAAAAAAAA/8o4vDInJ1/h2fSlz+asAQAAAP//AQAA//82sAE3DQAAAA==\" :: string");
    /* [fn.base64gzip.params] */
    CHECK_STR(call("base64gzip", 1, tfx_value_null(ctx, &tfx_type_str)),
              "arg 0: argument must not be null");
    CHECK_STR(call("base64gzip", 1, u), "unknown(string) :: string");
    /* an unknown's marks are dropped: cty returns before it looks at them */
    CHECK_STR(call("base64gzip", 1, tfx_value_mark(ctx, u, tfx_marks_one(ctx, "sensitive", 9))),
              "unknown(string) :: string");
    /* cty's machinery: the return type of an unknown of type dynamic is dynamic */
    CHECK_STR(call("base64gzip", 1, tfx_value_unknown(ctx, &tfx_type_dynamic)), "unknown(dynamic) :: dynamic");
    CHECK_STR(call("base64gzip", 1, secret),
              "\"H4sIAAAAAAAA/8pIzcnJVyjPL8pJAQAAAP//AQAA//+FEUoNCwAAAA==\"@sensitive :: string");
}

/* ---- Limits [gzip.limits] ---- */

typedef struct {
    size_t n;
    size_t nout;
} big_job;

static void compress_big(tfx_ctx *ctx, void *arg)
{
    big_job *job = arg;
    unsigned char *in = tfx_ctx_alloc(ctx, job->n);

    fill_random(in, job->n, 2);
    (void)tfx_gzip_go(ctx, in, job->n, &job->nout);
}

static void call_big(tfx_ctx *ctx, void *arg)
{
    big_job *job = arg;
    char *in = tfx_ctx_alloc(ctx, job->n);
    const tfx_value *args[1];
    tfx_func_error err = {-1, NULL};

    size_t i;

    for (i = 0; i < job->n; i++)
        in[i] = (char)(' ' + rnd() % 95);
    args[0] = tfx_value_string_raw(ctx, in, job->n);
    (void)tfx_func_call(ctx, tfx_func_builtin("base64gzip", 10), args, 1, &err);
}

static void test_limits(void)
{
    tfx_ctx_limits limits;
    big_job job = {4u << 20, 0};

    /* the steps bound the work */
    tfx_ctx_limits_init(&limits);
    limits.max_steps = 1000;
    CHECK_STR(run_limited(&limits, compress_big, &job), "Evaluation step limit exceeded");
    /* within the default limits, 4 MiB compresses */
    CHECK_STR(run_limited(NULL, compress_big, &job), "completed");
    CHECK(job.nout > 18);
    /* the memory budget */
    tfx_ctx_limits_init(&limits);
    limits.max_memory_bytes = 300000;
    job.n = 1000;
    CHECK_STR(run_limited(&limits, compress_big, &job), "Memory limit exceeded");
    /* the string limit on the result */
    tfx_ctx_limits_init(&limits);
    limits.max_string_bytes = 1000;
    job.n = 990; /* printable bytes: the base64 of their gzip is longer */
    CHECK_STR(run_limited(&limits, call_big, &job), "String length limit exceeded");
}

int main(void)
{
    CHECK(run("vectors", test_vectors));
    CHECK(run("roundtrip", test_roundtrip));
    CHECK(run("stored", test_stored));
    CHECK(run("dynamic", test_dynamic));
    CHECK(run("function", test_function));
    test_limits();
    return check_report("test_fn_gzip");
}
