/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_text.c — unit tests of text.h's fast paths against the general
 * paths they stand for, on random inputs ([value.string.nfc]).
 */
#include "text.h"

#include <stdint.h>
#include <stdlib.h>

#include "check.h"

/* A fixed-seed xorshift generator: the same inputs on every run. */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Pieces random text is made of: ASCII bytes, NUL, and non-ASCII code
 * points that NFC changes or that stop the fast path (a combining mark,
 * a decomposed letter's mark, Hangul jamo, a mark newer than Unicode 13,
 * a bad byte). */
static const struct {
    const char *bytes;
    size_t n;
} non_ascii[] = {
    {"\xCC\x81", 2}, {"\xCC\x8A", 2}, {"\xC3\xA9", 2}, {"\xE1\x84\x80", 3},
    {"\xE1\x85\xA1", 3}, {"\xE1\xAB\x81", 3}, {"\xF0\x9F\x98\x80", 4}, {"\xFF", 1},
    {"\xC3", 1}, {"\xE2\x84\xAB", 3},
};

/* Random text of up to 40 bytes into buf; ASCII only when ascii_only. */
static size_t random_text(char *buf, bool ascii_only)
{
    size_t len = (size_t)(rng() % 41);
    size_t n = 0;

    while (n < len) {
        uint64_t r = rng();

        if (!ascii_only && r % 8 == 0) {
            size_t k = (size_t)((r >> 8) % (sizeof(non_ascii) / sizeof(non_ascii[0])));
            size_t j;

            for (j = 0; j < non_ascii[k].n; j++)
                buf[n++] = non_ascii[k].bytes[j];
        } else {
            buf[n++] = (char)((r >> 16) % 0x80);   /* 00..7F, NUL included */
        }
    }
    return n;
}

/* tfx_text_nfc (with its ASCII fast path) equals tfx_text_nfc_general on
 * random ASCII text and on random mixed text. */
static void test_nfc_fast_path(void)
{
    tfx_arena *a = tfx_arena_new(0);
    int same = 0;
    int i;

    CHECK(a != NULL);
    if (a == NULL)
        return;
    for (i = 0; i < 20000; i++) {
        char buf[256];
        size_t n = random_text(buf, i % 2 == 0);
        size_t nfast = 0;
        size_t ngen = 0;
        const char *fast = tfx_text_nfc(a, buf, n, &nfast);
        const char *gen = tfx_text_nfc_general(a, buf, n, &ngen);

        if (fast != NULL && gen != NULL && nfast == ngen && memcmp(fast, gen, nfast) == 0
            && fast[nfast] == '\0')
            same++;
        else
            fprintf(stderr, "nfc differs on input %d (%zu bytes)\n", i, n);
    }
    CHECK(same == 20000);
    /* The edge cases: empty text, NUL, DEL, and a composing pair. */
    {
        size_t n = 1;
        const char *r = tfx_text_nfc(a, "", 0, &n);

        CHECK(r != NULL && n == 0 && r[0] == '\0');
        r = tfx_text_nfc(a, "a\0\x7F", 3, &n);
        CHECK(r != NULL && n == 3 && memcmp(r, "a\0\x7F", 3) == 0);
        r = tfx_text_nfc(a, "e\xCC\x81", 3, &n);
        CHECK_STR(r, "\xC3\xA9");
        CHECK(n == 2);
        /* [value.string.nfc] U+AC00 U+11A7 stays, in both profiles; L V
         * U+11A7 composes the L V only */
        r = tfx_text_nfc(a, "\xEA\xB0\x80\xE1\x86\xA7", 6, &n);
        CHECK_STR(r, "\xEA\xB0\x80\xE1\x86\xA7");
        r = tfx_text_nfc_profile(a, "\xEA\xB0\x80\xE1\x86\xA7", 6, true, &n);
        CHECK_STR(r, "\xEA\xB0\x80\xE1\x86\xA7");
        r = tfx_text_nfc_profile(a, "\xE1\x84\x80\xE1\x85\xA1\xE1\x86\xA7", 9, true, &n);
        CHECK_STR(r, "\xEA\xB0\x80\xE1\x86\xA7");
        /* [value.string.nfc] [value.string.nfc.pn] U+1E4EC (class 232, new in
         * Unicode 15) then U+0301: a starter for P14, a mark for PN */
        r = tfx_text_nfc_profile(a, "a\xF0\x9E\x93\xAC\xCC\x81", 7, false, &n);
        CHECK_STR(r, "a\xF0\x9E\x93\xAC\xCC\x81");
        r = tfx_text_nfc_profile(a, "a\xF0\x9E\x93\xAC\xCC\x81", 7, true, &n);
        CHECK_STR(r, "\xC3\xA1\xF0\x9E\x93\xAC");
        CHECK(n == 6);
        r = tfx_text_nfc_profile(a, "e\xCC\x81", 3, true, &n);
        CHECK_STR(r, "\xC3\xA9");
    }
    tfx_arena_free(a);
}

/* tfx_text_map_case (with its ASCII fast path) equals
 * tfx_text_map_case_general on random ASCII text and on random mixed
 * text, both ways. */
static void test_map_case_fast_path(void)
{
    tfx_arena *a = tfx_arena_new(0);
    int same = 0;
    int i;

    CHECK(a != NULL);
    if (a == NULL)
        return;
    for (i = 0; i < 20000; i++) {
        char buf[256];
        size_t n = random_text(buf, i % 4 != 0);
        bool upper = (i / 2) % 2 == 0;
        size_t nfast = 0;
        size_t ngen = 0;
        const char *fast = tfx_text_map_case(a, buf, n, upper, &nfast);
        const char *gen = tfx_text_map_case_general(a, buf, n, upper, &ngen);

        if (fast != NULL && gen != NULL && nfast == ngen && memcmp(fast, gen, nfast) == 0
            && fast[nfast] == '\0')
            same++;
        else
            fprintf(stderr, "map_case differs on input %d (%zu bytes)\n", i, n);
    }
    CHECK(same == 20000);
    {
        size_t n = 0;
        const char *r = tfx_text_map_case(a, "aZ@[`{", 6, true, &n);

        CHECK_STR(r, "AZ@[`{");
        r = tfx_text_map_case(a, "aZ@[`{", 6, false, &n);
        CHECK_STR(r, "az@[`{");
    }
    tfx_arena_free(a);
}

/* tfx_text_skip_graphemes_profile (with its ASCII fast path) equals
 * tfx_text_skip_graphemes_general for random counts on random text, CR
 * LF pairs and ASCII next to marks included, in both profiles
 * ([fn.strings.graphemes], [fn.strings.graphemes.pn]). */
static void test_graphemes_fast_path(void)
{
    int same = 0;
    int i;

    for (i = 0; i < 40000; i++) {
        char buf[512];
        size_t n = random_text(buf, i % 3 == 0);
        size_t k = (i % 5 == 0) ? SIZE_MAX : (size_t)(rng() % 48);
        size_t tfast = 0;
        size_t tgen = 0;
        size_t fast;
        size_t gen;

        /* CR and LF often, so that pairs and lone ones meet marks */
        for (size_t j = 0; j < n; j++)
            if ((unsigned char)buf[j] < 0x80 && rng() % 4 == 0)
                buf[j] = (rng() % 2 == 0) ? '\r' : '\n';
        fast = tfx_text_skip_graphemes_profile((const unsigned char *)buf, n, k, &tfast, i % 2);
        gen = tfx_text_skip_graphemes_general((const unsigned char *)buf, n, k, &tgen, i % 2);
        if (fast == gen && tfast == tgen)
            same++;
        else
            fprintf(stderr, "skip_graphemes differs on input %d (%zu bytes, k %zu)\n", i, n, k);
    }
    CHECK(same == 40000);
    CHECK(tfx_text_count_graphemes((const unsigned char *)"a\r\nb\r", 5) == 4);
    CHECK(tfx_text_count_graphemes((const unsigned char *)"e\xCC\x81\r\n\xCC\x81", 7) == 3);
    /* U+0898, a mark of Unicode 14: a cluster of its own in P14, part of
     * the one before it in PN */
    CHECK(tfx_text_count_graphemes((const unsigned char *)"a\xE0\xA2\x98", 4) == 2);
    CHECK(tfx_text_count_graphemes_profile((const unsigned char *)"a\xE0\xA2\x98", 4, true) == 1);
    /* [fn.strings.graphemes] L LV T: the T starts a cluster; LV T and
     * L LV V T are one */
    CHECK(tfx_text_count_graphemes((const unsigned char *)"\xE1\x84\x80\xEA\xB0\x80\xED\x9F\x99", 9)
          == 2);
    CHECK(tfx_text_count_graphemes((const unsigned char *)"\xEA\xB0\x80\xED\x9F\x99", 6) == 1);
    CHECK(tfx_text_count_graphemes(
              (const unsigned char *)"\xE1\x84\x80\xEA\xB0\x80\xE1\x85\xA1\xED\x9F\x99", 12)
          == 1);
}

int main(void)
{
    test_nfc_fast_path();
    test_graphemes_fast_path();
    test_map_case_fast_path();
    return check_report("test_text");
}
