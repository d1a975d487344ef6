/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_fn_strings.c — unit tests of the string functions of
 * spec/functions-strings.md (funcs_string.c) and of the text services
 * they rest on (text.c: strings.Title, go-textseg v13 clusters, NFC):
 * direct calls with tfx_func_call, and the limits that the conformance
 * corpus cannot reach.
 *
 * Expectations marked "ref" were checked against the reference adapter
 * (bin/go-hcl-adapter) with the HCL expression in the comment.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "common.h"
#include "funcs_internal.h"
#include "render.h"
#include "testval.h"
#include "text.h"

/* The lengths of the clusters of s, as "1,2,3". */
static const char *clusters(const char *s)
{
    tfx_textbuf b;
    size_t n = strlen(s);
    size_t i = 0;

    tfx_textbuf_init(&b, C);
    while (i < n) {
        size_t len = tfx_text_grapheme_len((const unsigned char *)s + i, n - i);

        tfx_textbuf_printf(&b, i == 0 ? "%zu" : ",%zu", len);
        i += len;
    }
    return tfx_textbuf_text(&b);
}

static const char *nfc(const char *s)
{
    size_t n = 0;

    return tfx_text_nfc(C->arena, s, strlen(s), &n);
}

static const char *title(const char *s)
{
    size_t n = 0;

    return tfx_text_title(C->arena, s, strlen(s), &n);
}

static void test_text(tfx_ctx *ctx, void *unused)
{
    (void)ctx;
    (void)unused;

    /* [fn.upper.map] a byte that is not UTF-8 becomes U+FFFD (ref, with
     * OpenTofu's urldecode: base64encode(upper(urldecode("a%ff")))) */
    {
        size_t n = 0;
        const char *u = tfx_text_map_case(C->arena, "a\xff\xc3", 3, true, &n);

        CHECK(u != NULL && n == 7 && memcmp(u, "A\xef\xbf\xbd\xef\xbf\xbd", 7) == 0);
        u = tfx_text_map_case(C->arena, "\xe2\x82", 2, false, &n);
        CHECK(u != NULL && n == 6 && memcmp(u, "\xef\xbf\xbd\xef\xbf\xbd", 6) == 0);
    }
    /* ref title("don't a—b a\u00a0b ǆx ß") */
    CHECK_STR(title("don't a\xe2\x80\x94" "b a\xc2\xa0" "b \xc7\x86x \xc3\x9f"),
              "Don'T A\xe2\x80\x94" "b A\xc2\xa0" "B \xc7\x85x \xc3\x9f");
    CHECK_STR(title(""), "");
    CHECK_STR(title("_a 1b"), "_a 1b");
    /* A byte that is not UTF-8 becomes U+FFFD, as strings.Map writes it */
    CHECK_STR(title("a\xff"), "A\xef\xbf\xbd");

    /* go-textseg v13 clusters (ref strrev of each) */
    CHECK_STR(clusters("a\xcc\x81"), "3");                       /* a U+0301 */
    CHECK_STR(clusters("\xef\xbf\xbd\xcc\x81"), "3,2");          /* U+FFFD U+0301 */
    CHECK_STR(clusters("\xd8\x80\xef\xbf\xbd"), "2,3");          /* U+0600 U+FFFD */
    CHECK_STR(clusters("\xe2\x81\xa5\xcc\x81"), "3,2");          /* U+2065 U+0301 */
    CHECK_STR(clusters("a\xe0\xa2\x98"), "1,3");                 /* a U+0898 */
    CHECK_STR(clusters("\xea\xb0\x80\xe2\x80\x8d\xe2\x9d\xa4x"), "9,1"); /* 가 ZWJ ❤ x */
    CHECK_STR(clusters("a\xe2\x80\x8d\xe2\x9d\xa4"), "4,3");     /* a ZWJ ❤ */
    /* 👩 U+0903 ZWJ 👩: one cluster */
    CHECK_STR(clusters("\xf0\x9f\x91\xa9\xe0\xa4\x83\xe2\x80\x8d\xf0\x9f\x91\xa9"), "14");
    /* 👩 ZWJ U+1F02C (reserved, pictographic in Unicode 13) */
    CHECK_STR(clusters("\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x80\xac"), "11");
    /* x U+11720 (SpacingMark in Unicode 13) a */
    CHECK_STR(clusters("x\xf0\x91\x9c\xa0" "a"), "5,1");
    CHECK_STR(clusters("\r\n\n"), "2,1");

    /* NFC: U+0898 (ccc 230 since Unicode 14) is a starter for Unicode 13,
     * so U+094D (ccc 9) is not moved before it. */
    CHECK_STR(nfc("a\xe0\xa2\x98\xe0\xa5\x8d"), "a\xe0\xa2\x98\xe0\xa5\x8d");
    CHECK_STR(nfc("e\xcc\x81\xe0\xa2\x98" "e\xcc\x81"), "\xc3\xa9\xe0\xa2\x98\xc3\xa9");
    CHECK_STR(nfc("\xe0\xa5\x8d\xe0\xa4\x83"), "\xe0\xa5\x8d\xe0\xa4\x83");
}

static void test_calls(tfx_ctx *ctx, void *unused)
{
    (void)ctx;
    (void)unused;

    /* ref */
    CHECK_STR(call("chomp", 1, S("a\n\r\n")), "\"a\" :: string");
    CHECK_STR(call("indent", 2, I(2), S("a\nb")), "\"a\\n  b\" :: string");
    CHECK_STR(call("indent", 2, I(-1), S("a")),
              "error: panic in function implementation: strings: negative Repeat count");
    CHECK_STR(call("join", 1, S(",")), "error: at least one list is required");
    CHECK_STR(call("split", 2, S(""), S("")), "list[] :: list(string)");
    CHECK_STR(call("strrev", 1, S("\xcc\x81" "e")), "\"\xc3\xa9\" :: string");
    CHECK_STR(call("substr", 3, S("hello"), I(-2), I(0)), "\"lo\" :: string");
    CHECK_STR(call("substr", 3, S("hello"), I(2), I(0)), "\"\" :: string");
    CHECK_STR(call("substr", 3, S("hello"), I(INT64_MIN), I(INT64_MAX)),
              "\"hello\" :: string");
    CHECK_STR(call("substr", 3, S("hello"), I(INT64_MAX), I(-1)), "\"\" :: string");
    CHECK_STR(call("trim", 2, S("xax"), S("x")), "\"a\" :: string");
    CHECK_STR(call("trimspace", 1, S("\xe3\x80\x80" "a ")), "\"a\" :: string");
}

/* indent's padding is made (and checked against the string limit) even
 * when str has no line feed. */
static void indent_huge(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    (void)call("indent", 2, I(INT64_MAX), S("a"));
}

/* split into more elements than the collection limit. */
static void split_many(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    (void)call("split", 2, S(""), S("abcdefghijk"));
}

int main(void)
{
    tfx_ctx_limits limits;

    CHECK(run("text", test_text));
    CHECK(run("calls", test_calls));

    CHECK_STR(run_limited(NULL, indent_huge, NULL), "String length limit exceeded");

    tfx_ctx_limits_init(&limits);
    limits.max_collection_items = 10;
    CHECK_STR(run_limited(&limits, split_many, NULL), "Collection size limit exceeded");
    C = NULL;
    return check_report("test_fn_strings");
}
